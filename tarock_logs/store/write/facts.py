"""Facts computed at ingest: what the statistics count, one row per seat of a stored hand.

The statistics (:mod:`tarock_logs.store.read.stats`) read these tables instead of joining the raw
ones (actions, tricks, score items) for every figure:

* ``seat_facts``: per (hand, seat) the player, session, game, date, role, contract, the
  side's result, the score, and per seat the counts the Players page sums: contracts bid,
  bonuses announced and made, kontras given and successful, monds lost and captured, radelci
  earned and cleared, upheld renons, tricks won;
* ``bonus_facts`` and ``kontra_facts``: one row per announcement and per kontra, with the
  seat's player and whether it was made (succeeded); ``schlemm_facts``: Royal Tarock's
  Schlemme with their outcome;
* for the per-game tables, in ``seat_facts``: thrown-in deals, Royal Tarock's attacker and
  defender roles and its hands decided pair against pair;
* ``player_summary``: per player and role, the totals of ``seat_facts`` (the unfiltered
  Players page), refreshed for the players an ingest touched;
* per session (:func:`refresh_sessions`, for every session whose hands changed):
  ``session_player_facts``, each player's sums over the session's seats (score over time,
  a player's own rates); ``pair_facts``, per two players of a hand on the same or on
  opposite sides, their hands, wins and scores together (synergy, partners, head to head);
  ``match_facts``, per match of a game of fixed pairs and pair, the match result by the
  engine's rule (the match and pair standings).

The definitions are the module docstring of :mod:`tarock_logs.store.read.stats`; each is written
once, here, in SQL over the raw tables. The writer calls :func:`add` for each range of
loaded hands (their ``hand_key``\\ s are consecutive, so every scan is pruned to the range's
row groups; a range spans up to ``ingest.FACTS_EVERY`` keys, the rest of a run's at its end),
:func:`remove` before a changed or pruned file's hands are deleted, and
:func:`refresh_summaries` once per run (it also brings the per-session facts up to date:
:func:`add` and :func:`remove` drop those of the sessions they touch, and every session
without them gets them). A store migrated from an older schema version gets all its
facts from :func:`rebuild_all`. ``tests/store/test_facts.py`` checks that the statistics over
the facts equal plain queries over the raw tables, also after re-ingests.
"""

from __future__ import annotations

from functools import cache

import duckdb
import polars as pl

from tarock_logs.rules import games_with
from tarock_logs.store.read.stats import match_standings

#: The actions the facts read (:data:`_ACTS_TABLE`, made once per range).
_ACTS = "_acts"

#: ``_acts``: the actions of the key range ``$lo..$hi`` that the facts read (bids,
#: announcements, kontras: every statement reads no other type) with the fields they read,
#: from the two tables the store keeps them in (schema version 8), without the view
#: ``actions``'s join of the hand ids. Made once per range instead of joined in each
#: statement: DuckDB 2.0's planning is most of a facts statement's time, and it grows with
#: the statement's joins.
_ACTS_TABLE = """
    CREATE OR REPLACE TEMP TABLE _acts AS
    SELECT r.hand_key, r.idx, r.seat, r.type, d.contract, d.bonus, d.target, d.level, d.raises
    FROM action_rows r
    LEFT JOIN action_details d
           ON d.hand_key = r.hand_key AND d.idx = r.idx AND d.hand_key BETWEEN $lo AND $hi
    WHERE r.hand_key BETWEEN $lo AND $hi AND r.type IN ('bid', 'announce', 'kontra')
"""
#: Seats of the key range ``$lo..$hi``: the player-hand relation of the statistics, with the
#: seat's fixed pair and the dealer's (Royal Tarock) and whether the deal was thrown in.
_PH = """
    SELECT hs.hand_key, hs.seat, pl.player_key, s.session_key, h.game, s.date, h.number,
           hs.role, h.contract, sp.pair, dp.pair AS dealer_pair, h.won AS declarer_won,
           CASE WHEN hs.role IN ('declarer', 'partner') THEN h.won
                WHEN hs.role = 'defender' THEN NOT h.won END AS won,
           coalesce(hs.recorded_total, hs.recomputed_total) AS score,
           hs.radelci_before, hs.radelci_after, ti.hand_key IS NOT NULL AS thrown_in
    FROM hand_scores hs
    JOIN hands h ON h.hand_key = hs.hand_key
    JOIN sessions s ON s.session_id = h.session_id
    JOIN players pl ON pl.player_id = hs.player_id
    LEFT JOIN session_players sp ON sp.session_id = h.session_id AND sp.seat = hs.seat
    LEFT JOIN session_players dp ON dp.session_id = h.session_id AND dp.seat = h.dealer
    LEFT JOIN (SELECT DISTINCT hand_key FROM action_rows
               WHERE hand_key BETWEEN $lo AND $hi AND type = 'throw_in') ti
           ON ti.hand_key = hs.hand_key
    WHERE hs.hand_key BETWEEN $lo AND $hi AND h.hand_key BETWEEN $lo AND $hi
"""

