"""The Tournament page's Duplicate tab (issue 35 item 5) run headless with AppTest on a
simulated duplicate tournament, in English, Slovenian and German; and its builders
(dashboard/duplicate_model.py) against ``tarock duplicate``'s document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from dashboard import duplicate_model as dm
from tarock_logs.store.read.duplicate import duplicate_report
from tarock_logs.store.read.queries import connect_reader
from tarock_logs.store.write.ingest import ingest
from tarock_logs.tools.simulate import TournamentSpec, simulate_tournament, write_result
from tests.dashboard.dash_helpers import APP, DashDB

SPEC = TournamentSpec(seed=11, tables=(4, 4, 4), rounds=1, games_per_round=3, duplicate=True)
TID = "sim-slovenian-11-duplicate"
#: the tab's labels per language: (tabs, ranking header, matchpoints column, best line)
WORDS = {
    "en": (["Standings", "Duplicate"], "Duplicate ranking", "matchpoints", "Best line"),
    "sl": (["Razvrstitev", "Primerjava miz"], "Razvrstitev po primerjavi miz",
           "primerjalne točke", "Najboljša izvedba"),
    "de": (["Rangliste", "Tischvergleich"], "Wertung im Tischvergleich", "Matchpunkte",
           "Beste Spielweise"),
}  # fmt: skip


def make_duplicate_db(base: Path) -> Path:
    """A store of one simulated duplicate tournament (3 tables, 3 deals)."""
    write_result(simulate_tournament(SPEC), base / "logs")
    db = base / "dup.duckdb"
    ingest([str(base / "logs")], db=str(db))
    return db


@pytest.fixture(scope="module")
def dup_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_duplicate_db(tmp_path_factory.mktemp("duplicate"))


@pytest.fixture(scope="module")
def report(dup_db: Path) -> dict[str, Any]:
    con = connect_reader(dup_db)
    try:
        return duplicate_report(con, TID)
    finally:
        con.close()


def _open(lang: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/tournament.py")
    at.query_params["tournament"] = TID
    at.query_params["lang"] = lang
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.parametrize("lang", sorted(WORDS))
def test_the_duplicate_tab_shows_the_ranking_and_each_deal_side_by_side(
    dup_db: Path, report: dict[str, Any], lang: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TAROCK_DB", str(dup_db))
    tabs, ranking_title, mp, best = WORDS[lang]
    at = _open(lang)
    assert [tab.label for tab in at.tabs] == tabs
    assert ranking_title in [s.value for s in at.subheader]
    frames = [d.value for d in at.dataframe]
    ranking = next(f for f in frames if mp in f.columns)
    assert len(ranking) == 12  # every player of the three tables of four
    assert list(ranking[mp]) == [str(r["match_points"]) for r in report["ranking"]]
    deal = at.selectbox(key="duplicate_deal")
    assert deal.options == [dm.deal_label(d, lang) for d in report["deals"]]
    assert len(deal.options) == 3
    lines = next(f for f in frames if "P4" in f.columns and len(f.columns) > 5)
    assert list(lines.iloc[:, 0]) == ["A", "B", "C"]  # every table played deal 1
    assert any(best in s.value for s in at.success)
    deal.select_index(2).run()
    assert not at.exception
    first = report["deals"][2]["lines"][0]
    lines = next(d.value for d in at.dataframe if "P4" in d.value.columns and
                 len(d.value.columns) > 5)  # fmt: skip
    assert lines.iloc[0, 2] == str(first["hand_number"]) == "3"


def test_a_tournament_without_shared_deals_says_so(app_env: DashDB) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/tournament.py")
    at.query_params["tournament"] = "dash-cup"
    at.run()
    assert not at.exception
    assert any("No deal of this tournament was played" in i.value for i in at.info)


def test_the_builders_word_a_line_as_the_command_counts_it(report: dict[str, Any]) -> None:
    deal = report["deals"][0]
    rows = dm.line_rows(deal, "de")
    assert [r["Tisch"] for r in rows] == ["A", "B", "C"]
    seat = deal["lines"][0]["seats"][0]
    cell = rows[0]["P1"]
    assert cell.endswith(f"({seat['match_points']}/{seat['max_match_points']})")
    assert dm.deal_label(deal, "sl") == "Delitev 1: krog 1, igra 1 · 3 mize"
    hidden = dm.ranking_rows(report, "en", rename=lambda n: "X")
    assert {r["player"] for r in hidden} == {"X"}
    pct = dm.ranking_rows(report, "de")[0]["Prozent"]
    assert pct == f"{report['ranking'][0]['percentage']:.2f}".rstrip("0").rstrip(".").replace(
        ".", ","
    )


def test_masked_players_sharing_a_duplicate_rank_come_in_the_order_of_their_pseudonyms() -> None:
    """Ranked by ids (which often follow the names) within a shared rank, masked rows would
    give the hidden names' order away: they follow the pseudonyms shown."""
    ranking = [
        {"game": "slovenian", "rank": 1, "name": "Ana Kos", "hands": 4, "match_points": 6,
         "max_match_points": 8, "percentage": 75.0},
        {"game": "slovenian", "rank": 1, "name": "Bor Novak", "hands": 4, "match_points": 6,
         "max_match_points": 8, "percentage": 75.0},
        {"game": "slovenian", "rank": 3, "name": "Cene Zupan", "hands": 4, "match_points": 2,
         "max_match_points": 8, "percentage": 25.0},
    ]  # fmt: skip
    shown = {"Ana Kos": "Turdus 912", "Bor Novak": "Corvus 207", "Cene Zupan": "Aquila 101"}
    rows = dm.ranking_rows({"ranking": ranking}, "en", rename=shown.__getitem__)
    assert [r["player"] for r in rows] == ["Corvus 207", "Turdus 912", "Aquila 101"]
    assert [r["player"] for r in dm.ranking_rows({"ranking": ranking}, "en")] == [
        "Ana Kos", "Bor Novak", "Cene Zupan",
    ]  # fmt: skip
