"""Fixed deals compared across tables (duplicate scoring), from the stored deals.

**The same deal.** Two stored hands hold the same deal when they are of the same game and
every *position* holds the same cards, and the talon is the same in the same dealt order. A
hand's positions count from its dealer in playing order: position ``k`` (1 … n) is seat
``(dealer + k) mod n``, so position 1 is forehand (the log format's P1) and position n the
dealer (at a Slovenian table of five his empty hand). The seat numbers themselves do not
matter: a deal dealt at one table by seat 0 and at another by seat 2 is the same deal when
the cards lie the same way round the dealer ("up to seat rotation"); the table sizes must be
equal (the number of positions is part of the key). Dealt hands are stored in canonical card
order, so the order a scorer wrote a hand's cards in does not matter; the talon's order does
(it defines the talon groups). The deal's ``method``, ``cut_by``, ``stacks`` and ``seed``
are not part of it. Hands recorded as facts (no cards) have no deal and are never compared.

The **deal key** is the SHA-256 (hex) of ``<game>|<hands by position>|<talon>``, the two
lists as compact JSON (``[["T1","HK"],…]``; an empty talon ``[]``), computed in SQL from the
stored ``hands.deal`` (:data:`DEAL_KEY_SQL`; :func:`deal_key` is the same in Python), so
no column or migration is needed and every stored hand has one.

**A compared deal** (bridge's *board*) is one deal key under one ruleset, played by at
least two stored hands (a *line* each: one table's play of it). A deal played under two
rulesets is compared under each apart: their scores do not compare.

**Match points** (as in duplicate bridge, docs/duplicate.md): on a compared deal, the hands that
held the same position are compared by the position's score in the hand (the score the
rules recompute, else the recorded one; a seat sitting out is not compared). Each such
hand earns 2 match points per other hand with a lower score and 1 per other hand with the
same score, out of ``2 × (lines − 1)``. A player's percentage is their match points over
the maximum of the hands they were compared in. The ranking sorts by that percentage
(compared exactly, as fractions), then by match points, then by player id: the same store
gives the same ranking.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import duckdb
import orjson

__all__ = [
    "DEAL_KEY_SQL",
    "METHOD",
    "NoSuchEvent",
    "deal_key",
    "duplicate_report",
    "position_of",
]

#: how the ranking is scored, in words (the JSON's ``method``)
METHOD = (
    "match points: on each deal, each hand's score against the others who held the same "
    "cards, 2 per score beaten, 1 per tie, as a percentage of the maximum"
)

#: the deal key of a row of ``hands`` (alias ``h``) as a SQL expression (module docstring)
DEAL_KEY_SQL = """sha256(
    CAST(h.game AS VARCHAR) || '|'
    || CAST(to_json(list_concat(
        CAST(json_extract(h.deal, '$.hands') AS VARCHAR[][])[h.dealer + 2:],
        CAST(json_extract(h.deal, '$.hands') AS VARCHAR[][])[:h.dealer + 1])) AS VARCHAR)
    || '|'
    || CAST(to_json(coalesce(CAST(json_extract(h.deal, '$.talon') AS VARCHAR[]),
                             []::VARCHAR[])) AS VARCHAR))"""


def position_of(seat: int, dealer: int, table_size: int) -> int:
    """The position (1 … n, counted from the dealer in playing order; n is the dealer) of
    ``seat`` in a hand dealt by ``dealer``."""
    return (seat - dealer - 1) % table_size + 1


def deal_key(game: str, dealer: int, hands: Sequence[Sequence[str]], talon: Sequence[str]) -> str:
    """The deal key of a deal (module docstring): what :data:`DEAL_KEY_SQL` computes from a
    stored hand. ``hands`` by seat, in the stored (canonical) card order."""
    n = len(hands)
    by_position = [list(hands[(dealer + k) % n]) for k in range(1, n + 1)]
    text = f"{game}|{orjson.dumps(by_position).decode()}|{orjson.dumps(list(talon)).decode()}"
    return hashlib.sha256(text.encode()).hexdigest()


class NoSuchEvent(LookupError):
    """``event`` names no stored session (neither an event name nor a tournament id)."""


#: one row per compared seat of every hand whose deal was played at least twice (under the
#: same ruleset) in the scope: the line, the seat's position, player, role, score and its
#: match points. ``{scope}`` restricts the sessions.
_ENTRIES = """
WITH scoped AS (
    SELECT h.hand_key, h.hand_id, h.session_id, h.number, h.dealer, h.table_size,
           CAST(h.game AS VARCHAR) AS game, coalesce(h.ruleset, s.ruleset) AS ruleset,
           h.contract, h.declarer, h.won, s.tournament, s.event_name, s.round,
           s.table_name, s.date, {deal_key} AS deal_key
    FROM hands h JOIN sessions s USING (session_id)
    WHERE h.deal IS NOT NULL {scope}
),
boards AS (
    SELECT deal_key, ruleset FROM scoped GROUP BY ALL HAVING count(*) >= 2
),
seats AS (
    SELECT x.*, hs.seat, hs.player_id, coalesce(p.name, hs.player_id) AS name,
           CAST(hs.role AS VARCHAR) AS role,
           coalesce(hs.recomputed_total, hs.recorded_total) AS score,
           (CAST(hs.seat AS INTEGER) - x.dealer - 1 + x.table_size) % x.table_size + 1
               AS position
    FROM scoped x JOIN boards b USING (deal_key, ruleset)
    JOIN hand_scores hs ON hs.hand_key = x.hand_key
    LEFT JOIN players p ON p.player_id = hs.player_id
),
compared AS (
    SELECT * FROM seats WHERE role <> 'sitting_out' AND score IS NOT NULL
)
SELECT s.*,
       c.mp AS match_points, c.max_mp AS max_match_points
