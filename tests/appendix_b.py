"""The end-to-end hands of the Slovenian spec, Appendix B, as log-format sessions.

Seats: P1 = seat 0 … P4 = seat 3 (dealer P4 = seat 3, so P1 is the forehand). The tricks are
copied from ``/work/shared/rules/slovenian-tarok.md`` Appendix B, leader first.
"""

from __future__ import annotations

import copy
from typing import Any

PLAYERS = [{"id": "p1", "name": "Ana"}, {"id": "p2", "name": "Bor"},
           {"id": "p3", "name": "Cene"}, {"id": "p4", "name": "Dani"}]
P = {"P1": 0, "P2": 1, "P3": 2, "P4": 3}


def _plays(tricks: list[str]) -> list[dict[str, Any]]:
    out = []
    for trick in tricks:
        for pair in trick.split(","):
            who, card = pair.split()
            out.append({"type": "play", "seat": P[who], "card": card})
    return out


B1_DEAL = {
    "hands": [
        "T19 T18 T16 T15 T6 T1 HK H4 DJ C10 SK S9".split(),
        "T14 T7 T4 T2 HN DK D2 CK CJ C8 C7 SJ".split(),
        "T22 T13 T8 HQ HJ H2 H3 D3 D4 SN S10 S8".split(),
        "T21 T17 T11 T9 T5 DQ DN D1 CQ CN C9 SQ".split(),
    ],
    "talon": "T3 S7 T12 H1 T20 T10".split(),
}
B1_TRICKS = [
    "P1 SK, P2 SJ, P3 S8, P4 SQ",
    "P1 T15, P2 T7, P3 T22, P4 T21",
    "P3 H2, P4 T9, P1 H1, P2 HN",
    "P4 CQ, P1 C10, P2 CJ, P3 T13",
    "P3 S10, P4 T17, P1 T6, P2 T2",
    "P4 D1, P1 T20, P2 D2, P3 D4",
    "P1 T19, P2 T4, P3 T8, P4 T11",
    "P1 HK, P2 T14, P3 HQ, P4 T5",
    "P2 CK, P3 H3, P4 CN, P1 T16",
    "P1 T10, P2 C7, P3 HJ, P4 C9",
    "P1 T18, P2 DK, P3 SN, P4 DQ",
    "P1 T1, P2 C8, P3 D3, P4 DN",
]
B1_ACTIONS: list[dict[str, Any]] = [
    {"type": "pass", "seat": 1},
    {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 3},
    {"type": "bid", "seat": 0, "contract": "three"},
    {"type": "call", "seat": 0, "card": "DK"},
    {"type": "talon", "seat": 0, "group": 1},
    {"type": "discard", "seat": 0, "cards": ["DJ", "S9", "H4"]},
    {"type": "announce", "seat": 0, "bonus": "pagat_ultimo"},
    {"type": "lezim", "seat": 0},
    {"type": "pass", "seat": 1},
    {"type": "kontra", "seat": 2, "target": "pagat_ultimo"},
    {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 3},
    *_plays(B1_TRICKS),
]
#: Index of the first ``play`` action of B.1 (trick 1, P1's SK).
B1_FIRST_PLAY = 13
#: W1: P1 +135, P2 +135, P3 0, P4 −20 (contract 10 + difference 15, pagat ultimo announced
#: and doubled 2·25·2, silent kralji 10; P4's mondfang −20).
B1_RESULT = {
    "scores": [135, 135, 0, -20],
    "items": [
        {"item": "contract", "value": 10},
        {"item": "difference", "value": 15},
        {"item": "pagat_ultimo", "value": 100},
        {"item": "kralji", "value": 10},
        {"item": "mondfang", "value": -20, "seat": 3},
    ],
    "radelci_after": [0, 0, 0, 0],
}

B2_DEAL = {
    "hands": [
        "T18 T9 HQ HJ H2 H4 DQ DN DJ D1 CK CJ".split(),
        "T19 T8 T3 HN H1 DK D2 D4 C10 C7 S10 S9".split(),
        "T21 T20 T17 T14 T13 D3 CN SK SQ SN SJ S7".split(),
        "T15 T12 T11 T6 T4 T2 T1 H3 CQ C9 C8 S8".split(),
    ],
    "talon": "T16 HK T10 T22 T5 T7".split(),
}
B2_TRICKS = [
    "P1 T18, P2 T19, P3 T21, P4 T11",
    "P3 T14, P4 T15, P1 T9, P2 T8",
    "P4 T12, P1 CJ, P2 T3, P3 T17",
    "P3 SN, P4 S8, P1 CK, P2 S9",
    "P3 SK, P4 T6, P1 HQ, P2 S10",
    "P4 CQ, P1 H4, P2 C7, P3 CN",
    "P4 C8, P1 H2, P2 C10, P3 T20",
    "P3 D3, P4 T4, P1 DN, P2 D2",
    "P4 T2, P1 DQ, P2 DK, P3 T13",
    "P3 SJ, P4 T1, P1 D1, P2 D4",
    "P4 C9, P1 DJ, P2 H1, P3 S7",
    "P4 H3, P1 HJ, P2 HN, P3 SQ",
]
B2_ACTIONS: list[dict[str, Any]] = [
    {"type": "pass", "seat": 1},
    {"type": "pass", "seat": 2},
    {"type": "pass", "seat": 3},
    {"type": "bid", "seat": 0, "contract": "klop"},
    *_plays(B2_TRICKS),
]
B2_FIRST_PLAY = 4


def hand(number: int, deal: dict[str, Any], actions: list[dict[str, Any]],
         result: dict[str, Any] | None = None, dealer: int = 3) -> dict[str, Any]:
    h: dict[str, Any] = {"number": number, "dealer": dealer, "deal": copy.deepcopy(deal),
                         "actions": copy.deepcopy(actions)}
    if result is not None:
        h["result"] = copy.deepcopy(result)
    return h


def session(hands: list[dict[str, Any]], *, sid: str = "appendix-b", game: str = "slovenian",
            ruleset: str = "si-tournament-2021", **extra: Any) -> dict[str, Any]:
    return {"format": "tarock-log", "format_version": 1, "id": sid, "game": game,
            "ruleset": ruleset, "players": copy.deepcopy(PLAYERS), "hands": hands, **extra}


def b1_session(result: dict[str, Any] | None = B1_RESULT, **extra: Any) -> dict[str, Any]:
    return session([hand(1, B1_DEAL, B1_ACTIONS, result)], **extra)
