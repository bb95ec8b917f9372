"""Rows back to models: a stored session as the log's :class:`~tarock_logs.log.models.Session`.

:func:`load_session` gives the session of one stored ``session_id`` with the ids of its stored
hands. It prefers the log itself, read again from the file the ingest found it in when that
file is unchanged (same sha256): exact, it keeps what the store does not (the source's own
hand ids, a thrown-in deal's reason). Otherwise it rebuilds the session document from the
store's raw facts (sessions, players, deals, actions, irregularities, recorded results) and
validates it with the log format's own models, so either way the caller holds what the reader
would have given.

A session of a plain JSONL file is read back by its byte span (``sessions.byte_start`` and
``byte_length``), not by reading and hashing the whole file again.

The store's columns for a log action's fields are :data:`tarock_logs.store.schema.ACTION_COLUMNS`
(written by the ingest); :func:`action_from_row` reads them back.
"""

from __future__ import annotations

import typing
from pathlib import Path
from typing import Any

import duckdb
import orjson
import polars as pl

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_bytes, read_file
from tarock_logs.store.read.queries import fetch, frame
from tarock_logs.store.schema import ACTION_COLUMNS
from tarock_logs.store.sources import read_span, sha256_file
from tarock_logs.verdict.audit import hand_content_hash

__all__ = ["action_from_row", "irregularity_from_row", "load_session"]


def _columns_by_type() -> dict[str, tuple[tuple[str, str], ...]]:
    """For each log action type (``bid``, ``play``...), the ``(column, field)`` pairs of the
    ``actions`` table its model has, read from the log format's models (``note`` apart)."""
    union = typing.get_args(m.Action)[0]
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    for cls in typing.get_args(union):
        fields = cls.model_fields
        (action_type,) = typing.get_args(fields["type"].annotation)
        pairs = [(col, f) for col, f in ACTION_COLUMNS if f in fields and f != "note"]
        if "params" in fields:
            pairs.append(("params", "params"))
        out[action_type] = tuple(pairs)
    return out


_COLUMNS_BY_TYPE = _columns_by_type()


def _json(value: Any) -> Any:
    """A JSON column's value decoded (DuckDB gives JSON as text); other values as they are."""
    if isinstance(value, str):
        return orjson.loads(value)
    return value


def action_from_row(row: dict[str, Any]) -> dict[str, Any]:
    """One ``actions`` row as the log-format dict of its action (only its type's fields)."""
    t = row["type"]
    d: dict[str, Any] = {"type": t, "seat": int(row["seat"])}
    for col, f in _COLUMNS_BY_TYPE.get(t, ()):
        v = row.get(col)
        if f == "params":
            v = _json(v) or {}
        elif f in ("cards", "shown"):
            v = list(v or [])
        if v is None:
            continue
        d[f] = int(v) if f in ("group", "level") else v
    if row.get("note"):
        d["note"] = row["note"]
    return d


def irregularity_from_row(row: dict[str, Any]) -> dict[str, Any]:
    """One ``irregularities`` row as the log-format dict of its irregularity (a renons,
    misdeal, penalty or arbiter's ruling; the ruling's text and adjustments from ``detail``)."""
    detail = _json(row.get("detail"))
    if isinstance(detail, dict) and detail.get("type") == row["type"]:
        return detail
    t = row["type"]
    d: dict[str, Any]
    if t == "renons":
        d = {
            "type": t,
            "offender": row["seat"],
            "called_by": row["called_by"],
            "kind": row["kind"] or "other",
            "action_index": row["action_index"],
            "trick": row["trick"],
            "upheld": True if row["upheld"] is None else row["upheld"],
        }
    elif t == "misdeal":
        d = {"type": t, "seat": row["seat"], "penalty": row["points"]}
    elif t == "penalty":
        d = {
            "type": t,
            "seat": row["seat"],
            "points": row["points"] or 0,
            "unit": row["unit"] or "game",
        }
    else:
        d = {
            "type": t,
            "decision": (detail or {}).get("decision", "(ruling)")
            if isinstance(detail, dict)
            else "(ruling)",
        }
        if isinstance(detail, dict) and detail.get("adjustments"):
            d["adjustments"] = detail["adjustments"]
    return {k: v for k, v in d.items() if v is not None}


