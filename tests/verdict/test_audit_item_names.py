"""The Slovenian engine names the score items it writes; the audit reports a recorded item it
does not know as not checked instead of as a wrong line."""

from __future__ import annotations

from pathlib import Path

from tarock_logs.log.models import ResultItem
from tarock_logs.log.reader import read_paths
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.verdict.audit import audit_session

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _slovenian_sessions():
    for rec in read_paths([str(SAMPLES / "tournament"), str(SAMPLES / "slovenian")]):
        if rec.session is not None:
            yield rec


def test_every_item_the_engine_writes_is_declared() -> None:
    seen: set[str] = set()
    for rec in _slovenian_sessions():
        for h in audit_session(rec.session, file=rec.file).hands:
            assert h.recomputed is not None
            seen |= {item for item, _seat, _value in h.recomputed.items}
    assert {"contract", "difference", "klop"} <= seen
    assert seen <= ENGINE.score_items


def test_a_recorded_item_the_engine_does_not_know_is_not_checked() -> None:
    rec = next(iter(_slovenian_sessions()))
    session = rec.session
    hand = session.hands[0]
    assert hand.result is not None
    extra = [*hand.result.items, ResultItem(item="club_bonus", value=0, seat=0)]
    changed = hand.model_copy(update={"result": hand.result.model_copy(update={"items": extra})})
    session = session.model_copy(update={"hands": [changed, *session.hands[1:]]})
    audit = audit_session(session, file=rec.file).hands[0]
    assert not [d for d in audit.discrepancies if d.item == "club_bonus"]
    assert any("club_bonus" in u and "not checked" in u for u in audit.unverified)


def test_auditing_many_hands_keeps_the_item_name_memo_bounded() -> None:
    """The audit remembers each engine's declaration of item names by the declaration object;
    an engine answering with a new object each time (Royal Tarock's catalogue items, before
    they were kept per catalogue) made that memo grow by one entry a hand: 2 GB of ingest
    workers over a million hands. Royal's answer is now one object per catalogue, and the
    memo keeps a few entries whatever an engine does."""
    from tarock_logs.rules.royal.engine import ENGINE as ROYAL
    from tarock_logs.rules.royal.engine import known_items
    from tarock_logs.verdict import audit as audit_module

    rs = ROYAL.ruleset(ROYAL.default_ruleset)
    assert known_items(rs) is known_items(rs)
    (rec,) = [r for r in read_paths([str(SAMPLES / "royal")]) if r.session is not None]
    audit_session(rec.session, file=rec.file)
    before = len(audit_module._ITEM_NAMES)
    for _ in range(3):
        audit_session(rec.session, file=rec.file)
    assert len(audit_module._ITEM_NAMES) == before

    class Fresh:  # an engine answering with a new (equal) object on every call
        score_items = None

        def score_items_for(self, ruleset: object) -> frozenset[str]:
            return frozenset({"game", "kontra"})

    fresh = Fresh()
    for _ in range(1000):
        assert audit_module._engine_item_names(fresh, rs) == {"game", "kontra"}  # type: ignore[arg-type]
    assert len(audit_module._ITEM_NAMES) <= audit_module._ITEM_NAMES_KEPT
