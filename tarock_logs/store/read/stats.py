"""Statistics over the store: polars frames from DuckDB, every figure traceable to its hands.

All figures are computed from one base relation, the **player-hand**: one row per seat of a
stored hand (``hand_scores``) with the player, the seat's role (``declarer``, ``partner`` —
the called-king partner in Slovenian tarok —, ``defender``, ``klop`` when everybody plays
alone, ``sitting_out`` for the dealer at a table of five, ``unknown`` when no engine derived
the roles), the hand's contract and event. A :class:`Filters` restricts that relation (by
player, game, event, date, role, contract), and :func:`hands_for` returns the hands behind any
figure with the same semantics, so a count shown equals the number of hands a drill-down lists.

Conventions, written once:

* **score** of a seat in a hand: the total the scorer wrote (``recorded_total``), else the
  engine's recomputed total. Statistics describe what was written at the table.
* **won** for a seat: the declarer's side won (declarer and partner) or lost (defenders); no
  value in klop, for a sitting-out dealer, or when no engine decided the hand.
* a **contract bid**: a ``bid`` action naming a contract other than ``klop``; **played**: the
  player was the declarer; **won**: the declarer won.
* a **bonus** (trula, kralji, pagat ultimo, …) announced by a seat is **made** when its score
  item (the engine's, else the recorded one) favours the announcer's side. A **kontra**
  (doubling; re-kontra, sub-kontra, mord-kontra at levels 2-4) succeeds when the doubled item
  (``contract`` for the game) favours the side that gave it.
* a **mond** (T21, the second-highest tarok) is **lost** by the seat that played it when the
  trick goes to the other side (or, in klop, to anybody else) and **captured** by the winner
  of that trick. Counted from the recorded tricks, so hands without plays do not count.
* a **radelc** (the doubling token earned in big games and klop) is **earned** when a seat's
  radelci count rises across a hand and **cleared** when it falls.
* a **renons** (a called rules violation) is counted for the offender when it was upheld.

Rates come with ``n`` and ``enough`` (``n >= MIN_SAMPLE``): charts and rankings should show
only rows with enough hands.

The figures are read from the facts the ingest computes (:mod:`tarock_logs.store.write.facts`: one
row per seat of a stored hand with its counts, one per announcement and kontra, per-player
totals), so a statistic of a million hands is a scan of narrow integer columns, never a join
of actions and tricks; ``tests/store/test_facts.py`` checks them against plain queries over
the raw tables. ``mask=True`` gives players' names as their pseudonyms (in SQL, the same as
``dashboard.view_model.pseudonym``); :func:`hands_for` pages with ``limit`` and ``offset``
and :func:`count_hands_for` counts what it lists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import duckdb
import polars as pl

from tarock_logs.store.pseudonyms import pseudonym_sql

if TYPE_CHECKING:
    from tarock_logs.rules.base import GameEngine

MIN_SAMPLE = 10
ROLES = ("declarer", "partner", "defender", "klop", "sitting_out", "unknown")
SIDE_ROLES = ("declarer", "partner")


@dataclass(frozen=True, slots=True)
class Filters:
    """What to count. ``player`` matches a player id or an exact name; ``event`` an event name
    or tournament id; dates are inclusive (session dates)."""

    player: str | None = None
    game: str | None = None
    event: str | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    role: str | None = None
    contract: str | None = None

    def where(self, alias: str = "sf", *, with_player: bool = True) -> tuple[str, list[Any]]:
        """SQL conditions on the seat facts ``alias`` and their bound values."""
        conds: list[str] = []
        vals: list[Any] = []
        if with_player and self.player is not None:
            conds.append(
                f"{alias}.player_key IN "
                "(SELECT player_key FROM players WHERE player_id = ? OR name = ?)"
            )
            vals += [self.player, self.player]
        if self.game is not None:
            conds.append(f"{alias}.game = ?")
            vals.append(self.game)
        if self.event is not None:
            conds.append(
                f"{alias}.session_key IN "
                "(SELECT session_key FROM sessions WHERE event_name = ? OR tournament = ?)"
            )
            vals += [self.event, self.event]
        if self.date_from is not None:
            conds.append(f"{alias}.date >= ?")
            vals.append(self.date_from)
        if self.date_to is not None:
            conds.append(f"{alias}.date <= ?")
            vals.append(self.date_to)
        if self.role is not None:
            conds.append(f"{alias}.role = ?")
            vals.append(self.role)
        if self.contract is not None:
            conds.append(f"{alias}.contract = ?")
            vals.append(self.contract)
        return (" AND ".join(conds) or "TRUE"), vals

    @property
    def unfiltered(self) -> bool:
        """Nothing but (perhaps) a player: the per-player summaries answer."""
        return replace(self, player=None) == Filters()


def _name(expr: str, mask: bool) -> str:
    """A player's name column: the name, or with ``mask`` the pseudonym of the name (or of
    the id when the player has no name)."""
    return pseudonym_sql(f"coalesce({expr}, player_id)") if mask else expr


def with_seat_facts(
    f: Filters, *, with_player: bool = True, mask: bool = False, narrow: bool = False
) -> tuple[str, list[Any]]:
    """The ``WITH ph AS (filtered seat facts with the player's id and name)`` prefix; with
    ``narrow`` only the facts' own columns, ``role`` and ``game`` still enums (no id or name:
    a query that groups by ``player_key`` looks them up for its groups, not for every seat;
    every seat's ``player_key`` is a player's, so the seats are not joined to ``players``)."""
    cond, vals = f.where("sf", with_player=with_player)
    if narrow:
        return (
            f"WITH ph AS NOT MATERIALIZED (SELECT sf.* FROM seat_facts sf WHERE {cond})\n"
        ), vals
    return (
        "WITH ph AS (SELECT sf.* EXCLUDE (role, game), CAST(sf.role AS VARCHAR) AS role, "
        f"CAST(sf.game AS VARCHAR) AS game, p.player_id, {_name('p.name', mask)} AS name "
        f"FROM seat_facts sf JOIN players p USING (player_key) WHERE {cond})\n"
    ), vals


def query_frame(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any]) -> pl.DataFrame:
    """The rows of ``sql`` (``?`` bound to ``params``) as a polars frame, on a cursor of its
    own (a connection is shared by threads). The frame is read through the Arrow C stream
    interface (``pl.DataFrame(relation)``): the same frame as ``relation.pl()``, without
    importing pyarrow (a quarter of a second of ``tarock stats``' start-up)."""
    cur = con.cursor()
    try:
        return pl.DataFrame(cur.sql(sql, params=list(params)))
    finally:
        cur.close()


def _per_session(f: Filters) -> bool:
    """Whether the per-session facts (``session_player_facts``, ``pair_facts``,
    ``match_facts``) answer under ``f``: its conditions hold for whole sessions (game, event,
    dates, a player's own rows); a role or a contract picks seats, which only the seat facts
    know."""
    return f.role is None and f.contract is None


def _session_facts(
    con: duckdb.DuckDBPyConnection, f: Filters, facts: Any, seats: Any
) -> pl.DataFrame:
    """``facts()`` when the per-session facts answer under ``f`` and the store has them (a
    store of schema version 10 or older has not), else ``seats()`` over the seat facts."""
    if _per_session(f):
        try:
            out: pl.DataFrame = facts()
            return out
        except duckdb.CatalogException:
            pass
    out = seats()
    return out


def _rate(df: pl.DataFrame, num: str, den: str, name: str) -> pl.DataFrame:
    return df.with_columns(
        pl.when(pl.col(den) > 0).then(pl.col(num) / pl.col(den)).otherwise(None).alias(name)
    )


def _enough(df: pl.DataFrame, n: str) -> pl.DataFrame:
    return df.with_columns((pl.col(n) >= MIN_SAMPLE).alias("enough"))


def _summary(f: Filters, mask: bool) -> tuple[str, list[Any]]:
    """``WITH ps AS (the per-player summaries of the filter's player, or everyone)``."""
    cond, vals = f.where("ps")
    return (
        "WITH ps AS (SELECT ps.* EXCLUDE (role), CAST(ps.role AS VARCHAR) AS role, p.player_id, "
        f"{_name('p.name', mask)} AS name FROM player_summary ps JOIN players p "
        f"USING (player_key) WHERE {cond})\n"
    ), vals


# --------------------------------------------------------------------------- figures


def player_roles(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), *, mask: bool = False
) -> pl.DataFrame:
    """Per player and role: hands, decided hands, won, win rate, total and average score."""
    if f.unfiltered:
        w, vals = _summary(f, mask)
        sql = (
            w + "SELECT player_id, name, role, hands, decided, won, total_score, "
            "CAST(total_score AS DOUBLE) / nullif(score_count, 0) AS avg_score "
            "FROM ps ORDER BY player_id, role"
        )
    else:
        w, vals = with_seat_facts(f, mask=mask)
        sql = (
            w + "SELECT player_id, any_value(name) AS name, role, count(*) AS hands, "
            "count(won) AS decided, count(*) FILTER (WHERE won) AS won, "
            "CAST(sum(score) AS BIGINT) AS total_score, avg(score) AS avg_score "
            "FROM ph GROUP BY player_id, role ORDER BY player_id, role"
        )
    df = query_frame(con, sql, vals).with_columns(
        pl.col("hands", "decided", "won").cast(pl.Int64), pl.col("total_score").cast(pl.Int64)
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "hands")


