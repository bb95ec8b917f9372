"""The printable standings and the cross-table with names masked: players who share a rank
are listed by the names shown, never in the order of their ids or hidden names."""

from __future__ import annotations

import re
from typing import Any

from tarock_logs.report.standings import cross_table, ranking_order, render_standings

#: the ids p01 < p02 < p03 follow the real names (Ana < Bor < Cene), as a tournament's
#: start list often does; Ana and Bor share rank 1
NAMES = {"p01": "Ana Kos", "p02": "Bor Novak", "p03": "Cene Zupan"}
SHOWN = {"Ana Kos": "Turdus 912", "Bor Novak": "Corvus 207", "Cene Zupan": "Aquila 101"}


def _tournament() -> dict[str, Any]:
    def line(pid: str, rank: int, total: float) -> dict[str, Any]:
        return {
            "player": pid, "name": NAMES[pid], "rank": rank, "total": total,
            "placement_points": total, "penalties": 0.0, "deviation": 0.0,
            "rounds": {"1": {"session": "s1", "table": "A", "score": 10,
                             "placement_points": total}},
        }  # fmt: skip

    return {
        "tournament": "cup", "game": "slovenian", "ruleset": "si-tournament-2021",
        "rounds": [1],
        "standings": [line("p01", 1, 4.0), line("p02", 1, 4.0), line("p03", 3, 1.0)],
    }  # fmt: skip


def test_without_masking_the_ranking_keeps_its_order() -> None:
    t = _tournament()
    assert [s["player"] for s in ranking_order(t["standings"])] == ["p01", "p02", "p03"]
    assert [r["player"] for r in cross_table(t)] == ["p01", "p02", "p03"]


def test_masked_players_sharing_a_rank_come_in_the_order_of_their_pseudonyms() -> None:
    t = _tournament()
    rename = SHOWN.__getitem__
    # rank 1: Corvus 207 (Bor) before Turdus 912 (Ana); rank 3 stays last though its
    # pseudonym sorts first
    assert [s["player"] for s in ranking_order(t["standings"], rename)] == ["p02", "p01", "p03"]
    cross = cross_table(t, rename)
    assert [r["player"] for r in cross] == ["p02", "p01", "p03"]
    # the opponents too, in that order
    assert cross[2]["opponents"] == ["Bor Novak", "Ana Kos"]
    html = render_standings(t, rename=rename)
    shown = re.findall(r"[A-Z][a-z]+ \d{3}", html)
    assert shown[:3] == ["Corvus 207", "Turdus 912", "Aquila 101"], shown
    assert not any(n in html for n in NAMES.values())
