"""Per-card analysis read from the store (written by :mod:`tarock_logs.store.write.analysis`,
``tarock ingest --analyse``; docs/analysis.md).

:func:`points_lost` is what the Players page shows: points lost per analysed hand per player,
with the number of hands behind each figure. It is no rating of players: with all cards
visible a card can lose that was right on what the player knew. :func:`hand_card_analysis`
and :func:`hand_card_analysis_player` give the replayer a hand's rows of either view;
:func:`hand_par` its par before the first trick (talon groups, discards, contracts).
"""

from __future__ import annotations

from typing import Any

import duckdb
import orjson
import polars as pl

from tarock_logs.store.read.queries import stats_filters
from tarock_logs.store.read.stats import query_frame, with_seat_facts

__all__ = ["hand_card_analysis", "hand_card_analysis_player", "hand_par", "par_points_lost",
           "points_lost"]  # fmt: skip


def points_lost(
    con: duckdb.DuckDBPyConnection, filters: tuple[Any, ...] = (), mask: bool = False
) -> pl.DataFrame:
    """Per player: the analysed hands he played cards in (the sample), his legal cards valued,
    points lost in all and per analysed hand, and the cards that changed the outcome (all
    cards visible; never a single score to rate players).

    ``filters`` are the Players page's ``(game, event, date_from, date_to, player)``
    (:func:`tarock_logs.store.read.queries.stats_filters`): the same seat facts as its other tables;
    ``mask``: names as pseudonyms. Aggregated in SQL: one row per player."""
    if not con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = "
                       "'card_analysis'").fetchall()[0][0]:  # fmt: skip
        return pl.DataFrame()
    with_ph, vals = with_seat_facts(stats_filters(*filters), mask=mask)
    return query_frame(con, f"""
        {with_ph}
        SELECT ph.player_id, any_value(ph.name) AS name,
               count(DISTINCT c.hand_id) AS hands,
               count(*) FILTER (WHERE c.legal) AS cards,
               coalesce(sum(c.loss) FILTER (WHERE c.legal), 0)::BIGINT AS points_lost,
               round(coalesce(sum(c.loss) FILTER (WHERE c.legal), 0)
                     / count(DISTINCT c.hand_id), 1) AS points_lost_per_hand,
               count(*) FILTER (WHERE c.legal AND len(c.changed) > 0) AS cards_changing_outcome
        FROM card_analysis c
        JOIN hands h ON h.hand_id = c.hand_id
        JOIN ph ON ph.hand_key = h.hand_key AND ph.seat = c.seat
        GROUP BY ph.player_id
        ORDER BY points_lost_per_hand DESC, ph.player_id
    """, vals)  # fmt: skip


def hand_card_analysis(con: duckdb.DuckDBPyConnection, hand_id: str) -> list[dict[str, Any]]:
    """The stored analysis of one hand's cards, by action index (the replayer's values)."""
    if not con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = "
                       "'card_analysis'").fetchall()[0][0]:  # fmt: skip
        return []
    rows = con.execute(
        """SELECT action_index, trick, seat, role, card, legal, value, best_value, best_cards,
                  loss, changed, card_values::VARCHAR
           FROM card_analysis WHERE hand_id = ? ORDER BY action_index""",
        [hand_id],
    ).fetchall()
    keys = ("action_index", "trick", "seat", "role", "card", "legal", "value", "best_value",
            "best_cards", "loss", "changed", "values")  # fmt: skip
    out = []
    for r in rows:
        d = dict(zip(keys, r, strict=True))
        d["values"] = orjson.loads(str(d["values"]))
        out.append(d)
    return out


def hand_card_analysis_player(con: duckdb.DuckDBPyConnection,
                              hand_id: str) -> list[dict[str, Any]]:  # fmt: skip
    """The stored analysis of one hand's cards on what the player knew, by action index:
    like :func:`hand_card_analysis`, each legal card's ``values`` its mean, and ``spread``
    its ``{mean, std, min, max}``; with ``samples`` and ``seed``."""
    if not con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = "
                       "'card_analysis_player'").fetchall()[0][0]:  # fmt: skip
        return []
    rows = con.execute(
        """SELECT c.action_index, c.trick, c.seat, c.role, c.card, c.value, c.best_value,
                  c.best_cards, c.loss, c.mistake, c.samples, c.seed, c.card_values::VARCHAR,
                  h.seed, h.threshold
           FROM card_analysis_player c
           LEFT JOIN analysed_hands_player h ON h.hand_id = c.hand_id
           WHERE c.hand_id = ? ORDER BY c.action_index""",
        [hand_id],
    ).fetchall()
    keys = ("action_index", "trick", "seat", "role", "card", "value", "best_value",
            "best_cards", "loss", "mistake", "samples", "card_seed", "spread", "seed",
            "threshold")  # fmt: skip
    out = []
    for r in rows:
        d = dict(zip(keys, r, strict=True))
        d["spread"] = orjson.loads(str(d["spread"]))
        d["values"] = {c: v["mean"] for c, v in d["spread"].items()}
        d["legal"] = True
        out.append(d)
    return out


