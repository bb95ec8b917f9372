"""Heuristic computer players for the simulator, one module per game.

A *policy* picks one action from the engine's ``legal_actions()`` list; it never invents an
action the engine did not offer (the simulator plants irregularities itself, on purpose and
recorded). Policies draw randomness only from the ``random.Random`` they are handed, so a
simulation is reproducible from its seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Protocol

from tarock_logs.rules.base import Action, HandState


class Policy(Protocol):
    """Chooses one of the legal actions for the seat to move."""

    def choose(
        self, state: HandState, legal: Sequence[Action], rng: Random, memo: dict[str, Any]
    ) -> Action:
        """Pick an element of ``legal``. ``memo`` is a scratch dict that lives for one hand."""
        ...


def get_policy(game: str) -> Policy | None:
    """The heuristic policy for ``game``, or None when the game has no simulated players yet."""
    if game == "slovenian":
        from tarock_logs.tools.sim_players.slovenian import SlovenianPolicy

        return SlovenianPolicy()
    if game in ("zwanzigerrufen", "royal"):
        from tarock_logs.tools.sim_players.generic import GenericPolicy

        return GenericPolicy()
    return None
