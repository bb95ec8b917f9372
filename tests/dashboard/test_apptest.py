"""Every dashboard page run headless with Streamlit's AppTest against a real ingested database."""

from __future__ import annotations

import json
import logging
import re
import shutil
from collections.abc import Callable
from typing import Any

import pytest
from streamlit.runtime.media_file_manager import MediaFileManager
from streamlit.testing.v1 import AppTest

from dashboard import view_model as vm
from tarock_logs.report import text
from tarock_logs.store.pseudonyms import pseudonym
from tarock_logs.store.read.queries import connect_reader, pseudonym_key
from tests.dashboard.dash_helpers import APP, ROOT, DashDB, hand_ids, ingest

TIMEOUT = 60


def _app(**query: str) -> AppTest:
    at = AppTest.from_file(str(APP), default_timeout=TIMEOUT)
    for k, v in query.items():
        at.query_params[k] = v
    return at


def _open(page: str, **query: str) -> AppTest:
    """The app opened at ``page`` with ``query``, as a deep link opens it (the page's first
    run is the app's first: no run of the home page before it)."""
    at = _app()
    at.switch_page(page)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _shown(md: str) -> str:
    """What a Markdown element shows: log texts come escaped (``view_model.md_text``)."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", md).replace("\u2060", "")


def _texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += (
        [e.value for e in at.error]
        + [w.value for w in at.warning]
        + [s.value for s in at.subheader]
    )
    parts += (
        [t.value for t in at.title] + [s.value for s in at.success] + [i.value for i in at.info]
    )
    return _shown("\n".join(str(p) for p in parts))


def _step(at: AppTest) -> int:
    """The replay's current step (the toolbar, the action list and the URL agree on it)."""
    step = int(at.session_state["step"])
    assert at.query_params["step"] == [str(step)] or at.query_params["step"] == str(step)
    return step


def _html(at: AppTest) -> str:
    """The HTML blocks of the page (the card table) as one text."""
    return "\n".join(e.proto.body for e in at.get("html"))


def _disputed(db: DashDB) -> dict[str, object]:
    facts = hand_ids(db.path)
    return next(h for h in facts["hands"] if h["session"] == db.disputed_session)


@pytest.mark.parametrize(
    "page, title",
    [
        ("app_pages/overview.py", "tarock-logs"),
        ("app_pages/audit.py", "Audit"),
        ("app_pages/replay.py", "Replay"),
        ("app_pages/players.py", "Players"),
        ("app_pages/tournament.py", "Tournament"),
    ],
)
def test_every_page_renders_without_exception(app_env: DashDB, page: str, title: str) -> None:
    at = _open(page)
    assert at.title and at.title[0].value == title


def test_overview_counts_match_the_database(app_env: DashDB) -> None:
    at = _app()
    at.run()
    assert not at.exception
    facts = hand_ids(app_env.path)
    metrics = {m.label: m.value for m in at.metric}
    assert int(metrics["Hands"]) == len(facts["hands"])
    assert int(metrics["Hands with score differences"]) == sum(1 for h in facts["hands"] if h["nd"])
    con = connect_reader(app_env.path)
    try:  # illegal actions: the errors (a miscounted counted hand is a warning, not one)
        (errors,) = con.execute(
            "SELECT count(*) FROM hands WHERE coalesce(n_errors, n_violations) > 0"
        ).fetchall()[0]
    finally:
        con.close()
    assert int(metrics["Hands with illegal actions"]) == errors
    assert errors < sum(1 for h in facts["hands"] if h["nv"])  # the counted sample's warning


def test_without_a_database_the_app_says_how_to_make_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path
) -> None:
    monkeypatch.setenv("TAROCK_DB", str(tmp_path / "missing.duckdb"))
    at = _app()
    at.run()
    assert not at.exception
    assert "tarock ingest" in at.error[0].value


