"""The ingest lane: a session record read, replayed, audited and made into the store's rows
with as little Python per hand as it takes, for the records the careful path would accept
whole and find clean.

The careful path of an ingest reads a record with the reader (:mod:`tarock_logs.log.reader`:
the decoding, the pydantic models, the structural checks), audits it
(:func:`tarock_logs.verdict.audit.audit_session`: every action replayed through the engine,
the score recomputed and compared) and turns the audit into rows
(:func:`tarock_logs.store.write.process._add_session`). Most of an archive is ordinary: sessions of
Slovenian tarok (or of another game with a native engine: Zwanzigerrufen, Royal Tarock) whose
every hand is legal and scored as recorded. The lane takes such a record from its bytes:

* **in C** (``tarock_logs/_native/lane.h``, ``lane_envelope`` and ``lane_hands``): the JSON
  of the line checked as the reader's decoder checks it, each hand read into a plain struct
  under the format's constraints, the hand's canonical JSON and its content hash (the
  ``hand_id`` of :func:`~tarock_logs.verdict.audit.hand_content_hash`), the whole hand
  replayed by the native whole hand (``slohand.h``: every legality check of the fast path,
  the announcement round included), its itemised score (``sloscore.h``: the native home of
  the reference's ``hand_facts`` and ``score_facts``) with the radelci carried from hand to
  hand, and the actions', tricks' and details' columns;
* **in Python**, what has one home there: the session's envelope through the reader's own
  validation (:func:`tarock_logs.log.validate.envelope_only`), the engine's ruleset with the
  session's options, the comparison of each hand's score with the recorded one
  (:func:`~tarock_logs.verdict.audit.compare_scores`), and the session's totals and
  placement points (:func:`~tarock_logs.verdict.audit.settle_session`).

A game offers its native engine by :meth:`~tarock_logs.rules.base.GameEngine.native_lane`
(:class:`~tarock_logs.rules.base.NativeLane`: the core's reader of the hands, ``lane_hands``
for Slovenian tarok, ``zwanzigerrufen_lane_hands`` for Zwanzigerrufen's ``zrhand.h``,
``royal_lane_hands`` for Royal Tarock's ``royalhand.h``, with the configuration from the game's
rule tables, the codes of its cards and score items, and what it needs of the session besides
its hands); this module names no game.

A game whose native lane says how its carry passes to and from the reference
(``NativeLane.to_reference`` and ``from_reference``: Zwanzigerrufen's games, double-round
windows and dealer due) is taken **hand by hand**: a hand its native engine declines (the
reference would report something in it, an implied Kontra's info line say; Zwanzigerrufen's
also a deal thrown in, and a hand whose recorded score differs from its own) stops the core's
reading there, with the hand's bytes and the carry before it; the reader reads that hand
(:func:`~tarock_logs.log.validate.hand_only`), the reference audits it on a session restored
to the carry (:func:`~tarock_logs.verdict.replay.replay_carried`,
:func:`~tarock_logs.verdict.audit.audit_hand`: a :class:`RefHand`, its rows the careful path's),
and the core reads on from the hand after it with the reference's carry. The session is
settled once over all its hands. So a session costs the careful path's price only for the
hands the native engine declines.

It **declines** (returns None, and the careful path reads the record) on anything else: a
game without a native engine, a Slovenian table of five, a ruleset with notes, an escape or an
unusual field anywhere, a card token not written as the pack writes it, any finding of the
reader or of the engine (for a game taken hand by hand: a hand the reference's replay
does not score or after which the recorded state differs from the engine's, a hand with
irregularities, running totals or a claimed value, a hand number twice, a dealer out of the
reader's rotation), any difference between the recorded and the recomputed score of a hand
the native engine played, or of the session. So a record it takes is one the careful path
would store with every hand the native engine played ``verified`` and no finding in them,
and its rows are the careful path's, row for row
(``tests/store/test_lane.py`` holds them equal on the samples, on simulated sessions of every
ruleset and table, and on mutated records), but for ``hands.card_points`` (the native score
keeps none); its step timeline is a clean hand's (the seat to move after an action is the next
action's seat: :mod:`tarock_logs.store.read.timeline`). Without the native core (no compiler, or
``TAROCK_NATIVE=0``) there is no lane: every record takes the careful path.

``tarock audit`` uses it too (:func:`reader_lane`): a record the lane takes is reported by its
:class:`LaneSession`'s ``record``, the audit the careful path would make of it
(``tests/cli/test_audit_lane.py``).
"""

