"""The audit: recorded scores against the rules engine's recomputation.

For every hand the audit replays the actions (:mod:`tarock_logs.verdict.replay`), collects the
violations with the rule each one breaks, recomputes the score and compares it with what the
scorer wrote, **item by item** where the log itemises (``contract``, ``difference``, ``trula``,
``radelc``, ``mondfang`` ... one line per item and seat), and per seat always. The result is a
:class:`HandAudit`, the record the ``tarock audit`` command prints, the store writes and the
dashboard shows (its JSON keys are fixed by docs/architecture.md, "The audit record").

Sessions add the totals (recorded vs recomputed) and placement points; tournaments (sessions
sharing ``event.tournament``: round scores, placement points per round and the final ranking)
are :mod:`tarock_logs.verdict.tournament`. Everything is game-agnostic: the engine is found with
:func:`tarock_logs.rules.get_engine`, and a game without one yields hands marked
``unverified`` with the reason.

Comparison rules (documented here because referees rely on them):

* An item with ``seat`` null is written by every member of the declarer's side; before
  comparing, such lines (recorded or recomputed) are expanded to one line per member, using
  the declarer and partner the engine derived. Lines with the same ``(item, seat)`` are summed.
* A line present on one side only is a discrepancy (the other value is null), unless its value
  is 0 (a written zero changes nothing). A recorded item name the engine never produces is
  not a discrepancy but ``unverified`` (the engine cannot check it).
* Per-seat totals are compared always (item ``total``), radelci after the hand where the log
  records them (item ``radelci_after``).
* A score sheet's running totals (``result.totals_after``, format 1.1) are checked as the
  sheet's own arithmetic: the running total under a hand must be the one under the previous
  hand (0 before hand 1) plus the hand's recorded score (item ``running_total``). A wrong hand
  score therefore shows once, on its own row, and a wrong addition once, where it was made.

``hand_id`` is a content hash: the sha256 (hex) of the canonical JSON (keys sorted, no
whitespace, UTF-8, as ``orjson.dumps(doc, option=OPT_SORT_KEYS)`` writes it) of
``{"game", "ruleset", "players": [player ids in seat order], "hand": <the hand's JSON
without default-valued fields>}``, so the same hand gets the same id in
whichever session or file it is found, and any change to its facts changes the id.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from tarock_logs.log import models as m
from tarock_logs.log.options import session_options
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import GameEngine, HandScore, Ruleset, Violation
from tarock_logs.verdict.findings import (
    Finding,
    HandPeople,
    PlayerRef,
    Verification,
    score_finding,
    session_finding,
    violation_finding,
    worst_state,
)
from tarock_logs.verdict.replay import HandReplay, ReplayError, replay_session, resolve_ruleset

__all__ = [
    "Discrepancy",
    "HandAudit",
    "ScoreSheet",
    "SessionAudit",
    "audit_hand",
    "audit_session",
    "compare_scores",
    "hand_content_hash",
    "running_total_discrepancies",
    "same_lines",
    "violation_dict",
]


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """One difference between the recorded and the recomputed score.

    ``item`` is a score item name (``contract``, ``trula`` ...), or ``total`` (a seat's hand
    total), ``radelci_after``, ``radelci_before`` (the log's state before the hand against
    the one the engine carried from the previous hands), ``session_total``,
    ``session_total_sum`` (the recorded session total against the total of the recorded
    hands) or ``placement_points``. A value is None when
    that side has no such line.
    """

    item: str
    seat: int | None
    recorded: int | float | None
    recomputed: int | float | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "item": self.item,
            "seat": self.seat,
            "recorded": self.recorded,
            "recomputed": self.recomputed,
        }


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """One side of the comparison: per-seat totals, itemised lines, radelci after the hand."""

    totals: list[int]
    items: list[tuple[str, int | None, int]]  # (item, seat, value)
    radelci_after: list[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "totals": list(self.totals),
            "items": [{"item": i, "seat": s, "value": v} for i, s, v in self.items],
            "radelci_after": list(self.radelci_after) if self.radelci_after is not None else None,
        }

    @classmethod
    def from_result(cls, result: m.HandResult) -> ScoreSheet:
        return cls(
            list(result.scores),
            [(it.item, it.seat, it.value) for it in result.items],
            list(result.radelci_after) if result.radelci_after is not None else None,
        )

    @classmethod
    def from_score(cls, score: HandScore) -> ScoreSheet:
        rad = score.carry_after.get("radelci") if score.carry_after else None
        return cls(
            list(score.totals),
            [(it.item, it.seat, it.value) for it in score.items],
            [int(x) for x in rad] if rad is not None else None,
        )


def violation_dict(v: Violation) -> dict[str, Any]:
    """A violation in the audit record's JSON shape."""
    return {
        "action_index": v.action_index,
        "seat": v.seat,
        "code": v.code,
        "message": v.message,
        "rule": v.rule,
        "severity": v.severity,
        "card": v.card,
    }


