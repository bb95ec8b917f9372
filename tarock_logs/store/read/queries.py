"""The store's read API: what the dashboard and ``tarock stats`` ask the database.

Every query takes a DuckDB cursor of a **read-only** connection (:func:`connect_reader`) as
its first argument, binds values with ``?`` and drains its result. Nothing here renders or
replays: the rows come back as polars frames, dicts or plain values, and the dashboard's view
model (``dashboard/view_model.py``) and pages present them. The statistics themselves are
:mod:`tarock_logs.store.read.stats`; the wrappers at the end take its filters as plain (hashable)
values, so a caller can cache each result per database version.

Kinds of finding (:data:`FINDING_KINDS`): an *illegal* action (a violation citing the rule it
breaks), a score *discrepancy* (a score item whose recorded value differs from the recomputed
one) and an *unverified* item (something the engine could not check). Every hand, session and
tournament is in one verification state (:data:`VERIFICATION_STATES`); findings of sessions
(totals, placement points) and tournaments (standings) are listed by :func:`session_findings`
and :func:`tournament_findings` (docs/audit.md).
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.csv as pacsv

from tarock_logs.store.connect import LOCKED_DOWN, connect_readonly, db_fingerprint
from tarock_logs.store.pseudonyms import STORE_KEY_SQL
from tarock_logs.store.read.stats import (
    SECTIONS,
    Filters,
    contra_success,
    count_game_hands_for,
    count_hands_for,
    game_contracts,
    game_hands_for,
    game_hands_for_sql,
    game_players,
    game_roles,
    hands_for,
    hands_for_sql,
    head_to_head,
    pair_matches,
    pair_standings,
    partners,
    schlemme,
    score_timeline,
    thrown_in,
)

#: the per-game statistics tables of the Players page (store/read/stats.py, "per game")
GAME_SECTIONS = {
    "players": game_players,
    "roles": game_roles,
    "contracts": game_contracts,
    "kontras": contra_success,
    "partners": partners,
    "head_to_head": head_to_head,
    "schlemm": schlemme,
    "matches": pair_matches,
    "pairs": pair_standings,
}

#: Kinds of finding the audit page filters on.
FINDING_KINDS = ("illegal", "discrepancy", "unverified")
#: The verification states (docs/audit.md), best first.
VERIFICATION_STATES = ("verified", "partial", "unverified")
#: a stored hand's illegal actions (errors only); rows stored before: every violation
_HAND_ERRORS = "coalesce(h.n_errors, h.n_violations)"
#: a stored hand's state; rows stored before the states existed: from ``verified``
_HAND_STATE = "coalesce(h.verification, CASE WHEN h.verified THEN 'verified' ELSE 'partial' END)"


# --------------------------------------------------------------------------- connection


#: the memory a long-lived reader's queries may hold at once (one visitor's uncached statistics
#: must not starve the others or the server); ``TAROCK_READER_MEMORY_LIMIT`` sets another
#: (``tarock dashboard --workers N`` gives each of its N servers a share: docs/dashboard.md)
READER_MEMORY_LIMIT = "1GB"


def reader_memory_limit() -> str:
    """The reader's DuckDB ``memory_limit``: ``TAROCK_READER_MEMORY_LIMIT`` when set (a DuckDB
    size such as ``512MB``), else :data:`READER_MEMORY_LIMIT`."""
    return os.environ.get("TAROCK_READER_MEMORY_LIMIT") or READER_MEMORY_LIMIT


def connect_reader(
    path: str | os.PathLike[str], retries: int = 40, delay: float = 0.05
) -> duckdb.DuckDBPyConnection:
    """Open the store at ``path`` read-only for the read API (the store's
    :func:`~tarock_logs.store.connect.connect_readonly`: retries briefly on lock errors),
    locked down (:data:`~tarock_logs.store.connect.LOCKED_DOWN`: no file, network or
    extension access, the configuration locked) and with modest resources (2 threads,
    :data:`READER_MEMORY_LIMIT`) for a long-lived reader such as the dashboard."""
    return connect_readonly(
        path,
        retries=retries,
        delay=delay,
        config={"threads": 2, "memory_limit": reader_memory_limit(), **LOCKED_DOWN},
    )


#: the name :func:`connect_version` attaches the store under
VERSION_CATALOG = "store"


def connect_version(
    path: str | os.PathLike[str], retries: int = 40, delay: float = 0.05
) -> tuple[duckdb.DuckDBPyConnection, tuple[int, int]]:
    """A reader of the store version published at ``path`` now, and that version's
    :func:`~tarock_logs.store.connect.db_fingerprint`: what a long-lived reader (the dashboard)
    keeps one of per published version, so that a reader of the old version can finish on it
    while new readers open the new one.

    Each call is a DuckDB instance of its own (in memory) that attaches the file read-only as
    :data:`VERSION_CATALOG`: ``duckdb.connect(path)`` shares one instance per path within a
    process, which cannot hold two versions of one path side by side. The reader has the
    modest resources and the lockdown of :func:`connect_reader` (set after the attach, then
    locked). The fingerprint is taken before and after the attach: equal, the attached file is
    that version (a publish replaces the file, it never comes back); else it opens again.
    The store is the default database of its cursors. Lock errors are retried as
    :func:`~tarock_logs.store.connect.connect_readonly` does."""
    for _ in range(10):
        before = db_fingerprint(path)
        con = duckdb.connect(
            ":memory:",
            config={
                "threads": 2,
                "memory_limit": reader_memory_limit(),
                "temp_directory": f"{os.fspath(path)}.tmp",
                "autoload_known_extensions": False,
                "autoinstall_known_extensions": False,
            },
        )
        try:
            attempt = 0
            while True:
                try:
                    con.execute(f"ATTACH ? AS {VERSION_CATALOG} (READ_ONLY)", [os.fspath(path)])
                    break
                except (duckdb.IOException, duckdb.ConnectionException) as exc:
                    attempt += 1
                    text = str(exc).lower()
                    if attempt > retries or not ("lock" in text or "conflicting" in text):
                        raise
                    time.sleep(delay * min(attempt, 5))
            # the store becomes the default database of every cursor of the instance
            con.execute(f"USE {VERSION_CATALOG}")
            con.execute("DETACH memory")
            for name, value in LOCKED_DOWN.items():
                con.execute(f"SET {name} = {str(value).lower()}")
        except BaseException:
            con.close()
            raise
        if db_fingerprint(path) == before:
            return con, before
        con.close()  # published anew while it was attached: open the newer one
    raise duckdb.IOException("the store was published anew while it was being opened, repeatedly")


def pseudonym_key(cur: duckdb.DuckDBPyConnection) -> str:
    """The store's pseudonym key (:mod:`tarock_logs.store.pseudonyms`; empty for a store made
    before stores had one): the dashboard masks names in Python with the key the statistics'
    SQL uses."""
    # fetchall, not fetchone: DuckDB 2 keeps a half-read result open on the cursor, and the
    # page's next query on it would fail
    rows = cur.execute(f"SELECT {STORE_KEY_SQL}").fetchall()
    return str(rows[0][0]) if rows and rows[0][0] is not None else ""


#: the tables every page reads: a store without them is not one the dashboard can serve
_REQUIRED_TABLES = ("sessions", "hands", "players", "rejects")


def store_problem(path: str | os.PathLike[str]) -> str | None:
    """Why the file at ``path`` cannot be served, in one plain sentence (no traceback, no
    internals); None when it is a tarock-logs store this version reads. Checked by
    ``tarock dashboard`` before the server starts and by the dashboard when a page cannot
    read its store."""
    from tarock_logs.store.schema import applied_versions, latest_version

    p = Path(path)
    if not p.is_file():
        return f"there is no database file at {p}"
    if p.stat().st_size == 0:
        return "the file is empty: it is not a tarock-logs store"
    try:
        con = connect_reader(p, retries=2)
    except (duckdb.Error, OSError) as exc:
        return f"DuckDB cannot open it as a database ({_first_line(exc)})"
    try:
        versions = applied_versions(con)
        if not versions:
            return "it is a DuckDB file without the tarock-logs schema"
        newest, known = max(versions), latest_version()
        if newest > known:
            return (
                f"its schema version {newest} is newer than this tarock-logs reads ({known}): "
                "upgrade tarock-logs"
            )
        names = {
            str(n) for (n,) in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()
        }
        missing = [t for t in _REQUIRED_TABLES if t not in names]
        if missing:
            return f"it lacks the tables {', '.join(missing)} of a tarock-logs store"
        for table in _REQUIRED_TABLES:  # every page reads them: they must read to the end
            con.execute(f"SELECT count(*) FROM {table}").fetchall()
    except (duckdb.Error, OSError) as exc:
        return f"it cannot be read ({_first_line(exc)})"
    finally:
        con.close()
    return None


def _first_line(exc: BaseException) -> str:
    """The first line of an error's message, without a path of this machine."""
    line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    return re.sub(r"\s*(\"/[^\"]*\"|'/[^']*')", "", line)[:160]


