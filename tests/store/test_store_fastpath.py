"""The store holds the same rows whether the replay took the engines' bulk fast path or the
reference engine (tricks come from ``HandReplay.tricks`` after a fast replay, from the engine's
``view()`` otherwise)."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from tarock_logs.store.write.ingest import ingest
from tarock_logs.verdict import replay as rp

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs" / "tournament"
TABLES = ("tricks", "hand_scores", "score_items", "violations", "hands")


#: how a hand's step timeline was found (1: the reference's own record, 2: a clean hand of
#: the bulk path) differs by path; the positions are the same (tests/store/test_timeline.py)
_HOW = {"hands": ("timeline",)}


def _rows(db: Path, table: str) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        cols = [
            r[0]
            for r in con.execute(f"DESCRIBE {table}").fetchall()
            if r[0] not in _HOW.get(table, ())
        ]
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


@pytest.mark.parametrize("game", ["zwanzigerrufen", "royal"])
def test_simulated_zr_and_royal_ingest_stores_the_same_rows_with_and_without_the_native_loop(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zwanzigerrufen and Royal Tarock hands whose cards the native loop played (their bulk
    paths, ``rules/zwanzigerrufen/fast.py`` and ``rules/royal/fast.py``) store the rows the
    reference replay stores (tricks with card points, Märchenstich and Mondfang included)."""
    from tarock_logs import _native
    from tarock_logs.tools.simulate import dumps_session, simulate_hands

    if not _native.available():
        pytest.skip(f"the native core is not loaded: {_native.why_not}")
    folder = tmp_path / "logs"
    folder.mkdir()
    docs = simulate_hands(160, 11, game=game, hands_per_session=8)
    (folder / f"{game}.jsonl").write_bytes(b"".join(dumps_session(d) for d in docs))
    ingest([str(folder)], db=str(tmp_path / "fast.duckdb"), jobs=1)
    monkeypatch.setattr(rp, "FAST_PATH", False)
    ingest([str(folder)], db=str(tmp_path / "ref.duckdb"), jobs=1)
    for table in TABLES:
        fast, ref = _rows(tmp_path / "fast.duckdb", table), _rows(tmp_path / "ref.duckdb", table)
        assert fast == ref, table
    assert len(_rows(tmp_path / "fast.duckdb", "tricks")) >= 1500
