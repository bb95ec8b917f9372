"""Before the first trick: the par of the talon exchange, with all cards visible.

For a hand whose declarer exchanged cards with the talon (the game plug-in's hook:
:meth:`~tarock_logs.analysis.games.GameAnalysis.talon_groups` and
:meth:`~tarock_logs.analysis.games.GameAnalysis.discard_classes`; a game without an exchange
has no par), :func:`analyse_par` values

* each **discard** the declarer could have made after the group he took: the value of the whole
  hand from its first card (best play by everybody, all cards visible) with the recorded
  announcements and kontras; equivalent discards (:class:`DiscardClass`) are valued once and
  listed together;
* each **talon group** he could have taken: the best of its discards' values.

Values are for the declarer side (the solver's objective), in points of the score sheet.
Every whole-hand search goes through the solver (:func:`~tarock_logs.analysis.native.make_solver`)
under a budget of cards played per search (``budget``) and for the whole hand (``hand_budget``);
a search the budget stops leaves its discard **undecided**, and a group with some discards
undecided gets the bound its decided discards give (``≥ L`` where the declarer side
maximises), never a guessed number. The recorded discard is valued first, then the other
discards of the recorded group, then the other groups'.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.analysis.games import DiscardClass, GameAnalysis, TalonGroup, analysis_for
from tarock_logs.analysis.hand import (
    HAND_BUDGET_PYTHON,
    LABEL,
    not_analysed,
)
from tarock_logs.analysis.native import (
    BUDGET_NATIVE,
    Backend,
    NativeSolver,
    Solver,
    default_budget,
    make_solver,
)
from tarock_logs.analysis.position import Position, Setting, Unsupported
from tarock_logs.log import models as m
from tarock_logs.rules.base import Action, HandState
from tarock_logs.verdict.replay import HandReplay, replay_session

__all__ = ["PAR_NOTE", "Choice", "HandPar", "ParOption", "ParValue", "analyse_par",
           "default_par_budget", "iter_pars"]  # fmt: skip

#: what every par output says the values are
PAR_NOTE = (
    "a discard's value is the whole hand's value from its first card with the recorded "
    "announcements and kontras (best play by everybody, all cards visible); a talon group's "
    "value is the best over the declarer's legal discards after it; an option no better than "
    "the best is settled by one null-window test and given as a bound (high: the declarer "
    "side maximises), not valued exactly (exact: every option valued)"
)


@dataclass(frozen=True, slots=True)
class ParValue:
    """A value, or the bounds a budget left (``low``/``high``; None: none), or undecided."""

    value: int | None = None
    low: int | None = None
    high: int | None = None

    @property
    def decided(self) -> bool:
        return self.value is not None

    def text(self) -> str:
        if self.value is not None:
            return str(self.value)
        if self.low is not None and self.high is not None:
            return f"{self.low}…{self.high}"
        if self.low is not None:
            return f"≥ {self.low}"
        if self.high is not None:
            return f"≤ {self.high}"
        return "undecided"

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high,
                "decided": self.decided}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ParOption:
    """One talon group or one discard class the declarer could have chosen."""

    #: ``group``, ``discard`` or ``contract``
    kind: str
    #: the talon group (of a discard: the group it follows; of a contract: the best decided
    #: line's, -1 without a talon)
    group: int
    #: the group's cards, or the discard's representative cards (a contract: its best decided
    #: line's discard)
    cards: tuple[str, ...]
    value: ParValue
    #: the declarer chose it (a discard: the recorded discard is one of ``equivalent``)
    recorded: bool = False
    #: a discard: every discard of its class (valued once), the representative first
    equivalent: tuple[tuple[str, ...], ...] = ()
    #: a group: its legal discard classes and how many of them were decided
    discards: int = 0
    decided: int = 0
    #: cards the searches of this option played
    nodes: int = 0
    #: a contract: its code and the king of its best decided line
    contract: str | None = None
    king: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "group": self.group, "cards": list(self.cards),
                               **self.value.to_dict(), "recorded": self.recorded,
                               "nodes": self.nodes}  # fmt: skip
        if self.kind == "discard":
            out["equivalent"] = [list(e) for e in self.equivalent]
        elif self.kind == "contract":
            out.update(contract=self.contract, king=self.king, lines=self.discards,
                       lines_decided=self.decided)  # fmt: skip
        else:
            out["discards"] = self.discards
            out["discards_decided"] = self.decided
        return out


@dataclass(slots=True)
class HandPar:
    """The par of one hand's talon exchange (see the module docstring), or why none."""

    session: str
    hand_number: int
    hand_id: str | None
    contract: str | None = None
    declarer: int | None = None
    groups: list[ParOption] = field(default_factory=list)
    #: the discards after the recorded group
    discards: list[ParOption] = field(default_factory=list)
    skipped: str | None = None
    backend: str = ""
    #: cards one search may play; cards all the hand's par searches may play (0: no limit)
    budget: int = 0
    hand_budget: int = 0
    #: a budget left a discard undecided
    budget_hit: bool = False
    nodes: int = 0
    seconds: float = 0.0
    #: the recorded discard is not among the legal ones (the engine refused it): valued apart
    recorded_illegal: bool = False
    #: each contract the declarer could have declared (his final declaration), valued by its
    #: best king, group and discard with nothing announced; the budget it had and whether it bit
    contracts: list[ParOption] = field(default_factory=list)
    contracts_skipped: str | None = None
    contracts_budget_hit: bool = False
    #: every option valued exactly (no null-window tests)
    exact: bool = False

    @property
    def recorded_value(self) -> ParValue | None:
        """The value of the recorded discard (the hand's first card position)."""
        for d in self.discards:
            if d.recorded:
                return d.value
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": LABEL, "note": PAR_NOTE, "session": self.session,
            "hand": self.hand_number, "hand_id": self.hand_id, "contract": self.contract,
            "declarer": self.declarer, "skipped": self.skipped, "backend": self.backend,
            "budget": self.budget, "hand_budget": self.hand_budget,
            "budget_hit": self.budget_hit, "nodes": self.nodes, "exact": self.exact,
            "seconds": round(self.seconds, 3), "recorded_illegal": self.recorded_illegal,
            "groups": [g.to_dict() for g in self.groups],
            "discards": [d.to_dict() for d in self.discards],
            "contracts": [c.to_dict() for c in self.contracts],
            "contracts_skipped": self.contracts_skipped,
            "contracts_budget_hit": self.contracts_budget_hit,
        }  # fmt: skip


