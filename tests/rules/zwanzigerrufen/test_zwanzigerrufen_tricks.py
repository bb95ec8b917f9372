"""Play unit tests of zwanzigerrufen.md §6.9: legal sets L1–L12, trick winners X1–X12,
throw-ins Z1–Z5; plus the play codes of §6 pushed through a real hand."""

from __future__ import annotations

import pytest

from tarock_logs.rules.base import Action
from tarock_logs.rules.zwanzigerrufen.tricks import (
    close_trick,
    legal_cards,
    pile_points,
    winner_index,
)
from tests.support.zwanzigerrufen_support import (
    auction,
    deal_with,
    error_codes,
    fd_hand,
    new_hand,
    plays,
    push_all,
    seat,
)

N, F, S = "normal", "farbensolo", "solo"


@pytest.mark.parametrize(
    ("name", "contract", "hand", "led", "expected"),
    [
        ("L1", N, "HK HG T5 SJ", "HQ", "HK HG"),
        ("L2", N, "T22 T5 SJ CG", "HQ", "T22 T5"),
        ("L3", N, "SJ CG", "HQ", "SJ CG"),
        ("L4", N, "T1 HK", "T12", "T1"),
        ("L5", N, "HK DG", "T12", "HK DG"),
        ("L6", N, "T10 HG", "", "T10 HG"),
        ("L7", F, "T22 T10 HG", "", "HG"),
        ("L8", F, "T22 T10", "", "T22 T10"),
        ("L9", F, "T10 SJ", "HQ", "T10"),
        ("L10", S, "T10 SJ SG", "SQ T4", "SJ SG"),
        ("L11", F, "T10 T5", "HQ", "T10 T5"),
        ("L12", F, "T10 SJ", "T4", "T10"),
    ],
)
def test_legal_sets_l1_to_l12(name, contract, hand, led, expected):
    assert sorted(legal_cards(hand.split(), led.split(), contract)) == sorted(expected.split())


@pytest.mark.parametrize(
    ("compulsion", "expected"), [(True, ["T10"]), (False, ["T10", "SJ"]), ("suit_first", ["SJ"])]
)
def test_l9_under_each_farbensolo_tarock_compulsion(compulsion, expected):
    assert sorted(legal_cards(["T10", "SJ"], ["HQ"], F, compulsion)) == sorted(expected)


@pytest.mark.parametrize("compulsion", [True, False, "suit_first"])
def test_l11_l12_are_the_same_under_every_compulsion(compulsion):
    assert sorted(legal_cards(["T10", "T5"], ["HQ"], F, compulsion)) == ["T10", "T5"]
    assert legal_cards(["T10", "SJ"], ["T4"], F, compulsion) == ["T10"]


# winners are 1-based positions as in the spec: any_order, fixed_order, off; card points
@pytest.mark.parametrize(
    ("name", "contract", "cards", "winners", "cp"),
    [
        ("X1", N, "HQ HK HG HJ", (2, 2, 2), 11),
        ("X2", N, "HQ T4 HK SK", (2, 2, 2), 15),
        ("X3", N, "HQ DK SK CK", (1, 1, 1), 19),
        ("X4", N, "T21 T22 T1 HK", (3, 3, 2), 20),
        ("X5", N, "T1 T21 T22 HK", (1, 3, 3), 20),
        ("X6", N, "T21 T4 T22 T5", (3, 3, 3), 12),
        ("X7", F, "HG T22 T21 T1", (1, 1, 1), 15),
        ("X8", F, "HG T22 HJ T21", (3, 3, 3), 12),
        ("X9", F, "T4 HK T5 T6", (4, 4, 4), 8),
        ("X10", S, "SG T4 SK T1", (2, 2, 2), 11),
        ("X11", N, "T1 HK DK SK", (1, 1, 1), 20),
        ("X12", F, "T21 T1 T22 DK", (2, 3, 3), 20),
    ],
)
def test_trick_winners_x1_to_x12(name, contract, cards, winners, cp):
    cs = cards.split()
    for rule, expected in zip(("any_order", "fixed_order", "off"), winners, strict=True):
        assert winner_index(cs, contract, rule) + 1 == expected, rule
    assert pile_points(cs) == cp


def test_x4_with_maerchenstich_off_is_a_mondfang():
    trick = close_trick(1, list(enumerate("T21 T22 T1 HK".split())), N, "off")
    assert trick.winner == 1 and trick.mondfang == (0, 1) and not trick.maerchenstich
    trick = close_trick(1, list(enumerate("T21 T22 T1 HK".split())), N, "any_order")
    assert trick.winner == 2 and trick.mondfang is None and trick.maerchenstich


