"""``tarock ingest --analyse``: per-card analysis in the store, and points lost per player."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.store.analysis import points_lost

DISPUTED = Path(__file__).resolve().parents[2] / "sample_logs" / "disputed"


def test_ingest_analyse_stores_every_analysed_card_and_points_lost(tmp_path: Path) -> None:
    db = tmp_path / "a.duckdb"
    args = ["ingest", str(DISPUTED), "--db", str(db), "--analyse", "--analyse-tricks", "1",
            "--format", "json"]  # fmt: skip
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["analysis"]["label"] == "all cards visible"
    assert doc["analysis"]["hands"] == doc["hands_stored"] == 42
    con = duckdb.connect(str(db), read_only=True)
    try:
        sql = ("SELECT count(*), count(DISTINCT hand_id), min(tricks_left), "
               "bool_and(loss >= 0 OR NOT legal) FROM card_analysis")  # fmt: skip
        rows = con.execute(sql).fetchall()
        n, hands, left, nonneg = rows[0]
        # the last trick of 42 hands (4 cards each, some at tables of 5), and the illegal card
        assert hands == 42 and left == 1 and nonneg and n == 42 * 4 + 1
        bad = con.execute("SELECT card, legal, value, best_value FROM card_analysis "
                          "WHERE NOT legal").fetchall()  # fmt: skip
        assert bad == [("H4", False, 48, 48)]
        per = points_lost(con)
        assert per["hands"].min() >= 1 and per["cards"].sum() == n - 1
        assert per["points_lost"].sum() == con.execute(
            "SELECT sum(loss) FROM card_analysis WHERE legal").fetchall()[0][0]  # fmt: skip
        # the Players page's filters: one game (never mixed), one player
        assert points_lost(con, ("slovenian",))["cards"].sum() == per["cards"].sum()
        assert points_lost(con, ("royal",)).is_empty()
        one = per.row(0, named=True)
        mine = points_lost(con, ("slovenian", None, None, None, one["player_id"]))
        assert mine.to_dicts() == [one]
    finally:
        con.close()
    # analysing again replaces the rows of each hand
    assert CliRunner().invoke(app, args).exit_code == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM card_analysis").fetchall()[0][0] == n
    finally:
        con.close()
