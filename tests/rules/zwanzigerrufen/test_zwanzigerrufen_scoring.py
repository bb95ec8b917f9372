"""Scoring worked examples W1–W15 of zwanzigerrufen.md §7.7 (W16 is in the session tests).

Each example's auction runs through the engine (and must be legal); the play facts the
example states (card points and tricks of the declarer side, where the Pagat fell, claims)
are scored by the engine's scorer. Results are P1 / P2 / P3 / P4 (seats 0–3, dealer P4).
"""

from __future__ import annotations

import pytest

from tests.support.zwanzigerrufen_support import FD_HANDS, by_p, deal_with, score_facts, side_items

W2_AUCTION = "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []"


def test_w1_seed_example():
    res = score_facts(
        by_p(FD_HANDS["FD1"]),
        "1 P1 [CALL T19] · 2 P2 [KONTRA GAME, ANN ABSOLUT DAGEGEN] · 3 P3 [KONTRA ABSOLUT] · "
        "4 P4 [ANN PAGAT DAGEGEN] · 5 P1 [KONTRA PAGAT] · 6 P2 [] · 7 P3 [] · 8 P4 [] · 9 P1 []",
        cp_d=40,
        tricks_d=5,
        pagat=("P4", 10, "P4"),
    )
    assert side_items(res) == {
        "game": ((2, 4), 2),
        "absolut": ((1, 3), 4),
        "pagat": ((2, 4), 4),
    }
    assert res.totals == (-2, 2, -2, 2)


def test_w2_normal_game_won_nothing_announced():
    res = score_facts(deal_with({3: ["T20"]}), W2_AUCTION, cp_d=52, tricks_d=6)
    assert side_items(res) == {"game": ((1, 3), 1)}
    assert res.totals == (1, -1, 1, -1)


def test_w3_44_to_44_is_a_defenders_win():
    res = score_facts(deal_with({2: ["T20"]}), W2_AUCTION, cp_d=44, tricks_d=5)
    assert side_items(res) == {"game": ((3, 4), 1)}
    assert res.totals == (-1, -1, 1, 1)


@pytest.mark.parametrize(
    ("cp_d", "tricks_d", "totals"), [(56, 7, (2, -2, 2, -2)), (55, 7, (1, -1, 1, -1))]
)
def test_w4_silent_absolut_on_its_boundary(cp_d, tricks_d, totals):
    res = score_facts(deal_with({3: ["T20"]}), W2_AUCTION, cp_d=cp_d, tricks_d=tricks_d)
    assert res.totals == totals
    assert ("absolut" in side_items(res)) == (cp_d == 56)


W5_AUCTION = (
    "1 P1 [CALL T18, ANN ABSOLUT DAZU] · 2 P2 [KONTRA ABSOLUT] · 3 P3 [] · 4 P4 [RETOUR ABSOLUT] · "
    "5 P1 [] · 6 P2 [] · 7 P3 [] · 8 P4 []"
)


@pytest.mark.parametrize(
    ("cp_d", "absolut", "totals"),
    [(54, ((2, 3), 8), (-7, 7, 7, -7)), (58, ((1, 4), 8), (9, -9, -9, 9))],
    ids=["W5a", "W5b"],
)
def test_w5_announced_absolut_with_kontra_and_retour(cp_d, absolut, totals):
    hands = deal_with({1: ["T20", "T19"], 4: ["T18"]})
    res = score_facts(hands, W5_AUCTION, cp_d=cp_d, tricks_d=6)
    assert side_items(res) == {"game": ((1, 4), 1), "absolut": absolut}
    assert res.totals == totals


W6_AUCTION = (
    "1 P1 [CALL T20] · 2 P2 [KONTRA GAME] · 3 P3 [] · 4 P4 [ANN PAGAT DAZU] · 5 P1 [RETOUR GAME] · "
    "6 P2 [KONTRA PAGAT] · 7 P3 [] · 8 P4 [] · 9 P1 [] · 10 P2 []"
)