#: the per-seat counts of the facts that the players section sums
_COUNTS = (
    "bonuses_announced", "bonuses_made", "kontras_given", "kontras_successful", "monds_lost",
    "monds_captured", "radelci_earned", "radelci_cleared", "renons", "tricks_won",
)  # fmt: skip


def players(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), *, mask: bool = False
) -> pl.DataFrame:
    """Per player: hands, score, contracts bid/played/won, bonuses, kontras, monds, radelci,
    renons and tricks won (see the module docstring for each definition)."""
    sums = ", ".join(f"sum({c}) AS {c}" for c in _COUNTS)
    if f.unfiltered:
        w, vals = _summary(f, mask)
        sql = (
            w + "SELECT player_id, any_value(name) AS name, sum(hands) AS hands, "
            "sum(decided) AS decided, sum(won) AS won, "
            "CAST(sum(total_score) AS BIGINT) AS total_score, "
            "sum(total_score) / nullif(sum(score_count), 0) AS avg_score, "
            "sum(contracts_bid) AS contracts_bid, "
            "sum(hands) FILTER (WHERE role = 'declarer') AS contracts_played, "
            "sum(won) FILTER (WHERE role = 'declarer') AS contracts_won, "
            f"{sums} FROM ps GROUP BY player_id ORDER BY player_id"
        )
    else:
        w, vals = with_seat_facts(f, mask=mask)
        sql = (
            w + "SELECT player_id, any_value(name) AS name, count(*) AS hands, "
            "count(won) AS decided, count(*) FILTER (WHERE won) AS won, "
            "CAST(sum(score) AS BIGINT) AS total_score, avg(score) AS avg_score, "
            "count(*) FILTER (WHERE contracts_bid > 0) AS contracts_bid, "
            "count(*) FILTER (WHERE role = 'declarer') AS contracts_played, "
            "count(*) FILTER (WHERE role = 'declarer' AND won) AS contracts_won, "
            f"{sums} FROM ph GROUP BY player_id ORDER BY player_id"
        )
    counts = ("hands", "decided", "won", "contracts_bid", "contracts_played", "contracts_won")
    df = query_frame(con, sql, vals).with_columns(
        pl.col(*counts).fill_null(0).cast(pl.Int64),
        pl.col("total_score").cast(pl.Int64),
        pl.col("avg_score").cast(pl.Float64),
        pl.col(*_COUNTS).fill_null(0).cast(pl.Int64),
    )
    df = _rate(df, "won", "decided", "win_rate")
    df = _rate(df, "contracts_won", "contracts_played", "contract_win_rate")
    return _enough(df, "hands")


def contracts(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), *, mask: bool = False
) -> pl.DataFrame:
    """Per contract: hands played, won, win rate and the declarer's average score (with a
    player filter: the contracts that player declared). Klop has no declarer: its row counts
    the hands (``played``) with no win rate. ``drill_role`` is the role to pass to
    :func:`hands_for` with the contract to list the hands behind the row."""
    # a hand has one declarer, so its declarer's seat counts the hand, with the average
    # score; klop (no declarer: every seat's role is ``klop``) is counted from one row per
    # (contract, hand). Each is one aggregation of its own seats (one statement over the
    # seats of both roles, read three times, took twice as long at a million hands).
    w, vals = with_seat_facts(replace(f, role=None), mask=mask, narrow=True)
    df = query_frame(
        con,
        w
        + """
        , declared AS (
            SELECT contract, count(*) AS played, count(*) FILTER (WHERE declarer_won) AS won,
                   count(declarer_won) AS decided, avg(score) AS avg_declarer_score
            FROM ph WHERE contract IS NOT NULL AND role = 'declarer' GROUP BY contract)
        , klop_hands AS (
            SELECT contract, hand_key, bool_or(declarer_won) AS won,
                   bool_or(declarer_won IS NOT NULL) AS decided
            FROM ph WHERE contract IS NOT NULL AND role = 'klop' GROUP BY contract, hand_key)
        , klop AS (
            SELECT contract, count(*) AS played, count(*) FILTER (WHERE won) AS won,
                   count(*) FILTER (WHERE decided) AS decided
            FROM klop_hands GROUP BY contract)
        SELECT contract,
               CAST(coalesce(d.played, 0) + coalesce(k.played, 0) AS BIGINT) AS played,
               CAST(coalesce(d.won, 0) + coalesce(k.won, 0) AS BIGINT) AS won,
               CAST(coalesce(d.decided, 0) + coalesce(k.decided, 0) AS BIGINT) AS decided,
               d.avg_declarer_score,
               CASE WHEN d.contract IS NOT NULL THEN 'declarer' ELSE 'klop' END AS drill_role
        FROM declared d FULL JOIN klop k USING (contract)
        ORDER BY played DESC, contract""",
        vals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "played")


def _fact_rows(f: Filters, table: str, own_key: bool) -> tuple[str, str, list[Any]]:
    """The rows of ``table`` (``bonus_facts``, ``kontra_facts``, aliased ``x``) under ``f``:
    ``FROM … WHERE …``, the expression of each row's player key and the bound values. With
    ``own_key`` the rows' own ``player_key`` (schema version 12; only a player filter applies
    to it), else each row joined to its seat in ``seat_facts``, whose columns every filter
    is on."""
    if own_key:
        cond, vals = f.where("x")
        return f"FROM {table} x WHERE {cond}", "x.player_key", vals
    cond, vals = f.where("sf")
    return (
        (
            f"FROM {table} x JOIN seat_facts sf ON sf.hand_key = x.hand_key AND sf.seat = x.seat "
            f"WHERE {cond}"
        ),
        "sf.player_key",
        vals,
    )