def frame(
    cur: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None
) -> pl.DataFrame:
    """The rows of ``sql`` (``?`` bound to ``params``) as a polars frame."""
    df: pl.DataFrame = cur.sql(sql, params=params or None).pl()
    return df


def fetch(
    cur: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None
) -> list[tuple[Any, ...]]:
    """The rows of ``sql`` (``?`` bound to ``params``) as tuples."""
    return cur.execute(sql, params or []).fetchall()


# --------------------------------------------------------------------------- overview and lists


def overview(cur: duckdb.DuckDBPyConnection) -> dict[str, int]:
    """Counts for the landing page: hands with illegal actions, with score differences, not
    fully verified (``unverified``: partial or unverified), hands per verification state
    (``hands_verified``, ``hands_partial``, ``hands_unverified``), sessions with a finding
    of their own (``session_findings``: session totals, placement points), those with a
    score difference (``session_discrepancy``), tournament findings (standings)."""
    row = fetch(
        cur,
        f"""
        SELECT
          (SELECT count(*) FROM sessions),
          (SELECT count(*) FROM hands),
          (SELECT count(*) FROM hands h WHERE {_HAND_ERRORS} > 0),
          (SELECT count(*) FROM hands WHERE n_discrepancies > 0),
          (SELECT count(*) FROM hands WHERE NOT verified),
          (SELECT count(*) FROM players),
          (SELECT count(*) FROM rejects),
          (SELECT count(*) FROM hands h WHERE {_HAND_STATE} = 'verified'),
          (SELECT count(*) FROM hands h WHERE {_HAND_STATE} = 'partial'),
          (SELECT count(*) FROM hands h WHERE {_HAND_STATE} = 'unverified'),
          (SELECT count(DISTINCT session_id) FROM session_findings WHERE severity = 'error'),
          (SELECT count(DISTINCT session_id) FROM session_findings WHERE item IS NOT NULL),
          (SELECT count(*) FROM tournament_findings),
          (SELECT count(*) FROM tournaments)
        """,
    )[0]
    keys = ("sessions", "hands", "illegal", "discrepancy", "unverified", "players", "rejects",
            "hands_verified", "hands_partial", "hands_unverified", "session_findings",
            "session_discrepancy", "tournament_findings", "tournaments")  # fmt: skip
    return dict(zip(keys, (int(x) for x in row), strict=True))