@pytest.mark.parametrize(
    ("pagat", "pagat_item", "totals"),
    [
        (("P4", 10, "P4"), ((1, 4), 4), (8, -8, -8, 8)),
        (("P4", 10, "P2"), ((2, 3), 4), (0, 0, 0, 0)),
        (("P4", 8, "P2"), ((2, 3), 4), (0, 0, 0, 0)),
    ],
    ids=["W6a", "W6b", "W6c"],
)
def test_w6_kontra_on_game_and_on_bonus_are_separate(pagat, pagat_item, totals):
    hands = deal_with({4: ["T20", "T1"]})
    res = score_facts(hands, W6_AUCTION, cp_d=50, tricks_d=6, pagat=pagat)
    assert side_items(res) == {"game": ((1, 4), 4), "pagat": pagat_item}
    assert res.totals == totals


@pytest.mark.parametrize(
    ("loss", "totals"), [("counted", (0, 0, 0, 0)), ("not_counted", (1, 1, -1, -1))]
)
def test_w7a_silent_pagat_lost_in_the_last_trick(loss, totals):
    hands = deal_with({2: ["T20", "T1"]})
    res = score_facts(
        hands,
        W2_AUCTION,
        cp_d=47,
        tricks_d=6,
        pagat=("P2", 10, "P3"),
        options={"silent_pagat_loss": loss},
    )
    assert res.totals == totals


def test_w7b_silent_pagat_won_by_a_defender():
    hands = deal_with({2: ["T20"], 4: ["T1"]})
    res = score_facts(hands, W2_AUCTION, cp_d=40, tricks_d=4, pagat=("P4", 10, "P4"))
    assert side_items(res) == {"game": ((3, 4), 1), "pagat": ((3, 4), 1)}
    assert res.totals == (-2, -2, 2, 2)


W8A_AUCTION = (
    "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [FARBENSOLO] · 4 P4 [] · 5 P1 [] · 6 P2 [] · 7 P3 []"
)


def _w8a_hands():
    return deal_with(
        {1: ["T1", "T21", "T22"], 3: ["HK", "DK", "SK", "CK", "HQ", "DQ"]}, allow_bonus=True
    )


@pytest.mark.parametrize(
    ("claims", "options", "totals"),
    [
        ((("P3", "four_kings"), ("P1", "trull")), {}, (-6, -6, 18, -6)),
        ((("P1", "trull"),), {}, (-4, -4, 12, -4)),
        ((("P1", "trull"),), {"card_bonus_claim": "automatic"}, (-6, -6, 18, -6)),
        (
            (("P3", "four_kings"), ("P1", "trull")),
            {"card_bonus_claim": "automatic"},
            (-6, -6, 18, -6),
        ),
    ],
)
def test_w8a_farbensolo_won_with_four_kings_trull_does_not_count(claims, options, totals):
    res = score_facts(
        _w8a_hands(),
        W8A_AUCTION,
        cp_d=46,
        tricks_d=5,
        pagat=("P1", 10, "P1"),
        claims=claims,
        options=options,
    )
    items = side_items(res)
    assert "trull" not in items and "pagat" not in items
    assert res.totals == totals


def test_w8b_farbensolo_lost_with_kontra_and_silent_absolut():
    hands = deal_with({2: ["HK", "HQ", "HN", "HJ", "DK"]})
    res = score_facts(
        hands,
        "1 P1 [CALL T20] · 2 P2 [FARBENSOLO] · 3 P3 [] · 4 P4 [KONTRA GAME] · 5 P1 [] · 6 P2 [] · "
        "7 P3 [] · 8 P4 []",
        cp_d=30,
        tricks_d=3,
    )
    assert side_items(res) == {"game": ((1, 3, 4), 8), "absolut": ((1, 3, 4), 1)}
    assert res.totals == (9, -27, 9, 9)


W9_AUCTION = "1 P1 [SOLO] · 2 P2 [] · 3 P3 [KONTRA GAME] · 4 P4 [] · 5 P1 [] · 6 P2 [] · 7 P3 []"


