"""A hand recorded only up to a disputed trick (``extent: partial``, format 1.1): the audit
judges every action recorded, does not call the missing rest a violation, and says precisely
what it cannot know (the rest of the play, the card points, the score): the hand is
``partial``, not ``unverified`` and never ``verified``. A log that merely stops early (no
``extent``) still has the engine's ``play.missing_tricks``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_paths
from tarock_logs.verdict.audit import audit_session

B = Path(__file__).resolve().parents[2] / "sample_logs" / "slovenian" / "appendix-b.json"


def b1_doc() -> dict[str, Any]:
    (s,) = [r.session for r in read_paths([B]) if r.session and r.session.id == "si-appendix-b1"]
    return s.model_dump(mode="json", exclude_defaults=True)


def stopped_after(k: int, doc: dict[str, Any] | None = None, *, partial: bool = True) -> m.Session:
    doc = doc or b1_doc()
    hand = doc["hands"][0]
    hand["actions"] = hand["actions"][:k]
    hand.pop("result")
    if partial:
        hand["extent"] = "partial"
    return m.SessionAdapter.validate_python(doc)


def test_a_hand_stopped_after_two_tricks_is_partial_with_what_was_not_checked() -> None:
    h = audit_session(stopped_after(21)).hands[0]
    assert h.legal and h.recomputed is None
    assert h.verification == "partial" and h.actions_checked == 21
    (why,) = [u for u in h.unverified if "stops before its end" in u]
    assert why.startswith("the hand stops before its end (phase play, after 21 actions)")
    assert "the legality of the actions recorded was checked" in why
    assert "its card points and its score are not known" in why


def test_an_illegal_card_in_the_entered_part_is_found_and_the_hand_stays_partial() -> None:
    doc = b1_doc()
    acts = doc["hands"][0]["actions"]
    i = next(k for k, a in enumerate(acts) if a["type"] == "play") + 1
    acts[i] = {"type": "play", "seat": 1, "card": "T2"}  # Bojan holds ♠J: spades must be followed
    h = audit_session(stopped_after(i + 1, doc)).hands[0]
    errors = [v.code for v in h.violations if v.severity == "error"]
    assert not h.legal and errors == ["play.illegal_card"]  # the rest missing is no violation
    assert h.verification == "partial"
    assert "play.illegal_card" in [f.code for f in h.findings]


def test_a_deal_without_actions_checks_nothing_of_the_play() -> None:
    h = audit_session(stopped_after(0)).hands[0]
    assert h.actions_checked == 0 and h.verification == "unverified"


def test_a_log_that_just_stops_early_still_reports_the_missing_tricks() -> None:
    h = audit_session(stopped_after(21, partial=False)).hands[0]
    assert [v.code for v in h.violations] == ["play.missing_tricks"] and not h.legal
    assert h.verification == "partial"
