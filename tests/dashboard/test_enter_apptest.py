"""The ``enter`` page in Streamlit's AppTest (no browser): it works without a database, the
table's game decides the deal, pasted tokens are dealt with their problems said, and
``tarock dashboard --entry-dir`` hands the folder over (and then needs no database); a card
the rules forbid is recorded only on a second tap, the complete deal folds away, the talon's
groups show their cards (red suits red), and the event fields go into the log."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from dashboard.entry_model import Entry
from tarock_logs.cli import dashboard as cli_dashboard
from tarock_logs.report import text

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


def _b1_up_to_first_play() -> Entry:
    """B.1 dealt and entered up to Ana's lead (♠K): Bojan to play, ♠J the only legal card."""
    from tests.dashboard.test_enter_model import b1, dealt_b1, enter_actions

    e = dealt_b1()
    acts = b1().hands[0].actions
    first_play = next(i for i, a in enumerate(acts) if a.type == "play")
    enter_actions(e, acts[: first_play + 1])
    return e


def test_record_anyway_asks_first_and_records_on_the_second_tap(at: AppTest) -> None:
    e = _b1_up_to_first_play()
    n = len(e.actions)
    at.session_state["entry"] = e
    at.run()
    bad = [b for b in at.button if str(b.key).startswith("e_choice_bad__")]
    assert bad, "no card offered under 'Record anyway'"
    assert not [b for b in at.button if b.key == "e_confirm_bad_yes"]
    bad[0].click().run()
    assert len(at.session_state["entry"].actions) == n  # the first tap only asks
    assert any("although the rules forbid it here" in w.value for w in at.warning)
    next(b for b in at.button if b.key == "e_confirm_bad_no").click().run()
    assert len(at.session_state["entry"].actions) == n  # cancelled: nothing recorded
    assert not [b for b in at.button if b.key == "e_confirm_bad_yes"]
    next(b for b in at.button if str(b.key).startswith("e_choice_bad__")).click().run()
    next(b for b in at.button if b.key == "e_confirm_bad_yes").click().run()
    assert not at.exception
    entry = at.session_state["entry"]
    assert len(entry.actions) == n + 1
    assert not entry.verdicts()[-1].legal
    assert any("ILLEGAL" in x.value for x in at.error)


def test_the_complete_deal_folds_away_and_the_actions_come_first(at: AppTest) -> None:
    from tests.dashboard.test_enter_model import dealt_b1

    at.session_state["entry"] = dealt_b1()
    at.run()
    assert not [b for b in at.button if str(b.key).startswith("e_pack_")]
    deal = [x for x in at.expander if x.label.startswith("The deal")]
    assert deal and "Ana Kos 12/12" in deal[0].label
    assert [b for b in at.button if str(b.key).startswith("e_choice__")]  # the bids


def test_a_folded_section_is_drawn_only_once_opened(at: AppTest) -> None:
    """The complete deal, the list of verdicts and the two forms draw what they hold only
    while open (Streamlit's browser side draws the whole page at every click): the
    same content once opened, the dealt cards locked after the first action."""
    from tests.dashboard.test_enter_model import b1, dealt_b1, enter_actions

    e = dealt_b1()
    enter_actions(e, b1().hands[0].actions[:4])
    at.session_state["entry"] = e
    at.run()
    folded = ("e_dealt_", "e_free_", "e_irr_")
    keys = [str(w.key) for w in (*at.button, *at.text_input, *at.selectbox)]
    assert not [k for k in keys if k.startswith(folded)], keys
    assert not at.text  # the verdicts' lines
    labels = [x.label for x in at.expander]
    assert any(x.startswith("The deal") for x in labels) and len(labels) >= 5, labels
    for key in ("e_x_deal", "e_x_verdicts", "e_x_free", "e_x_irr"):
        at.session_state[key] = True  # (what a click on its line does)
    at.run()
    assert not at.exception
    dealt = [b for b in at.button if str(b.key).startswith("e_dealt_")]
    assert len(dealt) == 54 and all(b.disabled for b in dealt)  # taken back only before
    assert len(at.text) == 4 and at.text[0].value.startswith("0. ")
    assert at.text_input(key="e_free_value") and at.text_input(key="e_irr_text")


def test_the_talon_groups_are_shown_as_cards_and_red_suits_are_red(at: AppTest) -> None:
    from tests.dashboard.test_enter_model import b1, dealt_b1, enter_actions

    e = dealt_b1()
    acts = b1().hands[0].actions
    talon = next(i for i, a in enumerate(acts) if a.type == "talon")
    enter_actions(e, acts[:talon])
    at.session_state["entry"] = e
    at.run()
    groups = e.state_view().get("talon_groups")
    assert groups and len(groups) == 2  # tri: two groups of three
    takes = [b for b in at.button if str(b.key).startswith("e_choice__")]
    assert len(takes) == 2
    for b, g in zip(takes, groups, strict=True):
        assert b.label.startswith("takes talon group")
        for c in g:  # every card of the group on its button, hearts and diamonds in red
            said = text.card_text(c, "slovenian")
            assert said in b.label
            if c[0] in "HD":
                assert f":red[{said}]" in b.label
    # the two groups drawn as cards (and the cards of the seat to move)
    assert len(at.get("image")) >= 3
    assert [c.value for c in at.caption if c.value.startswith("group ")] == ["group 0", "group 1"]


def test_the_event_round_table_and_date_go_into_the_log(at: AppTest) -> None:
    at.text_input(key="e_ev_name").input("Club cup").run()
    at.number_input(key="e_ev_round").set_value(2).run()
    at.text_input(key="e_ev_table").input("B").run()
    at.date_input(key="e_ev_date").set_value(dt.date(2026, 12, 6)).run()
    assert not at.exception
    doc = at.session_state["entry"].session_doc()
    assert doc["event"] == {"name": "Club cup", "date": "2026-12-06", "round": 2, "table": "B"}
