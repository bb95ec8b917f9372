"""OpenSpiel's ``returns()`` reimplemented (``openspiel_scoring``): worked examples of the spec
and agreement with pyspiel itself over generated games, branch by branch."""

from __future__ import annotations

import collections

import pytest

from tarock_logs.cards import PACKS
from tarock_logs.rules.slovenian.openspiel_scoring import (
    openspiel_returns,
    openspiel_score,
    pile_points,
)
from tarock_logs.tools.importers.openspiel import decode_game


def _tricks(rows: list[tuple[int, str, int]]) -> list[tuple[int, list[str], int]]:
    return [(leader, cards.split(), winner) for leader, cards, winner in rows]


# Appendix B.1 of slovenian-tarok.md (P1..P4 = seats 0..3, dealer seat 3).
B1_TALON = "T3 S7 T12 H1 T20 T10".split()
B1_TRICKS = _tricks(
    [
        (0, "SK SJ S8 SQ", 0),
        (0, "T15 T7 T22 T21", 2),
        (2, "H2 T9 H1 HN", 3),
        (3, "CQ C10 CJ T13", 2),
        (2, "S10 T17 T6 T2", 3),
        (3, "D1 T20 D2 D4", 0),
        (0, "T19 T4 T8 T11", 0),
        (0, "HK T14 HQ T5", 1),
        (1, "CK H3 CN T16", 0),
        (0, "T10 C7 HJ C9", 0),
        (0, "T18 DK SN DQ", 0),
        (0, "T1 C8 D3 DN", 0),
    ]
)

# Appendix B.2: klop, talon gifts on tricks 1-6.
B2_TALON = "T16 HK T10 T22 T5 T7".split()
B2_TRICKS = _tricks(
    [
        (0, "T18 T19 T21 T11", 2),
        (2, "T14 T15 T9 T8", 3),
        (3, "T12 CJ T3 T17", 2),
        (2, "SN S8 CK S9", 2),
        (2, "SK T6 HQ S10", 3),
        (3, "CQ H4 C7 CN", 3),
        (3, "C8 H2 C10 T20", 2),
        (2, "D3 T4 DN D2", 3),
        (3, "T2 DQ DK T13", 2),
        (2, "SJ T1 D1 D4", 3),
        (3, "C9 DJ H1 S7", 3),
        (3, "H3 HJ HN SQ", 1),
    ]
)


def test_appendix_b1_tri_scores_50_each_and_mondfang_for_p4() -> None:
    score = openspiel_score(
        num_players=4,
        forehand=0,
        contract="three",
        declarer=0,
        partner=1,
        called_king="DK",
        talon=B1_TALON,
        talon_group=1,
        discards=["DJ", "S9", "H4"],
        tricks=B1_TRICKS,
    )
    # P = 50 → 15 + 10, pagat in the last trick won by the declarer's side → +25.
    assert score.returns == [50, 50, 0, -20]
    assert score.base == [50, 50, 0, 0]
    assert score.mond_loser == 3
    assert {"pagat_ultimo", "mond_captured", "won"} <= score.flags


def test_appendix_b2_klop_empty_pile_wins_70() -> None:
    returns = openspiel_returns(
        num_players=4,
        forehand=0,
        contract="klop",
        declarer=0,
        partner=None,
        called_king=None,
        talon=B2_TALON,
        talon_group=None,
        discards=[],
        tricks=B2_TRICKS,
    )
    assert returns == [70, 0, 0, 0]


def test_klop_talon_gifts_go_to_the_first_six_trick_winners() -> None:
    score = openspiel_score(
        num_players=4,
        forehand=0,
        contract="klop",
        declarer=0,
        partner=None,
        called_king=None,
        talon=B2_TALON,
        talon_group=None,
        discards=[],
        tricks=B2_TRICKS,
    )
    assert [len(p) for p in score.piles] == [0, 4, 23, 27]  # as Appendix B.2 counts them
    assert score.piles[2][4] == "T16"  # trick 1 (P3) takes the first talon card


def test_pile_points_round_two_thirds_per_card() -> None:
    assert pile_points(list(PACKS["slovenian"])) == 70
    assert pile_points(["T2"]) == 0
    assert pile_points(["HK", "T3", "T4"]) == 5  # 7 - 2
    assert pile_points([]) == 0


def test_mond_left_in_talon_costs_the_declarer_20() -> None:
    # Solo three, declarer 1 takes group 0; the mond lies in group 1: −20 to the declarer.
    tricks = [(0, ["H4", "H3", "H2", "H1"], 0)] * 12
    score = openspiel_score(
        num_players=4,
        forehand=0,
        contract="solo_three",
        declarer=1,
        partner=None,
        called_king=None,
        talon=["T2", "T3", "T4", "T21", "T5", "T6"],
        talon_group=0,
        discards=["C7", "C8", "C9"],
        tricks=tricks,
    )
    assert score.mond_loser == 1
    assert "mond_in_talon" in score.flags
    # O holds 48 cards: "valat" against (−250), then the −20.
    assert score.returns == [0, -270, 0, 0]