@dataclass(slots=True)
class HandAudit:
    """The audit record of one hand (JSON keys: docs/architecture.md, "The audit record").

    ``legal`` means no violation of severity ``error`` was found; a hand nobody could check
    (see ``unverified``) is not reported illegal. ``replay`` keeps the replay behind the record
    for the dossier and the viewer; it is not part of the JSON.
    """

    file: str | None
    session: str
    hand: int
    hand_id: str
    game: str
    ruleset: str | None
    legal: bool
    violations: list[Violation]
    recorded: ScoreSheet | None
    recomputed: ScoreSheet | None
    discrepancies: list[Discrepancy]
    unverified: list[str]
    contract: str | None = None
    declarer: int | None = None
    partner: int | None = None
    won: bool | None = None
    #: seats whose recomputed total counts only the items the engine could value
    incomplete_seats: list[int] = field(default_factory=list)
    #: every violation and score difference as a finding in the players' words
    findings: list[Finding] = field(default_factory=list)
    #: how many of the hand's actions the engine judged (0: none, e.g. no engine, or a hand
    #: recorded as facts)
    actions_checked: int = 0
    #: the engine could not apply one of the recorded actions (the replay stopped there)
    stopped: bool = False
    replay: HandReplay | None = field(default=None, repr=False, compare=False)

    @property
    def has_findings(self) -> bool:
        """An error-severity violation or a score discrepancy."""
        return (not self.legal) or bool(self.discrepancies)

    @property
    def verification(self) -> Verification:
        """``verified`` (every recorded item recomputed and compared), ``partial`` (scored,
        but something is listed in ``unverified``; or not scored, but the engine judged the
        actions recorded: a hand entered only up to a disputed trick) or ``unverified``
        (nothing checked)."""
        if self.recomputed is None:
            return "partial" if self.actions_checked and not self.stopped else "unverified"
        return "partial" if self.unverified else "verified"

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "session": self.session,
            "hand": self.hand,
            "hand_id": self.hand_id,
            "game": self.game,
            "ruleset": self.ruleset,
            "legal": self.legal,
            "violations": [violation_dict(v) for v in self.violations],
            "recorded": self.recorded.to_dict() if self.recorded is not None else None,
            "recomputed": self.recomputed.to_dict() if self.recomputed is not None else None,
            "discrepancies": [d.to_dict() for d in self.discrepancies],
            "unverified": list(self.unverified),
            "contract": self.contract,
            "declarer": self.declarer,
            "partner": self.partner,
            "won": self.won,
            "record": "hand",
            "verification": self.verification,
            "findings": [f.to_dict() for f in self.findings],
        }


# --------------------------------------------------------------------------- hashing


def _canonical_json(obj: Any) -> bytes:
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS)


#: ``Play.model_dump(mode="json", exclude_defaults=True)`` of a play without a note, by
#: (seat, card): at most 5 seats × the cards of the packs
_PLAY_DOCS: dict[tuple[int, str], dict[str, Any]] = {}
#: the same dump of other actions the reader shares between hands (its cache of validated
#: small actions, ``log.validate._ACTIONS``), by the action's ``id`` with the action itself
#: (so an id reused by a new object after the old one is gone is never taken for it)
_SHARED_DOCS: dict[int, tuple[Any, dict[str, Any]]] = {}
_SHARED_MAX = 4096  # (a few hundred distinct ones in any archive; one-off actions never fill more)


#: action models with scalar fields only (the kinds the reader shares between hands)
_SHAREABLE = frozenset({m.Pass, m.Bid, m.Call, m.TalonPick, m.Lezim, m.Kontra})


def canonical_hand(hand: m.Hand) -> dict[str, Any]:
    """``hand.model_dump(mode="json", exclude_defaults=True)`` (what the content hash is
    taken of), the same dict, made faster: a card play without a note dumps to the same
    small dict wherever it occurs, so that one is made once per (seat, card) and reused;
    everything else goes through pydantic. The result is only read (serialised for the
    hash), never changed. Equality with the plain ``model_dump`` is pinned by tests."""
    doc = hand.model_dump(mode="json", exclude_defaults=True, exclude={"actions"})
    actions = hand.actions
    if actions:
        play = m.Play
        docs = _PLAY_DOCS
        out: list[dict[str, Any]] = []
        shared = _SHARED_DOCS
        for a in actions:
            if type(a) is play and a.note is None:
                key = (a.seat, a.card)
                d = docs.get(key)
                if d is None:
                    d = docs[key] = a.model_dump(mode="json", exclude_defaults=True)
                out.append(d)
                continue
            hit = shared.get(id(a))
            if hit is not None and hit[0] is a:
                out.append(hit[1])
                continue
            d = a.model_dump(mode="json", exclude_defaults=True)
            if type(a) in _SHAREABLE and len(shared) < _SHARED_MAX:
                shared[id(a)] = (a, d)
            out.append(d)
        doc["actions"] = out
    return doc


