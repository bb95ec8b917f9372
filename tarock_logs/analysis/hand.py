"""Per-card analysis of recorded hands ("all cards visible").

For every card played in the analysed tricks of a hand (the last ``last_tricks``, and every
illegal card wherever it fell), :func:`analyse_hand` values every legal
card of the player to move with all four hands visible (:mod:`tarock_logs.analysis.search`),
and reports the value of the card played, of the best card(s), the points lost and whether
the card changed the outcome (contract made or lost, a bonus won or lost: the engine scores
the principal line after the played card and after the best card, and the two are compared).

Values are for the **declarer side** (klop: for the player to move himself) in points of the
score sheet (:mod:`tarock_logs.analysis.objective`); the loss is oriented for the player who
played (≥ 0 for a legal card). A card that loses with all cards visible may have been the right
card on what the player knew: the analysis knows every hand, the player did not.

An illegal card (a held card the rules forbade) is valued too: its value is that of the
position it left (best play afterwards), compared with the legal cards, which answers the
referee's question "did the illegal card change the result".
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.analysis.games import GameAnalysis, analysis_for
from tarock_logs.analysis.native import (
    BUDGET_NATIVE,
    Backend,
    NativeSolver,
    Solver,
    default_budget,
    make_solver,
)
from tarock_logs.analysis.outcome import LineResult, changes
from tarock_logs.analysis.position import Unsupported
from tarock_logs.log import models as m
from tarock_logs.rules import game_title
from tarock_logs.rules.base import Action, HandState
from tarock_logs.verdict.replay import HandReplay, replay_in_session, replay_session

__all__ = ["LABEL", "CardAnalysis", "HandAnalysis", "analyse_hand", "analyse_replay",
           "iter_analyses"]  # fmt: skip

#: the words every output carries
LABEL = "all cards visible"


@dataclass(frozen=True, slots=True)
class CardAnalysis:
    """One card played, valued with all cards visible (see the module docstring)."""

    action_index: int
    trick: int
    tricks_left: int
    seat: int
    #: ``declarer side``, ``defender`` or ``klop`` (the values are the mover's own)
    role: str
    card: str
    legal: bool
    #: every legal card and its value (declarer side; klop: the mover)
    values: tuple[tuple[str, int], ...]
    #: the value after the card played (best play afterwards)
    value: int
    best_value: int
    best_cards: tuple[str, ...]
    #: points the card cost the mover's side against the best legal card (negative: it gained,
    #: possible only for an illegal card)
    loss: int
    changed: tuple[str, ...] = ()
    best_line: LineResult | None = None
    played_line: LineResult | None = None
    #: the engine's score of both lines equals the solver's values
    consistent: bool = True

    @property
    def best(self) -> bool:
        return self.card in self.best_cards

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "action_index": self.action_index, "trick": self.trick,
            "tricks_left": self.tricks_left, "seat": self.seat, "role": self.role,
            "card": self.card, "legal": self.legal, "value": self.value,
            "best_value": self.best_value, "best_cards": list(self.best_cards),
            "loss": self.loss, "changed": list(self.changed),
            "values": dict(self.values),
        }  # fmt: skip
        if self.best_line is not None:
            out["best_line"] = list(self.best_line.cards)
            out["best_outcome"] = self.best_line.facts()
        if self.played_line is not None:
            out["played_line"] = list(self.played_line.cards)
            out["played_outcome"] = self.played_line.facts()
        out["consistent"] = self.consistent
        return out


@dataclass(slots=True)
class HandAnalysis:
    """The analysis of one recorded hand: its cards (:class:`CardAnalysis`), or why none."""

    session: str
    hand_number: int
    hand_id: str | None
    contract: str | None = None
    declarer: int | None = None
    cards: list[CardAnalysis] = field(default_factory=list)
    skipped: str | None = None
    backend: str = ""
    seconds: float = 0.0
    nodes: int = 0
    last_tricks: int = 8
    #: cards not valued because the search budget ran out: (action index, card)
    undecided: list[tuple[int, str]] = field(default_factory=list)
    #: cards all the hand's searches together may play (0: no limit): the cards are valued
    #: last first, and those the budget does not reach are ``undecided``
    hand_budget: int = 0
    #: the hand budget left cards undecided
    hand_budget_hit: bool = False
    #: score items the engine could not value in this hand (unknown to the rules): left out
    #: of every value, never guessed
    unknown: tuple[str, ...] = ()

    @property
    def illegal(self) -> list[CardAnalysis]:
        return [c for c in self.cards if not c.legal]

    def illegal_verdicts(self) -> list[dict[str, Any]]:
        """For each illegal card: did it change the result (all cards visible). ``gain`` is
        what the card gave the offender's side against his best legal card; ``verdict`` says
        it in a sentence."""
        out = []
        for c in self.illegal:
            gain = -c.loss
            changed = gain != 0 or bool(c.changed)
            best = ", ".join(c.best_cards)
            if changed:
                what = ", ".join(c.changed) if c.changed else "the score"
                words = (f"yes: {c.card} gave the offender's side {gain:+d} points against the "
                         f"best legal card ({best}); it changed {what}")  # fmt: skip
            else:
                words = f"no: {c.card} leaves {c.value}, as the best legal card ({best}) does"
            out.append({
                "action_index": c.action_index, "trick": c.trick, "seat": c.seat,
                "card": c.card, "value": c.value, "best_legal_value": c.best_value,
                "best_legal_cards": list(c.best_cards), "gain": gain,
                "changed_result": changed, "changed": list(c.changed), "verdict": words,
            })  # fmt: skip
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "label": LABEL, "session": self.session, "hand": self.hand_number,
            "hand_id": self.hand_id, "contract": self.contract, "declarer": self.declarer,
            "last_tricks": self.last_tricks, "backend": self.backend,
            "seconds": round(self.seconds, 3), "nodes": self.nodes, "skipped": self.skipped,
            "undecided": [{"action_index": i, "card": c} for i, c in self.undecided],
            "hand_budget": self.hand_budget, "hand_budget_hit": self.hand_budget_hit,
            "unknown": list(self.unknown), "cards": [c.to_dict() for c in self.cards],
        }  # fmt: skip


#: the default budget of one hand's analysis at ingest (``tarock ingest --analyse``: cards all
#: the hand's searches may play together; the cards are valued last first) with the native
#: solver: several seconds of one core
HAND_BUDGET_NATIVE = 40_000_000
#: the same for the pure-Python solver (about as many seconds)
HAND_BUDGET_PYTHON = 400_000


def default_hand_budget(game: str | None = None) -> int:
    """:data:`HAND_BUDGET_NATIVE`, or :data:`HAND_BUDGET_PYTHON` where ``game`` (or the
    install) has no native solver (:func:`~tarock_logs.analysis.native.default_budget`)."""
    return HAND_BUDGET_NATIVE if default_budget(game=game) == BUDGET_NATIVE else HAND_BUDGET_PYTHON


def _is_legal(h: HandState, card: str) -> bool:
    return any(a.card == card for a in h.legal_actions())


def _tt_bits(tricks: int) -> int:
    """Transposition-table size (log2 entries) for a search of ``tricks`` tricks."""
    return 16 if tricks <= 6 else 18 if tricks <= 8 else 20 if tricks <= 10 else 22


def no_native_solver(game: str) -> str:
    """Why ``--backend native`` cannot analyse a game's hands."""
    return (f"{game_title(game)} has no native solver (the C solver plays Slovenian tarok); "
            "--backend python or auto analyses it with the pure-Python solver")  # fmt: skip