#: the default budgets of the par with the native solver: cards one whole-hand search may play
#: (about 5 s of one core; the first-card value of a Slovenian hand took 10 M to over 60 M
#: cards on ``sample_logs/disputed``) and all of one hand's par searches together (about 20 s)
PAR_BUDGET_NATIVE = 40_000_000
PAR_HAND_BUDGET_NATIVE = 120_000_000


def default_par_budget(game: str | None = None) -> tuple[int, int]:
    """(cards one par search may play, cards all of a hand's par searches may play):
    :data:`PAR_BUDGET_NATIVE` and :data:`PAR_HAND_BUDGET_NATIVE` with the native solver, the
    card analysis's pure-Python budgets without it (a search and a hand at ingest,
    :func:`~tarock_logs.analysis.native.default_budget`)."""
    if default_budget(game=game) == BUDGET_NATIVE:
        return PAR_BUDGET_NATIVE, PAR_HAND_BUDGET_NATIVE
    return default_budget(game=game), HAND_BUDGET_PYTHON


@dataclass(slots=True)
class _Run:
    """The searches of one hand's par: its solver (kept while the setting stays the same, so
    the discards of equal card points share its table) and what is left of the hand budget."""

    g: GameAnalysis
    backend: Backend
    budget: int
    hand_budget: int
    nodes: int = 0
    hit: bool = False
    used: str = ""
    solvers: dict[Setting, Solver] = field(default_factory=dict)

    def _solver(self, h: HandState) -> tuple[Solver, Position, int] | None:
        """The solver for the position ``h`` with its budget set (None: the hand budget is
        spent), the position and the solver's cards played so far."""
        pos, setting = self.g.read_position(h)
        limit = self.budget
        if self.hand_budget:
            left = self.hand_budget - self.nodes
            if left <= 0:
                self.hit = True
                return None
            if not limit or left < limit:
                limit = left
        s = self.solvers.get(setting)
        if s is None:
            self.solvers.clear()  # one table (128 MB native) at a time
            s = self.solvers[setting] = make_solver(setting, self.backend, 22, limit)
            self.used = "native" if isinstance(s, NativeSolver) else "python"
        s.budget = limit
        return s, pos, s.nodes

    def _search(
        self, h: HandState, call: Callable[[Solver, Position], int]
    ) -> tuple[int | None, int]:
        """``call`` on the solver of the position ``h`` under the budgets: its result (None
        when a budget stopped it) and the cards played."""
        got = self._solver(h)
        if got is None:
            return None, 0
        s, pos, before = got
        try:
            v: int | None = call(s, pos)
        except TimeoutError:
            v = None
            self.hit = True
        spent = s.nodes - before
        self.nodes += spent
        return v, spent

    def value(self, h: HandState) -> tuple[int | None, int]:
        """The value of the card-play position ``h`` (its first card), and the cards played."""
        return self._search(h, lambda s, pos: s.value(pos))

    def test(self, h: HandState, t: int) -> tuple[int | None, int]:
        """The null-window test "is the value of ``h`` at least ``t``": the solver's fail-soft
        bound (≥ ``t``: the value is at least it; below: at most it), None when the budget
        stopped it; and the cards played."""
        return self._search(h, lambda s, pos: s.search(pos, t - 1, t))


