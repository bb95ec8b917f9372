"""The store's column-wise table building equals the row-by-row reading of the same audit:
every trick row of the tournament sample, as the audit's replay gives it."""

from __future__ import annotations

from pathlib import Path

from tarock_logs.log.reader import read_file
from tarock_logs.rules.base import TrickRows
from tarock_logs.store import sources
from tarock_logs.store.write import process

ROOT = Path(__file__).resolve().parents[2]
ROUND = ROOT / "sample_logs" / "tournament" / "round-1.jsonl"


def test_trick_rows_are_the_replayed_tricks_row_by_row() -> None:
    tables = process.process_shard(ROUND)
    got = tables["tricks"].to_pylist()
    want = []
    seen: set[str] = set()
    for rec in read_file(ROUND):
        assert rec.session is not None
        audited = sources.audit_session(rec.session, "f")
        for audit, tricks, _timeline in audited.hands:
            if audit["hand_id"] in seen:
                continue
            seen.add(audit["hand_id"])
            if isinstance(tricks, TrickRows):  # the engine's columns, row by row
                tricks = [
                    {
                        "leader": ld,
                        "winner": w,
                        "cards": list(zip(st, cs, strict=True)),
                        "points": p,
                    }
                    for ld, w, st, cs, p in zip(*tricks, strict=True)
                ]
            for k, tr in enumerate(tricks):
                played = tr.get("cards") or []
                want.append({
                    "hand_id": audit["hand_id"], "trick_no": k + 1, "leader": tr.get("leader"),
                    "winner": tr.get("winner"), "seats": [int(s) for s, _ in played],
                    "cards": [str(c) for _, c in played], "points": tr.get("points"),
                })  # fmt: skip
    assert len(got) > 100
    assert got == want


SAMPLES = sorted(p for p in (ROOT / "sample_logs").rglob("*.json*") if "malformed" not in p.parts)
_ATTR_OF = {"talon_group": "group"}


def test_action_rows_are_the_logged_actions_attribute_by_attribute() -> None:
    """Every action row of every sample game (plays, bids, calls, talon, discards with shown
    cards, announcements with params, kontras, melds, claims) holds exactly the action's own
    attributes, null where its class has none."""
    import orjson

    keys = ("hand_id", "idx")
    detail_cols = [c for c in process.SCHEMAS["action_details"].names if c not in keys]
    cols = [
        c
        for c in (*process.SCHEMAS["action_rows"].names, *detail_cols)
        if c not in ("hand_id", "idx", "legal", "violation_code", "to_move", "phase")
    ]  # (the verdict and the step timeline: the engine's, tests/store/test_timeline.py)
    checked = 0
    types: set[str] = set()
    for path in SAMPLES:
        tables = process.process_shard(path)
        # an action's row, with its details row (if it has one) or nulls
        details = {(r["hand_id"], r["idx"]): r for r in tables["action_details"].to_pylist()}
        assert all(any(r[c] is not None for c in detail_cols) for r in details.values())
        by_key = {
            (r["hand_id"], r["idx"]): {
                **dict.fromkeys(detail_cols),
                **details.get((r["hand_id"], r["idx"]), {}),
                **r,
            }
            for r in tables["action_rows"].to_pylist()
        }
        assert set(details) <= set(by_key)
        for rec in read_file(path):
            if rec.session is None:
                continue
            audited = sources.audit_session(rec.session, "f")
            for hand, (audit, _, _) in zip(rec.session.hands, audited.hands, strict=True):
                for i, a in enumerate(hand.actions):
                    row = by_key[(audit["hand_id"], i)]
                    want = {}
                    for col in cols:
                        v = getattr(a, _ATTR_OF.get(col, col), None)
                        if col == "params":
                            v = orjson.dumps(v, option=orjson.OPT_SORT_KEYS).decode() if v else None
                        want[col] = v
                    assert {c: row[c] for c in cols} == want, (path.name, audit["hand_id"], i)
                    checked += 1
                    types.add(a.type)
    assert checked > 10_000
    assert {"play", "bid", "call", "talon", "discard", "announce", "kontra"} <= types
