"""The dashboard's data layer (tarock_logs/dashboard_data.py) over a real ingested store."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from tarock_logs import dashboard_data as dd
from tarock_logs.cards import PACKS
from tarock_logs.log.models import SessionAdapter
from tarock_logs.store.ingest import ingest
import itertools

ROOT = Path(__file__).resolve().parents[2]
APPENDIX_B = ROOT / "sample_logs" / "slovenian" / "appendix-b.json"
DISPUTED = ROOT / "sample_logs" / "disputed" / "round-1.jsonl"


def _logged_sessions() -> list:
    import json

    out = [SessionAdapter.validate_python(s) for s in json.loads(APPENDIX_B.read_text("utf-8"))]
    for line in DISPUTED.read_text("utf-8").splitlines():
        if line.strip():
            out.append(SessionAdapter.validate_json(line))
    return out


@pytest.fixture(scope="module")
def cur(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    base = tmp_path_factory.mktemp("dd")
    db = base / "t.duckdb"
    ingest([str(APPENDIX_B), str(DISPUTED)], db=str(db))
    con = dd.connect_readonly(db)
    try:
        yield con.cursor()
    finally:
        con.close()


def _hand_id(cur: duckdb.DuckDBPyConnection, session: str, number: int) -> str:
    return str(
        cur.execute(
            "SELECT hand_id FROM hands WHERE session_id = ? AND number = ?", [session, number]
        ).fetchall()[0][0]
    )


def test_a_session_read_again_from_its_unchanged_file_is_the_logged_one(cur) -> None:
    for logged in _logged_sessions():
        loaded = dd.load_session(cur, logged.id)
        assert loaded is not None
        assert loaded[0] == logged


def test_a_session_rebuilt_from_the_store_has_the_logged_deals_actions_and_results(cur) -> None:
    for logged in _logged_sessions():
        loaded = dd.load_session(cur, logged.id, prefer_source=False)
        assert loaded is not None
        rebuilt, ids = loaded
        assert len(ids) == len(logged.hands)
        assert [p.id for p in rebuilt.players] == [p.id for p in logged.players]
        assert rebuilt.ruleset == logged.ruleset and rebuilt.options == logged.options
        for a, b in zip(rebuilt.hands, logged.hands, strict=True):
            assert (a.number, a.dealer) == (b.number, b.dealer)
            assert a.deal == b.deal
            assert a.actions == b.actions
            assert a.irregularities == b.irregularities
            assert a.result == b.result


def test_an_unknown_session_or_hand_gives_none(cur) -> None:
    assert dd.load_session(cur, "no-such-session") is None
    assert dd.hand_view(cur, "0" * 64) is None
    assert not dd.hand_exists(cur, "0" * 64)


def test_phase_marks_find_bidding_and_every_trick_four_plays_apart(cur) -> None:
    view = dd.hand_view(cur, _hand_id(cur, "si-appendix-b1", 1))
    assert view is not None
    marks = dd.phase_marks(view.steps)
    labels = [m[0] for m in marks]
    assert labels[0] == "deal" and labels[1] == "bidding" and labels[-1] == "end"
    tricks = [s for lbl, s in marks if lbl.startswith("trick ")]
    assert len(tricks) == 12
    assert all(b - a == 4 for a, b in itertools.pairwise(tricks))
    assert view.steps[tricks[0]].action.type == "play"
    assert view.steps[tricks[0] - 1].action.type != "play"


def test_at_the_end_every_dealt_card_is_played_or_laid_away_exactly_once(cur) -> None:
    view = dd.hand_view(cur, _hand_id(cur, "si-appendix-b1", 1))
    assert view is not None
    end = view.steps[-1].view
    played = dd.played_by_seat(end, len(view.players))
    assert all(len(p) == 12 for p in played)
    left_in_talon = [c for c in end["talon"] if c not in end.get("talon_taken", [])]
    everything = [c for p in played for c in p] + list(end["discards"]) + left_in_talon
    assert len(everything) == len(set(everything)) == len(PACKS["slovenian"])


def test_trick_rows_running_totals_add_up_per_side(cur) -> None:
    view = dd.hand_view(cur, _hand_id(cur, "si-appendix-b1", 1))
    assert view is not None
    end = view.steps[-1].view
    side = {view.declarer, view.partner}
    rows = dd.trick_rows(end, view.players, side)
    assert len(rows) == 12
    decl = sum(r["points"] for r in rows if r["winner"] in {view.players[s] for s in side})
    opp = sum(r["points"] for r in rows) - decl
    assert (rows[-1]["declarer side"], rows[-1]["defenders"]) == (decl, opp)


def test_the_hand_view_links_to_the_neighbouring_hands_of_its_session(cur) -> None:
    ids = [r[0] for r in cur.execute(
        "SELECT hand_id FROM hands WHERE session_id = 'sim-slovenian-2027-r1-A' ORDER BY number"
    ).fetchall()]  # fmt: skip
    middle = dd.hand_view(cur, ids[1])
    assert middle is not None
    assert (middle.prev_hand, middle.next_hand) == (ids[0], ids[2])
    first = dd.hand_view(cur, ids[0])
    assert first is not None and first.prev_hand is None


def test_first_problem_step_is_right_after_the_planted_illegal_card(cur) -> None:
    view = dd.hand_view(cur, _hand_id(cur, "sim-slovenian-2027-r1-A", 2))
    assert view is not None
    assert view.first_problem_step() == 22 + 1
    bad = view.steps[23]
    assert [v.code for v in bad.violations] == ["play.illegal_card"]


def test_legal_alternatives_contain_every_legal_action_taken(cur) -> None:
    view = dd.hand_view(cur, _hand_id(cur, "si-appendix-b1", 1))
    assert view is not None
    for step in view.steps[1:]:
        if step.violations or step.action.type not in ("play", "bid", "pass", "call", "talon"):
            continue  # discards are enumerated by the engine in its own order
        assert step.action in dd.alternatives(view, step.index - 1), (step.index, step.action)


def test_the_illegal_card_is_not_among_the_alternatives(cur) -> None:
    view = dd.hand_view(cur, _hand_id(cur, "sim-slovenian-2027-r1-A", 2))
    assert view is not None
    step = view.steps[23]
    alts = dd.alternatives(view, 22)
    assert alts and step.action not in alts


def test_filter_hands_by_kind_of_finding(cur) -> None:
    idx = dd.hands_index(cur)
    illegal = dd.filter_hands(idx, kinds=["illegal"])
    assert set(illegal["session_id"]) == {"sim-slovenian-2027-r1-A", "sim-slovenian-2027-r1-C",
                                          "sim-slovenian-2027-r1-D"}  # fmt: skip
    wrong = dd.filter_hands(idx, kinds=["discrepancy"])
    assert set(wrong["session_id"]) == {"sim-slovenian-2027-r1-B"}
    anything = dd.filter_hands(idx, findings_only=True)
    assert anything.height >= illegal.height + wrong.height
    assert dd.filter_hands(idx, player="no such player").is_empty()


def test_drill_down_counts_the_same_hands_as_the_figure(cur) -> None:
    roles = dd.stats_section(cur, "roles", (None, None, None, None, None))
    for row in roles.head(6).iter_rows(named=True):
        hands = dd.drill_hands(
            cur, (None, None, None, None, row["player_id"]), (("role", row["role"]),)
        )
        assert hands["hand_id"].n_unique() == row["hands"]
        assert hands["replay"].str.starts_with("/replay?hand=").all()


def test_pseudonyms_are_stable_and_tell_players_apart() -> None:
    assert dd.pseudonym("Ana Kos") == dd.pseudonym("Ana Kos")
    names = [f"Player {i}" for i in range(30)]
    assert len({dd.pseudonym(n) for n in names}) == 30
    assert "Ana" not in dd.pseudonym("Ana Kos")


def test_action_text_reads_like_a_score_sheet() -> None:
    from tarock_logs.rules.base import Action

    assert dd.action_text(Action("play", 1, card="HK"), ["Ana", "Bor"]) == "Bor: play HK"
    assert (
        dd.action_text(Action("kontra", 0, target="game", level=2), ["Ana"])
        == "Ana: rekontra on game"
    )
    assert dd.action_text(None) == "deal"


def test_tournament_report_flags_the_swapped_placement_points(cur) -> None:
    report = dd.tournament_report(cur, "sim-slovenian-2027")
    assert report is not None
    diffs = report["tournament"]["discrepancies"]
    assert {(d["session"], d["seat"]) for d in diffs} == {("sim-slovenian-2027-r1-E", 1),
                                                          ("sim-slovenian-2027-r1-E", 3)}  # fmt: skip
    tables = pl.DataFrame(report["tables"], strict=False)
    e = tables.filter(pl.col("session") == "sim-slovenian-2027-r1-E").sort("player_id")
    assert (e["recorded points"] != e["recomputed points"]).sum() == 2


def test_the_dossier_can_be_rendered_with_pseudonyms_and_keeps_the_hand_hash(cur) -> None:
    view = dd.hand_view(cur, _hand_id(cur, "sim-slovenian-2027-r1-A", 2))
    assert view is not None
    plain = dd.dossier_html(view)
    masked = dd.dossier_html(view, dd.pseudonym)
    for p in view.session.players:
        assert p.name in plain and p.name not in masked
        assert dd.pseudonym(p.name) in masked
    assert "play.illegal_card" in masked
    assert view.hand_id in plain and view.hand_id in masked  # the content hash in the footer