def hand_content_hash(session: m.Session, hand: m.Hand) -> str:
    """The hand's content hash (``hand_id``): see the module docstring for what goes in."""
    doc = {
        "game": session.game,
        "ruleset": session.ruleset,
        "players": [p.id for p in session.players],
        "hand": canonical_hand(hand),
    }
    return hashlib.sha256(_canonical_json(doc)).hexdigest()


# --------------------------------------------------------------------------- comparison


def _engine_item_names(engine: GameEngine | None, ruleset: Ruleset | None) -> frozenset[str] | None:
    """The score item names the engine can produce under ``ruleset``, if it says
    (:meth:`~tarock_logs.rules.base.GameEngine.score_items_for`)."""
    if engine is None:
        return None
    names = engine.score_items if ruleset is None else engine.score_items_for(ruleset)
    if names is None:
        return None
    cached = _ITEM_NAMES.get(id(names))
    if cached is not None and cached[0] is names:  # the same declaration object as before
        return cached[1]
    try:
        out = frozenset(str(n) for n in names)
    except TypeError:
        return None
    if isinstance(names, (frozenset, tuple)):  # immutable: safe to remember
        if len(_ITEM_NAMES) >= _ITEM_NAMES_KEPT:  # an engine that answers with new objects
            _ITEM_NAMES.clear()  # must not make the memo grow with every hand
        _ITEM_NAMES[id(names)] = (names, out)
    return out


#: the item names of the declarations seen, by the declaration object (at most
#: :data:`_ITEM_NAMES_KEPT`: a bulk audit of a million hands once grew it by a fresh object a
#: hand, 2 KB each)
_ITEM_NAMES: dict[int, tuple[Any, frozenset[str]]] = {}
_ITEM_NAMES_KEPT = 64


def _expand(
    items: Iterable[tuple[str, int | None, int]], side: Sequence[int]
) -> dict[tuple[str, int | None], int]:
    out: dict[tuple[str, int | None], int] = defaultdict(int)
    for item, seat, value in items:
        if seat is None and side:
            for s in side:
                out[(item, s)] += value
        else:
            out[(item, seat)] += value
    return out


def claimed_values(
    engine: GameEngine, ruleset: Ruleset, score: HandScore, recorded: ScoreSheet
) -> dict[str, list[int | None]]:
    """Per item of ``score.claimed`` and per seat, the value the score sheet claims for it:
    its own line where it itemises one, else what its totals imply
    (:meth:`~tarock_logs.rules.base.GameEngine.implied_claims`)."""
    out: dict[str, list[int | None]] = {}
    if not score.claimed:
        return out
    implied = engine.implied_claims(ruleset, score, recorded.totals)
    n = len(recorded.totals)
    for item in score.claimed:
        lines: dict[int, int] = {}
        for name, seat, value in recorded.items:
            if name == item and seat is not None:
                lines[seat] = lines.get(seat, 0) + value
        fallback = implied.get(item, ())
        out[item] = [
            lines[s] if s in lines else (fallback[s] if s < len(fallback) else None)
            for s in range(n)
        ]
    return out


def same_lines(a: Sequence[tuple[str, int | None, int]], b: Sequence[Any]) -> bool:
    """Whether two score sheets' lines are the same lines, each once, in any order (their
    comparison then finds nothing: a cheaper answer than expanding both)."""
    if len(a) != len(b):
        return False
    lines = set(a)
    return len(lines) == len(a) and lines == set(b)


def _sort_key(k: tuple[str, int | None]) -> tuple[str, int]:
    return (k[0], -1 if k[1] is None else k[1])


