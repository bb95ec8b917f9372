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
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from operator import itemgetter
from typing import Any

import duckdb
import polars as pl

__all__ = ["METHOD", "RatingHistory", "ratings", "session_placements"]

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
JOIN hands h ON h.hand_id = hs.hand_id
JOIN sessions s ON s.session_id = h.session_id
LEFT JOIN players p ON p.player_id = hs.player_id
LEFT JOIN session_players sp ON sp.session_id = s.session_id AND sp.seat = hs.seat
WHERE (? IS NULL OR CAST(s.game AS VARCHAR) = ?)
GROUP BY ALL
ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST,
         s.table_name NULLS LAST, s.session_id, hs.seat
"""


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
        pair = r["pair"] if r["game"] == "royal" else None
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
    from openskill.models import PlackettLuce

    cur = con.cursor()
    try:
        frame: pl.DataFrame = cur.sql(_SESSIONS, params=[game, game]).pl()
    finally:
        cur.close()
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
    cur_df = pl.DataFrame(
        current,
        schema={"game": pl.String, "player_id": pl.String, "name": pl.String,
                "rating": pl.Float64, "mu": pl.Float64, "sigma": pl.Float64,
                "sessions": pl.Int64},
    )  # fmt: skip
    cur_df = cur_df.sort(["game", "rating", "player_id"], descending=[False, True, False])
    cur_df = cur_df.with_columns(
        pl.col("rating").rank("min", descending=True).over("game").cast(pl.Int64).alias("rank")
    )
    hist_df = pl.DataFrame(
        history,
        schema={"game": pl.String, "session_id": pl.String, "date": pl.Date, "order": pl.Int64,
                "player_id": pl.String, "name": pl.String, "place": pl.Int64,
                "rating": pl.Float64, "mu": pl.Float64, "sigma": pl.Float64},
    )  # fmt: skip
    return RatingHistory(cur_df, hist_df)
