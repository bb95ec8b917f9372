"""Scoring from facts (spec section 9.13): the worked examples W1–W24, and the `tournament`
column of the cross-check cases O1–O8 (Appendix C). Seats: P1 = 0 … P4 = 3 (dealer P4)."""

from __future__ import annotations

import pytest

from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.contracts import Rules
from tarock_logs.rules.slovenian.scoring import HandFacts, score_facts

P1, P2, P3, P4 = 0, 1, 2, 3


def facts(contract, declarer=None, partner=None, t_m=0, *, n=4, radelci=None, **kw) -> HandFacts:
    active = tuple(range(n)) if n < 5 else kw.pop("active")
    f = HandFacts(
        contract=contract,
        active=active,
        table_size=n,
        declarer=declarer,
        partner=partner,
        radelci=tuple(radelci or (0,) * n),
        t_m=t_m,
        t_o=210 - t_m,
        tricks_total=48 // len(active),
    )
    f.declarer_tricks = kw.pop("declarer_tricks", 6)
    for k, v in kw.items():
        setattr(f, k, v)
    return f


def score(f: HandFacts, ruleset: str = "tournament", **options):
    return score_facts(Rules(ENGINE.ruleset(ruleset, options or None)), f)


def test_W1_tri_won_announced_doubled_pagat_silent_kralji_mondfang():
    f = facts(
        "three",
        P1,
        P2,
        149,
        announced={"pagat_ultimo": "M"},
        kontra={"pagat_ultimo": 1},
        outcomes={"pagat_ultimo": "M", "kralji": "M", "trula": None},
        mond_events=((P4, "mond captured"),),
    )
    s = score(f)
    assert s.totals == (135, 135, 0, -20) and s.carry_after["radelci"] == [0, 0, 0, 0]


@pytest.mark.parametrize("t_m,r", [(103, -21), (104, -20), (105, -20), (106, 20), (107, 21)])
def test_W2_35_and_one_card_wins(t_m, r):
    s = score(facts("two", P3, P1, t_m))
    assert s.totals == (r, 0, r, 0) and s.won is (r > 0)


def test_W3_solo_ena_lost_with_radelc_silent_trula_of_defenders():
    s = score(facts("solo_one", P3, None, 88, radelci=(0, 0, 1, 0), outcomes={"trula": "O"}))
    assert s.totals == (0, 0, -152, 0) and s.carry_after["radelci"] == [0, 0, 1, 0]


def test_W4_called_king_in_talon_remainder_and_mond():
    assert score(facts("three", P1, None, 115)).totals == (13, 0, 0, 0)
    s = score(facts("three", P1, None, 100, mond_events=((P1, "mond left in the talon"),)))
    assert s.totals == (-32, 0, 0, 0)


def test_W5_self_call_mond_left_in_talon():
    s = score(facts("three", P1, None, 121, mond_events=((P1, "mond left in the talon"),)))
    assert s.totals == (-5, 0, 0, 0)


W6 = {"klop_thirds": {0: 60, 1: 46, 2: 75, 3: 29}, "klop_tricks": {0: 3, 1: 3, 2: 3, 3: 3}}
W7 = {"klop_thirds": {0: 110, 1: 40, 2: 0, 3: 60}, "klop_tricks": {0: 5, 1: 2, 2: 0, 3: 5}}


def test_W6_klop_nobody_full_or_empty():
    s = score(facts("klop", radelci=(0, 1, 0, 0), **W6))
    assert s.totals == (-20, -30, -25, -10) and s.carry_after["radelci"] == [1, 2, 1, 1]


def test_W7_klop_full_and_empty_with_radelci():
    s = score(facts("klop", radelci=(1, 0, 1, 0), **W7))
    assert s.totals == (-140, 0, 140, 0) and s.carry_after["radelci"] == [2, 1, 1, 1]


def test_W8a_klop_kontra_doubles_everybody():
    s = score(facts("klop", radelci=(0, 1, 0, 0), kontra={"game": 1}, **W6))
    assert s.totals == (-40, -60, -50, -20) and s.carry_after["radelci"] == [1, 2, 1, 1]


def test_W8b_klop_kontra_empty_player():
    s = score(
        facts(
            "klop",
            kontra={"game": 1},
            klop_thirds={0: 80, 1: 70, 2: 60, 3: 0},
            klop_tricks={0: 4, 1: 4, 2: 4, 3: 0},
        )
    )
    assert s.totals == (0, 0, 0, 140) and s.carry_after["radelci"] == [1, 1, 1, 1]


def test_W8c_klop_kontra_full_and_empty_literal_and_switch():
    f = facts("klop", kontra={"game": 1}, **W7)
    assert score(f).totals == (-70, 0, 70, 0)
    s = score(f, klop_kontra_full_and_empty_doubled=True)
    assert s.totals == (-140, 0, 140, 0) and s.carry_after["radelci"] == [1, 1, 1, 1]