#: The value of a hand's score item for the declarer's side (to tell whether a bonus or a
#: kontra went its announcer's way): the engine's, else the recorded one.
_DECLARER_ITEMS = """
    SELECT si.hand_key, si.item, coalesce(si.recomputed, si.recorded) AS value
    FROM score_items si JOIN hands h ON h.hand_key = si.hand_key AND si.seat = h.declarer
    WHERE si.hand_key BETWEEN $lo AND $hi AND h.hand_key BETWEEN $lo AND $hi
"""

#: An announcement is made when the bonus's item favours the announcer's side.
_BONUSES = f"""
    SELECT a.hand_key, a.seat, a.bonus,
           CASE WHEN v.value IS NULL THEN NULL
                WHEN ph.role IN ('declarer', 'partner') THEN v.value > 0
                ELSE v.value < 0 END AS made,
           ph.player_key
    FROM {_ACTS} a
    JOIN _ph ph ON ph.hand_key = a.hand_key AND ph.seat = a.seat
    LEFT JOIN ({_DECLARER_ITEMS}) v ON v.hand_key = a.hand_key AND v.item = a.bonus
    WHERE a.hand_key BETWEEN $lo AND $hi AND a.type = 'announce' AND a.bonus IS NOT NULL
"""

#: A kontra succeeds when the doubled item (``contract`` for the game) favours the side that
#: gave it; for the per-game tables, a Royal Tarock contra on a Schlemm succeeds when that
#: Schlemm failed (its announcer's item is negative).
_KONTRAS = f"""
    SELECT a.hand_key, a.seat, coalesce(a.target, 'game') AS target,
           CAST(coalesce(a.level, 1) AS UTINYINT) AS level,
           CASE WHEN v.value IS NULL THEN NULL
                WHEN ph.role IN ('declarer', 'partner') THEN v.value > 0
                ELSE v.value < 0 END AS success,
           CASE WHEN ph.game NOT IN @schlemm@ THEN
                    CASE WHEN v.value IS NULL THEN NULL
                         WHEN ph.role IN ('declarer', 'partner') THEN v.value > 0
                         ELSE v.value < 0 END
                WHEN rv.value < 0 THEN TRUE WHEN rv.value > 0 THEN FALSE END AS game_success,
           ph.player_key
    FROM {_ACTS} a
    JOIN _ph ph ON ph.hand_key = a.hand_key AND ph.seat = a.seat
    LEFT JOIN ({_DECLARER_ITEMS}) v
      ON v.hand_key = a.hand_key
     AND v.item = CASE WHEN coalesce(a.target, 'game') = 'game' THEN 'contract' ELSE a.target END
    LEFT JOIN (
        SELECT an.hand_key, an.bonus, min(coalesce(si.recomputed, si.recorded)) AS value
        FROM {_ACTS} an
        JOIN score_items si ON si.hand_key = an.hand_key AND si.seat = an.seat
         AND si.item = an.bonus
        WHERE an.hand_key BETWEEN $lo AND $hi AND si.hand_key BETWEEN $lo AND $hi
          AND an.type = 'announce'
        GROUP BY an.hand_key, an.bonus
    ) rv ON rv.hand_key = a.hand_key AND rv.bonus = a.target
    WHERE a.hand_key BETWEEN $lo AND $hi AND a.type = 'kontra'
"""

