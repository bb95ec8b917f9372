"""Turn one log file into Arrow tables for the store: pure, deterministic, engine-agnostic.

:func:`process_shard` reads a file with the project's reader, audits every session with the
project's audit (which replays each hand through its game's engine, or marks it ``unverified``
when the game has no engine) and returns one :class:`pyarrow.Table` per store table. It never
touches DuckDB and never reads the clock (the writer stamps ``ingested_at``/``rejected_at``),
so it runs in worker processes (``tarock ingest --jobs N``) and the same file always gives the
same tables. :func:`iter_batches` does the same in bounded memory, a few thousand hands at a
time, for big files.

Hands are identified by the audit's content hash (``hand_id``); a hand that appears twice in one
file is kept once (the first time).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any, Final

import orjson
import pyarrow as pa
import pyarrow.compute as pc

from tarock_logs.log import models as m
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import TrickRows
from tarock_logs.store import sources
from tarock_logs.store.schema import ACTION_COLUMNS
from tarock_logs.verdict.bulk import bulk_gc

U8 = pa.uint8()
U16 = pa.uint16()
I16 = pa.int16()
I32 = pa.int32()
I64 = pa.int64()
STR = pa.string()
BOOL = pa.bool_()
STRS = pa.list_(pa.string())

#: The Arrow schema of every table ``process_shard`` returns (the store's columns, minus the
#: timestamps the writer adds). Order here is the order the writer loads them.
SCHEMAS: dict[str, pa.Schema] = {
    "raw_logs": pa.schema(
        [
            ("file", STR),
            ("sha256", STR),
            ("size", I64),
            ("n_sessions", I32),
            ("n_hands", I32),
            ("n_rejected", I32),
        ]
    ),
    "players": pa.schema([("player_id", STR), ("name", STR)]),
    "sessions": pa.schema(
        [
            ("session_id", STR),
            ("game", STR),
            ("ruleset", STR),
            ("table_size", U8),
            ("event_name", STR),
            ("tournament", STR),
            ("round", U8),
            ("table_name", STR),
            ("site", STR),
            ("date", pa.date32()),
            ("first_dealer", U8),
            ("options", STR),
            ("source", STR),
            ("n_hands", I32),
            ("file", STR),
            ("line", I32),
            ("verification", STR),
            ("byte_start", I64),
            ("byte_length", I32),
        ]
    ),
    "session_players": pa.schema(
        [("session_id", STR), ("seat", U8), ("player_id", STR), ("pair", STR), ("role", STR)]
    ),
    "hands": pa.schema(
        [
            ("hand_id", STR),
            ("session_id", STR),
            ("game", STR),
            ("ruleset", STR),
            ("number", I32),
            ("dealer", U8),
            ("table_size", U8),
            ("contract", STR),
            ("declarer", U8),
            ("partner", U8),
            ("won", BOOL),
            ("legal", BOOL),
            ("verified", BOOL),
            ("n_actions", I32),
            ("n_violations", I32),
            ("n_discrepancies", I32),
            ("unverified", STRS),
            ("verification", STR),
            ("n_errors", I32),
            ("deal", STR),
            ("facts", STR),
            ("result", STR),
            ("notes", STR),
            ("file", STR),
            ("line", I32),
            ("timeline", U8),
            ("card_points", STR),
        ]
    ),
    # the actions (schema version 8): every action in ``action_rows``, the fields other than
    # seat, type and card in ``action_details`` for the actions that have any; the store keys
    # both by (hand_key, idx) and keeps no hand_id in them (the view ``actions`` joins them)
    "action_rows": pa.schema(
        [
            ("hand_id", STR),
            ("idx", U16),
            ("seat", U8),
            ("type", STR),
            ("card", STR),
            ("legal", BOOL),
            ("violation_code", STR),
            # the step timeline (schema version 9, tarock_logs/store/read/timeline.py): the seat to
            # move and the engine's phase after the action
            ("to_move", U8),
            ("phase", STR),
        ]
    ),
    "action_details": pa.schema(
        [
            ("hand_id", STR),
            ("idx", U16),
            ("cards", STRS),
            ("shown", STRS),
            ("contract", STR),
            ("talon_group", U8),
            ("bonus", STR),
            ("side", STR),
            ("target", STR),
            ("level", U8),
            ("claim", STR),
            ("meld", STR),
            ("raises", STR),
            ("params", STR),
            ("note", STR),
        ]
    ),
    "irregularities": pa.schema(
        [
            ("hand_id", STR),
            ("idx", U16),
            ("type", STR),
            ("seat", U8),
            ("called_by", U8),
            ("kind", STR),
            ("action_index", I32),
            ("trick", I32),
            ("upheld", BOOL),
            ("points", I32),
            ("unit", STR),
            ("detail", STR),
        ]
    ),
    "tricks": pa.schema(
        [
            ("hand_id", STR),
            ("trick_no", U16),
            ("leader", U8),
            ("winner", U8),
            ("seats", pa.list_(U8)),
            ("cards", STRS),
            ("points", I32),
        ]
    ),
    # the step timeline's states where they change (schema version 9)
    "step_states": pa.schema([("hand_id", STR), ("step", U16), ("key", STR), ("value", STR)]),
    "violations": pa.schema(
        [
            ("hand_id", STR),
            ("action_index", I32),
            ("seat", U8),
            ("code", STR),
            ("severity", STR),
            ("message", STR),
            ("rule", STR),
            ("card", STR),
        ]
    ),
    # the findings model (docs/audit.md): a hand's findings, and a session's
    "findings": pa.schema(
        [
            ("hand_id", STR),
            ("level", STR),
            ("action_index", I32),
            ("code", STR),
            ("severity", STR),
            ("message", STR),
            ("player_ids", STRS),
            ("seats", pa.list_(U8)),
            ("players", STR),
            ("rule", STR),
            ("rule_text", STR),
            ("consequence", STR),
            ("item", STR),
            ("recorded", pa.float64()),
            ("recomputed", pa.float64()),
            ("card", STR),
            ("params", STR),
        ]
    ),
    "session_findings": pa.schema(
        [
            ("session_id", STR),
            ("file", STR),
            ("tournament", STR),
            ("code", STR),
            ("severity", STR),
            ("message", STR),
            ("player_ids", STRS),
            ("seats", pa.list_(U8)),
            ("players", STR),
            ("rule", STR),
            ("consequence", STR),
            ("item", STR),
            ("recorded", pa.float64()),
            ("recomputed", pa.float64()),
        ]
    ),
    "score_items": pa.schema(
        [
            ("hand_id", STR),
            ("seat", U8),
            ("item", STR),
            ("recorded", I32),
            ("recomputed", I32),
            ("delta", I32),
        ]
    ),
    "hand_scores": pa.schema(
        [
            ("hand_id", STR),
            ("seat", U8),
            ("player_id", STR),
            ("role", STR),
            ("recorded_total", I32),
            ("recomputed_total", I32),
            ("delta", I32),
            ("radelci_before", I16),
            ("radelci_after", I16),
        ]
    ),
    "session_scores": pa.schema(
        [
            ("session_id", STR),
            ("seat", U8),
            ("player_id", STR),
            ("hands", I32),
            ("recorded_total", I64),
            ("recomputed_total", I64),
            ("delta", I64),
            ("recorded_session_total", I64),
            ("placement_points", pa.float64()),
            ("placement_points_recomputed", pa.float64()),
        ]
    ),
    "rejects": pa.schema(
        [
            ("file", STR),
            ("line", I32),
            ("session", STR),
            ("hand", I32),
            ("hand_index", I32),
            ("raw", STR),
            ("errors", STR),
            ("first_code", STR),
            ("n_errors", I32),
        ]
    ),
}

#: Child tables of a hand (deleted and re-inserted with it).
HAND_CHILDREN = (
    "action_rows", "action_details", "irregularities", "tricks", "violations", "findings",
    "score_items", "hand_scores", "step_states",
)  # fmt: skip
#: Child tables whose batch rows carry their hand's ``hand_id`` (to find their hand in the
#: batch) but whose stored rows do not (they are keyed by ``hand_key`` alone).
KEYED_ONLY = frozenset({"action_rows", "action_details", "step_states"})
#: Child tables of a session (deleted and re-inserted with it).
SESSION_CHILDREN = ("session_players", "session_scores", "session_findings")


DEFAULT_BATCH_HANDS = 2000


class _Columns:
    """Column-wise builder for one table (much faster than a list of row dicts).

    A table is built either column by column (:meth:`add`, or extending ``cols`` directly)
    or row by row (:meth:`row`: one tuple per row, turned into columns once, at the end);
    never both."""

    __slots__ = ("cols", "n", "rows", "schema")

    def __init__(self, schema: pa.Schema) -> None:
        self.schema = schema
        self.cols: dict[str, list[Any]] = {name: [] for name in schema.names}
        self.rows: list[tuple[Any, ...]] = []
        self.n = 0

    def add(self, **row: Any) -> None:
        for name, col in self.cols.items():
            col.append(row.get(name))
        self.n += 1

    def row(self, *values: Any) -> None:
        """One row given positionally, in the schema's column order (the hot tables)."""
        self.rows.append(values)
        self.n += 1

    def table(self) -> pa.Table:
        n = self.n
        if self.rows:
            if len(self.rows) != n or any(self.cols.values()):
                raise AssertionError("a table built both row by row and column by column")
            # rows of unequal length, or of another length than the schema's, raise here
            columns: list[Sequence[Any]] = list(zip(*self.rows, strict=True))
        else:
            columns = [self.cols[name] for name in self.schema.names]
        arrays = []
        for f, col in zip(self.schema, columns, strict=True):
            # a column with no value at all (most action columns in most batches) is made
            # without looking at its n Nones one by one
            if n and col[0] is None and col[-1] is None and col.count(None) == n:
                arrays.append(pa.nulls(n, type=f.type))
            else:
                arrays.append(pa.array(col, type=f.type))
        return pa.Table.from_arrays(arrays, schema=self.schema)