def hand_par(con: duckdb.DuckDBPyConnection, hand_id: str) -> dict[str, Any] | None:
    """The stored par of one hand (migration 0013), or None: its row (``contract``,
    ``budget``, ``hand_budget``, ``budget_hit``, ``skipped``, ...) with ``groups``,
    ``discards`` and ``contracts``, each option a dict (``value`` None where the budget left
    it undecided, ``low``/``high`` its bound; ``equivalent`` the discards valued with it)."""
    if not con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = "
                       "'par_hands'").fetchall()[0][0]:  # fmt: skip
        return None
    got = con.execute(
        """SELECT contract, declarer, backend, budget, hand_budget, budget_hit, nodes, skipped,
                  seconds FROM par_hands WHERE hand_id = ?""", [hand_id]).fetchall()  # fmt: skip
    if not got:
        return None
    keys = ("contract", "declarer", "backend", "budget", "hand_budget", "budget_hit", "nodes",
            "skipped", "seconds")  # fmt: skip
    out: dict[str, Any] = dict(zip(keys, got[0], strict=True))
    rows = con.execute(
        """SELECT kind, talon_group, cards, contract, king, value, low, high, recorded,
                  equivalent::VARCHAR, lines, decided, nodes
           FROM par_options WHERE hand_id = ? ORDER BY rowid""", [hand_id]).fetchall()  # fmt: skip
    okeys = ("kind", "group", "cards", "contract", "king", "value", "low", "high", "recorded",
             "equivalent", "lines", "decided", "nodes")  # fmt: skip
    for kind in ("group", "discard", "contract"):
        out[kind + "s"] = []
    for r in rows:
        d = dict(zip(okeys, r, strict=True))
        d["equivalent"] = orjson.loads(str(d["equivalent"]))
        out[str(d["kind"]) + "s"].append(d)
    return out


def par_points_lost(
    con: duckdb.DuckDBPyConnection, filters: tuple[Any, ...] = (), mask: bool = False
) -> pl.DataFrame:
    """Per declarer, from the stored par (all cards visible): the points his choice of talon
    group lost against the best group (in the hands whose groups were all decided) and his
    discard against the best discard after his group (where both were decided), each with its
    number of hands (the sample). ``filters`` and ``mask`` as :func:`points_lost`."""
    if not con.execute("SELECT count(*) FROM duckdb_tables() WHERE table_name = "
                       "'par_options'").fetchall()[0][0]:  # fmt: skip
        return pl.DataFrame()
    with_ph, vals = with_seat_facts(stats_filters(*filters), mask=mask)
    return query_frame(con, f"""
        {with_ph},
        per_hand AS (
            SELECT o.hand_id,
                   max(o.value) FILTER (WHERE o.kind = 'group') AS best_group,
                   count(*) FILTER (WHERE o.kind = 'group' AND o.value IS NULL) AS open_groups,
                   any_value(o.value) FILTER (WHERE o.kind = 'group' AND o.recorded) AS my_group,
                   any_value(o.value) FILTER (WHERE o.kind = 'discard' AND o.recorded)
                       AS my_discard
            FROM par_options o GROUP BY o.hand_id
        )
        SELECT ph.player_id,
               count(*) FILTER (WHERE p.open_groups = 0 AND p.my_group IS NOT NULL)
                   AS talon_hands,
               coalesce(sum(p.best_group - p.my_group)
                        FILTER (WHERE p.open_groups = 0 AND p.my_group IS NOT NULL), 0)::BIGINT
                   AS talon_points_lost,
               count(*) FILTER (WHERE p.my_group IS NOT NULL AND p.my_discard IS NOT NULL)
                   AS discard_hands,
               coalesce(sum(p.my_group - p.my_discard)
                        FILTER (WHERE p.my_group IS NOT NULL AND p.my_discard IS NOT NULL),
                        0)::BIGINT AS discard_points_lost
        FROM par_hands x
        JOIN per_hand p ON p.hand_id = x.hand_id
        JOIN hands h ON h.hand_id = x.hand_id
        JOIN ph ON ph.hand_key = h.hand_key AND ph.seat = x.declarer
        WHERE x.skipped IS NULL
        GROUP BY ph.player_id
    """, vals)  # fmt: skip