def test_audit_lists_the_disputed_hand_and_shows_its_score_difference(
    app_env: DashDB, monkeypatch: pytest.MonkeyPatch
) -> None:
    """… and renders its dispute dossier only when the download is pressed (seconds of the
    solver), a dossier that cannot be rendered then being a page that says so."""
    hand = _disputed(app_env)
    rendered: list[str] = []
    render = vm.render_dossier

    def counted(*args: Any, **kwargs: Any) -> str:
        rendered.append(kwargs.get("lang", "en"))
        return render(*args, **kwargs)

    monkeypatch.setattr(vm, "render_dossier", counted)
    deferred: dict[str, Callable[[], Any]] = {}
    add_deferred = MediaFileManager.add_deferred

    def kept(self: MediaFileManager, fn: Callable[[], Any], *args: Any, **kwargs: Any) -> str:
        file_id: str = add_deferred(self, fn, *args, **kwargs)
        deferred[file_id] = fn
        return file_id

    monkeypatch.setattr(MediaFileManager, "add_deferred", kept)
    at = _open("app_pages/audit.py")
    # the list is paged (50 hands a page): the hands with score differences first
    at.selectbox(key="audit_order").set_value("most score differences").run()
    listed = at.dataframe[0].value
    assert any(f"{app_env.disputed_session} · hand 1" == h for h in listed["session · hand"])
    at = _open("app_pages/audit.py", hand=str(hand["hand_id"]))
    assert at.selectbox(key="audit_hand").value == hand["hand_id"]
    items = next(d.value for d in at.dataframe if "differs" in d.value.columns)
    contract = items[items["item"] == "contract"].iloc[0]
    assert (contract["recorded"], contract["recomputed"], bool(contract["differs"])) == (
        15,
        10,
        True,
    )
    assert at.get("download_button"), "the dossier download is missing"
    at.run()  # (a click's run)
    assert not rendered, "the page run rendered the dossier"
    html = deferred[at.get("download_button")[0].proto.deferred_file_id]()
    assert rendered == ["en"] and html.startswith("<!DOCTYPE html>")
    assert app_env.disputed_session in html and "Dossier not available" not in html

    def fails(*args: Any, **kwargs: Any) -> str:
        raise RuntimeError("no engine <here>")

    monkeypatch.setattr(vm, "render_dossier", fails)
    at.run()
    html = deferred[at.get("download_button")[0].proto.deferred_file_id]()
    assert "<p>Dossier not available: no engine &lt;here&gt;</p>" in html


def test_audit_filter_by_kind_keeps_only_that_kind(app_env: DashDB) -> None:
    at = _open("app_pages/audit.py")
    at.multiselect(key="f_kinds").set_value(["discrepancy"]).run()
    assert not at.exception
    shown = at.dataframe[0].value if at.dataframe else None
    facts = hand_ids(app_env.path)
    assert shown is not None and len(shown) == sum(1 for h in facts["hands"] if h["nd"])
    assert (shown["score differences"] > 0).all()


def test_replay_deep_link_opens_exactly_that_hand_step_and_seat(app_env: DashDB) -> None:
    hand = _disputed(app_env)
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step="5", seat="1")
    assert at.selectbox(key="replay_hand").value == hand["hand_id"]
    assert _step(at) == 5
    assert at.selectbox(key="replay_seat").value == "1"
    assert f"Step 5 of {hand['na']}" in _texts(at)


def test_replay_says_clearly_when_the_hand_does_not_exist(app_env: DashDB) -> None:
    at = _open("app_pages/replay.py", hand="../../etc/passwd", step="3")
    assert any("no hand ../../etc/passwd in" in _shown(e.value) for e in at.error)
    assert at.selectbox(key="replay_hand").value is None  # no other hand shown instead
    assert not _html(at)


@pytest.mark.parametrize(
    "step, seat, shown", [("999", "9", "last"), ("-3", "all", 0), ("abc", "x", 0)]
)
def test_replay_says_clearly_when_the_step_does_not_exist(
    app_env: DashDB, step: str, seat: str, shown: object
) -> None:
    hand = _disputed(app_env)
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step=step, seat=seat)
    expected = int(hand["na"]) if shown == "last" else 0
    assert _step(at) == expected
    assert any(f"Step {step} does not exist in this hand" in _shown(w.value) for w in at.warning)
    assert at.selectbox(key="replay_seat").value == "all"


def test_replay_forward_and_back_move_one_action(app_env: DashDB) -> None:
    hand = _disputed(app_env)
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step="3")
    at.button(key="forward").click().run()
    assert _step(at) == 4
    at.button(key="back").click().run()
    at.button(key="back").click().run()
    assert _step(at) == 2
    assert not at.exception


def test_replay_highlights_the_offending_action_with_its_rule(app_env: DashDB) -> None:
    hand = _disputed(app_env)
    step = app_env.illegal_index + 1
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step=str(step), seat="all")
    errors = [_shown(e.value) for e in at.error]
    assert any("Illegal action" in e and "si-tournament-2021 §" in e for e in errors), errors
    # one step earlier the position is legal
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step=str(step - 1), seat="all")
    assert not any("Illegal action" in e.value for e in at.error)


