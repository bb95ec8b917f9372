"""Tournament audits: rounds, placement points per round and the final ranking, which is the
engine's (verdict/tournament.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tarock_logs.log.reader import read_paths
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Ruleset
from tarock_logs.verdict.audit import audit_session
from tarock_logs.verdict.tournament import audit_tournaments
from tests.support.d1_helpers import ROOT, b1_doc, session


def _table(sid: str, players: list[str], rnd: int) -> dict[str, Any]:
    """A session whose only hand is B.1 (totals 135 135 0 −20) at another table/round."""
    doc = b1_doc()
    doc["id"] = sid
    doc["players"] = [{"id": p} for p in players]
    doc["event"] = {"tournament": "cup", "round": rnd, "table": sid}
    return doc


def test_tournament_standings_rank_by_points_then_deviation() -> None:
    r1 = audit_session(session(_table("r1", ["a", "b", "c", "d"], 1)))
    r2 = audit_session(session(_table("r2", ["b", "c", "d", "a"], 2)))
    (t,) = audit_tournaments([r1, r2])
    assert t.tournament == "cup" and t.rounds == [1, 2]
    pts = {s.player: s.placement_points for s in t.standings}
    # round 1: a 4.5, b 4.5, c 3, d 2; round 2: b 4.5, c 4.5, d 3, a 2
    assert pts == {"a": 6.5, "b": 9.0, "c": 7.5, "d": 5.0}
    assert [(s.player, s.rank) for s in t.standings] == [("b", 1), ("c", 2), ("a", 3), ("d", 4)]
    dev = {s.player: s.deviation for s in t.standings}
    # table average 62.5 each round
    assert dev == {"a": 72.5 - 82.5, "b": 145.0, "c": -62.5 + 72.5, "d": -82.5 - 62.5}


def test_players_level_on_points_and_deviation_share_the_rank_and_the_next_rank_skips() -> None:
    """One round of B.1: seats 0 and 1 both score 135 (4.5 placement points each, the same
    deviation), so they share 1st place and the next player is 3rd (spec 11.3)."""
    (t,) = audit_tournaments([audit_session(session(_table("r1", ["a", "b", "c", "d"], 1)))])
    assert [(s.player, s.rank) for s in t.standings] == [("a", 1), ("b", 1), ("c", 3), ("d", 4)]


def test_the_audit_ranks_with_the_engines_final_ranking() -> None:
    """The standings come from the engine's ranking hook, not from an arithmetic of the audit's
    own: an engine that ranks by name puts "a" first although "b" has the most points."""
    base = type(get_engine("slovenian"))
    calls: list[list[tuple[str, float, float]]] = []

    class ByName(base):  # type: ignore[misc, valid-type]
        def final_ranking(
            self, ruleset: Ruleset, rows: Sequence[tuple[str, float, float]]
        ) -> list[tuple[str, int]]:
            calls.append(list(rows))
            return [(p, i) for i, (p, _, _) in enumerate(sorted(rows), start=1)]

    eng = ByName()
    r1 = audit_session(session(_table("r1", ["a", "b", "c", "d"], 1)), engine=eng)
    r2 = audit_session(session(_table("r2", ["b", "c", "d", "a"], 2)), engine=eng)
    (t,) = audit_tournaments([r1, r2])
    assert [(s.player, s.rank) for s in t.standings] == [("a", 1), ("b", 2), ("c", 3), ("d", 4)]
    (rows,) = calls
    assert {p: total for p, total, _ in rows} == {"a": 6.5, "b": 9.0, "c": 7.5, "d": 5.0}
    assert {s.player: s.total for s in t.standings} == {"a": 6.5, "b": 9.0, "c": 7.5, "d": 5.0}


def test_standings_agree_with_the_slovenian_ranking_arithmetic() -> None:
    """The sample tournament (3 rounds) ranked by audit_tournaments equals the engine
    module's own final_ranking (spec 11.3) over the recomputed round scores."""
    from tarock_logs.rules.slovenian.tournament import TableRound, final_ranking

    folder = ROOT / "sample_logs" / "tournament"
    audits = [audit_session(r.session) for r in read_paths([folder]) if r.session is not None]
    (t,) = audit_tournaments(audits)
    assert len(t.rounds) == 3 and t.unverified == []
    five = {rnd: all(len(a.players) == 5 for a in audits if a.round == rnd) for rnd in t.rounds}
    tables = [
        TableRound(a.players, a.recomputed_totals, a.round or 1, five[a.round])
        for a in audits
        if a.recomputed_totals is not None
    ]
    want = [(r.player, r.rank, r.placement_points) for r in final_ranking(tables)]
    assert [(s.player, s.rank, s.total) for s in t.standings] == want
    for a in audits:  # the simulator recorded the placement points the engine computes
        assert not [d for d in a.discrepancies if d.item == "placement_points"]