def compare_scores(
    recorded: ScoreSheet,
    recomputed: ScoreSheet,
    *,
    declarer: int | None = None,
    partner: int | None = None,
    known_items: frozenset[str] | None = None,
    incomplete_seats: tuple[int, ...] = (),
    claimed_items: frozenset[str] = frozenset(),
) -> tuple[list[Discrepancy], list[str]]:
    """Compare two score sheets: (discrepancies, unverified notes). Rules: module docstring.
    A recorded line of a ``claimed_items`` item (one the engine cannot value: Royal Tarock's
    consolation) is a claimed value: compared with nothing, never a discrepancy."""
    if (
        recorded.totals == recomputed.totals
        and recorded.items == recomputed.items
        and not incomplete_seats
        and not claimed_items
        and (recorded.radelci_after is None or recorded.radelci_after == recomputed.radelci_after)
        and (known_items is None or all(it[0] in known_items for it in recorded.items))
    ):
        return [], []  # (the same sheet, line for line: the ingest lane's every hand)
    out: list[Discrepancy] = []
    notes: list[str] = []
    side = [s for s in (declarer, partner) if s is not None]
    side = list(dict.fromkeys(side))
    if recorded.items:
        rec_items = list(recorded.items)
        if claimed_items:
            rec_items = [it for it in rec_items if it[0] not in claimed_items]
        if known_items is not None:
            unknown = [it for it in rec_items if it[0] not in known_items]
            for item, seat, value in unknown:
                who = "the declarer's side" if seat is None else f"seat {seat}"
                notes.append(
                    f"recorded item {item!r} ({who}, {value:+d}) is not an item the engine "
                    "produces: not checked"
                )
            rec_items = [it for it in rec_items if it[0] in known_items]
        # the same lines (in the same order, or not): all agree
        if rec_items != recomputed.items and not same_lines(rec_items, recomputed.items):
            rec = _expand(rec_items, side)
            cmp = _expand(recomputed.items, side)
            for key in sorted(set(rec) | set(cmp), key=_sort_key):
                r, c = rec.get(key), cmp.get(key)
                if r == c:
                    continue
                if (r is None and c == 0) or (c is None and r == 0):
                    continue
                out.append(Discrepancy(key[0], key[1], r, c))
    n = max(len(recorded.totals), len(recomputed.totals))
    for s in range(n):
        r = recorded.totals[s] if s < len(recorded.totals) else None
        c = recomputed.totals[s] if s < len(recomputed.totals) else None
        if s in incomplete_seats:
            if r is not None:
                notes.append(
                    f"total of seat {s} (recorded {r:+d}) not checked: the engine could value "
                    f"only part of its items (recomputed from the known items: {c:+d})"
                )
            continue
        if r != c:
            out.append(Discrepancy("total", s, r, c))
    if recorded.radelci_after is not None:
        if recomputed.radelci_after is None:
            notes.append("recorded radelci after the hand: the engine does not track them")
        else:
            n = max(len(recorded.radelci_after), len(recomputed.radelci_after))
            for s in range(n):
                ra = recorded.radelci_after
                ca = recomputed.radelci_after
                r = ra[s] if s < len(ra) else None
                c = ca[s] if s < len(ca) else None
                if r != c:
                    out.append(Discrepancy("radelci_after", s, r, c))
    return out, notes


# --------------------------------------------------------------------------- hands


def audit_hand(
    session: m.Session,
    hand: m.Hand,
    replay: HandReplay,
    *,
    file: str | None = None,
    engine: GameEngine | None = None,
    keep_replay: bool = False,
    sheet: Sequence[Discrepancy] = (),
) -> HandAudit:
    """Turn a :class:`~tarock_logs.verdict.replay.HandReplay` of ``hand`` into its audit record.

    ``sheet`` are the differences of the score sheet's own arithmetic under this hand (its
    running totals, :func:`running_total_discrepancies`)."""
    unverified = list(replay.unverified)
    recorded = ScoreSheet.from_result(hand.result) if hand.result is not None else None
    score = replay.score
    recomputed = ScoreSheet.from_score(score) if score is not None else None
    discrepancies: list[Discrepancy] = []
    if recorded is None:
        unverified.append("no recorded result: the score could not be compared")
    if hand.radelci_before is not None and replay.carry_source == "engine":
        exp = replay.carry_expected.get("radelci")
        if exp is not None:
            rb = list(hand.radelci_before)
            for s in range(max(len(rb), len(exp))):
                r = rb[s] if s < len(rb) else None
                c = exp[s] if s < len(exp) else None
                if r != c:
                    discrepancies.append(Discrepancy("radelci_before", s, r, c))
    if recorded is not None and recomputed is not None:
        d, notes = compare_scores(
            recorded,
            recomputed,
            declarer=score.declarer if score else None,
            partner=score.partner if score else None,
            known_items=_engine_item_names(engine, replay.ruleset),
            incomplete_seats=score.incomplete_seats if score else (),
            claimed_items=frozenset(score.claimed) if score else frozenset(),
        )
        discrepancies.extend(d)
        unverified.extend(notes)
        if score is not None and engine is not None and replay.ruleset is not None:
            for item, per_seat in claimed_values(engine, replay.ruleset, score, recorded).items():
                told = ", ".join(
                    f"seat {s} {v:+d}" if v is not None else f"seat {s} not determined"
                    for s, v in enumerate(per_seat)
                )
                unverified.append(
                    f"{item}: the engine cannot value it; the score sheet implies {told} "
                    "(a claimed value, checked for consistency across the session)"
                )
    discrepancies.extend(sheet)
    if (
        recorded is not None
        and engine is not None
        and replay.ruleset is not None
        and engine.zero_sum(replay.ruleset)
        and sum(recorded.totals) != 0
    ):  # the sheet's own arithmetic: what one player wins, another pays
        discrepancies.append(Discrepancy("zero_sum", None, sum(recorded.totals), 0))
    hand_id = hand_content_hash(session, hand)
    findings: list[Finding] = []
    if replay.violations or discrepancies:
        findings = _hand_findings(session, hand, replay, discrepancies, file, hand_id)
    return HandAudit(
        file=file,
        session=session.id,
        hand=hand.number,
        hand_id=hand_id,
        game=session.game,
        ruleset=replay.ruleset_id,
        legal=replay.legal,
        violations=list(replay.violations),
        recorded=recorded,
        recomputed=recomputed,
        discrepancies=discrepancies,
        unverified=list(dict.fromkeys(unverified)),
        incomplete_seats=list(score.incomplete_seats) if score else [],
        contract=score.contract if score else None,
        declarer=score.declarer if score else None,
        partner=score.partner if score else None,
        won=score.won if score else None,
        findings=findings,
        replay=replay if keep_replay else None,
        actions_checked=replay.actions_applied if replay.ruleset is not None else 0,
        stopped=replay.actions_applied < len(hand.actions),
    )