@pytest.mark.parametrize(
    ("options", "totals"), [({}, (-30, 10, 10, 10)), ({"solo_value": 5}, (-36, 12, 12, 12))]
)
def test_w9_solo_lost_silent_absolut_doubled(options, totals):
    res = score_facts(deal_with({}), W9_AUCTION, cp_d=30, tricks_d=3, options=options)
    assert side_items(res)["absolut"] == ((2, 3, 4), 2)
    assert res.totals == totals


W10_AUCTION = (
    "1 P1 [CALL T20] · 2 P2 [SOLO, ANN PAGAT DAZU] · 3 P3 [] · 4 P4 [] · 5 P1 [KONTRA PAGAT] · "
    "6 P2 [RETOUR PAGAT] · 7 P3 [] · 8 P4 [] · 9 P1 [] · 10 P2 []"
)


@pytest.mark.parametrize(
    ("claims", "totals"), [((("P2", "trull"),), (-22, 66, -22, -22)), ((), (-20, 60, -20, -20))]
)
def test_w10_solo_won_announced_pagat_retour_and_trull(claims, totals):
    hands = deal_with({2: ["T1", "T21", "T22"]}, allow_bonus=True)
    res = score_facts(
        hands, W10_AUCTION, cp_d=50, tricks_d=6, pagat=("P2", 10, "P2"), claims=claims
    )
    items = side_items(res)
    assert items["game"] == ((2,), 4) and items["pagat"] == ((2,), 16)
    assert items.get("trull") == (((2,), 2) if claims else None)
    assert res.totals == totals


@pytest.mark.parametrize(
    ("options", "totals"),
    [({}, (8, -8, 8, -8)), ({"valat_overrides_bonuses": True}, (7, -7, 7, -7))],
)
def test_w11_silent_valat_in_a_normal_game(options, totals):
    res = score_facts(
        deal_with({3: ["T20"]}),
        W2_AUCTION,
        cp_d=88,
        tricks_d=10,
        pagat=("P2", 4, "P1"),
        options=options,
    )
    assert side_items(res)["valat"] == ((1, 3), 6)
    assert res.totals == totals


W12_AUCTION = (
    "1 P1 [CALL T20] · 2 P2 [ANN VALAT DAZU] · 3 P3 [KONTRA VALAT] · 4 P4 [] · 5 P1 [] · "
    "6 P2 [] · 7 P3 []"
)


@pytest.mark.parametrize(
    ("options", "totals"),
    [({}, (-22, -22, 22, 22)), ({"lost_announced_valat_loses_game": True}, (-24, -24, 24, 24))],
)
def test_w12_announced_valat_lost_with_kontra(options, totals):
    res = score_facts(deal_with({2: ["T20"]}), W12_AUCTION, cp_d=80, tricks_d=9, options=options)
    assert side_items(res)["valat"] == ((3, 4), 24)
    assert res.totals == totals


W13_AUCTION = (
    "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [] · 4 P4 [SOLO] · 5 P1 [] · 6 P2 [] · 7 P3 [] · 8 P4 []"
)


@pytest.mark.parametrize(
    ("options", "valat", "totals"),
    [
        ({}, 48, (-54, -54, -54, 162)),
        ({"valat_overrides_bonuses": True}, 48, (-52, -52, -52, 156)),
        ({"valat_mode": "contract_multiple_undoubled"}, 24, (-30, -30, -30, 90)),
        (
            {"valat_mode": "contract_multiple_undoubled", "valat_overrides_bonuses": True},
            24,
            (-28, -28, -28, 84),
        ),
        ({"valat_mode": "fixed"}, 12, (-18, -18, -18, 54)),
        ({"valat_mode": "fixed", "valat_overrides_bonuses": True}, 12, (-16, -16, -16, 48)),
    ],
)
def test_w13_silent_valat_in_a_solo_under_the_valat_options(options, valat, totals):
    res = score_facts(deal_with({}), W13_AUCTION, cp_d=88, tricks_d=10, options=options)
    items = side_items(res)
    assert items["game"] == ((4,), 4) and items["valat"] == ((4,), valat)
    assert ("absolut" in items) != bool(options.get("valat_overrides_bonuses"))
    assert res.totals == totals


