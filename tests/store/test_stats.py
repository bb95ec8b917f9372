"""Statistics over a small known dataset, every figure worked out by hand from
``tests/support/store_fixtures.py::stats_dataset`` (scored by the toy engine):

cup-r1 (2024-01-10, event Cup / tournament cup; seats a b c d):
  1. a three, calls HK (b): won; trula announced by a, made → a +20, b +20; a's T22 takes
     b's T21 (same side: no mond lost)
  2. b two, self-call, c kontras the game, lost → b −40, and b's T21 falls to a's T22
     (a defender): mondfang → b −60; mond lost by b, captured by a; c's kontra succeeds
  3. klop (c's bid "klop" is no contract bid): a takes the trick → a −5; everybody earns a radelc
  4. c solo_three, won; d announces pagat_ultimo and fails → recomputed c +50, recorded 40
league-1 (2024-02-05, event League; seats b c d a):
  1. a three, calls HK (b, partner): lost → a −10, b −10; c plays a card he does not hold
  2. c one, self-call, won → c +30; renons by d upheld
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import duckdb
import orjson
import polars as pl
import pytest
from typer.testing import CliRunner

from tarock_logs.cli.common import app
from tarock_logs.store import connect_readonly
from tarock_logs.store.read import stats as st
from tarock_logs.store.write.ingest import ingest
from tests.support.store_fixtures import stats_dataset, toy_engine, write_json  # noqa: F401


@pytest.fixture
def db(tmp_path: Path, toy_engine: None) -> Path:  # noqa: F811
    logs = tmp_path / "logs"
    write_json(logs / "cup.json", stats_dataset()[0])
    write_json(logs / "league.json", stats_dataset()[1])
    path = tmp_path / "stats.duckdb"
    summary = ingest([logs], db=path)
    assert summary.hands_stored == 6
    return path


@pytest.fixture
def con(db: Path):  # type: ignore[no-untyped-def]
    c = connect_readonly(db)
    yield c
    c.close()


def rows(df: pl.DataFrame, *cols: str) -> list[tuple[object, ...]]:
    return [tuple(r) for r in df.select(cols).iter_rows()]


def test_per_player_figures(con) -> None:  # type: ignore[no-untyped-def]
    df = st.players(con)
    assert rows(df, "player_id", "hands", "decided", "won", "total_score") == [
        ("a", 6, 5, 2, 5),
        ("b", 6, 5, 1, -50),
        ("c", 6, 5, 4, 70),
        ("d", 6, 5, 2, 0),
    ]
    assert rows(df, "player_id", "contracts_bid", "contracts_played", "contracts_won") == [
        ("a", 2, 2, 1),
        ("b", 1, 1, 0),
        ("c", 2, 2, 2),
        ("d", 0, 0, 0),
    ]
    assert rows(
        df, "player_id", "bonuses_announced", "bonuses_made", "kontras_given", "kontras_successful"
    ) == [("a", 1, 1, 0, 0), ("b", 0, 0, 0, 0), ("c", 0, 0, 1, 1), ("d", 1, 0, 0, 0)]
    assert rows(
        df,
        "player_id",
        "monds_lost",
        "monds_captured",
        "radelci_earned",
        "radelci_cleared",
        "renons",
    ) == [("a", 0, 1, 1, 0, 0), ("b", 1, 0, 1, 0, 0), ("c", 0, 0, 1, 0, 0), ("d", 0, 0, 1, 0, 1)]
    # tricks: cup-r1 hands 1-3 and league-1 hand 1 each have one, taken by a's T22 / T1 / T22 / T22
    assert rows(df, "player_id", "tricks_won") == [("a", 4), ("b", 0), ("c", 0), ("d", 0)]
    a = df.row(0, named=True)
    assert a["avg_score"] == pytest.approx(5 / 6)
    assert a["win_rate"] == pytest.approx(2 / 5)
    assert a["contract_win_rate"] == pytest.approx(1 / 2)
    assert df["enough"].to_list() == [False] * 4  # 6 hands < MIN_SAMPLE


def test_per_role_figures(con) -> None:  # type: ignore[no-untyped-def]
    df = st.player_roles(con)
    assert rows(df, "player_id", "role", "hands", "won", "total_score") == [
        ("a", "declarer", 2, 1, 10),
        ("a", "defender", 3, 1, 0),
        ("a", "klop", 1, 0, -5),
        ("b", "declarer", 1, 0, -60),
        ("b", "defender", 2, 0, 0),
        ("b", "klop", 1, 0, 0),
        ("b", "partner", 2, 1, 10),
        ("c", "declarer", 2, 2, 70),
        ("c", "defender", 3, 2, 0),
        ("c", "klop", 1, 0, 0),
        ("d", "defender", 5, 2, 0),
        ("d", "klop", 1, 0, 0),
    ]
    c_decl = df.filter((pl.col("player_id") == "c") & (pl.col("role") == "declarer"))
    assert c_decl["avg_score"][0] == 35.0 and c_decl["win_rate"][0] == 1.0
    klop = df.filter(pl.col("role") == "klop")
    assert klop["win_rate"].null_count() == klop.height  # klop has no winner side


def test_per_contract_success(con) -> None:  # type: ignore[no-untyped-def]
    df = st.contracts(con).sort("contract")
    assert rows(df, "contract", "played", "won", "avg_declarer_score") == [
        ("klop", 1, 0, None),
        ("one", 1, 1, 30.0),
        ("solo_three", 1, 1, 40.0),
        ("three", 2, 1, 5.0),
        ("two", 1, 0, -60.0),
    ]
    assert df.filter(pl.col("contract") == "three")["win_rate"][0] == 0.5


def test_bonuses_and_kontras(con) -> None:  # type: ignore[no-untyped-def]
    assert rows(st.bonuses(con), "player_id", "bonus", "announced", "made") == [
        ("a", "trula", 1, 1),
        ("d", "pagat_ultimo", 1, 0),
    ]
    assert rows(st.kontras(con), "player_id", "target", "level", "given", "successful") == [
        ("c", "game", 1, 1, 1)
    ]


def test_partner_synergy_against_each_players_own_figures(con) -> None:  # type: ignore[no-untyped-def]
    df = st.synergy(con)
    assert rows(df, "player_a", "player_b", "hands", "won", "avg_score_a", "avg_score_b") == [
        ("a", "b", 2, 1, 5.0, 5.0)
    ]
    r = df.row(0, named=True)
    assert r["win_rate"] == 0.5
    assert r["own_win_rate_a"] == pytest.approx(2 / 5)
    assert r["own_win_rate_b"] == pytest.approx(1 / 5)
    assert r["own_avg_score_a"] == pytest.approx(5 / 6)
    assert r["own_avg_score_b"] == pytest.approx(-50 / 6)


def test_score_over_time(con) -> None:  # type: ignore[no-untyped-def]
    df = st.score_over_time(con, st.Filters(player="Ana"))
    assert rows(df, "date", "session_id", "hands", "score", "cumulative") == [
        (dt.date(2024, 1, 10), "cup-r1", 4, 15, 15),
        (dt.date(2024, 2, 5), "league-1", 2, -10, 5),
    ]


def test_the_running_total_sums_the_known_scores_only(db: Path) -> None:
    """A session without a known score (score NULL) adds nothing to the running total, which
    is NULL until the player's first known score: from the per-session facts and, on a
    store without them, from the seat facts."""
    con = duckdb.connect(str(db))
    ana = "(SELECT player_key FROM players WHERE player_id = 'Ana' OR name = 'Ana')"

    def unknown(table: str, session: str) -> None:
        con.execute(
            f"UPDATE {table} SET score = NULL WHERE player_key = {ana} AND session_key = "
            f"(SELECT session_key FROM sessions WHERE session_id = '{session}')"
        )

    try:
        unknown("session_player_facts", "league-1")
        df = st.score_over_time(con, st.Filters(player="Ana"))
        assert rows(df, "session_id", "score", "cumulative") == [
            ("cup-r1", 15, 15),
            ("league-1", None, 15),
        ]
        unknown("seat_facts", "cup-r1")
        con.execute("DROP TABLE session_player_facts")  # (a store of schema version 10)
        df = st.score_over_time(con, st.Filters(player="Ana"))
        assert rows(df, "session_id", "score", "cumulative") == [
            ("cup-r1", None, None),
            ("league-1", -10, -10),
        ]
    finally:
        con.close()


def test_filters_by_event_date_game_and_player_name(con) -> None:  # type: ignore[no-untyped-def]
    cup = st.players(con, st.Filters(event="Cup"))
    assert rows(cup, "player_id", "hands", "total_score") == [
        ("a", 4, 15),
        ("b", 4, -40),
        ("c", 4, 40),
        ("d", 4, 0),
    ]
    assert st.players(con, st.Filters(event="cup")).equals(cup)  # tournament id
    feb = st.players(con, st.Filters(date_from=dt.date(2024, 2, 1), date_to=dt.date(2024, 2, 28)))
    assert rows(feb, "player_id", "hands", "total_score") == [
        ("a", 2, -10),
        ("b", 2, -10),
        ("c", 2, 30),
        ("d", 2, 0),
    ]
    assert st.players(con, st.Filters(game="royal")).height == 0
    assert st.players(con, st.Filters(player="Ana")).equals(st.players(con, st.Filters(player="a")))
    mine = st.contracts(con, st.Filters(player="c"))
    assert rows(mine.sort("contract"), "contract", "played", "won") == [
        ("klop", 1, 0),
        ("one", 1, 1),
        ("solo_three", 1, 1),
    ]


def test_drill_down_returns_exactly_the_hands_behind_each_figure(con) -> None:  # type: ignore[no-untyped-def]
    def n(**kw: object) -> int:
        return st.hands_for(con, **kw)["hand_id"].n_unique()

    for r in st.player_roles(con).iter_rows(named=True):
        assert n(player=r["player_id"], role=r["role"]) == r["hands"]
        assert n(player=r["player_id"], role=r["role"], won=True) == r["won"]
    for r in st.players(con).iter_rows(named=True):
        p = r["player_id"]
        assert n(player=p) == r["hands"]
        assert n(player=p, bid=True) == r["contracts_bid"]
        assert n(player=p, role="declarer", won=True) == r["contracts_won"]
        assert n(player=p, mond="lost") == r["monds_lost"]
        assert n(player=p, mond="captured") == r["monds_captured"]
        assert n(player=p, renons=True) == r["renons"]
        assert n(player=p, radelc="earned") == r["radelci_earned"]
        assert n(player=p, kontra=True) == r["kontras_given"]
        assert n(player=p, kontra=True, success=True) == r["kontras_successful"]
    for r in st.contracts(con).iter_rows(named=True):
        assert r["drill_role"] == ("klop" if r["contract"] == "klop" else "declarer")
        assert n(contract=r["contract"], role=r["drill_role"]) == r["played"]
    for r in st.bonuses(con).iter_rows(named=True):
        assert n(player=r["player_id"], bonus=r["bonus"]) == r["announced"]
        assert n(player=r["player_id"], bonus=r["bonus"], made=True) == r["made"]
    for r in st.synergy(con).iter_rows(named=True):
        assert n(player=r["player_a"], partner=r["player_b"]) == r["hands"]
        assert n(player=r["player_b"], partner=r["player_a"]) == r["hands"]
    cup = st.players(con, st.Filters(event="Cup")).row(0, named=True)
    assert n(player="a", event="Cup") == cup["hands"]


def test_drill_down_names_the_hands(con) -> None:  # type: ignore[no-untyped-def]
    df = st.hands_for(con, player="b", mond="lost")
    assert rows(df, "session_id", "number", "role", "score") == [("cup-r1", 2, "declarer", -60)]
    with pytest.raises(TypeError, match="unknown drill-down"):
        st.hands_for(con, colour="red")


def test_minimum_sample_flag(con, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(st, "MIN_SAMPLE", 2)
    df = st.player_roles(con)
    assert df.filter(pl.col("enough")).height == df.filter(pl.col("hands") >= 2).height == 7


def test_stats_cli_json_csv_and_hands(db: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["stats", "--db", str(db), "--format", "json", "--player", "Ana"])
    assert res.exit_code == 0, res.output
    doc = orjson.loads(res.stdout)
    assert doc["min_sample"] == st.MIN_SAMPLE
    assert set(st.SECTIONS) <= set(doc)
    assert doc["players"][0]["total_score"] == 5
    res = runner.invoke(
        app, ["stats", "--db", str(db), "--section", "contracts", "--format", "csv"]
    )
    assert res.exit_code == 0 and res.stdout.splitlines()[0].startswith("contract,played,won")
    res = runner.invoke(
        app,
        [
            "stats",
            "--db",
            str(db),
            "--hands",
            "--player",
            "a",
            "--role",
            "declarer",
            "--format",
            "csv",
        ],
    )
    assert len(res.stdout.splitlines()) == 1 + 2
    res = runner.invoke(
        app,
        [
            "stats",
            "--db",
            str(db),
            "--hands",
            "--player",
            "a",
            "--drill",
            "partner=b",
            "--drill",
            "won=true",
            "--format",
            "json",
        ],
    )
    assert res.exit_code == 0, res.output
    assert [(h["session_id"], h["number"]) for h in orjson.loads(res.stdout)["hands"]] == [
        ("cup-r1", 1)
    ]
    res = runner.invoke(app, ["stats", "--db", str(db), "--hands", "--drill", "colour=red"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["stats", "--db", str(db), "--from", "yesterday"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["stats", "--db", str(db), "--format", "csv"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["stats", "--db", str(db.with_name("none.duckdb"))])
    assert res.exit_code == 2


def test_royal_fixed_pairs_count_as_partners_without_an_engine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tarock_logs.rules as rules
    from tarock_logs.cards import PACKS
    from tests.support.store_fixtures import PLAYERS

    monkeypatch.setitem(rules._ENGINES, "royal", "tarock_logs.rules.no_such_engine")
    pack = list(PACKS["royal"])
    deal = {"hands": [pack[i * 10 : (i + 1) * 10] for i in range(4)], "talon": []}
    seats = [
        ("a", "A", "abfaenger"),
        ("b", "A", "eintreiber"),
        ("c", "B", "abfaenger"),
        ("d", "B", "eintreiber"),
    ]
    session = {
        "format": "tarock-log",
        "format_version": 1,
        "id": "royal-1",
        "game": "royal",
        "ruleset": "royal-std",
        "players": [{"id": p, "name": PLAYERS[p], "pair": pr, "role": rl} for p, pr, rl in seats],
        "hands": [
            {"number": 1, "dealer": 3, "deal": deal, "result": {"scores": [10, 10, -10, -10]}},
            {"number": 2, "dealer": 0, "deal": deal, "result": {"scores": [-20, -20, 20, 20]}},
        ],
    }
    write_json(tmp_path / "logs" / "royal.json", session)
    db = tmp_path / "r.duckdb"
    assert ingest([tmp_path / "logs"], db=db).hands_stored == 2
    con = connect_readonly(db)
    df = st.synergy(con)
    assert rows(
        df,
        "player_a",
        "player_b",
        "hands",
        "decided",
        "avg_score_a",
        "avg_score_b",
        "own_avg_score_a",
    ) == [("a", "b", 2, 0, -5.0, -5.0, -5.0), ("c", "d", 2, 0, 5.0, 5.0, 5.0)]
    assert df["win_rate"].to_list() == [None, None]  # no engine: nobody decided who won
    assert st.hands_for(con, player="c", partner="d")["hand_id"].n_unique() == 2
    assert st.hands_for(con, player="a", partner="c").height == 0
    con.close()
