"""Issue 33, item 6: the Tournament page's numbers, cross-table and printable standings; a
session finding opening its score sheet; the what-if re-score on the Audit page."""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path

import pytest

from dashboard import view_model as vm
from tarock_logs.log.reader import read_sessions
from tarock_logs.rules import get_engine
from tarock_logs.store.read.queries import connect_reader
from tests.dashboard.dash_helpers import DashDB
from tests.dashboard.test_apptest import _open, _shown

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "tournament"
MANIFEST = ROOT / "sample_logs" / "disputed" / "disputes.manifest"
PLANTED = json.loads(MANIFEST.read_text(encoding="utf-8")) if MANIFEST.is_file() else []


def _sample() -> tuple[str, str, dict[tuple[str, int], tuple[str, set[str]]]]:
    """The sample tournament's id, game and, per (player name, round), the table and the
    names of the others at it, read from the logs themselves."""
    sessions = read_sessions([SAMPLE])
    met: dict[tuple[str, int], tuple[str, set[str]]] = {}
    for s in sessions:
        names = {p.name or p.id for p in s.players}
        assert s.event is not None and s.event.round is not None
        for n in names:
            met[(n, s.event.round)] = (str(s.event.table), names - {n})
    ev = sessions[0].event
    assert ev is not None and ev.tournament
    return ev.tournament, sessions[0].game, met


#: how each table of the pages is told apart: a column only it has (English, Slovenian)
COLUMN = {
    "cross_table": ("opponents", "nasprotniki"),
    "ranking": ("deviation", "odstopanje"),
    "tables": ("table average", "povprečje mize"),
    "session_findings": ("finding",),
}


def _frame(at, key):  # type: ignore[no-untyped-def]
    return next(d.value for d in at.dataframe if set(COLUMN[key]) & set(d.value.columns))


def test_the_cross_table_says_who_met_whom_at_which_table_in_every_round(
    app_env: DashDB,
) -> None:
    tid, game, met = _sample()
    at = _open("app_pages/tournament.py", tournament=tid)
    cross = _frame(at, "cross_table")
    assert list(cross.columns) == [
        "rank", "player", "round", "table", "opponents", "placement points",
    ]  # fmt: skip
    seen = {(r["player"], int(r["round"])): r for r in cross.to_dict("records")}
    assert set(seen) == set(met)  # every player, every round, by name
    for key, (table, others) in met.items():
        row = seen[key]
        assert row["table"] == table
        assert set(row["opponents"].split(", ")) == others
        assert re.fullmatch(r"\d+(\.\d)?", row["placement points"]), row  # 4, not 4.00
    # the placement points are the ranking's: each player's rounds add up to their total
    ranking = _frame(at, "ranking")
    per_player: dict[str, float] = defaultdict(float)
    for r in cross.to_dict("records"):
        per_player[r["player"]] += float(r["placement points"])
    for r in ranking.to_dict("records"):
        assert float(r["placement points"]) == per_player[r["player"]]
        assert not r["placement points"].endswith(".00")
    # the game by its name, no internal ids on the page
    caption = _shown("\n".join(c.value for c in at.caption))
    assert vm.game_name(game, "en") in caption and f"{game} ·" not in caption
    assert "id" not in ranking.columns and "seat" not in ranking.columns
    assert not any(re.fullmatch(r"p\d\d", str(v)) for v in ranking["player"])


def test_the_tournament_page_writes_numbers_in_the_pages_language(app_env: DashDB) -> None:
    tid, _, _ = _sample()
    at = _open("app_pages/tournament.py", tournament=tid, lang="sl")
    cross = _frame(at, "cross_table")
    assert "nasprotniki" in cross.columns
    tables = _frame(at, "tables")
    averages = [v for v in tables["povprečje mize"] if v != "—"]
    assert any("," in v for v in averages) and not any("." in v for v in averages)
    assert at.get("download_button")[0].proto.label == "Prenesi razvrstitev za tisk (HTML)"


def test_the_printable_standings_hold_the_ranking_and_the_cross_table_in_the_language(
    app_env: DashDB,
) -> None:
    tid, _, met = _sample()
    con = connect_reader(app_env.path)
    try:
        report = vm.tournament_report(con.cursor(), tid)
    finally:
        con.close()
    assert report is not None
    html = vm.standings_html(report, lang="de")
    assert html.startswith("<!DOCTYPE html>") and '<html lang="de">' in html
    assert "Endwertung" in html and "Kreuztabelle" in html and "@page { size: A4" in html
    # the ranking in order, by name
    order = [s["name"] for s in report["tournament"]["standings"]]
    at = [html.index(f"<td>{n}</td>") for n in order]
    assert at == sorted(at)
    assert ".00" not in html
    # every round of every player in the cross-table, with their opponents
    for (name, _rnd), (_table, others) in met.items():
        assert name in html and all(o in html for o in others)
    # names from the logs are escaped, and renamed when masked
    evil = json.loads(json.dumps(report))
    evil["tournament"]["standings"][0]["name"] = "<script>alert(1)</script> & Co"
    page = vm.standings_html(evil, lang="en")
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;" in page
    masked = vm.standings_html(report, lambda n: "X" + str(len(n)), lang="en")
    assert order[0] not in masked


