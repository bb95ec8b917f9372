"""The audit of hands recorded as facts (score sheets, format 1.1): scored by the engine from
the facts item by item, the sheet's running totals and radelci checked, and the state always
``partial`` at best (legality of play not checked), never ``verified``."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_paths
from tarock_logs.verdict.audit import audit_session
from tarock_logs.verdict.replay import FACTS_NOT_CHECKED

ROOT = Path(__file__).resolve().parents[2]
PLAYERS = [{"id": p} for p in ("ana", "bojan", "cene", "dusan")]


def session(hands: list[dict[str, Any]], game: str = "slovenian", **extra: Any) -> m.Session:
    doc = {
        "format": "tarock-log",
        "format_version": "1.1",
        "id": "sheet",
        "game": game,
        "ruleset": {"slovenian": "si-tournament-2021", "zwanzigerrufen": "ZR-STD"}.get(
            game, "royal-seed"
        ),
        "players": PLAYERS,
        **extra,
        "hands": hands,
    }
    return m.SessionAdapter.validate_python(doc)


def b1_facts() -> dict[str, Any]:
    return {
        "contract": "three",
        "declarer": 0,
        "partner": 1,
        "called": "DK",
        "won": True,
        "difference": 15,
        "bonuses": [
            {"bonus": "pagat_ultimo", "side": "declarer", "announced": True},
            {"bonus": "kralji", "side": "declarer"},
        ],
        "kontras": [{"target": "pagat_ultimo", "seat": 2}],
        "mondfang": [{"seat": 3, "captured_by": 2}],
    }


def hand(number: int, dealer: int, facts: dict[str, Any], scores: list[int], **result: Any):
    return {
        "number": number,
        "dealer": dealer,
        "facts": facts,
        "result": {"scores": scores, **result},
    }


class TestScoredFromFacts:
    def test_appendix_b1_as_facts_scores_item_by_item_like_the_played_hand(self) -> None:
        (played,) = [
            r.session
            for r in read_paths([ROOT / "sample_logs" / "slovenian" / "appendix-b.json"])
            if r.session is not None and r.session.id == "si-appendix-b1"
        ]
        by_play = audit_session(played).hands[0]
        result = played.hands[0].result.model_dump(exclude_defaults=True)
        sheet = session([hand(1, 3, b1_facts(), **result)])
        by_facts = audit_session(sheet).hands[0]
        assert by_play.verification == "verified"
        assert by_facts.recomputed == by_play.recomputed
        assert by_facts.discrepancies == [] and by_facts.legal
        assert (by_facts.contract, by_facts.declarer, by_facts.partner, by_facts.won) == (
            "three", 0, 1, True,
        )  # fmt: skip

    def test_a_facts_hand_is_partial_never_verified_even_when_everything_agrees(self) -> None:
        sa = audit_session(session([hand(1, 3, b1_facts(), [135, 135, 0, -20])]))
        h = sa.hands[0]
        assert h.verification == "partial" and not h.has_findings
        assert "legality of play not checked" in h.unverified[0]
        assert set(FACTS_NOT_CHECKED) <= set(h.unverified)
        assert sa.verification == "partial"
        assert h.to_dict()["verification"] == "partial"

    def test_a_wrong_written_score_is_a_discrepancy_on_its_hand(self) -> None:
        h = audit_session(session([hand(1, 3, b1_facts(), [145, 145, 0, -20])])).hands[0]
        assert [(d.item, d.seat, d.recorded, d.recomputed) for d in h.discrepancies] == [
            ("total", 0, 145, 135),
            ("total", 1, 145, 135),
        ]
        assert {f.code for f in h.findings} == {"score.total_differs"}

    @pytest.mark.parametrize(
        ("facts", "totals"),
        [
            ({"contract": "berac", "declarer": 2, "won": True}, [0, 0, 70, 0]),
            ({"contract": "berac", "declarer": 2, "won": False}, [0, 0, -70, 0]),
            ({"contract": "two", "declarer": 1, "partner": 3, "card_points": 31}, [0, -24, 0, -24]),
            ({"contract": "solo_one", "declarer": 0, "card_points": 36}, [61, 0, 0, 0]),
            (
                {"contract": "three", "declarer": 0, "partner": 2,
                 "bonuses": [{"bonus": "valat", "side": "declarer"}]},
                [250, 0, 250, 0],
            ),
            (
                {"contract": "klop", "points_by_seat": [0, 40, 20, 10]},
                [70, -70, 0, 0],
            ),
            ({"contract": "klop", "points_by_seat": [15, 20, 20, 15]}, [-15, -20, -20, -15]),
        ],
    )  # fmt: skip
    def test_contracts_are_scored_from_what_the_sheet_records(
        self, facts: dict[str, Any], totals: list[int]
    ) -> None:
        h = audit_session(session([hand(1, 3, facts, totals)])).hands[0]
        assert h.recomputed is not None and h.recomputed.totals == totals
        assert h.discrepancies == []

    def test_thirty_five_points_win_with_the_odd_card_so_the_sheet_must_say_won(self) -> None:
        f = {"contract": "three", "declarer": 0, "partner": 2, "card_points": 35}
        won = audit_session(session([hand(1, 3, {**f, "won": True}, [10, 0, 10, 0])])).hands[0]
        lost = audit_session(session([hand(1, 3, {**f, "won": False}, [-10, 0, -10, 0])])).hands[0]
        assert won.recomputed.totals == [10, 0, 10, 0] and not won.discrepancies
        assert lost.recomputed.totals == [-10, 0, -10, 0] and not lost.discrepancies
        unknown = audit_session(session([hand(1, 3, f, [10, 0, 10, 0])])).hands[0]
        assert unknown.verification == "unverified" and unknown.recomputed is None
        assert any("depends on the odd card" in u for u in unknown.unverified)

    def test_facts_that_contradict_each_other_are_not_scored_and_say_why(self) -> None:
        f = {"contract": "three", "declarer": 0, "partner": 2, "card_points": 45, "difference": 5}
        h = audit_session(session([hand(1, 3, f, [20, 0, 20, 0])])).hands[0]
        assert h.verification == "unverified"
        assert any("contradicts the recorded card points 45" in u for u in h.unverified)
        no_result = {"contract": "two", "declarer": 0, "partner": 2, "difference": 5}
        h = audit_session(session([hand(1, 3, no_result, [25, 0, 25, 0])])).hands[0]
        assert any("not won or lost" in u for u in h.unverified)

    def test_a_game_that_cannot_score_from_facts_leaves_the_hand_unverified(self) -> None:
        players = [
            {"id": "a", "pair": "A", "role": "abfaenger"},
            {"id": "b", "pair": "A", "role": "eintreiber"},
            {"id": "c", "pair": "B", "role": "abfaenger"},
            {"id": "d", "pair": "B", "role": "eintreiber"},
        ]
        rows = [hand(1, 1, {"contract": "F_SPIEL", "declarer": 1}, [0, 0, 49, 49])]
        s = session(rows, game="royal").model_copy(
            update={"players": [m.Player(**p) for p in players]}
        )
        h = audit_session(s).hands[0]
        assert h.verification == "unverified"  # a contract is no Royal Tarock game's fact
        assert any("cannot be scored" in u and "no contracts" in u for u in h.unverified)

    def test_the_openspiel_ruleset_scores_from_tricks_only(self) -> None:
        s = session([hand(1, 3, b1_facts(), [135, 135, 0, -20])]).model_copy(
            update={"ruleset": "openspiel-2.0"}
        )
        h = audit_session(s).hands[0]
        assert h.verification == "unverified"
        assert any("scores from the tricks" in u for u in h.unverified)


class TestTheSheetsArithmetic:
    def rows(self) -> list[dict[str, Any]]:
        return [
            hand(1, 3, b1_facts(), [135, 135, 0, -20], totals_after=[135, 135, 0, -20]),
            hand(
                2,
                0,
                {"contract": "two", "declarer": 2, "partner": 3, "card_points": 45},
                [0, 0, 30, 30],
                totals_after=[135, 135, 30, 10],
            ),
            hand(
                3,
                1,
                {"contract": "three", "declarer": 1, "partner": 0, "card_points": 30},
                [-15, -15, 0, 0],
                totals_after=[120, 120, 30, 10],
            ),
        ]

    def test_a_correct_sheet_has_no_finding(self) -> None:
        sa = audit_session(session(self.rows()))
        assert not sa.has_findings and sa.verification == "partial"
        assert sa.recomputed_totals == [120, 120, 30, 10]

    def test_an_addition_error_is_reported_on_its_row_only(self) -> None:
        rows = self.rows()
        rows[1]["result"]["totals_after"] = [135, 135, 40, 10]  # 0 + 30 written as 40
        rows[2]["result"]["totals_after"] = [120, 120, 40, 10]  # carried on correctly
        sa = audit_session(session(rows))
        found = [(h.hand, d.item, d.seat, d.recorded, d.recomputed)
                 for h in sa.hands for d in h.discrepancies]  # fmt: skip
        assert found == [(2, "running_total", 2, 40, 30)]
        (f,) = sa.hands[1].findings
        assert f.code == "score.running_total_differs" and "addition error" in f.message

    def test_after_a_missing_row_the_running_total_is_not_compared(self) -> None:
        rows = self.rows()
        del rows[1]
        sa = audit_session(session(rows))
        assert [d for h in sa.hands for d in h.discrepancies] == []

    def test_a_forgotten_radelc_is_reported_once_where_it_was_forgotten(self) -> None:
        rows = [
            hand(1, 3, {"contract": "berac", "declarer": 2, "won": True}, [0, 0, 70, 0],
                 radelci_after=[0, 0, 0, 0]),  # everyone earns a radelc: forgotten
            hand(2, 0, {"contract": "two", "declarer": 2, "partner": 3, "card_points": 45},
                 [0, 0, 30, 30], radelci_after=[0, 0, 0, 0]),  # scored as the sheet had it
            hand(3, 1, {"contract": "berac", "declarer": 0, "won": True}, [70, 0, 0, 0],
                 radelci_after=[1, 1, 1, 1]),
        ]  # fmt: skip
        sa = audit_session(session(rows))
        found = [(h.hand, d.item, d.seat) for h in sa.hands for d in h.discrepancies]
        assert found == [(1, "radelci_after", s) for s in range(4)]
        assert all(f.code == "score.radelci_after_differs" for f in sa.hands[0].findings)
        assert "next hands are checked from the radelci as recorded" in (
            sa.hands[0].findings[0].message
        )

    def test_without_recorded_radelci_the_engine_carries_its_own(self) -> None:
        rows = [
            hand(1, 3, {"contract": "berac", "declarer": 2, "won": True}, [0, 0, 70, 0]),
            hand(
                2,
                0,
                {"contract": "two", "declarer": 2, "partner": 3, "card_points": 45},
                [0, 0, 30, 30],
            ),
        ]
        sa = audit_session(session(rows))
        assert sa.hands[1].recomputed.totals == [0, 0, 60, 60]  # the radelc doubles it
        assert [(d.item, d.seat, d.recorded) for d in sa.hands[1].discrepancies] == [
            ("total", 2, 30), ("total", 3, 30),
        ]  # fmt: skip

    def test_placement_points_are_compared_from_the_recomputed_round(self) -> None:
        rec = {"placement_points": [4.5, 4.5, 2, 3]}  # seats 2 and 3 swapped on the sheet
        sa = audit_session(session(self.rows(), recorded=rec))
        assert sa.placement_points == [4.5, 4.5, 3, 2]
        assert [(d.item, d.seat, d.recorded) for d in sa.discrepancies] == [
            ("placement_points", 2, 2), ("placement_points", 3, 3),
        ]  # fmt: skip


def test_irregularities_of_a_facts_hand_are_scored_too() -> None:
    facts = copy.deepcopy(b1_facts())
    h = hand(1, 3, facts, [0, 0, 0, -20])
    h["irregularities"] = [{"type": "renons", "offender": 3, "kind": "illegal_card"}]
    a = audit_session(session([h])).hands[0]
    assert a.recomputed is not None
    assert [(i, s) for i, s, _ in a.recomputed.items if i == "renons"] == [("renons", 3)]
