"""Royal Tarock trick play: the legality unit tests L1–L9 and the trick-winner tests of
royal-tarock.md §6.5, at the function level and through the engine.

Bindings ``B1`` (T1 bound to trick 10, announced at bidding sequence 3) and ``B2`` (T2 bound
to trick 9, sequence 7) are test fixtures, not catalogue facts.
"""

from __future__ import annotations

import pytest

from tarock_logs.rules.base import Action
from tarock_logs.rules.royal.tricks import Bound, legal_cards, trick_winner
from tests.support.royal_support import bound_item, fixture_catalogue, new_hand

B1 = {"T1": [Bound(10, 3)]}
B12 = {"T1": [Bound(10, 3)], "T2": [Bound(9, 7)]}
HK_LED = [(3, "HK")]
T12_LED = [(3, "T12")]


@pytest.mark.parametrize(
    ("case", "trick", "trick_no", "bindings", "hand", "expected"),
    [
        ("L1 follow suit", HK_LED, 4, {}, ["HQ", "HJ", "T5", "SK"], {"HQ", "HJ"}),
        ("L2 void: tarock", HK_LED, 4, {}, ["T5", "T9", "SK"], {"T5", "T9"}),
        ("L3 void, no tarock: anything", HK_LED, 4, {}, ["SK", "CQ"], {"SK", "CQ"}),
        ("L4 bound card kept back", T12_LED, 6, B1, ["T1", "T5", "DQ"], {"T5"}),
        ("L5 bound card forced early", T12_LED, 6, B1, ["T1", "DQ"], {"T1"}),
        ("L6 most recently bound first", T12_LED, 6, B12, ["T1", "T2", "DQ"], {"T2"}),
        ("L7 due in this trick", [], 9, B12, ["T1", "T2"], {"T2"}),
        ("L8 lead: bound card kept back", [], 6, B1, ["T1", "DQ", "S10"], {"DQ", "S10"}),
        ("L9 bound card in its trick", [(3, "SK")], 10, B1, ["T1"], {"T1"}),
    ],
    ids=lambda x: x if isinstance(x, str) and x.startswith("L") else "",
)
def test_legal_cards_of_section_6_5(case, trick, trick_no, bindings, hand, expected) -> None:  # type: ignore[no-untyped-def]
    assert legal_cards(hand, trick, trick_no, bindings) == expected, case


@pytest.mark.parametrize(
    ("cards", "winner"),
    [
        (["T1", "HK", "HQ", "HJ"], "T1"),
        (["HJ", "HK", "SK", "DQ"], "HK"),
        (["T21", "T22", "T1", "T20"], "T22"),  # no Pagat exception
        (["C10", "CJ", "T2", "CK"], "T2"),
    ],
)
def test_trick_winner_of_section_6_5(cards: list[str], winner: str) -> None:
    played = list(enumerate(cards))
    assert played[trick_winner(played)][1] == winner


def test_the_ten_is_the_lowest_card_of_a_black_suit() -> None:
    assert trick_winner([(0, "S10"), (1, "SJ"), (2, "HK"), (3, "CK")]) == 1


# --------------------------------------------------------------------------- through the engine

# A deal (dealer 3): the attackers' Eintreiber, seat 1, holds the Pagat and the Uhu.
DEAL = [
    ["T19", "T22", "T5", "T4", "T3", "HK", "HQ", "HN", "HJ", "DJ"],
    ["T20", "T1", "T2", "T17", "T16", "T15", "T9", "T8", "SJ", "DK"],
    ["T18", "T11", "T10", "T21", "DQ", "SK", "SQ", "S10", "CJ", "CK"],
    ["T14", "T13", "T12", "T6", "T7", "DN", "SN", "CQ", "CN", "C10"],
]
BOUND = fixture_catalogue(
    bound_item("B_PAGAT", "T1", 10, 10),
    bound_item("B_UHU", "T2", 9, 10),
)


def _bound_hand(*announce: str):  # type: ignore[no-untyped-def]
    hand = new_hand(DEAL, catalogue=BOUND, consolation=0)
    acts = [Action("pass", 3), Action("pass", 0)]
    acts += [Action("announce", 1, bonus=b) for b in announce] + [Action("pass", 1)]
    acts += [Action("pass", 2)]
    if announce:  # three empty turns after the last non-empty one
        acts += [Action("pass", 3), Action("pass", 0)]
    for a in acts:
        assert hand.push(a) == []
    assert hand.phase == "play" and hand.to_move() == 1
    return hand


def test_engine_keeps_a_bound_card_back_when_leading() -> None:
    hand = _bound_hand("B_PAGAT")
    legal = {a.card for a in hand.legal_actions()}
    assert "T1" not in legal and "T2" in legal
    [v] = hand.check(Action("play", 1, card="T1"))
    assert v.code == "play.bound_card_early" and v.rule == "royal-gerots-2023 §6.2"
    assert v.severity == "error" and "T1" in v.message


def test_engine_without_announcement_the_pagat_is_free() -> None:
    hand = _bound_hand()
    assert "T1" in {a.card for a in hand.legal_actions()}
    assert hand.check(Action("play", 1, card="T1")) == []


def test_engine_bound_card_order_and_duty_in_its_trick() -> None:
    """Only bound cards left: the most recently bound (the Uhu) must go first (L6), and in
    trick 9 the Uhu is due (L7)."""
    hand = _bound_hand("B_PAGAT", "B_UHU")
    # force seat 1 down to T1 and T2 by letting tricks 1-8 be played from the engine's own
    # legal actions, always choosing the first legal card
    while len(hand.tricks) < 8:
        acts = hand.legal_actions()
        hand.push(acts[0])
    assert sorted(hand.held[1]) == ["T1", "T2"]
    assert len(hand.tricks) == 8
    while hand.to_move() != 1:
        hand.push(hand.legal_actions()[0])
    assert [a.card for a in hand.legal_actions()] == ["T2"]
    [v] = hand.check(Action("play", 1, card="T1"))
    assert v.code == "play.bound_card_held_back"


def test_engine_reports_a_revoke_and_applies_the_card() -> None:
    hand = _bound_hand()
    hand.push(Action("play", 1, card="DK"))  # diamonds led
    [v] = hand.push(Action("play", 2, card="CK"))  # seat 2 holds DQ
    assert v.code == "play.illegal_card" and "diamonds must be followed" in v.message
    assert v.rule == "royal-gerots-2023 §6.1"
    assert hand.trick == [(1, "DK"), (2, "CK")]


def test_engine_reports_play_out_of_turn() -> None:
    hand = _bound_hand()
    [v] = hand.push(Action("play", 0, card="T22"))
    assert v.code == "play.out_of_turn" and "leads trick 1" in v.message


def test_a_card_not_held_cannot_be_applied() -> None:
    hand = _bound_hand()
    [v] = hand.check(Action("play", 1, card="HK"))
    assert v.code == "play.not_in_hand"
    with pytest.raises(ValueError, match="does not hold"):
        hand.push(Action("play", 1, card="HK"))
