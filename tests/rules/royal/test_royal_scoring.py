"""Royal Tarock scoring: the worked examples E1–E9 of royal-tarock.md §7.3.

Consolations are inputs (their formula is unknown); the trick layouts are constructed to give
the play facts each example states (see ``royal_support``). Fixture items (``X15``, ``TR60``)
are test data supplied as a user catalogue, not catalogue facts.
"""

from __future__ import annotations

import pytest

from tarock_logs.rules.royal import ENGINE, match_result
from tarock_logs.rules.royal.predicates import Context, evaluate
from tests.support.royal_support import (
    A1,
    A2,
    B1,
    B2,
    E1_TRICKS,
    E2_TRICKS,
    E3_TRICKS,
    E4_LOST_TRICKS,
    E5_TRICKS,
    E6_TRICKS,
    E8_TRICKS,
    Action,
    T,
    ann,
    fixture_catalogue,
    game,
    kontra,
    meld,
    party_items,
    turns,
)


def test_e1_basic_game_raise_obscur_and_four_kings() -> None:
    bidding = turns(
        B2,
        [meld(A1, "M_FLUSH")],
        [meld(A2, "M_TAROCKCOUNT", count=8), ann(A2, "S_ENGEL")],
        [ann(B1, "S_VISI")],
        B2,
        [ann(A1, "S_HONNEUR")],
        [ann(A2, "S_KOEPFE", raises="S_HONNEUR")],
        B1,
        B2,
        A1,
    )
    _, score = game(E1_TRICKS, bidding, consolation=0)
    assert score.totals == (18, 18, 19, 19)
    assert party_items(score, A1) == {
        "consolation": 0,
        "M_FLUSH": 10,
        "S_ENGEL": 1,
        "S_KOEPFE": 2,
        "Q_OBSCUR": 5,
    }
    assert party_items(score, B2) == {"consolation": 0, "S_VISI": -1, "Q_4KOENIGE": 20}
    assert score.unverified == ()


def test_e2_a_party_never_writes_less_than_zero() -> None:
    bidding = turns([ann(B2, "F_SPIEL"), ann(B2, "S_TRULL")], A1, A2, B1)
    _, score = game(E2_TRICKS, bidding, consolation=4)
    assert score.totals[B1] == score.totals[B2] == 0
    assert party_items(score, B1) == {"consolation": 4, "F_SPIEL": -10, "S_TRULL": -3, "cap": 9}


def test_e3_contras_score_only_for_the_contra_ing_party() -> None:
    bidding = turns(
        B2,
        [ann(A1, "S_LAMOUR")],
        [ann(A2, "F_SPIEL")],
        [kontra(B1, "S_LAMOUR"), kontra(B1, "F_SPIEL")],
        B2,
        A1,
        A2,
    )
    _, score = game(E3_TRICKS, bidding, consolation_attackers=0, consolation_defenders=12)
    assert score.totals == (9, 9, 3, 3)
    assert party_items(score, A2) == {"consolation": 0, "F_SPIEL": 10, "S_LAMOUR": -1}
    assert party_items(score, B1) == {"consolation": 12, "kontra": -9}


X15 = {"id": "X15", "group": "schlemm", "value": 15, "condition": {"home": "DK"}}


@pytest.mark.parametrize(
    ("tricks", "totals", "kontra_b"),
    [(E4_LOST_TRICKS, (5, 5, 20, 20), 20), (E3_TRICKS, (55, 55, 0, 0), -20)],
    ids=["A lost both: +25 clamped to +20", "mirror, A won both: -25 clamped to -20"],
)
def test_e4_contra_results_are_limited_to_20_per_party(tricks, totals, kontra_b) -> None:  # type: ignore[no-untyped-def]
    bidding = turns(
        B2,
        [ann(A1, "F_SPIEL"), ann(A1, "X15")],
        A2,
        [kontra(B1, "F_SPIEL"), kontra(B1, "X15")],
        B2,
        A1,
        A2,
    )
    _, score = game(
        tricks,
        bidding,
        catalogue=fixture_catalogue(X15),
        consolation_attackers=30,
        consolation_defenders=0,
    )
    assert score.totals == totals
    assert party_items(score, B1)["kontra"] == kontra_b


