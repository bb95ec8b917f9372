"""The one table of reader codes (tarock_logs.log.errors): style, severities, old codes."""

from __future__ import annotations

import re
from pathlib import Path

from tarock_logs.log.errors import (
    CODES,
    OLD_CODES,
    LogError,
    canonical_code,
    schema_code,
    severity_of,
)
from tarock_logs.log.reader import read_file

MALFORMED = Path(__file__).resolve().parents[2] / "sample_logs" / "malformed"
_STYLE = re.compile(r"[a-z]+\.[a-z0-9]+(?:_[a-z0-9]+)*")


def test_every_code_is_written_area_dot_snake_name():
    for code in CODES:
        assert _STYLE.fullmatch(code), code
    assert _STYLE.fullmatch(schema_code("union_tag_invalid"))


def test_every_old_code_maps_to_exactly_one_new_code():
    assert len(OLD_CODES) == sum(1 for c in CODES.values() if c.old is not None)
    for old, new in OLD_CODES.items():
        assert old.startswith("E-") and CODES[new].old == old
        assert canonical_code(old) == new


def test_old_schema_codes_map_to_pydantic_types():
    assert canonical_code("E-SCHEMA-MISSING") == "schema.missing"
    assert canonical_code("E-SCHEMA-UNION-TAG-INVALID") == "schema.union_tag_invalid"
    assert canonical_code("E-SCHEMA-INT-TYPE") == schema_code("int_type")


def test_new_and_foreign_codes_pass_through_unchanged():
    for code in ("json.depth", "schema.missing", "play.illegal_card", "E-OPENSPIEL-JSON"):
        assert canonical_code(code) == code


def test_warnings_are_the_rotation_the_duplicates_and_a_misdeals_counts_and_the_rest_errors():
    warnings = {c for c, info in CODES.items() if info.severity == "warning"}
    assert warnings == {
        "deal.dealer_rotation",
        "session.duplicate",
        "hand.duplicate",
        "deal.misdeal_count",  # a misdeal's wrong counts are for the rules to judge
    }
    assert severity_of("schema.missing") == "error"
    assert severity_of("deal.dealer_rotation") == "warning"


def test_every_error_the_malformed_samples_give_has_its_codes_severity():
    seen = set()
    for path in sorted(MALFORMED.iterdir()):
        if path.name == "README.md":
            continue
        for rec in read_file(path):
            for e in rec.all_errors():
                assert e.code in CODES or e.code.startswith("schema."), e
                assert e.severity == severity_of(e.code), e
                seen.add(e.code)
    assert "deal.dealer_rotation" in seen and "json.depth" in seen


def test_an_error_line_names_its_severity_before_its_code():
    e = LogError("deal.dealer_rotation", "hand 2 is dealt by seat 3", "a.jsonl", 4, "s1", 2,
                 path="$.hands[1].dealer", severity="warning")  # fmt: skip
    assert str(e) == (
        "a.jsonl:4: session s1 hand 2 $.hands[1].dealer: warning: deal.dealer_rotation: "
        "hand 2 is dealt by seat 3"
    )
    assert str(LogError("file.empty", "no data")) == "<input>: error: file.empty: no data"
