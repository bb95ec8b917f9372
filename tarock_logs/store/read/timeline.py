"""The replayer's steps read from the store: a hand's positions without replaying it.

The ingest keeps what the replay page shows of each step (schema version 9,
``migrations/0009_step_timeline.sql``): the record (the deal, the actions with their details),
the rows the audit derived (the completed tricks with their winners and points, the findings
at their action, the radelci carried in) and what only the engine knew (per action the seat
to move and the phase after it; the hand's contract, declarer, partner and the game's own
keys where they change; the cards the rules allowed at an illegal card). :func:`hand_timeline`
puts them together into one :class:`TimelineStep` per position, whose ``view`` has the keys
of :meth:`tarock_logs.rules.base.HandState.view` the page reads: ``phase``, ``to_move``,
``hands``, ``trick``, ``tricks`` (leader, cards, winner, points, points_unit), ``talon``,
``talon_groups``, ``talon_taken``, ``discards``, ``contract``, ``declarer``, ``partner``, the
engine's :attr:`~tarock_logs.rules.base.GameEngine.timeline_keys` and ``allowed`` (at an
illegal card).

Nothing here decides a rule: trick winners and points are the stored rows, the seat to move
and the phase are the engine's as stored (for a clean hand, ``hands.timeline = 2``, the next
action's seat and, by the engine's ``action_phases``, the next action's phase), the talon's
groups the engine's :meth:`~tarock_logs.rules.base.GameEngine.talon_groups` (its rule table).
Cards move as the record says: a talon pick adds its group to the declarer's hand, a discard
and a card played leave it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import duckdb
import orjson

from tarock_logs.cards import sort_cards
from tarock_logs.log import models as m
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Action, SeatRole, Severity, Violation
from tarock_logs.store.read.queries import by_hand, fetch, frame
from tarock_logs.store.read.rebuild import action_from_row
from tarock_logs.verdict.convert import to_engine_action

__all__ = ["HandTimeline", "TimelineStep", "hand_timeline", "timeline_from_record"]

#: ``hands.timeline``: the reference replay's own record; a clean record (implied)
EXACT, CLEAN = 1, 2
#: the phase of a finished hand (``HandState.is_over``)
DONE = "done"


@dataclass(slots=True)
class TimelineStep:
    """One position: step 0 is the deal, step ``k`` the position after action ``k - 1``
    (the fields of :class:`tarock_logs.verdict.replay.Step`). ``violations`` are the stored
    findings of the action (as :class:`~tarock_logs.rules.base.Violation`: code, severity,
    message, rule, seat, card), ``findings`` the same rows as stored."""

    index: int
    action_index: int | None
    action: Action | None
    violations: list[Violation]
    view: dict[str, Any]
    findings: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class HandTimeline:
    """A hand's stored steps, and the radelci carried into and out of it by seat (None when
    the hand records none)."""

    kind: int
    steps: list[TimelineStep]
    actions: list[Any]  # the log's actions (models)
    radelci_before: list[int] | None
    radelci_after: list[int] | None


def _json(v: Any) -> Any:
    return orjson.loads(v) if isinstance(v, str) else v


def hand_timeline(
    cur: duckdb.DuckDBPyConnection, hand_id: str, hand_key: int | None = None
) -> HandTimeline | None:
    """The stored steps of ``hand_id`` (None for an unknown hand, or a hand stored before the
    store kept timelines: ``hands.timeline`` is NULL; ``hand_key``: the hand's key when known,
    :func:`tarock_logs.store.read.queries.by_hand`)."""
    cond, params = by_hand(hand_id, hand_key)
    try:
        head = fetch(
            cur,
            """SELECT hand_key, CAST(game AS VARCHAR), dealer, deal, contract,
                      CAST(declarer AS INTEGER), CAST(partner AS INTEGER), timeline, session_id
               FROM hands WHERE """
            + cond
            + " LIMIT 1",
            params,
        )
    except duckdb.BinderException:  # a store of schema version 8 or older, not migrated
        return None
    if not head or head[0][7] is None:
        return None
    key, game, dealer, deal_json, contract, declarer, partner, kind, session_id = head[0]
    seats = [
        SeatRole(pair, role)
        for pair, role in fetch(
            cur,
            "SELECT pair, role FROM session_players WHERE session_id = ? ORDER BY seat",
            [session_id],
        )
    ]
    acts = frame(
        cur,
        """SELECT r.idx, r.seat, CAST(r.type AS VARCHAR) AS type, r.card, d.cards, d.shown,
                  d.contract, d.talon_group, d.bonus, d.side, d.target, d.level, d.claim,
                  d.meld, d.raises, d.params, d.note, r.to_move, r.phase
           FROM action_rows r
           LEFT JOIN action_details d ON d.hand_key = r.hand_key AND d.idx = r.idx
           WHERE r.hand_key = ? ORDER BY r.idx""",
        [key],
    ).to_dicts()
    tricks = fetch(
        cur,
        "SELECT leader, winner, seats, cards, points FROM tricks WHERE hand_key = ? "
        "ORDER BY trick_no",
        [key],
    )
    states = fetch(
        cur, "SELECT step, key, value FROM step_states WHERE hand_key = ? ORDER BY step", [key]
    )
    found = frame(
        cur,
        """SELECT action_index, code, severity, message, rule, card, seats
           FROM findings WHERE hand_key = ? AND action_index IS NOT NULL
           ORDER BY action_index, severity, code""",
        [key],
    ).to_dicts()
    radelci = fetch(
        cur,
        "SELECT seat, radelci_before, radelci_after FROM hand_scores WHERE hand_key = ? "
        "ORDER BY seat",
        [key],
    )
    return _assemble(
        game, int(kind), int(dealer), deal_json, (contract, declarer, partner), seats, acts,
        tricks, states, found, radelci,
    )  # fmt: skip


#: the columns of a finding a step keeps (:attr:`TimelineStep.findings`)
_STEP_FINDING_KEYS = ("action_index", "code", "severity", "message", "rule", "card", "seats")


def timeline_from_record(
    rec: dict[str, Any], seating: Sequence[dict[str, Any]]
) -> HandTimeline | None:
    """The stored steps of a hand read by :func:`tarock_logs.store.read.queries.hand_record`
    (one query) with its session's ``seating`` (``pair``, ``role`` by seat, of
    :func:`~tarock_logs.store.read.queries.session_record`): what :func:`hand_timeline` reads
    in its eight. None for a hand stored before the store kept timelines."""
    if rec.get("timeline") is None:
        return None
    tricks = [
        (t["leader"], t["winner"], t["seats"], t["cards"], t["points"]) for t in rec["tricks"]
    ]
    states = [(s["step"], s["key"], s["value"]) for s in rec["states"]]
    # (in the order the record keeps them: by action, severity and code)
    found = [
        {k: f[k] for k in _STEP_FINDING_KEYS}
        for f in rec["findings"]
        if f.get("action_index") is not None
    ]
    radelci = [(t["seat"], t["radelci_before"], t["radelci_after"]) for t in rec["totals"]]
    return _assemble(
        str(rec["game"]),
        int(rec["timeline"]),
        int(rec["dealer"]),
        rec["deal"],
        (rec["contract"], rec["declarer"], rec["partner"]),
        [SeatRole(p["pair"], p["role"]) for p in seating],
        rec["actions"],
        tricks,
        states,
        found,
        radelci,
    )


def _assemble(
    game: str,
    kind: int,
    dealer: int,
    deal_json: Any,
    final: tuple[str | None, int | None, int | None],
    seats: list[SeatRole],
    acts: list[dict[str, Any]],
    tricks: Sequence[Sequence[Any]],
    state_rows: Sequence[Sequence[Any]],
    found_rows: Sequence[dict[str, Any]],
    radelci: Sequence[Sequence[Any]],
) -> HandTimeline:
    """A hand's timeline from its rows, however they were read."""
    states: dict[int, list[tuple[str, Any]]] = {}
    for step, k, v in state_rows:
        states.setdefault(int(step), []).append((str(k), _json(v)))
    found: dict[int, list[dict[str, Any]]] = {}
    for row in found_rows:
        found.setdefault(int(row["action_index"]), []).append(row)
    before = [int(r[1]) for r in radelci] if radelci and radelci[0][1] is not None else None
    after = [int(r[2]) for r in radelci] if radelci and radelci[0][2] is not None else None
    models = [m.ActionAdapter.validate_python(action_from_row(a)) for a in acts]
    steps = build_steps(
        game,
        kind,
        _json(deal_json) or {},
        acts,
        [to_engine_action(a) for a in models],
        tricks,
        states,
        found,
        final=final,
        dealer=dealer,
        seats=seats,
    )
    return HandTimeline(kind, steps, models, before, after)


