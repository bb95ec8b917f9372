"""``tarock ingest --analyse``: per-card analysis in the store, and points lost per player."""

from __future__ import annotations

import json
from pathlib import Path

import duckdb
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.store.read.analysis import points_lost
from tests.analysis.support import needs_native

DISPUTED = Path(__file__).resolve().parents[2] / "sample_logs" / "disputed"


def _ingest_analysed(db: Path, *extra: str) -> list[str]:
    """``tarock ingest`` of the disputed sample with ``--analyse`` of the last trick."""
    return ["ingest", str(DISPUTED), "--db", str(db), "--analyse", "--analyse-tricks", "1",
            "--format", "json", *extra]  # fmt: skip


def test_ingest_analyse_stores_every_analysed_card_and_points_lost(tmp_path: Path) -> None:
    """The last trick of every hand is stored (the illegal card of trick 3 is left undecided
    under a small budget, so that the test takes seconds with either solver)."""
    db = tmp_path / "a.duckdb"
    args = _ingest_analysed(db, "--analyse-budget", "2000")
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
        # the last trick of 42 hands (4 cards each, some at tables of 5)
        assert hands == 42 and left == 1 and nonneg and n == 42 * 4
        assert doc["analysis"]["undecided"] == 1  # the illegal card, past the budget
        undecided = con.execute("SELECT sum(undecided) FROM analysed_hands").fetchall()
        assert undecided == [(1,)]
        per = points_lost(con)
        assert per["hands"].min() >= 1 and per["cards"].sum() == n
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


@needs_native
def test_ingest_analyse_stores_the_illegal_cards_value_under_the_default_budget(
    tmp_path: Path,
) -> None:
    db = tmp_path / "a.duckdb"
    r = CliRunner().invoke(app, _ingest_analysed(db))
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["analysis"]["undecided"] == 0
    con = duckdb.connect(str(db), read_only=True)
    try:
        bad = con.execute("SELECT card, legal, value, best_value, tricks_left FROM "
                          "card_analysis WHERE NOT legal").fetchall()  # fmt: skip
        assert bad == [("H4", False, 48, 48, 10)]
    finally:
        con.close()


def test_ingest_help_states_the_analysis_cost_bounds() -> None:
    """The per-hand bound of ``--analyse`` is in the help, with the budgets the code uses."""
    from tarock_logs.analysis.hand import HAND_BUDGET_NATIVE, HAND_BUDGET_PYTHON
    from tarock_logs.analysis.native import BUDGET_NATIVE, BUDGET_PYTHON

    r = CliRunner().invoke(app, ["ingest", "--help"], env={"COLUMNS": "200"})
    assert r.exit_code == 0
    said = " ".join(r.stdout.replace("│", " ").split())
    assert "The cost is bounded per hand" in said
    assert "default: every trick with all cards visible" in said
    assert f"default: {BUDGET_NATIVE:,} with the C extension, {BUDGET_PYTHON:,} without" in said
    assert (f"default: {HAND_BUDGET_NATIVE:,} with the C extension, several seconds of one "
            f"core; {HAND_BUDGET_PYTHON:,} without") in said  # fmt: skip