@dataclass(slots=True)
class Choice:
    """The best value so far among the options of one choice (the discards of a group, the
    lines of a contract) for the side that chooses (``maximise``: the declarer side's value
    up), and whether every option so far is **settled**: valued, or proven no better than the
    best by one null-window test (a bound, ``≤ best`` where the side maximises), which costs
    a fraction of an exact value. ``exact``: every option valued exactly (no tests)."""

    maximise: bool
    exact: bool = False
    best: int | None = None
    #: the least the best may be (a better option whose exact value the budget stopped)
    floor: int | None = None
    settled: int = 0
    options: int = 0

    def _better(self, v: int) -> bool:
        return self.best is None or (v > self.best if self.maximise else v < self.best)

    def take(self, v: int | None) -> ParValue:
        """An exact value found (or None: undecided) for the next option."""
        self.options += 1
        if v is None:
            return ParValue()
        self.settled += 1
        if self._better(v):
            self.best = v
        return ParValue(v)

    def settle(self, run: _Run, h: HandState) -> tuple[ParValue, int]:
        """Settle the option whose card play starts at ``h``: its exact value when it is the
        first or better than the best so far, else the bound that shows it is not."""
        if self.best is None or self.exact:
            v, spent = run.value(h)
            return self.take(v), spent
        t = self.best + 1 if self.maximise else self.best
        g, spent = run.test(h, t)
        if g is None:
            self.options += 1
            return ParValue(), spent
        if (g < t) if self.maximise else (g >= t):  # no better than the best
            self.options += 1
            self.settled += 1
            return (ParValue(high=g) if self.maximise else ParValue(low=g)), spent
        v, more = run.value(h)
        if v is None:  # better, by at least g, but its value is not known
            self.options += 1
            if self.floor is None or self._beyond(g, self.floor):
                self.floor = g
            return (ParValue(low=g) if self.maximise else ParValue(high=g)), spent + more
        return self.take(v), spent + more

    def _beyond(self, a: int, b: int) -> bool:
        return a > b if self.maximise else a < b

    def value(self) -> ParValue:
        """The choice's value: the best when every option is settled, else the bound the best
        and the unsettled better ones give (the side maximising: at least it), or undecided."""
        bound = self.best
        if self.floor is not None and (bound is None or self._beyond(self.floor, bound)):
            bound = self.floor
        if bound is None:
            return ParValue()
        if self.settled == self.options and bound == self.best:
            return ParValue(bound)
        return ParValue(low=bound) if self.maximise else ParValue(high=bound)


def _play_out(h: HandState, actions: Sequence[Action]) -> int:
    """Push ``actions`` (violations are the engine's business); the number pushed."""
    for a in actions:
        h.push(a)
    return len(actions)


def _undo(h: HandState, n: int) -> None:
    for _ in range(n):
        h.pop()


def _value_discard(
    run: _Run, best: Choice, h: HandState, actions: Sequence[Action], tail: Sequence[Action],
    *, exact: bool = False,
) -> tuple[ParValue, int]:  # fmt: skip
    """Lay ``actions`` away and push the recorded ``tail`` (announcements, kontras) on ``h``
    (the group taken); settle that discard among the group's (``best``; ``exact``: its exact
    value whatever it is); undone afterwards."""
    n = _play_out(h, [*actions, *tail])
    try:
        if not run.g.in_play(h):
            raise Unsupported("the recorded announcements do not lead to the card play")
        if exact:
            v, spent = run.value(h)
            return best.take(v), spent
        return best.settle(run, h)
    finally:
        _undo(h, n)


def _order(classes: list[DiscardClass]) -> list[DiscardClass]:
    """The order the discards are searched in (after the recorded one): the most card points
    laid away first (usually the better discards, so a budget leaves the closer bound; equal
    points in a row share the solver's table)."""
    from tarock_logs.cards import CARDS

    return sorted(classes, key=lambda dc: -sum(CARDS[c].points for c in dc.cards))


