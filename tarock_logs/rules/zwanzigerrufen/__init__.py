"""Zwanzigerrufen ("calling the Twenty"): the four-player Austrian tarock game, as a pure
rules engine (spec: ``../shared/rules/zwanzigerrufen.md``; ruleset ``zr-std-2026``, aliases
``zr-std`` / ``ZR-STD``).

40 cards (tarocks I, IIII–XXI and the Sküs; in each suit K Q N J and one zero-point
*Glatze*), ten cards each, **no talon**. Forehand (the seat after the dealer) calls tarock XX,
or the highest of XIX…XVI she lacks, and its holder is her secret partner; or a player
declares a **Farbensolo** (suit solo: tarocks are not trumps) or a **Solo** against the other
three. Card points are added one by one (88 in the pack); the declarer side needs 45.
Bonuses: Absolut (the other side held to 32 or fewer), Pagat Ultimo (the Pagat wins the last
trick), Valat (all ten tricks), silent or announced *dazu* (for the declarers) or *dagegen*
(against), each doubled by its own Kontra chain (Kontra, Retour, Supra, Resupra); the card
bonuses Trull and Four Kings, claimed after the play; and the Mondfang (the Mond captured by
the Sküs), which also makes the next four games count double.

Modules: :mod:`.rulesets` (ruleset and options), :mod:`.tricks` (legal cards, trick winner),
:mod:`.auction`, :mod:`.hand` (the state machine), :mod:`.scoring`, :mod:`.session`,
:mod:`.engine`, :mod:`.codes` (every finding code).
"""

from __future__ import annotations

from tarock_logs.rules.zwanzigerrufen.engine import ENGINE, ZwanzigerrufenEngine
from tarock_logs.rules.zwanzigerrufen.hand import Phase, ZRHand
from tarock_logs.rules.zwanzigerrufen.rulesets import DEFAULT_OPTIONS, RULESETS, ZR_STD
from tarock_logs.rules.zwanzigerrufen.session import ZRSession

__all__ = [
    "DEFAULT_OPTIONS",
    "ENGINE",
    "RULESETS",
    "ZR_STD",
    "Phase",
    "ZRHand",
    "ZRSession",
    "ZwanzigerrufenEngine",
]
