"""The heuristic Slovenian players: trick winners, hand evaluation, and choices per phase."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import Action
from tarock_logs.tools.sim_players import get_policy
from tarock_logs.tools.sim_players.slovenian import (
    SlovenianPolicy,
    beggar_hand,
    desired_contract,
    strength,
    trick_winner_index,
)


@pytest.mark.parametrize(
    ("trick", "winner", "winner_colour_valat"),
    [
        # slovenian-tarok.md §8.6, the trick-winner test cases
        ("H4 HK T3 T2", "T3", "HK"),
        ("T21 T22 H4 T1", "T1", "T1"),
        ("H4 T22 T21 T1", "T1", "H4"),
        ("H1 HK CK H4", "HK", "HK"),
        ("T20 T1 T21 T22", "T1", "T1"),
    ],
)
def test_trick_winner_follows_section_8_2(
    trick: str, winner: str, winner_colour_valat: str
) -> None:
    cards = trick.split()
    assert cards[trick_winner_index(cards)] == winner
    assert cards[trick_winner_index(cards, colour_valat=True)] == winner_colour_valat


def test_trick_winner_of_an_incomplete_trick_is_the_best_card_so_far() -> None:
    assert trick_winner_index(["S8", "S10"]) == 1
    assert trick_winner_index(["S8", "H1"]) == 0  # a discard of another suit never wins


STRONG = ["T22", "T21", "T20", "T19", "T18", "T17", "T16", "T15", "HK", "DK", "SK", "CK"]
WEAK = ["T2", "H4", "H3", "D4", "D3", "D2", "S7", "S8", "S9", "C7", "C8", "CJ"]
AVERAGE = ["T3", "T7", "T12", "T16", "HQ", "H2", "DK", "D4", "S8", "SJ", "C9", "CN"]


def test_hand_strength_orders_hands() -> None:
    assert strength(STRONG) > strength(AVERAGE) > strength(WEAK)


def test_a_very_strong_hand_wants_a_solo_or_more() -> None:
    wants = {desired_contract(STRONG, 4, Random(i)) for i in range(20)}
    assert wants <= {"solo_one", "solo_brez", "valat"}


def test_a_weak_hand_without_high_cards_is_a_beggar_hand() -> None:
    assert beggar_hand(WEAK)
    assert not beggar_hand(AVERAGE)
    wants = [desired_contract(WEAK, 4, Random(i)) for i in range(40)]
    assert "berac" in wants and set(wants) <= {"berac", None}


def test_no_solo_three_two_one_wanted_with_three_active_players() -> None:
    rng = Random(5)
    deck = list(PACKS["slovenian"])
    for _ in range(300):
        rng.shuffle(deck)
        want = desired_contract(deck[:16], 3, rng)
        assert want not in ("solo_three", "solo_two", "solo_one")


def test_contract_mix_is_mostly_tri_dva_ena_and_klop() -> None:
    """Forehand's desire over random deals: most hands are weak or middling (the auction then
    gives three/two/one or klop), solos are occasional."""
    rng = Random(11)
    deck = list(PACKS["slovenian"])
    wants: dict[Any, int] = {}
    for _ in range(2000):
        rng.shuffle(deck)
        w = desired_contract(deck[6:18], 4, rng)
        wants[w] = wants.get(w, 0) + 1
    common = sum(wants.get(k, 0) for k in (None, "three", "two", "one"))
    assert common > 0.85 * 2000
    assert 0 < sum(wants.get(k, 0) for k in ("solo_three", "solo_two", "solo_one")) < 0.12 * 2000


class _State:
    """Just enough of a HandState for one decision."""

    def __init__(self, phase: str, view: dict[str, Any]) -> None:
        self.phase = phase
        self._view = view
        self.table_size = len(view["hands"])

    def view(self) -> dict[str, Any]:
        return self._view


def _view(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "hands": [[], [], [], []],
        "trick": [],
        "tricks": [],
        "talon": [],
        "contract": None,
        "declarer": None,
        "partner": None,
    }
    base.update(kw)
    return base


def test_king_call_names_a_king_not_held() -> None:
    hand = ["T22", "T21", "T5", "HK", "HQ", "H4", "DK", "SK", "S7", "C7", "C8", "CQ"]
    state = _State("king_call", _view(hands=[hand, [], [], []], contract="three", declarer=0))
    legal = [Action("call", 0, card=k) for k in ("HK", "DK", "SK", "CK")]
    assert SlovenianPolicy().choose(state, legal, Random(1), {}).card == "CK"


def test_talon_pick_takes_the_group_with_the_mond() -> None:
    talon = ["H4", "D4", "S7", "T21", "C7", "C8"]
    state = _State("talon", _view(talon=talon, contract="three", declarer=0))
    legal = [Action("talon", 0, group=0), Action("talon", 0, group=1)]
    assert SlovenianPolicy().choose(state, legal, Random(1), {}).group == 1


def test_discard_prefers_voiding_a_suit_over_throwing_a_tarok() -> None:
    hand = ["T3", "T9", "T12", "T15", "HK", "HQ", "H4", "DQ", "D1", "S7", "CN", "CJ", "C9"]
    state = _State("discard", _view(hands=[hand, [], [], []], contract="one", declarer=0))
    legal = [Action("discard", 0, cards=(c,)) for c in hand if c not in ("HK",)]
    choice = SlovenianPolicy().choose(state, legal, Random(1), {})
    assert choice.cards == ("S7",)  # the singleton spade: voids spades


def test_play_smears_points_on_a_trick_the_partner_wins_last() -> None:
    hand = ["HQ", "H4", "T3"]
    trick = [[1, "T20"], [2, "H3"], [3, "HK"]]  # seat 1 (partner) wins with T20
    state = _State(
        "play",
        _view(
            hands=[hand, ["X"], ["X"], ["X"]], trick=trick, contract="three", declarer=0, partner=1
        ),
    )
    legal = [Action("play", 0, card=c) for c in ("HQ", "H4")]
    assert SlovenianPolicy().choose(state, legal, Random(1), {}).card == "HQ"


def test_play_in_klop_stays_under_the_trick() -> None:
    hand = ["HK", "H2", "H4"]
    trick = [[1, "H1"], [2, "H3"]]
    state = _State("play", _view(hands=[hand, ["X"], ["X"], ["X"]], trick=trick, contract="klop"))
    legal = [Action("play", 0, card=c) for c in ("HK", "H2", "H4")]
    # H2 and H4 do not beat H1; the higher of them (H2) is thrown
    assert SlovenianPolicy().choose(state, legal, Random(1), {}).card == "H2"


def test_bidding_forehand_with_a_weak_hand_chooses_klop_or_berac() -> None:
    state = _State("bidding", _view(hands=[WEAK, ["X"], ["X"], ["X"]]))
    legal = [Action("bid", 0, contract=c) for c in ("klop", "three", "two", "one")]
    assert SlovenianPolicy().choose(state, legal, Random(3), {}).contract == "klop"
    legal.append(Action("bid", 0, contract="berac"))
    choices = {SlovenianPolicy().choose(state, legal, Random(i), {}).contract for i in range(10)}
    assert choices <= {"klop", "berac"} and "berac" in choices


def test_bidding_a_player_passes_when_the_bids_are_above_his_hand() -> None:
    state = _State("bidding", _view(hands=[["X"], AVERAGE, ["X"], ["X"]]))
    legal = [Action("pass", 1)] + [Action("bid", 1, contract=c) for c in ("solo_two", "valat")]
    assert SlovenianPolicy().choose(state, legal, Random(3), {}).type == "pass"


def test_slovenian_has_its_own_players_the_other_games_the_generic_ones() -> None:
    from tarock_logs.tools.sim_players.generic import GenericPolicy

    assert isinstance(get_policy("slovenian"), SlovenianPolicy)
    assert isinstance(get_policy("zwanzigerrufen"), GenericPolicy)
    assert isinstance(get_policy("royal"), GenericPolicy)
    assert get_policy("chess") is None