def test_e4_separate_limits_add_gains_and_losses_after_limiting_each() -> None:
    """§8.1 item 22's alternative: gains and losses limited separately. With +25 and -10
    (Spiel lost, X15 lost, a contra'd Engel made) the net mode gives +15, this one +10."""
    bidding = turns(
        B2,
        [ann(A1, "F_SPIEL"), ann(A1, "X15"), ann(A1, "S_HONNEUR")],
        A2,
        [kontra(B1, "F_SPIEL"), kontra(B1, "X15"), kontra(B1, "S_HONNEUR")],
        B2,
        A1,
        A2,
    )
    cat = fixture_catalogue(X15, {"id": "S_HONNEUR", "value": 10})
    common = {"catalogue": cat, "consolation": 0}
    _, net = game(E4_LOST_TRICKS, bidding, **common)
    _, sep = game(E4_LOST_TRICKS, bidding, contra_limit_mode="separate", **common)
    assert party_items(net, B1)["kontra"] == 15  # +10 +15 -10 = +15
    assert party_items(sep, B1)["kontra"] == 10  # min(20, 25) + max(-20, -10)


E5_BIDDING = turns(
    B2,
    [ann(A1, "S_HONNEUR")],
    A2,
    [kontra(B1, "S_HONNEUR")],
    B2,
    A1,
    [ann(A2, "S_KOEPFE", raises="S_HONNEUR")],
    B1,
    [kontra(B2, "S_KOEPFE")],
    A1,
    A2,
    B1,
)


def test_e5_a_raise_voids_the_contra_and_the_raised_schlemm_is_lost() -> None:
    hand, score = game(E5_TRICKS, E5_BIDDING, consolation_attackers=10, consolation_defenders=0)
    assert score.totals == (8, 8, 7, 7)
    assert party_items(score, A1) == {"consolation": 10, "S_KOEPFE": -2}
    assert party_items(score, B1) == {"consolation": 0, "Q_OBSCUR": 5, "kontra": 2}
    assert [k["void"] for k in hand.view()["kontras"]] == [True, False]


def test_e5_reading_keep_scores_the_contra_on_the_raised_from_honneur() -> None:
    """§8.1 item 21 (c): B1's contra stays on Honneur, which A made: it costs B 1 point."""
    _, score = game(
        E5_TRICKS,
        E5_BIDDING,
        consolation_attackers=10,
        consolation_defenders=0,
        raise_voids_contra="keep",
    )
    assert score.totals == (8, 8, 6, 6)


def test_e5_reading_carry_over_makes_the_second_contra_a_contra_twice() -> None:
    from tests.support.royal_support import deal_of, new_hand, push_all

    hand = new_hand(deal_of(E5_TRICKS), raise_voids_contra="carry_over", consolation=0)
    found = push_all(hand, E5_BIDDING)
    assert [v.code for v in found] == ["kontra.twice"]


E6_BIDDING = [
    *turns(B2, [meld(A1, "M_WONOK"), meld(A1, "M_FLUSH"), ann(A1, "S_TRULL")]),
    ann(A2, "S_ENGEL"),
    ann(A2, "F_SPIEL"),
]


def _e6(trophy_condition: object | None, **options: object):  # type: ignore[no-untyped-def]
    bidding = list(E6_BIDDING)
    extra = []
    if trophy_condition is not None:
        bidding.append(ann(A2, "TR60"))
        extra.append({"id": "TR60", "group": "trophy", "value": 60, "condition": trophy_condition})
    bidding += [Action("pass", A2), Action("pass", B1), Action("pass", B2), Action("pass", A1)]
    return game(
        E6_TRICKS,
        bidding,
        catalogue=fixture_catalogue(*extra),
        consolation_attackers=10,
        consolation_defenders=0,
        **options,
    )


def test_e6a_the_score_is_capped_at_100() -> None:
    _, score = _e6(None)
    items = party_items(score, A1)
    assert sum(v for k, v in items.items() if k != "cap") == 124
    assert items["Q_MONDFANG_STILL"] == 50 and items["Q_4KOENIGE"] == 20
    assert score.totals[A1] == score.totals[A2] == 100 and items["cap"] == -24


def test_e6b_a_won_trophy_goes_beyond_the_cap() -> None:
    _, score = _e6({"tricks_at_least": 10})
    assert score.totals[A1] == 160 and party_items(score, A1)["TR60"] == 60


def test_e6c_a_lost_trophy_is_taken_from_the_capped_score() -> None:
    _, score = _e6({"not": {"tricks_at_least": 10}})
    assert score.totals[A1] == 40


def test_e6c_alternative_order_takes_a_lost_trophy_before_the_cap() -> None:
    _, score = _e6({"not": {"tricks_at_least": 10}}, trophy_cap_order="lost_trophies_inside_cap")
    assert score.totals[A1] == 64