def hand_people(session: m.Session, hand: m.Hand, replay: HandReplay) -> HandPeople:
    """Who is who in ``hand``: the engine's declarer and partner, or for a game of fixed
    pairs the attacking and defending pairs of the engine's view at the end of the hand. A
    hand with no score (recorded in part, or stopped early) takes them from the engine's view
    of its last position: the bid won and the king called say who they are."""
    score = replay.score
    declarer = score.declarer if score is not None else None
    partner = score.partner if score is not None else None
    if score is None and replay.state is not None:
        seen = replay.state.view()
        d, p = seen.get("declarer"), seen.get("partner")
        declarer = d if isinstance(d, int) else None
        partner = p if isinstance(p, int) and declarer is not None else None
    pairs: Mapping[str, Sequence[int]] | None = None
    if declarer is None and replay.ruleset is not None:
        state = replay.state
        view = state.view() if state is not None else {}
        raw = view.get("pairs")
        if isinstance(raw, Mapping):
            pairs = {str(k): [int(s) for s in v] for k, v in raw.items()}
    return HandPeople.of(session, hand, declarer=declarer, partner=partner, pairs=pairs)


def _hand_findings(
    session: m.Session,
    hand: m.Hand,
    replay: HandReplay,
    discrepancies: Sequence[Discrepancy],
    file: str | None,
    hand_id: str,
) -> list[Finding]:
    """The hand's violations and score differences as findings in the players' words."""
    people = hand_people(session, hand, replay)
    rs = replay.ruleset_id
    out = [
        violation_finding(
            v, people, file=file, session=session.id, hand=hand.number, hand_id=hand_id,
            ruleset=rs,
        )
        for v in replay.violations
    ]  # fmt: skip
    reasons = replay.reasons() if discrepancies else {}
    for d in discrepancies:
        reason = reasons.get((d.item, d.seat)) or reasons.get((d.item, None), "")
        out.append(
            score_finding(
                d.item, d.seat, d.recorded, d.recomputed, people, file=file,
                session=session.id, hand=hand.number, hand_id=hand_id, ruleset=rs,
                reason=reason,
            )
        )  # fmt: skip
    return out


def running_total_discrepancies(session: m.Session) -> dict[int, list[Discrepancy]]:
    """The running totals a score sheet writes under each hand (``result.totals_after``)
    against the previous running total plus the hand's recorded score, by hand index.

    The previous running total is the one under the hand before (which must be the previous
    hand number: after a missing row nothing is compared), or 0 before hand 1, or for a session
    recorded from its middle the totals it starts from (``start.totals``). Only the
    sheet's own arithmetic is checked here; the hand scores are compared with the engine's
    on each hand.
    """
    out: dict[int, list[Discrepancy]] = {}
    n = len(session.players)
    prev: m.Hand | None = None
    for i, h in enumerate(session.hands):
        r = h.result
        base: list[int] | None = None
        if prev is None:
            start = session.start.totals if session.start is not None else None
            if start is not None:  # a session recorded from its middle (format 1.1 start)
                base = list(start) if len(start) == n else None
            else:
                base = [0] * n if h.number == 1 and i == 0 else None
        elif prev.result is not None and h.number == prev.number + 1:
            base = list(prev.result.totals_after) if prev.result.totals_after else None
        prev = h
        if r is None or r.totals_after is None or base is None:
            continue
        found = [
            Discrepancy("running_total", s, r.totals_after[s], base[s] + r.scores[s])
            for s in range(min(n, len(base), len(r.scores), len(r.totals_after)))
            if r.totals_after[s] != base[s] + r.scores[s]
        ]
        if found:
            out[i] = found
    return out


# --------------------------------------------------------------------------- sessions