from __future__ import annotations

import hashlib
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import orjson

from tarock_logs import _native
from tarock_logs.log import models as m
from tarock_logs.log.options import session_options
from tarock_logs.log.validate import envelope_only, hand_only
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import GameEngine, NativeLane, Ruleset
from tarock_logs.store.sources import audited_hand
from tarock_logs.verdict.audit import (
    HandAudit,
    ScoreSheet,
    SessionAudit,
    audit_hand,
    compare_scores,
    settle_session,
)
from tarock_logs.verdict.replay import (
    ReplayError,
    carries_on,
    replay_carried,
    resolve_ruleset,
    start_session,
)

__all__ = ["LaneHand", "LaneSession", "RefHand", "available", "read_session", "reader_lane"]

_CORE: Final = _native.core

#: the action types by the kind lane.h gives them (slohand.h's SH_ enum)
TYPES: Final = ("pass", "bid", "call", "talon", "discard", "play", "lezim", "announce",
                "kontra")  # fmt: skip
#: the card tokens by the id lane.h gives them (cards.h)
_SHA256: Final = hashlib.sha256


def available() -> bool:
    """Whether the lane runs: the native core is loaded (its columns are little-endian, as
    Arrow's buffers)."""
    return _CORE is not None and hasattr(_CORE, "lane_hands") and sys.byteorder == "little"


@dataclass(slots=True)
class LaneHand:
    """One hand the lane took: what lane.h gives (``raw``, see ``lane_hands`` in
    ``_native/module.c``: the content hash, the deal's and the result's canonical JSON, the
    number, the dealer, the notes, the count of actions, the score, the recorded score, the
    ``action_details`` rows), the recorded and the recomputed score sheets (they agree:
    nothing to report), and the engine's contract, declarer, partner and verdict on the
    game."""

    raw: tuple[Any, ...]
    recorded: ScoreSheet
    recomputed: ScoreSheet
    contract: str | None
    declarer: int | None
    partner: int | None
    won: bool | None


@dataclass(slots=True)
class RefHand:
    """A hand of a session the lane took that its native engine declined: read by the
    reader (:func:`tarock_logs.log.validate.hand_only`) and audited by the reference with the
    session's state carried in (:func:`tarock_logs.verdict.replay.replay_carried`), as the
    careful path audits it in its session: the hand, its audit, and what the careful path's
    rows are made of (:func:`tarock_logs.store.sources.audited_hand`: the record, the tricks,
    the step timeline)."""

    hand: m.Hand
    audit: HandAudit
    rows: tuple[dict[str, Any], Any, Any]


