"""The dashboard's view model (dashboard/view_model.py): what the pages show, without Streamlit."""

from __future__ import annotations

import itertools
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dashboard import view_model as vm
from dashboard.table import thirds_text
from tarock_logs.cards import PACKS
from tarock_logs.report import text
from tarock_logs.rules.base import Action
from tarock_logs.store.pseudonyms import pseudonym
from tarock_logs.store.read.queries import connect_reader
from tests.support.store_fixtures import ingest_samples, stored_hand_id


@pytest.fixture(scope="module")
def cur(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    con = connect_reader(ingest_samples(tmp_path_factory.mktemp("vm")))
    try:
        yield con.cursor()
    finally:
        con.close()


def _view(
    cur: duckdb.DuckDBPyConnection, session: str, number: int, *, engine: bool = False
) -> vm.HandView:
    view = vm.hand_view(cur, stored_hand_id(cur, session, number), engine=engine)
    assert view is not None
    return view


def test_an_unknown_hand_has_no_view(cur) -> None:
    assert vm.hand_view(cur, "0" * 64) is None


def test_phase_marks_find_bidding_and_every_trick_four_plays_apart(cur) -> None:
    view = _view(cur, "si-appendix-b1", 1)
    marks = vm.phase_marks(view)
    labels = [m[0] for m in marks]
    assert labels[0] == "deal" and labels[1] == "bidding" and labels[-1] == "end"
    tricks = [s for lbl, s in marks if lbl.startswith("trick ")]
    assert len(tricks) == 12
    assert all(b - a == 4 for a, b in itertools.pairwise(tricks))
    assert view.steps[tricks[0]].action.type == "play"
    assert view.steps[tricks[0] - 1].action.type != "play"


def test_at_the_end_every_dealt_card_is_played_or_laid_away_exactly_once(cur) -> None:
    view = _view(cur, "si-appendix-b1", 1)
    end = view.steps[-1].view
    played = vm.played_by_seat(end, len(view.players))
    assert all(len(p) == 12 for p in played)
    left_in_talon = [c for c in end["talon"] if c not in end.get("talon_taken", [])]
    everything = [c for p in played for c in p] + list(end["discards"]) + left_in_talon
    assert len(everything) == len(set(everything)) == len(PACKS["slovenian"])


def test_trick_rows_running_totals_add_up_per_side_in_fractions_of_a_point(cur) -> None:
    view = _view(cur, "si-appendix-b1", 1)
    end = view.steps[-1].view
    side = {view.declarer, view.partner}
    rows = vm.trick_rows(end, view.players, side, game=view.game)
    assert len(rows) == 12
    decl = sum(t["points"] for t in end["tricks"] if t["winner"] in side)
    opp = sum(t["points"] for t in end["tricks"]) - decl
    assert (rows[-1]["declarer side"], rows[-1]["defenders"]) == (
        thirds_text(decl),
        thirds_text(opp),
    )
    assert rows[0]["won by"] == view.players[end["tricks"][0]["winner"]]


def test_royal_tarock_counts_tricks_so_its_trick_list_adds_up_tricks_per_pair(
    tmp_path: Path,
) -> None:
    """Royal Tarock scores tricks, not card points (the seed's match sheet): its trick list has
    no points column, and the running totals are the tricks of the attacking pair (the pair
    not the dealer's) and of the defenders, ending where the end panel's count ends."""
    from tarock_logs.store.write.ingest import ingest

    db = tmp_path / "royal.duckdb"
    ingest([str(Path(__file__).resolve().parents[2] / "sample_logs" / "royal")], db=str(db))
    con = connect_reader(db)
    try:
        view = _view(con.cursor(), "royal-match-example", 1)
    finally:
        con.close()
    end = view.steps[-1].view
    side = vm.trick_sides(view, end)
    pairs = [p.get("pair") for p in view.seating]
    assert len(side) == 2 and pairs[view.dealer] not in {pairs[s] for s in side}
    for lang, points, attackers in (("en", "points", "attackers"), ("de", "Punkte", "Angreifer")):
        rows = vm.trick_rows(end, view.players, side, game=view.game, lang=lang)
        assert rows and all(points not in r for r in rows), lang
        won = sum(1 for t in end["tricks"] if t["winner"] in side)
        assert rows[-1][attackers] == str(won), lang
    cp = view.card_points or {}
    assert (int(rows[-1]["Angreifer"]), len(rows) - int(rows[-1]["Angreifer"])) == (
        cp["tricks_attackers"],
        cp["tricks_defenders"],
    )


def test_card_points_in_thirds_read_as_fractions() -> None:
    assert [thirds_text(n) for n in (15, 16, 17, 1, 0, -4)] == ["5", "5⅓", "5⅔", "⅓", "0", "-1⅓"]


def test_the_hand_view_links_to_the_neighbouring_hands_of_its_session(cur) -> None:
    ids = [
        r[0]
        for r in cur.execute(
            "SELECT hand_id FROM hands WHERE session_id = 'sim-slovenian-2027-r1-A' ORDER BY number"
        ).fetchall()
    ]
    middle = vm.hand_view(cur, ids[1])
    assert middle is not None
    assert (middle.prev_hand, middle.next_hand) == (ids[0], ids[2])
    first = vm.hand_view(cur, ids[0])
    assert first is not None and first.prev_hand is None


def test_first_problem_step_is_right_after_the_planted_illegal_card(cur) -> None:
    view = _view(cur, "sim-slovenian-2027-r1-A", 2)
    assert view.first_problem_step() == 22 + 1
    bad = view.steps[23]
    assert [v.code for v in bad.violations] == ["play.illegal_card"]


def test_legal_alternatives_contain_every_legal_action_taken(cur) -> None:
    view = _view(cur, "si-appendix-b1", 1, engine=True)
    for step in view.steps[1:]:
        if step.violations or step.action.type not in ("play", "bid", "pass", "call", "talon"):
            continue  # discards are enumerated by the engine in its own order
        assert step.action in vm.alternatives(view, step.index - 1), (step.index, step.action)


def test_the_illegal_card_is_not_among_the_alternatives(cur) -> None:
    view = _view(cur, "sim-slovenian-2027-r1-A", 2, engine=True)
    step = view.steps[23]
    alts = vm.alternatives(view, 22)
    assert alts and step.action not in alts


def test_a_step_reads_in_the_one_wording_of_actions(cur) -> None:
    view = _view(cur, "si-appendix-b1", 1)
    first = view.steps[1].action
    assert vm.step_text(view, first, view.players) == text.describe_action(
        first, game="slovenian", players=view.players
    )
    assert vm.step_text(view, first, view.players).startswith(view.players[first.seat] + " ")
    assert vm.step_text(view, Action("play", 1, card="T20"), ["Ana", "Bor"]) == "Bor plays XX"
    assert vm.step_text(view, None) == "the deal"


def test_the_phases_are_the_engines_and_a_pass_is_worded_in_its_phase(cur) -> None:
    """Phases come from the engine's ``action_phases`` (no phase table of the dashboard's
    own): a Slovenian pass is *naprej* in the bidding and *v redu* in the announcements."""
    view = _view(cur, "si-appendix-b1", 1)
    assert len(view.phases) == len(view.actions)
    assert view.phase_at(0) is None and view.phase_at(1) == "bidding"
    labels = [label for label, _ in vm.phase_marks(view)]
    assert labels.index("bidding") < labels.index("king call") < labels.index("announcements")
    passes = [s.index for s in view.steps[1:] if s.action.type == "pass"]
    words = {view.phase_at(i): vm.step_text(view, view.steps[i].action, view.players, step=i)
             for i in passes}  # fmt: skip
    assert words["bidding"].endswith("passes (naprej)")
    assert words["announcements"].endswith("passes (v redu)")


def test_tournament_report_flags_the_swapped_placement_points(cur) -> None:
    report = vm.tournament_report(cur, "sim-slovenian-2027")
    assert report is not None
    diffs = report["tournament"]["discrepancies"]
    assert {(d["session"], d["seat"]) for d in diffs} == {
        ("sim-slovenian-2027-r1-E", 1),
        ("sim-slovenian-2027-r1-E", 3),
    }
    tables = pl.DataFrame(report["tables"], strict=False)
    e = tables.filter(pl.col("session") == "sim-slovenian-2027-r1-E").sort("player_id")
    assert (e["recorded points"] != e["recomputed points"]).sum() == 2
    assert vm.tournament_report(cur, "no such tournament") is None


def test_the_dossier_can_be_rendered_with_pseudonyms_and_keeps_the_hand_hash(cur) -> None:
    view = _view(cur, "sim-slovenian-2027-r1-A", 2, engine=True)
    assert view.session is not None
    plain = vm.dossier_html(view)
    masked = vm.dossier_html(view, pseudonym)
    for p in view.session.players:
        assert p.name in plain and p.name not in masked
        assert pseudonym(p.name) in masked
    assert "play.illegal_card" in masked
    assert view.hand_id in plain and view.hand_id in masked  # the content hash in the footer


def test_the_view_model_is_streamlit_free() -> None:
    code = "import sys; import dashboard.view_model; print('streamlit' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


_HOSTILE = [
    "![p](http://127.0.0.1:8765/x.png)",
    '<img src="http://127.0.0.1:8765/y.png"> <script>alert(1)</script>',
    "[link](http://example.com) http://example.com/bare www.example.com a@b.example",
    ":red[red] :material/home: :smile: $x^2$ **bold** _it_ `code` ~~gone~~",
    "# heading\n- item\n1. item\n> quote",
    "\\*not bold\\* &amp; &lt;",
]


def _read_as_commonmark_text(md: str) -> str:
    """What CommonMark shows for text whose every punctuation character is escaped."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", md).replace("\u2060", "")


@pytest.mark.parametrize("text", _HOSTILE)
def test_text_from_a_log_is_never_read_as_markdown(text: str) -> None:
    """Issue 14, defect 8: a player name ``![p](http://…)`` made every viewer's browser fetch
    the URL. ``md_text`` escapes every punctuation character, so no Markdown construct is
    left, and breaks every URL, e-mail and ``:name:`` directive with an invisible word joiner;
    what shows is the text itself (line breaks as spaces)."""
    md = vm.md_text(text)
    punct = re.compile(r"[!-/:-@\[-`{-~]")
    i = 0
    while i < len(md):  # every punctuation character comes escaped
        if md[i] == "\\":
            assert punct.fullmatch(md[i + 1]), md
            i += 2
        else:
            assert not punct.fullmatch(md[i]), md
            i += 1
    shown = md.replace("\\", "")  # the escapes gone: no URL, e-mail or directive is left
    assert "://" not in shown and "www." not in shown and ":red" not in shown and "@b" not in shown
    assert "\n" not in md
    assert _read_as_commonmark_text(md) == " ".join(text.splitlines())


@given(st.text())
def test_md_text_always_shows_the_text_itself(text: str) -> None:
    assert _read_as_commonmark_text(vm.md_text(text)) == " ".join(text.splitlines())


def test_the_card_table_marks_the_illegal_card_and_the_allowed_ones(cur) -> None:
    from dashboard.table import position, table_html

    view = _view(cur, "sim-slovenian-2027-r1-A", 2)
    step = view.first_problem_step()
    assert step is not None
    allowed = vm.allowed_cards(view, step)
    bad = view.steps[step].action.card
    assert allowed and bad not in allowed
    pos = position(view, step, players=view.players, allowed=allowed)
    html = table_html(pos)
    assert f'data-card="{bad}" data-mark="illegal"' in html
    for card in allowed:
        assert f'data-card="{card}" data-mark="allowed"' in html
    seat = view.steps[step].action.seat
    assert bad not in pos.seats[seat].held  # played cards leave the hand
    assert [c.card for c in pos.trick][-1] == bad


def test_the_card_table_escapes_names_and_draws_per_card_values_where_given(cur) -> None:
    from dashboard.table import position, table_html

    view = _view(cur, "si-appendix-b1", 1)
    names = ["<b>Ana</b>", "Bor & Co", "Cene", "Dani"]
    held = view.steps[0].view["hands"][0]
    pos = position(view, 0, players=names, card_values={0: {held[0]: "+10"}})
    html = table_html(pos)
    assert "<b>Ana</b>" not in html and "&lt;b&gt;Ana&lt;/b&gt;" in html
    assert "Bor &amp; Co" in html
    assert f'data-value="{held[0]}">+10</span>' in html


def test_the_trick_stops_are_the_phases_and_the_completed_tricks(cur) -> None:
    view = _view(cur, "si-appendix-b1", 1)
    stops = vm.trick_stops(view)
    completed = [
        s.index
        for s in view.steps[1:]
        if s.action is not None and s.action.type == "play" and not (s.view or {}).get("trick")
    ]
    assert set(completed) <= set(stops) and len(completed) == 12
    assert stops[0] == 0 and stops[-1] == len(view.steps) - 1
    assert vm.next_stop(stops, completed[0], True) == completed[1]
    assert vm.next_stop(stops, completed[1] - 1, False) == completed[0]


def test_the_phase_jumps_list_each_phase_once_in_hand_order(cur) -> None:
    view = _view(cur, "si-appendix-b1", 1)
    jumps = vm.phase_jumps(view)
    steps = [s for _, s in jumps]
    assert steps == sorted(steps)
    labels = [lbl for lbl, _ in jumps if not lbl.startswith("trick ")]
    assert len(labels) == len(set(labels))
    assert labels[0] == "the deal" and labels[-1] == "end of the hand"
    assert labels.index("bidding") < labels.index("talon") < labels.index("announcements")
    assert [lbl for lbl, _ in jumps if lbl.startswith("trick ")] == [
        f"trick {n}" for n in range(1, 13)
    ]
    sl = [lbl for lbl, _ in vm.phase_jumps(view, "sl")]
    assert "licitacija" in sl and "štih 1" in sl


def test_the_analysis_values_are_drawn_on_the_cards_best_starred_played_framed(cur) -> None:
    """The values of the card just played and of its alternatives go on the cards
    themselves: under the alternatives in the hand, under the played card in the trick
    (framed), the best cards starred; the legend says how to read them."""
    from dashboard.table import position, table_html

    view = _view(cur, "si-appendix-b1", 1)
    step = next(i for i, s in enumerate(view.steps) if s.action and s.action.type == "play")
    played = view.steps[step].action.card
    seat = view.steps[step].action.seat
    other = view.steps[step].view["hands"][seat][0]
    pos = position(
        view,
        step,
        players=view.players,
        card_values={seat: {other: "-4"}},
        trick_values={played: "12"},
        best=[played],
    )
    html = table_html(pos)
    assert f'data-value="{other}">-4</span>' in html
    assert (
        f'class="tl-value tl-played" data-value="{played}" data-played="1" data-best="1">12★'
        in html
    )
    assert "★ best; framed: the card played" in html
    assert "★ best" not in table_html(position(view, step, players=view.players))


@pytest.fixture(scope="module")
def other_games(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    """A store of the Zwanzigerrufen and Royal Tarock samples."""
    from tarock_logs.store.write.ingest import ingest

    db = tmp_path_factory.mktemp("vm_games") / "g.duckdb"
    samples = Path(__file__).resolve().parents[2] / "sample_logs"
    ingest([str(samples / "royal"), str(samples / "zwanzigerrufen")], db=str(db))
    con = connect_reader(db)
    try:
        yield con.cursor()
    finally:
        con.close()


def test_the_end_panel_of_a_game_of_fixed_pairs_names_both_pairs_and_no_seat(other_games) -> None:
    """Issue 33: Royal Tarock's end panel said "no contract" with reasons naming "seat 3"."""
    view = _view(other_games, "royal-match-example", 1)
    end = vm.end_summary(view, view.players, "en")
    assert "no contract" not in end["headline"]
    assert "attackers" in end["headline"] and "defenders" in end["headline"]
    assert sum(name in end["headline"] for name in view.players) == 4  # both pairs by name
    assert end["card_points"] and "tricks: attackers" in end["card_points"]
    assert end["items"] and not any(
        re.search(r"\bseat \d", str(v)) for r in end["items"] for v in r.values()
    )
    de = vm.end_summary(view, view.players, "de")
    assert "Angreifer" in de["headline"] and "Verteidiger" in de["headline"]


def test_the_end_panel_of_zwanzigerrufen_gives_both_sides_card_points(other_games) -> None:
    view = _view(other_games, "zr-fd1", 1)
    end = vm.end_summary(view, view.players, "en")
    replayed = _view(other_games, "zr-fd1", 1, engine=True).replay
    cp = dict(replayed.score.card_points)  # type: ignore[union-attr]
    assert end["card_points"] == (
        f"card points: declarer side {cp['declarer_side']}, defenders {cp['defenders']}"
    )


@pytest.mark.parametrize("lang", ["en", "sl", "de"])
def test_the_dealer_at_a_table_of_five_sits_out_and_is_no_defender(lang: str) -> None:
    """At a table of five the dealer is dealt no cards and sits the hand out (rules: "5
    players"): the card table gives the seat no side (it is the dealer, and its box says it
    sits out, once), never one of the defenders, while the four who play keep their roles."""
    from types import SimpleNamespace

    from dashboard.table import _roles

    deal = [["x"] * 12, ["x"] * 12, [], ["x"] * 12, ["x"] * 12]
    view = SimpleNamespace(game="slovenian", deal=deal, dealer=2, declarer=0, seating=[])
    state = {"declarer": 0, "partner": 3, "phase": "play"}
    sits_out, defender = (
        text.role_name("sitting_out", lang=lang),
        text.role_name("defender", lang=lang),
    )
    assert _roles(view, 2, state, lang) == (text.role_name("dealer", lang=lang),)
    assert _roles(view, 1, state, lang) == (defender,)
    assert _roles(view, 0, state, lang) == (text.role_name("declarer", lang=lang),)
    assert sits_out not in _roles(view, 2, state, lang)  # (said once, by the seat's box)