def empty_tables() -> dict[str, pa.Table]:
    return {name: schema.empty_table() for name, schema in SCHEMAS.items()}


def _dumps(obj: Any) -> str | None:
    if obj is None:
        return None
    return orjson.dumps(obj, option=orjson.OPT_SORT_KEYS).decode()


def _date(s: str | None) -> dt.date | None:
    if not s:
        return None
    try:
        return dt.date.fromisoformat(s)
    except ValueError:
        return None


def _items_by_key(
    items: Sequence[tuple[str, int | None, int]] | None, side: list[int]
) -> dict[tuple[str, int | None], int] | None:
    """``{(item, seat): value}`` of an itemised score (its ``(item, seat, value)`` lines), or
    None when it is not itemised.

    A line with seat null (written by every member of the declarer's side) becomes one line
    per member of ``side``, as the audit compares them; it stays null when the side is unknown.
    """
    if not items:
        return None
    out: dict[tuple[str, int | None], int] = {}
    for item, seat, value in items:
        for s in side if seat is None and side else [seat]:
            key = (str(item), s)
            out[key] = out.get(key, 0) + int(value)
    return out


def _sheet_items(block: dict[str, Any] | None) -> list[tuple[str, int | None, int]] | None:
    """The ``(item, seat, value)`` lines of an audit record's score sheet (its ``recorded`` or
    ``recomputed``), None without one."""
    if not block:
        return None
    return [(it["item"], it.get("seat"), it["value"]) for it in block.get("items") or ()]


def _alone_contracts(game: str) -> frozenset[str]:
    """The contracts of ``game`` in which every seat plays for itself (its engine's
    :attr:`~tarock_logs.rules.base.GameEngine.alone_contracts`; the engine asked each time:
    the look-up is a dictionary's, and a cached answer would outlive a stand-in engine)."""
    engine = get_engine(game)
    return engine.alone_contracts if engine is not None else frozenset()


def _role(
    seat: int,
    idle: frozenset[int],
    alone: bool,
    declarer: int | None,
    partner: int | None,
) -> str:
    """A seat's role in a hand; ``alone``: everyone plays for himself (klop)."""
    if seat in idle:
        return "sitting_out"
    if alone:
        return "klop"
    if declarer is None:
        return "unknown"
    if seat == declarer:
        return "declarer"
    if partner is not None and seat == partner:
        return "partner"
    return "defender"


_NOBODY: Final[frozenset[int]] = frozenset()


def _idle(hand: m.Hand, table_size: int) -> frozenset[int]:
    """The seats that sit the hand out at a table of five: the dealer of a hand recorded as
    facts, or the seats dealt no cards; nobody at a table of three or four."""
    if table_size != 5:
        return _NOBODY
    if hand.deal is None:
        return frozenset((hand.dealer,))
    return frozenset(s for s, cards in enumerate(hand.deal.hands) if not cards)


#: the optional columns other than ``card`` and ``note`` (filled per action class)
_SPARSE_ATTRS = tuple((col, attr) for col, attr in ACTION_COLUMNS if col not in ("card", "note"))