def test_e7_obscur_goes_to_the_party_first_to_five_tricks_in_a_5_5_game() -> None:
    winners = [0, 2, 0, 0, 2, 2, 0, 2, 0, 2]  # A, B, A, A, B, B, A, B, A, B
    tricks = [((), w) for w in winners]
    cond = {"first_to_tricks": 5}
    assert evaluate(cond, Context(party=frozenset({0, 1}), tricks=tricks)) is True
    assert evaluate(cond, Context(party=frozenset({2, 3}), tricks=tricks)) is False


def test_e8_lauer_and_mondfang_still_without_any_announcement() -> None:
    _, score = game(E8_TRICKS, turns(B2, A1, A2, B1), consolation=0)
    assert party_items(score, A1) == {"consolation": 0, "Q_LAUER": 15, "Q_MONDFANG_STILL": 50}
    assert party_items(score, B1) == {"consolation": 0, "Q_OBSCUR": 5}
    assert score.totals == (65, 65, 5, 5)


def test_e8_lauer_reading_victims_is_not_paid_when_the_victims_announced_their_pagat() -> None:
    """§8.1 item 13: under ``lauer_rule = victims`` B's Trull (naming its Pagat) stops A's
    Lauer; under the default reading it does not."""
    bidding = turns([ann(B2, "S_TRULL")], A1, A2, B1)
    _, default = game(E8_TRICKS, bidding, consolation=0)
    _, victims = game(E8_TRICKS, bidding, consolation=0, lauer_rule="victims")
    assert party_items(default, A1).get("Q_LAUER") == 15
    assert "Q_LAUER" not in party_items(victims, A1)


@pytest.mark.parametrize(
    ("total", "result"), [(760, 95), (759, 94), (803, 100), (7, 0), (800, 100)]
)
def test_e9_match_total_divided_by_eight_rounded_down(total: int, result: int) -> None:
    assert match_result([total]) == [result]


def test_e9_session_totals_of_eight_games() -> None:
    a = [100, 95, 100, 100, 90, 95, 90, 90]
    b = [94, 100, 95, 90, 100, 95, 95, 90]
    rows = [[x, x, y, y] for x, y in zip(a, b, strict=True)]
    rs = ENGINE.ruleset("royal")
    assert ENGINE.session_totals(rs, rows) == [95, 95, 94, 94]


def test_without_a_consolation_the_score_is_reported_unverified_not_guessed() -> None:
    _, score = game(E8_TRICKS, turns(B2, A1, A2, B1))
    assert "consolation" not in party_items(score, A1)
    assert len(score.unverified) == 2 and all("consolation" in u for u in score.unverified)


def test_an_item_of_unknown_value_is_listed_unverified_and_left_out() -> None:
    """TR_VALAT's value is unknown in the built-in catalogue: its line is not guessed."""
    bidding = [*E6_BIDDING, ann(A2, "TR_VALAT")]
    bidding += [Action("pass", A2), Action("pass", B1), Action("pass", B2), Action("pass", A1)]
    _, score = game(E6_TRICKS, bidding, consolation=0)
    assert "TR_VALAT" not in party_items(score, A1)
    assert any("TR_VALAT" in u and "made" in u and "value unknown" in u for u in score.unverified)
    # the Valat trophy switches 4 Könige off (its `suppresses`)
    assert "Q_4KOENIGE" not in party_items(score, A1)


def test_a_user_catalogue_value_changes_the_score() -> None:
    bidding = turns(
        B2,
        [ann(A1, "S_LAMOUR")],
        [ann(A2, "F_SPIEL")],
        B1,
        B2,
        A1,
    )
    _, builtin = game(E3_TRICKS, bidding, consolation=0)
    user = {"extends": "royal-gerots-2023", "items": [{"id": "F_SPIEL", "value": 12}]}
    _, custom = game(E3_TRICKS, bidding, consolation=0, catalogue=user)
    assert party_items(builtin, A1)["F_SPIEL"] == 10 and builtin.totals[A1] == 9
    assert party_items(custom, A1)["F_SPIEL"] == 12 and custom.totals[A1] == 11


def test_every_party_line_is_written_by_both_partners_with_an_explicit_seat() -> None:
    _, score = game(E8_TRICKS, turns(B2, A1, A2, B1), consolation=0)
    assert all(it.seat is not None for it in score.items)
    assert party_items(score, A1) == party_items(score, A2)
    assert party_items(score, B1) == party_items(score, B2)


def test_layout_helper_checks_the_pack() -> None:
    with pytest.raises(AssertionError):
        from tests.support.royal_support import deal_of

        deal_of([T("0:T1 1:T2 2:T3 3:T4")] * 10)
