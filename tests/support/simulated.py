"""Simulated Slovenian sessions shared by the native-replay differentials
(``tests/rules/slovenian``: ``test_native_cards``, ``test_native_hand``, ``test_fastpath``).

Simulating a hand cost ≈ 12 ms (the simulated players asked the Python engine for the legal
actions and a view at every step; ≈ 3 ms since the simulator's players read the hand itself,
docs/performance.md), several times its two replays: the three modules simulated
7,200 hands between them, each its own. Now each ruleset and table size is simulated once per
process (seed ``23 + table``, sessions of 16) and a test takes the first ``n`` hands of it: the
simulator seeds a session by the seed and its number alone, so the first ``n`` hands (whole
sessions) are what ``simulate_hands(n, seed)`` would give. The tests that use it run in one
xdist group (``SHARED_GROUPS``, tests/conftest.py), so one worker simulates each set once.
"""

from __future__ import annotations

import fcntl
import functools
import os
from typing import Any

import orjson
import pytest

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


_RUN_SIMULATIONS: dict[tuple[Any, ...], list[dict[str, Any]]] = {}


def run_simulation(
    tmp_path_factory: pytest.TempPathFactory, n: int, seed: int, **kw: Any
) -> list[dict[str, Any]]:
    """``simulate_hands(n, seed, **kw)`` made once per test run for the tests of several
    modules that take the same simulated hands (the stored-facts and stored-ratings
    differentials): kept in the process, and under xdist written (as JSON lines) to the run's
    common temporary folder by the first worker to ask, under a lock, and read by the other.
    Each call returns fresh documents (the caller may change them)."""
    from tarock_logs.tools.simulate import simulate_hands

    key = (n, seed, *sorted(kw.items()))
    if key not in _RUN_SIMULATIONS:
        if not os.environ.get("PYTEST_XDIST_WORKER"):
            _RUN_SIMULATIONS[key] = simulate_hands(n, seed, **kw)
        else:
            shared = tmp_path_factory.getbasetemp().parent / "simulated-shared"
            shared.mkdir(exist_ok=True)
            name = "-".join(str(x) for x in (n, seed, *(f"{k}={v}" for k, v in key[2:])))
            with open(shared / ".lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                path = shared / f"{name}.jsonl"
                if not path.is_file():
                    docs = simulate_hands(n, seed, **kw)
                    tmp = path.with_suffix(".part")
                    tmp.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in docs))
                    tmp.rename(path)
                lines = path.read_bytes().splitlines()
            _RUN_SIMULATIONS[key] = [orjson.loads(line) for line in lines]
    docs: list[dict[str, Any]] = orjson.loads(orjson.dumps(_RUN_SIMULATIONS[key]))  # (a copy)
    return docs
