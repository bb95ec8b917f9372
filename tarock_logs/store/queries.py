"""The store's read API: what the dashboard and ``tarock stats`` ask the database.

Every query takes a DuckDB cursor of a **read-only** connection (:func:`connect_reader`) as
its first argument, binds values with ``?`` and drains its result. Nothing here renders or
replays: the rows come back as polars frames, dicts or plain values, and the dashboard's view
model (``dashboard/view_model.py``) and pages present them. The statistics themselves are
:mod:`tarock_logs.store.stats`; the wrappers at the end take its filters as plain (hashable)
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
import os
from typing import Any

import duckdb
import polars as pl

from tarock_logs.store.connect import LOCKED_DOWN, connect_readonly
from tarock_logs.store.stats import (
    SECTIONS,
    Filters,
    contra_success,
    game_contracts,
    game_hands_for,
    game_players,
    game_roles,
    hands_for,
    head_to_head,
    partners,
    royal_matches,
    royal_pairs,
    royal_schlemm,
    thrown_in,
)

#: the per-game statistics tables of the Players page (store/stats.py, "per game")
GAME_SECTIONS = {
    "players": game_players,
    "roles": game_roles,
    "contracts": game_contracts,
    "kontras": contra_success,
    "partners": partners,
    "head_to_head": head_to_head,
    "schlemm": royal_schlemm,
    "matches": royal_matches,
    "pairs": royal_pairs,
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


def connect_reader(
    path: str | os.PathLike[str], retries: int = 40, delay: float = 0.05
) -> duckdb.DuckDBPyConnection:
    """Open the store at ``path`` read-only for the read API (the store's
    :func:`~tarock_logs.store.connect.connect_readonly`: retries briefly on lock errors),
    locked down (:data:`~tarock_logs.store.connect.LOCKED_DOWN`: no file, network or
    extension access, the configuration locked) and with modest resources (2 threads) for a
    long-lived reader such as the dashboard."""
    return connect_readonly(
        path, retries=retries, delay=delay, config={"threads": 2, **LOCKED_DOWN}
    )


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


def hands_index(cur: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every stored hand with its session facts and kinds of finding, in playing order.

    Columns: hand_id, session_id, number, game, ruleset, event, tournament, round, table, date,
    contract, declarer, won, n_violations (illegal actions: violations of severity error),
    n_discrepancies, verified, verification (verified,
    partial or unverified), players (names by seat), player_ids, illegal, discrepancy,
    unverified, label.
    """
    df = frame(
        cur,
        f"""
        SELECT h.hand_id, h.session_id, h.number, CAST(h.game AS VARCHAR) AS game,
               coalesce(h.ruleset, s.ruleset) AS ruleset,
               coalesce(s.event_name, s.tournament) AS event, s.tournament,
               CAST(s.round AS INTEGER) AS round, s.table_name AS "table", s.date,
               h.contract, CAST(h.declarer AS INTEGER) AS declarer, h.won,
               {_HAND_ERRORS} AS n_violations, h.n_discrepancies, h.verified,
               {_HAND_STATE} AS verification,
               p.players, p.player_ids
        FROM hands h
        JOIN sessions s ON s.session_id = h.session_id
        LEFT JOIN (
            SELECT sp.session_id,
                   list(coalesce(pl.name, sp.player_id) ORDER BY sp.seat) AS players,
                   list(sp.player_id ORDER BY sp.seat) AS player_ids
            FROM session_players sp LEFT JOIN players pl USING (player_id)
            GROUP BY sp.session_id
        ) p ON p.session_id = h.session_id
        ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST,
                 s.table_name NULLS LAST, h.session_id, h.number
        """,
    )
    return df.with_columns(
        illegal=pl.col("n_violations") > 0,
        discrepancy=pl.col("n_discrepancies") > 0,
        unverified=~pl.col("verified"),
        label=pl.format("{} · hand {}", pl.col("session_id"), pl.col("number")),
    )


def filter_hands(
    df: pl.DataFrame,
    *,
    event: str | None = None,
    round: int | None = None,  # noqa: A002 - the tournament round
    table: str | None = None,
    player: str | None = None,
    game: str | None = None,
    kinds: list[str] | tuple[str, ...] | None = None,
    findings_only: bool = False,
    states: list[str] | tuple[str, ...] | None = None,
) -> pl.DataFrame:
    """Filter :func:`hands_index`'s frame; ``kinds`` keeps hands with any of those findings,
    ``states`` the hands in one of those verification states."""
    out = df
    if event:
        out = out.filter(pl.col("event") == event)
    if round is not None:
        out = out.filter(pl.col("round") == round)
    if table:
        out = out.filter(pl.col("table") == table)
    if player:
        out = out.filter(
            pl.col("players").list.contains(player) | pl.col("player_ids").list.contains(player)
        )
    if game:
        out = out.filter(pl.col("game") == game)
    wanted = [x for x in (states or ()) if x in VERIFICATION_STATES]
    if wanted:
        out = out.filter(pl.col("verification").is_in(wanted))
    selected = [k for k in (kinds or ()) if k in FINDING_KINDS]
    if findings_only and not selected:
        selected = list(FINDING_KINDS)
    if selected:
        out = out.filter(pl.any_horizontal([pl.col(k) for k in selected]))
    return out


