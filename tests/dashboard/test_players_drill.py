"""The Players page's numbers open the hands behind them (issue 33, "Statistics"): every table
with counts has a drill-down, the new drill fields (a bonus, a match, the analysed hands) list
exactly the hands a figure counts, and ratings read from rank 1."""

from __future__ import annotations

import ast

import duckdb
from streamlit.testing.v1 import AppTest

from tarock_logs.store.read import queries as q
from tests.dashboard.dash_helpers import APP, ROOT, DashDB

PAGE = ROOT / "dashboard" / "app_pages" / "players.py"
#: the kinds of a column that counts something (a sample behind it)
COUNTS = {"int"}


def _table_calls() -> list[ast.Call]:
    tree = ast.parse(PAGE.read_text(encoding="utf-8"))
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "table"
    ]


def _kinds(call: ast.Call) -> set[str]:
    cols = call.args[1] if len(call.args) > 1 else None
    if not isinstance(cols, (ast.List, ast.BinOp)):
        return set()
    return {
        e.elts[2].value
        for e in ast.walk(cols)
        if isinstance(e, ast.Tuple) and len(e.elts) == 3 and isinstance(e.elts[2], ast.Constant)
    }


def test_every_statistics_table_with_counts_has_a_drill_down() -> None:
    calls = _table_calls()
    assert len(calls) >= 12
    for call in calls:
        if _kinds(call) & COUNTS:
            key = ast.unparse(call.args[2]) if len(call.args) > 2 else "?"
            assert len(call.args) > 3 or any(k.arg == "drill" for k in call.keywords), key


def _one(con: duckdb.DuckDBPyConnection, sql: str, params: list[object]) -> int:
    return int(con.execute(sql, params).fetchall()[0][0])


def test_a_bonus_drill_lists_exactly_the_hands_its_figure_counts(app_env: DashDB) -> None:
    con = q.connect_reader(app_env.path)
    try:
        filters = ("slovenian", None, None, None, None)
        bonuses = q.stats_section(con, "bonuses", filters)
        assert bonuses.height
        for r in bonuses.head(8).iter_rows(named=True):
            drill = (("bonus", r["bonus"]), ("player", r["player_id"]))
            hands = q.game_drill_count(con, filters, drill)
            # a seat announces a bonus once per hand
            assert hands == r["announced"], r
    finally:
        con.close()


def test_a_match_drill_lists_the_pairs_games_of_that_match(app_env: DashDB) -> None:
    con = q.connect_reader(app_env.path)
    try:
        filters = ("royal", None, None, None, None)
        matches = q.game_section(con, "matches", filters)
        assert matches.height
        for r in matches.iter_rows(named=True):
            drill = (("player", r["player_ids"][0]), ("session", r["session_id"]))
            assert q.game_drill_count(con, filters, drill) == r["games"]
        pairs = q.game_section(con, "pairs", filters)
        for r in pairs.iter_rows(named=True):
            drill = (("partner", r["player_ids"][-1]), ("player", r["player_ids"][0]))
            assert q.game_drill_count(con, filters, drill) >= r["matches"]
    finally:
        con.close()


def test_ratings_sorted_by_rank_start_at_one(app_env: DashDB) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/players.py")
    at.query_params["game"] = "slovenian"
    at.query_params["tab"] = "Ratings"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    ratings = next(d.value for d in at.dataframe if "rank" in d.value.columns)
    ranks = [int(x) for x in ratings["rank"]]
    assert ranks[0] == 1 and ranks == sorted(ranks)


def test_the_event_filter_offers_the_games_own_events(app_env: DashDB) -> None:
    con = q.connect_reader(app_env.path)
    try:
        fv = q.filter_values(con)
        for game, events in fv["events_by_game"].items():
            for event in events:
                games = _one(
                    con,
                    "SELECT count(DISTINCT game) FROM sessions "
                    "WHERE coalesce(event_name, tournament) = ? AND CAST(game AS VARCHAR) = ?",
                    [event, game],
                )
                assert games == 1, (game, event)
        assert sum(map(len, fv["events_by_game"].values())) >= len(fv["events"])
    finally:
        con.close()


def test_the_csv_names_contracts_and_roles_as_the_screen_does(app_env: DashDB) -> None:
    """The drill-down's CSV has the screen's words in ``contract`` and ``role`` (the page's
    language), the ids beside them in ``contract_id`` and ``role_id``."""
    import csv
    import io

    from dashboard.view_model import csv_labels, role_label, term_label

    con = q.connect_reader(app_env.path)
    try:
        filters = ("slovenian", None, None, None, None)
        rows = list(
            csv.DictReader(
                io.StringIO(
                    q.game_drill_csv(
                        con, filters, (("role", "declarer"),), labels=csv_labels("slovenian", "sl")
                    ).decode("utf-8")
                )
            )
        )
    finally:
        con.close()
    assert rows
    for r in rows:
        assert r["contract"] == term_label(r["contract_id"], "slovenian", "sl")
        assert r["role"] == role_label(r["role_id"], "sl") != r["role_id"]
    assert {"tri", "dva", "ena"} & {r["contract"] for r in rows}
    assert {"three", "two", "one"} & {r["contract_id"] for r in rows}
