"""Ratings recomputed from the store (store/read/ratings.py) and ``tarock ratings``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest
from click.testing import Result
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.store.read.ratings import ratings, session_placements
from tarock_logs.store.write.ingest import ingest

ROOT = Path(__file__).resolve().parents[2]
LOGS = [str(ROOT / "sample_logs" / g) for g in ("tournament", "royal", "zwanzigerrufen")]


def _tarock(*args: str) -> Result:
    """``tarock ARGS…`` run in this process (what the command prints and its exit code: the
    command's start in a process of its own is not what these tests check, ≈ 1 s each)."""
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ratings") / "t.duckdb"
    ingest(LOGS, db=str(path))
    return path


def _rate(path: Path, game: str | None = None):  # type: ignore[no-untyped-def]
    con = duckdb.connect(str(path), read_only=True)
    try:
        return ratings(con, game)
    finally:
        con.close()


def test_ratings_are_reproducible_from_the_same_store(db: Path, tmp_path: Path) -> None:
    first, again = _rate(db), _rate(db)
    assert first.current.equals(again.current) and first.history.equals(again.history)
    rebuilt = tmp_path / "again.duckdb"  # the same logs ingested afresh: the same ratings
    ingest(LOGS, db=str(rebuilt))
    other = _rate(rebuilt)
    assert first.current.equals(other.current) and first.history.equals(other.history)


def test_each_game_is_rated_on_its_own(db: Path) -> None:
    every = _rate(db).current
    royal = _rate(db, "royal").current
    assert set(royal["game"]) == {"royal"}
    assert royal.equals(every.filter(every["game"] == "royal"))
    assert set(every["game"]) == {"slovenian", "royal", "zwanzigerrufen"}


def test_the_better_placed_pair_of_the_royal_match_rates_higher(db: Path) -> None:
    cur = _rate(db, "royal").current
    by_id = {r["player_id"]: r for r in cur.iter_rows(named=True)}
    # the sample match ends 11 : 21 for Márta Szabó and Péter Kovács (pair B)
    assert by_id["marta.szabo"]["rating"] == by_id["peter.kovacs"]["rating"]
    assert by_id["marta.szabo"]["rating"] > by_id["kati.nagy"]["rating"]
    assert by_id["marta.szabo"]["rank"] == 1 and by_id["kati.nagy"]["rank"] == 3


def test_history_has_one_row_per_player_and_session_in_playing_order(db: Path) -> None:
    hist = _rate(db, "slovenian").history
    assert hist.height == hist.select("session_id", "player_id").unique().height
    orders = hist["order"].to_list()
    assert orders == sorted(orders)
    assert hist["player_id"].n_unique() == _rate(db, "slovenian").current.height


def test_placements_share_a_place_on_equal_scores_and_pairs_play_as_one() -> None:
    seats = [
        {"game": "slovenian", "seat": s, "player_id": p, "pair": None, "score": v}
        for s, (p, v) in enumerate([("a", 10), ("b", 30), ("c", 10), ("d", -5)])
    ]
    assert session_placements(seats) == [(["a"], 2), (["b"], 1), (["c"], 2), (["d"], 4)]
    pairs = [
        {"game": "royal", "seat": s, "player_id": p, "pair": pair, "score": v}
        for s, (p, pair, v) in enumerate([("a", "A", 11), ("b", "A", 11), ("c", "B", 21)])
    ]
    assert session_placements(pairs) == [(["a", "b"], 2), (["c"], 1)]


def test_the_ratings_command_prints_json_and_refuses_an_unknown_game(db: Path) -> None:
    out = _tarock("ratings", "--db", str(db), "--game", "royal", "--format", "json")
    assert out.exit_code == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["game"] == "royal" and "Plackett-Luce" in doc["method"]
    assert {r["player_id"] for r in doc["ratings"]} == {
        "kati.nagy", "laszlo.toth", "marta.szabo", "peter.kovacs"
    }  # fmt: skip
    table = _tarock("ratings", "--db", str(db))
    assert table.exit_code == 0 and "royal: ratings" in table.stdout
    bad = _tarock("ratings", "--db", str(db), "--game", "chess")
    assert bad.exit_code == 2 and "--game must be one of" in bad.stderr


def test_the_ratings_command_prints_the_same_from_stored_and_recomputed_ratings(
    db: Path, tmp_path: Path
) -> None:
    old = tmp_path / "old.duckdb"  # the same store without the stored ratings (pre-0006)
    shutil.copyfile(db, old)
    con = duckdb.connect(str(old))
    for table in ("rating_games", "rating_current", "rating_history"):
        con.execute(f"DROP TABLE {table}")
    con.close()
    for args in ([], ["--format", "json", "--history"],
                 ["--game", "slovenian", "--format", "json", "--history"]):  # fmt: skip
        runs = [_tarock("ratings", "--db", str(p), *args) for p in (db, old)]
        assert [r.exit_code for r in runs] == [0, 0], [r.stderr for r in runs]
        out = [r.stdout for r in runs]
        assert out[0] == out[1] and out[0].strip(), args
    doc = json.loads(out[0])
    assert doc["history"] == json.loads(
        json.dumps(_rate(db, "slovenian").history.to_dicts(), default=str)
    )
