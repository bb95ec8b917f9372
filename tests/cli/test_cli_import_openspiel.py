"""``tarock import openspiel``: one session per input line, located errors, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.cli.import_openspiel import import_lines
from tarock_logs.log.models import SessionAdapter

KLOP = {"players": 4, "serialized": "1791095845\n0\n0\n0\n1", "returns": None}
THREE_PLAYERS = {"players": 3, "serialized": "-12091157\n0\n0"}


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_each_line_becomes_one_session_in_input_order(tmp_path: Path) -> None:
    src = _write(tmp_path / "games.jsonl", [json.dumps(KLOP), "", json.dumps(THREE_PLAYERS)])
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["import", "openspiel", str(src), "-o", str(out)])
    assert result.exit_code == 0, result.output
    sessions = [SessionAdapter.validate_json(line) for line in out.read_bytes().splitlines()]
    assert [s.id for s in sessions] == ["games-1", "games-3"]
    assert [len(s.players) for s in sessions] == [4, 3]
    assert sessions[0].hands[0].id == "games.jsonl:1"
    assert sessions[1].hands[0].dealer == 2 and sessions[1].hands[0].deal.seed == -12091157


def test_bad_lines_are_located_and_the_rest_still_converted(tmp_path: Path) -> None:
    lines = [
        json.dumps(KLOP),
        "{not json",
        json.dumps({"players": 4, "serialized": "1791095845\n0\n0\n77"}),
        json.dumps({"players": 4}),
        json.dumps({**KLOP, "returns": [1, 2, 3]}),
        json.dumps(THREE_PLAYERS),
    ]
    src = _write(tmp_path / "mixed.jsonl", lines)
    out = tmp_path / "out.json"
    result = CliRunner().invoke(app, ["import", "openspiel", str(src), "-o", str(out)])
    assert result.exit_code == 1
    err = result.stderr
    assert f"{src}:2: E-OPENSPIEL-JSON" in err
    assert f"{src}:3: E-OPENSPIEL-RECORD: action 2 (line 4 of `serialized`)" in err
    assert f"{src}:4: E-OPENSPIEL-RECORD" in err and f"{src}:5: E-OPENSPIEL-RECORD" in err
    assert "2 game(s) converted, 4 line(s) rejected" in err
    sessions = json.loads(out.read_text())
    assert [s["id"] for s in sessions] == ["mixed-1", "mixed-6"]


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    runner = CliRunner()
    missing = runner.invoke(
        app, ["import", "openspiel", str(tmp_path / "nope.jsonl"), "-o", "x.jsonl"]
    )
    assert missing.exit_code == 2
    src = _write(tmp_path / "g.jsonl", [json.dumps(KLOP)])
    bad_out = runner.invoke(app, ["import", "openspiel", str(src), "-o", str(tmp_path / "x.txt")])
    assert bad_out.exit_code == 2


def test_stdout_output_and_bom(tmp_path: Path) -> None:
    src = tmp_path / "bom.jsonl"
    src.write_bytes(b"\xef\xbb\xbf" + json.dumps(KLOP).encode() + b"\n")
    result = CliRunner().invoke(app, ["import", "openspiel", str(src), "-o", "-", "-q"])
    assert result.exit_code == 0, result.output
    session = SessionAdapter.validate_json(result.stdout.strip())
    assert session.hands[0].actions[3].type == "bid"


def test_import_lines_keeps_illegal_actions() -> None:
    # klop; player 0 leads; player 1 plays a card from the talon (not in his hand at all)
    from tarock_logs.tools.importers.openspiel import deal_ids_from_seed

    hands, talon = deal_ids_from_seed(1791095845, 4)
    ser = "\n".join(map(str, [1791095845, 0, 0, 0, 1, hands[0][0], talon[0]]))
    (item,) = import_lines([json.dumps({"players": 4, "serialized": ser})], name="x.jsonl")
    assert item.session is not None and not item.errors
    last = item.session.hands[0].actions[-1]
    assert last.type == "play" and last.seat == 1