@dataclass(slots=True)
class SessionAudit:
    """The audit of one session: its hands, totals and placement points.

    ``recomputed_totals`` is the session total from the recomputed hand totals (the round
    score: their sum, or the engine's ``session_totals``), None when some hand could not be
    scored. ``recorded_hand_sum`` is the same arithmetic over the recorded hand scores (item
    ``session_total_sum`` when the recorded session total disagrees with it); both need an
    engine, because how a session total is made is a rule of the game.
    ``tournament_penalties`` sums tournament-point penalties and arbiter adjustments (unit
    ``tournament``) per seat: they enter the final ranking, not the round score.
    """

    file: str | None
    session: str
    game: str
    ruleset: str | None
    players: list[str]
    hands: list[HandAudit]
    tournament: str | None = None
    round: int | None = None
    table: str | None = None
    recorded_totals: list[int] | None = None
    recorded_hand_sum: list[int] | None = None
    recomputed_totals: list[int] | None = None
    recorded_placement_points: list[float] | None = None
    placement_points: list[float] | None = None
    tournament_penalties: list[int] = field(default_factory=list)
    discrepancies: list[Discrepancy] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)
    #: the players' names by seat (the id where a player has no name)
    names: list[str] = field(default_factory=list)
    _engine: GameEngine | None = field(default=None, repr=False, compare=False)
    _ruleset: Ruleset | None = field(default=None, repr=False, compare=False)

    @property
    def has_findings(self) -> bool:
        return bool(self.discrepancies) or any(h.has_findings for h in self.hands)

    @property
    def verification(self) -> Verification:
        """``verified`` when every hand is and the session's own arithmetic (totals,
        placement points) was checked wherever it is recorded; ``unverified`` when no hand
        could be scored (or there is no engine); else ``partial``."""
        if self._engine is None:
            return "unverified"
        state = worst_state(h.verification for h in self.hands)
        if state == "verified" and self.unverified:
            return "partial"
        return state

    @property
    def findings(self) -> list[Finding]:
        """The session-level differences (session totals, placement points) as findings; the
        hands' own findings are on each hand."""
        out: list[Finding] = []
        for d in self.discrepancies:
            knock_on: list[tuple[int, int | float]] = []
            if d.item == "session_total":
                for h in self.hands:
                    for hd in h.discrepancies:
                        if hd.item == "total" and hd.seat == d.seat:
                            knock_on.append((h.hand, (hd.recorded or 0) - (hd.recomputed or 0)))
            out.append(
                session_finding(
                    d.item, d.seat, d.recorded, d.recomputed, player=self.player(d.seat),
                    file=self.file, session=self.session, ruleset=self.ruleset,
                    tournament=self.tournament, knock_on=knock_on, game=self.game,
                )
            )  # fmt: skip
        return out

    def player(self, seat: int | None) -> PlayerRef | None:
        """The player at ``seat`` of the session (no role: a session has none)."""
        if seat is None or not 0 <= seat < len(self.players):
            return None
        name = self.names[seat] if seat < len(self.names) else self.players[seat]
        return PlayerRef(self.players[seat], name, seat, "player")

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "session": self.session,
            "game": self.game,
            "ruleset": self.ruleset,
            "tournament": self.tournament,
            "round": self.round,
            "table": self.table,
            "players": list(self.players),
            "hands": len(self.hands),
            "illegal_hands": sum(1 for h in self.hands if not h.legal),
            "hands_with_discrepancies": sum(1 for h in self.hands if h.discrepancies),
            "unverified_hands": sum(1 for h in self.hands if h.recomputed is None),
            "recorded_totals": self.recorded_totals,
            "recorded_hand_sum": self.recorded_hand_sum,
            "recomputed_totals": self.recomputed_totals,
            "recorded_placement_points": self.recorded_placement_points,
            "placement_points": self.placement_points,
            "tournament_penalties": list(self.tournament_penalties),
            "discrepancies": [d.to_dict() for d in self.discrepancies],
            "unverified": list(self.unverified),
            "record": "session",
            "verification": self.verification,
            "findings": [f.to_dict() for f in self.findings],
            "hand_states": _state_counts(h.verification for h in self.hands),
        }

    def score_placement(self, all_tables_of_five: bool) -> None:
        """(Re)compute the placement points of this table's round scores (the engine's
        arithmetic; ``all_tables_of_five`` picks the table-of-five column, which depends on
        the whole round: :func:`tarock_logs.verdict.tournament.audit_tournaments` settles it)
        and compare them with the recorded ones."""
        self.discrepancies = [d for d in self.discrepancies if d.item != "placement_points"]
        self.unverified = [u for u in self.unverified if not u.startswith("placement points")]
        self.placement_points = None
        if self._engine is None or self._ruleset is None:
            if self.recorded_placement_points is not None:
                self.unverified.append("placement points not checked: no engine for this game")
            return
        if self.recomputed_totals is None or any(h.incomplete_seats for h in self.hands):
            if self.recorded_placement_points is not None:
                self.unverified.append(
                    "placement points not checked: the round score is incomplete"
                )
            return
        try:
            pts = self._engine.placement_points(
                self._ruleset, self.recomputed_totals, all_tables_of_five
            )
        except Exception as exc:  # noqa: BLE001 - the engine has no placement arithmetic here
            self.unverified.append(f"placement points not recomputed: {exc}")
            return
        self.placement_points = [float(p) for p in pts]
        if self.recorded_placement_points is not None:
            rec = self.recorded_placement_points
            for s in range(max(len(rec), len(pts))):
                r = rec[s] if s < len(rec) else None
                c = self.placement_points[s] if s < len(pts) else None
                if r is None or c is None or abs(r - c) > 1e-9:
                    self.discrepancies.append(Discrepancy("placement_points", s, r, c))

    @property
    def engine(self) -> GameEngine | None:
        """The engine the session was audited with (None: no engine for its game)."""
        return self._engine

    @property
    def ruleset_used(self) -> Ruleset | None:
        """The ruleset the session was audited under (None when no engine resolved it)."""
        return self._ruleset