#: A Royal Tarock Schlemm (``S_…`` or the Spiel ``F_SPIEL``) announced by a seat, with its
#: outcome for the announcer: made (the announcer's item is positive), failed (negative),
#: raised (a partner's Hebung replaced it) or unknown (no item).
_SCHLEMME = f"""
    SELECT a.hand_key, a.seat, a.bonus,
           CASE WHEN v.value > 0 THEN 'made' WHEN v.value < 0 THEN 'failed'
                WHEN r.raised THEN 'raised' ELSE 'unknown' END AS outcome
    FROM {_ACTS} a
    JOIN hands h ON h.hand_key = a.hand_key AND h.game IN @schlemm@
    LEFT JOIN (
        SELECT hand_key, seat, item, coalesce(recomputed, recorded) AS value FROM score_items
        WHERE hand_key BETWEEN $lo AND $hi
    ) v ON v.hand_key = a.hand_key AND v.seat = a.seat AND v.item = a.bonus
    LEFT JOIN (
        SELECT DISTINCT x.hand_key, x.raises AS bonus, TRUE AS raised
        FROM {_ACTS} x WHERE x.type = 'announce'
          AND x.raises IS NOT NULL
    ) r ON r.hand_key = a.hand_key AND r.bonus = a.bonus
    WHERE a.hand_key BETWEEN $lo AND $hi AND h.hand_key BETWEEN $lo AND $hi
      AND a.type = 'announce' AND a.bonus IS NOT NULL
      AND (a.bonus LIKE 'S\\_%' ESCAPE '\\' OR a.bonus = 'F_SPIEL')
"""

#: The mond (T21) is lost by the seat that played it when the trick goes to the other side
#: (in klop: to anybody else), and captured by the trick's winner.
_MONDS = """
    SELECT m.hand_key, m.loser, m.winner
    FROM (
        SELECT hand_key, seats[list_position(cards, 'T21')] AS loser, winner
        FROM tricks WHERE hand_key BETWEEN $lo AND $hi AND list_contains(cards, 'T21')
    ) m
    JOIN hand_scores a ON a.hand_key = m.hand_key AND a.seat = m.loser
    JOIN hand_scores b ON b.hand_key = m.hand_key AND b.seat = m.winner
    WHERE a.hand_key BETWEEN $lo AND $hi AND b.hand_key BETWEEN $lo AND $hi
      AND m.loser <> m.winner
      AND NOT (a.role IN ('declarer', 'partner') AND b.role IN ('declarer', 'partner'))
      AND NOT (a.role = 'defender' AND b.role = 'defender')
"""

