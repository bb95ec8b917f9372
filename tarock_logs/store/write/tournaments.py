"""Tournament-level verdicts in the store: recomputed for whole tournaments after a load.

A session's placement points depend on every table of its round (the table-of-five column is
used only when all tables of the round have five seats) and the standings on every round, so
they cannot always be settled file by file as the ingest audits sessions. After the files are
loaded, :func:`refresh` takes every tournament whose sessions changed (the set of its sessions
and the sha256 of their files, kept in ``tournaments.sessions_key``):

* when the session-by-session verdicts may be wrong or incomplete for it (a round mixes a
  table of five with other tables, or a session's placement points differ from the recorded
  ones, which may move the standings), its sessions are rebuilt from the store
  (:func:`tarock_logs.store.read.rebuild.load_session`) and audited together
  (:func:`tarock_logs.verdict.tournament.audit_tournaments`), and their ``session_findings``,
  ``sessions.verification``, the recomputed placement points of ``session_scores``, the
  tournament's ``tournament_findings`` and its ``tournaments`` row are replaced;
* otherwise (the usual case) the session verdicts stand and only its ``tournaments`` row is
  written, its state being that of its sessions (its caveats are left to ``tarock audit``).

Tournaments whose sessions are all gone lose their rows.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import duckdb
import orjson

from tarock_logs.store.read.rebuild import load_session
from tarock_logs.verdict.audit import SessionAudit, audit_session
from tarock_logs.verdict.findings import Finding, worst_state
from tarock_logs.verdict.tournament import audit_tournaments

__all__ = ["refresh"]

_KEYS = """
SELECT s.tournament,
       string_agg(s.session_id || ':' || coalesce(r.sha256, ''), ',' ORDER BY s.session_id)
FROM sessions s LEFT JOIN raw_logs r USING (file)
WHERE s.tournament IS NOT NULL
GROUP BY s.tournament
"""


def refresh(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Recompute the tournaments whose sessions changed since the last refresh (module
    docstring), in the open transaction; returns their ids."""
    current = dict(con.execute(_KEYS).fetchall())
    stored = dict(con.execute("SELECT tournament, sessions_key FROM tournaments").fetchall())
    gone = [t for t in stored if t not in current]
    for t in gone:
        con.execute("DELETE FROM tournament_findings WHERE tournament = ?", [t])
        con.execute("DELETE FROM tournaments WHERE tournament = ?", [t])
    changed = sorted(t for t, key in current.items() if stored.get(t) != key)
    together = {r[0] for r in con.execute(_AUDIT_TOGETHER).fetchall()}
    for t in changed:
        if t in together:
            _refresh_one(con, t, current[t])
        else:
            _row_only(con, t, current[t])
    return changed


#: tournaments whose sessions must be audited together: a round that mixes a table of five
#: with other tables (its placement column), or recorded placement points that differ
_AUDIT_TOGETHER = """
SELECT tournament FROM sessions WHERE tournament IS NOT NULL
GROUP BY tournament, round
HAVING round IS NOT NULL AND bool_or(table_size = 5) AND bool_or(table_size <> 5)
UNION
SELECT s.tournament FROM session_findings f JOIN sessions s USING (session_id)
WHERE s.tournament IS NOT NULL AND f.item = 'placement_points'
"""


def _row_only(con: duckdb.DuckDBPyConnection, tournament: str, key: str) -> None:
    """The tournament's row from its sessions as the ingest audited them."""
    states, games, rulesets, n = con.execute(
        "SELECT list(coalesce(verification, 'unverified')), list(DISTINCT CAST(game AS "
        "VARCHAR)), list(DISTINCT ruleset), count(*) FROM sessions WHERE tournament = ?",
        [tournament],
    ).fetchall()[0]
    con.execute("DELETE FROM tournament_findings WHERE tournament = ?", [tournament])
    con.execute("DELETE FROM tournaments WHERE tournament = ?", [tournament])
    con.execute(
        "INSERT INTO tournaments VALUES (?, ?, ?, ?, ?, ?, ?)",
        [tournament, min(games), min(rulesets), n, worst_state(states), None, key],
    )


def _refresh_one(con: duckdb.DuckDBPyConnection, tournament: str, key: str) -> None:
    rows = con.execute(
        "SELECT session_id, file FROM sessions WHERE tournament = ? ORDER BY session_id",
        [tournament],
    ).fetchall()
    audits: list[SessionAudit] = []
    files: dict[str, str] = {}
    for sid, file in rows:
        loaded = load_session(con, sid, prefer_source=False)
        if loaded is None:
            continue
        audits.append(audit_session(loaded[0], file=file))
        files[sid] = file
    found = [t for t in audit_tournaments(audits) if t.tournament == tournament]
    sids = [sa.session for sa in audits]
    con.execute(
        "DELETE FROM session_findings WHERE session_id IN (SELECT unnest(?::VARCHAR[]))", [sids]
    )
    for sa in audits:
        con.execute(
            "UPDATE sessions SET verification = ? WHERE session_id = ?",
            [sa.verification, sa.session],
        )
        for seat, pts in enumerate(sa.placement_points or []):
            con.execute(
                "UPDATE session_scores SET placement_points_recomputed = ? "
                "WHERE session_id = ? AND seat = ?",
                [pts, sa.session, seat],
            )
        _insert_session_findings(con, sa.session, files[sa.session], sa.findings)
    con.execute("DELETE FROM tournament_findings WHERE tournament = ?", [tournament])
    con.execute("DELETE FROM tournaments WHERE tournament = ?", [tournament])
    if not found:
        return
    ta = found[0]
    for f in ta.findings:
        con.execute(
            "INSERT INTO tournament_findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [tournament, f.code, f.severity, f.message, _ids(f), _players(f), f.rule,
             f.consequence, f.item, f.recorded, f.recomputed],
        )  # fmt: skip
    con.execute(
        "INSERT INTO tournaments VALUES (?, ?, ?, ?, ?, ?, ?)",
        [tournament, ta.game, ta.ruleset, len(ta.sessions), ta.verification,
         list(ta.unverified), key],
    )  # fmt: skip


def _ids(f: Finding) -> list[str]:
    return [p.id for p in f.players]


def _players(f: Finding) -> str:
    return orjson.dumps([p.to_dict() for p in f.players]).decode()


def _insert_session_findings(
    con: duckdb.DuckDBPyConnection, session_id: str, file: str, findings: Iterable[Finding]
) -> None:
    for f in findings:
        seats: list[Any] = [p.seat for p in f.players if p.seat is not None]
        con.execute(
            "INSERT INTO session_findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [session_id, file, f.tournament, f.code, f.severity, f.message, _ids(f), seats,
             _players(f), f.rule, f.consequence, f.item, f.recorded, f.recomputed],
        )  # fmt: skip
