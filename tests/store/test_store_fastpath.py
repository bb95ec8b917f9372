"""The store holds the same rows whether the replay took the engines' bulk fast path or the
reference engine (tricks come from ``HandReplay.tricks`` after a fast replay, from the engine's
``view()`` otherwise)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tarock_logs.store.ingest import ingest
from tarock_logs.verdict import replay as rp

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs" / "tournament"
TABLES = ("tricks", "hand_scores", "score_items", "violations", "hands")


def _rows(db: Path, table: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        cols = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()]
        return con.execute(f"SELECT {', '.join(cols)} FROM {table} ORDER BY ALL").fetchall()
    finally:
        con.close()


def test_ingest_stores_the_same_rows_with_and_without_the_fast_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tarock_logs.log.models import SessionAdapter

    line = next(iter(sorted(SAMPLES.glob("*.jsonl")))).read_text(encoding="utf-8").splitlines()[0]
    taken = [r._tricks is not None for r in rp.replay_session(SessionAdapter.validate_json(line))]
    assert all(taken)  # the samples do go through the fast path
    ingest([str(SAMPLES)], db=str(tmp_path / "fast.duckdb"), jobs=1)
    monkeypatch.setattr(rp, "FAST_PATH", False)
    ingest([str(SAMPLES)], db=str(tmp_path / "ref.duckdb"), jobs=1)
    for table in TABLES:
        fast, ref = _rows(tmp_path / "fast.duckdb", table), _rows(tmp_path / "ref.duckdb", table)
        assert fast == ref, table
    assert len(_rows(tmp_path / "fast.duckdb", "tricks")) > 1000
