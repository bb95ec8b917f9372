"""The one differential check of the native bulk paths: the whole replay of some sessions
with the native core and without it (the module's ``_CORE`` set to None), hand by hand."""

from __future__ import annotations

from types import ModuleType
from typing import Any

import pytest

from tarock_logs.log.models import SessionAdapter
from tarock_logs.verdict import replay as rp


def sessions_of(docs: list[dict[str, Any]]) -> list[Any]:
    """The simulator's session documents as log models."""
    return [SessionAdapter.validate_python(d) for d in docs]


def replays_equal(
    sessions: list[Any],
    module: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    *,
    python_fast_path: bool,
) -> tuple[int, int]:
    """:func:`native_replays_equal` without the native replays it returns."""
    hands, taken, _ = native_replays_equal(
        sessions, module, monkeypatch, python_fast_path=python_fast_path
    )
    return hands, taken


def native_replays_equal(
    sessions: list[Any],
    module: ModuleType,
    monkeypatch: pytest.MonkeyPatch,
    *,
    python_fast_path: bool,
) -> tuple[int, int, list[list[Any]]]:
    """Replay ``sessions`` with the native core and with ``module._CORE`` off; assert equal
    verdicts, scores and carries per hand, and equal tricks where the native side took the
    hand. ``python_fast_path``: without the core the engine still has a fast path of its own,
    which must take the same hands and give the same tricks (as views and as columns; no
    engine has one now: Slovenian's was removed, issue 32); else the reference replays every
    hand, and a native hand's tricks must be the reference state's (and the reference state
    rebuilt on demand, on a sample, its state).
    Returns (hands, hands the native side took, the native replays: per session its hands'
    replays, for a test that looks at them further without replaying the sessions again)."""
    native = [rp.replay_session(s) for s in sessions]
    with monkeypatch.context() as mp:
        mp.setattr(module, "_CORE", None)
        python = [rp.replay_session(s) for s in sessions]
    hands = taken = 0
    for xs, ys in zip(native, python, strict=True):
        for x, y in zip(xs, ys, strict=True):
            hands += 1
            assert x.score == y.score
            assert x.violations == y.violations and x.legal == y.legal
            assert x.unverified == y.unverified and x.complete == y.complete
            assert x.carry_before == y.carry_before and x.carry_after == y.carry_after
            if python_fast_path:
                assert (x._tricks is None) == (y._tricks is None)
            else:
                assert y._tricks is None  # the reference took every hand
            if x._tricks is None:
                continue
            taken += 1
            assert x.legal and x.complete and not x.violations
            if python_fast_path:
                assert list(x.tricks or ()) == list(y.tricks or ())
                assert x.trick_rows() == y.trick_rows()
                continue
            ref = y.state
            assert ref is not None
            assert list(x.tricks or ()) == ref.view()["tricks"]
            if taken % 10 == 1:  # the reference state, rebuilt on demand (a sample)
                rebuilt = x.state
                assert rebuilt is not None and rebuilt.view() == ref.view()
    return hands, taken, native
