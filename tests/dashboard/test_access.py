"""Roles (issue 36): the public view masks names on the server and has no hand entry; a
referee logs in with the referees file and sees names and the entry page."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tarock_logs.cli.dashboard import default_access
from tarock_logs.cli.referees import hash_password
from tarock_logs.store.pseudonyms import GENERA, pseudonym
from tarock_logs.store.read.queries import connect_reader, pseudonym_key
from tests.dashboard.dash_helpers import APP, DashDB

PASSWORD = "table-7-referee"


@functools.cache
def _hashed() -> str:
    """:data:`PASSWORD`'s bcrypt hash, made once (≈ 0.3 s of CPU each: the referees files of
    the tests differ in nothing else)."""
    return hash_password(PASSWORD)


def referees_file(path: Path) -> Path:
    import yaml

    path.write_text(
        yaml.safe_dump(
            {
                "cookie": {"name": "tarock_referee", "key": "k" * 64, "expiry_days": 1},
                "credentials": {
                    "usernames": {
                        "ana": {
                            "name": "Ana Referee",
                            "password": _hashed(),
                            "email": "ana@referees.invalid",
                        }
                    }
                },
            }
        )
    )
    return path


@pytest.fixture
def public(app_env: DashDB, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> DashDB:
    monkeypatch.setenv("TAROCK_ACCESS", "public")
    monkeypatch.setenv("TAROCK_USERS", str(referees_file(tmp_path / "referees.yaml")))
    monkeypatch.setenv("TAROCK_ENTRY_DIR", str(tmp_path / "entries"))
    return app_env


def _players(at: AppTest) -> set[str]:
    at.switch_page("app_pages/players.py")
    at.query_params["game"] = "slovenian"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return set(at.dataframe[0].value["player"])


def _key(db: DashDB) -> str:
    con = connect_reader(db.path)
    try:
        return pseudonym_key(con)
    finally:
        con.close()


#: a pseudonym: a Latin genus and three digits (:mod:`tarock_logs.store.pseudonyms`)
PSEUDONYM = re.compile(rf"(?:{'|'.join(GENERA)}) \d{{3}}")


def test_a_public_visitor_sees_pseudonyms_and_cannot_unmask_them(public: DashDB) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    assert not at.exception
    shown = _players(at)
    assert shown and all(PSEUDONYM.fullmatch(name) for name in shown), shown
    assert not [t for t in at.toggle if t.key == "mask_names"]  # no toggle to unmask
    key = _key(public)
    assert pseudonym("Ana Kos", key) != pseudonym("Ana Kos")  # keyed with the store's secret


def test_the_public_view_has_no_entry_page(public: DashDB) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    with pytest.raises(ValueError, match="Could not find a navigation page"):
        at.switch_page("app_pages/enter.py")  # not among the public view's pages


def test_a_referee_who_logs_in_sees_names_and_the_entry_page(public: DashDB) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    masked = _players(at)
    user = next(t for t in at.text_input if t.label == "User name")
    pw = next(t for t in at.text_input if t.label == "Password")
    user.input("ana")
    pw.input(PASSWORD)
    next(b for b in at.button if b.label == "Log in").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["authentication_status"] is True
    named = _players(at)
    assert named and not named & masked
    assert any(t.key == "mask_names" for t in at.toggle)
    at.switch_page("app_pages/enter.py")  # the referee's pages include the entry
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(s.value == "Entries waiting for acceptance" for s in at.subheader)


def test_a_submitted_login_whose_press_was_lost_logs_in_and_logs_out(public: DashDB) -> None:
    """A run that replaced the submit's run (docs/dashboard.md) sees the form's submitted
    values but not the press: the values are a submit, and log the referee in. The referee
    logs out with one press."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    # the server has the form's submitted values (a form's values reach it only with a
    # submit), in a run without the press
    at.session_state["referee_login_user"] = "ana"
    at.session_state["referee_login_password"] = PASSWORD
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["authentication_status"] is True
    assert not [t for t in at.text_input if t.label == "Password"]
    next(b for b in at.button if b.label == "Log out").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["authentication_status"] is not True
    at.run()  # (in a browser, the run the cookie's deletion asks for)
    assert [t for t in at.text_input if t.label == "Password"]  # the form again