def _per_player(con: duckdb.DuckDBPyConnection, f: Filters, table: str, sql: str) -> pl.DataFrame:
    """``sql`` with ``{rows}`` and ``{key}`` filled in by :func:`_fact_rows`: from the rows'
    own player keys when ``f`` filters on nothing but a player (a million hands' bonuses were
    a join with four million seats) and the store has them (schema version 12), else over
    the seats."""
    if f.unfiltered:
        rows, key, vals = _fact_rows(f, table, own_key=True)
        try:
            return query_frame(con, sql.replace("{rows}", rows).replace("{key}", key), vals)
        except duckdb.BinderException:
            pass  # a store of schema version 11 or older: no player_key in ``table``
    rows, key, vals = _fact_rows(f, table, own_key=False)
    return query_frame(con, sql.replace("{rows}", rows).replace("{key}", key), vals)


def bonuses(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), *, mask: bool = False
) -> pl.DataFrame:
    """Per player and bonus: announced, made (and decided: an outcome known), success rate."""
    # grouped on the player's key, the id and name looked up per group (not for each row)
    df = _per_player(
        con,
        f,
        "bonus_facts",
        f"""
        WITH g AS (
            SELECT {{key}} AS player_key, x.bonus, count(*) AS announced,
                   count(x.made) AS decided, count(*) FILTER (WHERE x.made) AS made
            {{rows}} GROUP BY {{key}}, x.bonus)
        SELECT p.player_id, {_name("p.name", mask)} AS name, g.bonus, g.announced, g.decided,
               g.made
        FROM g JOIN players p USING (player_key) ORDER BY p.player_id, g.bonus""",
    )
    return _enough(_rate(df, "made", "decided", "success_rate"), "announced")


def kontras(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), *, mask: bool = False
) -> pl.DataFrame:
    """Per player, target (``game`` or a bonus) and level: kontras given and successful."""
    df = _per_player(  # (grouped on the player's key, as :func:`bonuses`)
        con,
        f,
        "kontra_facts",
        f"""
        WITH g AS (
            SELECT {{key}} AS player_key, x.target, x.level, count(*) AS given,
                   count(x.success) AS decided, count(*) FILTER (WHERE x.success) AS successful
            {{rows}} GROUP BY {{key}}, x.target, x.level)
        SELECT p.player_id, {_name("p.name", mask)} AS name, g.target, g.level, g.given,
               g.decided, g.successful
        FROM g JOIN players p USING (player_key) ORDER BY p.player_id, g.target, g.level""",
    )
    return _enough(_rate(df, "successful", "decided", "success_rate"), "given")


_SAME_SIDE = """
    ((a.role IN ('declarer', 'partner') AND b.role IN ('declarer', 'partner'))
     OR (a.pair IS NOT NULL AND a.pair = b.pair))
"""


def synergy(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), *, mask: bool = False
) -> pl.DataFrame:
    """For each pair of players who played on the same side (called-king partners; Royal
    Tarock's fixed pairs): hands together, won, win rate, each one's average score together,
    and each one's own win rate and average over all their hands (same filters)."""
    f = replace(f, role=None)  # (a pair spans two roles)
    return _session_facts(
        con, f, lambda: _synergy_facts(con, f, mask), lambda: _synergy_seats(con, f, mask=mask)
    )


def _player_cond(f: Filters, *cols: str) -> tuple[str, list[Any]]:
    """The player filter on the ids and real names of ``cols`` (``named`` aliases), any of
    them; TRUE without a player filter."""
    if f.player is None:
        return "TRUE", []
    conds = [f"{c}.player_id = ? OR {c}.real_name = ?" for c in cols]
    return "(" + " OR ".join(conds) + ")", [f.player] * (2 * len(cols))


def _synergy_pairs_named(mask: bool, pcond: str) -> str:
    """The end of the synergy query over its CTEs ``pairs`` (``key_a``, ``key_b`` and the
    pair's figures) and ``own`` (each player's own figures): the players named (``mask``:
    pseudonyms), ``pcond`` kept, in the section's order."""
    return f"""
        , named AS (
            SELECT player_key, player_id, {_name("name", mask)} AS name, name AS real_name
            FROM players)
        SELECT pa.player_id AS player_a, pa.name AS name_a, pb.player_id AS player_b,
               pb.name AS name_b, p.hands, p.decided, p.won, p.avg_score_a, p.avg_score_b,
               oa.own_win_rate AS own_win_rate_a, ob.own_win_rate AS own_win_rate_b,
               oa.own_avg_score AS own_avg_score_a, ob.own_avg_score AS own_avg_score_b
        FROM pairs p JOIN named pa ON pa.player_key = p.key_a
        JOIN named pb ON pb.player_key = p.key_b
        JOIN own oa ON oa.player_key = p.key_a
        JOIN own ob ON ob.player_key = p.key_b
        WHERE {pcond}
        ORDER BY p.hands DESC, player_a, player_b"""


def _synergy_facts(con: duckdb.DuckDBPyConnection, f: Filters, mask: bool) -> pl.DataFrame:
    """:func:`synergy` from ``pair_facts`` (kind 0) and ``session_player_facts``."""
    cond, vals = f.where("sf", with_player=False)
    pcond, pvals = _player_cond(f, "pa", "pb")
    df = query_frame(
        con,
        f"""
        WITH pairs AS (
            SELECT key_a, key_b, CAST(sum(hands) AS BIGINT) AS hands,
                   CAST(sum(decided) AS BIGINT) AS decided, CAST(sum(won) AS BIGINT) AS won,
                   sum(score_a) / nullif(sum(scored_a), 0) AS avg_score_a,
                   sum(score_b) / nullif(sum(scored_b), 0) AS avg_score_b
            FROM pair_facts sf WHERE kind = 0 AND {cond} GROUP BY key_a, key_b)
        , own AS (
            SELECT player_key, CAST(sum(hands) AS BIGINT) AS own_hands,
                   sum(score) / nullif(sum(scored), 0) AS own_avg_score,
                   sum(won) / nullif(sum(decided), 0) AS own_win_rate
            FROM session_player_facts sf WHERE {cond} GROUP BY player_key)"""
        + _synergy_pairs_named(mask, pcond),
        vals + vals + pvals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "hands")


def _synergy_seats(
    con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False
) -> pl.DataFrame:
    """:func:`synergy` over the seat facts (any filter)."""
    # on integer keys and the few columns needed (the pairs of a million hands are joined
    # on ``hand_key`` and ordered by each player's rank among the ids); ids and names are
    # looked up for the pairs found
    w, vals = with_seat_facts(replace(f, role=None), with_player=False, mask=mask, narrow=True)
    pvals: list[Any] = []
    pcond = "TRUE"
    if f.player is not None:
        # (the real names: with ``mask`` the names shown are pseudonyms)
        pcond = "(pa.player_id = ? OR pa.real_name = ? OR pb.player_id = ? OR pb.real_name = ?)"
        pvals = [f.player] * 4
    df = query_frame(
        con,
        w
        + """
        , own AS (
            SELECT player_key, count(*) AS own_hands, avg(score) AS own_avg_score,
                   count(*) FILTER (WHERE won) / nullif(count(won), 0) AS own_win_rate
            FROM ph GROUP BY player_key)
        , ranked AS (
            SELECT player_key, row_number() OVER (ORDER BY player_id) AS rank FROM players)
        , side AS (
            SELECT ph.hand_key, ph.player_key, r.rank, ph.won, ph.score, ph.pair,
                   ph.role IN ('declarer', 'partner') AS declaring
            FROM ph JOIN ranked r USING (player_key)
            WHERE ph.role IN ('declarer', 'partner') OR ph.pair IS NOT NULL)
        , pairs AS (
            SELECT a.player_key AS key_a, b.player_key AS key_b, count(*) AS hands,
                   count(a.won) AS decided, count(*) FILTER (WHERE a.won) AS won,
                   avg(a.score) AS avg_score_a, avg(b.score) AS avg_score_b
            FROM side a JOIN side b ON a.hand_key = b.hand_key AND a.rank < b.rank
            WHERE (a.declaring AND b.declaring) OR (a.pair IS NOT NULL AND a.pair = b.pair)
            GROUP BY a.player_key, b.player_key)"""
        + _synergy_pairs_named(mask, pcond),
        vals + pvals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "hands")


