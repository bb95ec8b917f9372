"""Ratings per player, recomputed from the store: one rating per game, from table sessions by
placement.

**Method.** Every stored session is one *table* (a Slovenian or Zwanzigerrufen session, a
Royal Tarock match). Its players are placed by their session score, the sum of their hand
scores as written at the table (``recorded_total``, else the engine's ``recomputed_total``);
equal sums share a place. Royal Tarock's fixed pairs are teams: the two players of a pair
are rated together, placed by their pair's sum. The placements update the players' ratings
with the Plackett-Luce model of Weng and Lin's Bayesian approximation, as the maintained
``openskill`` library implements it (``openskill.models.PlackettLuce`` with its defaults:
μ = 25, σ = 25/3, β = σ/2, τ = σ/100): a rating is a belief (μ, σ) about a player's skill, and
the number shown is the conservative **ordinal** μ − 3σ, which starts at 0 and rises as a
player places well and as the model grows sure of them. ``openskill`` suits tarock better than
Elo: it rates tables of 3, 4 and 5 and teams directly, and it is open and maintained (MIT).

**Determinism.** Sessions are rated in playing order (date, tournament, round, table, session
id: the order the store lists them in), players in a session by seat, and nothing random is
involved, so the same store gives the same ratings, to the last digit. Each game is rated on
its own (a Royal Tarock match says nothing of a player's Slovenian tarok). A session where
nobody has a score is skipped.

**Stored at ingest.** :func:`ratings` is the recomputation (the reference). The ingest calls
:func:`tarock_logs.store.write.ratings.refresh` where it finishes writing (in its last
transaction, before the store is published): a game is recomputed when the key of its inputs
changed, the files (and their sha256) that hold its sessions and hands, or the method
(:data:`METHOD` and the openskill version); its rows in ``rating_current`` and ``rating_history``
(migration 0006) are then replaced. Ratings are order-dependent (a session added, replaced or
deleted anywhere in the playing order moves every rating after it), so a changed game is recomputed
entirely, from its first session: correct and simple, and the cost is one game's recomputation. A
re-ingest of unchanged files changes no key and recomputes nothing. Names are not stored (a player's
name may change with another game's file): readers join them from ``players`` as
:func:`ratings` does. :func:`read_ratings` (``store.queries.game_ratings``, ``tarock
ratings``) reads the stored rows, the same frames :func:`ratings` computes; a store without
them (older than migration 0006, or migrated and not ingested into since) is recomputed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from itertools import groupby
from operator import itemgetter
from typing import Any

import duckdb
import polars as pl

from tarock_logs.rules import games_with

__all__ = [
    "METHOD",
    "RatingHistory",
    "rate",
    "ratings",
    "read_ratings",
    "session_placements",
    "session_rows",
    "stored_method",
    "stored_ratings",
]

#: the method in one line (shown beside the ratings)
METHOD = (
    "openskill Plackett-Luce (mu 25, sigma 25/3) from each table session's placement by "
    "session score; rating = mu - 3 sigma; sessions in playing order; each game on its own"
)

_SESSIONS = """
SELECT s.session_id, CAST(s.game AS VARCHAR) AS game, s.date, s.tournament, s.round,
       s.table_name, hs.seat, hs.player_id, coalesce(p.name, hs.player_id) AS name, sp.pair,
       sum(coalesce(hs.recorded_total, hs.recomputed_total)) AS score,
       count(coalesce(hs.recorded_total, hs.recomputed_total)) AS scored
FROM hand_scores hs
JOIN hands h ON h.hand_key = hs.hand_key
JOIN sessions s ON s.session_id = h.session_id
LEFT JOIN players p ON p.player_id = hs.player_id
LEFT JOIN session_players sp ON sp.session_id = s.session_id AND sp.seat = hs.seat
WHERE (? IS NULL OR CAST(s.game AS VARCHAR) = ?)
GROUP BY ALL
ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST,
         s.table_name NULLS LAST, s.session_id, hs.seat
