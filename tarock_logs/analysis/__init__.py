"""Perfect-information analysis of card play ("all cards visible"): Slovenian tarok, and the
games with an analysis plug-in (``games``: Zwanzigerrufen, Royal Tarock, on the pure-Python
solver).

For a card-play position the solver values every legal card of the player to move, with every
hand visible, in points of the score sheet for the declarer side (klop: for the player
himself); :func:`~tarock_logs.analysis.hand.analyse_hand` does it for every card of a recorded
hand and says what each card cost and changed. docs/analysis.md gives the objectives per
contract, the techniques and the measured speed.

Modules: ``games`` (the game plug-ins: each game's positions, legal cards, trick winner and
objective from its engine; ``zwanzigerrufen``, ``royal``), ``cardset`` (Slovenian card
ids and masks; the legal cards and the trick winner are the engine's ``PlayRules`` and
``winner_index``, the native solver's are ``_native/cards.h``), ``objective`` (what is
maximised, per Slovenian contract), ``position`` (positions read off the engine),
``search`` (the pure-Python solver), ``native`` (the C solver of ``tarock_logs/_native``
behind the same interface), ``outcome`` (lines played out and scored by the engine), ``hand``
(recorded hands), ``knowledge`` (what a player knew at a card, from the game's view plug-in
``rules/<game>/view.py``, and a uniform sampler of the layouts consistent with it),
``player`` (recorded hands valued on what the player knew: means over sampled layouts).

A card that loses with all cards visible may have been the right card on what the player knew.
"""

from __future__ import annotations

from tarock_logs.analysis.hand import (
    LABEL,
    CardAnalysis,
    HandAnalysis,
    analyse_hand,
    analyse_replay,
    iter_analyses,
)
from tarock_logs.analysis.native import make_solver
from tarock_logs.analysis.position import Position, Setting, Unsupported, read_position

__all__ = [
    "LABEL",
    "CardAnalysis",
    "HandAnalysis",
    "Position",
    "Setting",
    "Unsupported",
    "analyse_hand",
    "analyse_replay",
    "iter_analyses",
    "make_solver",
    "read_position",
]