def score_over_time(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), *, mask: bool = False
) -> pl.DataFrame:
    """Per player and session (in date order): hands, score, and the running total."""
    return _session_facts(
        con, f, lambda: _over_time(con, f, mask, True), lambda: _over_time(con, f, mask, False)
    )


def _per_player_session(f: Filters, facts: bool, score: str) -> tuple[str, list[Any]]:
    """``WITH per AS (per player, date and session under ``f``: hands, score)`` from the
    per-session facts (``facts``) or the seat facts; ``score`` the score column's
    expression over the seats' ``score``."""
    if facts:
        cond, vals = f.where("sf")
        return (
            "WITH per AS (SELECT player_key, date, session_key, CAST(hands AS BIGINT) AS hands, "
            f"score FROM session_player_facts sf WHERE {cond})\n"
        ), vals
    w, vals = with_seat_facts(f, narrow=True)
    return (
        w + ", per AS (SELECT player_key, date, session_key, count(*) AS hands, "
        f"{score} AS score FROM ph GROUP BY player_key, date, session_key)\n"
    ), vals


def _over_time(con: duckdb.DuckDBPyConnection, f: Filters, mask: bool, facts: bool) -> pl.DataFrame:
    # joined on integer keys (the player's, the session's) with each player's rank by id and
    # each session's by date and id; ordered and summed up by polars (DuckDB's sort and
    # window over the 250,000 rows of a million hands took twice as long). The running total
    # is SQL's ``sum(score) OVER (… ROWS UNBOUNDED PRECEDING)``: NULL until the player's
    # first known score, then the sum of the known ones.
    w, vals = _per_player_session(f, facts, "CAST(sum(score) AS BIGINT)")
    df = query_frame(
        con,
        w
        + f"""
        , ranked AS (
            SELECT session_key, session_id,
                   row_number() OVER (ORDER BY date NULLS FIRST, session_id) AS rank
            FROM sessions)
        , named AS (
            SELECT player_key, player_id, {_name("name", mask)} AS name,
                   row_number() OVER (ORDER BY player_id) AS rank
            FROM players)
        SELECT n.rank AS player_rank, s.rank AS session_rank, n.player_id, n.name, per.date,
               s.session_id, per.hands, per.score
        FROM per JOIN ranked s USING (session_key) JOIN named n USING (player_key)""",
        vals,
    )
    score, known = pl.col("score"), pl.col("score").is_not_null()
    return (
        df.sort("player_rank", "date", "session_rank", nulls_last=False)
        .with_columns(
            pl.when(known.cum_sum().over("player_rank") > 0)
            .then(score.fill_null(0).cum_sum().over("player_rank"))
            .cast(pl.Int64)
            .alias("cumulative")
        )
        .drop("player_rank", "session_rank")
    )


def score_timeline(
    con: duckdb.DuckDBPyConnection,
    f: Filters = Filters(),
    *,
    points: int = 200,
    min_hands: int = MIN_SAMPLE,
    mask: bool = False,
) -> pl.DataFrame:
    """The running total of :func:`score_over_time` for a chart: per player with at least
    ``min_hands`` hands, at most ``points`` points (the last session of each of ``points``
    equal runs of the player's sessions): player_id, name, session_no (1-based, in date
    order), cumulative."""
    return _session_facts(
        con,
        f,
        lambda: _timeline(con, f, points, min_hands, mask, True),
        lambda: _timeline(con, f, points, min_hands, mask, False),
    )


def _timeline(
    con: duckdb.DuckDBPyConnection, f: Filters, points: int, min_hands: int, mask: bool,
    facts: bool,
) -> pl.DataFrame:  # fmt: skip
    # grouped on integer keys from the narrow seat facts (or the per-session facts); ids and
    # names looked up for the points kept (at most ``points`` per player), not for every seat
    w, vals = _per_player_session(f, facts, "sum(score)")
    return query_frame(
        con,
        w
        + f"""
        , run AS (
            SELECT per.player_key, per.hands,
                   row_number() OVER w AS k, count(*) OVER (PARTITION BY per.player_key) AS n,
                   sum(per.hands) OVER (PARTITION BY per.player_key) AS total_hands,
                   CAST(sum(per.score) OVER (w ROWS UNBOUNDED PRECEDING) AS BIGINT) AS cumulative
            FROM per JOIN sessions s USING (session_key)
            WINDOW w AS (PARTITION BY per.player_key ORDER BY per.date NULLS FIRST, s.session_id))
        , kept AS (
            SELECT player_key, k, cumulative FROM run
            WHERE total_hands >= ? AND (k = n OR (k * ?) // n <> ((k - 1) * ?) // n))
        SELECT p.player_id, {_name("p.name", mask)} AS name, kept.k AS session_no,
               kept.cumulative
        FROM kept JOIN players p USING (player_key)
        ORDER BY p.player_id, kept.k""",
        [*vals, int(min_hands), int(points), int(points)],
    )


SECTIONS = {
    "players": players,
    "roles": player_roles,
    "contracts": contracts,
    "bonuses": bonuses,
    "kontras": kontras,
    "synergy": synergy,
    "time": score_over_time,
}


# --------------------------------------------------------------------------- drill-down


@dataclass(frozen=True, slots=True)
class Drill:
    """Extra conditions of a drill-down, on top of :class:`Filters`.

    ``won`` the seat's side won (True) or lost (False); ``declared`` the hands the player
    declared (``role="declarer"`` in Filters says the same); ``bid`` the player bid a contract;
    ``bonus`` the player announced it (``made`` narrows to made / not made); ``kontra`` the
    player gave a kontra (on ``kontra_target`` if given; ``success`` narrows);
    ``mond`` ``"lost"`` / ``"captured"``; ``renons`` the player's upheld renons;
    ``partner`` the hands the player played on the same side as this other player;
    ``radelc`` ``"earned"`` / ``"cleared"`` (as the players section counts them).
    """

    won: bool | None = None
    bid: bool = False
    bonus: str | None = None
    made: bool | None = None
    kontra: bool = False
    kontra_target: str | None = None
    kontra_level: int | None = None
    success: bool | None = None
    mond: str | None = None
    renons: bool = False
    partner: str | None = None
    radelc: str | None = None  # "earned" | "cleared"
    extra: dict[str, Any] = field(default_factory=dict)


def _drill(f: Filters, d: Drill, kw: dict[str, Any]) -> tuple[Filters, Drill]:
    fkw = {k: v for k, v in kw.items() if k in Filters.__dataclass_fields__}
    dkw = {k: v for k, v in kw.items() if k in Drill.__dataclass_fields__}
    unknown = set(kw) - set(fkw) - set(dkw)
    if unknown:
        raise TypeError(f"unknown drill-down field(s): {', '.join(sorted(unknown))}")
    return replace(f, **fkw), replace(d, **dkw)


