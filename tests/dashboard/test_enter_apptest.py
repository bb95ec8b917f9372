"""The ``enter`` page in Streamlit's AppTest (no browser): it works without a database, the
table's game decides the deal, pasted tokens are dealt with their problems said, and
``tarock dashboard --entry-dir`` hands the folder over (and then needs no database)."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.entry_model import Entry
from tarock_logs.cli import dashboard as cli_dashboard

APP = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


@pytest.fixture()
def at(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AppTest:
    monkeypatch.setenv("TAROCK_DB", str(tmp_path / "no.duckdb"))
    monkeypatch.setenv("TAROCK_ENTRY_DIR", str(tmp_path / "entered"))
    app = AppTest.from_file(str(APP), default_timeout=60)
    app.run()
    app.switch_page("app_pages/enter.py")
    app.run()
    assert not app.exception
    return app


def _status(at: AppTest) -> str:
    return next(c.value for c in at.caption if "cards dealt" in c.value)


def test_the_page_opens_without_a_database_and_deals_by_pasted_tokens(at: AppTest) -> None:
    assert [t.value for t in at.title] == ["Enter a hand"]
    assert _status(at) == "0 of 54 cards dealt · actions entered: 0"
    at.text_input(key="e_paste").input("pagat škis mond ♥K ZZ").run()
    assert _status(at) == "3 of 54 cards dealt · actions entered: 0"
    assert any("ZZ" in e.value and "not a card" in e.value for e in at.error)
    entry = at.session_state["entry"]
    assert isinstance(entry, Entry) and entry.hands[0] == ["T1", "T22", "T21"]
    assert "HK" in entry.remaining()  # '♥K' is no token: said, not dealt


def test_the_game_chosen_decides_the_pack_and_the_deal(at: AppTest) -> None:
    at.selectbox(key="e_game").select("zwanzigerrufen").run()
    assert not at.exception
    entry = at.session_state["entry"]
    assert entry.game == "zwanzigerrufen" and [t[2] for t in entry.targets()] == [10] * 4
    assert _status(at) == "0 of 40 cards dealt · actions entered: 0"
    at.text_input(key="e_player_0").input("Anna Huber").run()
    assert at.session_state["entry"].players[0] == "Anna Huber"


def test_the_dashboard_command_passes_the_entry_folder_and_needs_no_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    argv = cli_dashboard.streamlit_argv(tmp_path / "t.duckdb", 8600, "127.0.0.1", tmp_path)
    assert argv[-2:] == ["--entry-dir", str(tmp_path)]
    seen: dict[str, object] = {}

    def fake_exec(path: str, args: list[str], env: dict[str, str]) -> None:
        seen.update(path=path, args=args, env=env)

    monkeypatch.setattr(cli_dashboard.os, "execve", fake_exec)
    from typer.testing import CliRunner

    from tarock_logs.cli import app

    r = CliRunner().invoke(app, ["dashboard", "--db", str(tmp_path / "none.duckdb"),
                                 "--entry-dir", str(tmp_path / "in")])  # fmt: skip
    assert r.exit_code == 0, r.output
    assert seen["env"]["TAROCK_ENTRY_DIR"] == str((tmp_path / "in").resolve())  # type: ignore[index]
    r = CliRunner().invoke(app, ["dashboard", "--db", str(tmp_path / "none.duckdb")])
    assert r.exit_code == 2 and "no database" in r.output