_SEVERITY: dict[str, Severity] = {"error": "error", "warning": "warning", "info": "info"}


def _violation(row: dict[str, Any]) -> Violation:
    seats = row.get("seats") or []
    return Violation(
        code=str(row["code"]),
        message=str(row.get("message") or ""),
        rule=str(row.get("rule") or ""),
        severity=_SEVERITY.get(str(row.get("severity")), "error"),
        seat=int(seats[0]) if seats else None,
        card=row.get("card"),
        action_index=int(row["action_index"]),
    )


def build_steps(
    game: str,
    kind: int,
    deal: dict[str, Any],
    rows: Sequence[dict[str, Any]],
    actions: Sequence[Action],
    tricks: Sequence[Sequence[Any]],
    states: dict[int, list[tuple[str, Any]]],
    found: dict[int, list[dict[str, Any]]],
    *,
    final: tuple[str | None, int | None, int | None],
    dealer: int = 0,
    seats: Sequence[SeatRole] = (),
) -> list[TimelineStep]:
    """The steps of one hand from its rows (see the module docstring): ``rows`` the actions'
    stored columns (``to_move``, ``phase`` among them), ``actions`` the same as engine
    actions, ``tricks`` the stored tricks ``(leader, winner, seats, cards, points)`` in order,
    ``states`` the stored ``step_states`` by step, ``found`` the stored findings by action
    index, ``final`` the hand's contract, declarer and partner as stored, ``dealer`` and
    ``seats`` (the recorded pairs and roles) what a clean hand's states are said from
    (:meth:`~tarock_logs.rules.base.GameEngine.clean_states`)."""
    engine = get_engine(game)
    if engine is None or not deal.get("hands"):
        return []
    n = len(actions)
    unit = engine.trick_points_unit
    phases = [str(p) for p in engine.action_phases(actions)]
    held = [list(h) for h in deal.get("hands") or []]
    talon = list(deal.get("talon") or [])
    keys: dict[str, Any] = dict.fromkeys(("contract", "declarer", "partner"))
    keys.update(dict.fromkeys(engine.timeline_keys))
    first = str(engine.first_phase)
    # a clean record: its states said by the engine from the record; nobody to move and the
    # hand over after its last card
    last_play = max((i for i, a in enumerate(actions) if a.type == "play"), default=n)
    if kind == CLEAN:
        states = {}
        hands = deal.get("hands") or []
        for step, k, v in engine.clean_states(actions, hands, dealer, seats, final):
            states.setdefault(step, []).append((k, v))
    clean_phase = first
    done: list[dict[str, Any]] = []
    current: list[list[Any]] = []
    discards: list[str] = []
    taken: list[str] = []
    group: int | None = None
    trick_i = 0
    allowed: list[str] = []

    def snapshot(step: int, to_move: int | None, phase: str) -> dict[str, Any]:
        groups = engine.talon_groups(keys.get("contract"), talon) if keys.get("contract") else []
        v: dict[str, Any] = {
            "phase": phase,
            "to_move": to_move,
            "hands": [sort_cards(h, game) for h in held],
            "trick": [list(x) for x in current],
            "tricks": list(done),
            "talon": list(talon),
            "talon_groups": groups,
            "talon_taken": list(taken),
            "talon_group": group,
            "discards": list(discards),
        }
        v.update(keys)
        if allowed:
            v["allowed"] = list(allowed)
        return v

    def apply_states(step: int) -> None:
        nonlocal allowed, clean_phase
        allowed = []
        for k, value in states.get(step, ()):
            if k == "allowed":
                allowed = list(value or [])
            elif k == "phase":
                clean_phase = str(value)
            elif k != "to_move":
                keys[k] = value

    steps: list[TimelineStep] = []
    apply_states(0)
    first_move = next((v for k, v in states.get(0, ()) if k == "to_move"), None)
    if kind == CLEAN:
        first_move = actions[0].seat if actions else None
    steps.append(TimelineStep(0, None, None, [], snapshot(0, first_move, engine.first_phase)))
    for i, (row, a) in enumerate(zip(rows, actions, strict=True)):
        t = a.type
        if t == "play" and a.card is not None:
            if 0 <= a.seat < len(held) and a.card in held[a.seat]:
                held[a.seat].remove(a.card)
            current.append([a.seat, a.card])
            if trick_i < len(tricks) and len(current) >= len(tricks[trick_i][2] or ()):
                leader, winner, _seats, _cards, points = tricks[trick_i]
                done.append(
                    {
                        "leader": int(leader) if leader is not None else current[0][0],
                        "cards": [list(x) for x in current],
                        "winner": int(winner) if winner is not None else None,
                        "points": points,
                        **({"points_unit": unit} if unit else {}),
                    }
                )
                current = []
                trick_i += 1
        elif t == "talon" and a.group is not None:
            group = int(a.group)
            groups = engine.talon_groups(final[0], talon)
            taken = list(groups[group]) if 0 <= group < len(groups) else []
            if 0 <= a.seat < len(held):
                held[a.seat].extend(taken)
        elif t == "discard":
            for c in a.cards:
                if 0 <= a.seat < len(held) and c in held[a.seat]:
                    held[a.seat].remove(c)
            discards.extend(a.cards)
        stated = clean_phase
        apply_states(i + 1)
        to_move = row.get("to_move")
        if kind != CLEAN:
            phase = row.get("phase") or (phases[i + 1] if i + 1 < n else DONE)
        elif i >= last_play or i + 1 >= n:
            phase, to_move = DONE, None
        else:  # the next action's phase; once past the first phase, never back in it
            nxt = phases[i + 1]
            if clean_phase != stated:  # the engine said it at this step
                phase = clean_phase
            elif nxt == first and clean_phase != first:
                phase = clean_phase
            else:
                phase = clean_phase = nxt
        v = found.get(i, [])
        steps.append(
            TimelineStep(
                i + 1,
                i,
                a,
                [_violation(r) for r in v],
                snapshot(i + 1, int(to_move) if to_move is not None else None, phase),
                v,
            )
        )
    return steps