@needs_native
def test_a_hand_budget_values_the_last_cards_and_leaves_the_earlier_ones_undecided() -> None:
    """Issue 34 item 4: every card of a hand is analysed where the hand budget allows, from
    the last card back; the cards it does not reach are undecided (and said so), the cards
    it reaches have the values of an analysis without it, and an illegal card is analysed
    whatever the hand budget."""
    from tarock_logs.analysis.hand import analyse_hand
    from tarock_logs.log.reader import read_paths

    sessions = [r.session for r in read_paths([DISPUTED]) if r.session is not None]
    s = next(s for s in sessions if s.id.endswith("-A"))
    i = next(i for i, h in enumerate(s.hands) if h.number == 3)
    free = analyse_hand(s, i, last_tricks=3, lines=False, budget=2_000_000)
    assert not free.illegal
    assert not free.undecided and not free.hand_budget_hit and len(free.cards) >= 12
    used = free.nodes
    part = analyse_hand(s, i, last_tricks=3, lines=False, budget=2_000_000,
                        hand_budget=max(1, used // 3))  # fmt: skip
    assert part.hand_budget_hit and part.undecided
    values = {c.action_index: c.values for c in free.cards}
    assert all(values[c.action_index] == c.values for c in part.cards)
    # the cards valued are the last ones: every undecided card comes before every valued one
    assert max(i for i, _ in part.undecided) < min(c.action_index for c in part.cards if c.legal)
    assert part.to_dict()["hand_budget_hit"] is True
    # hand 2 holds the disputed illegal card (H4, ten tricks left): analysed all the same
    i = next(i for i, h in enumerate(s.hands) if h.number == 2)
    none = analyse_hand(s, i, last_tricks=1, lines=False, budget=4_000_000, hand_budget=1)
    assert none.hand_budget_hit and len(none.undecided) == 4
    assert [(c.card, c.value) for c in none.cards] == [("H4", 48)]


def test_ingest_analyse_view_player_stores_what_the_player_knew_beside_all_cards_visible(
    tmp_path: Path,
) -> None:
    """``--analyse-view both``: the player-view rows (each legal card's mean and spread, the
    samples and the seed) go beside the all-cards-visible ones; ``player`` alone replaces
    only them; the replayer's reader gives both back."""
    from tarock_logs.store.read.analysis import hand_card_analysis, hand_card_analysis_player

    db = tmp_path / "p.duckdb"
    args = _ingest_analysed(db, "--analyse-budget", "2000", "--analyse-view", "both",
                            "--analyse-samples", "3", "--analyse-seed", "4")  # fmt: skip
    r = CliRunner().invoke(app, args)
    assert r.exit_code == 0, r.output
    doc = json.loads(r.stdout)
    assert doc["analysis_player"] == {"hands": 42, "cards": 42 * 4, "samples": 3, "seed": 4,
                                      "label": "what the player knew"}  # fmt: skip
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM card_analysis").fetchall() == [(42 * 4,)]
        rows = con.execute("SELECT DISTINCT samples, seed FROM analysed_hands_player"
                           ).fetchall()  # fmt: skip
        assert rows == [(3, 4)]
        assert con.execute("SELECT bool_and(loss >= 0), bool_and(samples = 3) "
                           "FROM card_analysis_player").fetchall() == [(True, True)]  # fmt: skip
        hand = con.execute("SELECT min(hand_id) FROM card_analysis_player").fetchall()[0][0]
        mine = hand_card_analysis_player(con, hand)
        allv = {r["action_index"]: r for r in hand_card_analysis(con, hand)}
        assert len(mine) == 4
        for row in mine:
            assert row["seed"] == 4 and row["card_seed"].startswith("4:")
            assert set(row["values"]) == set(allv[row["action_index"]]["values"])
            assert row["values"][row["card"]] == row["value"]
            for s in row["spread"].values():
                assert s["min"] <= s["mean"] <= s["max"]
    finally:
        con.close()
    r = CliRunner().invoke(app, [*args[:-6], "--analyse-view", "player", "--analyse-samples",
                                 "2", "--analyse-seed", "5"])  # fmt: skip
    assert r.exit_code == 0, r.output
    con = duckdb.connect(str(db), read_only=True)
    try:
        assert con.execute("SELECT DISTINCT samples, seed FROM analysed_hands_player"
                           ).fetchall() == [(2, 5)]  # fmt: skip
        assert con.execute("SELECT count(*) FROM card_analysis").fetchall() == [(42 * 4,)]
    finally:
        con.close()


def analysis_rows(db: Path) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        hands = con.execute("SELECT hand_id, last_tricks, backend, cards, undecided, skipped "
                            "FROM analysed_hands ORDER BY hand_id").fetchall()  # fmt: skip
        cards = con.execute("SELECT * FROM card_analysis ORDER BY hand_id, action_index").fetchall()
    finally:
        con.close()
    return hands, cards


def test_the_analysis_in_worker_processes_stores_the_serial_rows(tmp_path: Path) -> None:
    """``tarock ingest --analyse`` spreads the sessions over worker processes (``--jobs``, or
    one per core for a big analysis): the rows are the serial ones. (On Dask:
    tests/cli/test_dask_cli.py, run as a command: no test process imports Dask.)"""
    from tarock_logs.store.write.analysis import store_analysis
    from tarock_logs.store.write.ingest import ingest

    db = tmp_path / "serial.duckdb"
    ingest([str(DISPUTED)], db=str(db))
    (tmp_path / "pool.duckdb").write_bytes(db.read_bytes())
    serial = store_analysis([DISPUTED], db=db, jobs=1, last_tricks=1, budget=2000)
    pool = store_analysis([DISPUTED], db=tmp_path / "pool.duckdb", jobs=2, last_tricks=1,
                          budget=2000)  # fmt: skip
    assert serial.cards == pool.cards == 42 * 4
    assert serial.undecided == pool.undecided == 1
    rows = analysis_rows(db)
    assert rows[1] and analysis_rows(tmp_path / "pool.duckdb") == rows
