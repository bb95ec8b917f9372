"""Tournaments: the sessions sharing ``event.tournament``, their rounds and the final ranking.

A tournament is played in rounds (``event.round``) at tables (``event.table``); each table is one
session (:class:`~tarock_logs.verdict.audit.SessionAudit`). Per round every table's round score
(the recomputed session total) earns placement points by the engine's arithmetic, with the
table-of-five column only when every table of that round has five seats; the standings add up
each player's placement points and tournament-point penalties, and the **engine ranks them**
(:meth:`~tarock_logs.rules.base.GameEngine.final_ranking`, from ``(player, total, deviation)``
rows; an engine that declares no ranking of its own gets the generic one: total, then the
deviation sum, equal on both sharing the rank). The deviation of a player is the sum over
rounds of (round score − the table's average round score), the Slovenian tie-break.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.rules.base import rank_by_total_and_deviation
from tarock_logs.verdict.audit import SessionAudit
from tarock_logs.verdict.findings import Finding, Verification, standing_finding, worst_state

__all__ = ["Standing", "TournamentAudit", "audit_tournaments"]


@dataclass(slots=True)
class Standing:
    """One player's line in the final ranking of a tournament.

    ``deviation`` is the sum over rounds of (round score − average round score at the table),
    the Slovenian tie-break; ``total`` = placement points + tournament-point penalties.
    ``rank`` is shared by players the ranking puts level.
    """

    player: str
    rank: int
    total: float
    placement_points: float
    penalties: float
    deviation: float
    rounds: dict[int, dict[str, Any]]
    #: the player's name as the sessions give it (the id when none does)
    name: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "name": self.name or self.player,
            "rank": self.rank,
            "total": self.total,
            "placement_points": self.placement_points,
            "penalties": self.penalties,
            "deviation": self.deviation,
            "rounds": {str(k): v for k, v in sorted(self.rounds.items())},
        }


@dataclass(slots=True)
class TournamentAudit:
    """A tournament: the sessions sharing ``event.tournament``, its rounds and the ranking."""

    tournament: str
    game: str
    ruleset: str | None
    sessions: list[str]
    rounds: list[int]
    standings: list[Standing]
    discrepancies: list[dict[str, Any]] = field(default_factory=list)
    unverified: list[str] = field(default_factory=list)
    #: tournament-level findings (a player the recorded placement points rank differently)
    findings: list[Finding] = field(default_factory=list)
    #: the verification state of each of its sessions, in order
    session_states: list[Verification] = field(default_factory=list)

    @property
    def verification(self) -> Verification:
        """The state of its sessions taken together: ``verified`` when every session is,
        ``unverified`` when none could be checked, else ``partial``. (A tournament records
        nothing of its own to check: its notes in ``unverified`` are caveats on the standings
        the audit derives, such as sessions without a round number.)"""
        return worst_state(self.session_states)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            "game": self.game,
            "ruleset": self.ruleset,
            "sessions": list(self.sessions),
            "rounds": list(self.rounds),
            "standings": [s.to_dict() for s in self.standings],
            "discrepancies": list(self.discrepancies),
            "unverified": list(self.unverified),
            "record": "tournament",
            "verification": self.verification,
            "findings": [f.to_dict() for f in self.findings],
        }


def audit_tournaments(sessions: Sequence[SessionAudit]) -> list[TournamentAudit]:
    """Group session audits by ``event.tournament`` and compute the standings.

    Per round, placement points are recomputed for every table with the right table-of-5
    column (all tables of the round of 5 or not), which updates each session's
    ``placement_points`` and its ``placement_points`` discrepancies in place. The ranking is
    the engine's (module docstring).
    """
    groups: dict[str, list[SessionAudit]] = defaultdict(list)
    for sa in sessions:
        if sa.tournament:
            groups[sa.tournament].append(sa)
    return [_audit_tournament(tid, groups[tid]) for tid in sorted(groups)]


def _audit_tournament(tid: str, group: Sequence[SessionAudit]) -> TournamentAudit:
    ta = TournamentAudit(
        tournament=tid,
        game=group[0].game,
        ruleset=group[0].ruleset,
        sessions=[s.session for s in group],
        rounds=sorted({s.round for s in group if s.round is not None}),
        standings=[],
    )
    _score_rounds(ta, group)
    if len({s.game for s in group}) > 1:
        ta.unverified.append("sessions of different games share this tournament id")
    points: dict[str, float] = defaultdict(float)
    penalties: dict[str, float] = defaultdict(float)
    deviation: dict[str, float] = defaultdict(float)
    rounds: dict[str, dict[int, dict[str, Any]]] = defaultdict(dict)
    names: dict[str, str] = {}
    complete = True
    for k, sa in enumerate(group):
        scores = sa.recomputed_totals
        pts = sa.placement_points
        if scores is None or pts is None:
            complete = False
            ta.unverified.append(
                f"session {sa.session}: round score or placement points not recomputed"
            )
        avg = sum(scores) / len(scores) if scores else 0.0
        rnd_key = sa.round if sa.round is not None else -(k + 1)
        for seat, pid in enumerate(sa.players):
            names.setdefault(pid, sa.names[seat] if seat < len(sa.names) else pid)
            if pts is not None:
                points[pid] += pts[seat]
            if seat < len(sa.tournament_penalties):
                penalties[pid] += sa.tournament_penalties[seat]
            if scores is not None:
                deviation[pid] += scores[seat] - avg
            rounds[pid][rnd_key] = _round_line(sa, seat)
    for sa in group:
        for d in sa.discrepancies:
            if d.item == "placement_points":
                player = sa.players[d.seat] if d.seat is not None else None
                ta.discrepancies.append(
                    {"session": sa.session, "round": sa.round, "player": player, **d.to_dict()}
                )
    totals = {p: points.get(p, 0.0) + penalties.get(p, 0.0) for p in sorted(rounds)}
    if not complete:
        ta.unverified.append("the ranking is provisional: some rounds could not be scored")
    ta.standings = [
        Standing(
            player=p,
            rank=r,
            total=totals[p],
            placement_points=points.get(p, 0.0),
            penalties=penalties.get(p, 0.0),
            deviation=round(deviation.get(p, 0.0), 6),
            rounds=rounds[p],
            name=names.get(p, p),
        )
        for p, r in _ranking(group, totals, deviation)
    ]
    ta.session_states = [sa.verification for sa in group]
    ta.findings = _standing_findings(ta, group, penalties, deviation)
    return ta


def _standing_findings(
    ta: TournamentAudit,
    group: Sequence[SessionAudit],
    penalties: Mapping[str, float],
    deviation: Mapping[str, float],
) -> list[Finding]:
    """Players whom the recorded placement points (where recorded; the recomputed ones
    elsewhere) would rank differently from the recomputed ones."""
    differing = [sa for sa in group if any(d.item == "placement_points" for d in sa.discrepancies)]
    if not differing:
        return []
    recorded: dict[str, float] = defaultdict(float)
    names = {s.player: s.name for s in ta.standings}
    for sa in group:
        pts = sa.recorded_placement_points or sa.placement_points or []
        for seat, pid in enumerate(sa.players):
            if seat < len(pts):
                recorded[pid] += pts[seat]
    rows = {p: recorded.get(p, 0.0) + penalties.get(p, 0.0) for p in sorted(recorded)}
    was = dict(_ranking(group, rows, deviation))
    return [
        standing_finding(
            s.player, names.get(s.player, s.player), s.rank, was[s.player],
            tournament=ta.tournament, ruleset=ta.ruleset,
            sessions=[sa.session for sa in differing], game=group[0].game if group else None,
        )
        for s in ta.standings
        if s.player in was and was[s.player] != s.rank
    ]  # fmt: skip


def _score_rounds(ta: TournamentAudit, group: Sequence[SessionAudit]) -> None:
    """Placement points of every table, round by round, with the round's table-of-5 column."""
    by_round: dict[int | None, list[SessionAudit]] = defaultdict(list)
    for sa in group:
        by_round[sa.round].append(sa)
    for rnd, tables in by_round.items():
        five = all(len(t.players) == 5 for t in tables)
        for t in tables:
            t.score_placement(five)
        if rnd is None and len(tables) > 1:
            ta.unverified.append(
                f"{len(tables)} sessions without event.round: each counted as its own round"
            )


def _round_line(sa: SessionAudit, seat: int) -> dict[str, Any]:
    """One player's round: session, table, round score and placement points."""
    scores = sa.recomputed_totals
    pts = sa.placement_points
    rec = sa.recorded_placement_points
    return {
        "session": sa.session,
        "table": sa.table,
        "score": scores[seat] if scores is not None else None,
        "placement_points": pts[seat] if pts is not None else None,
        "recorded_placement_points": rec[seat] if rec is not None and seat < len(rec) else None,
    }


def _ranking(
    group: Sequence[SessionAudit],
    totals: Mapping[str, float],
    deviation: Mapping[str, float],
) -> list[tuple[str, int]]:
    """``(player, rank)`` best first: the engine's final ranking of ``(player, total,
    deviation)`` rows, or the generic one for a game without an engine (or one that declares
    no ranking)."""
    rows = [(p, totals[p], deviation.get(p, 0.0)) for p in totals]
    eng = group[0].engine
    rs = group[0].ruleset_used
    if eng is not None and rs is not None:
        return [(str(p), int(r)) for p, r in eng.final_ranking(rs, rows)]
    return rank_by_total_and_deviation(rows)
