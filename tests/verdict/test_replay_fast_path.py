"""The replay's fast path (``with_views=False``): the same steps, violations and scores as the
full replay with views, steps built only when asked for."""

from __future__ import annotations

from typing import Any

from tarock_logs.rules import get_engine
from tarock_logs.rules.base import SessionState
from tarock_logs.verdict.replay import replay_hand, replay_session
from tests.support.d1_helpers import b1_doc, plant_b1_illegal_card, session


def _shape(steps: list) -> list:
    return [(st.index, st.action_index, st.action, st.violations) for st in steps]


def test_fast_path_steps_equal_the_full_replay_steps_without_views() -> None:
    doc = b1_doc()
    idx = plant_b1_illegal_card(doc)
    s = session(doc)
    fast = replay_hand(s, 0, with_views=False)
    full = replay_hand(s, 0, with_views=True)
    assert fast.violations == full.violations and fast.score == full.score
    assert fast.actions_applied == full.actions_applied == len(s.hands[0].actions)
    assert _shape(fast.steps) == _shape(full.steps)
    assert fast.steps[idx + 1].violations and fast.steps[idx + 1].violations[0].card == "C7"
    assert all(st.view is None for st in fast.steps)
    assert all(st.view is not None for st in full.steps)
    assert fast.steps is fast.steps  # built once


def test_fast_path_in_a_session_keeps_the_carry_and_verdicts() -> None:
    s = session(b1_doc())
    fast = replay_session(s, with_views=False)
    full = replay_session(s, with_views=True)
    for a, b in zip(fast, full, strict=True):
        assert (a.violations, a.score, a.carry_before, a.carry_after, a.unverified) == (
            b.violations,
            b.score,
            b.carry_before,
            b.carry_after,
            b.unverified,
        )
        assert _shape(a.steps) == _shape(b.steps)


class _Delegate:
    def __init__(self, inner: Any) -> None:
        self._inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


class _BoomHand(_Delegate):
    """A Slovenian hand whose engine cannot apply the sixth action."""

    pushed = 0

    def push(self, action: Any) -> Any:
        if self.pushed == 5:
            raise ValueError("boom")
        self.pushed += 1
        return self._inner.push(action)


class _BoomSession(SessionState):
    """A session that hands out :class:`_BoomHand`; being a contract subclass without its own
    ``fast_replay``, it has the declared default (no bulk path), so both paths push."""

    def __init__(self, inner: SessionState) -> None:
        self._inner = inner

    def new_hand(self, *args: Any) -> Any:
        return _BoomHand(self._inner.new_hand(*args))

    def end_hand(self, hand: Any, score: Any) -> None:
        self._inner.end_hand(hand, score)

    def carry(self) -> dict[str, Any]:
        return self._inner.carry()

    def restore(self, carry: Any) -> bool:
        return self._inner.restore(carry)


class _BoomEngine(_Delegate):
    def new_session(self, *args: Any) -> Any:
        return _BoomSession(self._inner.new_session(*args))


def test_an_action_the_engine_cannot_apply_stops_both_paths_at_the_same_step() -> None:
    s = session(b1_doc())
    eng: Any = _BoomEngine(get_engine("slovenian"))
    fast = replay_hand(s, 0, engine=eng, with_views=False)
    full = replay_hand(s, 0, engine=eng, with_views=True)
    assert fast.actions_applied == full.actions_applied == 5
    assert any("replay stopped at action 5" in u for u in fast.unverified)
    assert fast.violations == full.violations and fast.unverified == full.unverified
    assert fast.violations[-1].code == "replay.not_applicable"
    assert _shape(fast.steps) == _shape(full.steps) and len(fast.steps) == 7
    assert fast.score is None and not fast.complete
