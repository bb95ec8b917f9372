"""The actions as two narrow tables (migration 0008): ``action_rows`` for every action,
``action_details`` for the fields beyond seat, type and card, and the view ``actions`` that
gives back the wide table of schema versions 1-7, column for column."""

from __future__ import annotations

from pathlib import Path

import duckdb

from tarock_logs.store.schema import latest_version, migrate
from tarock_logs.store.write.ingest import ingest
from tests.support.store_fixtures import store_at_version

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"


def _rows(con: duckdb.DuckDBPyConnection, sql: str) -> list[tuple]:
    return con.execute(sql).fetchall()


def test_a_version_7_store_keeps_every_action_field_when_migrated(tmp_path: Path) -> None:
    """A store of version 7 (the wide ``actions`` table) holding every sample's actions reads
    the same rows through the view after the migration, and its two tables equal those a
    fresh ingest writes."""
    fresh = tmp_path / "fresh.duckdb"
    ingest([str(SAMPLES)], db=str(fresh), jobs=1, exclude=["*malformed*"])
    old = tmp_path / "v7.duckdb"
    con = duckdb.connect(str(old))
    try:
        store_at_version(con, 7)
        con.execute(f"ATTACH '{fresh}' AS f (READ_ONLY)")
        # (the columns of version 7: the step timeline's of version 9 left out)
        con.execute("INSERT INTO hands SELECT * EXCLUDE (timeline, card_points) FROM f.hands")
        con.execute("INSERT INTO actions SELECT * FROM f.actions")  # the view, as version 7 held it
        wide = _rows(con, "SELECT * FROM actions ORDER BY hand_key, idx")
        assert len(wide) > 10_000
        kinds = {r[3] for r in wide}
        assert {"play", "bid", "call", "talon", "discard", "announce", "kontra"} <= kinds
        assert migrate(con) == list(range(8, latest_version() + 1))
        assert _rows(con, "SELECT * FROM actions ORDER BY hand_key, idx") == wide
        for table, but in (("action_rows", " EXCLUDE (to_move, phase)"), ("action_details", "")):
            assert _rows(con, f"SELECT *{but} FROM {table} ORDER BY hand_key, idx") == _rows(
                con, f"SELECT *{but} FROM f.{table} ORDER BY hand_key, idx"
            ), table
        # details only where an action has a field beyond seat, type and card
        n_plain = _rows(
            con,
            "SELECT count(*) FROM actions WHERE cards IS NULL AND shown IS NULL AND contract IS "
            "NULL AND talon_group IS NULL AND bonus IS NULL AND side IS NULL AND target IS NULL "
            "AND level IS NULL AND claim IS NULL AND meld IS NULL AND raises IS NULL AND params "
            "IS NULL AND note IS NULL",
        )[0][0]
        n_details = _rows(con, "SELECT count(*) FROM action_details")[0][0]
        assert n_plain > n_details > 0 and n_plain + n_details == len(wide)
    finally:
        con.close()


def test_the_view_gives_every_stored_action_once_with_its_hand_id(tmp_path: Path) -> None:
    db = tmp_path / "s.duckdb"
    ingest([str(SAMPLES / "tournament")], db=str(db), jobs=1)
    con = duckdb.connect(str(db), read_only=True)
    try:
        n_actions, n_rows, n_keys = _rows(
            con,
            "SELECT (SELECT count(*) FROM actions), (SELECT count(*) FROM action_rows), "
            "(SELECT count(DISTINCT (hand_id, idx)) FROM actions)",
        )[0]
        assert n_actions == n_rows == n_keys > 0
        assert _rows(con, "SELECT sum(n_actions) FROM hands")[0][0] == n_actions
        orphans = _rows(
            con,
            "SELECT count(*) FROM action_details d ANTI JOIN action_rows r USING (hand_key, idx)",
        )[0][0]
        assert orphans == 0
    finally:
        con.close()