def _add_actions(
    rows: _Columns,
    details: _Columns,
    hand_id: str,
    actions: list[Any],
    illegal: set[int],
    first_code: dict[int, str],
    *,
    verified: bool,
    timeline: Any = None,
) -> None:
    """All actions of one hand, column by column (the hot path of a big ingest).

    Every action gets an ``action_rows`` row (seat, type, card and the verdict); the actions
    with any other field (everything but most card plays) get an ``action_details`` row too,
    with the fields their class has (``_DETAIL_SLOTS``). ``legal`` is the engine's verdict
    on the action: False when it raised an error-severity violation, True when the hand was
    verified and it raised none, None when unchecked. ``timeline`` (the replay's
    :class:`~tarock_logs.verdict.replay.Timeline`) gives ``to_move`` and ``phase``: the
    reference's own per action (kind 1), or for a clean hand (kind 2) the next action's seat.
    """
    k = len(actions)
    if not k:
        return
    c = rows.cols
    ds = [a.__dict__ for a in actions]  # a missing attribute on a model is slow to ask for
    c["hand_id"].extend([hand_id] * k)
    c["idx"].extend(range(k))
    c["seat"].extend([d["seat"] for d in ds])
    c["type"].extend([d["type"] for d in ds])
    c["card"].extend([d.get("card") for d in ds])
    if verified:
        c["legal"].extend([i not in illegal for i in range(k)] if illegal else [True] * k)
    else:
        c["legal"].extend([False if i in illegal else None for i in range(k)])
    c["violation_code"].extend([first_code.get(i) for i in range(k)] if first_code else [None] * k)
    kind = timeline.kind if timeline is not None else 0
    if kind == 2:  # every action by the seat to move: after it, the next one's; then nobody
        c["to_move"].extend([d["seat"] for d in ds[1:]])
        c["to_move"].append(None)
        c["phase"].extend([None] * k)
    elif kind == 1:  # the reference's own (fewer when its replay stopped)
        pad = [None] * (k - len(timeline.to_move))
        c["to_move"].extend(timeline.to_move[:k] + pad)
        c["phase"].extend(timeline.phase[:k] + pad)
    else:
        c["to_move"].extend([None] * k)
        c["phase"].extend([None] * k)
    rows.n += k
    by_class = _DETAIL_SLOTS
    play = m.Play
    width = len(_DETAIL_COLUMNS)
    add = details.row
    for i in [i for i, a in enumerate(actions) if type(a) is not play or a.note is not None]:
        a = actions[i]
        d = ds[i]
        slots = by_class.get(type(a))
        if slots is None:
            slots = by_class[type(a)] = _detail_slots(type(a))
        values: list[Any] = [None] * width
        for pos, attr in slots:
            values[pos] = d[attr]
        p = d.get("params")
        if p:
            values[_PARAMS] = _dumps(p)
        values[_NOTE] = d["note"]
        if values.count(None) != width:  # a pass, say, has nothing beyond seat and type
            add(hand_id, i, *values)


#: the columns of ``action_details`` that hold an action's fields, and the places of two
_DETAIL_COLUMNS = tuple(c for c in SCHEMAS["action_details"].names if c not in ("hand_id", "idx"))
_PARAMS = _DETAIL_COLUMNS.index("params")
_NOTE = _DETAIL_COLUMNS.index("note")


def _detail_slots(cls: type) -> tuple[tuple[int, str], ...]:
    """``(place in _DETAIL_COLUMNS, attribute)`` of the fields of :data:`_SPARSE_ATTRS` that
    action class ``cls`` has (the others are null for it)."""
    fields = cls.model_fields  # type: ignore[attr-defined]
    return tuple(
        (_DETAIL_COLUMNS.index(col), attr) for col, attr in _SPARSE_ATTRS if attr in fields
    )


_DETAIL_SLOTS: dict[type, tuple[tuple[int, str], ...]] = {}


#: the tables whose rows the ingest lane gives as Arrow buffers (:class:`_LaneParts`)
_LANE_TABLES: Final = ("action_rows", "tricks", "hand_scores", "score_items")


class _LaneParts:
    """The ``action_rows``, ``tricks``, ``hand_scores`` and ``score_items`` of sessions the
    ingest lane took, as the buffers of their Arrow columns (``lane_hands`` in
    ``_native/module.c``: per hand its counts of rows, per row fixed-width values), gathered
    per batch and made into tables at once (a few vectorised kernels instead of a Python
    object per value)."""

    __slots__ = ("codes", "hand_ids", "parts", "players", "rows", "seats")

    def __init__(self) -> None:
        #: the card tokens and the score items by the codes in the columns (the native
        #: engine's of the sessions' game: parts of one batch share them)
        self.codes: tuple[tuple[str, ...], tuple[str, ...]] | None = None
        self.hand_ids: list[str] = []
        #: per table, the sessions' buffers of each column
        self.parts: tuple[list[tuple[bytes, ...]], ...] = ([], [], [], [])
        #: per hand_scores row, its player's id; per hand, its count of seats
        self.players: list[str] = []
        self.seats: list[bytes] = []
        #: per table its rows so far
        self.rows = [0, 0, 0, 0]

    def add(
        self,
        hand_ids: list[str],
        player_ids: list[str],
        columns: tuple[Any, ...],
        codes: tuple[tuple[str, ...], tuple[str, ...]],
    ) -> None:
        if self.codes is None:
            self.codes = codes
        elif codes != self.codes:
            raise ValueError("the lane's parts of one batch have one card and item numbering")
        self.hand_ids.extend(hand_ids)
        for part, cols in zip(self.parts, columns, strict=True):
            part.append(cols)
        a, t, h, s = columns  # (rows: a column of one byte per row of each table)
        rows = self.rows
        rows[0] += len(a[2])
        rows[1] += len(t[2])
        rows[2] += len(h[0])
        rows[3] += len(s[1])
        self.players.extend(player_ids * len(hand_ids))
        self.seats.append(bytes((len(player_ids),)) * len(hand_ids))

    def tables(self) -> dict[str, pa.Table]:
        ids = pa.array(self.hand_ids, type=STR)
        a, t, h, s = (
            [b"".join(p[k] for p in part) for k in range(len(part[0]))] for part in self.parts
        )
        cards = _lane_cards(self.codes[0] if self.codes else ())
        items = _lane_cards(self.codes[1] if self.codes else ())
        return {
            "action_rows": _lane_actions(ids, cards, *a),
            "tricks": _lane_tricks(ids, cards, *t),
            "hand_scores": _lane_hand_scores(ids, b"".join(self.seats), self.players, *h),
            "score_items": _lane_score_items(ids, items, *s),
        }


def _fixed(kind: pa.DataType, n: int, data: bytes) -> pa.Array:
    return pa.Array.from_buffers(kind, n, [None, pa.py_buffer(data)])


def _per_hand(ids: pa.Array, counts: bytes) -> pa.Array:
    """Each hand's id repeated as often as it has rows (``counts``: one byte per hand)."""
    n = _fixed(U8, len(counts), counts)
    if 0 in counts:  # (a run ends after the last: a hand without rows has none)
        some = pc.not_equal(n, 0)
        ids, n = ids.filter(some), n.filter(some)
    ends = pc.cumulative_sum(n.cast(I32))
    return pc.run_end_decode(pa.RunEndEncodedArray.from_arrays(ends, ids))


