"""Replay: drive a rules engine through the actions of a recorded hand.

The replay layer is the bridge between the log format (:mod:`tarock_logs.log.models`, pydantic) and
the pure rules engines (:mod:`tarock_logs.rules.base`). It converts each logged action into an
engine :class:`~tarock_logs.rules.base.Action`, pushes it onto the engine's
:class:`~tarock_logs.rules.base.HandState` and records, for every action, the violations the
engine reported (with ``action_index`` set, 0-based into the hand's actions) and, unless
``with_views=False``, the engine's ``view()`` snapshot after it (the state sequence the replay
viewer steps through). At the end of the hand the engine scores it.

It is game-agnostic: it talks to engines only through the contract in ``rules/base.py`` and
finds them with :func:`tarock_logs.rules.get_engine`. A game without an engine, an unknown
ruleset, an engine that gives up on an action or declines to score: each yields a replay whose
``unverified`` says why, never an exception.

Sessions carry state from hand to hand (Slovenian *radelci*, the doubling tokens earned in
big games; Austrian double rounds): :func:`replay_session` replays the hands in order through
one engine :class:`~tarock_logs.rules.base.SessionState`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.log import models as m
from tarock_logs.log.options import session_options
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import (
    Action,
    CountNotSupported,
    DealInfo,
    FactsNotScored,
    FastReplay,
    GameEngine,
    HandScore,
    HandState,
    Ruleset,
    SeatRole,
    SessionState,
    Violation,
)
from tarock_logs.verdict.convert import (
    to_engine_action,
    to_engine_counted,
    to_engine_facts,
    to_engine_irregularity,
)

__all__ = [
    "COUNT_NOT_SUPPORTED",
    "FACTS_NOT_CHECKED",
    "HandReplay",
    "ReplayError",
    "Step",
    "Timeline",
    "carries_on",
    "legal_alternatives",
    "replay_carried",
    "replay_hand",
    "replay_in_session",
    "replay_session",
    "resolve_ruleset",
    "session_setup",
    "to_engine_action",
    "to_engine_irregularity",
]


#: Whether replays without views may use an engine's optional bulk path
#: (:meth:`~tarock_logs.rules.base.SessionState.fast_replay`, e.g.
#: :mod:`tarock_logs.rules.slovenian.fast.fastpath`). Switch off to measure or
#: debug the reference path alone (``tarock bench`` reports both).
FAST_PATH = True

#: Whether replays asked for the native score (``replay_session(..., native=True)``: the bulk
#: audit, ``tarock audit``, the bench) first ask the game's native engine for its whole hand
#: and score (:meth:`~tarock_logs.rules.base.SessionState.native_replay`: the machine, for
#: hands the reference would find clean; a hand it declines goes to the bulk path, then the
#: reference). Its score lines carry no reason: :meth:`HandReplay.reasons` asks the reference
#: for them. Switch off to measure or test the other paths.
NATIVE_SCORE = True


class ReplayError(Exception):
    """The replay cannot start at all (no engine, unknown ruleset); the message says why."""


#: What a hand recorded as facts (a score-sheet line, without cards) cannot show: said in the
#: ``unverified`` of every such hand, so that it is ``partial`` at best, never ``verified``.
FACTS_NOT_CHECKED: tuple[str, ...] = (
    "legality of play not checked: the hand is recorded as facts, without cards or actions",
    "card points, tricks and bonus outcomes not checked: the facts are taken as recorded",
)


#: The finding (a warning) that the game's engine cannot count a hand from its piles (a
#: counted hand, format 1.2): the hand is then scored from its facts as recorded, if it can be.
COUNT_NOT_SUPPORTED = "count.not_supported"


# --------------------------------------------------------------------------- results


@dataclass(slots=True)
class Step:
    """One position of the replay.

    Step 0 is the deal before any action (``action`` and ``action_index`` None); step ``k``
    (k ≥ 1) is the position after action ``k - 1``, with that action and the violations it
    raised. ``view`` is the engine's JSON-able snapshot (None when replayed without views).
    """

    index: int
    action_index: int | None
    action: Action | None
    violations: list[Violation]
    view: dict[str, Any] | None


@dataclass(slots=True)
class Timeline:
    """What the store keeps of a hand's steps beyond its record
    (``tarock_logs/store/read/timeline.py`` builds the replay page's positions from it): how it was
    found (``kind``: 1, the reference replay said every value; 2, a clean hand of the engine's bulk
    path, every action legal and made by the seat to move; 0, nothing was replayed) and, for kind
    1, per action the seat to move and the phase after it, and ``states``: ``(step, key, value)``
    where a key of the engine's :attr:`~tarock_logs.rules.base.GameEngine.timeline_keys` changed
    (step 0: the deal) and, at an illegal card, ``allowed``: the cards the rules allowed; and the
    hand's card points as its score counts them."""

    kind: int
    to_move: list[int | None] = field(default_factory=list)
    phase: list[str] = field(default_factory=list)
    states: list[tuple[int, str, Any]] = field(default_factory=list)
    #: the score's card points (:attr:`~tarock_logs.rules.base.HandScore.card_points`)
    card_points: dict[str, Any] | None = None


@dataclass(slots=True)
class HandReplay:
    """The outcome of replaying one hand.

    ``violations`` lists every violation, action-level ones with ``action_index`` set,
    hand-level ones (if an engine reports any) with it None. ``score`` is the engine's
    recomputed score, None when the hand could not be scored (see ``unverified``). ``legal`` is
    True when no violation has severity ``error``. ``complete`` is False when the replay
    stopped before the last action (the engine refused to apply one) or the hand did not end.
    ``carry_expected`` is the engine's carried state (radelci) coming into the hand,
    ``carry_before`` the state the hand was played with: the log's ``radelci_before`` where
    it was applied (``carry_source == "recorded"``), else the engine's. ``facts_only``: the
    hand is recorded as facts without cards (scored from them; nothing was replayed).
    """

    game: str
    hand_index: int
    hand_number: int
    ruleset: Ruleset | None
    violations: list[Violation] = field(default_factory=list)
    score: HandScore | None = None
    unverified: list[str] = field(default_factory=list)
    complete: bool = False
    carry_before: dict[str, Any] = field(default_factory=dict)
    carry_after: dict[str, Any] = field(default_factory=dict)
    actions_applied: int = 0
    requested_ruleset: str | None = None
    carry_expected: dict[str, Any] = field(default_factory=dict)
    carry_source: str = "engine"
    facts_only: bool = False
    _st: HandState | None = field(default=None, repr=False)
    _steps: list[Step] | None = field(default=None, repr=False)
    #: a fast replay (the engine's optional ``fast_replay``): the completed tricks in the
    #: format of ``view()["tricks"]`` (built on first use of :attr:`tricks`), the log's
    #: actions (converted on first use of :attr:`steps`) and a callable that rebuilds the
    #: reference hand state on first use of :attr:`state`
    _tricks: Sequence[Any] | Callable[[], Sequence[Any]] | None = field(default=None, repr=False)
    #: a fast replay whose engine gives them: the tricks as columns (``TrickRows``), on call
    _trick_rows: Callable[[], Any] | None = field(default=None, repr=False)
    _model_actions: Sequence[Any] | None = field(default=None, repr=False)
    _rebuild: Callable[[], HandState] | None = field(default=None, repr=False)
    #: a replay the native engine scored: the reference's score of the hand, on call
    _reference_score: Callable[[], HandScore] | None = field(default=None, repr=False)
    #: without views: the applied actions and their violations by action index, from which
    #: :attr:`steps` is built on first use (bulk audits never look at steps)
    _actions: list[Action] | None = field(default=None, repr=False)
    _found: dict[int, list[Violation]] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    #: :func:`legal_alternatives` of every step, found in one pass on first use
    _alternatives: dict[int, list[Action]] | None = field(default=None, repr=False)
    #: the store's timeline of the hand (:class:`Timeline`), when asked for
    timeline: Timeline | None = field(default=None, repr=False)

    @property
    def tricks(self) -> Sequence[Any] | None:
        """After a fast replay, the completed tricks as the engine's ``view()["tricks"]`` gives
        them (built on first use); None after a reference replay (ask ``state.view()``)."""
        t = self._tricks
        if callable(t):
            t = self._tricks = t()
        return t

    def trick_rows(self) -> Any:
        """After a fast replay whose engine gives them, the completed tricks as columns
        (:class:`~tarock_logs.rules.base.TrickRows`); else None (use :attr:`tricks`)."""
        f = self._trick_rows
        return f() if f is not None else None

    @property
    def state(self) -> HandState | None:
        """The engine's hand state after the replay (rebuilt by the reference engine on first
        use after a fast replay); None when no engine state exists. Read it, do not push or
        pop on it: :func:`legal_alternatives` works on a copy."""
        st = self._st
        if st is None and self._rebuild is not None:
            rebuild, self._rebuild = self._rebuild, None
            try:
                st = self._st = rebuild()
            except Exception:  # noqa: BLE001 - only the viewer's alternatives need it
                st = None
        return st

    def _set_state(self, value: HandState | None) -> None:
        self._st = value
        self._rebuild = None

    @property
    def steps(self) -> list[Step]:
        """Step 0 (the deal) and one :class:`Step` per applied action (see :class:`Step`)."""
        steps = self._steps
        if steps is None:
            steps = []
            acts = self._actions
            if acts is None and self._model_actions is not None:
                acts = [to_engine_action(a) for a in self._model_actions]
                self._model_actions = None
            if acts is not None:
                found = self._found or {}
                steps.append(Step(0, None, None, [], None))
                steps += [Step(i + 1, i, a, found.get(i, []), None) for i, a in enumerate(acts)]
            self._steps = steps
            self._actions = self._found = None
        return steps

    @property
    def legal(self) -> bool:
        """No violation of severity ``error`` (warnings do not make a hand illegal)."""
        return not any(v.severity == "error" for v in self.violations)

    @property
    def verified(self) -> bool:
        """An engine replayed the hand to its end and scored it (never a hand recorded as
        facts: nothing of its play was replayed)."""
        return self.score is not None and self.complete and not self.facts_only

    @property
    def ruleset_id(self) -> str | None:
        """The id of the ruleset used, else the one asked for (no engine could resolve it)."""
        return self.ruleset.id if self.ruleset is not None else self.requested_ruleset

    def reasons(self) -> dict[tuple[str, int | None], str]:
        """The reason of each score line by ``(item, seat)`` (the first line of a key), as the
        reference words it: a score the native engine made has none on its lines, so the
        reference scores the hand for them (once, on call: only a finding quotes one)."""
        score = self.score
        if score is None:
            return {}
        if self._reference_score is not None and any(not it.reason for it in score.items):
            score = self._reference_score()
        out: dict[tuple[str, int | None], str] = {}
        for it in score.items:
            out.setdefault((it.item, it.seat), it.reason)
        return out

    def first_error(self) -> Violation | None:
        """The first violation of severity ``error`` (the viewer's "jump to first problem")."""
        return next((v for v in self.violations if v.severity == "error"), None)


# --------------------------------------------------------------------------- engine plumbing


def resolve_ruleset(
    engine: GameEngine,
    ruleset_id: str,
    options: Mapping[str, Any] | None = None,
    *,
    notes: list[str] | None = None,
) -> Ruleset:
    """The engine's ruleset ``ruleset_id`` (an id or alias) with the session's ``options``.

    Options the ruleset does not know are dropped and, if ``notes`` is given, reported there
    (a what-if under another ruleset must not fail because the session's options name a
    switch that ruleset lacks). Raises :class:`ReplayError` for an unknown ruleset.
    """
    opts = dict(options or {})
    try:
        base = engine.ruleset(ruleset_id)
    except (KeyError, ValueError, LookupError) as exc:
        known = ", ".join(sorted(engine.rulesets)) or "none"
        raise ReplayError(
            f"unknown ruleset {ruleset_id!r} for {engine.game} (known: {known})"
        ) from exc
    unknown = sorted(set(opts) - set(base.options))
    if unknown and notes is not None:
        notes.append(
            f"session option(s) {', '.join(unknown)} not known to ruleset {base.id}: ignored"
        )
    kept = {k: v for k, v in opts.items() if k in base.options}
    if not kept:
        return base
    try:
        return engine.ruleset(ruleset_id, kept)
    except (KeyError, ValueError, TypeError) as exc:
        raise ReplayError(f"bad options for ruleset {base.id}: {exc}") from exc


def session_setup(
    session: m.Session, ruleset: str | None, engine: GameEngine | None
) -> tuple[GameEngine, Ruleset, list[str]]:
    """The engine of ``session``'s game, its ruleset (``ruleset``, else the session's own)
    with the session's options, and the notes to say of it (options the ruleset does not
    know). Raises :class:`ReplayError` when there is no engine or the ruleset is unknown."""
    eng = engine if engine is not None else get_engine(session.game)
    if eng is None:
        raise ReplayError(f"no rules engine for {session.game} yet: not checked")
    notes: list[str] = []
    try:
        options = session_options(session)  # (a catalogue_path resolved in the log's folder)
    except ValueError as exc:
        raise ReplayError(f"bad options: {exc}") from exc
    rs = resolve_ruleset(eng, ruleset or session.ruleset, options, notes=notes)
    return eng, rs, notes


def _safe_view(state: HandState) -> dict[str, Any] | None:
    try:
        return state.view()
    except Exception as exc:  # noqa: BLE001 - a viewer snapshot must not sink the audit
        return {"error": f"{type(exc).__name__}: {exc}"}


def _carry(ss: SessionState) -> dict[str, Any]:
    try:
        return dict(ss.carry())
    except Exception:  # noqa: BLE001
        return {}


def recorded_carry(hand: m.Hand) -> dict[str, Any]:
    """What the log records about the state carried into ``hand`` (Slovenian radelci)."""
    return {"radelci": list(hand.radelci_before)} if hand.radelci_before is not None else {}


def restore_carry(session_state: SessionState, carry: Mapping[str, Any]) -> bool:
    """Set the carried state (e.g. ``{"radelci": [1, 0, 2, 0]}``) on an engine session with
    its :meth:`~tarock_logs.rules.base.SessionState.restore`. Returns False when the engine
    applied nothing (the recorded state is then not applied)."""
    return bool(session_state.restore(dict(carry)))


def start_session(session: m.Session, session_state: SessionState) -> list[str]:
    """Tell a fresh engine session what the log records before its first hand: the seated
    players' pairs and roles (Royal Tarock) and, for a session recorded from its middle
    (format 1.1 ``start``), the carried state (games played, open double-round windows,
    running totals). Returns notes for ``unverified`` (a start the engine could not apply)."""
    session_state.set_seats([SeatRole(p.pair, p.role) for p in session.players])
    start = session.start
    if start is None:
        return []
    carry = {
        k: v
        for k, v in (
            ("games", start.games),
            ("double_round_windows", start.double_round_windows),
            ("totals", start.totals),
        )
        if v is not None
    }
    # a game that carries none of these (Slovenian tarok: only the radelci, on the first
    # hand) has nothing to apply: the audit reads start.totals for the running totals
    carried = set(session_state.carry())
    if carried & {"games", "double_round_windows", "totals", "match_sum"} and carry:
        if not session_state.restore(carry):
            return ["the state the session starts from (start) could not be applied"]
    return []


def deal_info(hand: m.Hand) -> DealInfo | None:
    """How ``hand`` was dealt, as recorded (None: normally, nothing more recorded)."""
    d = hand.deal
    if d is None or (d.method == "normal" and d.cut_by is None and d.stacks is None):
        return None
    return DealInfo(d.method, d.cut_by, tuple(d.stacks) if d.stacks is not None else None)


def _not_applicable(out: HandReplay, i: int, action: Action, exc: Exception) -> Violation:
    v = Violation(
        code="replay.not_applicable",
        message=f"{action} could not be applied: {exc}; the replay stops here",
        rule="",
        seat=action.seat,
        card=action.card,
        action_index=i,
    )
    out.violations.append(v)
    out.unverified.append(f"replay stopped at action {i} ({action}): the engine could not apply it")
    return v


def _push_with_views(out: HandReplay, state: HandState, actions: Sequence[Any]) -> None:
    """Push every action, keeping a :class:`Step` with the engine's view after each."""
    steps = out._steps = [Step(0, None, None, [], _safe_view(state))]
    for i, model_action in enumerate(actions):
        action = to_engine_action(model_action)
        try:
            found = state.push(action)
        except Exception as exc:  # noqa: BLE001 - physically impossible: stop here
            steps.append(Step(i + 1, i, action, [_not_applicable(out, i, action, exc)], None))
            return
        found = [v.at(i) for v in found]
        out.violations.extend(found)
        out.actions_applied = i + 1
        steps.append(Step(i + 1, i, action, found, _safe_view(state)))


def _push_fast(out: HandReplay, state: HandState, actions: Sequence[Any]) -> None:
    """Push every action without views: the hot path of audits, the store and the bench.

    Records the engine actions and the (re-indexed) violations by action index only; the
    :attr:`HandReplay.steps` are built from them if someone asks.
    """
    push = state.push
    conv = to_engine_action
    acts: list[Action] = []
    add = acts.append
    found_at: dict[int, list[Violation]] = {}
    out._actions = acts
    out._found = found_at
    for i, model_action in enumerate(actions):
        action = conv(model_action)
        add(action)
        try:
            found = push(action)
        except Exception as exc:  # noqa: BLE001 - physically impossible: stop here
            found_at[i] = [_not_applicable(out, i, action, exc)]
            out.actions_applied = i
            return
        if found:
            found = found_at[i] = [v.at(i) for v in found]
            out.violations.extend(found)
    out.actions_applied = len(acts)


def _timeline_state(state: HandState, keys: Sequence[str]) -> dict[str, Any]:
    try:
        return state.timeline_state(keys)
    except Exception:  # noqa: BLE001 - a snapshot must not sink the audit
        return {}


def _push_timeline(
    out: HandReplay, state: HandState, actions: Sequence[Any], keys: Sequence[str]
) -> None:
    """:func:`_push_fast`, keeping the store's :class:`Timeline`: after each action the seat
    to move and the phase, the engine's ``keys`` where they change (read from its view after
    every action other than a card, and after the last), and at an illegal card the cards
    the rules allowed (the engine's legal plays for that seat before it)."""
    tl = out.timeline = Timeline(1)
    last = _timeline_state(state, keys)
    tl.states.extend((0, k, v) for k, v in last.items() if v is not None)
    tl.states.append((0, "to_move", state.to_move()))
    push, to_move, conv = state.push, state.to_move, to_engine_action
    acts: list[Action] = []
    add = acts.append
    found_at: dict[int, list[Violation]] = {}
    out._actions = acts
    out._found = found_at
    add_to_move, add_phase = tl.to_move.append, tl.phase.append
    end = len(actions) - 1
    for i, model_action in enumerate(actions):
        action = conv(model_action)
        add(action)
        try:
            found = push(action)
        except Exception as exc:  # noqa: BLE001 - physically impossible: stop here
            found_at[i] = [_not_applicable(out, i, action, exc)]
            out.actions_applied = i
            return
        if found:
            found = found_at[i] = [v.at(i) for v in found]
            out.violations.extend(found)
            if action.type == "play" and any(v.severity == "error" for v in found):
                tl.states.append((i + 1, "allowed", _allowed(state, action)))
        add_to_move(to_move())
        add_phase(str(state.phase))
        if action.type != "play" or i == end:
            now = _timeline_state(state, keys)
            tl.states.extend((i + 1, k, v) for k, v in now.items() if v != last.get(k))
            last = now
    out.actions_applied = len(acts)


def _allowed(state: HandState, action: Action) -> list[str]:
    """The cards ``action``'s seat could have played instead of it (just pushed): the engine's
    legal plays in the position before it; the action is pushed back."""
    try:
        state.pop()
        try:
            legal = state.legal_actions()
        finally:
            state.push(action)
    except Exception:  # noqa: BLE001 - only the page's marks need them
        return []
    return [a.card for a in legal if a.type == "play" and a.seat == action.seat and a.card]


def _replay_fast(
    out: HandReplay, session_state: SessionState, hand: m.Hand, *, native: bool = False
) -> bool:
    """The engine's optional bulk paths: with ``native``, first its native engine's whole hand
    and score (:meth:`~tarock_logs.rules.base.SessionState.native_replay`), then its bulk path
    (:meth:`~tarock_logs.rules.base.SessionState.fast_replay`). For a hand it proved legal and
    finished each gives a :class:`~tarock_logs.rules.base.FastReplay`, the result the reference
    path gives for such a hand (differential tests in tests/verdict/test_native_replay.py,
    tests/rules/slovenian/test_fastpath.py); when both decline (None), the replay is done by
    :func:`_replay_into`'s reference path."""
    deal = hand.deal
    if deal is None:
        return False
    res: FastReplay | None = None
    # (deal_info's answer for a deal dealt normally, without the call: a hand's hot path)
    info = None if deal.method == "normal" and deal.cut_by is None and deal.stacks is None else (
        deal_info(hand))  # fmt: skip
    dealer, hands, talon, actions = hand.dealer, deal.hands, deal.talon, hand.actions
    try:
        if native:
            res = session_state.native_replay(dealer, hands, talon, actions, to_engine_action, info)
        if res is None:
            res = session_state.fast_replay(dealer, hands, talon, actions, to_engine_action, info)
    except Exception:  # noqa: BLE001 - the reference path will say what is wrong
        return False
    if res is None:
        return False
    out._reference_score = res.reference_score
    score = res.score
    # hand-level findings the fast path passes on (warnings the reference reports too)
    if res.findings:
        out.violations.extend(res.findings)
    out.actions_applied = len(actions)
    out._tricks = res.tricks
    out._trick_rows = res.trick_rows
    out._model_actions = actions
    out._rebuild = res.rebuild
    out.complete = True
    out.score = score
    if score.unverified:
        out.unverified.extend(score.unverified)
    try:
        session_state.end_hand(res.state, score)
    except Exception as exc:  # noqa: BLE001
        out.unverified.append(f"the engine could not carry the hand into the session: {exc}")
    carry = score.carry_after
    out.carry_after = dict(carry) if carry else _carry(session_state)
    return True


def _stop_codes(out: HandReplay) -> frozenset[str]:
    """The engine's codes for "the log stops before the hand is over"."""
    eng = get_engine(out.game)
    return eng.stop_codes if eng is not None else frozenset()


def _score_facts(out: HandReplay, session_state: SessionState, hand: m.Hand) -> None:
    """Score a hand recorded as facts (:meth:`~tarock_logs.rules.base.SessionState.score_facts`)
    into ``out``: the score, and what facts cannot show (:data:`FACTS_NOT_CHECKED`)."""
    assert hand.facts is not None
    out.facts_only = True
    try:
        score = session_state.score_facts(
            hand.dealer,
            to_engine_facts(hand.facts),
            [to_engine_irregularity(i) for i in hand.irregularities],
        )
    except FactsNotScored as exc:
        out.unverified.append(f"the hand recorded as facts cannot be scored: {exc}")
        return
    except Exception as exc:  # noqa: BLE001 - the engine failed on these facts
        out.unverified.append(f"the engine could not score the hand's facts: {exc}")
        return
    out.complete = True
    out.score = score
    out.unverified.extend(FACTS_NOT_CHECKED)
    out.unverified.extend(score.unverified)
    out.carry_after = dict(score.carry_after) if score.carry_after else _carry(session_state)


def _score_counted(out: HandReplay, session_state: SessionState, hand: m.Hand) -> None:
    """Score a counted hand (format 1.2) from its piles
    (:meth:`~tarock_logs.rules.base.SessionState.score_counted`) into ``out``: the score,
    the findings of its recorded count, and what the piles cannot show. A game whose engine
    cannot count piles gets the finding :data:`COUNT_NOT_SUPPORTED` and its facts scored as
    recorded."""
    assert hand.facts is not None and hand.counted is not None
    out.facts_only = True
    try:
        counted = session_state.score_counted(
            hand.dealer,
            to_engine_facts(hand.facts),
            to_engine_counted(hand.counted),
            [to_engine_irregularity(i) for i in hand.irregularities],
        )
    except CountNotSupported as exc:
        out.violations.append(
            Violation(
                COUNT_NOT_SUPPORTED,
                f"{exc}: the hand is scored from its facts as recorded, its piles are not counted",
                "",
                severity="warning",
            )
        )
        _score_facts(out, session_state, hand)
        return
    except FactsNotScored as exc:
        out.unverified.append(f"the counted hand cannot be scored from its piles: {exc}")
        return
    except Exception as exc:  # noqa: BLE001 - the engine failed on these piles
        out.unverified.append(f"the engine could not count the hand's piles: {exc}")
        return
    score = counted.score
    out.complete = True
    out.score = score
    out.violations.extend(counted.findings)
    out.unverified.extend(score.unverified)
    out.carry_after = dict(score.carry_after) if score.carry_after else _carry(session_state)


def _replay_into(
    out: HandReplay,
    session_state: SessionState,
    hand: m.Hand,
    *,
    with_views: bool,
    trust_carry: bool = False,
    resync: Mapping[str, Any] | None = None,
    timeline: bool = False,
    native: bool = False,
) -> None:
    """Replay ``hand`` on ``session_state`` into ``out`` (which carries game and ruleset).

    The state the log records before the hand (``radelci_before``) is applied to the engine
    unless ``trust_carry`` (the engine itself carried it from a scored previous hand; the
    audit then compares the two). ``resync`` is the state to apply when the log records none
    before this hand (the radelci recorded after the previous hand, see
    :func:`replay_session`). ``timeline``: keep the store's :class:`Timeline` on ``out``.
    ``native``: a hand without views may be scored by the game's native engine (see
    :data:`NATIVE_SCORE`).
    """
    if timeline:
        out.timeline = Timeline(0)
    out.carry_expected = _carry(session_state)
    rec = recorded_carry(hand) if not trust_carry else None
    if not trust_carry and not rec and resync:
        rec = dict(resync)
    if rec:
        if restore_carry(session_state, rec):
            out.carry_source = "recorded"
        else:
            out.unverified.append("the recorded state before the hand could not be applied")
    # (nothing applied: the state the hand is played with is the one expected, one dict)
    out.carry_before = _carry(session_state) if rec else out.carry_expected
    if hand.counted is not None:
        _score_counted(out, session_state, hand)
        return
    if hand.facts is not None:
        _score_facts(out, session_state, hand)
        return
    fast = FAST_PATH and not with_views and not hand.irregularities
    if fast and _replay_fast(out, session_state, hand, native=native and NATIVE_SCORE):
        if timeline:
            out.timeline = Timeline(2)
        return
    deal = hand.deal
    assert deal is not None  # (a hand has its deal or its facts: the model checks it)
    try:
        state = session_state.new_hand(
            hand.dealer,
            [list(h) for h in deal.hands],
            list(deal.talon),
            [to_engine_irregularity(i) for i in hand.irregularities],
            deal_info(hand),
        )
    except Exception as exc:  # noqa: BLE001 - the engine refused the deal
        out.unverified.append(f"the engine refused the deal: {exc}")
        return
    out._set_state(state)
    if with_views:
        _push_with_views(out, state, hand.actions)
    elif timeline:
        eng = get_engine(out.game)
        _push_timeline(out, state, hand.actions, eng.timeline_keys if eng is not None else ())
    else:
        _push_fast(out, state, hand.actions)
    if out.actions_applied < len(hand.actions):
        return  # the engine could not apply an action: the replay stopped there
    # Hand-level findings (deal checks, unclaimed renons)
    try:
        found = state.hand_findings()
    except Exception as exc:  # noqa: BLE001
        found = []
        out.unverified.append(f"the engine's hand-level checks failed: {exc}")
    if hand.extent == "partial":  # recorded in part on purpose: stopping early is no violation
        stops = _stop_codes(out)  # (what is not known then is said below, in unverified)
        found = [v for v in found if v.code not in stops]
    out.violations.extend(found)
    if not state.is_over():
        n = len(hand.actions)
        out.unverified.append(
            f"the hand stops before its end (phase {state.phase}, after {n} action"
            f"{'' if n == 1 else 's'}): the legality of the actions recorded was checked; the "
            "rest of the hand, its card points and its score are not known, so not checked"
        )
        return
    out.complete = True
    try:
        score = state.score()
    except Exception as exc:  # noqa: BLE001 - the engine declined to score this hand
        out.unverified.append(f"the engine declined to score the hand: {exc}")
        return
    out.score = score
    out.unverified.extend(score.unverified)
    try:
        session_state.end_hand(state, score)
    except Exception as exc:  # noqa: BLE001
        out.unverified.append(f"the engine could not carry the hand into the session: {exc}")
    out.carry_after = dict(score.carry_after) if score.carry_after else _carry(session_state)


def replay_hand(
    session: m.Session,
    hand: m.Hand | int,
    *,
    ruleset: str | None = None,
    session_state: SessionState | None = None,
    engine: GameEngine | None = None,
    with_views: bool = True,
    trust_carry: bool | None = None,
) -> HandReplay:
    """Replay one hand of ``session`` (a :class:`~tarock_logs.log.models.Hand` or its 0-based
    index).

    ``ruleset`` re-scores under another ruleset (what-if; id or alias); by default the
    session's own ruleset with the session's options. ``session_state`` is the state carried
    in from the previous hands (radelci); without it the hand is replayed from a fresh session
    state, so use :func:`replay_session` (or :func:`replay_in_session`) when the carry matters.
    The log's ``radelci_before`` is applied to the engine unless ``trust_carry``; by default
    the carry is trusted when a ``session_state`` is passed for a hand after the first.
    ``engine`` overrides the registry (tests, experiments). Never raises for a bad log:
    problems land in ``unverified`` and ``violations``.
    """
    if isinstance(hand, int):
        idx = hand
        hand = session.hands[idx]
    else:
        idx = next((i for i, h in enumerate(session.hands) if h is hand), -1)
        if idx < 0:
            idx = next((i for i, h in enumerate(session.hands) if h == hand), -1)
    try:
        eng, rs, notes = session_setup(session, ruleset, engine)
    except ReplayError as exc:
        return HandReplay(
            session.game,
            idx,
            hand.number,
            None,
            unverified=[str(exc)],
            requested_ruleset=ruleset or session.ruleset,
        )
    out = HandReplay(session.game, idx, hand.number, rs, unverified=list(notes))
    trust = (idx > 0) if trust_carry is None else trust_carry
    if trust_carry is None and session_state is None:
        trust = False
    if session_state is None:
        try:
            session_state = eng.new_session(rs, len(session.players))
        except Exception as exc:  # noqa: BLE001
            out.unverified.append(f"the engine cannot set up this table: {exc}")
            return out
        # a fresh session: the seats, and (for the first hand) where the session starts
        first = session.start is not None and idx == 0
        out.unverified += start_session(session if first else _no_start(session), session_state)
    _replay_into(out, session_state, hand, with_views=with_views, trust_carry=trust)
    return out


def replay_in_session(
    session: m.Session,
    index: int,
    ruleset: str | None = None,
    *,
    engine: GameEngine | None = None,
) -> HandReplay:
    """Hand ``index`` (0-based) replayed with views after the session's earlier hands
    (replayed without views), so that the carried state is what :func:`replay_session` gives."""
    partial = session.model_copy(update={"hands": session.hands[: index + 1]})
    eng = engine if engine is not None else get_engine(session.game)
    replays = replay_session(partial, ruleset, engine=eng, with_views=False, views_for=index)
    return replays[index]


def replay_session(
    session: m.Session,
    ruleset: str | None = None,
    *,
    engine: GameEngine | None = None,
    with_views: bool = False,
    views_for: int | None = None,
    timeline: bool = False,
    native: bool = False,
) -> list[HandReplay]:
    """Replay every hand of ``session`` in order, carrying the session state (radelci).

    Returns one :class:`HandReplay` per hand, in the session's order. With no engine for the
    game (or an unknown ruleset) every hand comes back unverified with the reason.
    ``with_views`` keeps per-step snapshots for every hand, ``views_for`` for that hand only;
    ``timeline`` keeps each hand's :class:`Timeline` for the store (without views).
    ``native`` lets the game's native engine play and score the hands it takes whole (the
    bulk audit's replay: its score lines carry no reason, :meth:`HandReplay.reasons` gives
    them; the card points come on request; not with ``timeline``: the store keeps the
    reference's).

    The engine carries its own state from a scored hand to the next, except after a hand
    whose recorded ``radelci_after`` differ from the engine's: the audit reports that
    difference there, and the next hand starts from the radelci as recorded (its
    ``radelci_before``, else the previous hand's ``radelci_after``), so that one mistake on a
    score sheet is reported once, where it was made, and not again on every later hand.
    """
    try:
        eng, rs, notes = session_setup(session, ruleset, engine)
        ss = eng.new_session(rs, len(session.players))
    except ReplayError as exc:
        return [
            HandReplay(
                session.game,
                i,
                h.number,
                None,
                unverified=[str(exc)],
                requested_ruleset=ruleset or session.ruleset,
            )
            for i, h in enumerate(session.hands)
        ]
    except Exception as exc:  # noqa: BLE001 - new_session refused the table
        msg = f"the engine cannot set up this table: {exc}"
        return [
            HandReplay(
                session.game,
                i,
                h.number,
                None,
                unverified=[msg],
                requested_ruleset=ruleset or session.ruleset,
            )
            for i, h in enumerate(session.hands)
        ]
    notes = notes + start_session(session, ss)
    out: list[HandReplay] = []
    for i, hand in enumerate(session.hands):
        # (positional: ``unverified`` is the seventh field; keywords cost more per hand)
        r = HandReplay(session.game, i, hand.number, rs, [], None, list(notes))
        resync = _recorded_after(session.hands[i - 1], out[-1]) if i > 0 else None
        trust = i > 0 and out[-1].score is not None and resync is None
        views = with_views or views_for == i
        _replay_into(
            r, ss, hand, with_views=views, trust_carry=trust, resync=resync, timeline=timeline,
            native=native and not timeline,
        )  # fmt: skip
        out.append(r)
    return out


def replay_carried(
    session: m.Session,
    session_state: SessionState,
    hand: m.Hand,
    index: int,
    ruleset: Ruleset,
    *,
    timeline: bool = False,
) -> HandReplay:
    """Hand ``index`` of ``session`` replayed on ``session_state``, which carries the state
    the engine reached after the hands before it (all scored, their recorded state agreeing:
    :func:`carries_on`), as :func:`replay_session` replays it there (views: none; ``timeline``
    as there). The ingest lane audits a hand its native engine declines so, the native engine
    having played the hands before it."""
    out = HandReplay(session.game, index, hand.number, ruleset)
    _replay_into(out, session_state, hand, with_views=False, trust_carry=index > 0,
                 timeline=timeline)  # fmt: skip
    return out


def carries_on(hand: m.Hand, replay: HandReplay) -> bool:
    """Whether :func:`replay_session` plays the hand after ``hand`` on the state the engine
    carried from it (``replay`` scored it, and the radelci recorded after it, if any, are the
    engine's)."""
    return replay.score is not None and _recorded_after(hand, replay) is None


def _no_start(session: m.Session) -> m.Session:
    """``session`` without its ``start`` (a hand after the first replayed on its own starts from
    a fresh session: the recorded start is not its carry)."""
    return session.model_copy(update={"start": None}) if session.start is not None else session


def _recorded_after(prev: m.Hand, replay: HandReplay) -> dict[str, Any] | None:
    """The radelci recorded after ``prev`` when they differ from the engine's (None when they
    agree, or when either side has none)."""
    rec = prev.result.radelci_after if prev.result is not None else None
    if rec is None or replay.score is None:
        return None
    mine = replay.carry_after.get("radelci")
    if mine is None or mine == rec or [int(x) for x in mine] == list(rec):
        return None
    return {"radelci": list(rec)}


def legal_alternatives(replay: HandReplay, step: int) -> list[Action]:
    """The engine's legal actions in the position of ``step`` (what could be done next).

    Step ``k`` is the position after ``k`` actions, so ``legal_alternatives(r, k)`` are the
    alternatives to action ``k`` (shown at step ``k + 1``). Empty when the replay has no
    engine state or never reached that position. The replay itself is not modified.

    Every step's alternatives are found together on first use and kept on the replay (a
    viewer steps through the hand: one copy of the engine state, taken back to the deal and
    played forward again, instead of a copy per step).
    """
    if step < 0 or step > replay.actions_applied or replay.state is None:
        return []
    memo = replay._alternatives
    if memo is None:
        memo = _all_alternatives(replay)
    return list(memo.get(step, ()))


def _all_alternatives(replay: HandReplay) -> dict[int, list[Action]]:
    """``{step: legal actions}`` of every position of the replay (see
    :func:`legal_alternatives`), kept on ``replay``. A position that cannot be reached or
    whose actions cannot be listed has none."""
    with replay._lock:
        if replay._alternatives is not None:
            return replay._alternatives
        original = replay.state
        memo: dict[int, list[Action]] = {}
        if original is not None:
            try:
                state = original.copy()
            except Exception:  # noqa: BLE001 - not copyable: back and forth on the original
                state = original
            n = replay.actions_applied
            undone: list[Action] = []  # the actions taken back, last first
            try:
                for _ in range(n):
                    undone.append(state.pop())
            except Exception:  # noqa: BLE001 - could not go further back
                pass
            k = n - len(undone)  # the position reached
            while True:
                try:
                    memo[k] = list(state.legal_actions())
                except Exception:  # noqa: BLE001
                    memo[k] = []
                if not undone:
                    break
                try:
                    state.push(undone.pop())
                except Exception:  # noqa: BLE001 - the positions after it stay unknown
                    break
                k += 1
        replay._alternatives = memo
        return memo
