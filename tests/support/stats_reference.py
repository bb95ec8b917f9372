"""The statistics as plain queries over the raw tables: the definitions of
``tarock_logs/store/read/stats.py`` before the facts existed (the generic sections and the
per-game tables of the Players page), kept unchanged so that the differential tests
(``tests/store/test_facts.py``) can check that the figures over the facts computed at ingest
are the same.

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
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import duckdb
import polars as pl

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

    def where(self, alias: str = "ph", *, with_player: bool = True) -> tuple[str, list[Any]]:
        """SQL conditions on the player-hand relation ``alias`` and their bound values."""
        conds: list[str] = []
        vals: list[Any] = []
        if with_player and self.player is not None:
            conds.append(f"({alias}.player_id = ? OR {alias}.name = ?)")
            vals += [self.player, self.player]
        if self.game is not None:
            conds.append(f"{alias}.game = ?")
            vals.append(self.game)
        if self.event is not None:
            conds.append(f"({alias}.event_name = ? OR {alias}.tournament = ?)")
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


#: One row per seat of a stored hand.
PLAYER_HANDS = """
SELECT hs.hand_id, hs.seat, hs.player_id, pl.name, CAST(hs.role AS VARCHAR) AS role,
       CAST(h.game AS VARCHAR) AS game, h.ruleset, h.contract, h.declarer, h.partner,
       h.won AS declarer_won, h.session_id, h.number, s.event_name, s.tournament, s.date,
       coalesce(hs.recorded_total, hs.recomputed_total) AS score,
       CASE WHEN hs.role IN ('declarer', 'partner') THEN h.won
            WHEN hs.role = 'defender' THEN NOT h.won END AS won,
       hs.radelci_before, hs.radelci_after
FROM hand_scores hs
JOIN hands h ON h.hand_id = hs.hand_id
JOIN sessions s ON s.session_id = h.session_id
LEFT JOIN players pl ON pl.player_id = hs.player_id
"""

#: Seat-level events, each with the player-hand row it belongs to (``ph``) via hand_id + seat.
_BONUS_EVENTS = """
SELECT a.hand_id, a.seat, a.bonus,
       CASE WHEN v.value IS NULL THEN NULL
            WHEN ph.role IN ('declarer', 'partner') THEN v.value > 0 ELSE v.value < 0 END AS made
FROM actions a
JOIN ph ON ph.hand_id = a.hand_id AND ph.seat = a.seat
LEFT JOIN (
    SELECT si.hand_id, si.item, coalesce(si.recomputed, si.recorded) AS value
    FROM score_items si JOIN hands h ON h.hand_id = si.hand_id AND si.seat = h.declarer
) v ON v.hand_id = a.hand_id AND v.item = a.bonus
WHERE a.type = 'announce' AND a.bonus IS NOT NULL
"""

_KONTRA_EVENTS = """
SELECT a.hand_id, a.seat, coalesce(a.target, 'game') AS target, coalesce(a.level, 1) AS level,
       CASE WHEN v.value IS NULL THEN NULL
            WHEN ph.role IN ('declarer', 'partner') THEN v.value > 0 ELSE v.value < 0 END
           AS success
FROM actions a
JOIN ph ON ph.hand_id = a.hand_id AND ph.seat = a.seat
LEFT JOIN (
    SELECT si.hand_id, si.item, coalesce(si.recomputed, si.recorded) AS value
    FROM score_items si JOIN hands h ON h.hand_id = si.hand_id AND si.seat = h.declarer
) v ON v.hand_id = a.hand_id
   AND v.item = CASE WHEN coalesce(a.target, 'game') = 'game' THEN 'contract' ELSE a.target END
WHERE a.type = 'kontra'
"""

_MOND_EVENTS = """
SELECT m.hand_id, m.loser AS loser_seat, m.winner AS winner_seat
FROM (
    SELECT hand_id, seats[list_position(cards, 'T21')] AS loser, winner
    FROM tricks WHERE list_contains(cards, 'T21')
) m
JOIN hand_scores a ON a.hand_id = m.hand_id AND a.seat = m.loser
JOIN hand_scores b ON b.hand_id = m.hand_id AND b.seat = m.winner
WHERE m.loser <> m.winner
  AND NOT (a.role IN ('declarer', 'partner') AND b.role IN ('declarer', 'partner'))
  AND NOT (a.role = 'defender' AND b.role = 'defender')
