"""Tournament arithmetic (spec section 11): placement points per table and the final ranking.

Pure functions. A round's **placement points** rank the players of one table by round score
(5, 4, 3, 2 at a table of 4; 5, 4, 2 at a table of 3; 5, 4, 3, 2 and 2 — or 1 when every table
of the tournament has 5 players — at a table of 5). Ties share the average of the tied places'
points (``tie="average"``) or each gets the best tied place's points (``tie="best_shared"``).
The **final ranking** orders by total placement points (minus −25 tournament-point penalties),
then by the sum of (round score − table average); remaining ties share a rank.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

PLACE_POINTS: dict[tuple[int, bool], tuple[int, ...]] = {
    (3, False): (5, 4, 2),
    (3, True): (5, 4, 2),
    (4, False): (5, 4, 3, 2),
    (4, True): (5, 4, 3, 2),
    (5, False): (5, 4, 3, 2, 2),
    (5, True): (5, 4, 3, 2, 1),
}


def placement_points(
    scores: Sequence[float],
    table_size: int | None = None,
    all_tables_of_five: bool = False,
    tie: str = "average",
) -> list[float]:
    """Placement points of each player of one table from the round scores (spec 11.2).

    ``scores`` is in seat order; the result is in the same order. ``tie`` is ``average`` or
    ``best_shared``.
    """
    n = table_size if table_size is not None else len(scores)
    if n != len(scores):
        raise ValueError(f"{len(scores)} scores for a table of {n}")
    if (n, all_tables_of_five) not in PLACE_POINTS:
        raise ValueError(f"no placement points for a table of {n}")
    if tie not in ("average", "best_shared"):
        raise ValueError(f"unknown tie rule {tie!r}")
    pts = PLACE_POINTS[(n, all_tables_of_five)]
    order = sorted(range(n), key=lambda i: -scores[i])
    out = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        group = pts[i : j + 1]
        share = sum(group) / len(group) if tie == "average" else float(group[0])
        for k in range(i, j + 1):
            out[order[k]] = share
        i = j + 1
    return out


#: the rulebook's table compositions when the number of players is not a multiple of 4 (3.1)
COMPOSITIONS: dict[int, tuple[int, ...]] = {9: (4, 5), 10: (5, 5), 11: (3, 4, 4)}


def composition_warnings(table_sizes: Sequence[int]) -> list[str]:
    """Warnings about a round's tables (spec 3.1, A35): sizes other than 3, 4, 5, and for 9,
    10 or 11 players a composition other than the rulebook's. Any recorded composition is
    accepted; these are only warnings."""
    out = [
        f"a table of {n} is not a Slovenian tournament table"
        for n in table_sizes
        if n not in (3, 4, 5)
    ]
    players = sum(table_sizes)
    want = COMPOSITIONS.get(players)
    if want is not None and tuple(sorted(table_sizes)) != want:
        out.append(
            f"{players} players should sit at tables of {' + '.join(map(str, want))}, "
            f"not {' + '.join(map(str, sorted(table_sizes)))}"
        )
    return out


def table_deviations(scores: Sequence[float]) -> list[float]:
    """Each player's round score minus the average of his table (spec 11.3, secondary key)."""
    avg = sum(scores) / len(scores)
    return [s - avg for s in scores]


@dataclass(frozen=True, slots=True)
class TableRound:
    """One table in one round: players (ids) in seat order and their round scores."""

    players: Sequence[str]
    scores: Sequence[float]
    round: int = 1
    all_tables_of_five: bool = False


@dataclass(frozen=True, slots=True)
class RankingRow:
    """One line of the final ranking."""

    rank: int  # shared by players tied on both keys
    player: str
    placement_points: float  # after tournament-point penalties
    deviation: float  # Σ (round score − table average)
    penalty: float = 0.0  # tournament points deducted (−25 each)
    rounds: tuple[float, ...] = field(default_factory=tuple)  # placement points per round


def final_ranking(
    rounds: Iterable[TableRound],
    penalties: Mapping[str, float] | None = None,
    tie: str = "average",
) -> list[RankingRow]:
    """The final tournament ranking (spec 11.3) from every table of every round.

    ``penalties`` maps a player to the tournament points deducted (e.g. ``{"Y": 25}``).
    """
    points: dict[str, list[float]] = {}
    dev: dict[str, float] = {}
    for t in rounds:
        pp = placement_points(list(t.scores), len(t.scores), t.all_tables_of_five, tie)
        dv = table_deviations(list(t.scores))
        for p, a, b in zip(t.players, pp, dv, strict=True):
            points.setdefault(p, []).append(a)
            dev[p] = dev.get(p, 0.0) + b
    pen = dict(penalties or {})
    rows = []
    for p in points:
        total = sum(points[p]) - abs(pen.get(p, 0.0))
        rows.append((total, dev[p], p))
    rows.sort(key=lambda x: (-x[0], -x[1], x[2]))
    out: list[RankingRow] = []
    for i, (total, d, p) in enumerate(rows):
        if out and out[-1].placement_points == total and abs(out[-1].deviation - d) < 1e-9:
            rank = out[-1].rank
        else:
            rank = i + 1
        out.append(RankingRow(rank, p, total, d, abs(pen.get(p, 0.0)), tuple(points[p])))
    return out
