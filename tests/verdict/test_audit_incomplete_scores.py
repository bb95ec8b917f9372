"""An engine that can value only part of a score (Royal Tarock's unknown consolation formula
and premiums of unknown value) marks those seats ``incomplete``: the audit then reports their
totals as not checked instead of as wrong."""

from __future__ import annotations

import json
from pathlib import Path

from tarock_logs.log.models import SessionAdapter
from tarock_logs.verdict.audit import audit_session

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "royal" / "worked-examples.json"


def _royal_session(drop_consolation: bool):
    data = json.loads(SAMPLE.read_text(encoding="utf-8"))
    raw = data[0] if isinstance(data, list) else data
    if drop_consolation:
        raw["options"] = {k: v for k, v in raw["options"].items() if k != "consolation"}
    return SessionAdapter.validate_python(raw)


def test_known_consolation_compares_totals() -> None:
    sa = audit_session(_royal_session(False), file=str(SAMPLE))
    assert all(not h.incomplete_seats for h in sa.hands)
    assert not any(h.discrepancies for h in sa.hands)
    assert sa.discrepancies == []


def test_unknown_consolation_is_not_checked_rather_than_wrong() -> None:
    sa = audit_session(_royal_session(True), file=str(SAMPLE))
    hands_with_unknown = [h for h in sa.hands if h.incomplete_seats]
    assert hands_with_unknown, "the sample must contain a game whose consolation is needed"
    for h in hands_with_unknown:
        assert not [d for d in h.discrepancies if d.item == "total"], h.discrepancies
        assert any("not checked" in u for u in h.unverified), h.unverified
    assert not [d for d in sa.discrepancies if d.item.startswith("session_total")]
    assert not [d for d in sa.discrepancies if d.item == "placement_points"]
    assert any("session total of seat" in u for u in sa.unverified)
