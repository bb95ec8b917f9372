"""A hand made for the par tests: a cheap whole-hand search (the declarer of a solo ena holds
the eleven top taroks and a king, so the search from the first card is short), written as a
log and read back as the CLI reads it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from tarock_logs.rules.base import Action
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.hand import SlovenianHand

DECLARER = 1
HANDS = [
    ["T1", "T2", "T3", "HQ", "DK", "DQ", "DN", "DJ", "D1", "D2", "D3", "D4"],
    ["T22", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "T14", "T13", "T12", "HK"],
    ["T4", "T5", "T6", "HN", "SK", "SQ", "SN", "SJ", "S10", "S9", "S8", "S7"],
    ["T7", "T8", "T9", "HJ", "CK", "CQ", "CN", "CJ", "C10", "C9", "C8", "C7"],
]
TALON = ["T11", "T10", "H1", "H2", "H3", "H4"]


def _log_action(a: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"type": a.type, "seat": a.seat}
    if a.card is not None:
        out["card"] = a.card
    if a.cards:
        out["cards"] = list(a.cards)
    if a.contract is not None:
        out["contract"] = a.contract
    if a.group is not None:
        out["group"] = a.group
    return out


def par_log(path: Path, group: int = 2, discard: str = "H1", contract: str = "solo_one") -> Path:
    """A one-hand session: ``contract`` declared by seat 1, talon group ``group`` taken and
    ``discard`` laid away, no announcements, the first legal card played to the end."""
    rs = ENGINE.ruleset("si-tournament-2021")
    session = ENGINE.new_session(rs, 4)
    h = session.new_hand(dealer=0, hands=[list(x) for x in HANDS], talon=list(TALON))
    assert isinstance(h, SlovenianHand)
    actions: list[Action] = []
    while not h.is_over():
        legal = h.legal_actions()
        if h.phase == "bidding":
            bid = [a for a in legal if a.type == "bid" and a.contract == contract]
            a = bid[0] if h.turn == DECLARER and bid else next(x for x in legal if x.type == "pass")
        elif h.phase == "talon":
            a = Action("talon", DECLARER, group=group)
        elif h.phase == "discard":
            a = next(x for x in legal if x.cards == (discard,))
        elif h.phase == "announcements":
            a = next(x for x in legal if x.type in ("pass", "lezim"))
        else:
            a = legal[0]
        assert not h.push(a), a
        actions.append(a)
    doc = {
        "format": "tarock-log", "format_version": 1, "id": "par-test", "game": "slovenian",
        "ruleset": "si-tournament-2021",
        "players": [{"id": f"p{i}", "name": f"Player {i}"} for i in range(4)],
        "first_dealer": 0,
        "hands": [{"number": 1, "id": "par-test-h01", "dealer": 0,
                   "deal": {"hands": HANDS, "talon": TALON},
                   "actions": [_log_action(a) for a in actions]}],
    }  # fmt: skip
    path.write_bytes(orjson.dumps(doc) + b"\n")
    return path