def test_replay_first_problem_button_jumps_to_the_offending_step(app_env: DashDB) -> None:
    hand = _disputed(app_env)
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]))
    at.button(key="first_problem").click().run()
    assert _step(at) == app_env.illegal_index + 1


def test_players_opens_on_the_most_played_game_and_never_mixes_games(app_env: DashDB) -> None:
    con = connect_reader(app_env.path)
    try:
        by_game = dict(
            con.execute(
                "SELECT CAST(game AS VARCHAR), list(DISTINCT contract) FROM hands "
                "WHERE contract IS NOT NULL GROUP BY 1"
            ).fetchall()
        )
        top = con.execute(
            "SELECT CAST(game AS VARCHAR) FROM hands GROUP BY 1 ORDER BY count(*) DESC LIMIT 1"
        ).fetchall()[0][0]
    finally:
        con.close()
    at = _open("app_pages/players.py")
    assert at.selectbox(key="players_game").value == top
    for game in ("slovenian", "zwanzigerrufen"):
        at = _open("app_pages/players.py", game=game, tab="Contracts")
        contracts = next(d.value for d in at.dataframe if "contract" in d.value.columns)
        words = {text.contract_name(c, game) for c in by_game[game]}
        assert set(contracts["contract"]) == words  # that game's contracts and no other's


def test_players_filters_and_the_selected_player_are_in_the_url(app_env: DashDB) -> None:
    at = _open("app_pages/players.py", game="royal", player="kati.nagy")
    assert at.selectbox(key="players_game").value == "royal"
    assert at.selectbox(key="players_player").value == "kati.nagy"
    per_player = at.dataframe[0].value
    assert list(per_player["player"]) == ["Kati Nagy"]
    at.selectbox(key="players_player").set_value("marta.szabo").run()
    assert at.query_params["player"] in ("marta.szabo", ["marta.szabo"])
    assert list(at.dataframe[0].value["player"]) == ["Márta Szabó"]
    at.selectbox(key="players_game").set_value("zwanzigerrufen").run()
    assert at.query_params["game"] in ("zwanzigerrufen", ["zwanzigerrufen"])


#: the Players page's tabs per game (only the tab shown runs: ``?tab=`` opens one)
PLAYER_TABS = {
    "slovenian": ["Players", "Score over time", "Roles", "Contracts", "Bonuses", "Kontras",
                  "Partners", "Head to head", "Ratings", "Card play"],
    "royal": ["Players", "Score over time", "Roles", "Schlemme", "Matches and pairs", "Kontras",
              "Partners", "Head to head", "Ratings", "Card play"],
}  # fmt: skip


def test_players_page_runs_only_the_tab_shown(app_env: DashDB) -> None:
    """Issue 18: a hidden tab runs none of its queries (each costs up to seconds on a large
    store); ``?tab=`` opens one, and the tab shown is what the page drew."""
    at = _open("app_pages/players.py", game="slovenian")
    cols = [set(d.value.columns) for d in at.dataframe]
    assert any("as declarer" in c for c in cols)
    assert not any("with" in c for c in cols)  # the partners tab did not run
    at = _open("app_pages/players.py", game="slovenian", tab="Partners")
    cols = [set(d.value.columns) for d in at.dataframe]
    assert any("with" in c for c in cols)
    assert not any("as declarer" in c for c in cols)


def test_players_royal_tables_have_roles_schlemme_and_standings(app_env: DashDB) -> None:
    at = _open("app_pages/players.py", game="royal", tab="Roles")
    roles = next(d.value for d in at.dataframe if "role" in d.value.columns)
    assert set(roles["role"]) == {"attacker", "defender"}
    at = _open("app_pages/players.py", game="royal", tab="Schlemme")
    schlemm = next(d.value for d in at.dataframe if "Schlemm" in d.value.columns)
    assert schlemm["made"].astype(int).sum() > 0
    at = _open("app_pages/players.py", game="royal", tab="Matches and pairs")
    matches = next(d.value for d in at.dataframe if "match points" in d.value.columns)
    sample = matches[matches["match"] == "royal-match-example"]  # sample_logs/royal (the
    # score sheets of sample_logs/scoresheets/royal are matches too)
    assert sorted(sample["match points"].astype(int)) == [11, 21]