def _w14_hands():
    return deal_with(
        {2: ["T20", "T1", "T21", "T22"], 4: ["HK", "DK", "SK", "CK"]}, allow_bonus=True
    )


@pytest.mark.parametrize(
    ("claims", "options", "totals"),
    [
        ((("P2", "trull"), ("P4", "four_kings")), {}, (-2, -2, 2, 2)),
        ((("P2", "trull"), ("P4", "four_kings")), {"four_kings_value": 1}, (-1, -1, 1, 1)),
        ((("P4", "four_kings"),), {}, (-3, -3, 3, 3)),
        ((("P2", "trull"),), {}, (0, 0, 0, 0)),
        ((), {}, (-1, -1, 1, 1)),
        (
            (("P2", "trull"), ("P4", "four_kings")),
            {"card_bonus_claim": "automatic"},
            (-2, -2, 2, 2),
        ),
        ((("P4", "four_kings"),), {"card_bonus_claim": "automatic"}, (-2, -2, 2, 2)),
        ((("P2", "trull"),), {"card_bonus_claim": "automatic"}, (-2, -2, 2, 2)),
        ((), {"card_bonus_claim": "automatic"}, (-2, -2, 2, 2)),
    ],
)
def test_w14_trull_and_four_kings_on_opposite_sides(claims, options, totals):
    res = score_facts(_w14_hands(), W2_AUCTION, cp_d=40, tricks_d=4, claims=claims, options=options)
    assert res.totals == totals


W15_AUCTION = (
    "1 P1 [CALL T20] · 2 P2 [KONTRA GAME] · 3 P3 [] · 4 P4 [] · 5 P1 [RETOUR GAME] · 6 P2 [] · "
    "7 P3 [] · 8 P4 [SUPRA GAME] · 9 P1 [] · 10 P2 [] · 11 P3 [RESUPRA GAME] · 12 P4 [] · "
    "13 P1 [] · 14 P2 [] · 15 P3 []"
)


@pytest.mark.parametrize(
    ("cp_d", "totals"), [(51, (16, -16, 16, -16)), (41, (-16, 16, -16, 16))], ids=["W15a", "W15b"]
)
def test_w15_full_kontra_chain_on_the_game(cp_d, totals):
    res = score_facts(deal_with({3: ["T20"]}), W15_AUCTION, cp_d=cp_d, tricks_d=5)
    assert side_items(res) == {"game": (((1, 3) if cp_d >= 45 else (2, 4)), 16)}
    assert res.totals == totals


def test_item_values_are_written_per_seat_with_explicit_seats():
    res = score_facts(
        by_p(FD_HANDS["FD1"]),
        "1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []",
        cp_d=60,
        tricks_d=6,
    )
    assert all(line.seat is not None for line in res.per_seat)
    for s in range(4):
        assert sum(line.value for line in res.per_seat if line.seat == s) == res.totals[s]


def test_absolut_moves_game_threshold_option():
    text = "1 P1 [CALL T20, ANN ABSOLUT DAZU] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []"
    default = score_facts(deal_with({3: ["T20"]}), text, cp_d=50, tricks_d=6)
    assert side_items(default)["game"] == ((1, 3), 1)
    fbg = score_facts(
        deal_with({3: ["T20"]}),
        text,
        cp_d=50,
        tricks_d=6,
        options={"absolut_moves_game_threshold": True},
    )
    assert side_items(fbg)["game"] == ((2, 4), 1)


def test_valat_replaces_game_option():
    res = score_facts(
        deal_with({3: ["T20"]}),
        W2_AUCTION,
        cp_d=88,
        tricks_d=10,
        options={"valat_replaces_game": True},
    )
    assert "game" not in side_items(res) and res.totals == (7, -7, 7, -7)
