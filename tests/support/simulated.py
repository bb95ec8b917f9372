"""Simulated Slovenian sessions shared by the native-replay differentials
(``tests/rules/slovenian``: ``test_native_cards``, ``test_native_hand``, ``test_fastpath``).

Simulating a hand costs ≈ 12 ms (the simulated players ask the Python engine for the legal
actions and a view at every step), four times its two replays: the three modules simulated
7,200 hands between them, each its own. Now each ruleset and table size is simulated once per
process (seed ``23 + table``, sessions of 16) and a test takes the first ``n`` hands of it: the
simulator seeds a session by the seed and its number alone, so the first ``n`` hands (whole
sessions) are what ``simulate_hands(n, seed)`` would give. The tests that use it run in one
xdist group (``SHARED_GROUPS``, tests/conftest.py), so one worker simulates each set once.
"""

from __future__ import annotations

import functools
import os
from typing import Any

from tests.support.native_replay import sessions_of

LONG = os.environ.get("TAROCK_LONG_CHECKS") == "1"
#: hands simulated per (ruleset, table size): the most any test takes (TAROCK_LONG_CHECKS=1:
#: 50,000, the native whole hand's long check)
SIZES = {
    ("si-tournament-2021", 3): 1_000,
    ("si-tournament-2021", 4): 1_000,
    ("si-tournament-2021", 5): 1_000,
    ("openspiel-2.0", 3): 512,
    ("openspiel-2.0", 4): 1_000,
}


@functools.cache
def _simulated(ruleset: str, table: int) -> tuple[Any, ...]:
    from tarock_logs.tools.simulate import simulate_hands

    n = 50_000 if LONG else SIZES[(ruleset, table)]
    return tuple(sessions_of(simulate_hands(n, 23 + table, ruleset=ruleset, table_size=table)))


def simulated_sessions(ruleset: str, table: int, n: int) -> list[Any]:
    """The first ``n`` simulated hands of ``ruleset`` at a table of ``table`` as log-format
    sessions (whole sessions: ``n`` a multiple of 16, or all the hands simulated)."""
    out: list[Any] = []
    hands = 0
    for s in _simulated(ruleset, table):
        if hands >= n:
            break
        out.append(s)
        hands += len(s.hands)
    assert hands == n, f"{n} hands asked, {hands} simulated in whole sessions"
    return out
