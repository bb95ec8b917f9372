"""Format 1.1: hands recorded as facts without cards (score sheets), running totals, and the
version that says so. Every 1.0 file stays valid and means the same."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_bytes, read_paths
from tarock_logs.log.writer import dumps_session

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "schemas" / "session.schema.json"


def sheet_doc() -> dict[str, Any]:
    """Appendix B.1 as a score sheet keeps it (one hand, facts only)."""
    return {
        "format": "tarock-log",
        "format_version": "1.1",
        "id": "sheet-b1",
        "game": "slovenian",
        "ruleset": "si-tournament-2021",
        "players": [{"id": p} for p in ("ana", "bojan", "cene", "dusan")],
        "first_dealer": 3,
        "hands": [
            {
                "number": 1,
                "dealer": 3,
                "facts": {
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
                },
                "result": {"scores": [135, 135, 0, -20], "totals_after": [135, 135, 0, -20]},
            }
        ],
    }


def appendix_b1() -> m.Session:
    """The bundled Appendix B.1 session (the first of sample_logs/slovenian/appendix-b.json)."""
    recs = list(read_paths([ROOT / "sample_logs" / "slovenian" / "appendix-b.json"]))
    (s,) = [r.session for r in recs if r.session is not None and r.session.id.endswith("b1")]
    return s


def read_one(doc: dict[str, Any]) -> Any:
    [rec] = read_bytes(json.dumps(doc).encode(), kind="json")
    return rec


class TestVersions:
    def test_every_sample_log_of_version_1_0_still_reads_and_needs_no_newer_version(self) -> None:
        recs = [r for r in read_paths([ROOT / "sample_logs"], exclude=["malformed"]) if r.session]
        assert recs
        for r in recs:
            assert r.ok, [str(e) for e in r.all_errors()]
        v1 = [r.session for r in recs if r.session.format_version == 1]
        assert v1 and all(m.format_version_for(s) == 1 for s in v1)

    def test_a_session_with_facts_needs_version_1_1(self) -> None:
        s = m.SessionAdapter.validate_python(sheet_doc())
        assert m.format_version_for(s) == "1.1" == m.VERSION_1_1

    def test_running_totals_alone_need_version_1_1(self) -> None:
        b1 = appendix_b1()
        hand = b1.hands[0]
        assert m.format_version_for(b1) == 1
        result = hand.result.model_copy(update={"totals_after": [135, 135, 0, -20]})
        s = b1.model_copy(update={"hands": [hand.model_copy(update={"result": result})]})
        assert m.format_version_for(s) == "1.1"

    @pytest.mark.parametrize("version", [2, "1.3", "1", 1.1, 1.2])
    def test_an_unknown_version_is_refused(self, version: Any) -> None:
        doc = sheet_doc()
        doc["format_version"] = version
        rec = read_one(doc)
        assert [e.code for e in rec.all_errors()] == ["format.unsupported"]


class TestFactsHands:
    def test_a_score_sheet_hand_reads_and_writes_back_unchanged(self) -> None:
        rec = read_one(sheet_doc())
        assert rec.ok, [str(e) for e in rec.all_errors()]
        hand = rec.session.hands[0]
        assert hand.deal is None and hand.actions == []
        assert hand.facts.bonuses[0] == m.BonusFact(
            bonus="pagat_ultimo", side="declarer", announced=True, made=True
        )
        text = dumps_session(rec.session)
        again = read_one(json.loads(text))
        assert again.session == rec.session

    def test_the_called_card_is_read_under_its_aliases(self) -> None:
        doc = sheet_doc()
        doc["hands"][0]["facts"]["called"] = "dk"
        assert read_one(doc).session.hands[0].facts.called == "DK"
        doc["hands"][0]["facts"]["called"] = "ZZ"
        assert [e.code for e in read_one(doc).all_errors()] == ["card.unknown"]

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            (lambda h: h.pop("facts"), "a hand needs its deal or its facts"),
            (
                lambda h: h.update(deal={"hands": [[], [], [], []]}),
                "a hand is recorded with its deal or as facts, not both",
            ),
            (
                lambda h: h.update(actions=[{"type": "pass", "seat": 0}]),
                "a hand recorded as facts has no actions",
            ),
        ],
    )
    def test_a_hand_is_recorded_with_its_cards_or_as_facts(self, change: Any, message: str) -> None:
        doc = sheet_doc()
        change(doc["hands"][0])
        rec = read_one(doc)
        assert [e.code for e in rec.all_errors()] == ["schema.hand_record"]
        assert message in rec.all_errors()[0].message

    def test_seats_and_per_seat_lists_of_the_facts_are_checked(self) -> None:
        doc = sheet_doc()
        facts = doc["hands"][0]["facts"]
        facts["partner"] = 4
        facts["mondfang"][0]["captured_by"] = 4
        doc["hands"][0]["result"]["totals_after"] = [0, 0, 0]
        errs = read_one(doc).all_errors()
        assert sorted((e.code, e.path) for e in errs) == [
            ("result.size", "$.hands[0].result.totals_after"),
            ("seat.range", "$.hands[0].facts.mondfang[0].captured_by"),
            ("seat.range", "$.hands[0].facts.partner"),
        ]
        doc = sheet_doc()
        doc["hands"][0]["facts"] = {"contract": "klop", "points_by_seat": [20, 30]}
        assert [e.code for e in read_one(doc).all_errors()] == ["result.size"]


class TestSchema:
    def test_the_json_schema_takes_a_facts_hand_and_refuses_the_mixtures(self) -> None:
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
        jsonschema.validate(sheet_doc(), schema)
        jsonschema.validate(json.loads(dumps_session(appendix_b1())), schema)  # a 1.0 file
        both = copy.deepcopy(sheet_doc())
        both["hands"][0]["deal"] = {"hands": [[], [], [], []]}
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(both, schema)
        with_actions = copy.deepcopy(sheet_doc())
        with_actions["hands"][0]["actions"] = [{"type": "pass", "seat": 0}]
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(with_actions, schema)
        neither = copy.deepcopy(sheet_doc())
        del neither["hands"][0]["facts"]
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(neither, schema)

    def test_the_fields_added_in_1_1_are_marked_in_the_schema(self) -> None:
        d = json.loads(SCHEMA.read_text(encoding="utf-8"))
        assert d["$defs"]["Hand"]["properties"]["facts"]["x-since"] == "1.1"
        assert d["$defs"]["HandResult"]["properties"]["totals_after"]["x-since"] == "1.1"
        assert d["properties"]["format_version"]["enum"] == [1, "1.1", "1.2"]
