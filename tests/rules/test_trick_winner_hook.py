"""``GameEngine.trick_winner``: the presentation hook the dashboard's table asks "who is
winning this trick so far" (each game's own trick rule, declared by its engine, so that no page
imports an engine's trick module). Pinned to each game's trick functions on random tricks."""

from __future__ import annotations

import random

import pytest

from tarock_logs.rules import get_engine
from tarock_logs.rules.royal.tricks import trick_winner as royal_winner
from tarock_logs.rules.slovenian.tricks import winner_index as si_winner
from tarock_logs.rules.zwanzigerrufen.tricks import winner_index as zr_winner


def _tricks(game: str, n: int = 400) -> list[list[tuple[int, str]]]:
    engine = get_engine(game)
    assert engine is not None
    pack = list(engine.pack())
    rng = random.Random(game)
    out = []
    for _ in range(n):
        k = rng.randrange(1, 5)
        leader = rng.randrange(4)
        cards = rng.sample(pack, k)
        if rng.random() < 0.3:  # the trula often in play: emperor's trick / Märchenstich
            for i, c in enumerate(("T1", "T21", "T22")[:k]):
                if c not in cards:
                    cards[i] = c
        out.append([((leader + i) % 4, c) for i, c in enumerate(cards)])
    return out


@pytest.mark.parametrize("contract", [None, "three", "klop", "barvni_valat"])
def test_slovenian_trick_winner_is_spec_8_2(contract: str | None) -> None:
    engine = get_engine("slovenian")
    assert engine is not None
    for cards in _tricks("slovenian"):
        want = cards[si_winner([c for _, c in cards], colour_valat=contract == "barvni_valat")]
        assert engine.trick_winner(cards, contract) == want[0]


@pytest.mark.parametrize("contract", ["normal", "farbensolo", "solo"])
def test_zwanzigerrufen_trick_winner_is_spec_6(contract: str) -> None:
    engine = get_engine("zwanzigerrufen")
    assert engine is not None
    for cards in _tricks("zwanzigerrufen"):
        want = cards[zr_winner([c for _, c in cards], contract)]
        assert engine.trick_winner(cards, contract) == want[0]


def test_royal_trick_winner_is_section_6_3() -> None:
    engine = get_engine("royal")
    assert engine is not None
    for cards in _tricks("royal"):
        assert engine.trick_winner(cards, None) == royal_winner(cards)


@pytest.mark.parametrize("game", ["slovenian", "zwanzigerrufen", "royal"])
def test_no_card_and_an_unknown_card_have_no_winner(game: str) -> None:
    engine = get_engine(game)
    assert engine is not None
    assert engine.trick_winner([], None) is None
    assert engine.trick_winner([(0, "XX"), (1, "YY")], None) is None