def test_a_wrong_password_is_refused(public: DashDB) -> None:
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    next(t for t in at.text_input if t.label == "User name").input("ana")
    next(t for t in at.text_input if t.label == "Password").input("guess-guess")
    next(b for b in at.button if b.label == "Log in").click().run()
    assert at.session_state["authentication_status"] is not True
    assert any("wrong" in e.value for e in at.error)
    at.run()  # a later run: still refused (checked once, not in every run)
    assert at.session_state["authentication_status"] is not True
    assert any("wrong" in e.value for e in at.error)


@pytest.mark.parametrize(
    "host, mode",
    [("127.0.0.1", "local"), ("::1", "local"), ("localhost", "local"),
     ("0.0.0.0", "public"), ("192.168.1.5", "public"), ("club.example", "public")],
)  # fmt: skip
def test_only_a_loopback_server_is_local_by_default(host: str, mode: str) -> None:
    assert default_access(host) == mode


def test_referees_add_writes_a_hash_never_the_password(tmp_path: Path) -> None:
    import bcrypt
    import yaml
    from typer.testing import CliRunner

    from tarock_logs.cli import app

    users = tmp_path / "referees.yaml"
    runner = CliRunner()
    r = runner.invoke(app, ["referees", "add", "ana", "--users", str(users), "--name", "Ana"],
                      env={"TAROCK_REFEREE_PASSWORD": PASSWORD})  # fmt: skip
    assert r.exit_code == 0, r.output
    text = users.read_text()
    assert PASSWORD not in text and users.stat().st_mode & 0o077 == 0
    entry = yaml.safe_load(text)["credentials"]["usernames"]["ana"]
    assert bcrypt.checkpw(PASSWORD.encode(), entry["password"].encode())
    short = runner.invoke(app, ["referees", "add", "bo", "--users", str(users)],
                          env={"TAROCK_REFEREE_PASSWORD": "short"})  # fmt: skip
    assert short.exit_code == 2
    gone = runner.invoke(app, ["referees", "remove", "ana", "--users", str(users)])
    assert (
        gone.exit_code == 0
        and "ana" not in yaml.safe_load(users.read_text())["credentials"]["usernames"]
    )


def test_a_public_visitor_cannot_read_the_order_of_the_real_names(public: DashDB) -> None:
    """Listed by player, the public view orders its rows and the player picker by the
    pseudonyms it shows: in the order of the hidden names, a tournament's public list of
    players would unmask every pseudonym."""
    at = AppTest.from_file(str(APP), default_timeout=60)
    at.run()
    at.switch_page("app_pages/players.py")
    at.query_params["game"] = "slovenian"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    picker = at.selectbox(key="players_player")
    labels = list(picker.options)
    assert len(labels) >= 3 and labels == sorted(labels), labels
    # the samples' players are more than a page: the sort box, on the player column
    (sort,) = [s for s in at.selectbox if s.key and s.key.endswith("_sort")][:1]
    assert "player" in sort.options or sort.value == "player"
    sort.set_value("player").run()
    assert not at.exception, [e.value for e in at.exception]
    shown = list(at.dataframe[0].value["player"])
    assert len(shown) >= 3 and all(PSEUDONYM.fullmatch(n) for n in shown), shown
    assert shown == sorted(shown), shown
    # a game whose players fit on one page (no sort box): the rows come in the order of
    # the pseudonyms too, not in the query's order of the hidden names
    for game in ("zwanzigerrufen", "royal"):
        at.query_params["game"] = game
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert not [s for s in at.selectbox if s.key == "t_players_sort"]
        shown = list(at.dataframe[0].value["player"])
        assert len(shown) >= 3 and all(PSEUDONYM.fullmatch(n) for n in shown), shown
        assert shown == sorted(shown), (game, shown)