def test_W10a_berac_won_with_radelc():
    s = score(facts("berac", P3, radelci=(0, 0, 1, 0), declarer_tricks=0))
    assert s.totals == (0, 0, 140, 0) and s.carry_after["radelci"] == [1, 1, 1, 1]


def test_W10b_berac_lost_with_kontra():
    s = score(facts("berac", P2, kontra={"game": 1}, declarer_tricks=1))
    assert s.totals == (0, -140, 0, 0) and s.carry_after["radelci"] == [1, 1, 1, 1]


def test_W11_odprti_berac_lost_two_radelci_double_once():
    s = score(facts("odprti_berac", P1, radelci=(2, 0, 0, 0), declarer_tricks=1))
    assert s.totals == (-180, 0, 0, 0) and s.carry_after["radelci"] == [3, 1, 1, 1]


def test_W12_silent_valat_replaces_everything():
    s = score(
        facts(
            "three", P1, P3, 200, announced={"trula": "M"}, valat_side="M", outcomes={"trula": "M"}
        )
    )
    assert s.totals == (250, 0, 250, 0) and s.carry_after["radelci"] == [0, 0, 0, 0]
    assert [i.item for i in s.items] == ["valat"]


def test_W13_announced_valat_fails_in_solo_tri():
    s = score(
        facts("solo_three", P2, None, 150, announced={"valat": "M"}, outcomes={"kralji": "M"})
    )
    assert s.totals == (0, -435, 0, 0) and s.carry_after["radelci"] == [0, 0, 0, 0]


def test_W14_barvni_valat_bid_and_won_with_radelc():
    s = score(facts("barvni_valat", P4, radelci=(0, 0, 0, 1), declarer_tricks=12))
    assert s.totals == (0, 0, 0, 250) and s.carry_after["radelci"] == [1, 1, 1, 1]


def test_W15_barvni_valat_announced_doubled_failed():
    s = score(
        facts(
            "solo_two",
            P1,
            None,
            150,
            announced={"barvni_valat": "M"},
            kontra={"barvni_valat": 1},
            declarer_tricks=8,
        )
    )
    assert s.totals == (-250, 0, 0, 0) and s.carry_after["radelci"] == [1, 1, 1, 1]


def test_W16_announcements_of_both_sides_and_silent_kralj_ultimo():
    s = score(
        facts(
            "three",
            P1,
            P2,
            118,
            announced={"pagat_ultimo": "M", "kralji": "O"},
            outcomes={"pagat_ultimo": "M", "kralji": None, "trula": None, "kralj_ultimo": "M"},
        )
    )
    assert s.totals == (94, 94, 0, 0)


def test_W17_kontra_on_game_and_bonus_with_radelc():
    s = score(
        facts(
            "two",
            P3,
            P1,
            97,
            radelci=(0, 0, 1, 0),
            announced={"trula": "M"},
            kontra={"game": 1, "trula": 1},
            outcomes={"trula": None},
        )
    )
    assert s.totals == (-172, 0, -172, 0) and s.carry_after["radelci"] == [0, 0, 1, 0]


def test_W18_passive_announcements_and_declarer_kontra():
    f = facts(
        "one",
        P1,
        P3,
        100,
        announced={"pagat_ultimo": "O", "trula": "O"},
        kontra={"trula": 1},
        outcomes={"pagat_ultimo": "O", "trula": None, "kralj_ultimo": None},
        failed_silent={"kralj_ultimo": "M"},
    )
    assert score(f).totals == (-42, 0, -42, 0)
    assert score(f, silent_ultimo_failure_counts=True).totals == (-52, 0, -52, 0)


def test_W19_won_with_radelc_mondfang_not_doubled():
    s = score(
        facts(
            "one", P4, P2, 112, radelci=(0, 0, 0, 1), mond_events=((P4, "mond left in the talon"),)
        )
    )
    assert s.totals == (0, 64, 0, 44) and s.carry_after["radelci"] == [0, 0, 0, 0]


def test_W20_solo_brez_won_silent_trula_radelc():
    s = score(facts("solo_brez", P2, None, 127, radelci=(0, 1, 0, 0), outcomes={"trula": "M"}))
    assert s.totals == (0, 194, 0, 0) and s.carry_after["radelci"] == [1, 1, 1, 1]


def test_W21_table_of_three():
    s = score(facts("two", P2, None, 128, n=3, outcomes={"pagat_ultimo": "M"}))
    assert s.totals == (0, 53, 0)


