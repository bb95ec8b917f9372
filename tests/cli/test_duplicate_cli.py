"""``tarock simulate --duplicate`` then ``tarock duplicate`` (issue 35 item 5's acceptance):
every deal of a simulated duplicate tournament is shown at every table, the ranking is the
same from the same logs, and the command's exit codes are those of the other commands."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.store.read.duplicate import deal_key
from tarock_logs.store.write.ingest import ingest

runner = CliRunner()
TABLES, ROUNDS, GAMES = 3, 2, 3


def _simulate(out: Path, game: str) -> None:
    args = ["simulate", "--duplicate", "--game", game, "--seed", "5", "--tables", "4,4,4",
            "--rounds", str(ROUNDS), "--games-per-round", str(GAMES), "-o", str(out)]  # fmt: skip
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output


def _duplicate(db: Path, *extra: str) -> Any:
    result = runner.invoke(app, ["duplicate", "--db", str(db), *extra])
    return result


@pytest.fixture(scope="module", params=["slovenian", "zwanzigerrufen", "royal"])
def simulated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Any:
    game = request.param
    base = tmp_path_factory.mktemp(f"dup-{game}")
    _simulate(base / "logs", game)
    db = base / "t.duckdb"
    ingest([str(base / "logs")], db=str(db))
    return game, base, db


def test_every_deal_of_a_simulated_duplicate_tournament_is_shown_at_every_table(
    simulated: Any,
) -> None:
    game, _, db = simulated
    result = _duplicate(db, "--event", f"sim-{game}-5-duplicate", "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    deals = doc["deals"]
    assert len(deals) == ROUNDS * GAMES
    for d in deals:
        assert d["game"] == game and d["tables"] == TABLES
        assert [line["table"] for line in d["lines"]] == ["A", "B", "C"]
        assert len({(line["round"], line["hand_number"]) for line in d["lines"]}) == 1
    con = duckdb.connect(str(db), read_only=True)
    try:
        stored = con.execute("SELECT hand_id, CAST(game AS VARCHAR), dealer, deal FROM hands")
        hands = stored.fetchall()
    finally:
        con.close()
    shown = {line["hand_id"]: d["deal_key"] for d in deals for line in d["lines"]}
    assert len(shown) == len(hands) == TABLES * ROUNDS * GAMES  # every hand, once
    for hid, g, dealer, deal in hands:  # the SQL deal key is the documented one
        cards = json.loads(deal)
        assert shown[hid] == deal_key(g, dealer, cards["hands"], cards.get("talon", []))
    # each player keeps their seat: compared with the same players (those of that seat)
    seats = {(s["player_id"], s["seat"]) for d in deals for line in d["lines"]
             for s in line["seats"]}  # fmt: skip
    assert len({p for p, _ in seats}) == len(seats) == 4 * TABLES


def test_the_ranking_is_the_same_from_the_same_logs(simulated: Any, tmp_path: Path) -> None:
    _, base, db = simulated
    first = _duplicate(db, "--format", "json")
    again = tmp_path / "again.duckdb"
    ingest([str(base / "logs")], db=str(again))
    second = _duplicate(again, "--format", "json")
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    ranking = json.loads(first.stdout)["ranking"]
    assert [r["rank"] for r in ranking] == list(range(1, 4 * TABLES + 1))
    # every player is compared on every deal: 2 others held their cards each time
    assert {r["max_match_points"] for r in ranking} == {ROUNDS * GAMES * 2 * (TABLES - 1)}
    keys = [(-r["match_points"], r["player_id"]) for r in ranking]
    assert keys == sorted(keys)  # equal maxima: match points, then the id, decide


def test_the_text_shows_each_deal_and_the_ranking(simulated: Any) -> None:
    game, _, db = simulated
    result = _duplicate(db)
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.count("Deal ") == ROUNDS * GAMES and "best line: table" in out
    assert f"{game}: duplicate ranking (match points)" in out


def test_exit_codes_follow_the_other_commands(tmp_path: Path) -> None:
    missing = _duplicate(tmp_path / "none.duckdb")
    assert missing.exit_code == 2 and "tarock ingest" in missing.output
    not_a_store = tmp_path / "junk.duckdb"
    not_a_store.write_bytes(b"not a database")
    assert _duplicate(not_a_store).exit_code == 4
    sample = tmp_path / "s.duckdb"
    ingest([str(Path(__file__).resolve().parents[2] / "sample_logs" / "slovenian")], db=str(sample))
    plain = _duplicate(sample)
    assert plain.exit_code == 0 and "no deal was played at more than one table" in plain.stdout
    assert json.loads(_duplicate(sample, "--format", "json").stdout)["deals"] == []
    unknown = _duplicate(sample, "--event", "no-such-cup")
    assert unknown.exit_code == 2 and "no stored session" in unknown.output


def test_simulate_duplicate_needs_tables_of_one_size(tmp_path: Path) -> None:
    result = runner.invoke(app, ["simulate", "--duplicate", "--tables", "4,5", "-o", str(tmp_path)])
    assert result.exit_code == 2 and "all of one size" in result.output