def not_analysed(game: str) -> str:
    """Why a game's hands are not analysed (it has no analysis plug-in)."""
    return (f"the analysis covers the card play of the games with an analysis plug-in; "
            f"{game_title(game)} has none (docs/analysis.md)")  # fmt: skip


def analyse_replay(
    replay: HandReplay, session_id: str, hand: m.Hand, *, last_tricks: int = 8,
    backend: Backend = "auto", lines: bool = True, budget: int = 0, hand_budget: int = 0,
) -> HandAnalysis:  # fmt: skip
    """Analyse the card play of a replayed hand (a reference replay, with its engine state).
    ``budget``: cards one search may play (0: no limit); a card whose search runs out is listed
    in ``undecided`` instead. ``hand_budget``: cards all the hand's searches may play together
    (0: no limit); the cards are valued last first, each search within what is left of it, and
    the (earlier) cards it does not reach are ``undecided`` (``hand_budget_hit``)."""
    out = HandAnalysis(session_id, hand.number, hand.id, last_tricks=last_tricks,
                       hand_budget=hand_budget)  # fmt: skip
    state = replay.state
    g = analysis_for(replay.game)
    if g is None:
        out.skipped = not_analysed(replay.game)
        return out
    if state is None:
        out.skipped = "the hand was not replayed: there is no card play to analyse"
        return out
    out.contract, out.declarer = g.contract(state), g.declarer(state)
    if backend == "native" and not g.native:
        out.skipped = no_native_solver(replay.game)
        return out
    out.unknown = g.unknown(state)
    started = time.perf_counter()
    actions = [s.action for s in replay.steps[1:]]
    solvers: dict[int, Solver] = {}
    # a copy of the replay's engine state, stepped back to the deal and forward again; the
    # cards to analyse are found on the way forward and analysed on the way back, the last
    # first: a hand's solver keeps its table, so the endgames the later cards solved are there
    # when the searches of the earlier cards reach them
    h = state.copy()
    for _ in range(replay.actions_applied):
        h.pop()
    pushed: list[int] = []
    targets: list[tuple[int, str, int, bool]] = []  # (action index, card, tricks left, legal)
    for i, a in enumerate(actions):
        if a is None:
            continue
        if a.type == "play" and g.in_play(h) and a.seat == h.to_move() and a.card:
            left = g.tricks_total(h) - g.tricks_done(h)
            if g.holds(h, a.seat, a.card):
                legal = _is_legal(h, a.card)
                if left <= last_tricks or not legal:
                    targets.append((i, a.card, left, legal))
        h.push(a)
        pushed.append(i)
    bits = _tt_bits(max((t[2] for t in targets), default=0))
    for i, card, _, legal in reversed(targets):
        while pushed and pushed[-1] >= i:
            h.pop()
            pushed.pop()
        limit = budget
        if hand_budget and legal:  # (an illegal card is always analysed: the referee's question)
            left = hand_budget - sum(s.nodes for s in solvers.values())
            if left <= 0:
                out.undecided.append((i, card))
                out.hand_budget_hit = True
                continue
            if not budget or left < budget:
                limit = left
        try:
            ca = _analyse_card(g, h, i, card, solvers, backend, lines, out, limit, bits)
        except Unsupported as exc:
            # as a forward pass would: the hand is analysed up to its first such position
            out.skipped = str(exc)
            out.cards = [c for c in out.cards if c.action_index < i]
            out.undecided = [u for u in out.undecided if u[0] < i]
            ca = None
        except TimeoutError:
            out.undecided.append((i, card))
            out.hand_budget_hit = out.hand_budget_hit or limit != budget
            ca = None
        if ca is not None:
            out.cards.append(ca)
    out.cards.sort(key=lambda c: c.action_index)
    out.undecided.sort()
    out.seconds = time.perf_counter() - started
    out.nodes = sum(s.nodes for s in solvers.values())
    if not out.backend:
        out.backend = "none"
    return out


