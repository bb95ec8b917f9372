"""The seeded OpenSpiel game generator (``importers.openspiel_games``,
``scripts/openspiel_games.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tarock_logs.tools.importers.openspiel import CONTRACTS_BY_TABLE, decode_serialized

pytestmark = pytest.mark.oracle
pyspiel = pytest.importorskip("pyspiel")

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("players", [3, 4])
def test_one_schedule_cycle_reaches_every_contract_of_the_table(players: int) -> None:
    from tarock_logs.tools.importers.openspiel_games import generate_games

    cycle = len(CONTRACTS_BY_TABLE[players])
    games = list(generate_games(players, 2 * cycle, 3))  # fewer than 25: no uniform game
    contracts = [decode_serialized(g.serialized, players).contract for g in games]
    assert contracts == [g.target for g in games]
    assert set(contracts) == set(CONTRACTS_BY_TABLE[players])
    assert {g.style for g in games} == {"random", "greedy"}


def test_every_25th_game_bids_uniformly_and_some_auctions_are_contested() -> None:
    from tarock_logs.tools.importers.openspiel_games import generate_games

    games = list(generate_games(4, 100, 8))
    assert [i for i, g in enumerate(games) if g.style == "uniform"] == [24, 49, 74, 99]
    bids_before_final = [
        sum(1 for a in decode_serialized(g.serialized, 4).actions if a["type"] == "bid")
        for g in games
    ]
    assert max(bids_before_final) >= 3  # several bids in one auction


def test_same_arguments_give_the_same_games() -> None:
    from tarock_logs.tools.importers.openspiel_games import generate_games

    first = [g.record() for g in generate_games(4, 30, 9)]
    again = [g.record() for g in generate_games(4, 30, 9)]
    other = [g.record() for g in generate_games(4, 30, 10)]
    assert first == again and first != other


def test_script_writes_importer_input(tmp_path: Path) -> None:
    out = tmp_path / "games.jsonl"
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "openspiel_games.py"), "--players", "3",
         "--games", "18", "--seed", "5", "-o", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "18 games, 3 players" in done.stderr
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(records) == 18
    assert all(set(r) == {"players", "serialized", "returns"} for r in records)
    game = pyspiel.load_game("tarok", {"players": 3})
    for r in records:  # OpenSpiel itself accepts every record and agrees on the returns
        state = game.deserialize_state(r["serialized"])
        assert state.is_terminal() and [int(x) for x in state.returns()] == r["returns"]