def sessions_index(cur: duckdb.DuckDBPyConnection) -> pl.DataFrame:
    """Every session in playing order with a readable label and its number of stored hands."""
    return frame(
        cur,
        """
        SELECT s.session_id,
               concat_ws(' · ', coalesce(s.event_name, s.tournament),
                         CASE WHEN s.round IS NOT NULL THEN 'round ' || s.round END,
                         CASE WHEN s.table_name IS NOT NULL THEN 'table ' || s.table_name END,
                         s.session_id) AS label,
               (SELECT count(*) FROM hands h WHERE h.session_id = s.session_id) AS n_hands
        FROM sessions s
        ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST,
                 s.table_name NULLS LAST, s.session_id
        """,
    )


def session_hands(cur: duckdb.DuckDBPyConnection, session_id: str) -> pl.DataFrame:
    """The stored hands of one session in order: hand_id, number, contract, illegal, discrepancy."""
    return frame(
        cur,
        """SELECT hand_id, number, contract, coalesce(n_errors, n_violations) > 0 AS illegal,
                  n_discrepancies > 0 AS discrepancy, NOT verified AS unverified
           FROM hands WHERE session_id = ? ORDER BY number""",
        [session_id],
    )


def hand_session(cur: duckdb.DuckDBPyConnection, hand_id: str) -> str | None:
    """The session of a stored hand, or None (deep-link parameters are checked with this)."""
    rows = fetch(cur, "SELECT session_id FROM hands WHERE hand_id = ? LIMIT 1", [hand_id])
    return str(rows[0][0]) if rows else None


_HAND_ORDER = """
    SELECT h.hand_id, h.session_id,
           row_number() OVER (ORDER BY s.date NULLS LAST, s.tournament NULLS LAST,
                              s.round NULLS LAST, s.table_name NULLS LAST, h.session_id,
                              h.number) AS k
    FROM hands h JOIN sessions s ON s.session_id = h.session_id
"""


def player_neighbour_hand(
    cur: duckdb.DuckDBPyConnection, hand_id: str, player_id: str, forward: bool = True
) -> tuple[str, str] | None:
    """The next (or previous) hand in playing order at which ``player_id`` sat, as
    ``(hand_id, session_id)``, or None."""
    cmp, order = (">", "ASC") if forward else ("<", "DESC")
    rows = fetch(
        cur,
        f"""
        WITH o AS ({_HAND_ORDER})
        SELECT o.hand_id, o.session_id FROM o
        JOIN session_players sp ON sp.session_id = o.session_id AND sp.player_id = ?
        WHERE o.k {cmp} (SELECT k FROM o WHERE hand_id = ?)
        ORDER BY o.k {order} LIMIT 1
        """,
        [player_id, hand_id],
    )
    return (str(rows[0][0]), str(rows[0][1])) if rows else None


def hand_findings(cur: duckdb.DuckDBPyConnection, hand_id: str) -> dict[str, Any]:
    """The stored verdicts of one hand: violations, score items, totals, unverified."""
    viol = frame(
        cur,
        """SELECT action_index, CAST(seat AS INTEGER) AS seat, code,
                  CAST(severity AS VARCHAR) AS severity, message, rule, card
           FROM violations WHERE hand_id = ? ORDER BY action_index NULLS LAST, code""",
        [hand_id],
    )
    items = frame(
        cur,
        """SELECT item, CAST(seat AS INTEGER) AS seat, recorded, recomputed, delta
           FROM score_items WHERE hand_id = ? ORDER BY item, seat NULLS FIRST""",
        [hand_id],
    )
    totals = frame(
        cur,
        """SELECT CAST(seat AS INTEGER) AS seat, player_id, CAST(role AS VARCHAR) AS role,
                  recorded_total, recomputed_total, delta
           FROM hand_scores WHERE hand_id = ? ORDER BY seat""",
        [hand_id],
    )
    unv = fetch(cur, f"SELECT unverified, {_HAND_STATE} FROM hands h WHERE hand_id = ?", [hand_id])
    found = frame(
        cur,
        """SELECT level, action_index, code, severity, message, rule, rule_text, consequence,
                  item, recorded, recomputed, card, player_ids,
                  json_extract_string(players, '$[*].name') AS names
           FROM findings WHERE hand_id = ?
           ORDER BY action_index NULLS LAST, severity, code""",
        [hand_id],
    )
    return {
        "violations": viol.to_dicts(),
        "items": items.to_dicts(),
        "totals": totals.to_dicts(),
        "unverified": list(unv[0][0] or []) if unv else [],
        "verification": str(unv[0][1]) if unv else "unverified",
        "findings": found.to_dicts(),
    }