def session_findings(cur: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every finding of a session (session totals, placement points), with the session's
    event, round, table and verification state; players as names (``players``: JSON)."""
    return frame(
        cur,
        """
        SELECT f.session_id, coalesce(s.event_name, s.tournament) AS event, s.tournament,
               CAST(s.round AS INTEGER) AS round, s.table_name AS "table",
               CAST(s.game AS VARCHAR) AS game, s.verification, f.code, f.severity,
               f.message, f.item, f.recorded, f.recomputed, f.player_ids,
               json_extract_string(f.players, '$[*].name') AS names, f.rule
        FROM session_findings f JOIN sessions s USING (session_id)
        ORDER BY s.tournament NULLS LAST, s.round NULLS LAST, s.table_name NULLS LAST,
                 f.session_id, f.code
        """,
    )


def session_knock_on(
    cur: duckdb.DuckDBPyConnection, session_id: str, player_id: str
) -> list[tuple[int, float]]:
    """The hands of a session whose recorded total of ``player_id`` differs from the
    recomputed one, with by how much (recorded minus recomputed), in hand order: what a
    differing session total follows from (the knock-on its finding names)."""
    rows = fetch(
        cur,
        """SELECT h.number, f.recorded - f.recomputed
           FROM findings f JOIN hands h ON h.hand_id = f.hand_id
           WHERE h.session_id = ? AND f.code = 'score.total_differs'
             AND list_contains(f.player_ids, ?)
           ORDER BY h.number""",
        [session_id, player_id],
    )
    return [(int(n), float(d)) for n, d in rows if d is not None]


def tournament_findings(cur: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every finding of a tournament (a player the recorded placement points would rank
    differently), with the tournament's verification state."""
    return frame(
        cur,
        """
        SELECT f.tournament, t.verification, f.code, f.severity, f.message, f.item,
               f.recorded, f.recomputed, f.player_ids,
               json_extract_string(f.players, '$[*].name') AS names, f.rule
        FROM tournament_findings f LEFT JOIN tournaments t USING (tournament)
        ORDER BY f.tournament, f.recomputed
        """,
    )


def session_sheet(cur: duckdb.DuckDBPyConnection, session_id: str) -> dict[str, Any] | None:
    """A session's score sheet: its players, one row per stored hand (number, recorded and
    recomputed total per seat), the session totals (the recorded ones, the recorded hands
    added up, the recomputed ones) and the placement points (recorded, recomputed); the
    session's findings say which cells differ (``differs``: (row, seat) pairs with row
    ``"session_total"``, ``"session_total_sum"``, ``"placement_points"`` or a hand number)."""
    if not fetch(cur, "SELECT 1 FROM sessions WHERE session_id = ?", [session_id]):
        return None
    players = [
        str(r[0])
        for r in fetch(
            cur,
            """SELECT coalesce(p.name, sp.player_id) FROM session_players sp
               LEFT JOIN players p USING (player_id) WHERE sp.session_id = ? ORDER BY sp.seat""",
            [session_id],
        )
    ]
    hands = frame(
        cur,
        """SELECT h.number, h.hand_id, CAST(hs.seat AS INTEGER) AS seat, hs.recorded_total,
                  hs.recomputed_total, hs.delta
           FROM hands h JOIN hand_scores hs USING (hand_id)
           WHERE h.session_id = ? ORDER BY h.number, hs.seat""",
        [session_id],
    ).to_dicts()
    totals = frame(
        cur,
        """SELECT CAST(seat AS INTEGER) AS seat, recorded_session_total, recorded_total,
                  recomputed_total, placement_points, placement_points_recomputed
           FROM session_scores WHERE session_id = ? ORDER BY seat""",
        [session_id],
    ).to_dicts()
    differs: set[tuple[Any, int]] = set()
    for item, seats in fetch(
        cur, "SELECT item, seats FROM session_findings WHERE session_id = ?", [session_id]
    ):
        for seat in seats or []:
            differs.add((item, int(seat)))
    for h in hands:
        if h["delta"]:
            differs.add((h["number"], h["seat"]))
    return {"players": players, "hands": hands, "totals": totals, "differs": sorted(
        differs, key=str)}  # fmt: skip


def rejects(cur: duckdb.DuckDBPyConnection, limit: int = 500) -> pl.DataFrame:
    """Records the ingest refused (first error code and count), by file and line."""
    return frame(
        cur,
        """SELECT file, line, session, hand, first_code, n_errors FROM rejects
           ORDER BY file, line NULLS LAST, hand NULLS LAST LIMIT ?""",
        [limit],
    )


#: Playing order of hands: date, tournament, round, table (missing ones last), session,
#: number, as a row value (``(missing?, value)`` pairs keep missing values last).
_PLAY_ORDER_KEY = """(s.date IS NULL, coalesce(s.date, DATE '1970-01-01'),
    s.tournament IS NULL, coalesce(s.tournament, ''), s.round IS NULL, coalesce(s.round, 0),
    s.table_name IS NULL, coalesce(s.table_name, ''), h.session_id, h.number)"""
_PLAY_ORDER = (
    "s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST, s.table_name NULLS LAST, "
    "h.session_id, h.number"
)
#: How the Audit page's list may be sorted (the sort is done by the database).
FINDING_ORDERS = {
    "playing order": _PLAY_ORDER,
    "most illegal actions": f"{_HAND_ERRORS} DESC, {_PLAY_ORDER}",
    "most score differences": f"h.n_discrepancies DESC, {_PLAY_ORDER}",
}


@dataclass(frozen=True, slots=True)
class FindingFilters:
    """Which hands the Audit page lists: by event (name or tournament), round, table, player
    (id or name), game, kinds of finding (:data:`FINDING_KINDS`; any of them) and
    verification states (:data:`VERIFICATION_STATES`; any of them). With ``findings_only``
    and no kinds: hands with any finding."""

    event: str | None = None
    round: int | None = None
    table: str | None = None
    player: str | None = None
    game: str | None = None
    kinds: tuple[str, ...] = ()
    findings_only: bool = True
    states: tuple[str, ...] = ()

    def where(self) -> tuple[str, list[Any]]:
        """Conditions on ``hands h JOIN sessions s`` and their values."""
        conds: list[str] = []
        vals: list[Any] = []
        if self.event:
            conds.append("coalesce(s.event_name, s.tournament) = ?")
            vals.append(self.event)
        if self.round is not None:
            conds.append("s.round = ?")
            vals.append(self.round)
        if self.table:
            conds.append("s.table_name = ?")
            vals.append(self.table)
        if self.player:
            conds.append(
                "h.session_id IN (SELECT sp.session_id FROM session_players sp "
                "LEFT JOIN players p USING (player_id) "
                "WHERE sp.player_id = ? OR coalesce(p.name, sp.player_id) = ?)"
            )
            vals += [self.player, self.player]
        if self.game:
            conds.append("h.game = ?")
            vals.append(self.game)
        states = [x for x in self.states if x in VERIFICATION_STATES]
        if states:
            conds.append(f"{_HAND_STATE} IN ({', '.join('?' for _ in states)})")
            vals += states
        kinds = [k for k in self.kinds if k in FINDING_KINDS]
        if self.findings_only and not kinds:
            kinds = list(FINDING_KINDS)
        if kinds:
            cond = {"illegal": f"{_HAND_ERRORS} > 0", "discrepancy": "h.n_discrepancies > 0",
                    "unverified": "NOT h.verified"}  # fmt: skip
            conds.append("(" + " OR ".join(cond[k] for k in kinds) + ")")
        return " AND ".join(conds) or "TRUE", vals


def findings_page(
    cur: duckdb.DuckDBPyConnection,
    ff: FindingFilters,
    offset: int = 0,
    limit: int = 50,
    order: str = "playing order",
) -> pl.DataFrame:
    """One page of the hands the filters select, sorted by the database: hand_id, label,
    event, round, table, game, contract, n_violations (illegal actions: violations of severity
    error), n_discrepancies, unverified, verification."""
    where, vals = ff.where()
    return frame(
        cur,
        f"""SELECT h.hand_id, h.session_id || ' · hand ' || h.number AS label,
                   coalesce(s.event_name, s.tournament) AS event, CAST(s.round AS INTEGER) AS round,
                   s.table_name AS "table", CAST(h.game AS VARCHAR) AS game, h.contract,
                   {_HAND_ERRORS} AS n_violations, h.n_discrepancies,
                   NOT h.verified AS unverified, {_HAND_STATE} AS verification
            FROM hands h JOIN sessions s ON s.session_id = h.session_id
            WHERE {where} ORDER BY {FINDING_ORDERS[order]} LIMIT ? OFFSET ?""",
        [*vals, int(limit), int(offset)],
    )


def count_findings(cur: duckdb.DuckDBPyConnection, ff: FindingFilters) -> int:
    """How many hands the filters select (all pages)."""
    where, vals = ff.where()
    rows = fetch(
        cur,
        f"SELECT count(*) FROM hands h JOIN sessions s ON s.session_id = h.session_id "
        f"WHERE {where}",
        vals,
    )
    return int(rows[0][0])


def finding_options(cur: duckdb.DuckDBPyConnection) -> dict[str, list[Any]]:
    """What the Audit filters offer: events, rounds, tables, players (names) and games."""

    def distinct(expr: str, table: str = "sessions") -> list[Any]:
        return [
            r[0]
            for r in fetch(
                cur, f"SELECT DISTINCT {expr} AS v FROM {table} WHERE v IS NOT NULL ORDER BY 1"
            )
        ]

    return {
        "event": distinct("coalesce(event_name, tournament)"),
        "round": distinct("CAST(round AS INTEGER)"),
        "table": distinct("table_name"),
        "player": distinct("coalesce(name, player_id)", "players"),
        "game": distinct("CAST(game AS VARCHAR)"),
    }


class HandDirectory:
    """Where each hand of one store version is: ``hand_id`` → ``hand_key`` without a scan.

    A hand's id is a long string in no order, so ``WHERE hand_id = ?`` reads the whole id
    column (about 0.3 s a lookup at 1,000,000 hands, several per replay opened), while the
    integer ``hand_key`` follows the storage order and its zone maps find a row in
    milliseconds. The directory keeps the ids' 64-bit hashes sorted with their keys (12 bytes a
    hand: 12 MB at 1,000,000, built in about a second); a reader keeps one per store version
    and passes the key to the lookups (``hand_key=``), which still check the id."""

    def __init__(self, cur: duckdb.DuckDBPyConnection) -> None:
        cols = cur.execute("SELECT hash(hand_id) AS h, hand_key FROM hands ORDER BY h").fetchnumpy()
        self.hashes = cols["h"]
        self.keys = cols["hand_key"]

    def key(self, cur: duckdb.DuckDBPyConnection, hand_id: str) -> int | None:
        """The key of ``hand_id``; -1 when no stored hand has that id (it matches no row);
        None when two ids share the hash (the lookups then read the id column)."""
        import numpy as np

        h = np.uint64(cur.execute("SELECT hash(?::VARCHAR)", [hand_id]).fetchall()[0][0])
        lo = int(np.searchsorted(self.hashes, h, side="left"))
        hi = int(np.searchsorted(self.hashes, h, side="right"))
        if hi - lo == 0:
            return -1
        return int(self.keys[lo]) if hi - lo == 1 else None


def by_hand(hand_id: str, hand_key: int | None, alias: str = "") -> tuple[str, list[Any]]:
    """The condition that picks hand ``hand_id`` (of table ``alias``): by its key when known
    (:class:`HandDirectory`; the id still checked), else by the id alone."""
    col = f"{alias}." if alias else ""
    if hand_key is None:
        return f"{col}hand_id = ?", [hand_id]
    return f"{col}hand_key = ? AND {col}hand_id = ?", [hand_key, hand_id]


def hand_label(
    cur: duckdb.DuckDBPyConnection, hand_id: str, hand_key: int | None = None
) -> str | None:
    """``"<session> · hand <n>"`` of a stored hand, or None (``hand_key``: :func:`by_hand`)."""
    cond, params = by_hand(hand_id, hand_key)
    rows = fetch(cur, f"SELECT session_id || ' · hand ' || number FROM hands WHERE {cond}", params)
    return str(rows[0][0]) if rows else None


_SESSION_LABEL = """concat_ws(' · ', coalesce(s.event_name, s.tournament),
    CASE WHEN s.round IS NOT NULL THEN 'round ' || s.round END,
    CASE WHEN s.table_name IS NOT NULL THEN 'table ' || s.table_name END, s.session_id)"""


def _session_search(search: str | None) -> tuple[str, list[Any]]:
    if not search:
        return "TRUE", []
    like = "%" + search.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return f"{_SESSION_LABEL} ILIKE ? ESCAPE '\\'", [like]


def sessions_page(
    cur: duckdb.DuckDBPyConnection,
    search: str | None = None,
    offset: int = 0,
    limit: int = 200,
) -> pl.DataFrame:
    """One page of the sessions with stored hands, in playing order, whose label (event,
    round, table, session id) contains ``search`` (any case): session_id, label, n_hands."""
    where, vals = _session_search(search)
    return frame(
        cur,
        f"""SELECT s.session_id, {_SESSION_LABEL} AS label, n.n_hands
            FROM sessions s
            JOIN (SELECT session_id, count(*) AS n_hands FROM hands GROUP BY session_id) n
              USING (session_id)
            WHERE {where}
            ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST,
                     s.table_name NULLS LAST, s.session_id
            LIMIT ? OFFSET ?""",
        [*vals, int(limit), int(offset)],
    )


def count_sessions(cur: duckdb.DuckDBPyConnection, search: str | None = None) -> int:
    """How many sessions with stored hands :func:`sessions_page` pages through."""
    where, vals = _session_search(search)
    rows = fetch(
        cur,
        f"SELECT count(*) FROM sessions s WHERE {where} "
        "AND s.session_id IN (SELECT session_id FROM hands)",
        vals,
    )
    return int(rows[0][0])


def session_label(cur: duckdb.DuckDBPyConnection, session_id: str) -> str | None:
    """The readable label of one session (event, round, table, id), or None."""
    rows = fetch(cur, f"SELECT {_SESSION_LABEL} FROM sessions s WHERE session_id = ?", [session_id])
    return str(rows[0][0]) if rows else None


def session_hands(cur: duckdb.DuckDBPyConnection, session_id: str) -> pl.DataFrame:
    """The stored hands of one session in order: hand_id, number, contract, illegal, discrepancy."""
    return frame(
        cur,
        """SELECT hand_id, number, contract, coalesce(n_errors, n_violations) > 0 AS illegal,
                  n_discrepancies > 0 AS discrepancy, NOT verified AS unverified
           FROM hands WHERE session_id = ? ORDER BY number""",
        [session_id],
    )


def hand_session(
    cur: duckdb.DuckDBPyConnection, hand_id: str, hand_key: int | None = None
) -> str | None:
    """The session of a stored hand, or None (deep-link parameters are checked with this;
    ``hand_key``: :func:`by_hand`)."""
    cond, params = by_hand(hand_id, hand_key)
    rows = fetch(cur, f"SELECT session_id FROM hands WHERE {cond} LIMIT 1", params)
    return str(rows[0][0]) if rows else None


def hand_irregularities(
    cur: duckdb.DuckDBPyConnection, hand_id: str
) -> list[tuple[str, int | None, str | None]]:
    """A stored hand's irregularities as recorded, in order: ``(type, seat, kind)`` (what a
    renons or penalty line's reason names: :mod:`tarock_logs.report.reasons`)."""
    rows = fetch(
        cur,
        "SELECT type, seat, kind FROM irregularities WHERE hand_id = ? ORDER BY idx",
        [hand_id],
    )
    return [(str(t), int(s) if s is not None else None, k) for t, s, k in rows]


def player_neighbour_hand(
    cur: duckdb.DuckDBPyConnection, hand_id: str, player_id: str, forward: bool = True
) -> tuple[str, str] | None:
    """The next (or previous) hand in playing order at which ``player_id`` sat, as
    ``(hand_id, session_id)``, or None."""
    cmp, order = (">", "ASC") if forward else ("<", "DESC")
    rows = fetch(
        cur,
        f"""
        WITH here AS (
            SELECT {_PLAY_ORDER_KEY} AS k
            FROM hands h JOIN sessions s ON s.session_id = h.session_id WHERE h.hand_id = ?)
        SELECT h.hand_id, h.session_id FROM hands h
        JOIN sessions s ON s.session_id = h.session_id
        WHERE h.session_id IN (SELECT session_id FROM session_players WHERE player_id = ?)
          AND {_PLAY_ORDER_KEY} {cmp} (SELECT k FROM here)
        ORDER BY {_PLAY_ORDER_KEY} {order} LIMIT 1
        """,
        [hand_id, player_id],
    )
    return (str(rows[0][0]), str(rows[0][1])) if rows else None


def hand_findings(
    cur: duckdb.DuckDBPyConnection, hand_id: str, hand_key: int | None = None
) -> dict[str, Any]:
    """The stored verdicts of one hand: violations, score items, totals, unverified
    (``hand_key``: :func:`by_hand`).

    The child rows are found by the hand's integer key (a constant: the zone maps of the few
    row groups that hold it are read, not a 64-character id column)."""
    cond, params = by_hand(hand_id, hand_key, "h")
    unv = fetch(
        cur, f"SELECT unverified, {_HAND_STATE}, hand_key FROM hands h WHERE {cond}", params
    )
    key = unv[0][2] if unv else -1
    viol = frame(
        cur,
        """SELECT action_index, CAST(seat AS INTEGER) AS seat, code,
                  CAST(severity AS VARCHAR) AS severity, message, rule, card
           FROM violations WHERE hand_key = ? ORDER BY action_index NULLS LAST, code""",
        [key],
    )
    items = frame(
        cur,
        """SELECT item, CAST(seat AS INTEGER) AS seat, recorded, recomputed, delta
           FROM score_items WHERE hand_key = ? ORDER BY item, seat NULLS FIRST""",
        [key],
    )
    totals = frame(
        cur,
        """SELECT CAST(seat AS INTEGER) AS seat, player_id, CAST(role AS VARCHAR) AS role,
                  recorded_total, recomputed_total, delta
           FROM hand_scores WHERE hand_key = ? ORDER BY seat""",
        [key],
    )
    sql = """SELECT level, action_index, code, severity, message, rule, rule_text, consequence,
                    item, recorded, recomputed, card, player_ids,
                    json_extract_string(players, '$[*].name') AS names, players, params
             FROM findings WHERE hand_key = ?
             ORDER BY action_index NULLS LAST, severity, code"""
    try:
        found = frame(cur, sql, [key])
    except duckdb.BinderException:  # a store of schema version 8 or older: no params
        found = frame(cur, sql.replace(", params\n", "\n"), [key])
    rows = found.to_dicts()
    for row in rows:  # (the engine's facts of the finding: JSON)
        p = row.get("params")
        row["params"] = json.loads(p) if isinstance(p, str) else (p or {})
    return {
        "violations": viol.to_dicts(),
        "items": items.to_dicts(),
        "totals": totals.to_dicts(),
        "unverified": list(unv[0][0] or []) if unv else [],
        "verification": str(unv[0][1]) if unv else "unverified",
        "findings": rows,
    }


def hand_facts(
    cur: duckdb.DuckDBPyConnection, hand_id: str, hand_key: int | None = None
) -> dict[str, Any] | None:
    """What the store says of one hand and its session (None for an unknown hand):
    session_id, number, game, ruleset, contract, declarer, partner, won, event_name,
    tournament, round, table_name, date (``hand_key``: :func:`by_hand`)."""
    cond, params = by_hand(hand_id, hand_key, "h")
    rows = frame(
        cur,
        """SELECT h.session_id, h.number, CAST(h.game AS VARCHAR) AS game,
                  coalesce(h.ruleset, s.ruleset) AS ruleset, h.contract,
                  CAST(h.declarer AS INTEGER) AS declarer, CAST(h.partner AS INTEGER) AS partner,
                  h.won, s.event_name, s.tournament, CAST(s.round AS INTEGER) AS round,
                  s.table_name, s.date
           FROM hands h JOIN sessions s ON s.session_id = h.session_id
           WHERE """
        + cond
        + " LIMIT 1",
        params,
    ).to_dicts()
    return rows[0] if rows else None


#: one stored hand and the rows of it the replay shows, in two statements (:func:`hand_record`):
#: each child table read by the hand's integer key (a constant: the zone maps find its row
#: group). Two, not one: DuckDB 2.0's planning time grows fast with the number of subqueries
#: of a statement (the nine in one cost twice the CPU of nine statements, two of five and four
#: two thirds less; docs/performance.md). The actions' details are merged with their actions
#: in Python (a join of the two tables' row groups cost more than both reads).
_HAND_TIMELINE = f"""
SELECT h.hand_id, h.session_id, h.number, CAST(h.game AS VARCHAR) AS game, h.ruleset,
  h.contract, CAST(h.declarer AS INTEGER) AS declarer, CAST(h.partner AS INTEGER) AS partner,
  h.won, h.dealer, h.deal, h.card_points, h.timeline, h.unverified,
  {_HAND_STATE} AS verification,
  (SELECT list(struct_pack(idx, seat, type := CAST(type AS VARCHAR), card, to_move, phase)
               ORDER BY idx) FROM action_rows WHERE hand_key = $key) AS actions,
  (SELECT list(struct_pack(idx, cards, shown, contract, talon_group, bonus, side, target, level,
                           claim, meld, raises, params, note))
     FROM action_details WHERE hand_key = $key) AS details,
  (SELECT list(struct_pack(leader, winner, seats, cards, points) ORDER BY trick_no)
     FROM tricks WHERE hand_key = $key) AS tricks,
  (SELECT list(struct_pack(step, key, value) ORDER BY step)
     FROM step_states WHERE hand_key = $key) AS states
FROM hands h WHERE h.hand_key = $key
"""
_HAND_VERDICTS = """
SELECT
  (SELECT list(struct_pack(seat := CAST(seat AS INTEGER), player_id,
                           role := CAST(role AS VARCHAR), recorded_total, recomputed_total,
                           delta, radelci_before, radelci_after) ORDER BY seat)
     FROM hand_scores WHERE hand_key = $key) AS totals,
  (SELECT list(struct_pack(item, seat := CAST(seat AS INTEGER), recorded, recomputed, delta)
               ORDER BY item, seat NULLS FIRST)
     FROM score_items WHERE hand_key = $key) AS items,
  (SELECT list(struct_pack(action_index, seat := CAST(seat AS INTEGER), code,
                           severity := CAST(severity AS VARCHAR), message, rule, card)
               ORDER BY action_index NULLS LAST, code)
     FROM violations WHERE hand_key = $key) AS violations,
  (SELECT list(struct_pack(level, action_index, code, severity := CAST(severity AS VARCHAR),
                           message, rule, rule_text, consequence, item, recorded, recomputed,
                           card, player_ids, names := json_extract_string(players, '$[*].name'),
                           players, params, seats)
               ORDER BY action_index NULLS LAST, severity, code)
     FROM findings WHERE hand_key = $key) AS findings,
  (SELECT list(struct_pack(type := CAST(type AS VARCHAR), seat := CAST(seat AS INTEGER), kind)
               ORDER BY idx)
     FROM irregularities WHERE hand_key = $key) AS irregularities
"""


def _one_row(cur: duckdb.DuckDBPyConnection, sql: str, params: Any) -> dict[str, Any] | None:
    res = cur.execute(sql, params)
    names = [d[0] for d in res.description]
    rows = res.fetchall()
    return dict(zip(names, rows[0], strict=True)) if rows else None


def hand_record(
    cur: duckdb.DuckDBPyConnection, hand_id: str, hand_key: int | None = None
) -> dict[str, Any] | None:
    """One stored hand as the replay reads it, in **two queries** (by its key): its row of
    ``hands`` (the
    keys of :func:`hand_facts` that are the hand's, and ``dealer``, ``deal``, ``card_points``,
    ``timeline``, ``unverified``, ``verification``) and its rows of the child tables as lists
    of dicts: ``actions`` (each merged with its ``action_details``), ``tricks``, ``states``
    (``step_states``), ``totals`` (``hand_scores``, the radelci too), ``items``,
    ``violations``, ``findings`` (``names`` and ``params`` read), ``irregularities``.

    ``hand_key``: the hand's key (:class:`HandDirectory`; -1: no such hand); without it one
    more query finds it by the id. The id is checked on the row read. None for an unknown
    hand, and for a store whose schema lacks what this reads (a version before the timelines:
    the caller reads it the older way)."""
    if hand_key is None:
        rows = fetch(cur, "SELECT hand_key FROM hands WHERE hand_id = ? LIMIT 1", [hand_id])
        if not rows:
            return None
        hand_key = int(rows[0][0])
    if hand_key < 0:
        return None
    params = {"key": int(hand_key)}
    try:
        rec = _one_row(cur, _HAND_TIMELINE, params)
        if rec is None or rec["hand_id"] != hand_id:
            return None
        verdicts = _one_row(cur, _HAND_VERDICTS, params)
    except (duckdb.BinderException, duckdb.CatalogException):  # an older schema
        return None
    rec.update(verdicts or {})
    details = {int(d["idx"]): d for d in rec.pop("details") or []}
    actions = []
    for a in rec["actions"] or []:
        d = details.get(int(a["idx"]), {})
        actions.append(
            {
                **{k: a[k] for k in ("idx", "seat", "type", "card")},
                **{k: d.get(k) for k in _DETAIL_KEYS},
                "to_move": a["to_move"],
                "phase": a["phase"],
            }
        )
    rec["actions"] = actions
    for k in ("tricks", "states", "totals", "items", "violations", "findings", "irregularities"):
        rec[k] = rec[k] or []
    for row in rec["findings"]:  # (the engine's facts of the finding: JSON)
        p = row.get("params")
        row["params"] = json.loads(p) if isinstance(p, str) else (p or {})
    rec["hand_key"] = int(hand_key)
    return rec


#: the columns of ``action_details``, in the order a timeline's action rows carry them
_DETAIL_KEYS = ("cards", "shown", "contract", "talon_group", "bonus", "side", "target", "level",
                "claim", "meld", "raises", "params", "note")  # fmt: skip


def session_record(cur: duckdb.DuckDBPyConnection, session_id: str) -> dict[str, Any] | None:
    """One session as the replay reads it, in one query (None for an unknown session):
    ``label`` (:func:`session_label`), ``event_name``, ``tournament``, ``round``,
    ``table_name``, ``date``, ``ruleset``; ``seating`` (by seat: ``id``, ``name``, ``pair``,
    ``role``) and ``hands`` in order (the rows of :func:`session_hands`)."""
    rec = _one_row(
        cur,
        f"""SELECT {_SESSION_LABEL} AS label, s.event_name, s.tournament,
                   CAST(s.round AS INTEGER) AS round, s.table_name, s.date, s.ruleset,
              (SELECT list(struct_pack(id := sp.player_id, name := p.name, pair := sp.pair,
                                       role := sp.role) ORDER BY sp.seat)
                 FROM session_players sp LEFT JOIN players p USING (player_id)
                 WHERE sp.session_id = $sid) AS seating,
              (SELECT list(struct_pack(hand_id, number, contract,
                                       illegal := coalesce(n_errors, n_violations) > 0,
                                       discrepancy := n_discrepancies > 0,
                                       unverified := NOT verified) ORDER BY number)
                 FROM hands WHERE session_id = $sid) AS hands
            FROM sessions s WHERE s.session_id = $sid""",
        {"sid": session_id},
    )
    if rec is None:
        return None
    rec["seating"] = rec["seating"] or []
    rec["hands"] = [h for h in rec["hands"] or [] if h["hand_id"] is not None]
    return rec


def card_analysis_stored(cur: duckdb.DuckDBPyConnection) -> tuple[bool, bool]:
    """Whether the store holds any card-play analysis: all cards visible, what the player
    knew (``tarock ingest --analyse``). A store without (most) spares the replay a look-up
    per hand opened."""
    names = {str(n) for (n,) in fetch(cur, "SELECT table_name FROM duckdb_tables()")}
    out = []
    for table in ("card_analysis", "card_analysis_player"):
        out.append(table in names and bool(fetch(cur, f"SELECT 1 FROM {table} LIMIT 1")))
    return out[0], out[1]


def hand_exists(cur: duckdb.DuckDBPyConnection, hand_id: str) -> bool:
    """Whether ``hand_id`` is a stored hand (deep-link parameters are checked with this)."""
    return bool(fetch(cur, "SELECT 1 FROM hands WHERE hand_id = ? LIMIT 1", [hand_id]))


# --------------------------------------------------------------------------- tournaments


def tournaments(cur: duckdb.DuckDBPyConnection) -> list[str]:
    """Tournament ids present in the store."""
    rows = fetch(
        cur, "SELECT DISTINCT tournament FROM sessions WHERE tournament IS NOT NULL ORDER BY 1"
    )
    return [r[0] for r in rows]


def tournament_sessions(cur: duckdb.DuckDBPyConnection, tournament: str) -> list[str]:
    """The sessions of one tournament, by round and table."""
    rows = fetch(
        cur,
        """SELECT session_id FROM sessions WHERE tournament = ?
           ORDER BY round, table_name, session_id""",
        [tournament],
    )
    return [r[0] for r in rows]


# --------------------------------------------------------------------------- players


def stats_filters(
    game: str | None = None,
    event: str | None = None,
    date_from: Any = None,
    date_to: Any = None,
    player: str | None = None,
) -> Filters:
    """:class:`tarock_logs.store.read.stats.Filters` from the Players page's filter values."""
    return Filters(
        player=player or None,
        game=game or None,
        event=event or None,
        date_from=date_from,
        date_to=date_to,
    )


def stats_section(
    cur: duckdb.DuckDBPyConnection,
    section: str,
    filters: tuple[Any, ...],
    mask: bool = False,
) -> pl.DataFrame:
    """One statistics table of :data:`tarock_logs.store.read.stats.SECTIONS` (``players``,
    ``roles``, ``contracts``, ``bonuses``, ``kontras``, ``synergy``, ``time``) under the filters
    ``(game, event, date_from, date_to, player)``; ``mask``: names as pseudonyms."""
    return SECTIONS[section](cur, stats_filters(*filters), mask=mask)


#: points per player of a chart over time (the score's here, the dashboard's rating history
#: too): drawing the chart is the browser's largest cost on the Players page (24 players at
#: 200 points each: ≈ 0.9 s of a 1.5 s warm load on the 2-core machine, at 50 each ≈ 0.3 s;
#: docs/performance.md, issue 18)
TIMELINE_POINTS = 60


def timeline(
    cur: duckdb.DuckDBPyConnection,
    filters: tuple[Any, ...],
    mask: bool = False,
    points: int = TIMELINE_POINTS,
) -> pl.DataFrame:
    """The running totals to chart (:func:`tarock_logs.store.read.stats.score_timeline`), at most
    ``points`` per player."""
    return score_timeline(cur, stats_filters(*filters), mask=mask, points=points)


#: the replay link of a drill-down row
_REPLAY_LINK = pl.format("/replay?hand={}&step=0&seat=all", pl.col("hand_id")).alias("replay")


def drill_page(
    cur: duckdb.DuckDBPyConnection,
    filters: tuple[Any, ...],
    drill: tuple[tuple[str, Any], ...],
    offset: int = 0,
    limit: int = 50,
    order: str = "date",
    mask: bool = False,
) -> pl.DataFrame:
    """One page of the hands behind a figure (:func:`tarock_logs.store.read.stats.hands_for`)
    under the filters and drill-down fields (e.g. ``(("role", "declarer"), ("won", True))``),
    with the player's name (masked on request) and each hand's replay link."""
    df = hands_for(
        cur,
        stats_filters(*filters),
        limit=limit,
        offset=offset,
        order=order,
        mask=True,
        **dict(drill),
    )
    if not mask:  # the real names (hands_for masks in SQL; names are joined back here)
        names = frame(cur, "SELECT player_id, coalesce(name, player_id) AS name FROM players")
        df = df.drop("name").join(names, on="player_id", how="left", maintain_order="left")
    return df.with_columns(_REPLAY_LINK)


def drill_count(
    cur: duckdb.DuckDBPyConnection,
    filters: tuple[Any, ...],
    drill: tuple[tuple[str, Any], ...],
) -> tuple[int, int]:
    """``(seats, hands)`` behind the figure (all pages of :func:`drill_page`)."""
    return count_hands_for(cur, stats_filters(*filters), **dict(drill))


def drill_csv(
    cur: duckdb.DuckDBPyConnection,
    filters: tuple[Any, ...],
    drill: tuple[tuple[str, Any], ...],
    mask: bool = False,
    batch_rows: int = 100_000,
) -> bytes:
    """Every hand behind the figure as CSV (made only when asked for): the rows stream from
    the database a batch at a time into the CSV text, never as one frame."""
    sql, vals = hands_for_sql(stats_filters(*filters), mask=True, **dict(drill))
    if not mask:
        sql = (
            f"SELECT d.* EXCLUDE (name), coalesce(p.name, d.player_id) AS name FROM ({sql}) d "
            "LEFT JOIN players p USING (player_id)"
        )
    return _csv(cur, sql, vals, batch_rows)


def _csv(
    cur: duckdb.DuckDBPyConnection,
    sql: str,
    vals: list[Any],
    batch_rows: int,
    labels: Mapping[str, Callable[[str], str]] | None = None,
) -> bytes:
    """The rows of ``sql`` as CSV text, streamed from the database ``batch_rows`` at a time;
    a column of ``labels`` shows each value as its function names it, its ids kept in
    ``<column>_id`` beside it."""
    reader = cur.sql(sql, params=vals).to_arrow_reader(batch_rows)
    out = io.BytesIO()
    if reader is None:
        return b""
    writer: pacsv.CSVWriter | None = None
    try:
        for batch in reader:
            table = _labelled(pa.Table.from_batches([batch]), labels or {})
            if writer is None:
                writer = pacsv.CSVWriter(out, table.schema)
            writer.write_table(table)
        if writer is None:  # no rows: the header alone
            empty = _labelled(reader.schema.empty_table(), labels or {})
            writer = pacsv.CSVWriter(out, empty.schema)
    finally:
        if writer is not None:
            writer.close()
    return bytes(out.getvalue())


def _labelled(table: pa.Table, labels: Mapping[str, Callable[[str], str]]) -> pa.Table:
    """``table`` with each column of ``labels`` named by its function, the ids moved to
    ``<column>_id`` right after it."""
    for col, name in labels.items():
        i = table.schema.get_field_index(col)
        if i < 0:
            continue
        ids = table.column(i).cast(pa.string())
        named: dict[str, str] = {}
        shown = [None if v is None else named.setdefault(v, name(v)) for v in ids.to_pylist()]
        table = table.set_column(i, col, pa.array(shown, pa.string()))
        table = table.add_column(i + 1, f"{col}_id", ids)
    return table


def filter_values(cur: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """What the Players filters offer: games, events (all, and ``events_by_game``), the date
    range, players (id → name) and contracts present in the store."""
    games = [
        r[0] for r in fetch(cur, "SELECT DISTINCT CAST(game AS VARCHAR) FROM sessions ORDER BY 1")
    ]
    events = [
        r[0]
        for r in fetch(
            cur,
            "SELECT DISTINCT coalesce(event_name, tournament) FROM sessions "
            "WHERE coalesce(event_name, tournament) IS NOT NULL ORDER BY 1",
        )
    ]
    lo, hi = fetch(cur, "SELECT min(date), max(date) FROM sessions")[0]
    players = dict(
        fetch(cur, "SELECT player_id, coalesce(name, player_id) FROM players ORDER BY 2")
    )
    contracts = [
        r[0]
        for r in fetch(
            cur, "SELECT DISTINCT contract FROM hands WHERE contract IS NOT NULL ORDER BY 1"
        )
    ]
    events_by_game: dict[str, list[str]] = {}
    for game, event in fetch(
        cur,
        "SELECT DISTINCT CAST(game AS VARCHAR), coalesce(event_name, tournament) FROM sessions "
        "WHERE coalesce(event_name, tournament) IS NOT NULL ORDER BY 1, 2",
    ):
        events_by_game.setdefault(str(game), []).append(str(event))
    return {
        "games": games,
        "events": events,
        "events_by_game": events_by_game,
        "date_min": lo,
        "date_max": hi,
        "players": players,
        "contracts": contracts,
    }


# --------------------------------------------------------------------------- players, per game


def games_by_hands(cur: duckdb.DuckDBPyConnection) -> list[tuple[str, int]]:
    """The games in the store with their number of hands, the most played first (the
    Players page opens on the first)."""
    rows = fetch(
        cur,
        "SELECT CAST(game AS VARCHAR), count(*) FROM hands GROUP BY 1 ORDER BY 2 DESC, 1",
    )
    return [(str(g), int(n)) for g, n in rows]


def game_section(
    cur: duckdb.DuckDBPyConnection,
    section: str,
    filters: tuple[Any, ...],
    mask: bool = False,
) -> pl.DataFrame:
    """One per-game statistics table of :data:`GAME_SECTIONS` under the filters ``(game,
    event, date_from, date_to, player)`` (the game is required: games are never mixed);
    ``mask``: names as pseudonyms."""
    return GAME_SECTIONS[section](cur, stats_filters(*filters), mask=mask)


def game_thrown_in(cur: duckdb.DuckDBPyConnection, filters: tuple[Any, ...]) -> int:
    """The thrown-in deals of one game under the filters (counted on their own)."""
    return thrown_in(cur, stats_filters(*filters))


def _game_drill(
    filters: tuple[Any, ...], drill: tuple[tuple[str, Any], ...]
) -> tuple[Filters, dict[str, Any]]:
    """The filters narrowed by a drill-down's ``role``, ``contract``, ``player`` and the other
    drill fields (``won``, ``thrown_in``, ``schlemm``, ``outcome``, ``kontra``, ``success``,
    ``opponent``, ``partner``, ``bonus``, ``session``, ``analysed``)."""
    fields = dict(drill)
    f = stats_filters(*filters)
    narrowed = {k: fields.pop(k) for k in ("role", "contract", "player") if k in fields}
    if narrowed:
        f = dataclasses.replace(f, **narrowed)
    return f, fields


def game_drill_page(
    cur: duckdb.DuckDBPyConnection,
    filters: tuple[Any, ...],
    drill: tuple[tuple[str, Any], ...],
    offset: int = 0,
    limit: int = 50,
    lang: str = "en",
    mask: bool = False,
) -> pl.DataFrame:
    """One page of the hands behind a per-game figure
    (:func:`tarock_logs.store.read.stats.game_hands_for`), with the player's name (a pseudonym
    with ``mask``) and each hand's replay link (in the page's language ``lang``)."""
    f, fields = _game_drill(filters, drill)
    df = game_hands_for(cur, f, limit=limit, offset=offset, mask=True, **fields)
    if not mask:  # the real names
        names = frame(cur, "SELECT player_id, coalesce(name, player_id) AS name FROM players")
        df = df.drop("name").join(names, on="player_id", how="left", maintain_order="left")
    return df.with_columns(
        pl.format("/replay?hand={}&step=0&seat=all&lang=" + lang, pl.col("hand_id")).alias("replay")
    )


def game_drill_count(
    cur: duckdb.DuckDBPyConnection,
    filters: tuple[Any, ...],
    drill: tuple[tuple[str, Any], ...],
) -> int:
    """How many rows the per-game drill-down lists (all pages of :func:`game_drill_page`)."""
    f, fields = _game_drill(filters, drill)
    return count_game_hands_for(cur, f, **fields)


def game_drill_csv(
    cur: duckdb.DuckDBPyConnection,
    filters: tuple[Any, ...],
    drill: tuple[tuple[str, Any], ...],
    mask: bool = False,
    batch_rows: int = 100_000,
    labels: Mapping[str, Callable[[str], str]] | None = None,
) -> bytes:
    """Every hand behind a per-game figure as CSV, made only when asked for: the rows stream
    from the database a batch at a time into the CSV text, never as one frame. ``labels``:
    the columns named as the screen names them (the Players page: contract and role in the
    page's language), their ids kept in ``<column>_id``."""
    f, fields = _game_drill(filters, drill)
    sql, vals = game_hands_for_sql(f, mask=True, **fields)
    if not mask:
        sql = (
            f"SELECT d.* EXCLUDE (name), coalesce(p.name, d.player_id) AS name FROM ({sql}) d "
            "LEFT JOIN players p USING (player_id)"
        )
    return _csv(cur, sql, vals, batch_rows, labels)


def game_ratings(cur: duckdb.DuckDBPyConnection, game: str) -> Any:
    """The ratings of one game (:func:`tarock_logs.store.read.ratings.ratings`): current and
    history, as the ingest stored them (recomputed for a store without them)."""
    from tarock_logs.store.read.ratings import read_ratings

    return read_ratings(cur, game)
