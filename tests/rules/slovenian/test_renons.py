"""Renons settlements (spec section 10.4): R1–R5 of section 10.5, misdeal and game penalties."""

from __future__ import annotations

from tarock_logs.rules.base import Irregularity

from .test_scoring import P1, P2, P3, P4, W6, facts, score


def renons(seat: int, kind: str = "illegal_card") -> Irregularity:
    return Irregularity("renons", seat=seat, kind=kind)


def test_R1_revoke_by_an_opponent_with_a_radelc():
    f = facts(
        "three",
        P1,
        P2,
        130,
        radelci=(0, 0, 0, 1),
        announced={"trula": "M"},
        kontra={"game": 1},
        kontra_givers=frozenset({P3}),
        irregularities=(renons(P4),),
    )
    s = score(f)
    assert s.totals == (0, 0, 0, -320) and s.carry_after["radelci"] == [0, 0, 0, 1]
    assert score(f, renons_includes_announced_bonuses=False).totals == (0, 0, 0, -280)


def test_R2_renons_by_the_kontra_giver_pays_and_declarer_writes_plus():
    f = facts(
        "two",
        P3,
        P1,
        130,
        radelci=(0, 0, 1, 0),
        kontra={"game": 1},
        kontra_givers=frozenset({P2}),
        irregularities=(renons(P2),),
    )
    s = score(f)
    assert s.totals == (0, -140, 80, 0) and s.carry_after["radelci"] == [0, 0, 0, 0]


def test_R3_wrong_discard_ignores_kontra():
    f = facts(
        "three",
        P1,
        P2,
        130,
        radelci=(1, 0, 0, 0),
        kontra={"game": 1},
        kontra_givers=frozenset({P3}),
        irregularities=(renons(P1, "wrong_discard"),),
    )
    assert score(f).totals == (-140, 0, 0, 0)


def test_R4_partial_renons_kralj_ultimo_counts_as_caught():
    f = facts(
        "three",
        P1,
        P3,
        140,
        announced={"kralj_ultimo": "M"},
        kontra={"kralj_ultimo": 1},
        outcomes={"kralj_ultimo": None},
        irregularities=(renons(P1, "partial_king_ultimo"),),
    )
    assert score(f).totals == (-18, 0, -18, 0)


def test_R5_renons_in_klop_with_kontra():
    f = facts(
        "klop",
        radelci=(0, 0, 1, 0),
        kontra={"game": 1},
        kontra_givers=frozenset({P1}),
        irregularities=(renons(P3),),
        **W6,
    )
    s = score(f)
    assert s.totals == (0, 0, -280, 0) and s.carry_after["radelci"] == [1, 1, 2, 1]


def test_unupheld_renons_is_ignored():
    ir = Irregularity("renons", seat=P4, kind="illegal_card", upheld=False)
    assert score(facts("two", P3, P1, 106, irregularities=(ir,))).totals == (20, 0, 20, 0)


def test_misdeal_penalties_double_and_are_never_multiplied():
    f = facts(
        "two",
        P3,
        P1,
        106,
        radelci=(1, 1, 1, 1),
        misdeals_before=(0, 1, 2, 0),
        irregularities=tuple(Irregularity("misdeal", seat=s) for s in (P1, P2, P3)),
    )
    s = score(f)
    pen = {i.seat: i.value for i in s.items if i.item == "penalty"}
    assert pen == {P1: 0, P2: -20, P3: -40}
    assert s.carry_after["misdeals"] == [1, 2, 3, 0]


def test_game_point_penalty_for_the_sitting_out_dealer():
    f = facts("two", P3, P1, 106, irregularities=(Irregularity("penalty", seat=P2, points=-70),))
    assert score(f).totals == (20, -70, 20, 0)
