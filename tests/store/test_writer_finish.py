"""The end of an ingest (store/write/ingest.py, ``_Writer.finish``): the loads' last transaction
committed in a thread while a second connection computes the facts, the tournaments and the
ratings (``_overlapped``) gives the store the one-transaction end gives, after new, changed,
unchanged and pruned files alike (a changed file's vanished player's summary goes too); the
second connection's fence table is gone from the published file; a failure in the second
transaction publishes nothing and leaves nothing behind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from tarock_logs.store.write import ingest as ig
from tarock_logs.store.write import plan, ratings
from tarock_logs.tools.simulate import dumps_session, simulate_hands
from tests.support.store_fixtures import reverse_scores_of_first_session, store_content

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ("slovenian", "tournament", "zwanzigerrufen", "royal", "disputed")


def _logs(folder: Path) -> None:
    for g in SAMPLES:
        shutil.copytree(ROOT / "sample_logs" / g, folder / g)


def _run(tmp: Path, tag: str, overlap: int, monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    monkeypatch.setattr(ig, "OVERLAP_HANDS", overlap)
    monkeypatch.setattr(plan, "usable_cores", lambda: 2)
    logs = tmp / "logs"  # (the same paths for both runs: files are keyed by path)
    shutil.rmtree(logs, ignore_errors=True)
    _logs(logs)
    db = tmp / f"{tag}.duckdb"
    out = []
    ig.ingest([logs], db=db, exclude=["malformed"], jobs=1)
    out.append(store_content(db))
    reverse_scores_of_first_session(sorted((logs / "tournament").glob("*.jsonl"))[0])
    ig.ingest([logs], db=db, exclude=["malformed"], jobs=1)
    out.append(store_content(db))
    ig.ingest([logs], db=db, exclude=["malformed"], jobs=1)  # nothing changed
    out.append(store_content(db))
    # the Royal Tarock files pruned (their players' summaries go) and a new file loaded
    shutil.rmtree(logs / "royal")
    (logs / "new.jsonl").write_bytes(
        b"".join(dumps_session(s) for s in simulate_hands(32, 9, hands_per_session=16))
    )
    ig.ingest([logs], db=db, exclude=["malformed"], jobs=1, prune=True)
    out.append(store_content(db))
    # the new file changed: one of its players renamed (the old name's summary must go)
    text = (logs / "new.jsonl").read_text("utf-8")
    old = json.loads(text.splitlines()[0])["players"][0]["id"]
    (logs / "new.jsonl").write_text(text.replace(f'"{old}"', '"renamed.player"'), "utf-8")
    ig.ingest([logs], db=db, exclude=["malformed"], jobs=1)
    out.append(store_content(db))
    return out


def test_the_overlapped_end_gives_the_store_of_the_one_transaction_end(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = {"overlapped": 0}
    real = ig._Writer._overlapped

    def counting(self: ig._Writer) -> None:
        calls["overlapped"] += 1
        real(self)

    monkeypatch.setattr(ig._Writer, "_overlapped", counting)
    overlapped = _run(tmp_path, "overlapped", 0, monkeypatch)
    assert calls["overlapped"] == 3  # the first ingest and the two changed files'
    plain = _run(tmp_path, "plain", 10**9, monkeypatch)
    assert calls["overlapped"] == 3
    for a, b in zip(overlapped, plain, strict=True):
        assert a.keys() == b.keys()
        assert ig._FENCE not in a
        for table in a:
            assert a[table] == b[table], table
    assert overlapped[0]["seat_facts"] and overlapped[0]["rating_history"]
    assert overlapped[1]["rating_history"] != overlapped[0]["rating_history"]
    assert any(row[0] == "renamed.player" for row in overlapped[4]["players"])


def test_a_failure_beside_the_commit_publishes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = tmp_path / "logs"
    _logs(logs)
    db = tmp_path / "t.duckdb"
    monkeypatch.setattr(ig, "OVERLAP_HANDS", 0)
    monkeypatch.setattr(plan, "usable_cores", lambda: 2)

    def broken(con: duckdb.DuckDBPyConnection) -> list[str]:
        raise RuntimeError("ratings broke")

    monkeypatch.setattr(ratings, "refresh", broken)
    with pytest.raises(RuntimeError, match="ratings broke"):
        ig.ingest([logs], db=db, exclude=["malformed"], jobs=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["logs"]
    monkeypatch.undo()
    ig.ingest([logs], db=db, exclude=["malformed"], jobs=1)  # and the next ingest works
    assert store_content(db)["hands"]