def _state_counts(states: Iterable[Verification]) -> dict[str, int]:
    counts = {"verified": 0, "partial": 0, "unverified": 0}
    for st in states:
        counts[st] += 1
    return counts


def _tournament_penalties(session: m.Session) -> list[int]:
    pen = [0] * len(session.players)
    for hand in session.hands:
        for irr in hand.irregularities:
            if isinstance(irr, m.Penalty) and irr.unit == "tournament":
                if irr.seat < len(pen):
                    pen[irr.seat] -= abs(irr.points)  # a penalty always deducts
            elif isinstance(irr, m.ArbiterDecision):
                for a in irr.adjustments:
                    if a.unit == "tournament" and a.seat < len(pen):
                        pen[a.seat] += a.points
    return pen


def _sum_columns(rows: Sequence[Sequence[int]], n: int) -> list[int]:
    out = [0] * n
    for row in rows:
        for s, v in enumerate(row[:n]):
            out[s] += v
    return out


def _session_totals(
    eng: GameEngine | None, rs: Ruleset | None, rows: Sequence[Sequence[int]], n: int
) -> list[int]:
    """Session totals from per-hand totals: the engine's ``session_totals(ruleset, rows)``
    (Royal Tarock divides the match sum by 8; by default the plain sum)."""
    if eng is not None and rs is not None:
        totals = [int(x) for x in eng.session_totals(rs, [list(r) for r in rows])]
        return totals + [0] * (n - len(totals))  # (no hand at all: the engine sees no seats)
    return _sum_columns(rows, n)


def audit_session(
    session: m.Session,
    file: str | None = None,
    ruleset: str | None = None,
    *,
    engine: GameEngine | None = None,
    all_tables_of_five: bool | None = None,
    keep_replays: bool = False,
    timeline: bool = False,
) -> SessionAudit:
    """Audit every hand of ``session`` in order, then its totals and placement points.

    ``ruleset`` re-scores under another ruleset (what-if); the records then name it.
    ``all_tables_of_five`` selects the placement table for tables of 5 (None: true when this
    table has 5 seats; :func:`audit_tournaments` settles it from the whole tournament).
    ``keep_replays`` keeps each hand's replay on its record (for the dossier); ``timeline``
    keeps on each replay the store's :class:`~tarock_logs.verdict.replay.Timeline`.
    """
    eng = engine if engine is not None else get_engine(session.game)
    # (the native engine's score when no one keeps the replays: the findings' reasons are
    # the reference's, asked for where a line differs, HandReplay.reasons)
    replays = replay_session(session, ruleset, engine=eng, with_views=False, timeline=timeline,
                             native=not keep_replays and not timeline)  # fmt: skip
    sheet = running_total_discrepancies(session)
    hands = [
        audit_hand(
            session, h, r, file=file, engine=eng, keep_replay=keep_replays, sheet=sheet.get(i, ())
        )
        for i, (h, r) in enumerate(zip(session.hands, replays, strict=True))
    ]
    rs_obj = next((r.ruleset for r in replays if r.ruleset is not None), None)
    if rs_obj is None and eng is not None:
        try:
            rs_obj = resolve_ruleset(eng, ruleset or session.ruleset, session_options(session))
        except (ReplayError, ValueError):
            rs_obj = None
    notes: list[str] = []
    if eng is not None and rs_obj is not None:
        notes.extend(_claims_across(eng, rs_obj, replays, hands))
        if replays and replays[-1].score is not None:
            notes.extend(eng.session_notes(rs_obj, replays[-1].carry_after))
    scores = (
        [h.result.scores for h in session.hands if h.result is not None]
        if session.hands and all(h.result is not None for h in session.hands)
        else None
    )
    return settle_session(
        session, hands, file=file, engine=eng, ruleset=rs_obj,
        asked=ruleset or session.ruleset, recorded_scores=scores,
        penalties=_tournament_penalties(session), notes=notes,
        all_tables_of_five=all_tables_of_five,
    )  # fmt: skip


