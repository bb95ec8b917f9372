"""Audit records: legality, item-by-item recorded vs recomputed, unverified reasons, the
content hash, session totals and placement points (real engine)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tarock_logs import rules as rules_registry
from tarock_logs.log.reader import read_paths
from tarock_logs.rules import get_engine
from tarock_logs.verdict.audit import (
    Discrepancy,
    ScoreSheet,
    audit_session,
    compare_scores,
    hand_content_hash,
)
from tarock_logs.verdict.tournament import audit_tournaments
from tests.support.d1_helpers import ROOT, b1_doc, b2_doc, plant_b1_illegal_card, session
from tests.support.fake_engine import ENGINE as FAKE

AUDIT_KEYS = {
    "file", "session", "hand", "hand_id", "game", "ruleset", "legal", "violations", "recorded",
    "recomputed", "discrepancies", "unverified", "contract", "declarer", "partner", "won",
}  # fmt: skip


def test_appendix_b_audits_clean_with_the_documented_keys() -> None:
    for doc in (b1_doc(), b2_doc()):
        sa = audit_session(session(doc), file="appendix-b.json")
        (h,) = sa.hands
        d = h.to_dict()
        assert set(d) == AUDIT_KEYS | {"record", "verification", "findings"}
        assert d["legal"] is True and d["discrepancies"] == [] and d["unverified"] == []
        assert d["recorded"]["totals"] == d["recomputed"]["totals"]
        assert set(d["recomputed"]) == {"totals", "items", "radelci_after"}
        assert d["ruleset"] == "si-tournament-2021"
        assert not sa.discrepancies
    b1 = audit_session(session(b1_doc())).hands[0]
    assert (b1.contract, b1.declarer, b1.partner, b1.won) == ("three", 0, 1, True)
    assert {(i, s, v) for i, s, v in b1.recomputed.items} >= {("mondfang", 3, -20)}


def test_wrong_recorded_item_is_a_discrepancy_with_both_values() -> None:
    doc = b1_doc()
    res = doc["hands"][0]["result"]
    kralji = next(it for it in res["items"] if it["item"] == "kralji")
    kralji["value"] = 20  # silent kralji is worth 10 (spec 9.5)
    res["scores"] = [145, 145, 0, -20]
    h = audit_session(session(doc)).hands[0]
    assert h.legal
    got = {(d.item, d.seat): (d.recorded, d.recomputed) for d in h.discrepancies}
    # a line with seat null is written by declarer and partner: compared per seat
    assert got == {
        ("kralji", 0): (20, 10), ("kralji", 1): (20, 10),
        ("total", 0): (145, 135), ("total", 1): (145, 135),
    }  # fmt: skip
    assert h.has_findings


def test_item_on_one_side_only_is_a_discrepancy() -> None:
    doc = b1_doc()
    items = doc["hands"][0]["result"]["items"]
    doc["hands"][0]["result"]["items"] = [it for it in items if it["item"] != "mondfang"]
    h = audit_session(session(doc)).hands[0]
    assert [d.to_dict() for d in h.discrepancies] == [
        {"item": "mondfang", "seat": 3, "recorded": None, "recomputed": -20}
    ]


def test_wrong_radelci_after_is_reported_per_seat() -> None:
    doc = b2_doc()
    doc["hands"][0]["result"]["radelci_after"] = [1, 1, 3, 0]
    h = audit_session(session(doc)).hands[0]
    assert [d.to_dict() for d in h.discrepancies] == [
        {"item": "radelci_after", "seat": 3, "recorded": 0, "recomputed": 1}
    ]


def test_planted_illegal_card_audit_record() -> None:
    doc = b1_doc()
    idx = plant_b1_illegal_card(doc)
    h = audit_session(session(doc)).hands[0]
    assert h.legal is False
    errors = [v for v in h.to_dict()["violations"] if v["severity"] == "error"]
    assert len(errors) == 1
    assert errors[0]["action_index"] == idx and errors[0]["seat"] == 1
    assert errors[0]["card"] == "C7" and errors[0]["code"] == "play.illegal_card"
    assert errors[0]["rule"].startswith("si-tournament-2021 §")
    assert h.discrepancies == []  # the swap keeps every trick's winner and card points


def test_game_without_engine_is_unverified(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(rules_registry._ENGINES, "royal")  # every game has an engine now
    doc = b1_doc()
    doc["game"] = "royal"
    sa = audit_session(session(doc))
    h = sa.hands[0]
    assert h.recomputed is None and h.discrepancies == [] and h.legal
    assert h.recorded is not None and h.recorded.totals == [135, 135, 0, -20]
    assert any("no rules engine for royal" in u for u in h.unverified)
    assert h.ruleset == "si-tournament-2021"  # the one the log names, none resolved it
    assert sa.recomputed_totals is None and sa.unverified


def test_no_recorded_result_is_unverified() -> None:
    doc = b1_doc()
    del doc["hands"][0]["result"]
    h = audit_session(session(doc)).hands[0]
    assert h.recorded is None and h.recomputed is not None
    assert "no recorded result: the score could not be compared" in h.unverified


def test_recorded_item_unknown_to_the_engine_is_unverified_not_a_discrepancy() -> None:
    rec = ScoreSheet([10, 0, 0], [("contract", None, 10), ("house_bonus", 1, 5)])
    cmp = ScoreSheet([10, 0, 0], [("contract", None, 10)])
    disc, notes = compare_scores(rec, cmp, declarer=0, known_items=frozenset({"contract"}))
    assert disc == []
    assert notes == [
        "recorded item 'house_bonus' (seat 1, +5) is not an item the engine produces: not checked"
    ]
    # without the engine's vocabulary the same line is a one-sided discrepancy
    disc, _ = compare_scores(rec, cmp, declarer=0)
    assert disc == [Discrepancy("house_bonus", 1, 5, None)]


def test_what_if_ruleset_names_the_ruleset_used() -> None:
    sa = audit_session(session(b1_doc()), ruleset="openspiel")
    h = sa.hands[0]
    assert h.ruleset == "openspiel-2.0" and sa.ruleset == "openspiel-2.0"
    # spec B.1 item 8: openspiel scores P1 +50, P2 +50, P3 0, P4 −20
    assert h.recomputed is not None and h.recomputed.totals == [50, 50, 0, -20]
    assert any(d.item == "total" for d in h.discrepancies)


def test_hand_id_is_a_content_hash_independent_of_the_session_id() -> None:
    a, b = b1_doc(), b1_doc()
    b["id"] = "another-session"
    b["event"] = {"name": "elsewhere"}
    sa, sb = session(a), session(b)
    assert hand_content_hash(sa, sa.hands[0]) == hand_content_hash(sb, sb.hands[0])
    assert len(hand_content_hash(sa, sa.hands[0])) == 64
    c = b1_doc()
    c["hands"][0]["actions"][0] = {"type": "bid", "seat": 1, "contract": "two"}
    sc = session(c)
    assert hand_content_hash(sc, sc.hands[0]) != hand_content_hash(sa, sa.hands[0])
    d = b1_doc()
    d["players"][0]["id"] = "someone.else"
    sd = session(d)
    assert hand_content_hash(sd, sd.hands[0]) != hand_content_hash(sa, sa.hands[0])


def test_session_totals_and_their_arithmetic_are_checked() -> None:
    doc = b1_doc()
    doc["recorded"] = {"totals": [135, 135, 0, -10]}
    sa = audit_session(session(doc))
    assert sa.recomputed_totals == [135, 135, 0, -20]
    assert [d.to_dict() for d in sa.discrepancies] == [
        {"item": "session_total", "seat": 3, "recorded": -10, "recomputed": -20},
        {"item": "session_total_sum", "seat": 3, "recorded": -10, "recomputed": -20},
    ]


def test_placement_points_via_the_engine_and_recorded_ones_compared() -> None:
    """B.1 as a round: 135, 135, 0, −20 → seats 0 and 1 share 1st–2nd: (5 + 4) / 2 each
    (spec 11.2, ties averaged), then 3 and 2."""
    doc = b1_doc()
    doc["recorded"] = {"placement_points": [5, 4, 3, 2]}
    sa = audit_session(session(doc))
    assert sa.placement_points == [4.5, 4.5, 3.0, 2.0]
    assert [(d.item, d.seat, d.recorded, d.recomputed) for d in sa.discrepancies] == [
        ("placement_points", 0, 5.0, 4.5), ("placement_points", 1, 4.0, 4.5),
    ]  # fmt: skip


def test_engine_agnostic_audit_with_a_plugged_engine() -> None:
    doc = b1_doc()
    doc["game"], doc["ruleset"] = "zwanzigerrufen", "fake"
    h = doc["hands"][0]
    plays = ["H4", "H3", "S8", "H1", "S1", "S2", "H2", "S3"]  # S8: seat 2 holds H2
    h["actions"] = [{"type": "bid", "seat": 0, "contract": "x"}] + [
        {"type": "play", "seat": i % 4, "card": c} for i, c in enumerate(plays)
    ]
    h["deal"] = {"hands": [["H4", "S1"], ["H3", "S2"], ["S8", "H2"], ["H1", "S3"]], "talon": []}
    h["radelci_before"] = None
    h["result"] = {"scores": [10, 0, 0, 0], "items": [{"item": "contract", "value": 10}]}
    a = audit_session(session(doc), engine=FAKE).hands[0]
    assert a.ruleset == "fake-1" and a.discrepancies == []
    assert [(v.action_index, v.seat, v.card, v.rule) for v in a.violations] == [
        (3, 2, "S8", "fake-1 §1")
    ]


DISPUTED = ROOT / "sample_logs" / "disputed"
MANIFEST = DISPUTED / "disputes.manifest"


def test_disputed_samples_are_flagged_at_the_planted_hand_and_action() -> None:
    import orjson

    expected = orjson.loads(MANIFEST.read_bytes())
    audits = [
        audit_session(r.session, file=Path(r.file).name)
        for r in read_paths(sorted({DISPUTED / e["file"] for e in expected}))
        if r.session is not None
    ]
    audit_tournaments(audits)
    by_id = {a.session: a for a in audits}
    for e in expected:
        sa = by_id[e["session"]]
        flagged_hands = [h for h in sa.hands if h.has_findings]
        if e["hand"] is None:
            assert flagged_hands == []
            pp = e["expect"]["placement_points"]
            assert sa.recorded_placement_points == pp["recorded"]
            assert sa.placement_points == pp["recomputed"]
            assert {d.seat for d in sa.discrepancies if d.item == "placement_points"} == {
                s
                for s, (a, b) in enumerate(zip(pp["recorded"], pp["recomputed"], strict=True))
                if a != b
            }
            continue
        assert [h.hand for h in flagged_hands] == [e["hand"]], e["description"]
        h = flagged_hands[0]
        if "violations" in e["expect"]:
            errs = [v for v in h.violations if v.severity == "error"]
            assert [(v.code, v.action_index, v.seat) for v in errs] == [
                (code, e["action_index"], e["seat"]) for code in e["expect"]["violations"]
            ]
            assert h.discrepancies == []
        else:
            x = e["expect"]
            got = {(d.item, d.seat): (d.recorded, d.recomputed) for d in h.discrepancies}
            for s in x["seats"]:
                assert got[(x["item"], s)] == (x["recorded"], x["recomputed"])
            for s, tot in x["totals"].items():
                assert got[("total", int(s))] == (tot["recorded"], tot["recomputed"])
            assert {d.item for d in sa.discrepancies} == {"session_total"}
    clean = [a for a in audits if a.session not in {e["session"] for e in expected}]
    assert all(not a.has_findings for a in clean)


def test_session_totals_are_a_rule_of_the_game() -> None:
    """Royal Tarock's match result is floor(sum / 8) (royal-tarock.md §7.2): the audit uses
    the engine's ``session_totals`` and, with no engine, does not guess a sum."""
    royal = ROOT / "sample_logs" / "royal" / "worked-examples.json"
    if royal.exists() and get_engine("royal") is None:
        (rec,) = [r for r in read_paths([royal]) if r.session is not None]
        sa = audit_session(rec.session)
        assert sa.discrepancies == [] and sa.recomputed_totals is None
        assert any("no rules engine for royal" in u for u in sa.unverified)

    class MatchEngine(type(FAKE)):  # type: ignore[misc]
        def session_totals(self, ruleset, rows):  # type: ignore[no-untyped-def]
            return [sum(r[s] for r in rows) // 8 for s in range(len(rows[0]))]

    doc = b1_doc()
    doc["game"], doc["ruleset"] = "zwanzigerrufen", "fake"
    h = doc["hands"][0]
    h["actions"] = [{"type": "bid", "seat": 0, "contract": "x"}] + [
        {"type": "play", "seat": s, "card": c} for s, c in enumerate(["H4", "H3", "H2", "H1"])
    ]
    h["deal"] = {"hands": [["H4"], ["H3"], ["H2"], ["H1"]], "talon": []}
    h["radelci_before"] = None
    h["result"] = {"scores": [10, 0, 0, 0], "items": []}
    doc["hands"] = [{**h, "number": k} for k in range(1, 9)]
    doc["recorded"] = {"totals": [10, 0, 0, 0]}  # the plain sum is 80: wrong for this game
    sa = audit_session(session(doc), engine=MatchEngine())
    assert sa.recomputed_totals == [10, 0, 0, 0] and sa.recorded_hand_sum == [10, 0, 0, 0]
    assert sa.discrepancies == []


def test_a_session_without_hands_is_unverified_and_its_tournament_still_ranks() -> None:
    """A session none of whose hands is there (a store keeps a hand once, under the first
    session that brought it) recomputes nothing; its tournament ranks the others."""
    from tarock_logs.verdict.tournament import audit_tournaments

    empty = b1_doc()
    empty["hands"] = []
    empty["id"] = "empty"
    sa = audit_session(session(empty))
    assert sa.recomputed_totals is None and sa.verification == "unverified"
    assert any("no hands" in u for u in sa.unverified)
    (t,) = audit_tournaments([sa, audit_session(session(b1_doc()))])
    assert t.verification == "partial" and len(t.standings) == 4
