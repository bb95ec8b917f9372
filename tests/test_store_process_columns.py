"""The store's column-wise table building equals the row-by-row reading of the same audit:
every trick row of the tournament sample, as the audit's replay gives it."""

from __future__ import annotations

from pathlib import Path

from tarock_logs.reader import read_file
from tarock_logs.store import process, sources

ROOT = Path(__file__).resolve().parent.parent
ROUND = ROOT / "sample_logs" / "tournament" / "round-1.jsonl"


def test_trick_rows_are_the_replayed_tricks_row_by_row() -> None:
    tables = process.process_shard(ROUND)
    got = tables["tricks"].to_pylist()
    want = []
    seen: set[str] = set()
    for rec in read_file(ROUND):
        assert rec.session is not None
        audited = sources.audit_session(rec.session, "f")
        for audit, tricks in audited.hands:
            if audit["hand_id"] in seen:
                continue
            seen.add(audit["hand_id"])
            for k, tr in enumerate(tricks):
                played = tr.get("cards") or []
                want.append({
                    "hand_id": audit["hand_id"], "trick_no": k + 1, "leader": tr.get("leader"),
                    "winner": tr.get("winner"), "seats": [int(s) for s, _ in played],
                    "cards": [str(c) for _, c in played], "points": tr.get("points"),
                })  # fmt: skip
    assert len(got) > 100
    assert got == want
