"""Hands recorded as facts without cards (format 1.1, a score-sheet line: issue 13 item 5) go
through ingest, the statistics, the standings and the replayer like played hands: the sample
tournament round of ``sample_logs/scoresheets`` (imported by ``tarock import scoresheet``)
counts in each player's and each contract's statistics and in the placement points, every hand
is ``partial`` (never ``verified``), and the replayer shows a hand as its score line, not as an
empty card table."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from tarock_logs.store.read import stats
from tarock_logs.store.read.queries import connect_reader
from tests.dashboard.dash_helpers import APP, ROOT, ingest

ROUND = ROOT / "sample_logs" / "scoresheets" / "round-1.jsonl"


def _sessions() -> list[dict[str, Any]]:
    return [json.loads(line) for line in ROUND.read_text(encoding="utf-8").splitlines() if line]


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("facts") / "round.duckdb"
    ingest(ROUND, path)
    return path


def test_every_score_sheet_line_is_stored_as_a_partial_hand_never_verified(db: Path) -> None:
    n = sum(len(s["hands"]) for s in _sessions())
    con = connect_reader(db)
    try:
        rows = con.execute(
            "SELECT verification, count(*), count(facts), count(deal) FROM hands GROUP BY 1"
        ).fetchall()
    finally:
        con.close()
    assert rows == [("partial", n, n, 0)]


def test_facts_hands_count_in_each_players_and_each_contracts_statistics(db: Path) -> None:
    at_table: Counter[str] = Counter()
    sat_out: Counter[str] = Counter()
    contracts: Counter[str] = Counter()
    for s in _sessions():
        for h in s["hands"]:
            contracts[h["facts"]["contract"]] += 1
            for seat, p in enumerate(s["players"]):
                at_table[p["id"]] += 1
                if len(s["players"]) == 5 and seat == h["dealer"]:  # the dealer sits out
                    sat_out[p["id"]] += 1
    con = connect_reader(db)
    try:
        f = stats.Filters(game="slovenian")
        players = stats.game_players(con, f)
        played = stats.game_contracts(con, f)
        roles = con.execute(
            "SELECT player_id, count(*) FROM hand_scores WHERE role = 'sitting_out' GROUP BY 1"
        ).fetchall()
    finally:
        con.close()
    assert sat_out and dict(roles) == dict(sat_out)
    assert dict(zip(players["player_id"], players["hands"], strict=True)) == dict(at_table)
    assert dict(zip(played["contract"], played["played"], strict=True)) == dict(contracts)
    assert all(w is None or 0 <= w <= 1 for w in players["win_rate"])


def test_facts_hands_make_the_standings_of_their_tournament(db: Path) -> None:
    sessions = _sessions()
    con = connect_reader(db)
    try:
        tours = con.execute("SELECT tournament, verification FROM tournaments").fetchall()
        scores = con.execute(
            "SELECT session_id, seat, recomputed_total, placement_points_recomputed "
            "FROM session_scores"
        ).fetchall()
    finally:
        con.close()
    assert tours == [(sessions[0]["event"]["tournament"], "partial")]
    seats = sum(len(s["players"]) for s in sessions)
    assert len(scores) == seats and all(pp is not None for *_, pp in scores)
    by_session: dict[str, list[tuple[int, float]]] = {}
    for sid, _, points, pp in scores:
        by_session.setdefault(sid, []).append((points, pp))
    for rows in by_session.values():  # more points, never fewer placement points
        ranked = [pp for _, pp in sorted(rows, key=lambda r: -r[0])]
        assert ranked == sorted(ranked, reverse=True) and ranked[0] > ranked[-1]


def test_the_replayer_shows_a_facts_hand_as_its_score_line(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    con = connect_reader(db)
    try:
        (hand_id,) = con.execute(
            "SELECT hand_id FROM hands WHERE n_discrepancies > 0 ORDER BY session_id, number "
            "LIMIT 1"
        ).fetchall()[0]
    finally:
        con.close()
    monkeypatch.setenv("TAROCK_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/replay.py")
    at.query_params["hand"] = hand_id
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any("recorded as facts without cards" in i.value for i in at.info)
    assert any("Score differences" in e.value for e in at.error)  # the planted mistake
    tables = [d.value for d in at.dataframe] + [t.value for t in at.table]
    assert tables and all(len(t) > 0 for t in tables)