def test_the_tournament_page_offers_the_printable_standings(app_env: DashDB) -> None:
    tid, _, _ = _sample()
    at = _open("app_pages/tournament.py", tournament=tid)
    (button,) = at.get("download_button")
    assert button.proto.label == "Download the printable standings (HTML)"


@pytest.mark.skipif(not PLANTED, reason="no disputed samples")
def test_picking_a_session_finding_opens_its_score_sheet(app_env: DashDB) -> None:
    at = _open("app_pages/audit.py")
    findings = _frame(at, "session_findings")
    (p,) = [p for p in PLANTED if p["kind"] == "wrong_score_item"]
    row = int(findings.index[findings["where"] == p["session"]][0])
    assert at.selectbox(key="audit_session").value is None
    at.session_state["session_findings"] = {"selection": {"rows": [row], "columns": []}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.selectbox(key="audit_session").value == p["session"]
    assert at.query_params["session"] in (p["session"], [p["session"]])
    sheet = next(d.value for d in at.dataframe if "" in d.value.columns)
    hand = sheet[sheet[""] == f"hand {p['hand']}"].iloc[0]
    assert any(str(v).startswith("✖") for v in hand.values)  # the differing cell marked


def _first_hand(db: DashDB, session: str) -> str:
    con = connect_reader(db.path)
    try:
        rows = con.execute(
            "SELECT hand_id FROM hands WHERE session_id = ? ORDER BY number LIMIT 1", [session]
        ).fetchall()
    finally:
        con.close()
    return str(rows[0][0])


def _whatif_items(at):  # type: ignore[no-untyped-def]
    return next(d.value for d in at.dataframe if "what-if" in d.value.columns)


def test_a_what_if_under_another_ruleset_shows_the_items_that_change(app_env: DashDB) -> None:
    tid, game, _ = _sample()
    engine = get_engine(game)
    assert engine is not None and len(engine.rulesets) > 1
    hand = _first_hand(app_env, f"{tid}-r1-A")
    at = _open("app_pages/audit.py", hand=hand)
    stored = at.selectbox(key="whatif_ruleset").value
    other = next(r for r in engine.rulesets if r != stored)
    assert not any("what-if" in d.value.columns for d in at.dataframe)  # nothing asked yet
    at.selectbox(key="whatif_ruleset").set_value(other).run()
    assert not at.exception, [e.value for e in at.exception]
    items = _whatif_items(at)
    changed = items[items["differs"] == "✖"]
    assert len(changed) > 0
    assert any("score items change" in _shown(w.value) for w in at.warning)
    # a changed line: the stored value against the what-if's, its change their difference
    for r in changed.to_dict("records"):
        stored_v = 0 if r["stored"] == "—" else int(r["stored"])
        new_v = 0 if r["what-if"] == "—" else int(r["what-if"])
        assert int(r["change"]) == new_v - stored_v != 0
    # the session re-scored too, and the store untouched: the stored score is still shown
    assert at.selectbox(key="whatif_ruleset").value == other


def test_a_what_if_with_one_option_changed_shows_a_difference_item(app_env: DashDB) -> None:
    tid, game, _ = _sample()
    hand = _first_hand(app_env, f"{tid}-r1-A")
    at = _open("app_pages/audit.py", hand=hand)
    ruleset = at.selectbox(key="whatif_ruleset").value
    options = vm.what_if_options(game, ruleset)
    # an option whose other value (from another ruleset of the game) re-scores this hand
    option = next(
        o for o, v in options.items()
        if isinstance(v, str) and len(vm.what_if_values(game, o)) > 1
        and any(r["differs"] for r in _items(app_env, hand, game, ruleset, o, v))
    )  # fmt: skip
    at.selectbox(key="whatif_option").set_value(option).run()
    assert not at.exception, [e.value for e in at.exception]
    items = _whatif_items(at)
    assert (items["differs"] == "✖").any()
    # yes/no option back to the ruleset's own value: no what-if asked
    flag = next(o for o, v in options.items() if isinstance(v, bool))
    at.selectbox(key="whatif_option").set_value(flag).run()
    at.toggle(key=f"whatif_value_{flag}").set_value(options[flag]).run()
    assert not any("what-if" in d.value.columns for d in at.dataframe)


def _items(
    db: DashDB, hand: str, game: str, ruleset: str, option: str, current: object
) -> list[dict[str, object]]:
    """The what-if's items with ``option`` set as the page sets it first: the first other
    value the game's rulesets give it."""
    value = next(v for v in vm.what_if_values(game, option) if v != current)
    con = connect_reader(db.path)
    try:
        result = vm.what_if(con.cursor(), hand, ruleset, option, value)
    finally:
        con.close()
    assert result is not None
    return list(result["items"])


@pytest.mark.skipif(not PLANTED, reason="no disputed samples")
def test_the_score_sheet_speaks_the_pages_language(app_env: DashDB) -> None:
    (p,) = [p for p in PLANTED if p["kind"] == "wrong_score_item"]
    at = _open("app_pages/audit.py", session=p["session"], lang="sl")
    sheet = next(d.value for d in at.dataframe if "" in d.value.columns)
    labels = list(sheet[""])
    assert f"igra {p['hand']}" in labels and "seštevek seje (zapisan)" in labels
    assert not any(str(x).startswith(("hand ", "session total")) for x in labels)