#: The seats' counts: one row per event (a contract bid, an announcement and whether it was
#: made, a kontra and whether it succeeded, a mond lost or captured, an upheld renons, a trick
#: won) with its kind ``k`` and outcome ``v``, counted per seat. (Counting one narrow kind
#: column instead of summing nine indicator columns, and the monds' relation read once for
#: both of its seats: measured ≈ 5 ms less per computation, most of it fixed.)
_SEAT_FACTS = f"""
    INSERT INTO seat_facts
    WITH ph AS (SELECT * FROM _ph),
    ev AS (
        SELECT hand_key, seat,
               CAST(count(*) FILTER (WHERE k = 0) > 0 AS INTEGER) AS bid,
               count(*) FILTER (WHERE k = 1) AS ann,
               count(*) FILTER (WHERE k = 1 AND v) AS made,
               count(*) FILTER (WHERE k = 2) AS kg,
               count(*) FILTER (WHERE k = 2 AND v) AS ks,
               count(*) FILTER (WHERE k = 3) AS ml,
               count(*) FILTER (WHERE k = 4) AS mc,
               count(*) FILTER (WHERE k = 5) AS rn,
               count(*) FILTER (WHERE k = 6) AS tw
        FROM (
            SELECT hand_key, seat, 0 AS k, CAST(NULL AS BOOLEAN) AS v
            FROM {_ACTS} b WHERE type = 'bid'
                AND contract IS NOT NULL AND contract <> 'klop'
            UNION ALL SELECT hand_key, seat, 1, made FROM bonus_facts
                WHERE hand_key BETWEEN $lo AND $hi
            UNION ALL SELECT hand_key, seat, 2, success FROM kontra_facts
                WHERE hand_key BETWEEN $lo AND $hi
            UNION ALL SELECT hand_key, unnest([loser, winner]), unnest([3, 4]), NULL
                FROM ({_MONDS})
            UNION ALL SELECT hand_key, seat, 5, NULL FROM irregularities
                WHERE hand_key BETWEEN $lo AND $hi AND type = 'renons'
                  AND coalesce(upheld, TRUE)
            UNION ALL SELECT hand_key, winner, 6, NULL FROM tricks
                WHERE hand_key BETWEEN $lo AND $hi AND winner IS NOT NULL
        ) GROUP BY hand_key, seat
    )
    , gpair AS (
        SELECT hand_key, pair, max(score) AS pair_score
        FROM ph WHERE game IN @fixed_pairs@ AND pair IS NOT NULL GROUP BY hand_key, pair
    )
    SELECT ph.hand_key, ph.seat, ph.player_key, ph.session_key, ph.game, ph.date, ph.number,
           ph.role, ph.contract, ph.pair, ph.declarer_won, ph.won, ph.score,
           greatest(coalesce(ph.radelci_after, 0) - coalesce(ph.radelci_before, 0), 0),
           greatest(coalesce(ph.radelci_before, 0) - coalesce(ph.radelci_after, 0), 0),
           coalesce(ev.bid, 0), coalesce(ev.ann, 0), coalesce(ev.made, 0), coalesce(ev.kg, 0),
           coalesce(ev.ks, 0), coalesce(ev.ml, 0), coalesce(ev.mc, 0), coalesce(ev.rn, 0),
           coalesce(ev.tw, 0), ph.thrown_in,
           CASE WHEN ph.role = 'unknown' AND ph.game IN @fixed_pairs@ AND ph.pair IS NOT NULL
                THEN CASE WHEN ph.pair = ph.dealer_pair THEN 'defender' ELSE 'attacker' END
                ELSE CAST(ph.role AS VARCHAR) END,
           CASE WHEN ph.thrown_in THEN NULL
                WHEN ph.game IN @fixed_pairs@ AND ph.pair IS NOT NULL THEN
                    CASE WHEN mine.pair_score > theirs.pair_score THEN TRUE
                         WHEN mine.pair_score < theirs.pair_score THEN FALSE END
                ELSE ph.won END
    FROM ph LEFT JOIN ev ON ev.hand_key = ph.hand_key AND ev.seat = ph.seat
    LEFT JOIN gpair mine ON mine.hand_key = ph.hand_key AND mine.pair = ph.pair
    LEFT JOIN gpair theirs ON theirs.hand_key = ph.hand_key AND theirs.pair <> ph.pair
"""

# (the columns named: ``player_key``, of schema version 12, is the tables' last column)
_BONUS_FACTS = f"INSERT INTO bonus_facts (hand_key, seat, bonus, made, player_key) {_BONUSES}"
_KONTRA_FACTS = (
    "INSERT INTO kontra_facts (hand_key, seat, target, level, success, game_success, "
    f"player_key) {_KONTRAS}"
)
_SCHLEMM_FACTS = f"INSERT INTO schlemm_facts {_SCHLEMME}"

#: the facts tables, all keyed by hand_key
TABLES = ("seat_facts", "bonus_facts", "kontra_facts", "schlemm_facts")
#: the per-session facts tables (:func:`refresh_sessions`), keyed by session_key
SESSION_TABLES = ("session_player_facts", "pair_facts", "match_facts")


def begin_run(con: duckdb.DuckDBPyConnection) -> None:
    """``_touched``: the players whose summaries this run must refresh."""
    con.execute("CREATE OR REPLACE TEMP TABLE _touched (player_key INTEGER)")


#: what each per-event facts statement reads: it can have rows only for a key range whose
#: hands include a game with this feature (None: any game) and whose actions include these
#: types
_NEEDS: dict[str, tuple[str | None, str]] = {
    _BONUS_FACTS: (None, "announce"),
    _KONTRA_FACTS: (None, "kontra"),
    _SCHLEMM_FACTS: ("schlemm", "announce"),
}


@cache
def _games_in(feature: str) -> str:
    """The SQL list of the games whose engine declares ``feature`` (``('a', 'b')``; a list
    that matches no game when none does)."""
    games = games_with(feature) or ("",)
    return "(" + ", ".join("'" + g.replace("'", "''") + "'" for g in games) + ")"


@cache
def _sql(statement: str) -> str:
    """``statement`` with each ``@feature@`` replaced by the SQL list of the games that
    declare the feature (the facts never name a game: the engines say what they have)."""
    for feature in ("fixed_pairs", "schlemm"):
        statement = statement.replace(f"@{feature}@", _games_in(feature))
    return statement