def analyse_par(
    replay: HandReplay, session_id: str, hand: m.Hand, *, backend: Backend = "auto",
    budget: int | None = None, hand_budget: int | None = None, contracts: bool = True,
    exact: bool = False,
) -> HandPar:  # fmt: skip
    """The par of the talon exchange of a replayed hand (see the module docstring).
    ``budget``/``hand_budget``: as :func:`default_par_budget` when None (0: no limit); the
    contracts' par (``contracts``) has a hand budget of its own. ``exact``: every discard and
    line valued exactly; by default one null-window test settles an option no better than
    the best so far (its value then reads ``≤ bound``), which costs a fraction of a value."""
    out = HandPar(session_id, hand.number, hand.id, exact=exact)
    g = analysis_for(replay.game)
    if g is None:
        out.skipped = not_analysed(replay.game)
        return out
    b, hb = default_par_budget(replay.game)
    out.budget = b if budget is None else budget
    out.hand_budget = hb if hand_budget is None else hand_budget
    state = replay.state
    if not g.has_exchange:
        out.skipped = "the game has no talon exchange: there is no par before the first trick"
        return out
    if state is None:
        out.skipped = "the hand was not replayed: there is no talon exchange to value"
        return out
    out.contract, out.declarer = g.contract(state), g.declarer(state)
    started = time.perf_counter()
    try:
        _par(g, state, replay, out, backend, exact)
    except Unsupported as exc:
        out.skipped = str(exc)
        out.groups, out.discards = [], []
    if contracts:
        try:
            _contracts(g, state, replay, out, backend, exact)
        except Unsupported as exc:
            out.contracts_skipped = str(exc)
            out.contracts = []
    out.seconds = time.perf_counter() - started
    return out


def _par(g: GameAnalysis, state: HandState, replay: HandReplay, out: HandPar,
         backend: Backend, exact: bool = False) -> None:  # fmt: skip
    actions = [s.action for s in replay.steps[1:]][: replay.actions_applied]
    h = state.copy()
    for _ in range(replay.actions_applied):
        h.pop()
    # walk forward to the group choice; then the recorded group, discards and the rest up to
    # the first card
    i = 0
    while i < len(actions) and not g.at_exchange(h):
        a = actions[i]
        if a is not None:
            h.push(a)
        i += 1
    if i >= len(actions) or not g.at_exchange(h):
        raise Unsupported("the hand has no talon exchange: there is no par before the first "
                          "trick")  # fmt: skip
    groups = g.talon_groups(h)
    group_action = actions[i]
    assert group_action is not None
    recorded_group = group_action.group
    j = i + 1
    h.push(group_action)
    discard_recorded: list[Action] = []
    while j < len(actions) and g.discarding(h):
        a = actions[j]
        if a is not None:
            h.push(a)
            discard_recorded.append(a)
        j += 1
    tail: list[Action] = []
    for a in actions[j:]:
        if a is None:
            continue
        if a.type == "play" and g.in_play(h):
            break
        h.push(a)
        tail.append(a)
    if not g.in_play(h):
        raise Unsupported("the hand has no card play after its talon exchange")
    _undo(h, len(tail) + len(discard_recorded))  # back to the group just taken
    run = _Run(g, backend, out.budget, out.hand_budget)
    declarer = g.declarer(h)
    maximise = declarer is None or g.maximiser(h, declarer)
    recorded_cards = tuple(sorted(c for a in discard_recorded for c in a.cards))
    classes = g.discard_classes(h)
    mine = [dc for dc in classes
            if any(tuple(sorted(e)) == recorded_cards for e in dc.equivalent)]  # fmt: skip
    if not mine:  # the engine refused the recorded discard: valued apart, as played
        out.recorded_illegal = True
        v0, spent0 = _value_discard(run, Choice(maximise), h, discard_recorded, tail, exact=True)
        out.discards.append(ParOption("discard", recorded_group or 0, recorded_cards, v0, True,
                                      (recorded_cards,), nodes=spent0))  # fmt: skip
    best = Choice(maximise, exact)
    for dc in [*mine, *_order([c for c in classes if c not in mine])]:
        v, spent = _value_discard(run, best, h, dc.actions, tail, exact=dc in mine)
        out.discards.append(ParOption("discard", recorded_group or 0, dc.cards, v,
                                      dc in mine, dc.equivalent, nodes=spent))  # fmt: skip
    _undo(h, 1)  # the recorded group
    per_group: dict[int, ParOption] = {}
    for tg in groups:
        if tg.index == recorded_group:
            nodes = sum(d.nodes for d in out.discards)
            per_group[tg.index] = ParOption(
                "group", tg.index, tg.cards, best.value(), True, discards=best.options,
                decided=best.settled, nodes=nodes,
            )  # fmt: skip
    for tg in groups:
        if tg.index != recorded_group:
            per_group[tg.index] = _other_group(run, h, tg, tail, maximise, exact)
    out.groups = [per_group[tg.index] for tg in groups]
    out.discards.sort(key=lambda d: (not d.recorded, d.cards))
    out.backend = run.used or "none"
    out.nodes = run.nodes
    out.budget_hit = run.hit