def _session_from_source(cur: duckdb.DuckDBPyConnection, s: dict[str, Any]) -> m.Session | None:
    """The session exactly as logged, read again from its file, if that file is still where
    the ingest found it; else None.

    A session of a plain JSONL file is read by its stored byte span alone when the file still
    has the size it had (the caller then checks every stored hand's content hash against the
    record); any other file is read whole, and only when its sha256 is unchanged."""
    file = s.get("file")
    if not file:
        return None
    known = fetch(cur, "SELECT sha256, size FROM raw_logs WHERE file = ?", [file])
    path = Path(file)
    if not known or not path.is_file():
        return None
    start, length = s.get("byte_start"), s.get("byte_length")
    try:
        if start is not None and length is not None:
            if path.stat().st_size != known[0][1]:
                return None
            data = read_span(path, int(start), int(length))
            for rec in read_bytes(data, file=str(path), kind="jsonl"):
                if rec.session is not None and rec.session.id == s["session_id"]:
                    return rec.session
            return None
        if sha256_file(path)[0] != known[0][0]:
            return None
        for rec in read_file(path):
            if rec.session is not None and rec.session.id == s["session_id"]:
                if s.get("line") is None or rec.line is None or rec.line == s["line"]:
                    return rec.session
    except OSError:
        return None
    return None


def _stored_part_of(
    cur: duckdb.DuckDBPyConnection, session: m.Session
) -> tuple[m.Session, list[str]] | None:
    """``session`` (as logged) cut to its stored hands with their ids, or None when the store
    holds a hand the logged session does not have."""
    stored = {
        r[0] for r in fetch(cur, "SELECT hand_id FROM hands WHERE session_id = ?", [session.id])
    }
    pairs = [(h, hand_content_hash(session, h)) for h in session.hands]
    kept = [(h, hid) for h, hid in pairs if hid in stored]
    if {hid for _, hid in kept} != stored:
        return None
    return session.model_copy(update={"hands": [h for h, _ in kept]}), [hid for _, hid in kept]


def _players_doc(cur: duckdb.DuckDBPyConnection, session_id: str) -> list[dict[str, Any]]:
    """The session's ``players`` (by seat), as the log format writes them."""
    players = frame(
        cur,
        """SELECT sp.seat, sp.player_id, pl.name, sp.pair, sp.role
           FROM session_players sp LEFT JOIN players pl USING (player_id)
           WHERE sp.session_id = ? ORDER BY sp.seat""",
        [session_id],
    ).to_dicts()
    out = []
    for p in players:
        d = {"id": p["player_id"], "name": p["name"], "pair": p["pair"], "role": p["role"]}
        out.append({k: v for k, v in d.items() if v is not None})
    return out


def _recorded_doc(cur: duckdb.DuckDBPyConnection, session_id: str) -> dict[str, Any]:
    """The session's ``recorded`` totals and placement points (empty when none was logged)."""
    rec = fetch(
        cur,
        """SELECT list(recorded_session_total ORDER BY seat), list(placement_points ORDER BY seat)
           FROM session_scores WHERE session_id = ?""",
        [session_id],
    )
    recorded: dict[str, Any] = {}
    if rec and rec[0][0] is not None:
        totals, pp = rec[0]
        if totals and all(x is not None for x in totals):
            recorded["totals"] = [int(x) for x in totals]
        if pp and all(x is not None for x in pp):
            recorded["placement_points"] = [
                int(x) if float(x).is_integer() else float(x) for x in pp
            ]
    return recorded