def settle_session(
    session: m.Session,
    hands: list[HandAudit],
    *,
    file: str | None,
    engine: GameEngine | None,
    ruleset: Ruleset | None,
    asked: str,
    recorded_scores: Sequence[Sequence[int]] | None,
    penalties: list[int],
    notes: Sequence[str] = (),
    all_tables_of_five: bool | None = None,
) -> SessionAudit:
    """The session-level part of :func:`audit_session`, from the audits of its hands: the
    recorded and recomputed session totals, their differences, the placement points.

    ``session`` gives the envelope (players, event, recorded totals; its ``hands`` are not
    read); ``recorded_scores`` are the recorded hand scores when every hand has a result
    (else None); ``penalties`` the tournament penalties per seat; ``notes`` what the engine
    says of the session as a whole (claims across hands, :meth:`GameEngine.session_notes`);
    ``asked`` the ruleset asked for (named when none resolved). The store's ingest lane
    (:mod:`tarock_logs.store.write.lane`) calls this with the audits it made of its hands."""
    eng = engine
    rs_obj = ruleset
    n = len(session.players)
    ev = session.event
    sa = SessionAudit(
        file=file,
        session=session.id,
        game=session.game,
        ruleset=rs_obj.id if rs_obj is not None else asked,
        players=[p.id for p in session.players],
        names=[p.name or p.id for p in session.players],
        hands=hands,
        tournament=ev.tournament if ev else None,
        round=ev.round if ev else None,
        table=ev.table if ev else None,
        tournament_penalties=penalties,
        _engine=eng,
        _ruleset=rs_obj,
    )
    if eng is None:
        sa.unverified.append(f"no rules engine for {session.game} yet: not checked")
    rec = session.recorded
    if rec is not None and rec.totals is not None:
        sa.recorded_totals = list(rec.totals)
    if rec is not None and rec.placement_points is not None:
        sa.recorded_placement_points = [float(x) for x in rec.placement_points]
    if eng is not None and recorded_scores is not None:
        sa.recorded_hand_sum = _session_totals(eng, rs_obj, recorded_scores, n)
    if eng is not None and not hands:
        sa.unverified.append("the session has no hands: nothing to recompute")
    elif eng is not None and all(h.recomputed is not None for h in hands):
        sa.recomputed_totals = _session_totals(
            eng, rs_obj, [h.recomputed.totals for h in hands if h.recomputed is not None], n
        )
    elif hands and eng is not None:
        missing = sum(1 for h in hands if h.recomputed is None)
        sa.unverified.append(
            f"session totals not recomputed: {missing} of {len(hands)} hands could not be scored"
        )
    partial = sorted({s for h in hands for s in h.incomplete_seats})
    if sa.recorded_totals is not None:
        if sa.recomputed_totals is not None:
            for s in partial:
                sa.unverified.append(
                    f"session total of seat {s} not checked: some of its hands contain items "
                    "of unknown value"
                )
            for s in range(n):
                r = sa.recorded_totals[s] if s < len(sa.recorded_totals) else None
                if s in partial:
                    continue
                if r != sa.recomputed_totals[s]:
                    sa.discrepancies.append(
                        Discrepancy("session_total", s, r, sa.recomputed_totals[s])
                    )
        if sa.recorded_hand_sum is not None:
            for s in range(n):
                r = sa.recorded_totals[s] if s < len(sa.recorded_totals) else None
                if r != sa.recorded_hand_sum[s]:
                    sa.discrepancies.append(
                        Discrepancy("session_total_sum", s, r, sa.recorded_hand_sum[s])
                    )
    sa.unverified.extend(notes)
    sa.score_placement(n == 5 if all_tables_of_five is None else all_tables_of_five)
    return sa


def _claims_across(
    eng: GameEngine, rs: Ruleset, replays: Sequence[HandReplay], hands: Sequence[HandAudit]
) -> list[str]:
    """A claimed value (Royal Tarock's consolation) is one value per seat for the session:
    where the hands' score sheets imply different ones, say which."""
    seen: dict[tuple[str, int], dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for r, h in zip(replays, hands, strict=True):
        if r.score is None or h.recorded is None or not r.score.claimed:
            continue
        for item, per_seat in claimed_values(eng, rs, r.score, h.recorded).items():
            for seat, v in enumerate(per_seat):
                if v is not None:
                    seen[(item, seat)][v].append(h.hand)
    out: list[str] = []
    for (item, seat), values in sorted(seen.items()):
        if len(values) > 1:
            told = "; ".join(
                f"{v:+d} (hand{'s' if len(ns) > 1 else ''} {', '.join(map(str, ns))})"
                for v, ns in sorted(values.items())
            )
            out.append(f"{item} of seat {seat} is not the same in every hand: {told}")
    return out