@pytest.mark.parametrize("contract,value", [("berac", 70), ("odprti_berac", 90)])
def test_beggar_is_won_with_an_empty_pile(contract: str, value: int) -> None:
    tricks = [(2, ["H4", "H3", "H2"], 2)]
    kw = {
        "num_players": 3,
        "forehand": 0,
        "contract": contract,
        "partner": None,
        "called_king": None,
        "talon": ["T2"] * 6,
        "talon_group": None,
        "discards": [],
        "tricks": tricks,
    }
    assert openspiel_returns(declarer=0, **kw) == [value, 0, 0]  # type: ignore[arg-type]
    assert openspiel_returns(declarer=2, **kw) == [0, 0, -value]  # type: ignore[arg-type]


def test_bad_arguments_raise() -> None:
    kw = {
        "forehand": 0,
        "partner": None,
        "called_king": None,
        "talon": [],
        "talon_group": None,
        "discards": [],
        "tricks": [],
    }
    with pytest.raises(ValueError):
        openspiel_returns(num_players=5, contract="klop", declarer=None, **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        openspiel_returns(num_players=4, contract="tri", declarer=0, **kw)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        openspiel_returns(num_players=4, contract="two", declarer=None, **kw)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- against pyspiel


@pytest.mark.oracle
@pytest.mark.parametrize("players,games,seed", [(4, 4000, 5), (3, 2500, 4)])
def test_returns_equal_pyspiel_with_every_scoring_branch(
    players: int, games: int, seed: int
) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from tarock_logs.tools.importers.openspiel_games import generate_games

    game = pyspiel.load_game("tarok", {"players": players})
    flags: collections.Counter[str] = collections.Counter()
    for g in generate_games(players, games, seed):
        d = decode_game(g.seed, players, g.actions)
        assert d.contract is not None
        score = openspiel_score(
            num_players=players,
            forehand=0,
            contract=d.contract,
            declarer=d.declarer,
            partner=d.partner,
            called_king=d.called_king,
            talon=d.talon,
            talon_group=d.talon_group,
            discards=d.discards,
            tricks=d.tricks,
        )
        state = game.deserialize_state(g.serialized)
        where = repr(g.serialized)
        assert score.returns == [int(r) for r in state.returns()], where
        assert score.base == [int(r) for r in state.scores_without_captured_mond_penalties()], where
        assert [-20 if p == score.mond_loser else 0 for p in range(players)] == [
            int(r) for r in state.captured_mond_penalties()
        ], where
        flags.update(score.flags)
        flags[f"{d.contract}:{'won' if 'won' in score.flags else 'other'}"] += 1
        if d.contract in ("valat", "barvni_valat") and "won" in score.flags:
            flags["a_valat_contract:won"] += 1  # both valat contracts share one branch
    # The generated games exercise every branch OpenSpiel can take at this table size.
    common = {
        "mond_in_talon",
        "mond_captured",
        "pagat_ultimo",
        "valat_against",
        "klop_full",
        "klop_empty",
        "won",
        "lost",
        "berac:won",
        "odprti_berac:won",
        "solo_brez:won",
    }
    if players == 4:
        expected = common | {
            "king_takes_talon",
            "mond_cancelled",
            "king_ultimo",
            "kings_against",
            "a_valat_contract:won",
        }
    else:  # no king call at 3; the "kings" defect can only favour a One declarer
        expected = common | {"kings_for"}
    missing = expected - set(flags)
    assert not missing, f"branches not reached: {sorted(missing)}; reached: {dict(flags)}"


@pytest.mark.parametrize("shift", [1, 2, 3])
def test_scores_follow_the_seats_not_openspiel_numbering(shift: int) -> None:
    """Session seats need not be OpenSpiel's: rotating every seat (forehand included) rotates
    the returns."""

    def rot(seat: int) -> int:
        return (seat + shift) % 4

    tricks = [(rot(leader), cards, rot(winner)) for leader, cards, winner in B1_TRICKS]
    returns = openspiel_returns(
        num_players=4,
        forehand=rot(0),
        contract="three",
        declarer=rot(0),
        partner=rot(1),
        called_king="DK",
        talon=B1_TALON,
        talon_group=1,
        discards=["DJ", "S9", "H4"],
        tricks=tricks,
    )
    expected = [50, 50, 0, -20]
    assert returns == [expected[(s - shift) % 4] for s in range(4)]
