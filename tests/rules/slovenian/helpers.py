"""Builders shared by the Slovenian engine tests: hands from spec tables, actions, replays."""

from __future__ import annotations

from collections.abc import Sequence

from tarock_logs.rules.base import Action, Irregularity
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.hand import SlovenianHand


def cards(text: str) -> list[str]:
    return text.split()


def new_hand(
    hands: Sequence[str],
    talon: str,
    *,
    ruleset: str = "tournament",
    dealer: int = 3,
    radelci: Sequence[int] | None = None,
    options: dict | None = None,
    irregularities: Sequence[Irregularity] = (),
) -> SlovenianHand:
    rs = ENGINE.ruleset(ruleset, options)
    session = ENGINE.new_session(rs, len(hands))
    if radelci:
        session.radelci = list(radelci)
    return session.new_hand(dealer, [cards(h) for h in hands], cards(talon), irregularities)


def bid(seat: int, contract: str) -> Action:
    return Action("pass", seat) if contract == "pass" else Action("bid", seat, contract=contract)


def play(seat: int, card: str) -> Action:
    return Action("play", seat, card=card)


def push_all(hand: SlovenianHand, actions: Sequence[Action]) -> list:
    found = []
    for a in actions:
        for v in hand.push(a):
            found.append(v)
    return found


def play_tricks(hand: SlovenianHand, tricks: Sequence[str]) -> list:
    """Each trick as ``"P1:SK P2:SJ ..."`` with P-numbers relative to the hand's forehand."""
    found = []
    for t in tricks:
        for tok in t.split():
            p, card = tok.split(":")
            seat = hand.active[int(p[1:]) - 1]
            found += hand.push(play(seat, card))
    return found