def test_W22_table_of_five_sitting_out_dealer_gets_the_radelc():
    a, b, _c, d, e = range(5)
    f = facts("berac", a, n=5, active=(d, e, a, b), declarer_tricks=1)
    s = score(f)
    assert s.totals == (-70, 0, 0, 0, 0) and s.carry_after["radelci"] == [1, 1, 1, 1, 1]


def test_W23_silent_ultimo_failure_switch():
    f = facts(
        "three", P1, P2, 124, failed_silent={"pagat_ultimo": "M"}, outcomes={"pagat_ultimo": None}
    )
    assert score(f).totals == (16, 16, 0, 0)
    assert score(f, silent_ultimo_failure_counts=True).totals == (-9, -9, 0, 0)


W24 = [
    ("trula by M, M captured", {"trula": "M"}, {}, {"trula": "M"}, 35),
    ("trula by M, kontra, split", {"trula": "M"}, {"trula": 1}, {"trula": None}, -25),
    ("trula by O, O captured", {"trula": "O"}, {}, {"trula": "O"}, -5),
    ("kralji silent, O captured", {}, {}, {"kralji": "O"}, 5),
    ("kralji by M, split", {"kralji": "M"}, {}, {"kralji": None}, -5),
    ("kralji by O, kontra, O captured", {"kralji": "O"}, {"kralji": 1}, {"kralji": "O"}, -25),
    ("pagat by M, beaten", {"pagat_ultimo": "M"}, {}, {"pagat_ultimo": None}, -35),
    ("pagat silent, O won", {}, {}, {"pagat_ultimo": "O"}, -10),
    ("pagat by O, not in last trick", {"pagat_ultimo": "O"}, {}, {"pagat_ultimo": None}, 65),
    ("kralj ultimo by M, won", {"kralj_ultimo": "M"}, {}, {"kralj_ultimo": "M"}, 35),
    (
        "kralj ultimo by M, kontra, caught",
        {"kralj_ultimo": "M"},
        {"kralj_ultimo": 1},
        {"kralj_ultimo": None},
        -25,
    ),
]


@pytest.mark.parametrize("row", W24, ids=[r[0] for r in W24])
def test_W24_bonus_outcome_matrix(row):
    _, ann, kontra, outcomes, r = row
    s = score(facts("three", P1, P2, 121, announced=ann, kontra=kontra, outcomes=outcomes))
    assert s.totals == (r, r, 0, 0)


def test_items_sum_to_totals_and_partner_equals_declarer_without_mondfang():
    f = facts(
        "three",
        P1,
        P2,
        149,
        announced={"pagat_ultimo": "M"},
        kontra={"pagat_ultimo": 1},
        outcomes={"pagat_ultimo": "M", "kralji": "M"},
        mond_events=((P2, "mond captured"),),
    )
    s = score(f)
    assert s.totals == (135, 115, 0, 0)
    assert all(i.reason for i in s.items)


# ---- Appendix C, the `tournament` column (the `openspiel` column is OpenSpiel's returns)


def test_O1_threshold_106_wins_in_tournament_loses_at_107():
    f = facts("two", P3, P1, 106)
    assert score(f).totals == (20, 0, 20, 0)
    assert score(f, win_threshold_thirds=107).totals == (-20, 0, -20, 0)


def test_O2_defenders_one_trick_kralji():
    s = score(facts("three", P1, P2, 182, outcomes={"kralji": "M"}))
    assert s.totals == (46, 46, 0, 0)


def test_O3_called_king_and_pagat_in_the_last_trick():
    s = score(facts("three", P1, P2, 130, outcomes={"pagat_ultimo": "M", "kralj_ultimo": "M"}))
    assert s.totals == (53, 53, 0, 0)


def test_O4_all_tricks_is_a_silent_valat():
    s = score(facts("three", P1, P2, 207, valat_side="M"))
    assert s.totals == (250, 250, 0, 0)


def test_O5_klop_full_player():
    s = score(
        facts(
            "klop", klop_thirds={0: 106, 1: 50, 2: 30, 3: 24}, klop_tricks={0: 4, 1: 3, 2: 3, 3: 2}
        )
    )
    assert s.totals == (-70, 0, 0, 0)


def test_O6_solo_brez_difference_and_trula():
    f = facts("solo_brez", P2, None, 127, outcomes={"trula": "M"})
    assert score(f).totals == (0, 97, 0, 0)
    flat = score(f, solo_brez_difference=False, solo_brez_bonuses=False)
    assert flat.totals == (0, 80, 0, 0)


def test_O7_valat_contract_value_option():
    f = facts("valat", P3, declarer_tricks=12)
    assert score(f).totals == (0, 0, 250, 0)
    assert score(f, valat_contract_value=500).totals == (0, 0, 500, 0)


def test_O8_three_players_fifteen_of_sixteen_tricks():
    s = score(facts("three", P1, None, 180, n=3))
    assert s.totals == (35, 0, 0)