def test_x6_mondfang_records_owner_and_capturer():
    trick = close_trick(4, list(enumerate("T21 T4 T22 T5".split())), N, "any_order")
    assert trick.mondfang == (0, 2)


def test_x7_suit_lead_in_farbensolo_is_never_a_mondfang_or_maerchenstich():
    trick = close_trick(1, list(enumerate("HG T22 T21 T1".split())), F, "any_order")
    assert (trick.winner, trick.mondfang, trick.maerchenstich) == (0, None, False)


# ----------------------------------------------------------------- throw-in Z1–Z5

Z_HANDS = {
    "Z1": "HK HQ HN HJ HG DK DQ DN SK SQ",
    "Z2": "T21 HK HQ HN HJ HG DK DQ SK SQ",
    "Z3": "T4 HK HQ HN HJ HG DK DQ SK SQ",
    "Z4": "T1 T22 HK HQ HN HJ HG DK DQ SK",
}
Z_EXPECTED = {  # standard, strict, off
    "Z1": ("must", "must", None),
    "Z2": ("may", "must", None),
    "Z3": (None, None, None),
    "Z4": (None, None, None),
}


def _z_deal(name):
    return deal_with({2: Z_HANDS[name].split()}, allow_bonus=True)


@pytest.mark.parametrize("name", sorted(Z_HANDS))
@pytest.mark.parametrize("mode", ["standard", "strict", "off"])
def test_throw_in_z1_to_z4(name, mode):
    expected = Z_EXPECTED[name][("standard", "strict", "off").index(mode)]
    hand = new_hand(_z_deal(name), {"throw_in": mode})
    assert hand.throw_in_seats.get(seat("P2")) == expected
    legal = hand.legal_actions()
    p2_throw = Action("throw_in", seat("P2"))
    assert (p2_throw in legal) == (expected is not None)
    if expected == "must":
        assert all(a.type == "throw_in" for a in legal)
    found = hand.push(p2_throw)
    codes = [v.code for v in found]
    assert codes == ([] if expected else ["throw_in.unjustified"])
    assert hand.is_over() and hand.score().totals == (0, 0, 0, 0)
    assert hand.score().carry_after["thrown_in"] is True


@pytest.mark.parametrize(
    ("mode", "expected"),
    [("standard", ["throw_in.missing"]), ("strict", ["throw_in.missing"]), ("off", [])],
)
def test_z5_compulsory_throw_in_missing(mode, expected):
    hand = new_hand(_z_deal("Z1"), {"throw_in": mode})
    found = hand.push(Action("call", seat("P1"), card=hand.auction.required_call()))
    assert [v.code for v in found] == expected


def test_throw_in_after_the_auction_began_is_late():
    hand = new_hand(_z_deal("Z2"))
    hand.push(Action("call", 0, card=hand.auction.required_call()))
    assert [v.code for v in hand.push(Action("throw_in", seat("P2")))] == ["throw_in.late"]


# ----------------------------------------------------------------- play codes through a hand


def _fd1_in_play():
    hand = fd_hand("FD1")
    push_all(hand, auction("1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []"))
    assert hand.phase == "play" and hand.to_move() == seat("P1")
    return hand


def test_revoke_is_applied_and_reported_with_the_legal_cards():
    hand = _fd1_in_play()
    push_all(hand, plays("P1:HJ P2:HQ"))
    found = hand.push(Action("play", seat("P3"), card="T5"))  # P3 holds HK
    assert [v.code for v in found] == ["play.illegal_card"]
    v = found[0]
    assert v.seat == 2 and v.card == "T5" and v.params["legal"] == ["HK"]
    assert "hearts must be followed" in v.message and v.rule == "zr-std-2026 §6.3"
    assert "T5" not in hand.view()["hands"][2]  # lenient: the card was played


def test_void_player_must_play_a_tarock():
    hand = _fd1_in_play()
    push_all(hand, plays("P1:SK P2:T10 P3:T5"))
    found = hand.push(Action("play", seat("P4"), card="DK"))  # P4 holds SQ SG
    assert [v.code for v in found] == ["play.illegal_card"]
    hand.pop()
    found = hand.push(Action("play", seat("P4"), card="SG"))
    assert found == []


def test_card_not_in_hand_is_ignored():
    hand = _fd1_in_play()
    found = hand.push(Action("play", seat("P1"), card="HK"))
    assert [v.code for v in found] == ["play.not_in_hand"]
    assert hand.view()["trick"] == []