@dataclass(slots=True)
class LaneSession:
    """A session record the lane took: the session (its envelope: ``hands`` is empty), the
    ruleset id its hands were scored under, the session's audit (the
    :class:`~tarock_logs.verdict.audit.SessionAudit` that
    :func:`~tarock_logs.verdict.audit.audit_session` makes of the record), its hands in order
    (a :class:`LaneHand` for each hand the native engine played: verified, nothing to report;
    a :class:`RefHand` for each it declined), and per run of the native engine's hands
    ``(first, stop, columns)``: their places in ``hands`` and the columns of their actions and
    tricks as lane.h writes them (``lane_hands``: the buffers of the store's Arrow columns,
    :class:`tarock_logs.store.write.process._LaneParts`)."""

    session: m.Session
    ruleset: str
    record: SessionAudit
    hands: list[LaneHand | RefHand]
    runs: list[tuple[int, int, tuple[tuple[bytes, ...], ...]]]
    #: the card tokens by the native engine's card ids (the columns' card codes)
    cards: tuple[str, ...]
    #: the score items by the codes of the columns (the game's native lane's)
    items: tuple[str, ...] = ()

    @property
    def codes(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The columns' card and item codes (:attr:`cards`, :attr:`items`)."""
        return self.cards, self.items

    @property
    def audit(self) -> dict[str, Any]:
        """The session's audit record as JSON (``SessionAudit.to_dict()``)."""
        return self.record.to_dict()


@dataclass(slots=True)
class _Setup:
    """What the lane needs of one ruleset (with a session's options) at one table size."""

    engine: GameEngine
    ruleset: Ruleset
    native: NativeLane
    known: frozenset[str] | None


#: :class:`_Setup` by (engine, game, ruleset as written, options, table size); None: no lane there
_SETUPS: dict[tuple[Any, ...], _Setup | None] = {}
_SETUPS_MAX: Final = 256


def _setup(session: m.Session, n: int) -> _Setup | None:
    # (an option's type is part of the key: True == 1 == 1.0, but a ruleset may take one and
    # refuse another)
    options = tuple(sorted((k, type(v).__name__, v) for k, v in session.options.items()))
    eng = get_engine(session.game)
    # (the engine itself is part of the key: another engine registered for the game, as a
    # test's stand-in is, must not find this one's answer)
    key = (eng, session.game, session.ruleset, options, n)
    if key in _SETUPS:
        return _SETUPS[key]
    found: _Setup | None = None
    if eng is not None:
        notes: list[str] = []
        try:
            rs = resolve_ruleset(eng, session.ruleset, session_options(session), notes=notes)
            eng.new_session(rs, n)  # (a table the ruleset does not allow: ValueError)
            native = eng.native_lane(rs, n)
        except (ReplayError, ValueError, TypeError):
            native = None
        if native is not None and not notes:
            names = eng.score_items_for(rs)
            known = frozenset(names) if names is not None else None
            found = _Setup(eng, rs, native, known)
    if len(_SETUPS) >= _SETUPS_MAX:
        _SETUPS.pop(next(iter(_SETUPS)))
    _SETUPS[key] = found
    return found


def _hash_frame(session: m.Session) -> tuple[bytes, bytes]:
    """The canonical JSON of a hand's content-hash document around the hand: the prefix up to
    ``"hand":`` and the suffix after it (verdict/audit.py, ``hand_content_hash``)."""
    doc = {"game": session.game, "hand": None, "players": [p.id for p in session.players],
           "ruleset": session.ruleset}  # fmt: skip
    text = orjson.dumps(doc, option=orjson.OPT_SORT_KEYS)
    prefix, suffix = text.split(b'"hand":null', 1)
    return prefix + b'"hand":', suffix


def read_session(chunk: bytes, file: str, line: int | None) -> LaneSession | None:
    """The session record ``chunk`` (one line of a JSONL file) through the lane, or None: the
    careful path reads it (see the module docstring for what the lane takes)."""
    core = _CORE
    if core is None or not available():
        return None
    span = core.lane_envelope(chunk)
    if span is None:
        return None
    hs, he = span
    try:
        obj = orjson.loads(chunk[:hs] + b"[]" + chunk[he:])
    except orjson.JSONDecodeError:
        return None
    if type(obj) is not dict:
        return None
    got = envelope_only(obj, file, line)
    if got is None:
        return None
    session, rules = got
    n = len(session.players)
    if session.start is not None:
        return None
    setup = _setup(session, n)
    if setup is None:
        return None
    prefix, suffix = _hash_frame(session)
    lane = setup.native
    read = getattr(core, lane.reader)
    args = (lane.config, lane.score_config, lane.contracts, lane.cards, prefix, suffix, _SHA256,
            *(lane.session_args(session) if lane.session_args is not None else ()))  # fmt: skip
    hands: list[LaneHand | RefHand] = []
    audits: list[HandAudit] = []
    runs: list[tuple[int, int, Any]] = []
    last: Mapping[str, Any] = {}
    at, carry = hs, None
    while True:  # a run of hands the native engine plays, then (maybe) one it declines
        part = read(chunk, at, he, *args) if carry is None else read(chunk, at, he, *args, carry)
        if part is None:
            return None
        first = len(hands)
        for raw in part[0]:
            done = _lane_hand(session, file, setup, raw)
            if done is None:
                return None
            audits.append(done[0])
            hands.append(done[1])
            radelci = raw[7][6]
            last = {"radelci": list(radelci)} if radelci is not None else {}
        if part[0]:
            runs.append((first, len(hands), part[1]))
        if len(part) == 2:
            break
        start, stop, at, native = part[2]
        if lane.to_reference is None or lane.from_reference is None:
            return None
        ref = _reference_hand(session, rules, file, line, setup, chunk[start:stop], len(hands),
                              lane.to_reference(native))  # fmt: skip
        if ref is None:
            return None
        ref_hand, replay_carry, after = ref
        carry = lane.from_reference(after)
        if carry is None:  # (a state the native engine does not keep)
            return None
        hands.append(ref_hand)
        audits.append(ref_hand.audit)
        last = replay_carry
        if at < 0:
            break
    if not _across_hands(session, rules, hands):
        return None
    record = _settle(session, file, setup, hands, audits, last)
    if record is None:
        return None
    return LaneSession(session, setup.ruleset.id, record, hands, runs, lane.cards, lane.items)


def reader_lane(file: str) -> Callable[[bytes, int], LaneSession | None] | None:
    """The reader's fast lane (``lane`` of :func:`tarock_logs.log.reader.read_file`) for the
    records of ``file``: :func:`read_session`, where any failure of the lane's own declines
    the record (the careful path then reads it and says what is wrong). A record it takes
    comes back as its :class:`LaneSession`: the ingest makes rows of it, ``tarock audit``
    reports its ``record``. None without the native core."""
    if not available():
        return None
    read = read_session

    def take(chunk: bytes, line: int) -> LaneSession | None:
        try:
            return read(chunk, file, line)
        except Exception:  # noqa: BLE001 - the careful path reads the record instead
            return None

    return take


def _lane_hand(
    session: m.Session, file: str, setup: _Setup, raw: tuple[Any, ...]
) -> tuple[HandAudit, LaneHand] | None:
    """A hand the native engine played: its score (lane.h's, with the radelci carried from
    hand to hand as the engine's session carries them) compared with the recorded one, and
    its audit; None at a difference (the careful path reads the session)."""
    hand_id, number, n_actions = raw[0], raw[3], raw[6]
    contract, declarer, partner, won, items, totals, radelci = raw[7]
    rad = raw[10]
    recorded = ScoreSheet(list(raw[8]), list(raw[9]), list(rad) if rad is not None else None)
    recomputed = ScoreSheet(
        list(totals), list(items), list(radelci) if radelci is not None else None
    )
    diffs, notes = compare_scores(recorded, recomputed, declarer=declarer, partner=partner,
                                  known_items=setup.known)  # fmt: skip
    if diffs or notes:
        return None
    audit = HandAudit(
        file=file,
        session=session.id,
        hand=number,
        hand_id=hand_id,
        game=session.game,
        ruleset=setup.ruleset.id,
        legal=True,
        violations=[],
        recorded=recorded,
        recomputed=recomputed,
        discrepancies=[],
        unverified=[],
        contract=contract,
        declarer=declarer,
        partner=partner,
        won=won,
        actions_checked=n_actions,
    )
    return audit, LaneHand(raw, recorded, recomputed, contract, declarer, partner, won)


def _reference_hand(
    session: m.Session,
    rules: Any,
    file: str,
    line: int | None,
    setup: _Setup,
    text: bytes,
    index: int,
    carry: Mapping[str, Any],
) -> tuple[RefHand, Mapping[str, Any], Mapping[str, Any]] | None:
    """Hand ``index`` (``text``: its JSON object), which the native engine declined, read by
    the reader and audited by the reference on a session restored to ``carry`` (the native
    engine's state after the hands before it, as the reference keeps it): the hand, the
    replay's ``carry_after`` and the reference session's carry after it. None where the careful
    path would go on otherwise than from the engine's state (the hand not scored, recorded
    radelci differing), or the hand needs more of its session (irregularities, running totals,
    a claimed value: :func:`~tarock_logs.verdict.audit.audit_session`'s across the hands)."""
    try:
        obj = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    hand = hand_only(obj, index, session, rules, file, line)
    if hand is None or hand.irregularities or hand.deal is None:
        return None
    if hand.result is None or hand.result.totals_after is not None:
        return None
    eng, rs = setup.engine, setup.ruleset
    ss = eng.new_session(rs, len(session.players))
    if start_session(session, ss) or (carry and not ss.restore(carry)):
        return None
    replay = replay_carried(session, ss, hand, index, rs, timeline=True)
    if not carries_on(hand, replay) or replay.score is None or replay.score.claimed:
        return None
    audit = audit_hand(session, hand, replay, file=file, engine=eng, keep_replay=True)
    after = replay.carry_after
    return RefHand(hand, audit, audited_hand(audit)), after, ss.carry()


def _across_hands(session: m.Session, rules: Any, hands: Sequence[LaneHand | RefHand]) -> bool:
    """What the reader checks across a session's hands: no hand number twice, and every hand
    dealt by the seat the game's rotation gives after the hand numbered before it, hand 1 by
    the session's ``first_dealer`` (else the reader warns: the careful path's). Checked for
    every session the lane reads (the native engines do not check hand 1 against
    ``first_dealer``)."""
    n = len(session.players)
    numbers: set[int] = set()
    prev: tuple[int, int, bool] | None = None
    for h in hands:
        if isinstance(h, RefHand):
            number, dealer = h.hand.number, h.hand.dealer
            thrown = any(a.type == "throw_in" for a in h.hand.actions)
        else:
            number, dealer, thrown = h.raw[3], h.raw[4], False
        if number in numbers:
            return False
        numbers.add(number)
        expected: int | None = None
        if prev is None:
            if session.first_dealer is not None and number == 1:
                expected = session.first_dealer
        elif number == prev[0] + 1:
            expected = rules.next_dealer(prev[1], n, prev[2])
        if expected is not None and dealer != expected:
            return False
        prev = (number, dealer, thrown)
    return True


def _settle(
    session: m.Session,
    file: str,
    setup: _Setup,
    hands: Sequence[LaneHand | RefHand],
    audits: list[HandAudit],
    last: Mapping[str, Any],
) -> SessionAudit | None:
    """The session settled from its hands' audits (``last``: the state carried after its last
    hand); None at a difference of the session's own (the careful path reads it)."""
    eng, rs = setup.engine, setup.ruleset
    n = len(session.players)
    scores: list[Sequence[int]] = []
    for h in hands:
        if isinstance(h, LaneHand):
            scores.append(h.raw[8])
        else:
            assert h.hand.result is not None  # (_reference_hand)
            scores.append(h.hand.result.scores)
    sa = settle_session(
        session, audits, file=file, engine=eng, ruleset=rs, asked=session.ruleset,
        recorded_scores=scores, penalties=[0] * n, notes=eng.session_notes(rs, last),
    )  # fmt: skip
    if sa.discrepancies:
        return None
    return sa