def _drill_where(d: Drill) -> tuple[str, list[Any]]:
    """The drill-down's conditions on the filtered seat facts ``ph``."""
    conds: list[str] = []
    extra: list[Any] = []
    if d.won is not None:
        conds.append("ph.won = ?")
        extra.append(d.won)
    if d.bid:
        conds.append("ph.contracts_bid > 0")
    if d.bonus is not None:
        sub = "SELECT 1 FROM bonus_facts b WHERE b.hand_key = ph.hand_key AND b.seat = ph.seat"
        sub += " AND b.bonus = ?"
        extra.append(d.bonus)
        if d.made is not None:
            sub += " AND b.made = ?"
            extra.append(d.made)
        conds.append(f"EXISTS ({sub})")
    if d.kontra:
        sub = "SELECT 1 FROM kontra_facts k WHERE k.hand_key = ph.hand_key AND k.seat = ph.seat"
        if d.kontra_target is not None:
            sub += " AND k.target = ?"
            extra.append(d.kontra_target)
        if d.kontra_level is not None:
            sub += " AND k.level = ?"
            extra.append(d.kontra_level)
        if d.success is not None:
            sub += " AND k.success = ?"
            extra.append(d.success)
        conds.append(f"EXISTS ({sub})")
    if d.mond is not None:
        conds.append({"lost": "ph.monds_lost > 0", "captured": "ph.monds_captured > 0"}[d.mond])
    if d.renons:
        conds.append("ph.renons > 0")
    if d.radelc is not None:
        conds.append(
            {"earned": "ph.radelci_earned > 0", "cleared": "ph.radelci_cleared > 0"}[d.radelc]
        )
    if d.partner is not None:
        conds.append(f"""EXISTS (
            SELECT 1 FROM seat_facts b JOIN players pb USING (player_key)
            WHERE b.hand_key = ph.hand_key AND b.seat <> ph.seat
              AND (pb.player_id = ? OR pb.name = ?)
              AND {_SAME_SIDE.replace("a.role", "ph.role").replace("a.pair", "ph.pair")})""")
        extra += [d.partner, d.partner]
    return " AND ".join(conds) or "TRUE", extra


#: how :func:`hands_for` may sort (a page of the drill-down): key -> ORDER BY
ORDERS = {
    "date": "d.date NULLS FIRST, d.session_id, d.number, d.seat",
    "score": "d.score DESC NULLS LAST, d.date NULLS FIRST, d.session_id, d.number, d.seat",
    "contract": "d.contract NULLS LAST, d.date NULLS FIRST, d.session_id, d.number, d.seat",
}


def hands_for_sql(
    f: Filters = Filters(),
    d: Drill = Drill(),
    *,
    limit: int | None = None,
    offset: int = 0,
    order: str = "date",
    mask: bool = False,
    **kw: Any,
) -> tuple[str, list[Any]]:
    """The query of :func:`hands_for` and its values (for callers that stream the rows)."""
    f, d = _drill(f, d, kw)
    w, vals = with_seat_facts(f, mask=mask)
    where, extra = _drill_where(d)
    page = f"LIMIT {int(limit)} OFFSET {int(offset)}" if limit is not None else ""
    name = ", d.name" if mask else ""
    sql = (
        w
        + f"""
        , d AS (
            SELECT ph.hand_key, s.session_id, ph.number, ph.date, ph.player_id, ph.name,
                   ph.seat, ph.role, ph.contract, ph.score, ph.won
            FROM ph JOIN sessions s USING (session_key) WHERE {where})
        SELECT h.hand_id, d.session_id, CAST(d.number AS INTEGER) AS number, d.date,
               d.player_id, CAST(d.seat AS BIGINT) AS seat, d.role, d.contract, d.score,
               d.won{name}
        FROM d JOIN hands h USING (hand_key)
        ORDER BY {ORDERS[order]} {page}"""
    )
    return sql, vals + extra


def hands_for(
    con: duckdb.DuckDBPyConnection,
    f: Filters = Filters(),
    d: Drill = Drill(),
    *,
    limit: int | None = None,
    offset: int = 0,
    order: str = "date",
    mask: bool = False,
    **kw: Any,
) -> pl.DataFrame:
    """The hands behind a figure: ``hand_id, session_id, number, date, player_id, seat, role,
    contract, score, won``, one row per (hand, seat) that the figure counted; with ``mask`` a
    ``name`` column too (the player's pseudonym).

    Keyword arguments are shorthands for :class:`Filters` and :class:`Drill` fields
    (``hands_for(con, player="ana", role="declarer", contract="three")``). Counting the
    distinct ``hand_id`` of the result gives the figure for a player; with no player filter a
    per-contract figure counts distinct hands too. ``limit`` and ``offset`` give one page, in
    the ``order`` of :data:`ORDERS` (by date by default).
    """
    sql, vals = hands_for_sql(f, d, limit=limit, offset=offset, order=order, mask=mask, **kw)
    return query_frame(con, sql, vals)


def count_hands_for(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), d: Drill = Drill(), **kw: Any
) -> tuple[int, int]:
    """``(seats, hands)``: the rows :func:`hands_for` lists and their distinct hands."""
    f, d = _drill(f, d, kw)
    w, vals = with_seat_facts(f)
    where, extra = _drill_where(d)
    cur = con.cursor()
    try:
        rows = cur.execute(
            w + f"SELECT count(*), count(DISTINCT hand_key) FROM ph WHERE {where}",
            vals + extra,
        ).fetchall()
    finally:
        cur.close()
    return int(rows[0][0]), int(rows[0][1])


# --------------------------------------------------------------------------- per game
#
# The Players page opens on one game and never mixes games: every function below requires
# ``Filters.game``. Their base relation is the seat facts with the per-game columns: the
# seat's fixed pair (Royal Tarock), the seat's role with Royal Tarock's ``attacker`` and
# ``defender`` (the pair's part in the hand: the dealer's pair defends), the side's result
# with Royal Tarock's hands decided pair against pair (a pair won the hand when its seats
# wrote more than the other pair's; no result on a tie) and whether the deal was **thrown
# in** (a ``throw_in`` action: nobody played it). Thrown-in deals are counted on their own
# and left out of every average, rate and count of hands played.

#: roles of the per-game tables, in the order they are shown
GAME_ROLES = ("declarer", "partner", "attacker", "defender", "klop", "sitting_out", "unknown")


def _game(f: Filters) -> str:
    if f.game is None:
        raise ValueError("per-game statistics need Filters.game: games are never mixed")
    return f.game


def _need(f: Filters, feature: str, what: str) -> GameEngine:
    """The engine of the filters' game, which must declare ``feature``
    (:attr:`~tarock_logs.rules.base.GameEngine.features`); ``ValueError`` otherwise."""
    from tarock_logs.rules import get_engine

    game = _game(f)
    engine = get_engine(game)
    if engine is None or feature not in engine.features:
        raise ValueError(f"{what} need a game with the {feature!r} feature, not {game!r}")
    return engine


def _gwith(f: Filters, *, with_player: bool = True, mask: bool = False) -> tuple[str, list[Any]]:
    """``WITH ph AS (the filtered per-game seat facts)``: ``role`` is the per-game role,
    ``won`` the per-game result; ``player_id``, ``name`` (masked on request) and
    ``session_id`` joined."""
    _game(f)
    cond, vals = f.where("sf", with_player=with_player)
    return (
        "WITH ph AS (SELECT sf.* EXCLUDE (role, won, game, game_role, game_won), "
        "sf.game_role AS role, sf.game_won AS won, CAST(sf.game AS VARCHAR) AS game, "
        f"p.player_id, {_name('p.name', mask)} AS name, s.session_id "
        "FROM seat_facts sf JOIN players p USING (player_key) "
        f"JOIN sessions s USING (session_key) WHERE {cond})\n"
    ), vals