def _analyse_card(
    g: GameAnalysis, h: HandState, index: int, card: str, solvers: dict[int, Solver],
    backend: Backend, lines: bool, out: HandAnalysis, budget: int = 0, bits: int = 0,
) -> CardAnalysis | None:  # fmt: skip
    seat = h.to_move()
    assert seat is not None
    alone = g.alone(h)
    persp = _active(h).index(seat) if alone else None
    pos, setting = g.read_position(h, persp)
    key = persp if persp is not None else -1
    solver = solvers.get(key)
    left = g.tricks_total(h) - g.tricks_done(h)
    if solver is None:
        solver = solvers[key] = make_solver(setting, backend, bits or _tt_bits(left), budget)
        out.backend = "native" if isinstance(solver, NativeSolver) else "python"
    solver.budget = budget
    vals = solver.values(pos)
    if not vals:
        return None
    ids = g.cards(h)
    maximiser = setting.objective.maxside[pos.to_move]
    best = max(vals.values()) if maximiser else min(vals.values())
    best_ids = sorted(c for c, v in vals.items() if v == best)
    cid = ids.index(card)
    persp_seat = seat if alone else None
    legal = cid in vals
    if legal:
        played = vals[cid]
    else:
        played = _value_after(g, h, card, solver, persp_seat, persp)
    loss = (best - played) if maximiser else (played - best)
    best_line = played_line = None
    consistent = True
    changed: tuple[str, ...] = ()
    if lines:
        best_line = g.play_line(h, solver.line(pos, best_ids[0]), persp_seat)
        if legal:
            played_line = g.play_line(h, solver.line(pos, cid), persp_seat)
        else:
            played_line = _line_after_illegal(g, h, card, solver, persp_seat, persp)
        consistent = best_line.value == best and (played_line is None
                                                  or played_line.value == played)  # fmt: skip
        if played_line is not None:
            changed = tuple(changes(best_line, played_line))
    role = "klop" if alone else "declarer side" if g.maximiser(h, seat) else "defender"
    return CardAnalysis(
        action_index=index, trick=g.tricks_done(h) + 1, tricks_left=left,
        seat=seat, role=role, card=card, legal=legal,
        values=tuple((ids[c], v) for c, v in sorted(vals.items())), value=played,
        best_value=best, best_cards=tuple(ids[c] for c in best_ids), loss=loss,
        changed=changed, best_line=best_line, played_line=played_line, consistent=consistent,
    )  # fmt: skip