"""

_RENONS_EVENTS = """
SELECT hand_id, seat FROM irregularities WHERE type = 'renons' AND coalesce(upheld, TRUE)
"""

_BIDS = """
SELECT DISTINCT hand_id, seat FROM actions
WHERE type = 'bid' AND contract IS NOT NULL AND contract <> 'klop'
"""


def _with(f: Filters, *, with_player: bool = True) -> tuple[str, list[Any]]:
    """The ``WITH ph AS (filtered player-hands)`` prefix."""
    cond, vals = f.where("p", with_player=with_player)
    return f"WITH ph AS (SELECT * FROM ({PLAYER_HANDS}) p WHERE {cond})\n", vals


def _pl(con: duckdb.DuckDBPyConnection, sql: str, params: Sequence[Any]) -> pl.DataFrame:
    cur = con.cursor()
    try:
        df: pl.DataFrame = cur.sql(sql, params=list(params)).pl()
        return df
    finally:
        cur.close()


def _rate(df: pl.DataFrame, num: str, den: str, name: str) -> pl.DataFrame:
    return df.with_columns(
        pl.when(pl.col(den) > 0).then(pl.col(num) / pl.col(den)).otherwise(None).alias(name)
    )


def _enough(df: pl.DataFrame, n: str) -> pl.DataFrame:
    return df.with_columns((pl.col(n) >= MIN_SAMPLE).alias("enough"))


# --------------------------------------------------------------------------- figures


def player_roles(con: duckdb.DuckDBPyConnection, f: Filters = Filters()) -> pl.DataFrame:
    """Per player and role: hands, decided hands, won, win rate, total and average score."""
    w, vals = _with(f)
    df = _pl(
        con,
        w
        + """
        SELECT player_id, any_value(name) AS name, role, count(*) AS hands,
               count(won) AS decided, count(*) FILTER (WHERE won) AS won,
               CAST(sum(score) AS BIGINT) AS total_score, avg(score) AS avg_score
        FROM ph GROUP BY player_id, role ORDER BY player_id, role""",
        vals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "hands")


def players(con: duckdb.DuckDBPyConnection, f: Filters = Filters()) -> pl.DataFrame:
    """Per player: hands, score, contracts bid/played/won, bonuses, kontras, monds, radelci,
    renons and tricks won (see the module docstring for each definition)."""
    w, vals = _with(f)
    df = _pl(
        con,
        w
        + f"""
        , bids AS ({_BIDS}), bon AS ({_BONUS_EVENTS}), kon AS ({_KONTRA_EVENTS}),
          mond AS ({_MOND_EVENTS}), ren AS ({_RENONS_EVENTS}),
          ev AS (
            SELECT hand_id, seat, sum(bid) AS bid, sum(ann) AS ann, sum(made) AS made,
                   sum(kg) AS kg, sum(ks) AS ks, sum(ml) AS ml, sum(mc) AS mc, sum(rn) AS rn,
                   sum(tw) AS tw
            FROM (
                SELECT hand_id, seat, 1 AS bid, 0 AS ann, 0 AS made, 0 AS kg, 0 AS ks,
                       0 AS ml, 0 AS mc, 0 AS rn, 0 AS tw FROM bids
                UNION ALL SELECT hand_id, seat, 0, 1, CAST(coalesce(made, FALSE) AS INT),
                       0, 0, 0, 0, 0, 0 FROM bon
                UNION ALL SELECT hand_id, seat, 0, 0, 0, 1,
                       CAST(coalesce(success, FALSE) AS INT), 0, 0, 0, 0 FROM kon
                UNION ALL SELECT hand_id, loser_seat, 0, 0, 0, 0, 0, 1, 0, 0, 0 FROM mond
                UNION ALL SELECT hand_id, winner_seat, 0, 0, 0, 0, 0, 0, 1, 0, 0 FROM mond
                UNION ALL SELECT hand_id, seat, 0, 0, 0, 0, 0, 0, 0, 1, 0 FROM ren
                UNION ALL SELECT hand_id, winner, 0, 0, 0, 0, 0, 0, 0, 0, 1 FROM tricks
                    WHERE winner IS NOT NULL
            ) GROUP BY hand_id, seat)
        SELECT ph.player_id, any_value(ph.name) AS name, count(*) AS hands,
               count(ph.won) AS decided, count(*) FILTER (WHERE ph.won) AS won,
               CAST(sum(ph.score) AS BIGINT) AS total_score, avg(ph.score) AS avg_score,
               count(*) FILTER (WHERE ev.bid > 0) AS contracts_bid,
               count(*) FILTER (WHERE ph.role = 'declarer') AS contracts_played,
               count(*) FILTER (WHERE ph.role = 'declarer' AND ph.won) AS contracts_won,
               sum(ev.ann) AS bonuses_announced, sum(ev.made) AS bonuses_made,
               sum(ev.kg) AS kontras_given, sum(ev.ks) AS kontras_successful,
               sum(ev.ml) AS monds_lost, sum(ev.mc) AS monds_captured,
               sum(greatest(coalesce(ph.radelci_after, 0) - coalesce(ph.radelci_before, 0), 0))
                   AS radelci_earned,
               sum(greatest(coalesce(ph.radelci_before, 0) - coalesce(ph.radelci_after, 0), 0))
                   AS radelci_cleared,
               sum(ev.rn) AS renons, sum(ev.tw) AS tricks_won
        FROM ph LEFT JOIN ev ON ev.hand_id = ph.hand_id AND ev.seat = ph.seat
        GROUP BY ph.player_id ORDER BY ph.player_id""",
        vals,
    )
    df = _rate(df, "won", "decided", "win_rate")
    df = _rate(df, "contracts_won", "contracts_played", "contract_win_rate")
    int_cols = [
        c
        for c in df.columns
        if c.startswith(("bonuses", "kontras", "monds", "radelci")) or c in ("renons", "tricks_won")
    ]
    df = df.with_columns([pl.col(c).fill_null(0).cast(pl.Int64) for c in int_cols])
    return _enough(df, "hands")


def contracts(con: duckdb.DuckDBPyConnection, f: Filters = Filters()) -> pl.DataFrame:
    """Per contract: hands played, won, win rate and the declarer's average score (with a
    player filter: the contracts that player declared). Klop has no declarer: its row counts
    the hands (``played``) with no win rate. ``drill_role`` is the role to pass to
    :func:`hands_for` with the contract to list the hands behind the row."""
    base = replace(f, role=None)
    w, vals = _with(base)
    df = _pl(
        con,
        w
        + """
        SELECT contract, count(DISTINCT hand_id) AS played,
               count(DISTINCT hand_id) FILTER (WHERE declarer_won) AS won,
               count(DISTINCT hand_id) FILTER (WHERE declarer_won IS NOT NULL) AS decided,
               avg(score) FILTER (WHERE role = 'declarer') AS avg_declarer_score,
               CASE WHEN bool_or(role = 'declarer') THEN 'declarer' ELSE 'klop' END
                   AS drill_role
        FROM ph
        WHERE contract IS NOT NULL AND (role = 'declarer' OR role = 'klop')
        GROUP BY contract ORDER BY played DESC, contract""",
        vals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "played")


def bonuses(con: duckdb.DuckDBPyConnection, f: Filters = Filters()) -> pl.DataFrame:
    """Per player and bonus: announced, made (and decided: an outcome known), success rate."""
    w, vals = _with(f)
    df = _pl(
        con,
        w
        + f""", bon AS ({_BONUS_EVENTS})
        SELECT ph.player_id, any_value(ph.name) AS name, bon.bonus, count(*) AS announced,
               count(bon.made) AS decided, count(*) FILTER (WHERE bon.made) AS made
        FROM bon JOIN ph ON ph.hand_id = bon.hand_id AND ph.seat = bon.seat
        GROUP BY ph.player_id, bon.bonus ORDER BY ph.player_id, bon.bonus""",
        vals,
    )
    return _enough(_rate(df, "made", "decided", "success_rate"), "announced")


def kontras(con: duckdb.DuckDBPyConnection, f: Filters = Filters()) -> pl.DataFrame:
    """Per player, target (``game`` or a bonus) and level: kontras given and successful."""
    w, vals = _with(f)
    df = _pl(
        con,
        w
        + f""", kon AS ({_KONTRA_EVENTS})
        SELECT ph.player_id, any_value(ph.name) AS name, kon.target, kon.level,
               count(*) AS given, count(kon.success) AS decided,
               count(*) FILTER (WHERE kon.success) AS successful
        FROM kon JOIN ph ON ph.hand_id = kon.hand_id AND ph.seat = kon.seat
        GROUP BY ph.player_id, kon.target, kon.level
        ORDER BY ph.player_id, kon.target, kon.level""",
        vals,
    )
    return _enough(_rate(df, "successful", "decided", "success_rate"), "given")


_SAME_SIDE = """
    ((a.role IN ('declarer', 'partner') AND b.role IN ('declarer', 'partner'))
     OR (spa.pair IS NOT NULL AND spa.pair = spb.pair))