def test_name_masking_hides_real_names_on_the_players_page(app_env: DashDB) -> None:
    at = _open("app_pages/players.py", game="slovenian")
    rows = list(at.dataframe[0].value["player"])
    names = set(rows)
    at.toggle(key="mask_names").set_value(True).run()
    assert not at.exception
    shown_rows = list(at.dataframe[0].value["player"])
    shown = set(shown_rows)
    assert not names & shown
    con = connect_reader(app_env.path)
    try:
        key = pseudonym_key(con)
        every = [
            r[0] for r in con.execute("SELECT name FROM players WHERE name IS NOT NULL").fetchall()
        ]
    finally:
        con.close()
    # stable: the same name, the same pseudonym (a page sorted by player now holds the first
    # pseudonyms, not the pseudonyms of the first names: tests/dashboard/test_access.py)
    assert len(shown_rows) == len(rows) and shown <= {pseudonym(n, key) for n in every}


def test_tournament_page_shows_recorded_beside_recomputed(app_env: DashDB) -> None:
    at = _open("app_pages/tournament.py", tournament="dash-cup")
    assert at.selectbox(key="tournament").value == "dash-cup"
    tables = next(d.value for d in at.dataframe if "recomputed score" in d.value.columns)
    assert {"recorded score", "recomputed score", "recorded points", "recomputed points"} <= set(
        tables.columns
    )


def test_an_ingest_publishing_a_new_file_is_picked_up_without_errors(
    dash_db: DashDB, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "live.duckdb"
    shutil.copyfile(dash_db.path, db)
    monkeypatch.setenv("TAROCK_DB", str(db))
    at = _app()
    at.run()
    before = int(next(m.value for m in at.metric if m.label == "Hands"))
    sess = json.loads((dash_db.logs / "dash-disputed.json").read_text(encoding="utf-8"))
    sess["id"] = "dash-live"
    for i, p in enumerate(sess["players"]):
        p["id"] = f"live-{i}"
    extra = tmp_path / "more"
    extra.mkdir()
    (extra / "live.json").write_text(json.dumps(sess), encoding="utf-8")
    ingest(extra, db)  # the store publishes with os.replace while the app holds a connection
    at.run()
    assert not at.exception
    assert int(next(m.value for m in at.metric if m.label == "Hands")) == before + 1


# ---------------------------------------------------------------- the generated disputed samples

MANIFEST = ROOT / "sample_logs" / "disputed" / "disputes.manifest"
PLANTED = json.loads(MANIFEST.read_text(encoding="utf-8"))


def _stored_hand(db: DashDB, session: str, number: int) -> str:
    return next(
        str(h["hand_id"]) for h in hand_ids(db.path)["hands"]
        if h["session"] == session and h["number"] == number
    )  # fmt: skip


@pytest.mark.parametrize(
    "planted", [p for p in PLANTED if p.get("action_index") is not None], ids=lambda p: p["kind"]
)
def test_replay_deep_link_shows_each_planted_illegal_action(app_env: DashDB, planted: dict) -> None:
    hand = _stored_hand(app_env, planted["session"], planted["hand"])
    step = planted["action_index"] + 1
    at = _open("app_pages/replay.py", hand=hand, step=str(step), seat=str(planted["seat"]))
    assert _step(at) == step
    errors = _shown("\n".join(e.value for e in at.error))
    for code in planted["expect"]["violations"]:
        assert f"code {code}" in errors
    assert "Illegal action" in errors and "si-tournament-2021 §" in errors


@pytest.mark.parametrize(
    "planted", [p for p in PLANTED if p["kind"] == "wrong_score_item"], ids=lambda p: p["kind"]
)
def test_audit_shows_the_planted_wrong_score_item(app_env: DashDB, planted: dict) -> None:
    hand = _stored_hand(app_env, planted["session"], planted["hand"])
    at = _open("app_pages/audit.py", hand=hand)
    items = next(d.value for d in at.dataframe if "differs" in d.value.columns)
    exp = planted["expect"]
    row = items[(items["item"] == exp["item"]) & (items["differs"] == "✖ differs")].iloc[0]
    assert (row["recorded"], row["recomputed"]) == (exp["recorded"], exp["recomputed"])


@pytest.mark.parametrize(
    "planted",
    [p for p in PLANTED if p["kind"] == "wrong_placement_points"],
    ids=lambda p: p["kind"],
)
def test_tournament_page_lists_the_planted_placement_point_difference(
    app_env: DashDB, planted: dict
) -> None:
    con = connect_reader(app_env.path)
    tid = con.execute(
        "SELECT tournament FROM sessions WHERE session_id = ?", [planted["session"]]
    ).fetchall()[0][0]
    con.close()
    at = _open("app_pages/tournament.py", tournament=tid)
    diffs = next(
        d.value
        for d in at.dataframe
        if "recorded points" in d.value.columns and "table average" not in d.value.columns
    )
    # by the page's words: no item id, no seat index; the session's score sheet one click away
    assert "item" not in diffs.columns and "seat" not in diffs.columns
    assert not diffs.isin(["placement_points"]).any().any()
    assert {"round", "table", "player", "recorded points", "recomputed points"} <= set(
        diffs.columns
    )
    links = [p.proto.query_string for p in at.get("page_link")]
    assert f"session={planted['session']}" in links


def test_replay_next_hand_and_session_choice_stay_consistent(app_env: DashDB) -> None:
    session = PLANTED[0]["session"]
    first, second = _stored_hand(app_env, session, 1), _stored_hand(app_env, session, 2)
    at = _open("app_pages/replay.py", hand=first, step="7")
    assert at.selectbox(key="replay_session").value == session
    at.button(key="next_hand").click().run()
    assert at.selectbox(key="replay_hand").value == second
    assert _step(at) == 0
    assert at.query_params["hand"] == second
    sid = next(h["session"] for h in hand_ids(app_env.path)["hands"] if h["session"] != session)
    at.selectbox(key="replay_session").set_value(sid).run()
    assert not at.exception
    first_of_other = _stored_hand(app_env, sid, 1)
    assert at.selectbox(key="replay_hand").value == first_of_other


def test_one_seat_view_hides_the_other_hands_and_their_alternatives(app_env: DashDB) -> None:
    hand = _disputed(app_env)
    step = app_env.illegal_index + 1
    sess = json.loads((app_env.logs / "dash-disputed.json").read_text(encoding="utf-8"))
    actor = sess["hands"][0]["actions"][app_env.illegal_index]["seat"]
    other = (actor + 2) % 4  # another seat's view of the illegal card
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step=str(step), seat=str(other))
    assert _html(at).count("cards, hidden") == 3  # the three other seats
    assert not any("Legal alternatives" in e.label for e in at.expander)
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step=str(step), seat="all")
    assert "cards, hidden" not in _html(at)
    assert any("Legal alternatives" in e.label for e in at.expander)