def _where(has: pa.Array, values: pa.Array) -> pa.Array:
    """``values`` where ``has`` is not 0, else null."""
    return pc.if_else(pc.not_equal(has, 0), values, pa.scalar(None, type=values.type))


#: the action types and the card tokens by the codes the lane writes (255: no card)
_LANE_TYPES: Final = pa.array(("pass", "bid", "call", "talon", "discard", "play", "lezim",
                               "announce", "kontra", "claim", "meld", "throw_in"),
                              type=STR)  # fmt: skip


@cache
def _lane_cards(cards: tuple[str, ...]) -> pa.Array:
    """The card tokens (or the score items) by the codes the lane writes (255: none)."""
    return pa.array([*cards, *([None] * (256 - len(cards)))], type=STR)


def _lane_actions(
    ids: pa.Array,
    cards: pa.Array,
    count: bytes,
    idx: bytes,
    seat: bytes,
    kind: bytes,
    card: bytes,
) -> pa.Table:
    n = len(seat)
    seats = _fixed(U8, n, seat)
    return pa.Table.from_arrays(
        [
            _per_hand(ids, count),
            _fixed(U16, n, idx),
            seats,
            _LANE_TYPES.take(_fixed(U8, n, kind)),
            cards.take(_fixed(U8, n, card)),
            _fixed(BOOL, n, b"\xff" * ((n + 7) // 8)),  # every action legal
            pa.nulls(n, type=STR),
            _next_seat(seats, idx),
            pa.nulls(n, type=STR),  # (the phase of the next action: timeline.py)
        ],
        schema=SCHEMAS["action_rows"],
    )


def _next_seat(seats: pa.Array, idx: bytes) -> pa.Array:
    """The seat to move after each action of hands the lane took (every action legal, so
    made by the seat to move): the next action's seat, none after a hand's last (where the
    next row's index is 0, a new hand, or there is no next row)."""
    n = len(seats)
    if not n:
        return pa.nulls(0, type=U8)
    nxt = pa.concat_arrays([seats.slice(1), pa.array([0], type=U8)])
    after = _fixed(U16, n, idx[2:] + b"\0\0")  # (the next row's index, 0 past the end)
    return _where(after, nxt)


def _lane_tricks(
    ids: pa.Array, tokens: pa.Array, count: bytes, no: bytes, leader: bytes, winner: bytes,
    points: bytes, ncards: bytes, seats: bytes, cards: bytes,
) -> pa.Table:  # fmt: skip
    n = len(leader)
    ends = pc.cumulative_sum(_fixed(U8, n, ncards).cast(I32))
    offsets = pa.concat_arrays([pa.array([0], type=I32), ends])
    m = len(seats)
    return pa.Table.from_arrays(
        [
            _per_hand(ids, count),
            _fixed(U16, n, no),
            _fixed(U8, n, leader),
            _fixed(U8, n, winner),
            pa.ListArray.from_arrays(offsets, _fixed(U8, m, seats)),
            pa.ListArray.from_arrays(offsets, tokens.take(_fixed(U8, m, cards))),
            _fixed(I32, n, points),
        ],
        schema=SCHEMAS["tricks"],
    )


#: the roles by the codes the lane writes (``_native/module.c``: LN_ROLE_; the score items' names
#: come with the game's native lane: ``NativeLane.items``)
_LANE_ROLES: Final = pa.array(("declarer", "partner", "defender", "klop", "unknown"), type=STR)


def _lane_hand_scores(
    ids: pa.Array, counts: bytes, players: list[str], seat: bytes, role: bytes, rec: bytes,
    rcp: bytes, before: bytes, after: bytes,
) -> pa.Table:  # fmt: skip
    n = len(seat)
    r, c = _fixed(I32, n, rec), _fixed(I32, n, rcp)
    return pa.Table.from_arrays(
        [
            _per_hand(ids, counts),
            _fixed(U8, n, seat),
            pa.array(players, type=STR),
            _LANE_ROLES.take(_fixed(U8, n, role)),
            r,
            c,
            pc.subtract(r, c),
            _radelci(_fixed(I16, n, before)),
            _radelci(_fixed(I16, n, after)),
        ],
        schema=SCHEMAS["hand_scores"],
    )


def _radelci(values: pa.Array) -> pa.Array:
    """A game without radelci writes -1: null."""
    return pc.if_else(pc.less(values, 0), pa.scalar(None, type=values.type), values)


def _lane_score_items(
    ids: pa.Array, items: pa.Array, counts: bytes, item: bytes, seat: bytes, has_seat: bytes,
    rec: bytes, has_rec: bytes, rcp: bytes, has_rcp: bytes,
) -> pa.Table:  # fmt: skip
    n = len(item)
    r = _where(_fixed(U8, n, has_rec), _fixed(I32, n, rec))
    c = _where(_fixed(U8, n, has_rcp), _fixed(I32, n, rcp))
    return pa.Table.from_arrays(
        [
            _per_hand(ids, counts),
            _where(_fixed(U8, n, has_seat), _fixed(U8, n, seat)),
            items.take(_fixed(U8, n, item)),
            r,
            c,
            pc.subtract(r, c),
        ],
        schema=SCHEMAS["score_items"],
    )


class _Batch:
    """The tables under construction for one batch of hands.

    ``action_rows``, ``tricks``, ``hand_scores`` and ``score_items`` gather rows of two kinds,
    in the order of the hands: rows of the careful path in Python lists (:class:`_Columns`),
    rows of the ingest lane as Arrow buffers (:class:`_LaneParts`). Each kind is made into
    tables once (per batch, and per numbering of the lane's cards and items); ``order`` keeps
    per table the runs of rows of each kind, and :meth:`tables` puts the runs' slices together
    in that order (a session whose hands alternate between the kinds costs no table per run)."""

    def __init__(self) -> None:
        self.t = {name: _Columns(schema) for name, schema in SCHEMAS.items()}
        self.hands = 0
        self.lane = _LaneParts()
        #: per table its runs of rows: (source, first, stop), the source a table made already,
        #: _CAREFUL_ROWS (the Python columns) or _LANE_ROWS (the lane's parts so far)
        self.order: dict[str, list[tuple[Any, int, int]]] = {name: [] for name in _LANE_TABLES}
        #: where the open run of each kind began (rows of the careful columns, of the lane's)
        self.mark: dict[str, int] = dict.fromkeys(_LANE_TABLES, 0)
        self.lane_mark: list[int] = [0, 0, 0, 0]
        self.mode = _CAREFUL_ROWS

    def _close(self) -> None:
        """End the open run (of the kind :attr:`mode` says)."""
        for k, name in enumerate(_LANE_TABLES):
            if self.mode is _CAREFUL_ROWS:
                lo, hi = self.mark[name], self.t[name].n
                self.mark[name] = hi
            else:
                lo, hi = self.lane_mark[k], self.lane.rows[k]
                self.lane_mark[k] = hi
            if hi > lo:
                self.order[name].append((self.mode, lo, hi))

    def careful(self) -> None:
        """Before rows of the careful path."""
        if self.mode is not _CAREFUL_ROWS:
            self._close()
            self.mode = _CAREFUL_ROWS

    def lane_parts(self, codes: tuple[tuple[str, ...], tuple[str, ...]]) -> _LaneParts:
        """Before rows of the lane whose card and item codes are ``codes``: its parts (the
        lane's rows so far made into tables first when they number them otherwise)."""
        if self.lane.codes not in (None, codes):
            self.careful()
            self._lane_tables()
        if self.mode is not _LANE_ROWS:
            self._close()
            self.mode = _LANE_ROWS
        return self.lane

    def add_table(self, name: str, t: pa.Table) -> None:
        """Rows of ``name`` made already, after the rows so far."""
        self.careful()
        self._close()
        self.order[name].append((t, 0, t.num_rows))

    def _lane_tables(self) -> None:
        """The lane's rows so far made into tables (their runs now slices of them)."""
        if not self.lane.hand_ids:
            return
        made = self.lane.tables()
        for name in _LANE_TABLES:
            t = made[name]
            self.order[name] = [(t if src is _LANE_ROWS else src, lo, hi)
                                for src, lo, hi in self.order[name]]  # fmt: skip
        self.lane = _LaneParts()
        self.lane_mark = [0, 0, 0, 0]

    def tables(self) -> dict[str, pa.Table]:
        self.careful()
        self._close()
        self._lane_tables()
        out = {}
        for name, c in self.t.items():
            t = c.table()
            runs = self.order.get(name)
            if runs and not (len(runs) == 1 and runs[0][0] is _CAREFUL_ROWS):
                t = pa.concat_tables([(t if src is _CAREFUL_ROWS else src).slice(lo, hi - lo)
                                      for src, lo, hi in runs])  # fmt: skip
            out[name] = t
        return out


#: the kinds of rows of a batch (:class:`_Batch`)
_CAREFUL_ROWS: Final = "careful"
_LANE_ROWS: Final = "lane"


def _add_session_rows(
    b: _Batch,
    session: m.Session,
    file: str,
    line: int | None,
    audit: dict[str, Any],
    n_hands: int,
    where: tuple[int, int] | None,
) -> None:
    """The rows of the session itself: ``sessions``, its findings, ``players`` and
    ``session_players`` (``audit``: ``SessionAudit.to_dict()``; ``n_hands``: the hands of the
    record)."""
    ev = session.event
    b.t["sessions"].add(
        session_id=session.id,
        game=session.game,
        ruleset=session.ruleset,
        table_size=len(session.players),
        event_name=ev.name if ev else None,
        tournament=ev.tournament if ev else None,
        round=ev.round if ev else None,
        table_name=ev.table if ev else None,
        site=ev.site if ev else None,
        date=_date(ev.date) if ev else None,
        first_dealer=session.first_dealer,
        options=_dumps(session.options or None),
        source=_dumps(session.source.model_dump(exclude_none=True) if session.source else None),
        n_hands=n_hands,
        file=file,
        line=line,
        verification=audit.get("verification"),
        byte_start=where[0] if where else None,
        byte_length=where[1] if where else None,
    )
    _add_session_findings(b, session.id, file, audit.get("findings") or [])
    for seat, p in enumerate(session.players):
        b.t["players"].add(player_id=p.id, name=p.name)
        b.t["session_players"].add(
            session_id=session.id, seat=seat, player_id=p.id, pair=p.pair, role=p.role
        )


class _Totals:
    """A session's sums of its stored hands' recorded and recomputed totals per seat (for
    ``session_scores``), and the radelci carried from hand to hand (for ``hand_scores``)."""

    __slots__ = ("counted", "has_rcp", "has_rec", "radelci", "rcp", "rec")

    def __init__(self, n: int) -> None:
        self.rec = [0] * n
        self.rcp = [0] * n
        self.has_rec = [False] * n
        self.has_rcp = [False] * n
        self.counted = 0
        self.radelci = [0] * n


def _add_hand_scores(
    b: _Batch,
    hand_id: str,
    ids: list[str],
    roles: list[str],
    rec_tot: Sequence[int] | None,
    rcp_tot: Sequence[int] | None,
    before: list[int],
    after: bool,
    sums: _Totals,
) -> None:
    """One hand's ``hand_scores`` rows (and its totals added to ``sums``): per seat the
    recorded and recomputed totals, and the radelci before and after the hand (``before``,
    then ``sums.radelci``) when the hand records or recomputes them (``after``)."""
    hs = b.t["hand_scores"]
    radelci = sums.radelci
    for seat in range(len(ids)):
        r = rec_tot[seat] if rec_tot and seat < len(rec_tot) else None
        c = rcp_tot[seat] if rcp_tot and seat < len(rcp_tot) else None
        if r is not None:
            sums.rec[seat] += r
            sums.has_rec[seat] = True
        if c is not None:
            sums.rcp[seat] += c
            sums.has_rcp[seat] = True
        # hand_id, seat, player_id, role, recorded_total, recomputed_total, delta,
        # radelci_before, radelci_after
        hs.row(
            hand_id,
            seat,
            ids[seat],
            roles[seat],
            r,
            c,
            None if r is None or c is None else r - c,
            before[seat] if after else None,
            radelci[seat] if after else None,
        )


def _add_score_items(
    b: _Batch,
    hand_id: str,
    rec: Sequence[tuple[str, int | None, int]] | None,
    rcp: Sequence[tuple[str, int | None, int]] | None,
    side: list[int],
    same: bool = False,
) -> None:
    """One hand's ``score_items`` rows: per (item, seat), lines of the declarer's side
    expanded to its members (``side``), the recorded and recomputed values and their
    difference, in item and seat order. ``same``: the two sheets have the same lines (in
    any order): expanded once."""
    ri = _items_by_key(rec, side)
    ci = ri if same else _items_by_key(rcp, side)
    keys = sorted(set(ri or ()) | set(ci or ()), key=lambda k: (k[0], -1 if k[1] is None else k[1]))
    si = b.t["score_items"]
    for key in keys:
        r = None if ri is None else ri.get(key, 0)
        c = None if ci is None else ci.get(key, 0)
        # hand_id, seat, item, recorded, recomputed, delta
        si.row(hand_id, key[1], key[0], r, c, None if r is None or c is None else r - c)


def _add_session_scores(
    b: _Batch, session: m.Session, sums: _Totals, audit: dict[str, Any]
) -> None:
    """The session's ``session_scores`` rows: per seat the sums of its stored hands, the
    recorded session total and placement points, and the recomputed placement points."""
    recorded = session.recorded
    pp_rcp = audit.get("placement_points")
    tot = recorded.totals if recorded and recorded.totals else None
    pp = recorded.placement_points if recorded and recorded.placement_points else None
    for seat, p in enumerate(session.players):
        rt = sums.rec[seat] if sums.has_rec[seat] else None
        ct = sums.rcp[seat] if sums.has_rcp[seat] else None
        b.t["session_scores"].add(
            session_id=session.id,
            seat=seat,
            player_id=p.id,
            hands=sums.counted,
            recorded_total=rt,
            recomputed_total=ct,
            delta=None if rt is None or ct is None else rt - ct,
            recorded_session_total=tot[seat] if tot and seat < len(tot) else None,
            placement_points=float(pp[seat]) if pp and seat < len(pp) else None,
            placement_points_recomputed=(
                float(pp_rcp[seat]) if pp_rcp and seat < len(pp_rcp) else None
            ),
        )


def _side(declarer: int | None, partner: int | None) -> tuple[list[int], int | None]:
    """The declarer's side (declarer, then partner) and the partner that counts: none when
    the declarer called himself (a self-call: he plays alone)."""
    partner_eff = None if partner is not None and partner == declarer else partner
    if declarer is None:
        return [], partner_eff
    return [declarer] + ([partner_eff] if partner_eff is not None else []), partner_eff


def _add_session(
    b: _Batch,
    session: m.Session,
    file: str,
    line: int | None,
    audited: sources.AuditedSession,
    seen: set[str],
    where: tuple[int, int] | None = None,
) -> int:
    """Add one session and its hands; returns the number of hands added. ``where`` is the
    ``(byte_start, byte_length)`` of the session's record in a plain JSONL file."""
    n = len(session.players)
    _add_session_rows(b, session, file, line, audited.session, len(session.hands), where)
    sums = _Totals(n)
    b.careful()
    added = _add_hands(b, session, file, line, zip(session.hands, audited.hands, strict=True),
                       sums, seen)  # fmt: skip
    _add_session_scores(b, session, sums, audited.session)
    return added


def _add_hands(
    b: _Batch,
    session: m.Session,
    file: str,
    line: int | None,
    hands: Iterable[tuple[m.Hand, tuple[dict[str, Any], Any, Any]]],
    sums: _Totals,
    seen: set[str],
) -> int:
    """The rows of ``hands`` of ``session`` (each with its audit record, tricks and timeline:
    :class:`sources.AuditedSession`), their totals added to ``sums``; returns the number of
    hands added."""
    n = len(session.players)
    ids = [p.id for p in session.players]
    added = 0
    for hand, (audit, tricks, timeline) in hands:
        hand_id = str(audit["hand_id"])
        rec = audit.get("recorded")
        rcp = audit.get("recomputed")
        after = (rcp or {}).get("radelci_after") or (rec or {}).get("radelci_after")
        if hand.radelci_before is not None:  # as on the score sheet (e.g. a mid-round start)
            sums.radelci = [int(x) for x in hand.radelci_before][:n] + [0] * max(
                0, n - len(hand.radelci_before)
            )
        before = list(sums.radelci)
        if after:
            sums.radelci = [int(x) for x in after][:n] + [0] * max(0, n - len(after))
        if hand_id in seen:
            continue
        seen.add(hand_id)
        added += 1
        sums.counted += 1
        contract = audit.get("contract")
        declarer = audit.get("declarer")
        partner = audit.get("partner")
        side, partner_eff = _side(declarer, partner)
        violations = audit.get("violations") or []
        discrepancies = audit.get("discrepancies") or []
        unverified = [str(u) for u in audit.get("unverified") or []]
        # hand_id, session_id, game, ruleset, number, dealer, table_size, contract, declarer,
        # partner, won, legal, verified, n_actions, n_violations, n_discrepancies, unverified,
        # verification, n_errors, deal, facts, result, notes, file, line
        b.t["hands"].row(
            hand_id,
            session.id,
            session.game,
            audit.get("ruleset") or session.ruleset,
            hand.number,
            hand.dealer,
            n,
            contract,
            declarer,
            partner,
            audit.get("won"),
            audit.get("legal"),
            not unverified and rcp is not None,
            len(hand.actions),
            len(violations),
            len(discrepancies),
            unverified,
            audit.get("verification"),
            sum(1 for v in violations if v.get("severity", "error") == "error"),
            _dumps(hand.deal.model_dump(mode="json", exclude_defaults=True) if hand.deal else None),
            _dumps(
                hand.facts.model_dump(mode="json", exclude_defaults=True) if hand.facts else None
            ),
            _dumps(
                hand.result.model_dump(mode="json", exclude_defaults=True) if hand.result else None
            ),
            hand.notes,
            file,
            line,
            timeline.kind if timeline is not None else None,
            _dumps(timeline.card_points) if timeline is not None else None,
        )
        # actions, with the verdict of each
        first_code: dict[int, str] = {}
        illegal: set[int] = set()
        for v in violations:
            ai = v.get("action_index")
            if ai is None:
                continue
            if v.get("severity", "error") == "error":
                illegal.add(ai)
                first_code.setdefault(ai, str(v["code"]))
        for v in violations:
            ai = v.get("action_index")
            if ai is not None:
                first_code.setdefault(ai, str(v["code"]))
        _add_actions(
            b.t["action_rows"],
            b.t["action_details"],
            hand_id,
            hand.actions,
            illegal,
            first_code,
            verified=not unverified,
            timeline=timeline,
        )
        if timeline is not None and timeline.states:
            add_state = b.t["step_states"].row
            for step, key, value in timeline.states:
                add_state(hand_id, step, key, _dumps(value))
        for j, irr in enumerate(hand.irregularities):
            d = irr.__dict__
            offender = d.get("offender", d.get("seat"))
            points = d.get("points", d.get("penalty"))
            detail = {
                k: v
                for k, v in irr.model_dump(mode="json").items()
                if k in ("note", "reason", "decision", "by", "adjustments") and v
            }
            b.t["irregularities"].add(
                hand_id=hand_id,
                idx=j,
                type=irr.type,
                seat=offender,
                called_by=d.get("called_by"),
                kind=d.get("kind"),
                action_index=d.get("action_index"),
                trick=d.get("trick"),
                upheld=d.get("upheld"),
                points=points,
                unit=d.get("unit"),
                detail=_dumps(detail) if detail else None,
            )
        if isinstance(tricks, TrickRows):  # the engine's columns: taken as they are
            _add_trick_columns(b, hand_id, tricks)
        elif tricks:  # column by column: a dozen rows per hand
            tc = b.t["tricks"]
            tcol = tc.cols
            k = len(tricks)
            tcol["hand_id"].extend([hand_id] * k)
            tcol["trick_no"].extend(range(1, k + 1))
            tcol["leader"].extend([tr.get("leader") for tr in tricks])
            tcol["winner"].extend([tr.get("winner") for tr in tricks])
            seats_col, cards_col = tcol["seats"], tcol["cards"]
            for tr in tricks:  # [[seat, card], ...] -> (seats...), (cards...)
                played = tr.get("cards")
                if played:
                    s_, c_ = zip(*played, strict=True)
                    seats_col.append(s_)
                    cards_col.append(c_)
                else:
                    seats_col.append(())
                    cards_col.append(())
            tcol["points"].extend([tr.get("points") for tr in tricks])
            tc.n += k
        for f in audit.get("findings") or ():
            players = f.get("players") or []
            b.t["findings"].add(
                hand_id=hand_id,
                level=f["level"],
                action_index=f.get("action_index"),
                code=f["code"],
                severity=f["severity"],
                message=f["message"],
                player_ids=[p["id"] for p in players],
                seats=[p["seat"] for p in players if p.get("seat") is not None],
                players=_dumps(players),
                rule=f.get("rule"),
                rule_text=_dumps(f.get("rule_text") or None),
                consequence=f.get("consequence"),
                item=f.get("item"),
                recorded=f.get("recorded"),
                recomputed=f.get("recomputed"),
                card=f.get("card"),
                params=_dumps(f.get("params") or None),
            )
        for v in violations:
            b.t["violations"].add(
                hand_id=hand_id,
                action_index=v.get("action_index"),
                seat=v.get("seat"),
                code=v["code"],
                severity=v.get("severity") or "error",
                message=v.get("message"),
                rule=v.get("rule"),
                card=v.get("card"),
            )
        _add_score_items(b, hand_id, _sheet_items(rec), _sheet_items(rcp), side)
        idle = _idle(hand, n)
        alone = contract in _alone_contracts(session.game)
        roles = [_role(seat, idle, alone, declarer, partner_eff) for seat in range(n)]
        _add_hand_scores(b, hand_id, ids, roles, (rec or {}).get("totals"),
                         (rcp or {}).get("totals"), before, bool(after), sums)  # fmt: skip
    return added


def _add_trick_columns(b: _Batch, hand_id: str, tricks: Any) -> None:
    """A hand's ``tricks`` rows from the engine's columns (leaders, winners, seats, cards,
    points: :class:`~tarock_logs.rules.base.TrickRows`, or the lane's tuple of them)."""
    leaders, winners, seats, cards, points = tricks
    tc = b.t["tricks"]
    tcol = tc.cols
    k = len(leaders)
    tcol["hand_id"].extend([hand_id] * k)
    tcol["trick_no"].extend(range(1, k + 1))
    tcol["leader"].extend(leaders)
    tcol["winner"].extend(winners)
    tcol["seats"].extend(seats)
    tcol["cards"].extend(cards)
    tcol["points"].extend(points)
    tc.n += k


def _add_lane_session(
    b: _Batch,
    ls: Any,
    file: str,
    line: int | None,
    seen: set[str],
    where: tuple[int, int] | None = None,
) -> int:
    """Add a session the ingest lane took (:class:`tarock_logs.store.write.lane.LaneSession`) and
    its hands: the rows :func:`_add_session` makes of the same record, from the lane's
    columns for the hands its native engine played (every one verified, legal and scored as
    recorded: no violation, finding, irregularity or difference) and as :func:`_add_session`
    makes them for the hands the reference audited (``lane.RefHand``). Returns the number of
    hands added."""
    session = ls.session
    n = len(session.players)
    audit = ls.audit
    _add_session_rows(b, session, file, line, audit, len(ls.hands), where)
    sums = _Totals(n)
    added = done = 0
    for first, stop, columns in [*ls.runs, (len(ls.hands), len(ls.hands), None)]:
        if done < first:  # hands the reference audited, in the careful path's rows
            b.careful()
            added += _add_hands(b, session, file, line,
                                ((h.hand, h.rows) for h in ls.hands[done:first]), sums,
                                seen)  # fmt: skip
        if columns is not None:
            added += _add_lane_hands(b, ls, ls.hands[first:stop], columns, file, line, sums, seen)
        done = stop
    _add_session_scores(b, session, sums, audit)
    return added


def _add_lane_hands(
    b: _Batch,
    ls: Any,
    hands: list[Any],
    columns: tuple[Any, ...],
    file: str,
    line: int | None,
    sums: _Totals,
    seen: set[str],
) -> int:
    """A run of ``hands`` of a lane session that its native engine played (``lane.LaneHand``)
    with their ``columns``, their totals added to ``sums``; returns the number added."""
    session = ls.session
    n = len(session.players)
    ids = [p.id for p in session.players]
    ruleset = ls.ruleset
    hands_row = b.t["hands"].row  # (the columns of SCHEMAS["hands"], in order)
    details = b.t["action_details"]
    hand_ids = [lh.raw[0] for lh in hands]  # (distinct: a hand's number is in its hash)
    dups = seen.intersection(hand_ids)
    if not dups:
        b.lane_parts(ls.codes).add(hand_ids, ids, columns, ls.codes)
    else:  # hands stored already from this file: their rows go, the session's others stay
        one = _LaneParts()
        one.add(hand_ids, ids, columns, ls.codes)
        gone = pa.array(sorted(dups), type=STR)
        for name, t in one.tables().items():
            b.add_table(name, t.filter(pc.invert(pc.is_in(t["hand_id"], value_set=gone))))
    added = 0
    rec_sums, rcp_sums = sums.rec, sums.rcp
    for lh in hands:
        raw = lh.raw
        hand_id = raw[0]
        radelci = raw[7][6]
        if radelci is not None:  # (carried on: a hand the reference audits after it starts so)
            sums.radelci = list(radelci)
        if hand_id in seen:
            continue
        seen.add(hand_id)
        added += 1
        hands_row(hand_id, session.id, session.game, ruleset, raw[3], raw[4], n, lh.contract,
                  lh.declarer, lh.partner, lh.won, True, True, raw[6], 0, 0, [], "verified",
                  0, raw[1], None, raw[2], raw[5], file, line, 2, None)  # fmt: skip
        if raw[11]:
            details.rows.extend(raw[11])
            details.n += len(raw[11])
        # the session's sums (hand_scores' rows are the lane's columns)
        for seat, (r, c) in enumerate(zip(lh.recorded.totals, lh.recomputed.totals, strict=True)):
            rec_sums[seat] += r
            rcp_sums[seat] += c
    if added:
        sums.has_rec = sums.has_rcp = [True] * n
    sums.counted += added
    return added


def _add_session_findings(
    b: _Batch, session_id: str, file: str, findings: list[dict[str, Any]]
) -> None:
    """The session-level findings of one session record (``SessionAudit.to_dict()``)."""
    for f in findings:
        players = f.get("players") or []
        b.t["session_findings"].add(
            session_id=session_id,
            file=file,
            tournament=f.get("tournament"),
            code=f["code"],
            severity=f["severity"],
            message=f["message"],
            player_ids=[p["id"] for p in players],
            seats=[p["seat"] for p in players if p.get("seat") is not None],
            players=_dumps(players),
            rule=f.get("rule"),
            consequence=f.get("consequence"),
            item=f.get("item"),
            recorded=f.get("recorded"),
            recomputed=f.get("recomputed"),
        )


#: the range of the store's INTEGER columns
_I32_MIN: Final = -(2**31)
_I32_MAX: Final = 2**31 - 1


def _add_reject(b: _Batch, file: str, rj: sources.Rejected) -> None:
    errors = rj.errors or [{"code": "error", "message": "rejected"}]
    # a rejected hand's number is what the log wrote, checked by nothing: one beyond the
    # column's integers is kept in the raw text only (it crashed the ingest before)
    hand = rj.hand if rj.hand is None or _I32_MIN <= rj.hand <= _I32_MAX else None
    b.t["rejects"].add(
        file=file,
        line=rj.line,
        session=rj.session,
        hand=hand,
        hand_index=rj.hand_index,
        raw=rj.raw,
        errors=_dumps(errors),
        first_code=str(errors[0].get("code")),
        n_errors=len(errors),
    )


#: Whether :func:`iter_batches` offers each record of a JSONL file to the ingest lane
#: (:mod:`tarock_logs.store.write.lane`) first. Switch off to measure or debug the careful path
#: alone (the rows are the same either way: tests/store/test_lane.py).
LANE = True


class _Taken:
    """A record the ingest lane took: the lane's session and the record's line."""

    __slots__ = ("line", "ls")

    def __init__(self, ls: Any, line: int) -> None:
        self.ls = ls
        self.line = line


def _lane_for(reader_file: str) -> Any:
    """The reader's fast lane for the records of one file (None without the native core):
    :func:`tarock_logs.store.write.lane.reader_lane`, each session it takes with its line."""
    from tarock_logs.store.write import lane

    read = lane.reader_lane(reader_file)
    if read is None:
        return None

    def take(chunk: bytes, line: int) -> _Taken | None:
        ls = read(chunk, line)
        return None if ls is None else _Taken(ls, line)

    return take


def iter_batches(
    path: str | Path,
    *,
    batch_hands: int = DEFAULT_BATCH_HANDS,
    file: str | None = None,
    span: Any = None,
    counts: dict[str, int] | None = None,
) -> Iterator[dict[str, pa.Table]]:
    """The store tables of one file, in batches of about ``batch_hands`` hands.

    The last batch carries the file's ``raw_logs`` row (sha256, size and counts). ``file`` is
    the name stored (default: :func:`sources.file_key` of ``path``).

    With ``span`` (:func:`sources.split_jsonl`) only those lines are read and no ``raw_logs``
    row is made: the part's ``n_sessions``, ``n_hands`` and ``n_rejected`` go into
    ``counts`` instead, for the caller to add up over the file's parts.
    """
    p = Path(path)
    name = file if file is not None else sources.file_key(p)
    digest, size = sources.sha256_file(p) if span is None else ("", 0)
    b = _Batch()
    seen: set[str] = set()
    n_sessions = n_hands = n_rejected = 0
    lines = sources.LineStarts.of(p, span)
    fast = _lane_for(str(p)) if LANE else None
    with bulk_gc():  # the collector set for a bulk replay (verdict/bulk.py)
        for rec in sources.read_file(p, span, fast):
            if isinstance(rec, _Taken):  # a session the ingest lane took
                where = lines.span(rec.line) if lines is not None else None
                added = _add_lane_session(b, rec.ls, name, rec.line, seen, where)
                n_sessions += 1
                n_hands += added
                b.hands += added
                if b.hands >= batch_hands:
                    yield b.tables()
                    b = _Batch()
                continue
            for rj in rec.rejected:
                _add_reject(b, name, rj)
                n_rejected += 1
            if rec.session is not None:
                try:
                    audited = sources.audit_session(rec.session, name)
                except Exception as exc:  # noqa: BLE001 - an audit crash rejects the session only
                    _add_reject(
                        b,
                        name,
                        sources.Rejected(
                            rec.line,
                            rec.session.id,
                            None,
                            None,
                            "",
                            [
                                {
                                    "code": "store.audit_failed",
                                    "message": f"{type(exc).__name__}: {exc}",
                                    "file": name,
                                    "line": rec.line,
                                    "session": rec.session.id,
                                }
                            ],
                        ),
                    )
                    n_rejected += 1
                    continue
                n_sessions += 1
                where = lines.span(rec.line) if lines is not None and rec.line else None
                added = _add_session(b, rec.session, name, rec.line, audited, seen, where)
                n_hands += added  # distinct hands of the file (a repeat within it counts once)
                b.hands += added
            if b.hands >= batch_hands:
                yield b.tables()
                b = _Batch()
    if span is None:
        b.t["raw_logs"].add(
            file=name,
            sha256=digest,
            size=size,
            n_sessions=n_sessions,
            n_hands=n_hands,
            n_rejected=n_rejected,
        )
    elif counts is not None:
        counts.update(n_sessions=n_sessions, n_hands=n_hands, n_rejected=n_rejected)
    yield b.tables()


def raw_logs_row(file: str, digest: str, size: int, counts: dict[str, int]) -> pa.Table:
    """The ``raw_logs`` table of one file read in parts (the parts' ``counts`` added up)."""
    c = _Columns(SCHEMAS["raw_logs"])
    c.add(
        file=file,
        sha256=digest,
        size=size,
        n_sessions=counts.get("n_sessions", 0),
        n_hands=counts.get("n_hands", 0),
        n_rejected=counts.get("n_rejected", 0),
    )
    return c.table()


def process_shard(path: str | Path) -> dict[str, pa.Table]:
    """All store tables of one file (one :class:`pyarrow.Table` per table in :data:`SCHEMAS`).

    Pure and deterministic: the same bytes give the same tables, and nothing is written.
    """
    parts: dict[str, list[pa.Table]] = {name: [] for name in SCHEMAS}
    for batch in iter_batches(path, batch_hands=1 << 30):
        for name, t in batch.items():
            parts[name].append(t)
    return {
        name: pa.concat_tables(ts) if ts else SCHEMAS[name].empty_table()
        for name, ts in parts.items()
    }