def game_players(con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False) -> pl.DataFrame:
    """Per player in one game: hands at the table, thrown-in deals (on their own), hands
    played, decided, won, win rate, total and average score (thrown-in deals left out), and
    the hands in each role."""
    # grouped on the player's key over the seat facts alone (the per-game role and result),
    # the id and name looked up once per player
    _game(f)
    cond, vals = f.where("sf")
    df = query_frame(
        con,
        f"""
        WITH g AS (
            SELECT player_key, count(*) AS hands,
                   count(*) FILTER (WHERE thrown_in) AS thrown_in,
                   count(*) FILTER (WHERE NOT thrown_in) AS played,
                   count(game_won) AS decided, count(*) FILTER (WHERE game_won) AS won,
                   CAST(coalesce(sum(score) FILTER (WHERE NOT thrown_in), 0) AS BIGINT)
                       AS total_score,
                   avg(score) FILTER (WHERE NOT thrown_in) AS avg_score,
                   count(*) FILTER (WHERE game_role = 'declarer' AND NOT thrown_in) AS as_declarer,
                   count(*) FILTER (WHERE game_role = 'partner' AND NOT thrown_in) AS as_partner,
                   count(*) FILTER (WHERE game_role = 'attacker' AND NOT thrown_in) AS as_attacker,
                   count(*) FILTER (WHERE game_role = 'defender' AND NOT thrown_in) AS as_defender
            FROM seat_facts sf WHERE {cond} GROUP BY player_key)
        SELECT p.player_id, {_name("p.name", mask)} AS name, g.* EXCLUDE (player_key)
        FROM g JOIN players p USING (player_key) ORDER BY p.player_id""",
        vals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "played")


def game_roles(con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False) -> pl.DataFrame:
    """Per player and role in one game (Royal Tarock: ``attacker`` / ``defender``, the pair's
    part in the hand): hands played, decided, won, win rate, average score; thrown-in deals
    left out."""
    w, vals = _gwith(f, mask=mask)
    df = query_frame(
        con,
        w
        + """
        SELECT player_id, any_value(name) AS name, role, count(*) AS hands,
               count(won) AS decided, count(*) FILTER (WHERE won) AS won,
               avg(score) AS avg_score
        FROM ph WHERE NOT thrown_in GROUP BY player_id, role ORDER BY player_id, role""",
        vals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "hands")


def game_contracts(
    con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False
) -> pl.DataFrame:
    """Per contract of one game only (contract tables never mix games): hands played, won,
    win rate, the declarer's average score; thrown-in deals left out (they have no
    contract). ``drill_role`` is the role to drill down with."""
    _game(f)
    return contracts(con, f, mask=mask)


def thrown_in(con: duckdb.DuckDBPyConnection, f: Filters) -> int:
    """The number of thrown-in deals of one game under the filters (counted on their own)."""
    w, vals = _gwith(f)
    cur = con.cursor()
    try:
        rows = cur.execute(
            w + "SELECT count(DISTINCT hand_key) FROM ph WHERE thrown_in", vals
        ).fetchall()
    finally:
        cur.close()
    return int(rows[0][0])


def schlemme(con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False) -> pl.DataFrame:
    """A game with Schlemme (the ``schlemm`` feature: Royal Tarock): per player and
    Schlemm, announced, made, failed, raised (replaced by the partner's Hebung) and of unknown
    outcome, and the success rate over the decided ones."""
    _need(f, "schlemm", "Schlemm statistics")
    w, vals = _gwith(f, mask=mask)
    df = query_frame(
        con,
        w
        + """
        SELECT ph.player_id, any_value(ph.name) AS name, sch.bonus, count(*) AS announced,
               count(*) FILTER (WHERE outcome = 'made') AS made,
               count(*) FILTER (WHERE outcome = 'failed') AS failed,
               count(*) FILTER (WHERE outcome = 'raised') AS raised,
               count(*) FILTER (WHERE outcome = 'unknown') AS unknown,
               count(*) FILTER (WHERE outcome IN ('made', 'failed')) AS decided
        FROM schlemm_facts sch JOIN ph ON ph.hand_key = sch.hand_key AND ph.seat = sch.seat
        WHERE NOT ph.thrown_in
        GROUP BY ph.player_id, sch.bonus ORDER BY ph.player_id, sch.bonus""",
        vals,
    )
    return _enough(_rate(df, "made", "decided", "success_rate"), "announced")


def contra_success(
    con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False
) -> pl.DataFrame:
    """Per player in one game: kontras given, decided, successful, failed and the success
    rate, by what was doubled (``game`` or a bonus / Schlemm) and level (in Royal Tarock a
    contra on the opponents' Schlemm succeeds when that Schlemm failed)."""
    w, vals = _gwith(f, mask=mask)
    df = query_frame(
        con,
        w
        + """
        SELECT ph.player_id, any_value(ph.name) AS name, k.target, k.level,
               count(*) AS given, count(k.game_success) AS decided,
               count(*) FILTER (WHERE k.game_success) AS successful,
               count(*) FILTER (WHERE NOT k.game_success) AS failed
        FROM kontra_facts k JOIN ph ON ph.hand_key = k.hand_key AND ph.seat = k.seat
        WHERE NOT ph.thrown_in
        GROUP BY ph.player_id, k.target, k.level ORDER BY ph.player_id, k.target, k.level""",
        vals,
    )
    return _enough(_rate(df, "successful", "decided", "success_rate"), "given")


def pair_matches(con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False) -> pl.DataFrame:
    """The match standings of a game of fixed pairs (the ``fixed_pairs`` feature: Royal
    Tarock): per match (a session) and pair, the players, the games, the sum of the pair's
    game scores, the match result by the engine's rule
    (:meth:`~tarock_logs.rules.base.GameEngine.session_totals`: Royal Tarock divides each sum
    by the match length), and whether the pair won, lost or drew the match. Read from
    ``match_facts``, computed at ingest by :func:`match_standings`."""
    _need(f, "fixed_pairs", "match standings")
    return _session_facts(
        con, f, lambda: _matches_facts(con, f, mask), lambda: _matches_seats(con, f, mask)
    )


#: the columns of :func:`pair_matches`
_MATCH_COLUMNS = ("session_id", "date", "pair", "player_ids", "players", "games", "points",
                  "match_points", "result")  # fmt: skip


def _matches_facts(con: duckdb.DuckDBPyConnection, f: Filters, mask: bool) -> pl.DataFrame:
    """:func:`pair_matches` from ``match_facts``."""
    cond, vals = f.where("sf", with_player=False)
    shown = f"coalesce({_name('p.name', mask)}, p.player_id)"
    keep, pvals = "TRUE", []
    if f.player is not None:
        keep = (
            "m.session_key IN (SELECT session_key FROM named "
            "WHERE list_contains(player_ids, ?) OR list_contains(players, ?))"
        )
        pvals = [f.player, f.player]
    return query_frame(
        con,
        f"""
        WITH m AS (SELECT * FROM match_facts sf WHERE {cond})
        , who AS (
            SELECT w.session_key, w.pair, p.player_id AS pid, {shown} AS shown
            FROM (SELECT session_key, pair, unnest(player_keys) AS player_key FROM m) w
            JOIN players p USING (player_key))
        , named AS (
            SELECT session_key, pair, list(DISTINCT pid ORDER BY pid) AS player_ids,
                   list(DISTINCT shown ORDER BY shown) AS players
            FROM who GROUP BY session_key, pair)
        SELECT s.session_id, m.date, m.pair, n.player_ids, n.players,
               CAST(m.games AS BIGINT) AS games, m.points, m.match_points, m.result
        FROM m JOIN named n USING (session_key, pair) JOIN sessions s USING (session_key)
        WHERE {keep}
        ORDER BY m.date NULLS LAST, s.session_id, m.pair""",
        vals + pvals,
    )