"""


def synergy(con: duckdb.DuckDBPyConnection, f: Filters = Filters()) -> pl.DataFrame:
    """For each pair of players who played on the same side (called-king partners; Royal
    Tarock's fixed pairs): hands together, won, win rate, each one's average score together,
    and each one's own win rate and average over all their hands (same filters)."""
    w, vals = _with(replace(f, role=None), with_player=False)  # a pair spans two roles
    pvals: list[Any] = []
    pcond = "TRUE"
    if f.player is not None:
        pcond = "(a.player_id = ? OR a.name = ? OR b.player_id = ? OR b.name = ?)"
        pvals = [f.player] * 4
    df = _pl(
        con,
        w
        + f"""
        , own AS (
            SELECT player_id, count(*) AS own_hands, avg(score) AS own_avg_score,
                   count(*) FILTER (WHERE won) / nullif(count(won), 0) AS own_win_rate
            FROM ph GROUP BY player_id)
        , pairs AS (
            SELECT a.hand_id, a.player_id AS player_a, b.player_id AS player_b,
                   a.name AS name_a, b.name AS name_b, a.won, a.score AS score_a,
                   b.score AS score_b
            FROM ph a JOIN ph b ON a.hand_id = b.hand_id AND a.player_id < b.player_id
            JOIN session_players spa ON spa.session_id = a.session_id AND spa.seat = a.seat
            JOIN session_players spb ON spb.session_id = b.session_id AND spb.seat = b.seat
            WHERE {_SAME_SIDE} AND {pcond})
        SELECT p.player_a, any_value(p.name_a) AS name_a, p.player_b,
               any_value(p.name_b) AS name_b, count(*) AS hands, count(p.won) AS decided,
               count(*) FILTER (WHERE p.won) AS won, avg(p.score_a) AS avg_score_a,
               avg(p.score_b) AS avg_score_b,
               any_value(oa.own_win_rate) AS own_win_rate_a,
               any_value(ob.own_win_rate) AS own_win_rate_b,
               any_value(oa.own_avg_score) AS own_avg_score_a,
               any_value(ob.own_avg_score) AS own_avg_score_b
        FROM pairs p JOIN own oa ON oa.player_id = p.player_a
        JOIN own ob ON ob.player_id = p.player_b
        GROUP BY p.player_a, p.player_b ORDER BY hands DESC, p.player_a, p.player_b""",
        vals + pvals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "hands")


def score_over_time(con: duckdb.DuckDBPyConnection, f: Filters = Filters()) -> pl.DataFrame:
    """Per player and session (in date order): hands, score, and the running total."""
    w, vals = _with(f)
    return _pl(
        con,
        w
        + """
        SELECT player_id, any_value(name) AS name, date, session_id, count(*) AS hands,
               CAST(sum(score) AS BIGINT) AS score,
               CAST(sum(sum(score)) OVER (PARTITION BY player_id
                                          ORDER BY date NULLS FIRST, session_id
                                          ROWS UNBOUNDED PRECEDING) AS BIGINT) AS cumulative
        FROM ph GROUP BY player_id, date, session_id
        ORDER BY player_id, date NULLS FIRST, session_id""",
        vals,
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
    ``partner`` the hands the player played on the same side as this other player.
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


def hands_for(
    con: duckdb.DuckDBPyConnection, f: Filters = Filters(), d: Drill = Drill(), **kw: Any
) -> pl.DataFrame:
    """The hands behind a figure: ``hand_id, session_id, number, date, player_id, seat, role,
    contract, score, won``, one row per (hand, seat) that the figure counted.

    Keyword arguments are shorthands for :class:`Filters` and :class:`Drill` fields
    (``hands_for(con, player="ana", role="declarer", contract="three")``). Counting the
    distinct ``hand_id`` of the result gives the figure for a player; with no player filter a
    per-contract figure counts distinct hands too.
    """
    fkw = {k: v for k, v in kw.items() if k in Filters.__dataclass_fields__}
    dkw = {k: v for k, v in kw.items() if k in Drill.__dataclass_fields__}
    unknown = set(kw) - set(fkw) - set(dkw)
    if unknown:
        raise TypeError(f"unknown drill-down field(s): {', '.join(sorted(unknown))}")
    f = replace(f, **fkw)
    d = replace(d, **dkw)
    w, vals = _with(f)
    conds: list[str] = []
    extra: list[Any] = []
    ctes = (
        f", bids AS ({_BIDS}), bon AS ({_BONUS_EVENTS}), kon AS ({_KONTRA_EVENTS}), "
        f"mond AS ({_MOND_EVENTS}), ren AS ({_RENONS_EVENTS})"
    )
    if d.won is not None:
        conds.append("ph.won = ?")
        extra.append(d.won)
    if d.bid:
        conds.append("(ph.hand_id, ph.seat) IN (SELECT (hand_id, seat) FROM bids)")
    if d.bonus is not None:
        sub = (
            "SELECT 1 FROM bon WHERE bon.hand_id = ph.hand_id AND bon.seat = ph.seat"
            " AND bon.bonus = ?"
        )
        extra.append(d.bonus)
        if d.made is not None:
            sub += " AND bon.made = ?"
            extra.append(d.made)
        conds.append(f"EXISTS ({sub})")
    if d.kontra:
        sub = "SELECT 1 FROM kon WHERE kon.hand_id = ph.hand_id AND kon.seat = ph.seat"
        if d.kontra_target is not None:
            sub += " AND kon.target = ?"
            extra.append(d.kontra_target)
        if d.kontra_level is not None:
            sub += " AND kon.level = ?"
            extra.append(d.kontra_level)
        if d.success is not None:
            sub += " AND kon.success = ?"
            extra.append(d.success)
        conds.append(f"EXISTS ({sub})")
    if d.mond is not None:
        col = {"lost": "loser_seat", "captured": "winner_seat"}[d.mond]
        conds.append(
            f"EXISTS (SELECT 1 FROM mond WHERE mond.hand_id = ph.hand_id AND mond.{col} = ph.seat)"
        )
    if d.renons:
        conds.append(
            "EXISTS (SELECT 1 FROM ren WHERE ren.hand_id = ph.hand_id AND ren.seat = ph.seat)"
        )
    if d.radelc is not None:
        expr = {
            "earned": "ph.radelci_after > ph.radelci_before",
            "cleared": "ph.radelci_after < ph.radelci_before",
        }[d.radelc]
        conds.append(expr)
    if d.partner is not None:
        conds.append(f"""EXISTS (
            SELECT 1 FROM ({PLAYER_HANDS}) b
            JOIN session_players spa ON spa.session_id = ph.session_id AND spa.seat = ph.seat
            JOIN session_players spb ON spb.session_id = b.session_id AND spb.seat = b.seat
            WHERE b.hand_id = ph.hand_id AND b.seat <> ph.seat
              AND (b.player_id = ? OR b.name = ?)
              AND {_SAME_SIDE.replace("a.role", "ph.role")})""")
        extra += [d.partner, d.partner]
    where = " AND ".join(conds) or "TRUE"
    return _pl(
        con,
        w
        + ctes
        + f"""
        SELECT ph.hand_id, ph.session_id, ph.number, ph.date, ph.player_id, ph.seat, ph.role,
               ph.contract, ph.score, ph.won
        FROM ph WHERE {where}
        ORDER BY ph.date NULLS FIRST, ph.session_id, ph.number, ph.seat""",
        vals + extra,
    )


# --------------------------------------------------------------------------- per game
#
# The Players page opens on one game and never mixes games: every function below requires
# ``Filters.game``. Their base relation is the player-hand with, in addition, the seat's
# fixed pair (Royal Tarock), the pair's part in the hand (Royal Tarock's ``attacker`` and
# ``defender``: the dealer's pair defends) and whether the deal was **thrown in** (a
# ``throw_in`` action: nobody played it). Thrown-in deals are counted on their own and left
# out of every average, rate and count of hands played.

#: roles of the per-game tables, in the order they are shown
GAME_ROLES = ("declarer", "partner", "attacker", "defender", "klop", "sitting_out", "unknown")

_GAME_PH = f"""
SELECT p.* REPLACE (
           CASE WHEN p.role = 'unknown' AND p.game = 'royal' AND sp.pair IS NOT NULL
                THEN CASE WHEN sp.pair = dp.pair THEN 'defender' ELSE 'attacker' END
                ELSE p.role END AS role),
       sp.pair, sp.role AS seat_part, coalesce(ti.thrown_in, FALSE) AS thrown_in
FROM ({PLAYER_HANDS}) p
JOIN hands hh ON hh.hand_id = p.hand_id
LEFT JOIN session_players sp ON sp.session_id = p.session_id AND sp.seat = p.seat
LEFT JOIN session_players dp ON dp.session_id = p.session_id AND dp.seat = hh.dealer
LEFT JOIN (SELECT DISTINCT hand_id, TRUE AS thrown_in FROM actions WHERE type = 'throw_in') ti
       ON ti.hand_id = p.hand_id
"""

#: the player-hand of one game, with Royal Tarock's hands decided pair against pair: a
#: pair won the hand when its seats wrote more than the other pair's (no result on a tie)
_GAME_BASE = f"""
gph0 AS ({_GAME_PH}),
gpair AS (
    SELECT hand_id, pair, max(score) AS pair_score
    FROM gph0 WHERE game = 'royal' AND pair IS NOT NULL GROUP BY hand_id, pair),
gph AS (
    SELECT g.* REPLACE (
               CASE WHEN g.thrown_in THEN NULL
                    WHEN g.game = 'royal' AND g.pair IS NOT NULL THEN
                        CASE WHEN mine.pair_score > theirs.pair_score THEN TRUE
                             WHEN mine.pair_score < theirs.pair_score THEN FALSE END
                    ELSE g.won END AS won)
    FROM gph0 g
    LEFT JOIN gpair mine ON mine.hand_id = g.hand_id AND mine.pair = g.pair
    LEFT JOIN gpair theirs ON theirs.hand_id = g.hand_id AND theirs.pair <> g.pair)
"""


def _game(f: Filters) -> str:
    if f.game is None:
        raise ValueError("per-game statistics need Filters.game: games are never mixed")
    return f.game


def _gwith(f: Filters, *, with_player: bool = True) -> tuple[str, list[Any]]:
    """``WITH gph0, gpair, gph, ph AS (the filtered per-game player-hands)``."""
    _game(f)
    cond, vals = f.where("p", with_player=with_player)
    return f"WITH {_GAME_BASE}, ph AS (SELECT * FROM gph p WHERE {cond})\n", vals


def game_players(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Per player in one game: hands at the table, thrown-in deals (on their own), hands
    played, decided, won, win rate, total and average score (thrown-in deals left out), and
    the hands in each role."""
    w, vals = _gwith(f)
    df = _pl(
        con,
        w
        + """
        SELECT player_id, any_value(name) AS name, count(*) AS hands,
               count(*) FILTER (WHERE thrown_in) AS thrown_in,
               count(*) FILTER (WHERE NOT thrown_in) AS played,
               count(won) AS decided, count(*) FILTER (WHERE won) AS won,
               CAST(coalesce(sum(score) FILTER (WHERE NOT thrown_in), 0) AS BIGINT)
                   AS total_score,
               avg(score) FILTER (WHERE NOT thrown_in) AS avg_score,
               count(*) FILTER (WHERE role = 'declarer' AND NOT thrown_in) AS as_declarer,
               count(*) FILTER (WHERE role = 'partner' AND NOT thrown_in) AS as_partner,
               count(*) FILTER (WHERE role = 'attacker' AND NOT thrown_in) AS as_attacker,
               count(*) FILTER (WHERE role = 'defender' AND NOT thrown_in) AS as_defender
        FROM ph GROUP BY player_id ORDER BY player_id""",
        vals,
    )
    return _enough(_rate(df, "won", "decided", "win_rate"), "played")


def game_roles(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Per player and role in one game (Royal Tarock: ``attacker`` / ``defender``, the pair's
    part in the hand): hands played, decided, won, win rate, average score; thrown-in deals
    left out."""
    w, vals = _gwith(f)
    df = _pl(
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


def game_contracts(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Per contract of one game only (contract tables never mix games): hands played, won,
    win rate, the declarer's average score; thrown-in deals left out (they have no
    contract). ``drill_role`` is the role to drill down with."""
    _game(f)
    return contracts(con, f)


def thrown_in(con: duckdb.DuckDBPyConnection, f: Filters) -> int:
    """The number of thrown-in deals of one game under the filters (counted on their own)."""
    w, vals = _gwith(f)
    rows = con.execute(
        w + "SELECT count(DISTINCT hand_id) FROM ph WHERE thrown_in", vals
    ).fetchall()
    return int(rows[0][0])


#: a Royal Tarock Schlemm (an announced premium, ``S_…``, or the Spiel ``F_SPIEL``) with its
#: outcome for the announcing pair, read from the stored score items: made (the announcer's
#: item is positive), failed (negative), raised (a partner's Hebung replaced it: the raising
#: Schlemm carries the score), unknown (no item stored)
_ROYAL_SCHLEMM = """
SELECT a.hand_id, a.seat, a.bonus,
       CASE WHEN v.value > 0 THEN 'made' WHEN v.value < 0 THEN 'failed'
            WHEN r.raised THEN 'raised' ELSE 'unknown' END AS outcome
FROM actions a
JOIN hands h ON h.hand_id = a.hand_id AND h.game = 'royal'
LEFT JOIN (
    SELECT hand_id, seat, item, coalesce(recomputed, recorded) AS value FROM score_items
) v ON v.hand_id = a.hand_id AND v.seat = a.seat AND v.item = a.bonus
LEFT JOIN (
    SELECT DISTINCT x.hand_id, x.raises AS bonus, TRUE AS raised
    FROM actions x WHERE x.type = 'announce' AND x.raises IS NOT NULL
) r ON r.hand_id = a.hand_id AND r.bonus = a.bonus
WHERE a.type = 'announce' AND a.bonus IS NOT NULL
  AND (a.bonus LIKE 'S\\_%' ESCAPE '\\' OR a.bonus = 'F_SPIEL')
"""


def schlemme(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Royal Tarock: per player and Schlemm, announced, made, failed, raised (replaced by the
    partner's Hebung) and of unknown outcome, and the success rate over the decided ones."""
    if _game(f) != "royal":
        raise ValueError("Schlemm statistics are Royal Tarock's")
    w, vals = _gwith(f)
    df = _pl(
        con,
        w
        + f""", sch AS ({_ROYAL_SCHLEMM})
        SELECT ph.player_id, any_value(ph.name) AS name, sch.bonus, count(*) AS announced,
               count(*) FILTER (WHERE outcome = 'made') AS made,
               count(*) FILTER (WHERE outcome = 'failed') AS failed,
               count(*) FILTER (WHERE outcome = 'raised') AS raised,
               count(*) FILTER (WHERE outcome = 'unknown') AS unknown,
               count(*) FILTER (WHERE outcome IN ('made', 'failed')) AS decided
        FROM sch JOIN ph ON ph.hand_id = sch.hand_id AND ph.seat = sch.seat
        WHERE NOT ph.thrown_in
        GROUP BY ph.player_id, sch.bonus ORDER BY ph.player_id, sch.bonus""",
        vals,
    )
    return _enough(_rate(df, "made", "decided", "success_rate"), "announced")


#: a kontra of one game with its success for the side that gave it: in Royal Tarock a
#: contra on the opponents' Schlemm succeeds when that Schlemm failed (the announcer's item
#: is negative); elsewhere as :data:`_KONTRA_EVENTS` (the doubled item favours the giver)
_ROYAL_CONTRA = """
SELECT a.hand_id, a.seat, a.target, coalesce(a.level, 1) AS level,
       CASE WHEN v.value < 0 THEN TRUE WHEN v.value > 0 THEN FALSE END AS success
FROM actions a
JOIN hands h ON h.hand_id = a.hand_id AND h.game = 'royal'
LEFT JOIN (
    SELECT an.hand_id, an.bonus, min(coalesce(si.recomputed, si.recorded)) AS value
    FROM actions an
    JOIN score_items si ON si.hand_id = an.hand_id AND si.seat = an.seat AND si.item = an.bonus
    WHERE an.type = 'announce'
    GROUP BY an.hand_id, an.bonus
) v ON v.hand_id = a.hand_id AND v.bonus = a.target
WHERE a.type = 'kontra'
"""


def contra_success(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Per player in one game: kontras given, decided, successful, failed and the success
    rate, by what was doubled (``game`` or a bonus / Schlemm) and level."""
    game = _game(f)
    w, vals = _gwith(f)
    events = _ROYAL_CONTRA if game == "royal" else _KONTRA_EVENTS
    df = _pl(
        con,
        w
        + f""", kon AS ({events})
        SELECT ph.player_id, any_value(ph.name) AS name, coalesce(kon.target, 'game') AS target,
               kon.level, count(*) AS given, count(kon.success) AS decided,
               count(*) FILTER (WHERE kon.success) AS successful,
               count(*) FILTER (WHERE NOT kon.success) AS failed
        FROM kon JOIN ph ON ph.hand_id = kon.hand_id AND ph.seat = kon.seat
        WHERE NOT ph.thrown_in
        GROUP BY ph.player_id, 3, kon.level ORDER BY ph.player_id, 3, kon.level""",
        vals,
    )
    return _enough(_rate(df, "successful", "decided", "success_rate"), "given")


def pair_matches(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Royal Tarock's match standings: per match (a session) and pair, the players, the
    games, the sum of the pair's game scores, the match result by the engine's rule
    (:meth:`~tarock_logs.rules.base.GameEngine.session_totals`: each sum divided by the match
    length), and whether the pair won, lost or drew the match."""
    if _game(f) != "royal":
        raise ValueError("match standings are Royal Tarock's")
    from tarock_logs.rules import get_engine

    w, vals = _gwith(f, with_player=False)
    df = _pl(
        con,
        w
        + """
        SELECT session_id, any_value(date) AS date, any_value(ruleset) AS ruleset, pair,
               list(DISTINCT player_id ORDER BY player_id) AS player_ids,
               list(DISTINCT coalesce(name, player_id) ORDER BY coalesce(name, player_id))
                   AS players,
               count(DISTINCT hand_id) AS games,
               CAST(sum(score) / count(DISTINCT player_id) AS BIGINT) AS points
        FROM ph WHERE pair IS NOT NULL AND NOT thrown_in
        GROUP BY session_id, pair ORDER BY date NULLS LAST, session_id, pair""",
        vals,
    )
    if df.is_empty():  # (the columns of a match table, none of them empty)
        return df.drop("ruleset").with_columns(
            pl.lit(None, pl.Int64).alias("match_points"), pl.lit(None, pl.String).alias("result")
        )
    engine = get_engine("royal")
    out = []
    for _, part in df.group_by(["session_id"], maintain_order=True):
        rows = part.to_dicts()
        sums = [int(r["points"]) for r in rows]
        if engine is not None and len(rows) == 2:
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
            out.append(r)
    if f.player is not None:
        keep = {
            r["session_id"] for r in out if f.player in r["player_ids"] or f.player in r["players"]
        }
        out = [r for r in out if r["session_id"] in keep]
    return pl.DataFrame(out, infer_schema_length=None).drop("ruleset")


def pair_standings(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """Royal Tarock's pair standings over the matches: per pair of players, matches played,
    won, drawn, lost, match points for and against."""
    matches = pair_matches(con, f)
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


def head_to_head(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How a player does **against** each other player in one game: for every two players
    on opposite sides of a decided hand (declarer's side against defenders; Royal Tarock's
    pairs), hands, the first player's wins, win rate and average score in those hands. With
    a player filter, only that player's rows."""
    w, vals = _gwith(replace(f, role=None), with_player=False)
    pvals: list[Any] = []
    pcond = "TRUE"
    if f.player is not None:
        pcond = "(a.player_id = ? OR a.name = ?)"
        pvals = [f.player, f.player]
    df = _pl(
        con,
        w
        + f"""
        SELECT a.player_id AS player_a, any_value(a.name) AS name_a, b.player_id AS player_b,
               any_value(b.name) AS name_b, count(*) AS hands,
               count(*) FILTER (WHERE a.won) AS won, avg(a.score) AS avg_score
        FROM ph a JOIN ph b ON a.hand_id = b.hand_id AND a.player_id <> b.player_id
        WHERE a.won IS NOT NULL AND b.won IS NOT NULL AND a.won <> b.won AND {pcond}
        GROUP BY a.player_id, b.player_id ORDER BY hands DESC, a.player_id, b.player_id""",
        vals + pvals,
    )
    return _enough(_rate(df, "won", "hands", "win_rate"), "hands")


def partners(con: duckdb.DuckDBPyConnection, f: Filters) -> pl.DataFrame:
    """How a player does **with** each other player in one game: for every two players on the
    same side of a decided hand (declarer and partner; Royal Tarock's fixed pair), hands
    together, wins, win rate and the first player's average score together, beside the
    first player's own win rate over all their decided hands."""
    w, vals = _gwith(replace(f, role=None), with_player=False)
    pvals: list[Any] = []
    pcond = "TRUE"
    if f.player is not None:
        pcond = "(a.player_id = ? OR a.name = ?)"
        pvals = [f.player, f.player]
    df = _pl(
        con,
        w
        + f"""
        , own AS (
            SELECT player_id, count(*) FILTER (WHERE won) / nullif(count(won), 0) AS own_rate
            FROM ph GROUP BY player_id)
        SELECT a.player_id AS player_a, any_value(a.name) AS name_a, b.player_id AS player_b,
               any_value(b.name) AS name_b, count(*) AS hands,
               count(*) FILTER (WHERE a.won) AS won, avg(a.score) AS avg_score,
               any_value(own.own_rate) AS own_win_rate
        FROM ph a JOIN ph b ON a.hand_id = b.hand_id AND a.player_id <> b.player_id
        JOIN own ON own.player_id = a.player_id
        WHERE a.won IS NOT NULL AND a.won = b.won AND {pcond}
          AND ((a.role IN ('declarer', 'partner') AND b.role IN ('declarer', 'partner'))
               OR (a.pair IS NOT NULL AND a.pair = b.pair))
        GROUP BY a.player_id, b.player_id ORDER BY hands DESC, a.player_id, b.player_id""",
        vals + pvals,
    )
    return _enough(_rate(df, "won", "hands", "win_rate"), "hands")


def game_hands_for(con: duckdb.DuckDBPyConnection, f: Filters, **drill: Any) -> pl.DataFrame:
    """The hands behind a per-game figure: ``hand_id, session_id, number, date, player_id,
    seat, role, contract, score, won, thrown_in``, one row per (hand, seat) counted. Drill
    fields: ``won`` (True/False), ``thrown_in`` (True: only those), ``schlemm`` with
    ``outcome`` (Royal), ``kontra`` (True) with ``success``, ``opponent`` / ``partner`` (a
    player id: hands against / with that player)."""
    w, vals = _gwith(f)
    conds: list[str] = []
    extra: list[Any] = []
    ctes = ""
    if "thrown_in" in drill and drill["thrown_in"] is not None:
        conds.append("ph.thrown_in = ?")
        extra.append(bool(drill["thrown_in"]))
    elif drill.get("won") is not None or f.role is not None:
        conds.append("NOT ph.thrown_in")
    if drill.get("won") is not None:
        conds.append("ph.won = ?")
        extra.append(bool(drill["won"]))
    if drill.get("schlemm") is not None:
        ctes += f", sch AS ({_ROYAL_SCHLEMM})"
        sub = "SELECT 1 FROM sch WHERE sch.hand_id = ph.hand_id AND sch.seat = ph.seat"
        sub += " AND sch.bonus = ?"
        extra.append(drill["schlemm"])
        if drill.get("outcome") is not None:
            sub += " AND sch.outcome = ?"
            extra.append(drill["outcome"])
        conds.append(f"EXISTS ({sub})")
    if drill.get("kontra"):
        events = _ROYAL_CONTRA if f.game == "royal" else _KONTRA_EVENTS
        ctes += f", kon AS ({events})"
        sub = "SELECT 1 FROM kon WHERE kon.hand_id = ph.hand_id AND kon.seat = ph.seat"
        if drill.get("success") is not None:
            sub += " AND kon.success = ?"
            extra.append(bool(drill["success"]))
        conds.append(f"EXISTS ({sub})")
    for key, same in (("opponent", False), ("partner", True)):
        other = drill.get(key)
        if other is None:
            continue
        side = (
            "b.won = ph.won AND ((ph.role IN ('declarer', 'partner') AND b.role IN "
            "('declarer', 'partner')) OR (ph.pair IS NOT NULL AND ph.pair = b.pair))"
            if same
            else "b.won <> ph.won"
        )
        conds.append(
            "EXISTS (SELECT 1 FROM gph b WHERE b.hand_id = ph.hand_id AND b.player_id = ? "
            f"AND b.won IS NOT NULL AND ph.won IS NOT NULL AND {side})"
        )
        extra.append(other)
    where = " AND ".join(conds) or "TRUE"
    return _pl(
        con,
        w
        + ctes
        + f"""
        SELECT ph.hand_id, ph.session_id, ph.number, ph.date, ph.player_id, ph.seat, ph.role,
               ph.contract, ph.score, ph.won, ph.thrown_in
        FROM ph WHERE {where}
        ORDER BY ph.date NULLS FIRST, ph.session_id, ph.number, ph.seat""",
        vals + extra,
    )