def add(
    con: duckdb.DuckDBPyConnection,
    lo: int,
    hi: int,
    seen: tuple[frozenset[str], frozenset[str]] | None = None,
    *,
    session_facts: bool = True,
) -> None:
    """The facts of the stored hands with ``lo <= hand_key <= hi`` (their raw rows are in).

    ``seen``: the games of those hands and the types of their actions, when the caller knows
    them (the writer does): a statement that cannot have rows for them is not run (each costs
    a few ms whatever its size). ``session_facts`` false: the caller knows that the store
    holds no per-session facts yet (a new store, before :func:`refresh_sessions`), so there
    are none of the range's sessions to drop (the drop's scan costs ≈ 2–4 ms)."""
    params = {"lo": lo, "hi": hi}
    # the player-hand relation once (``_ph``), the announcements and kontras once (their
    # tables), and the seats' counts from those: each computed a single time
    con.execute(f"CREATE OR REPLACE TEMP TABLE _ph AS {_PH}", params)
    try:
        con.execute(_ACTS_TABLE, params)
        for sql in (_BONUS_FACTS, _KONTRA_FACTS, _SCHLEMM_FACTS, _SEAT_FACTS):
            need = _NEEDS.get(sql)
            if seen is not None and need is not None:
                feature, action = need
                if feature is not None and not seen[0].intersection(games_with(feature)):
                    continue
                if action not in seen[1]:
                    continue
            con.execute(_sql(sql), params)
        # (the seats of the range are those of ``_ph``: one row of seat_facts each)
        con.execute("INSERT INTO _touched SELECT DISTINCT player_key FROM _ph")
        # their sessions' facts are due again (:func:`refresh_sessions`)
        if session_facts:
            _drop_sessions(con, "SELECT DISTINCT session_key FROM _ph")
    finally:
        con.execute("DROP TABLE IF EXISTS _ph")
        con.execute("DROP TABLE IF EXISTS _acts")


def remove(con: duckdb.DuckDBPyConnection, keys_sql: str, params: object = None) -> None:
    """Remove the facts of the hands whose keys ``keys_sql`` selects (before the hands
    themselves go), remembering their players."""
    con.execute(
        f"INSERT INTO _touched SELECT DISTINCT player_key FROM seat_facts "
        f"WHERE hand_key IN ({keys_sql})",
        params,
    )
    _drop_sessions(
        con, f"SELECT DISTINCT session_key FROM seat_facts WHERE hand_key IN ({keys_sql})", params
    )
    for table in TABLES:
        con.execute(f"DELETE FROM {table} WHERE hand_key IN ({keys_sql})", params)


_SUMMARY = """
    SELECT player_key, role, count(*) AS hands, count(won) AS decided,
           count(*) FILTER (WHERE won) AS won, CAST(sum(score) AS BIGINT) AS total_score,
           count(score) AS score_count, sum(contracts_bid) AS contracts_bid,
           sum(bonuses_announced) AS bonuses_announced, sum(bonuses_made) AS bonuses_made,
           sum(kontras_given) AS kontras_given, sum(kontras_successful) AS kontras_successful,
           sum(monds_lost) AS monds_lost, sum(monds_captured) AS monds_captured,
           sum(radelci_earned) AS radelci_earned, sum(radelci_cleared) AS radelci_cleared,
           sum(renons) AS renons, sum(tricks_won) AS tricks_won
    FROM seat_facts
"""


def refresh_summaries(con: duckdb.DuckDBPyConnection, *, stored: bool = True) -> None:
    """Recompute ``player_summary`` for the players this run touched, and the per-session
    facts of the sessions without them (:func:`refresh_sessions`). ``stored`` false: the
    caller knows that ``player_summary`` is empty (a new store), so nothing is deleted."""
    if stored:
        con.execute(
            "DELETE FROM player_summary WHERE player_key IN (SELECT player_key FROM _touched)"
        )
    con.execute(
        f"INSERT INTO player_summary {_SUMMARY} "
        "WHERE player_key IN (SELECT player_key FROM _touched) GROUP BY player_key, role"
    )
    con.execute("DELETE FROM _touched")
    refresh_sessions(con)


def rebuild_all(con: duckdb.DuckDBPyConnection) -> None:
    """Every fact and summary from the raw tables (a store migrated from an older schema)."""
    for table in (*TABLES, *SESSION_TABLES, "player_summary"):
        con.execute(f"DELETE FROM {table}")
    lo, hi = con.execute("SELECT min(hand_key), max(hand_key) FROM hands").fetchall()[0]
    if lo is not None:
        add(con, int(lo), int(hi))
    con.execute(f"INSERT INTO player_summary {_SUMMARY} GROUP BY player_key, role")
    con.execute("DELETE FROM _touched")
    refresh_sessions(con)