FROM seats s
LEFT JOIN (
    SELECT hand_key, seat,
           2 * (rank() OVER w - 1)
           + (count(*) OVER (PARTITION BY deal_key, ruleset, position, score) - 1) AS mp,
           2 * (count(*) OVER (PARTITION BY deal_key, ruleset, position) - 1) AS max_mp
    FROM compared
    WINDOW w AS (PARTITION BY deal_key, ruleset, position ORDER BY score)
) c USING (hand_key, seat)
ORDER BY deal_key, ruleset, hand_key, seat
"""


@dataclass(slots=True)
class _Tally:
    player_id: str
    name: str
    game: str
    hands: int = 0
    match_points: int = 0
    max_match_points: int = 0


def _scope(con: duckdb.DuckDBPyConnection, event: str | None) -> tuple[str, list[Any]]:
    if event is None:
        return "", []
    found = con.execute(
        "SELECT count(*) FROM sessions WHERE event_name = ? OR tournament = ?", [event, event]
    ).fetchall()[0][0]
    if not found:
        raise NoSuchEvent(event)
    return "AND (s.event_name = ? OR s.tournament = ?)", [event, event]


def _line_order(line: dict[str, Any]) -> tuple[Any, ...]:
    return (
        line["date"] or "",
        line["round"] if line["round"] is not None else -1,
        line["table"] or "",
        line["session_id"],
        line["hand_number"],
    )


def duplicate_report(con: duckdb.DuckDBPyConnection, event: str | None = None) -> dict[str, Any]:
    """The compared deals (deals played at two or more tables) of the store, or of one event (an
    event name or tournament id, as ``tarock stats --event``), with each table's line side
    by side, and the players' duplicate ranking (module docstring). The result is plain
    JSON data; its keys are the ``tarock duplicate --format json`` interface
    (docs/duplicate.md). Raises :class:`NoSuchEvent` for an event no session names."""
    scope, params = _scope(con, event)
    cur = con.execute(_ENTRIES.format(deal_key=DEAL_KEY_SQL, scope=scope), params)
    cols = [d[0] for d in cur.description]
    rows = [dict(zip(cols, r, strict=True)) for r in cur.fetchall()]
    lines: dict[int, dict[str, Any]] = {}
    board_of: dict[tuple[str, str], list[int]] = {}  # (deal key, ruleset) -> its hands
    shape: dict[tuple[str, str], tuple[str, int]] = {}  # -> (game, table size)
    tallies: dict[tuple[str, str], _Tally] = {}
    for r in rows:
        line = lines.get(r["hand_key"])
        if line is None:
            line = lines[r["hand_key"]] = {
                "hand_id": r["hand_id"],
                "session_id": r["session_id"],
                "tournament": r["tournament"],
                "event_name": r["event_name"],
                "date": r["date"].isoformat() if r["date"] is not None else None,
                "round": r["round"],
                "table": r["table_name"],
                "hand_number": r["number"],
                "contract": r["contract"],
                "declarer": None,
                "won": r["won"],
                "declarer_score": None,
                "seats": [],
            }
            key = (r["deal_key"], r["ruleset"])
            board_of.setdefault(key, []).append(r["hand_key"])
            shape[key] = (r["game"], r["table_size"])
        seat = {
            "position": r["position"],
            "seat": r["seat"],
            "player_id": r["player_id"],
            "name": r["name"],
            "role": r["role"],
            "score": r["score"],
            "match_points": r["match_points"],
            "max_match_points": r["max_match_points"],
        }
        line["seats"].append(seat)
        if r["declarer"] is not None and r["seat"] == r["declarer"]:
            line["declarer"] = {k: seat[k] for k in ("position", "player_id", "name")}
            line["declarer_score"] = r["score"]
        if r["match_points"] is not None:
            tally = tallies.setdefault(
                (r["game"], r["player_id"]), _Tally(r["player_id"], r["name"], r["game"])
            )
            tally.hands += 1
            tally.match_points += r["match_points"]
            tally.max_match_points += r["max_match_points"]
    deals = [_deal(key, *shape[key], [lines[k] for k in hands]) for key, hands in board_of.items()]
    deals.sort(key=lambda d: (_line_order(d["lines"][0]), d["deal_key"], d["ruleset"]))
    return {
        "event": event,
        "method": METHOD,
        "deals": [{"deal": i, **d} for i, d in enumerate(deals, 1)],
        "ranking": _ranking(tallies.values()),
    }


def _deal(
    key: tuple[str, str], game: str, size: int, lines: list[dict[str, Any]]
) -> dict[str, Any]:
    """One compared deal: its lines in table order, each position's best score, the
    best-scoring line."""
    lines.sort(key=_line_order)
    for line in lines:
        line["seats"].sort(key=lambda s: s["position"])
    positions = []
    for p in range(1, size + 1):
        held = [
            (s["score"], -i, line, s)
            for i, line in enumerate(lines)
            for s in line["seats"]
            if s["position"] == p and s["match_points"] is not None
        ]
        if not held:
            continue
        score, _, line, s = max(held, key=lambda x: (x[0], x[1]))
        positions.append(
            {
                "position": p,
                "best_score": score,
                "best_table": line["table"],
                "best_session_id": line["session_id"],
                "best_player_id": s["player_id"],
            }
        )
    best = max(
        (x for i, line in enumerate(lines) if (x := _line_value(i, line)) is not None),
        key=lambda x: (x[0], x[1]),
        default=None,
    )
    best_line = None
    if best is not None:
        score, _, line, s = best
        best_line = {
            "session_id": line["session_id"],
            "table": line["table"],
            "round": line["round"],
            "hand_number": line["hand_number"],
            "contract": line["contract"],
            "declarer": line["declarer"],
            "won": line["won"],
            "position": s["position"],
            "player_id": s["player_id"],
            "name": s["name"],
            "score": score,
        }
    return {
        "deal_key": key[0],
        "game": game,
        "ruleset": key[1],
        "table_size": size,
        "tables": len(lines),
        "lines": lines,
        "positions": positions,
        "best_line": best_line,
    }


def _line_value(
    i: int, line: dict[str, Any]
) -> tuple[int, int, dict[str, Any], dict[str, Any]] | None:
    """How a line counts for the best-scoring line: its declarer's score and seat; a line
    without a declarer (klop) by its top compared score (the first such seat)."""
    seats = [s for s in line["seats"] if s["match_points"] is not None]
    decl = line["declarer"]
    if decl is not None:
        seats = [s for s in seats if s["position"] == decl["position"]]
    if not seats:
        return None
    top = max(seats, key=lambda s: (s["score"], -s["position"]))
    return top["score"], -i, line, top


def _ranking(tallies: Any) -> list[dict[str, Any]]:
    """The players by percentage (exact), then match points, then id; ranked 1, 2, … within
    each game (a tie keeps the order these keys give)."""
    out: list[dict[str, Any]] = []
    ordered = sorted(
        (t for t in tallies if t.max_match_points > 0),
        key=lambda t: (
            t.game,
            -Fraction(t.match_points, t.max_match_points),
            -t.match_points,
            t.player_id,
        ),
    )
    rank = 0
    game = None
    for t in ordered:
        rank = rank + 1 if t.game == game else 1
        game = t.game
        out.append(
            {
                "game": t.game,
                "rank": rank,
                "player_id": t.player_id,
                "name": t.name,
                "hands": t.hands,
                "match_points": t.match_points,
                "max_match_points": t.max_match_points,
                "percentage": round(100 * t.match_points / t.max_match_points, 2),
            }
        )
    return out
