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

It **declines** (returns None, and the careful path reads the record) on anything else: a
game without a native engine, a Slovenian table of five, a ruleset with notes, an escape or an
unusual field anywhere, a card token not written as the pack writes it, any finding of the
reader or of the engine, any difference between the recorded and the recomputed score, of
a hand or of the session. So a record it takes is one the careful path would store with
every hand ``verified`` and no finding, and its rows are the careful path's, row for row
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import orjson

from tarock_logs import _native
from tarock_logs.log import models as m
from tarock_logs.log.options import session_options
from tarock_logs.log.validate import envelope_only
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import GameEngine, NativeLane, Ruleset
from tarock_logs.verdict.audit import (
    HandAudit,
    ScoreSheet,
    SessionAudit,
    compare_scores,
    settle_session,
)
from tarock_logs.verdict.replay import ReplayError, resolve_ruleset

__all__ = ["LaneHand", "LaneSession", "available", "read_session", "reader_lane"]

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
class LaneSession:
    """A session record the lane took: the session (its envelope: ``hands`` is empty), the
    ruleset id its hands were scored under, the session's audit (the
    :class:`~tarock_logs.verdict.audit.SessionAudit` that
    :func:`~tarock_logs.verdict.audit.audit_session` makes of the record: every hand
    verified, nothing to report), its hands in order, and the columns of its actions and
    tricks as lane.h writes them (``lane_hands``: the buffers of the store's Arrow columns,
    :class:`tarock_logs.store.write.process._LaneParts`)."""

    session: m.Session
    ruleset: str
    record: SessionAudit
    hands: list[LaneHand]
    columns: tuple[tuple[bytes, ...], tuple[bytes, ...]]
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


#: :class:`_Setup` by (game, ruleset as written, options, table size); None: no lane there
_SETUPS: dict[tuple[Any, ...], _Setup | None] = {}
_SETUPS_MAX: Final = 256


def _setup(session: m.Session, n: int) -> _Setup | None:
    # (an option's type is part of the key: True == 1 == 1.0, but a ruleset may take one and
    # refuse another)
    options = tuple(sorted((k, type(v).__name__, v) for k, v in session.options.items()))
    key = (session.game, session.ruleset, options, n)
    if key in _SETUPS:
        return _SETUPS[key]
    found: _Setup | None = None
    eng = get_engine(session.game)
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
    session = got[0]
    n = len(session.players)
    if session.start is not None:
        return None
    setup = _setup(session, n)
    if setup is None:
        return None
    prefix, suffix = _hash_frame(session)
    lane = setup.native
    read = getattr(core, lane.reader)
    extra = lane.session_args(session) if lane.session_args is not None else ()
    got = read(chunk, hs, he, lane.config, lane.score_config, lane.contracts, lane.cards, prefix,
               suffix, _SHA256, *extra)  # fmt: skip
    if got is None:
        return None
    raws, columns = got
    done = _audit(session, file, setup, raws)
    if done is None:
        return None
    record, hands = done
    return LaneSession(session, setup.ruleset.id, record, hands, columns, lane.cards, lane.items)


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


def _audit(
    session: m.Session, file: str, setup: _Setup, raws: Sequence[tuple[Any, ...]]
) -> tuple[SessionAudit, list[LaneHand]] | None:
    """Compare each hand's score (lane.h's, with the radelci carried from hand to hand as the
    engine's session carries them) with the recorded one, then settle the session; None at
    the first difference."""
    eng, rs = setup.engine, setup.ruleset
    n = len(session.players)
    hands: list[LaneHand] = []
    audits: list[HandAudit] = []
    last: dict[str, Any] = {}
    known = setup.known
    for raw in raws:
        hand_id, number, n_actions = raw[0], raw[3], raw[6]
        contract, declarer, partner, won, items, totals, radelci = raw[7]
        rad = raw[10]
        recorded = ScoreSheet(list(raw[8]), list(raw[9]), list(rad) if rad is not None else None)
        recomputed = ScoreSheet(
            list(totals), list(items), list(radelci) if radelci is not None else None
        )
        diffs, notes = compare_scores(recorded, recomputed, declarer=declarer, partner=partner,
                                      known_items=known)  # fmt: skip
        if diffs or notes:
            return None
        audits.append(
            HandAudit(
                file=file,
                session=session.id,
                hand=number,
                hand_id=hand_id,
                game=session.game,
                ruleset=rs.id,
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
        )
        hands.append(LaneHand(raw, recorded, recomputed, contract, declarer, partner, won))
        last = {"radelci": list(radelci)} if radelci is not None else {}
    sa = settle_session(
        session, audits, file=file, engine=eng, ruleset=rs, asked=session.ruleset,
        recorded_scores=[raw[8] for raw in raws], penalties=[0] * n,
        notes=eng.session_notes(rs, last),
    )  # fmt: skip
    if sa.discrepancies:
        return None
    return sa, hands