"""


#: the columns and types of :attr:`RatingHistory.current` and ``.history``
CURRENT_SCHEMA = {"game": pl.String, "player_id": pl.String, "name": pl.String,
                  "rating": pl.Float64, "mu": pl.Float64, "sigma": pl.Float64,
                  "sessions": pl.Int64}  # fmt: skip
HISTORY_SCHEMA = {"game": pl.String, "session_id": pl.String, "date": pl.Date,
                  "order": pl.Int64, "player_id": pl.String, "name": pl.String,
                  "place": pl.Int64, "rating": pl.Float64, "mu": pl.Float64,
                  "sigma": pl.Float64}  # fmt: skip


@dataclass(frozen=True)
class RatingHistory:
    """The ratings after the last session (``current``: game, player_id, name, rating, mu,
    sigma, sessions, rank) and after every session (``history``: game, session_id, date,
    order, player_id, name, place, rating, mu, sigma)."""

    current: pl.DataFrame
    history: pl.DataFrame


def session_placements(rows: Iterable[dict[str, Any]]) -> list[tuple[list[str], int]]:
    """The teams of one session and their places (1 = best), from its seat rows: each seat a
    team of one, or a Royal Tarock pair a team of two; higher score, better place; equal
    scores share a place. Teams come in seat order."""
    teams: dict[str, tuple[list[str], int]] = {}
    for r in rows:
        pair = r["pair"] if r["game"] in games_with("fixed_pairs") else None
        key = f"pair:{pair}" if pair else f"seat:{r['seat']}"
        if key not in teams:
            # a pair's two players write the same score: the pair's is its first player's
            teams[key] = ([r["player_id"]], int(r["score"] or 0))
        elif r["player_id"] not in teams[key][0]:
            teams[key][0].append(r["player_id"])
    scores = [score for _, score in teams.values()]
    return [
        (players, 1 + sum(1 for other in scores if other > score))
        for players, score in teams.values()
    ]


def ratings(con: duckdb.DuckDBPyConnection, game: str | None = None) -> RatingHistory:
    """The ratings of every player (of ``game``, or of each game on its own), recomputed from
    the store by the method of the module docstring."""
    cur = con.cursor()
    try:
        frame = session_rows(cur, game)
    finally:
        cur.close()
    return rate(frame)


def session_rows(con: duckdb.DuckDBPyConnection, game: str | None = None) -> pl.DataFrame:
    """The seat rows of the sessions (of ``game``), in playing order: what :func:`rate`
    rates. Runs on ``con`` itself (the writer's open transaction sees its own rows)."""
    frame: pl.DataFrame = con.sql(_SESSIONS, params=[game, game]).pl()
    return frame


def rate(frame: pl.DataFrame) -> RatingHistory:
    """The ratings from :func:`session_rows` (the method of the module docstring)."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    state: dict[tuple[str, str], Any] = {}
    names: dict[str, str] = {}
    played: dict[tuple[str, str], int] = {}
    history: list[dict[str, Any]] = []
    order = 0
    # the rows come sorted by playing order and then session id, so each session's seat rows
    # are consecutive: one pass over them (a polars group per session cost 0.1 ms each, most
    # of the time on a large store)
    for sid, group in groupby(frame.iter_rows(named=True), key=itemgetter("session_id")):
        rows = list(group)
        if not any(r["scored"] for r in rows):
            continue
        g = str(rows[0]["game"])
        for r in rows:
            names[r["player_id"]] = r["name"]
        placed = session_placements(rows)
        if len(placed) < 2:
            continue
        teams = [
            [state.get((g, pid)) or model.rating(name=pid) for pid in players]
            for players, _ in placed
        ]
        new = model.rate(teams, ranks=[float(place) for _, place in placed])
        order += 1
        for (players, place), team in zip(placed, new, strict=True):
            for pid, rating in zip(players, team, strict=True):
                state[(g, pid)] = rating
                played[(g, pid)] = played.get((g, pid), 0) + 1
                history.append(
                    {
                        "game": g,
                        "session_id": str(sid),
                        "date": rows[0]["date"],
                        "order": order,
                        "player_id": pid,
                        "name": names[pid],
                        "place": place,
                        "rating": round(rating.ordinal(), 3),
                        "mu": round(rating.mu, 3),
                        "sigma": round(rating.sigma, 3),
                    }
                )
    current = [
        {
            "game": g,
            "player_id": pid,
            "name": names[pid],
            "rating": round(r.ordinal(), 3),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "sessions": played[(g, pid)],
        }
        for (g, pid), r in state.items()
    ]
    cur_df = _sort_current(pl.DataFrame(current, schema=CURRENT_SCHEMA))
    cur_df = cur_df.with_columns(
        pl.col("rating").rank("min", descending=True).over("game").cast(pl.Int64).alias("rank")
    )
    hist_df = pl.DataFrame(history, schema=HISTORY_SCHEMA)
    return RatingHistory(cur_df, hist_df)


def _sort_current(frame: pl.DataFrame) -> pl.DataFrame:
    """By game, best rating first, then player id."""
    return frame.sort(["game", "rating", "player_id"], descending=[False, True, False])


# --------------------------------------------------------------------------- stored at ingest


@cache
def stored_method() -> str:
    """What a game's stored ratings were computed by: :data:`METHOD` and the openskill
    version (a new version may rate differently, so the next ingest recomputes)."""
    from importlib.metadata import version

    return f"{METHOD}; openskill {version('openskill')}"


_STORED_CURRENT = """
SELECT CAST(c.game AS VARCHAR) AS game, c.player_id, coalesce(p.name, c.player_id) AS name,
       c.rating, c.mu, c.sigma, c.sessions, c.rank
FROM rating_current c LEFT JOIN players p USING (player_id)
WHERE (? IS NULL OR CAST(c.game AS VARCHAR) = ?)
"""

_STORED_HISTORY_OF_GAME = """
SELECT CAST(h.game AS VARCHAR) AS game, h.session_id, h.date, h."order", h.player_id,
       coalesce(p.name, h.player_id) AS name, h.place, h.rating, h.mu, h.sigma
FROM rating_history h LEFT JOIN players p USING (player_id)
WHERE CAST(h.game AS VARCHAR) = ?
ORDER BY h.seq
"""

#: every game's history: the sessions numbered in one playing order across the games (as
#: :func:`ratings` without a game numbers them; the order of ``_SESSIONS``)
_STORED_HISTORY_ALL = """
WITH h AS (
    SELECT h.*, dense_rank() OVER (
               ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST,
                        s.table_name NULLS LAST, s.session_id) AS all_order
    FROM rating_history h JOIN sessions s USING (session_id)
)
SELECT CAST(h.game AS VARCHAR) AS game, h.session_id, h.date, h.all_order AS "order",
       h.player_id, coalesce(p.name, h.player_id) AS name, h.place, h.rating, h.mu, h.sigma
FROM h LEFT JOIN players p USING (player_id)
ORDER BY h.all_order, h.seq
"""


def stored_ratings(con: duckdb.DuckDBPyConnection, game: str | None = None) -> RatingHistory | None:
    """The stored ratings (of ``game``, or of every game), the frames :func:`ratings`
    computes; None when the store does not hold them for every game it has sessions of (a
    store older than migration 0006, one migrated but not ingested into since, or one whose
    ratings were computed by another method)."""
    cur = con.cursor()
    try:
        has_table = cur.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE table_name = 'rating_games'"
        ).fetchall()[0][0]
        if not has_table:
            return None
        methods = dict(
            cur.execute("SELECT CAST(game AS VARCHAR), method FROM rating_games").fetchall()
        )
        games = cur.execute(
            "SELECT DISTINCT CAST(game AS VARCHAR) FROM sessions "
            "WHERE (? IS NULL OR CAST(game AS VARCHAR) = ?)",
            [game, game],
        ).fetchall()
        method = stored_method()
        if any(methods.get(g) != method for (g,) in games):
            return None
        current = cur.sql(_STORED_CURRENT, params=[game, game]).pl()
        if game is None:
            history = cur.sql(_STORED_HISTORY_ALL).pl()
        else:
            history = cur.sql(_STORED_HISTORY_OF_GAME, params=[game]).pl()
    finally:
        cur.close()
    current = _sort_current(current.cast({**CURRENT_SCHEMA, "rank": pl.Int64}))
    return RatingHistory(current, history.cast(HISTORY_SCHEMA))


def read_ratings(con: duckdb.DuckDBPyConnection, game: str | None = None) -> RatingHistory:
    """The ratings (of ``game``, or of every game): the stored ones (:func:`stored_ratings`),
    else recomputed (:func:`ratings`)."""
    stored = stored_ratings(con, game)
    return stored if stored is not None else ratings(con, game)