def _active(h: HandState) -> list[int]:
    """The seats in playing order (Slovenian tarok's ``active``; every seat elsewhere)."""
    active: list[int] | None = getattr(h, "active", None)
    return list(active) if active is not None else list(range(h.table_size))


def _value_after(g: GameAnalysis, h: HandState, card: str, solver: Solver,
                 persp_seat: int | None, persp: int | None) -> int:  # fmt: skip
    """The value of the position an (illegal) card leaves, best play afterwards."""
    seat = h.to_move()
    assert seat is not None
    h.push(Action("play", seat, card=card))
    try:
        if h.is_over():
            return g.score_value(h, h.score(), persp_seat)
        pos, _ = g.read_position(h, persp)
        return solver.value(pos)
    finally:
        h.pop()


def _line_after_illegal(g: GameAnalysis, h: HandState, card: str, solver: Solver,
                        persp_seat: int | None, persp: int | None) -> LineResult:  # fmt: skip
    seat = h.to_move()
    assert seat is not None
    h.push(Action("play", seat, card=card))
    try:
        rest: list[int] = []
        if not h.is_over():
            pos, _ = g.read_position(h, persp)
            rest = solver.line(pos)
        res = g.play_line(h, rest, persp_seat)
    finally:
        h.pop()
    return LineResult((card, *res.cards), res.value, res.made, res.items, res.klop)


def analyse_hand(
    session: m.Session, index: int, *, last_tricks: int = 8, backend: Backend = "auto",
    lines: bool = True, budget: int = 0, hand_budget: int = 0,
) -> HandAnalysis:  # fmt: skip
    """Analyse hand ``index`` (0-based) of ``session``, replayed after the earlier hands."""
    hand = session.hands[index]
    if analysis_for(session.game) is None:
        return HandAnalysis(session.id, hand.number, hand.id, last_tricks=last_tricks,
                            skipped=not_analysed(session.game))  # fmt: skip
    replay = replay_in_session(session, index)
    return analyse_replay(replay, session.id, hand, last_tricks=last_tricks, backend=backend,
                          lines=lines, budget=budget, hand_budget=hand_budget)  # fmt: skip


def iter_analyses(
    session: m.Session, *, hands: set[int] | None = None, last_tricks: int = 8,
    backend: Backend = "auto", lines: bool = True, budget: int = 0, hand_budget: int = 0,
) -> Iterator[HandAnalysis]:  # fmt: skip
    """Analyse the hands of ``session`` (those numbered in ``hands``, or all), in order; the
    session is replayed once (the radelci carried from hand to hand)."""
    if analysis_for(session.game) is None:
        for i, hand in enumerate(session.hands):
            if hands is None or hand.number in hands:
                yield analyse_hand(session, i, last_tricks=last_tricks)
        return
    replays = replay_session(session)
    for hand, replay in zip(session.hands, replays, strict=True):
        if hands is not None and hand.number not in hands:
            continue
        yield analyse_replay(replay, session.id, hand, last_tricks=last_tricks,
                             backend=backend, lines=lines, budget=budget,
                             hand_budget=hand_budget)  # fmt: skip
