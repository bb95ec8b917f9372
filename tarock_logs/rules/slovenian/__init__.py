"""Slovenian tarok: a pure rules engine (standard library only).

``ENGINE`` is the :class:`~tarock_logs.rules.base.GameEngine`::

    from tarock_logs.rules.slovenian import ENGINE
    rs = ENGINE.ruleset("tournament")                      # si-tournament-2021
    session = ENGINE.new_session(rs, 4)
    hand = session.new_hand(dealer=3, hands=[...], talon=[...])
    for action in actions:
        violations = hand.push(action)                     # lenient: applied and reported
    score = hand.score()                                   # itemised HandScore
    session.end_hand(hand, score)                          # radelci carried on

Modules: ``rulesets`` (options as data), ``contracts`` (the contract table), ``tricks``
(trick winner and legal cards), ``hand`` (the state machine), ``scoring`` (sections 9–10),
``session`` (radelci), ``tournament`` (placement points and final ranking), ``codes`` (every
finding code with its section).
``SlovenianHand.hand_findings()`` lists hand-level findings (deal check, ``renons.unclaimed``).
``fastpath`` is the bulk-audit path (``SlovenianSession.fast_replay``).
"""

from __future__ import annotations

from tarock_logs.rules.slovenian.engine import ENGINE, SlovenianEngine
from tarock_logs.rules.slovenian.hand import Phase, SlovenianHand
from tarock_logs.rules.slovenian.rulesets import RULESETS
from tarock_logs.rules.slovenian.session import SlovenianSession
from tarock_logs.rules.slovenian.tournament import final_ranking, placement_points

__all__ = [
    "ENGINE",
    "RULESETS",
    "Phase",
    "SlovenianEngine",
    "SlovenianHand",
    "SlovenianSession",
    "final_ranking",
    "placement_points",
]
