"""A plain heuristic player for any game whose engine lists its legal actions (used for
Zwanzigerrufen and Royal Tarock, which have no specialised players yet).

It knows no bidding theory: in the auction it takes the forehand's normal *call* (in
Zwanzigerrufen: calling tarock XX, or the highest tarock she lacks, to find her secret
partner), passes almost always, and only rarely bids a solo, announces a bonus or gives a
kontra (a doubling); Royal Tarock's hand declarations (*Meldungen*) it makes half the time
they are offered. It claims every card bonus the engine offers after the play. In play it
uses the same trick sense as the Slovenian players: win a trick that carries points with the
cheapest winning card, otherwise throw the least valuable card.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from tarock_logs.rules.base import Action, HandState
from tarock_logs.tools.sim_players.slovenian import POINTS, POWER, taking_cards

#: Probability, per decision, of taking one option of a kind (bid, announce, kontra, meld)
#: instead of passing.
ADVENTURE = {"bid": 0.03, "announce": 0.03, "kontra": 0.03, "meld": 0.5}


class GenericPolicy:
    """Choices from the legal list only; see the module docstring."""

    def choose(
        self, state: HandState, legal: Sequence[Action], rng: Random, memo: dict[str, Any]
    ) -> Action:
        if len(legal) == 1:
            return legal[0]
        plays = [a for a in legal if a.type == "play"]
        if plays:
            return self._play(state, plays, rng)
        claims = [a for a in legal if a.type == "claim" and a.claim != "rest"]
        if claims:
            return claims[0]
        calls = [a for a in legal if a.type == "call"]
        if calls and rng.random() < 0.95:
            return calls[0]
        passes = [a for a in legal if a.type in ("pass", "lezim")]
        others = [a for a in legal if a.type not in ("pass", "lezim", "call", "throw_in")]
        for kind in sorted({a.type for a in others}):  # at most one adventure per decision
            if rng.random() < ADVENTURE.get(kind, 0.0):
                options = [a for a in others if a.type == kind]
                return options[rng.randrange(len(options))]
        if passes:
            return passes[0]
        non_throw = [a for a in legal if a.type != "throw_in"] or list(legal)
        return non_throw[0]

    @staticmethod
    def _play(state: HandState, plays: list[Action], rng: Random) -> Action:
        # (the trick alone: an engine reads it off the table without building its whole view)
        trick = [str(c) for _, c in (state.timeline_state(("trick",)).get("trick") or [])]
        cards = [a.card for a in plays if a.card]
        by_card = {a.card: a for a in plays}

        def low(c: str) -> tuple[int, int]:
            return (POINTS[c], POWER[c])

        if not trick:
            return by_card[min(cards, key=low)]
        winners = taking_cards(trick, cards)
        points = sum(POINTS[c] for c in trick)
        if winners and (points >= 3 or rng.random() < 0.3):
            return by_card[min(winners, key=POWER.__getitem__)]
        return by_card[min(cards, key=low)]