def summary_sql() -> str:
    """The aggregation that ``player_summary`` holds, over ``seat_facts`` (for the tests)."""
    return _SUMMARY


# --------------------------------------------------------------------------- per session
#
# The facts of whole sessions: a range of keys may hold part of a session, and a later run may
# add hands to it (a hand from another file), so :func:`add` and :func:`remove` only drop the
# per-session facts of the sessions they touch, and :func:`refresh_sessions` (once per run)
# computes them for every session that has seat facts and no per-session facts. Each is the
# aggregation the statistics did over the whole store, grouped by session as well: summed
# over the sessions a filter keeps (game, event, dates: every seat of a session shares them),
# it gives the same figures.


#: sessions per computation of :func:`refresh_sessions` (bounds its memory)
SESSIONS_EVERY = 4096


def _drop_sessions(con: duckdb.DuckDBPyConnection, keys_sql: str, params: object = None) -> None:
    """Drop the per-session facts of the sessions ``keys_sql`` selects. (A session with pair
    or match facts has player facts too: when none of its sessions has those, as for the new
    sessions of an ingest, one statement is all it costs.)"""
    gone = con.execute(
        f"DELETE FROM session_player_facts WHERE session_key IN ({keys_sql}) RETURNING session_key",
        params,
    ).fetchall()
    if not gone:
        return
    keys = sorted({int(k) for (k,) in gone})
    for table in ("pair_facts", "match_facts"):
        con.execute(
            f"DELETE FROM {table} WHERE session_key IN (SELECT unnest(?::INTEGER[]))", [keys]
        )


#: the seats of the sessions of ``_sess`` with the player's id (pairs are ordered by it)
_SF = """
    SELECT sf.session_key, sf.hand_key, sf.player_key, p.player_id, sf.game, sf.date,
           sf.role, sf.pair, sf.won, sf.score, sf.thrown_in, sf.game_role, sf.game_won
    FROM seat_facts sf JOIN players p USING (player_key)
    WHERE sf.session_key IN (SELECT session_key FROM _sess)
"""

_SESSION_PLAYER_FACTS = """
    INSERT INTO session_player_facts
    SELECT session_key, player_key, any_value(game), any_value(date), count(*),
           CAST(sum(score) AS BIGINT), count(score), count(won), count(*) FILTER (WHERE won),
           count(game_won), count(*) FILTER (WHERE game_won)
    FROM _sf GROUP BY session_key, player_key
"""

#: kind 0, the statistics' synergy: two seats of a hand on the same side (declarer and
#: partner; a fixed pair), by the generic role and result, a's id before b's
_SYNERGY = """
    SELECT a.session_key, a.game, a.date, 0 AS kind, a.player_key AS key_a,
           b.player_key AS key_b, count(*) AS hands, count(a.won) AS decided,
           count(*) FILTER (WHERE a.won) AS won, sum(a.score) AS score_a,
           count(a.score) AS scored_a, sum(b.score) AS score_b, count(b.score) AS scored_b
    FROM side0 a JOIN side0 b ON a.hand_key = b.hand_key AND a.player_id < b.player_id
    WHERE (a.declaring AND b.declaring) OR (a.pair IS NOT NULL AND a.pair = b.pair)
    GROUP BY a.session_key, a.game, a.date, a.player_key, b.player_key
"""

#: kinds 1 and 2, the per-game partners and head to head: two players of a decided hand on
#: the same side (by the per-game role; a fixed pair) or on opposite sides, in both orders
_GAME_PAIRS = """
    SELECT a.session_key, a.game, a.date,
           CASE WHEN a.game_won = b.game_won THEN 1 ELSE 2 END AS kind,
           a.player_key AS key_a, b.player_key AS key_b, count(*) AS hands,
           count(*) AS decided, count(*) FILTER (WHERE a.game_won) AS won,
           sum(a.score) AS score_a, count(a.score) AS scored_a,
           sum(b.score) AS score_b, count(b.score) AS scored_b
    FROM decided a JOIN decided b ON a.hand_key = b.hand_key AND a.player_id <> b.player_id
    WHERE a.game_won <> b.game_won
       OR ((a.game_role IN ('declarer', 'partner') AND b.game_role IN ('declarer', 'partner'))
           OR (a.pair IS NOT NULL AND a.pair = b.pair))
    GROUP BY a.session_key, a.game, a.date, kind, a.player_key, b.player_key
"""