def _hands_doc(
    cur: duckdb.DuckDBPyConnection, session_id: str
) -> tuple[list[dict[str, Any]], list[str]]:
    """The session's stored hands as log-format dicts (in playing order) and their ids."""
    hands = frame(
        cur,
        """SELECT hand_id, hand_key, number, dealer, deal, facts, result, notes FROM hands
           WHERE session_id = ? ORDER BY number""",
        [session_id],
    ).to_dicts()
    # the hands' child rows by their integer keys, within the keys' range (zone maps)
    keys = [int(h["hand_key"]) for h in hands] or [-1]
    in_keys = f"hand_key BETWEEN ? AND ? AND hand_key IN ({', '.join('?' * len(keys))})"
    span = [min(keys), max(keys), *keys]
    acts = frame(
        cur,
        f"SELECT * EXCLUDE (legal, violation_code) FROM actions WHERE {in_keys} "
        "ORDER BY hand_id, idx",
        span,
    ).with_columns(pl.col("type").cast(pl.String))
    irr = frame(cur, f"SELECT * FROM irregularities WHERE {in_keys} ORDER BY hand_id, idx", span)
    acts_by: dict[str, list[dict[str, Any]]] = {}
    for row in acts.to_dicts():
        acts_by.setdefault(row["hand_id"], []).append(action_from_row(row))
    irr_by: dict[str, list[dict[str, Any]]] = {}
    for row in irr.to_dicts():
        irr_by.setdefault(row["hand_id"], []).append(irregularity_from_row(row))
    docs = []
    for h in hands:
        hd: dict[str, Any] = {
            "number": int(h["number"]),
            "dealer": int(h["dealer"]),
            "actions": acts_by.get(h["hand_id"], []),
            "irregularities": irr_by.get(h["hand_id"], []),
        }
        if h.get("deal") is not None:
            hd["deal"] = _json(h["deal"])
        if h.get("facts") is not None:  # a hand recorded as facts (format 1.1)
            hd["facts"] = _json(h["facts"])
        if h.get("result") is not None:
            hd["result"] = _json(h["result"])
        if h.get("notes"):
            hd["notes"] = h["notes"]
        docs.append(hd)
    return docs, [h["hand_id"] for h in hands]


def load_session(
    cur: duckdb.DuckDBPyConnection, session_id: str, *, prefer_source: bool = True
) -> tuple[m.Session, list[str]] | None:
    """The session of the log with its stored hands' ids (``hand_id`` = the audit's content
    hash), or None for an unknown session.

    With ``prefer_source`` the session is read again from its log file when that file is
    unchanged since the ingest (exact: it keeps what the store does not, such as the source's
    hand ids); otherwise it is rebuilt from the store's raw facts (sessions, players, deals,
    actions, irregularities, recorded results). Either way only the stored hands are included,
    in playing order, and ``ids[i]`` is the id of ``session.hands[i]``.
    """
    srows = frame(
        cur, "SELECT * FROM sessions WHERE session_id = ? LIMIT 1", [session_id]
    ).to_dicts()
    if not srows:
        return None
    s = srows[0]
    if prefer_source:
        exact = _session_from_source(cur, s)
        if exact is not None:
            stored = _stored_part_of(cur, exact)
            if stored is not None:
                return stored
    event = {
        "tournament": s.get("tournament"),
        "name": s.get("event_name"),
        "date": str(s["date"]) if s.get("date") else None,
        "site": s.get("site"),
        "round": s.get("round"),
        "table": s.get("table_name"),
    }
    event = {k: v for k, v in event.items() if v is not None}
    hands, ids = _hands_doc(cur, session_id)
    doc: dict[str, Any] = {
        "format": m.FORMAT_NAME,
        "format_version": m.FORMAT_VERSION,
        "id": s["session_id"],
        "game": str(s["game"]),
        "ruleset": s["ruleset"],
        "options": _json(s.get("options")) or {},
        "players": _players_doc(cur, session_id),
        "hands": hands,
    }
    if event:
        doc["event"] = event
    if s.get("first_dealer") is not None:
        doc["first_dealer"] = int(s["first_dealer"])
    recorded = _recorded_doc(cur, session_id)
    if recorded:
        doc["recorded"] = recorded
    session = m.SessionAdapter.validate_python(doc, strict=False)
    version = m.format_version_for(session)  # 1.1 when it holds hands recorded as facts
    if version != session.format_version:
        session = session.model_copy(update={"format_version": version})
    return session, ids
