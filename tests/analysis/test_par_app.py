"""The replayer shows the stored par before the first trick (Streamlit's AppTest, no browser):
``tarock ingest --analyse --analyse-par`` stores each talon group, discard and contract with its
value, and the replayer shows the groups (and contracts) at the talon step and the discards at
the discard step, the declarer's choice marked, labelled "all cards visible"."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest
from streamlit.testing.v1 import AppTest

from tarock_logs.store.read.analysis import hand_par
from tarock_logs.store.write.analysis import store_analysis
from tarock_logs.store.write.ingest import ingest
from tests.analysis.par_support import par_log

ROOT = Path(__file__).resolve().parents[2]
APP = ROOT / "dashboard" / "app.py"


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    tmp = tmp_path_factory.mktemp("par_app")
    log = par_log(tmp / "par.jsonl")
    db = tmp / "p.duckdb"
    ingest([str(log)], db=str(db))
    summary = store_analysis([str(log)], db=str(db), last_tricks=1, par=True,
                             budget=3_000_000, hand_budget=8_000_000)  # fmt: skip
    assert summary.par_hands == 1
    con = duckdb.connect(str(db), read_only=True)
    try:
        (hand,) = con.execute("SELECT hand_id FROM hands").fetchall()[0]
        par = hand_par(con, hand)
    finally:
        con.close()
    assert par is not None and par["budget"] == 3_000_000 and par["hand_budget"] == 8_000_000
    # the stored rows are the analysis's: the recorded discard valued, the groups, contracts
    assert [d["cards"] for d in par["discards"] if d["recorded"]] == [["H1"]]
    assert [d["value"] for d in par["discards"] if d["recorded"]] == [250]
    assert len(par["groups"]) == 6 and len(par["contracts"]) == 11
    for o in [*par["groups"], *par["discards"], *par["contracts"]]:
        if o["value"] is None:  # never a number where the budget stopped the search
            assert o["decided"] < o["lines"] or o["kind"] == "discard"
    yield db, str(hand)


def _open(db: Path, hand: str, step: int, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TAROCK_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.switch_page("app_pages/replay.py")  # (as a deep link opens it: no home page run first)
    at.query_params["hand"] = hand
    at.query_params["step"] = str(step)
    at.query_params["seat"] = "all"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _tables(at: AppTest) -> list[pl.DataFrame]:
    """The par tables on the page (their first column is the choice)."""
    out = []
    for d in at.dataframe:
        v = d.value
        frame = v if isinstance(v, pl.DataFrame) else pl.from_pandas(v)
        if frame.columns and frame.columns[0] == "choice":
            out.append(frame)
    return out


def test_the_replayer_shows_the_talon_groups_at_the_talon_step(
    stored: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, hand = stored
    # actions: four bids (three passes, seat 1's solo ena), then the talon group: step 5
    at = _open(db, hand, 5, monkeypatch)
    texts = "\n".join(str(m.value) for m in [*at.markdown, *at.caption])
    assert "Before the first trick (par), all cards visible" in texts
    groups, contracts = _tables(at)
    assert groups.height == 6
    chosen = groups.filter(groups["recorded"] == "★")
    assert chosen["choice"].to_list() == ["talon group 2"]
    assert contracts.height == 11
    assert contracts.filter(contracts["recorded"] == "★")["choice"].to_list() == ["solo ena"]


def test_the_replayer_shows_the_discards_at_the_discard_step(
    stored: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, hand = stored
    at = _open(db, hand, 6, monkeypatch)
    (discards,) = _tables(at)
    chosen = discards.filter(discards["recorded"] == "★")
    assert chosen["value"].to_list() == ["250"]
    assert any("T13" in str(x) for x in discards["equivalent discards"].to_list())
    # not at an earlier step (the bidding)
    at = _open(db, hand, 2, monkeypatch)
    assert not _tables(at)


def test_players_card_play_shows_points_lost_per_phase_with_the_sample(
    stored: tuple[Path, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db, _ = stored
    monkeypatch.setenv("TAROCK_DB", str(db))
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/players.py")
    at.query_params["game"] = "slovenian"
    at.query_params["tab"] = "Card play"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    frames = [d.value for d in at.dataframe]
    (df,) = [f for f in frames if "hands with the discard valued" in f.columns]
    row = df[df["player"] == "Player 1"].iloc[0]  # the declarer: his discard H1 was a best one
    assert row["hands with the discard valued"] == 1
    assert row["points lost in the discard"] == 0
    others = df[df["player"] != "Player 1"]
    assert (others["hands with the discard valued"] == 0).all()
    assert "None" not in df.astype(str).to_numpy().ravel().tolist()


def test_ingest_analyse_par_stores_a_stopped_search_as_undecided(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from tarock_logs.cli import app

    log = par_log(tmp_path / "par.jsonl")
    db = tmp_path / "p.duckdb"
    res = CliRunner().invoke(app, ["ingest", str(log), "--db", str(db), "--analyse",
                                   "--analyse-tricks", "1", "--analyse-par",
                                   "--analyse-budget", "1000", "--analyse-hand-budget", "5000",
                                   "--format", "json"])  # fmt: skip
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    assert doc["analysis"]["par"] == {"hands": 1, "budget_hit": 1}
    con = duckdb.connect(str(db), read_only=True)
    try:
        hand = con.execute("SELECT budget, hand_budget, budget_hit FROM par_hands").fetchall()
        values = con.execute("SELECT count(*), count(value), count(*) FILTER (WHERE recorded) "
                             "FROM par_options").fetchall()  # fmt: skip
    finally:
        con.close()
    assert hand == [(1000, 5000, True)]
    assert values[0][1] == 0 and values[0][0] == 6 + 2 + 11 and values[0][2] == 3
    # without --analyse-par (the default) no par is computed
    res = CliRunner().invoke(app, ["ingest", str(log), "--db", str(tmp_path / "q.duckdb"),
                                   "--analyse", "--analyse-tricks", "1", "--analyse-budget",
                                   "1000", "--format", "json"])  # fmt: skip
    assert res.exit_code == 0 and "par" not in json.loads(res.stdout)["analysis"]
