"""Placement points and the final ranking (spec section 11.4, T1–T4)."""

from __future__ import annotations

import pytest

from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.tournament import (
    TableRound,
    final_ranking,
    placement_points,
    table_deviations,
)


def test_T1_table_of_four_tie_average_and_best_shared():
    scores = [185, 40, 40, -95]
    assert placement_points(scores, 4) == [5, 3.5, 3.5, 2]
    assert placement_points(scores, 4, tie="best_shared") == [5, 4, 4, 2]
    assert table_deviations(scores) == [142.5, -2.5, -2.5, -137.5]


def test_T2_table_of_five_mixed_or_all_fives():
    scores = [260, 95, 0, -45, -110]
    assert placement_points(scores, 5) == [5, 4, 3, 2, 2]
    assert placement_points(scores, 5, all_tables_of_five=True) == [5, 4, 3, 2, 1]
    assert table_deviations(scores) == [220, 55, -40, -85, -150]


def test_T3_table_of_three():
    assert placement_points([120, 30, -60], 3) == [5, 4, 2]
    assert table_deviations([120, 30, -60]) == [90, 0, -90]


def rounds_T4():
    # X: 5 (+142.5), 3.5 (-2.5), 4 (+55); Y: 4 (+20), 5 (+170), 3.5 (-2.5); Z: 5 (+300), 5, 2
    return [
        TableRound(["X", "a", "b", "c"], [185, 40, 40, -95], 1),  # X 5, +142.5
        TableRound(["Y", "d", "e", "f"], [60, 100, 20, -20], 1),  # Y 4, +20
        TableRound(["Z", "g", "h", "i"], [340, 0, -100, -80], 1),  # Z 5, +300
        TableRound(["X", "j", "k", "l"], [40, 185, 40, -95], 2),  # X 3.5, -2.5
        TableRound(["Y", "m", "n", "o"], [210, 0, 20, -70], 2),  # Y 5, +170
        TableRound(["Z", "p", "q", "r"], [-40, 40, 0, 0], 3),  # Z 2 (lowest)
        TableRound(["X", "s", "t", "u"], [95, 260, 0, -195], 3),  # X 4, +55
        TableRound(["Y", "v", "w", "x"], [40, 185, 40, -95], 3),  # Y 3.5, -2.5
        TableRound(["Z", "y", "z", "zz"], [100, 0, 0, -100], 2),  # Z 5, 0
    ]


def test_T4_final_ranking_points_then_deviation():
    rows = {r.player: r for r in final_ranking(rounds_T4())}
    x, y, z = rows["X"], rows["Y"], rows["Z"]
    assert (x.placement_points, x.deviation) == (12.5, 195)
    assert (y.placement_points, y.deviation) == (12.5, 187.5)
    assert z.placement_points == 12
    assert (x.rank, y.rank, z.rank) == (1, 2, 3)


def test_T4_tournament_point_penalty_drops_Y_below_Z():
    rows = {r.player: r for r in final_ranking(rounds_T4(), penalties={"Y": 25})}
    assert rows["Y"].placement_points == -12.5
    assert rows["Z"].rank < rows["Y"].rank


def test_ties_on_both_keys_share_a_rank():
    rows = final_ranking([TableRound(["A", "B", "C", "D"], [10, 10, 0, -20])])
    assert [r.rank for r in rows] == [1, 1, 3, 4]


def test_engine_placement_points_follow_the_ruleset_tie_option():
    rs = ENGINE.ruleset("tournament", {"table_tie_points": "best_shared"})
    assert ENGINE.placement_points(rs, [10, 10, 0, -20]) == [5, 5, 3, 2]
    assert ENGINE.placement_points(ENGINE.ruleset("tournament"), [10, 10, 0, -20]) == [
        4.5,
        4.5,
        3,
        2,
    ]


def test_placement_points_reject_bad_input():
    with pytest.raises(ValueError):
        placement_points([1, 2], 3)


def test_table_composition_warnings_follow_the_rulebook():
    from tarock_logs.rules.slovenian.tournament import composition_warnings

    assert composition_warnings([4, 5]) == []
    assert composition_warnings([4, 4, 3]) == []
    assert composition_warnings([3, 3, 4]) == [
        "10 players should sit at tables of 5 + 5, not 3 + 3 + 4"
    ]
    assert composition_warnings([6]) == ["a table of 6 is not a Slovenian tournament table"]