def match_standings(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """``match_points`` and ``result`` of the pairs of one match (rows of one session in
    pair order, each with ``game``, ``ruleset`` and the pair's ``points``): the engine's
    :meth:`~tarock_logs.rules.base.GameEngine.session_totals` of the two pairs' points (the
    points as they are when there are not two pairs or the ruleset is unknown), and whether
    the pair won, lost or drew the match."""
    from tarock_logs.rules import get_engine

    # (a pair whose scores are all unknown counts 0)
    sums = [int(r["points"] or 0) for r in rows]  # type: ignore[call-overload]
    if len(rows) == 2:
        engine = get_engine(str(rows[0]["game"]))
        if engine is not None:
            try:
                rs = engine.ruleset(str(rows[0]["ruleset"]))
                sums = engine.session_totals(rs, [sums])
            except (KeyError, ValueError):
                pass
    for i, r in enumerate(rows):
        best_other = max((s for j, s in enumerate(sums) if j != i), default=sums[i])
        r["match_points"] = int(sums[i])
        r["result"] = (
            "won" if sums[i] > best_other else ("lost" if sums[i] < best_other else "drawn")
        )
    return rows


def _matches_seats(con: duckdb.DuckDBPyConnection, f: Filters, mask: bool) -> pl.DataFrame:
    """:func:`pair_matches` computed from the seat facts (any filter; a store without
    ``match_facts``)."""
    w, vals = _gwith(f, with_player=False, mask=mask)
    df = query_frame(
        con,
        w
        + """
        SELECT ph.session_id, any_value(ph.date) AS date, any_value(h.ruleset) AS ruleset,
               ph.pair, list(DISTINCT ph.player_id ORDER BY ph.player_id) AS player_ids,
               list(DISTINCT coalesce(ph.name, ph.player_id)
                    ORDER BY coalesce(ph.name, ph.player_id)) AS players,
               count(DISTINCT ph.hand_key) AS games,
               CAST(sum(ph.score) / count(DISTINCT ph.player_id) AS BIGINT) AS points
        FROM ph JOIN hands h USING (hand_key)
        WHERE ph.pair IS NOT NULL AND NOT ph.thrown_in
        GROUP BY ph.session_id, ph.pair ORDER BY date NULLS LAST, ph.session_id, ph.pair""",
        vals,
    )
    none = (
        df.drop("ruleset")
        .clear()
        .with_columns(
            pl.lit(None, pl.Int64).alias("match_points"), pl.lit(None, pl.String).alias("result")
        )
    )
    out: list[dict[str, Any]] = []
    for _, part in df.group_by(["session_id"], maintain_order=True):
        out += match_standings([{**r, "game": f.game} for r in part.to_dicts()])
    if f.player is not None:
        keep = {
            r["session_id"] for r in out if f.player in r["player_ids"] or f.player in r["players"]
        }
        out = [r for r in out if r["session_id"] in keep]
    if not out:
        return none
    return pl.DataFrame(out, infer_schema_length=None).select(_MATCH_COLUMNS)


def pair_standings(
    con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False
) -> pl.DataFrame:
    """The pair standings of a game of fixed pairs over its matches (:func:`pair_matches`):
    per pair of players, matches played, won, drawn, lost, match points for and against."""
    matches = pair_matches(con, f, mask=mask)
    if matches.is_empty():
        return pl.DataFrame(
            schema={"players": pl.List(pl.String), "player_ids": pl.List(pl.String),
                    "matches": pl.Int64, "won": pl.Int64,
                    "drawn": pl.Int64, "lost": pl.Int64, "points_for": pl.Int64,
                    "points_against": pl.Int64}
        )  # fmt: skip
    against = matches.join(
        matches.select("session_id", pl.col("pair").alias("other"), "match_points"),
        on="session_id",
    ).filter(pl.col("pair") != pl.col("other"))
    return (
        against.group_by(pl.col("player_ids").list.join("+").alias("key"))
        .agg(
            pl.col("players").first(),
            pl.col("player_ids").first(),
            pl.len().alias("matches"),
            (pl.col("result") == "won").sum().alias("won"),
            (pl.col("result") == "drawn").sum().alias("drawn"),
            (pl.col("result") == "lost").sum().alias("lost"),
            pl.col("match_points").sum().alias("points_for"),
            pl.col("match_points_right").sum().alias("points_against"),
        )
        .sort(["won", "points_for", "key"], descending=[True, True, False])
        .drop("key")
    )


def _pair_player(f: Filters) -> tuple[str, list[Any]]:
    """The condition on the first player of a pair table (the real names, also with
    ``mask``)."""
    if f.player is None:
        return "TRUE", []
    return "(a.player_id = ? OR pa.name = ?)", [f.player, f.player]


def head_to_head(con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False) -> pl.DataFrame:
    """How a player does **against** each other player in one game: for every two players
    on opposite sides of a decided hand (declarer's side against defenders; Royal Tarock's
    pairs), hands, the first player's wins, win rate and average score in those hands. With
    a player filter, only that player's rows."""
    _game(f)
    f = replace(f, role=None)  # (both sides of a hand, whatever their roles)
    return _session_facts(
        con, f, lambda: _game_pairs(con, f, mask, 2), lambda: _head_to_head_seats(con, f, mask=mask)
    )


def partners(con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False) -> pl.DataFrame:
    """How a player does **with** each other player in one game: for every two players on the
    same side of a decided hand (declarer and partner; Royal Tarock's fixed pair), hands
    together, wins, win rate and the first player's average score together, beside the
    first player's own win rate over all their decided hands."""
    _game(f)
    f = replace(f, role=None)  # (a pair spans two roles)
    return _session_facts(
        con, f, lambda: _game_pairs(con, f, mask, 1), lambda: _partners_seats(con, f, mask=mask)
    )


def _game_pairs(con: duckdb.DuckDBPyConnection, f: Filters, mask: bool, kind: int) -> pl.DataFrame:
    """:func:`partners` (``kind`` 1) or :func:`head_to_head` (2) from ``pair_facts`` (and,
    for partners, each player's own win rate from ``session_player_facts``)."""
    cond, vals = f.where("sf", with_player=False)
    pcond, pvals = "TRUE", []
    if f.player is not None:
        pcond, pvals = "(pa.player_id = ? OR pa.real_name = ?)", [f.player, f.player]
    own, own_col, own_join, own_vals = "", "", "", []
    if kind == 1:
        own = (
            ", own AS (SELECT player_key, sum(game_won) / nullif(sum(game_decided), 0) "
            f"AS own_rate FROM session_player_facts sf WHERE {cond} GROUP BY player_key)"
        )
        own_col, own_join = ", own.own_rate AS own_win_rate", "JOIN own ON own.player_key = p.key_a"
        own_vals = vals
    df = query_frame(
        con,
        f"""
        WITH pairs AS (
            SELECT key_a, key_b, CAST(sum(hands) AS BIGINT) AS hands,
                   CAST(sum(won) AS BIGINT) AS won,
                   sum(score_a) / nullif(sum(scored_a), 0) AS avg_score
            FROM pair_facts sf WHERE kind = {int(kind)} AND {cond} GROUP BY key_a, key_b)
        {own}
        , named AS (
            SELECT player_key, player_id, {_name("name", mask)} AS name, name AS real_name
            FROM players)
        SELECT pa.player_id AS player_a, pa.name AS name_a, pb.player_id AS player_b,
               pb.name AS name_b, p.hands, p.won, p.avg_score{own_col}
        FROM pairs p JOIN named pa ON pa.player_key = p.key_a
        JOIN named pb ON pb.player_key = p.key_b {own_join}
        WHERE {pcond}
        ORDER BY p.hands DESC, player_a, player_b""",
        vals + own_vals + pvals,
    )
    return _enough(_rate(df, "won", "hands", "win_rate"), "hands")


def _head_to_head_seats(
    con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False
) -> pl.DataFrame:
    """:func:`head_to_head` over the seat facts (any filter)."""
    w, vals = _gwith(replace(f, role=None), with_player=False, mask=mask)
    pcond, pvals = _pair_player(f)
    df = query_frame(
        con,
        w
        + f"""
        , decided AS (SELECT * FROM ph WHERE won IS NOT NULL)
        SELECT a.player_id AS player_a, any_value(a.name) AS name_a, b.player_id AS player_b,
               any_value(b.name) AS name_b, count(*) AS hands,
               count(*) FILTER (WHERE a.won) AS won, avg(a.score) AS avg_score
        FROM decided a JOIN decided b ON a.hand_key = b.hand_key AND a.player_id <> b.player_id
        JOIN players pa ON pa.player_id = a.player_id
        WHERE a.won <> b.won AND {pcond}
        GROUP BY a.player_id, b.player_id ORDER BY hands DESC, a.player_id, b.player_id""",
        vals + pvals,
    )
    return _enough(_rate(df, "won", "hands", "win_rate"), "hands")


def _partners_seats(
    con: duckdb.DuckDBPyConnection, f: Filters, *, mask: bool = False
) -> pl.DataFrame:
    """:func:`partners` over the seat facts (any filter)."""
    w, vals = _gwith(replace(f, role=None), with_player=False, mask=mask)
    pcond, pvals = _pair_player(f)
    df = query_frame(
        con,
        w
        + f"""
        , own AS (
            SELECT player_id, count(*) FILTER (WHERE won) / nullif(count(won), 0) AS own_rate
            FROM ph GROUP BY player_id)
        , side AS (
            SELECT * FROM ph WHERE won IS NOT NULL
              AND (role IN ('declarer', 'partner') OR pair IS NOT NULL))
        SELECT a.player_id AS player_a, any_value(a.name) AS name_a, b.player_id AS player_b,
               any_value(b.name) AS name_b, count(*) AS hands,
               count(*) FILTER (WHERE a.won) AS won, avg(a.score) AS avg_score,
               any_value(own.own_rate) AS own_win_rate
        FROM side a JOIN side b ON a.hand_key = b.hand_key AND a.player_id <> b.player_id
        JOIN own ON own.player_id = a.player_id
        JOIN players pa ON pa.player_id = a.player_id
        WHERE a.won = b.won AND {pcond}
          AND ((a.role IN ('declarer', 'partner') AND b.role IN ('declarer', 'partner'))
               OR (a.pair IS NOT NULL AND a.pair = b.pair))
        GROUP BY a.player_id, b.player_id ORDER BY hands DESC, a.player_id, b.player_id""",
        vals + pvals,
    )
    return _enough(_rate(df, "won", "hands", "win_rate"), "hands")


def _game_drill(f: Filters, drill: dict[str, Any]) -> tuple[str, list[Any]]:
    """The conditions of a per-game drill-down on its seat facts ``ph``."""
    conds: list[str] = []
    extra: list[Any] = []
    if "thrown_in" in drill and drill["thrown_in"] is not None:
        conds.append("ph.thrown_in = ?")
        extra.append(bool(drill["thrown_in"]))
    elif drill.get("won") is not None or f.role is not None:
        conds.append("NOT ph.thrown_in")
    if drill.get("won") is not None:
        conds.append("ph.won = ?")
        extra.append(bool(drill["won"]))
    if drill.get("schlemm") is not None:
        sub = (
            "SELECT 1 FROM schlemm_facts sch WHERE sch.hand_key = ph.hand_key "
            "AND sch.seat = ph.seat AND sch.bonus = ?"
        )
        extra.append(drill["schlemm"])
        if drill.get("outcome") is not None:
            sub += " AND sch.outcome = ?"
            extra.append(drill["outcome"])
        conds.append(f"EXISTS ({sub})")
    if drill.get("bonus") is not None:
        sub = (
            "SELECT 1 FROM bonus_facts bf WHERE bf.hand_key = ph.hand_key "
            "AND bf.seat = ph.seat AND bf.bonus = ?"
        )
        extra.append(drill["bonus"])
        conds.append(f"EXISTS ({sub})")
    if drill.get("session") is not None:
        conds.append("ph.session_key = (SELECT session_key FROM sessions WHERE session_id = ?)")
        extra.append(drill["session"])
    if drill.get("analysed"):
        conds.append(
            "EXISTS (SELECT 1 FROM card_analysis ca JOIN hands ha ON ha.hand_id = ca.hand_id "
            "WHERE ha.hand_key = ph.hand_key AND ca.seat = ph.seat)"
        )
    if drill.get("kontra"):
        sub = "SELECT 1 FROM kontra_facts k WHERE k.hand_key = ph.hand_key AND k.seat = ph.seat"
        if drill.get("success") is not None:
            sub += " AND k.game_success = ?"
            extra.append(bool(drill["success"]))
        conds.append(f"EXISTS ({sub})")
    for key, same in (("opponent", False), ("partner", True)):
        other = drill.get(key)
        if other is None:
            continue
        side = (
            "b.game_won = ph.won AND ((ph.role IN ('declarer', 'partner') AND b.game_role IN "
            "('declarer', 'partner')) OR (ph.pair IS NOT NULL AND ph.pair = b.pair))"
            if same
            else "b.game_won <> ph.won"
        )
        conds.append(
            "EXISTS (SELECT 1 FROM seat_facts b JOIN players pb USING (player_key) "
            "WHERE b.hand_key = ph.hand_key AND pb.player_id = ? "
            f"AND b.game_won IS NOT NULL AND ph.won IS NOT NULL AND {side})"
        )
        extra.append(other)
    return " AND ".join(conds) or "TRUE", extra


def game_hands_for_sql(
    f: Filters,
    *,
    limit: int | None = None,
    offset: int = 0,
    mask: bool = False,
    **drill: Any,
) -> tuple[str, list[Any]]:
    """The query of :func:`game_hands_for` and its values (for callers that stream rows)."""
    w, vals = _gwith(f, mask=mask)
    where, extra = _game_drill(f, drill)
    page = f"LIMIT {int(limit)} OFFSET {int(offset)}" if limit is not None else ""
    name = ", ph.name" if mask else ""
    sql = (
        w
        + f"""
        SELECT h.hand_id, ph.session_id, CAST(ph.number AS INTEGER) AS number, ph.date,
               ph.player_id, CAST(ph.seat AS BIGINT) AS seat, ph.role, ph.contract, ph.score,
               ph.won, ph.thrown_in{name}
        FROM ph JOIN hands h USING (hand_key) WHERE {where}
        ORDER BY ph.date NULLS FIRST, ph.session_id, ph.number, ph.seat {page}"""
    )
    return sql, vals + extra


def game_hands_for(
    con: duckdb.DuckDBPyConnection,
    f: Filters,
    *,
    limit: int | None = None,
    offset: int = 0,
    mask: bool = False,
    **drill: Any,
) -> pl.DataFrame:
    """The hands behind a per-game figure: ``hand_id, session_id, number, date, player_id,
    seat, role, contract, score, won, thrown_in``, one row per (hand, seat) counted (one page
    with ``limit`` and ``offset``; with ``mask`` a ``name`` column of pseudonyms). Drill
    fields: ``won`` (True/False), ``thrown_in`` (True: only those), ``schlemm`` with
    ``outcome`` (Royal), ``kontra`` (True) with ``success``, ``opponent`` / ``partner`` (a
    player id: hands against / with that player)."""
    sql, vals = game_hands_for_sql(f, limit=limit, offset=offset, mask=mask, **drill)
    return query_frame(con, sql, vals)


def count_game_hands_for(con: duckdb.DuckDBPyConnection, f: Filters, **drill: Any) -> int:
    """How many rows :func:`game_hands_for` lists (all pages)."""
    w, vals = _gwith(f)
    where, extra = _game_drill(f, drill)
    cur = con.cursor()
    try:
        rows = cur.execute(w + f"SELECT count(*) FROM ph WHERE {where}", vals + extra).fetchall()
    finally:
        cur.close()
    return int(rows[0][0])