def test_playing_out_of_turn():
    hand = _fd1_in_play()
    found = hand.push(Action("play", seat("P2"), card="T21"))
    assert [v.code for v in found] == ["play.out_of_turn"]


def test_farbensolo_lead_must_be_a_suit_card():
    hand = fd_hand("FD3")
    push_all(
        hand,
        auction(
            "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [FARBENSOLO] · 4 P4 [] · 5 P1 [] · 6 P2 [] · 7 P3 []"
        ),
    )
    found = hand.push(Action("play", seat("P1"), card="T10"))
    assert [v.code for v in found] == ["play.farbensolo_tarock_lead"]
    assert {a.card for a in (hand.pop() and hand.legal_actions())} == {
        "HN",
        "HJ",
        "DK",
        "DJ",
        "SQ",
        "CK",
    }


def test_announced_pagat_released_early_is_reported_unless_forced():
    # FD1 hands: P4 holds the Pagat and announces it dagegen (with P2's Kontra on the game)
    hand = fd_hand("FD1")
    push_all(
        hand,
        auction(
            "1 P1 [CALL T19] · 2 P2 [KONTRA GAME] · 3 P3 [] · 4 P4 [ANN PAGAT DAGEGEN] · "
            "5 P1 [] · 6 P2 [] · 7 P3 [] · 8 P4 []"
        ),
    )
    push_all(hand, plays("P1:T15 P2:T21 P3:T13"))
    assert Action("play", seat("P4"), card="T1") not in hand.legal_actions()
    found = hand.push(Action("play", seat("P4"), card="T1"))
    assert [v.code for v in found] == ["play.pagat_released"]
    hand.pop()
    ignore = fd_hand("FD1", {"pagat_hold_obligation": "ignore"})
    push_all(ignore, hand.actions)
    assert ignore.push(Action("play", seat("P4"), card="T1")) == []


def test_l4_forced_pagat_is_no_infraction_but_the_announced_bonus_is_lost():
    """W6c / L4: the announced Pagat's holder must play it to a tarock lead when it is his
    only tarock: no play.pagat_released, but the Pagat Ultimo goes to the other side."""
    hands = deal_with({2: ["T20"], 4: "T1 HK HQ HN HJ HG DK DQ DN DJ".split()}, avoid={1: ["T1"]})
    hand = new_hand(hands)
    found = push_all(
        hand,
        auction(
            "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [KONTRA GAME] · 4 P4 [ANN PAGAT DAGEGEN] · "
            "5 P1 [] · 6 P2 [] · 7 P3 [] · 8 P4 []"
        ),
    )
    assert error_codes(found) == []
    lead = next(c for c in hand.view()["hands"][seat("P1")] if c.startswith("T"))
    hand.push(Action("play", seat("P1"), card=lead))
    hand.push(hand.legal_actions()[0])
    hand.push(hand.legal_actions()[0])
    assert hand.legal_actions() == [Action("play", seat("P4"), card="T1")]
    assert hand.push(Action("play", seat("P4"), card="T1")) == []
    while not hand.is_over():
        assert not error_codes([hand.push(hand.legal_actions()[0])])
    pagat = {line.seat: line.value for line in hand.score().items if line.item == "pagat"}
    assert pagat == {0: 2, 1: 2, 2: -2, 3: -2}  # lost: to the declarer side, base 2


def test_a_released_announced_pagat_is_legal_by_the_card_rules_but_not_offered():
    """§6.3 counts the Pagat as a legal card; §6.6 makes its early release by the holder of an
    announced Pagat a separate infraction. legal_actions() (no error-level finding) leaves it
    out, legal_cards() (the §6.3 view) keeps it, and check() says why."""
    from tests.support.zwanzigerrufen_support import auction, fd_hand, push_all

    hand = fd_hand("FD1")
    text = (
        "1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 [KONTRA GAME, ANN PAGAT DAGEGEN] · "
        "5 P1 [] · 6 P2 [] · 7 P3 [] · 8 P4 []"
    )
    assert [v for f in push_all(hand, auction(text)) for v in f if v.severity == "error"] == []
    found = []
    while hand.phase == "play":
        seat = hand.to_move()
        assert seat is not None
        if "T1" in hand.legal_cards() and len(hand.legal_cards()) > 1:
            break
        a = hand.legal_actions()[0]
        found += hand.push(a)
    else:
        raise AssertionError("the holder never had the Pagat and another card legal")
    assert found == [] and seat == 3
    assert "T1" not in [a.card for a in hand.legal_actions()]
    assert [v.code for v in hand.check(Action("play", seat, card="T1"))] == ["play.pagat_released"]