def test_autoplay_moves_one_step_per_run_and_stops_at_the_end(app_env: DashDB) -> None:
    hand = _disputed(app_env)
    last = int(hand["na"])
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step=str(last - 2))
    at.toggle(key="autoplay").set_value(True).run()
    assert _step(at) == last - 1
    at.run()
    assert _step(at) == last
    at.run()
    assert _step(at) == last
    assert not at.exception


def test_following_a_player_goes_to_their_next_hand_in_another_session(app_env: DashDB) -> None:
    con = connect_reader(app_env.path)
    try:  # a player who sat in at least two sessions, and the first two of their hands
        (pid,) = con.execute(
            "SELECT player_id FROM session_players GROUP BY player_id "
            "HAVING count(DISTINCT session_id) > 1 ORDER BY player_id LIMIT 1"
        ).fetchall()[0]
        rows = con.execute(
            "SELECT h.hand_id, h.session_id FROM hands h JOIN sessions s USING (session_id) "
            "JOIN session_players sp ON sp.session_id = h.session_id AND sp.player_id = ? "
            "ORDER BY s.date NULLS LAST, s.tournament NULLS LAST, s.round NULLS LAST, "
            "s.table_name NULLS LAST, h.session_id, h.number",
            [pid],
        ).fetchall()
        last_of_first = max(i for i, r in enumerate(rows) if r[1] == rows[0][1])
    finally:
        con.close()
    here, there = rows[last_of_first], rows[last_of_first + 1]
    at = _open("app_pages/replay.py", hand=here[0])
    at.selectbox(key="follow").set_value(pid).run()
    at.button(key="player_next").click().run()
    assert not at.exception
    assert at.selectbox(key="replay_session").value == there[1] != here[1]
    assert at.selectbox(key="replay_hand").value == there[0]
    assert at.selectbox(key="follow").value == pid


