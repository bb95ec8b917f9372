"""Ratings stored at ingest: :func:`refresh` recomputes, in the ingest's transaction, the
ratings of every game whose inputs changed (the computation and the read side are
:mod:`tarock_logs.store.read.ratings`)."""

from __future__ import annotations

import duckdb
import polars as pl

from tarock_logs.store.read import ratings as computed

__all__ = ["refresh"]

#: per game, the key of the ratings' inputs: the files (with their sha256) that hold the
#: game's sessions or any of their hands (a hand may come from another file than its session)
_INPUTS = """
WITH f AS (
    SELECT DISTINCT CAST(s.game AS VARCHAR) AS game, x.file
    FROM (SELECT session_id, file FROM sessions
          UNION SELECT session_id, file FROM hands) x
    JOIN sessions s USING (session_id)
)
SELECT f.game, md5(string_agg(f.file || ':' || coalesce(r.sha256, ''), ',' ORDER BY f.file))
FROM f LEFT JOIN raw_logs r USING (file)
GROUP BY f.game
"""

_DELETE = [
    "DELETE FROM rating_current WHERE game = ?",
    "DELETE FROM rating_history WHERE game = ?",
    "DELETE FROM rating_games WHERE game = ?",
]


def refresh(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Recompute the stored ratings of every game whose inputs changed since the last refresh
    (the module docstring: the files holding its sessions and hands, or the method), in the
    caller's open transaction on ``con``; returns those games.

    Called by the ingest once every file is loaded, before the store is published. A game is
    recomputed entirely (ratings depend on the order of the sessions, so one changed session
    changes every rating after it); a game with no sessions left loses its rows; a re-ingest
    of unchanged files recomputes nothing."""
    method = computed.stored_method()
    current: dict[str, str] = dict(con.execute(_INPUTS).fetchall())
    stored = {
        str(g): (str(k), str(m))
        for g, k, m in con.execute(
            "SELECT CAST(game AS VARCHAR), inputs_key, method FROM rating_games"
        ).fetchall()
    }
    changed = sorted(g for g, key in current.items() if stored.get(g) != (key, method))
    gone = [g for g in stored if g not in current]
    # the games that have rows to delete (each delete costs ≈ 0.5 ms; a new store has none)
    held = set(stored)
    if changed or gone:
        held.update(
            str(g)
            for (g,) in con.execute(
                "SELECT CAST(game AS VARCHAR) FROM rating_current "
                "UNION SELECT CAST(game AS VARCHAR) FROM rating_history"
            ).fetchall()
        )
    for g in gone:
        _delete(con, g)
    for g in changed:
        result = computed.rate(computed.session_rows(con, g))
        if g in held:
            _delete(con, g)
        cur_rows = result.current.drop("name").to_arrow()
        hist_rows = (
            result.history.drop("name")
            .with_row_index("seq")
            .with_columns(pl.col("seq").cast(pl.Int64))
            .to_arrow()
        )
        con.register("_rating_current", cur_rows)
        con.register("_rating_history", hist_rows)
        try:
            con.execute("INSERT INTO rating_current BY NAME SELECT * FROM _rating_current")
            con.execute("INSERT INTO rating_history BY NAME SELECT * FROM _rating_history")
        finally:
            con.unregister("_rating_current")
            con.unregister("_rating_history")
        con.execute(
            "INSERT INTO rating_games VALUES (?, ?, ?, current_timestamp)",
            [g, current[g], method],
        )
    return changed


def _delete(con: duckdb.DuckDBPyConnection, game: str) -> None:
    for sql in _DELETE:
        con.execute(sql, [game])
