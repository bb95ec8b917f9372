"""Format 1.2: counted hands (``extent: counted``): the facts and the cards each side took,
without trick order. The reader checks that the piles, the discards and the talon not taken
partition the pack (a missing or doubled card is an error naming the card, located) and that
their sizes fit the table; 1.0 and 1.1 files read as before."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_bytes, read_file
from tarock_logs.log.writer import dumps_session

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_logs" / "counted" / "counted.json"
SCHEMA = ROOT / "schemas" / "session.schema.json"


def b1_doc() -> dict[str, Any]:
    """Appendix B.1 counted (the first sample session)."""
    [first, *_] = json.loads(SAMPLE.read_text(encoding="utf-8"))
    return copy.deepcopy(first)


def errors(doc: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    [rec] = read_bytes(json.dumps(doc).encode(), kind="json")
    return [(e.code, e.path, e.message) for e in rec.all_errors()]


class TestVersion:
    def test_the_counted_samples_read_clean_and_need_version_1_2(self) -> None:
        recs = list(read_file(SAMPLE))
        assert len(recs) == 3 and all(r.ok for r in recs)
        for r in recs:
            assert r.session is not None and m.format_version_for(r.session) == "1.2"

    def test_a_counted_hand_writes_back_unchanged(self) -> None:
        [rec] = read_bytes(json.dumps(b1_doc()).encode(), kind="json")
        text = dumps_session(rec.session)
        [again] = read_bytes(text.encode(), kind="jsonl")
        assert again.session == rec.session

    def test_the_schema_takes_a_counted_hand_and_marks_its_fields_1_2(self) -> None:
        schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
        jsonschema.validate(b1_doc(), schema)
        hand = schema["$defs"]["Hand"]["properties"]
        assert hand["counted"]["x-since"] == "1.2"
        assert "counted" in json.dumps(hand["extent"])

    def test_a_version_1_1_file_stays_1_1(self) -> None:
        doc = b1_doc()
        hand = doc["hands"][0]
        del hand["counted"], hand["extent"]
        doc["format_version"] = "1.1"
        [rec] = read_bytes(json.dumps(doc).encode(), kind="json")
        assert rec.ok and m.format_version_for(rec.session) == "1.1"


class TestShape:
    def test_extent_counted_needs_the_piles_and_the_piles_need_extent_counted(self) -> None:
        doc = b1_doc()
        del doc["hands"][0]["counted"]
        assert [c for c, _, _ in errors(doc)] == ["schema.hand_record"]
        doc = b1_doc()
        del doc["hands"][0]["extent"]
        assert [c for c, _, _ in errors(doc)] == ["schema.hand_record"]

    def test_both_sides_or_each_seat_not_both(self) -> None:
        doc = b1_doc()
        doc["hands"][0]["counted"]["by_seat"] = [[], [], [], []]
        assert [c for c, _, _ in errors(doc)] == ["schema.hand_record"]


class TestPartition:
    def test_a_missing_card_is_named(self) -> None:
        doc = b1_doc()
        c = doc["hands"][0]["counted"]
        c["defenders"].remove("T2")
        c["declarer"].remove("C8")
        found = errors(doc)
        assert [(code, path) for code, path, _ in found] == [
            ("counted.missing_card", "$.hands[0].counted")
        ]
        assert "lack T2, C8" in found[0][2]

    def test_a_doubled_card_is_named_where_it_is_twice(self) -> None:
        doc = b1_doc()
        c = doc["hands"][0]["counted"]
        k = c["defenders"].index("T2")
        c["defenders"][k] = "SK"  # SK is in the declarer's pile: T2 is now missing too
        found = errors(doc)
        codes = [code for code, _, _ in found]
        assert codes == ["counted.duplicate_card", "counted.missing_card"]
        _, path, message = found[0]
        assert path == f"$.hands[0].counted.defenders[{k}]"
        assert message.startswith("SK is counted 2 times") and "counted.declarer[0]" in message

    def test_a_card_in_a_pile_and_in_the_talon_not_taken_is_doubled(self) -> None:
        doc = b1_doc()
        c = doc["hands"][0]["counted"]
        c["talon_taken"] = ["H1", "T20"]  # T10 (in the declarer's pile) stays in the talon
        c["discards"] = ["DJ", "S9"]
        c["declarer"].append("H4")
        found = errors(doc)
        assert ("counted.duplicate_card", "$.hands[0].counted.talon[5]") in [
            (code, path) for code, path, _ in found
        ]

    def test_sizes_must_fit_the_table(self) -> None:
        doc = b1_doc()
        c = doc["hands"][0]["counted"]
        c["declarer"].append(c["defenders"].pop())  # 33 and 15 cards: no whole tricks of 4
        found = errors(doc)
        assert [(code, path) for code, path, _ in found] == [
            ("counted.count", "$.hands[0].counted.declarer"),
            ("counted.count", "$.hands[0].counted.defenders"),
        ]

    def test_a_card_taken_must_be_in_the_talon(self) -> None:
        doc = b1_doc()
        c = doc["hands"][0]["counted"]
        c["talon_taken"] = ["H1", "T20", "SK"]
        assert ("counted.talon_taken", "$.hands[0].counted.talon_taken[2]") in [
            (code, path) for code, path, _ in errors(doc)
        ]

    @pytest.mark.parametrize("alias", ["škis", "XXII"])
    def test_card_aliases_are_read_in_the_piles(self, alias: str) -> None:
        doc = b1_doc()
        c = doc["hands"][0]["counted"]
        c["defenders"][c["defenders"].index("T22")] = alias
        assert errors(doc) == []

    def test_klop_piles_per_seat_hold_the_whole_pack(self) -> None:
        [_, _, klop] = json.loads(SAMPLE.read_text(encoding="utf-8"))
        assert errors(klop) == []
        klop["hands"][0]["counted"]["by_seat"][3].pop()
        assert [code for code, _, _ in errors(klop)] == ["counted.missing_card"]