def test_overview_lists_rejected_records_when_there_are_some(
    dash_db: DashDB, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(ROOT / "sample_logs" / "malformed", logs)
    db = tmp_path / "rejects.duckdb"
    ingest(logs, db)
    monkeypatch.setenv("TAROCK_DB", str(db))
    at = _app()
    at.run()
    assert not at.exception
    n = int(next(m.value for m in at.metric if m.label == "Rejected records"))
    assert n > 0
    table = at.dataframe[0].value
    assert len(table) == n and table["first error code"].str.fullmatch(r"[a-z]+\.[a-z0-9_]+").all()


def test_the_end_panel_of_a_hand_that_ended_early_lists_the_cards_still_held(
    app_env: DashDB,
) -> None:
    hand = _stored_hand(app_env, "sim-slovenian-2026-r2-A", 10)  # a berač lost in trick 2
    facts = next(h for h in hand_ids(app_env.path)["hands"] if h["hand_id"] == hand)
    at = _open("app_pages/replay.py", hand=hand, step=str(facts["na"]))
    shown = _texts(at)
    assert "End of the hand" in shown and "berač" in shown and "lost" in shown
    assert "Cards still held when the hand ended" in shown
    lines = [_shown(m.value) for m in at.markdown]
    held = [s for s in lines if ": " in s and any(suit in s for suit in "♥♦♠♣")]
    assert len(held) >= 3  # the players who still held cards, each with them
    at = _open("app_pages/replay.py", hand=hand, step=str(facts["na"]), lang="sl")
    assert "Karte, ki so ostale v rokah ob koncu igre" in _texts(at)


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_players_page_logs_no_per_row_warning_and_its_tables_show_percentages_and_no_none(
    app_env: DashDB,
) -> None:
    """Every tab of the Players page of both games, opened once: its tables show no column
    name with an underscore and no None or nan (the per-player table: sample sizes and win
    rates in per cent); then with the names masked. Issue 18: nothing on the page calls
    Streamlit from polars' threads (a name masked or a term translated per row there logged
    one warning per row: 8.25 million on a 1,000,000-hand store)."""
    log = logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context")
    seen = _Records()
    log.addHandler(seen)
    try:
        for game in ("slovenian", "royal"):
            for tab in PLAYER_TABS[game]:
                at = _open("app_pages/players.py", game=game, tab=tab)
                assert not at.exception
                assert [t.label for t in at.tabs] == PLAYER_TABS[game]
                for frame in at.dataframe:
                    df = frame.value
                    assert all("_" not in c for c in df.columns), (tab, list(df.columns))
                    cells = df.astype(str).to_numpy().ravel().tolist()
                    assert "None" not in cells and "nan" not in cells
                at.toggle(key="mask_names").set_value(True).run()
                assert not at.exception
            at = _open("app_pages/players.py", game=game)
            per_player = at.dataframe[0].value
            assert {"n", "win rate"} <= set(per_player.columns)
            assert per_player["win rate"].str.fullmatch(r"\d+ %|—").all()
    finally:
        log.removeHandler(seen)
    # AppTest's own thread reads the session between runs; polars' threads are the others
    from_other_threads = [
        m for m in seen.messages if "missing ScriptRunContext" in m and "'MainThread'" not in m
    ]
    assert not from_other_threads


def test_replay_autoplay_steps_on_and_stops_at_the_first_problem(app_env: DashDB) -> None:
    """Autoplay, switched on, steps on each run of the position and switches itself off on
    arriving at a problem (an illegal action), saying so; at the end of a hand it cannot be
    switched on."""
    hand = _disputed(app_env)
    problem = app_env.illegal_index + 1
    at = _open("app_pages/replay.py", hand=str(hand["hand_id"]), step=str(problem - 2))
    assert at.selectbox(key="autoplay_speed").value == 1.0
    at.selectbox(key="autoplay_speed").set_value(0.5).run()
    at.toggle(key="autoplay").set_value(True).run()
    assert not at.exception
    for _ in range(4):  # each run of the page is one timer tick of the position fragment
        if not at.session_state["autoplay"]:
            break
        at.run()
    assert _step(at) == problem
    assert at.session_state["autoplay"] is False
    assert any("Autoplay stopped at a problem." in c.value for c in at.caption)
    at.button(key="end").click().run()
    assert at.toggle(key="autoplay").disabled
