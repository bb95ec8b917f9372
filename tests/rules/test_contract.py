"""The engine contract of ``rules/base.py``: every engine subclasses it and answers the declared
hooks (deal shape, dealer rotation, pack, phases, rulesets) from its own rules, once."""

from __future__ import annotations

import pytest

from tarock_logs.cards import PACKS
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Action, DealShape, GameEngine, HandState, SessionState

GAMES = ("slovenian", "zwanzigerrufen", "royal")


def _engine(game: str) -> GameEngine:
    eng = get_engine(game)
    assert eng is not None
    return eng


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_subclasses_the_contract(game: str) -> None:
    eng = _engine(game)
    assert isinstance(eng, GameEngine)
    rs = eng.ruleset(eng.default_ruleset)
    ss = eng.new_session(rs, eng.table_sizes(rs)[-1 if game != "slovenian" else 1])
    assert isinstance(ss, SessionState)
    assert eng.pack(rs) == PACKS[game]


def test_slovenian_deal_shape_follows_spec_3_4() -> None:
    """Spec 3.4: a talon of 6; 16 cards each at 3, 12 at 4 and at 5, where the dealer sits out."""
    eng = _engine("slovenian")
    assert eng.deal_shape(3, 0) == DealShape((16, 16, 16), 6)
    assert eng.deal_shape(4, 2) == DealShape((12, 12, 12, 12), 6)
    assert eng.deal_shape(5, 2) == DealShape((12, 12, 0, 12, 12), 6)
    assert eng.deal_shape(6, 0) is None
    assert eng.table_sizes() == (3, 4, 5)
    assert eng.table_sizes(eng.ruleset("openspiel")) == (3, 4)


@pytest.mark.parametrize("game", ["zwanzigerrufen", "royal"])
def test_austrian_and_royal_deals_are_ten_cards_each_without_talon(game: str) -> None:
    eng = _engine(game)
    assert eng.table_sizes() == (4,)
    assert eng.deal_shape(4, 3) == DealShape((10, 10, 10, 10), 0)
    assert eng.deal_shape(3, 0) is None


@pytest.mark.parametrize(
    ("game", "after_game"), [("slovenian", 0), ("zwanzigerrufen", 0), ("royal", 1)]
)
def test_the_deal_passes_on_per_game_and_stays_after_a_throw_in(game: str, after_game: int) -> None:
    """Slovenian spec 3.2 and Zwanzigerrufen §3.2: the next seat deals; Royal Tarock §3.2: the
    other pair's Eintreiber, two seats on. A thrown-in deal is dealt again by the same dealer."""
    eng = _engine(game)
    assert eng.next_dealer(3, 4) == after_game
    assert eng.next_dealer(3, 4, thrown_in=True) == 3


def test_zwanzigerrufen_glatzen_names_follow_option_o2() -> None:
    """§2.2 / O2: the physical Glatze cards are those of the ruleset's ``glatzen`` set."""
    eng = _engine("zwanzigerrufen")
    default = eng.card_names(eng.ruleset("zr-std"))
    assert default["S10"] == "SG" and default["H1"] == "HG" and "H4" not in default
    red_four = eng.card_names(eng.ruleset("zr-std", {"glatzen": "red_four"}))
    assert red_four["H4"] == "HG" and red_four["D4"] == "DG" and "H1" not in red_four


@pytest.mark.parametrize(
    ("game", "name", "rid"),
    [
        ("slovenian", "tournament", "si-tournament-2021"),
        ("slovenian", "openspiel", "openspiel-2.0"),
        ("zwanzigerrufen", "zr-std", "zr-std-2026"),
        ("zwanzigerrufen", "ZR-STD", "zr-std-2026"),
        ("royal", "royal", "royal-gerots-2023"),
    ],
)
def test_one_registry_finds_dated_rulesets_by_id_and_alias(game: str, name: str, rid: str) -> None:
    eng = _engine(game)
    assert eng.ruleset(name).id == rid and eng.ruleset(rid).id == rid
    with pytest.raises(KeyError, match="unknown"):
        eng.ruleset("no-such-ruleset")


def _played_hand(game: str) -> tuple[GameEngine, HandState, list[Action]]:
    """A hand of ``game`` played by always taking the first legal action."""
    from tests.rules.slovenian.randomgame import random_hand
    from tests.support.zwanzigerrufen_support import fd_hand

    eng = _engine(game)
    if game == "slovenian":
        hand: HandState = random_hand(3, 4, "tournament")
    elif game == "zwanzigerrufen":
        hand = fd_hand("FD1")
    else:
        import random

        from tests.rules.royal.test_royal_invariants import random_deal

        royal = eng.ruleset("royal", {"consolation": 0})
        hand = eng.new_session(royal, 4).new_hand(1, random_deal(random.Random(5), 1))
    actions: list[Action] = []
    while not hand.is_over() and len(actions) < 200:
        legal = hand.legal_actions()
        if not legal:
            break
        hand.push(legal[0])
        actions.append(legal[0])
    return eng, hand, actions


@pytest.mark.parametrize("game", GAMES)
def test_action_phases_name_the_phase_the_engine_is_in(game: str) -> None:
    """The presentation's phase of an action (``action_phases``) is the engine's own phase at
    that moment; phases are ``StrEnum`` members, so they compare equal to their names."""
    eng, hand, actions = _played_hand(game)
    phases = eng.action_phases(actions)
    assert len(phases) == len(actions)
    # replay again, noting the phase the hand is in after each action
    for _ in actions:
        hand.pop()
    for a, ph in zip(actions, phases, strict=True):
        before = str(hand.phase)
        hand.push(a)
        assert ph in (before, str(hand.phase)), (a, ph, before, hand.phase)
    assert str(hand.phase) == "done" and hand.phase == "done"


@pytest.mark.parametrize("game", GAMES)
def test_copy_is_independent_and_pops_like_the_original(game: str) -> None:
    """``copy()`` (OpenSpiel's ``Clone()``): a copy pops back through the whole hand exactly as
    the original does, and leaves the original untouched while it does."""
    _eng, hand, actions = _played_hand(game)
    final = hand.view()
    twin = hand.copy()
    twin_views = []
    for _ in actions:
        twin.pop()
        twin_views.append(twin.view())
    assert hand.is_over() and hand.view() == final and not twin.is_over()
    for want in twin_views:
        hand.pop()
        assert hand.view() == want
