"""Info-severity findings are stored (migration 0007): Zwanzigerrufen's auction writes them
(an overcall voids the announcements so far, C7; an Absolut or Valat dagegen implies a Kontra,
N5), and schema version 1's ``severity_t`` had only error and warning."""

from __future__ import annotations

from pathlib import Path

import duckdb

from tarock_logs.store.schema import latest_version, migrate
from tarock_logs.store.write.ingest import ingest
from tarock_logs.tools.simulate import dumps_session, simulate_hands
from tests.support.store_fixtures import store_at_version


def test_simulated_zwanzigerrufen_with_info_findings_is_stored(tmp_path: Path) -> None:
    sessions = simulate_hands(400, 3, game="zwanzigerrufen", hands_per_session=8)
    (tmp_path / "zr.jsonl").write_bytes(b"".join(dumps_session(s) for s in sessions))
    db = tmp_path / "zr.duckdb"
    summary = ingest([str(tmp_path / "zr.jsonl")], db=str(db), jobs=1)
    assert summary.hands_stored == 400 and summary.hands_rejected == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        rows = con.execute(
            "SELECT code, count(*) FROM violations WHERE severity = 'info' GROUP BY 1"
        ).fetchall()
    finally:
        con.close()
    codes = dict(rows)
    assert codes and set(codes) <= {"announce.voided_by_overcall", "kontra.implied"}, codes


def test_a_version_6_store_keeps_its_violations_when_migrated(tmp_path: Path) -> None:
    con = duckdb.connect(str(tmp_path / "v6.duckdb"))
    try:
        store_at_version(con, 6)
        con.execute(
            "INSERT INTO violations (hand_id, code, severity) VALUES"
            " ('h1', 'play.revoke', 'error'), ('h2', 'announce.side_missing', 'warning')"
        )
        assert migrate(con) == list(range(7, latest_version() + 1))
        con.execute(
            "INSERT INTO violations (hand_id, code, severity)"
            " VALUES ('h3', 'kontra.implied', 'info')"
        )
        got = con.execute("SELECT hand_id, severity::VARCHAR FROM violations ORDER BY 1").fetchall()
    finally:
        con.close()
    assert got == [("h1", "error"), ("h2", "warning"), ("h3", "info")]