def hand_facts(cur: duckdb.DuckDBPyConnection, hand_id: str) -> dict[str, Any] | None:
    """What the store says of one hand and its session (None for an unknown hand):
    session_id, number, game, ruleset, contract, declarer, partner, won, event_name,
    tournament, round, table_name, date."""
    rows = frame(
        cur,
        """SELECT h.session_id, h.number, CAST(h.game AS VARCHAR) AS game,
                  coalesce(h.ruleset, s.ruleset) AS ruleset, h.contract,
                  CAST(h.declarer AS INTEGER) AS declarer, CAST(h.partner AS INTEGER) AS partner,
                  h.won, s.event_name, s.tournament, CAST(s.round AS INTEGER) AS round,
                  s.table_name, s.date
           FROM hands h JOIN sessions s ON s.session_id = h.session_id
           WHERE h.hand_id = ? LIMIT 1""",
        [hand_id],
    ).to_dicts()
    return rows[0] if rows else None


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
    """:class:`tarock_logs.store.stats.Filters` from the Players page's filter values."""
    return Filters(
        player=player or None,
        game=game or None,
        event=event or None,
        date_from=date_from,
        date_to=date_to,
    )


def stats_section(
    cur: duckdb.DuckDBPyConnection, section: str, filters: tuple[Any, ...]
) -> pl.DataFrame:
    """One statistics table of :data:`tarock_logs.store.stats.SECTIONS` (``players``, ``roles``,
    ``contracts``, ``bonuses``, ``kontras``, ``synergy``, ``time``) under the filters
    ``(game, event, date_from, date_to, player)``."""
    return SECTIONS[section](cur, stats_filters(*filters))


def drill_hands(
    cur: duckdb.DuckDBPyConnection, filters: tuple[Any, ...], drill: tuple[tuple[str, Any], ...]
) -> pl.DataFrame:
    """The hands behind a figure (:func:`tarock_logs.store.stats.hands_for`) with the filters and
    drill-down fields (e.g. ``(("role", "declarer"), ("won", True))``), plus each hand's
    replay link."""
    df = hands_for(cur, stats_filters(*filters), **dict(drill))
    return df.with_columns(
        pl.format("/replay?hand={}&step=0&seat=all", pl.col("hand_id")).alias("replay")
    )


def filter_values(cur: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """What the Players filters offer: games, events, the date range, players (id → name)
    and contracts present in the store."""
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
    return {
        "games": games,
        "events": events,
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
    cur: duckdb.DuckDBPyConnection, section: str, filters: tuple[Any, ...]
) -> pl.DataFrame:
    """One per-game statistics table of :data:`GAME_SECTIONS` under the filters ``(game,
    event, date_from, date_to, player)`` (the game is required: games are never mixed)."""
    return GAME_SECTIONS[section](cur, stats_filters(*filters))


def game_thrown_in(cur: duckdb.DuckDBPyConnection, filters: tuple[Any, ...]) -> int:
    """The thrown-in deals of one game under the filters (counted on their own)."""
    return thrown_in(cur, stats_filters(*filters))


def game_drill_hands(
    cur: duckdb.DuckDBPyConnection,
    filters: tuple[Any, ...],
    drill: tuple[tuple[str, Any], ...],
    lang: str = "en",
) -> pl.DataFrame:
    """The hands behind a per-game figure (:func:`tarock_logs.store.stats.game_hands_for`):
    the filters ``(game, event, date_from, date_to, player)`` with the drill-down fields
    (``role``, ``contract`` narrow the filters; ``won``, ``thrown_in``, ``schlemm``,
    ``outcome``, ``kontra``, ``success``, ``opponent``, ``partner``), plus each hand's replay
    link (in the page's language ``lang``)."""
    fields = dict(drill)
    f = stats_filters(*filters)
    narrowed = {k: fields.pop(k) for k in ("role", "contract", "player") if k in fields}
    if narrowed:
        f = dataclasses.replace(f, **narrowed)
    df = game_hands_for(cur, f, **fields)
    return df.with_columns(
        pl.format("/replay?hand={}&step=0&seat=all&lang=" + lang, pl.col("hand_id")).alias("replay")
    )


def game_ratings(cur: duckdb.DuckDBPyConnection, game: str) -> Any:
    """The ratings of one game (:func:`tarock_logs.store.ratings.ratings`): current and
    history."""
    from tarock_logs.store.ratings import ratings

    return ratings(cur, game)