_PAIR_FACTS = f"""
    INSERT INTO pair_facts
    WITH side0 AS (
        SELECT *, role IN ('declarer', 'partner') AS declaring FROM _sf
        WHERE role IN ('declarer', 'partner') OR pair IS NOT NULL)
    , decided AS (SELECT * FROM _sf WHERE game_won IS NOT NULL)
    {_SYNERGY}
    UNION ALL
    {_GAME_PAIRS}
"""

#: per match (a session of a game of fixed pairs) and pair, before the engine's rule
_MATCHES = """
    SELECT sf.session_key, any_value(sf.game) AS game, any_value(sf.date) AS date,
           any_value(h.ruleset) AS ruleset, sf.pair,
           list(DISTINCT sf.player_key) AS player_keys,
           count(DISTINCT sf.hand_key) AS games,
           CAST(sum(sf.score) / count(DISTINCT sf.player_key) AS BIGINT) AS points
    FROM _sf sf JOIN hands h USING (hand_key)
    WHERE sf.game IN @fixed_pairs@ AND sf.pair IS NOT NULL AND NOT sf.thrown_in
    GROUP BY sf.session_key, sf.pair ORDER BY sf.session_key, sf.pair
"""


def _match_facts(con: duckdb.DuckDBPyConnection) -> None:
    """``match_facts`` of the sessions of ``_sess`` (``_sf``), each match's result by its
    engine (:func:`~tarock_logs.store.read.stats.match_standings`)."""
    if not games_with("fixed_pairs"):
        return
    cur = con.execute(_sql(_MATCHES))
    names = [d[0] for d in cur.description or ()]
    rows = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
    if not rows:
        return
    out: list[dict[str, object]] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and rows[j]["session_key"] == rows[i]["session_key"]:
            j += 1
        out += match_standings(rows[i:j])
        i = j
    facts = pl.DataFrame(out, infer_schema_length=None).select(
        "session_key", pl.col("game").cast(pl.String), pl.col("date").cast(pl.Date), "pair",
        pl.col("player_keys").list.sort(), "games", "points", "match_points", "result",
    )  # fmt: skip
    con.register("_match_rows", facts)
    try:
        con.execute(
            "INSERT INTO match_facts SELECT session_key, game, date, pair, player_keys, games, "
            "points, match_points, result FROM _match_rows"
        )
    finally:
        con.unregister("_match_rows")


#: the sessions due (:func:`refresh_sessions`), each with whether its game has fixed pairs
#: (only those have match facts)
_DUE = """
    SELECT session_key, bool_or(game IN @fixed_pairs@) FROM seat_facts
    WHERE session_key NOT IN (SELECT session_key FROM session_player_facts)
    GROUP BY session_key ORDER BY session_key
"""


def refresh_sessions(con: duckdb.DuckDBPyConnection) -> None:
    """The per-session facts of every session that has seat facts and no player facts (new
    sessions, and those whose hands :func:`add` or :func:`remove` touched: they dropped all
    three kinds). The sessions due are read once with whether their game has fixed pairs: a
    chunk without such a session has no match facts, and their statement is not run (each
    statement costs a few ms whatever its size)."""
    due = con.execute(_sql(_DUE)).fetchall()
    try:
        # a chunk of sessions at a time: the pairs of a million hands at once held 1.5 GB
        for i in range(0, len(due), SESSIONS_EVERY):
            chunk = due[i : i + SESSIONS_EVERY]
            con.execute(
                "CREATE OR REPLACE TEMP TABLE _sess AS SELECT unnest(?::INTEGER[]) AS session_key",
                [[int(k) for k, _ in chunk]],
            )
            con.execute(f"CREATE OR REPLACE TEMP TABLE _sf AS {_SF}")
            con.execute(_SESSION_PLAYER_FACTS)
            con.execute(_PAIR_FACTS)
            if any(pairs for _, pairs in chunk):
                _match_facts(con)
    finally:
        if due:
            for table in ("_sf", "_sess"):
                con.execute(f"DROP TABLE IF EXISTS {table}")