def _other_group(run: _Run, h: HandState, tg: TalonGroup, tail: Sequence[Action],
                 maximise: bool, exact: bool) -> ParOption:  # fmt: skip
    h.push(tg.action)
    best = Choice(maximise, exact)
    nodes = 0
    try:
        for dc in _order(run.g.discard_classes(h)):
            _v, spent = _value_discard(run, best, h, dc.actions, tail)
            nodes += spent
    finally:
        h.pop()
    return ParOption("group", tg.index, tg.cards, best.value(), False, discards=best.options,
                     decided=best.settled, nodes=nodes)  # fmt: skip


def _contracts(g: GameAnalysis, state: HandState, replay: HandReplay, out: HandPar,
               backend: Backend, exact: bool = False) -> None:  # fmt: skip
    """Each contract the declarer could have declared: the best over its lines (king, group,
    discard; nothing announced) of the value from the first card. The lines are searched in
    turns, the first line of every contract first, so that a budget leaves each contract a
    bound rather than some contracts nothing."""
    actions = [s.action for s in replay.steps[1:]][: replay.actions_applied]
    h = state.copy()
    for _ in range(replay.actions_applied):
        h.pop()
    for a in actions:
        if g.at_final_declaration(h) or a is None:
            break
        h.push(a)
    if not g.at_final_declaration(h):
        raise Unsupported("the log has no final declaration of the contract: no contract par")
    per = g.contract_lines(h)
    if not per:
        raise Unsupported("the declarer had no contract to choose")
    run = _Run(g, backend, out.budget, out.hand_budget)
    declarer = h.to_move()
    maximise = True
    if declarer is not None:
        h.push(per[0][0].actions[0])
        maximise = g.maximiser(h, declarer)
        h.pop()
    bests = [Choice(maximise, exact) for _ in per]
    best_line: list[int | None] = [None] * len(per)
    nodes = [0] * len(per)
    for r in range(max(len(lines) for lines in per)):
        for ci, lines in enumerate(per):
            if r >= len(lines):
                continue
            _play_out(h, lines[r].actions)
            try:
                if not g.in_play(h):
                    bests[ci].take(None)
                    continue
                before = bests[ci].best
                _v, spent = bests[ci].settle(run, h)
                if bests[ci].best != before:  # a better line, valued exactly
                    best_line[ci] = r
            finally:
                _undo(h, len(lines[r].actions))
            nodes[ci] += spent
    for ci, lines in enumerate(per):
        king = grp = None
        cards: tuple[str, ...] = ()
        line = best_line[ci]
        if line is not None:
            for a in lines[line].actions:
                if a.type == "call":
                    king = a.card
                elif a.type == "talon":
                    grp = a.group
                elif a.type == "discard":
                    cards += a.cards
        out.contracts.append(ParOption(
            "contract", -1 if grp is None else grp, cards, bests[ci].value(),
            lines[0].contract == out.contract, discards=bests[ci].options,
            decided=bests[ci].settled, nodes=nodes[ci], contract=lines[0].contract, king=king,
        ))  # fmt: skip
    out.contracts_budget_hit = run.hit
    out.nodes += run.nodes


def iter_pars(
    session: m.Session, *, hands: set[int] | None = None, backend: Backend = "auto",
    budget: int | None = None, hand_budget: int | None = None, contracts: bool = True,
    exact: bool = False,
) -> list[HandPar]:  # fmt: skip
    """The par of the hands of ``session`` (those numbered in ``hands``, or all)."""
    out = []
    if analysis_for(session.game) is None:
        return [HandPar(session.id, h.number, h.id, skipped=not_analysed(session.game))
                for h in session.hands if hands is None or h.number in hands]  # fmt: skip
    for hand, replay in zip(session.hands, replay_session(session), strict=True):
        if hands is not None and hand.number not in hands:
            continue
        out.append(analyse_par(replay, session.id, hand, backend=backend, budget=budget,
                               hand_budget=hand_budget, contracts=contracts,
                               exact=exact))  # fmt: skip
    return out
