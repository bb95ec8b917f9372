"""Royal Tarock hands and matches: throw-in (§3.4, E12), deal checks (§3.3), the dealer
rotation (§3.2), the view, pop, and the sample match replayed through replay/audit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarock_logs.log.models import SessionAdapter
from tarock_logs.log.reader import read_paths
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Action, GameEngine, HandState, SessionState
from tarock_logs.rules.royal import ENGINE, RoyalHand
from tarock_logs.verdict.audit import audit_session
from tarock_logs.verdict.replay import replay_session
from tests.support.royal_support import (
    A1,
    A2,
    B1,
    B2,
    E8_TRICKS,
    deal_of,
    new_hand,
    push_all,
    turns,
)

ROOT = Path(__file__).resolve().parents[3]
SAMPLE = ROOT / "sample_logs" / "royal" / "worked-examples.json"

# E12: the defenders' Abfänger (seat 2, dealer 3) holds only T7 and T15 as tarocks
SHORT_DEAL = [
    ["T19", "T22", "T21", "T5", "T4", "T3", "T2", "T1", "HK", "HQ"],
    ["T20", "T18", "T17", "T16", "T14", "T13", "T12", "T11", "HN", "HJ"],
    ["T7", "T15", "DK", "DQ", "DN", "DJ", "SK", "SQ", "SN", "SJ"],
    ["T10", "T9", "T8", "T6", "S10", "CK", "CQ", "CN", "CJ", "C10"],
]


def test_engine_is_registered_and_satisfies_the_contract() -> None:
    eng = get_engine("royal")
    assert eng is ENGINE and isinstance(eng, GameEngine)
    rs = eng.ruleset("royal-seed")  # the sample's alias
    assert rs.id == "royal-gerots-2023" and rs.cite("6.2") == "royal-gerots-2023 §6.2"
    ss = eng.new_session(rs, 4)
    assert isinstance(ss, SessionState)
    assert isinstance(ss.new_hand(3, SHORT_DEAL), HandState)
    with pytest.raises(ValueError, match="two pairs"):
        eng.new_session(rs, 5)
    with pytest.raises(KeyError):
        eng.ruleset("si-tournament-2021")


def test_e12_a_hand_with_two_tarocks_must_be_thrown_in() -> None:
    hand = new_hand(SHORT_DEAL)
    assert hand.legal_actions() == [Action("throw_in", B1)]
    assert hand.check(Action("throw_in", B1)) == []
    [v] = hand.check(Action("pass", B2))
    assert v.code == "throw_in.required" and v.rule == "royal-gerots-2023 §3.4"
    assert "seat 2" in v.message and "2 tarocks" in v.message


def test_e12_a_played_short_deal_is_reported_once() -> None:
    hand = new_hand(SHORT_DEAL)
    found = push_all(hand, turns(B2, A1, A2, B1))
    assert [v.code for v in found] == ["throw_in.required"]


def test_a_throw_in_ends_the_deal_with_no_score() -> None:
    hand = new_hand(SHORT_DEAL)
    assert hand.push(Action("throw_in", B1)) == []
    assert hand.is_over() and hand.score().totals == (0, 0, 0, 0)
    assert hand.legal_actions() == []


def test_invalid_throw_ins() -> None:
    normal = deal_of(E8_TRICKS)
    hand = new_hand(normal)
    [v] = hand.check(Action("throw_in", A1))
    assert v.code == "throw_in.unjustified" and "tarocks" in v.message
    short = new_hand(SHORT_DEAL)
    assert [v.code for v in short.check(Action("throw_in", A1))] == ["throw_in.unjustified"]
    late = new_hand(normal)
    late.push(Action("pass", B2))
    assert [v.code for v in late.check(Action("throw_in", A1))] == ["throw_in.unjustified"]


def test_deal_findings_honours_and_pack() -> None:
    hands = deal_of(E8_TRICKS)
    # swap XIX (seat 0) and XX (seat 1): both honours go to the wrong attacker
    hands[0] = ["T20" if c == "T19" else c for c in hands[0]]
    hands[1] = ["T19" if c == "T20" else c for c in hands[1]]
    hand = new_hand(hands)
    assert [(v.code, v.card) for v in hand.hand_findings()] == [
        ("deal.honours", "T19"),
        ("deal.honours", "T20"),
    ]
    hands[3] = hands[3][:-1] + [hands[2][0]]
    assert "deal.not_the_pack" in [v.code for v in new_hand(hands).hand_findings()]


def test_xix_to_the_defending_abfaenger_is_an_option() -> None:
    hands = deal_of(E8_TRICKS)  # XIX with seat 0, the attacking Abfänger
    assert [
        v.code for v in new_hand(hands, xix_recipient="defending_abfaenger").hand_findings()
    ] == ["deal.honours"]


def test_cards_outside_the_pack_are_refused() -> None:
    hands = deal_of(E8_TRICKS)
    hands[0][0] = "H1"
    with pytest.raises(ValueError, match="not in the Royal Tarock pack"):
        new_hand(hands)


def test_match_dealer_rotation_and_throw_ins() -> None:
    rs = ENGINE.ruleset("royal", {"consolation": 0})
    ss = ENGINE.new_session(rs, 4)
    normal = deal_of(E8_TRICKS)
    h1 = ss.new_hand(3, normal)
    assert isinstance(h1, RoyalHand) and h1.hand_findings() == []
    push_all(
        h1, turns(B2, A1, A2, B1) + [Action("play", s, card=c) for t in E8_TRICKS for s, c in t]
    )
    ss.end_hand(h1, h1.score())
    assert ss.carry()["next_dealer"] == 1 and ss.carry()["games"] == 1
    # the same dealer again: attack and defence did not alternate (§3.2); the reader, which
    # sees the whole match, reports it (deal.dealer_rotation), not the engine
    h2 = ss.new_hand(3, normal)
    assert h2.hand_findings() == [] and ENGINE.next_dealer(3, 4) == 1
    # an Abfänger dealing
    h3 = ss.new_hand(0, normal)
    assert next(v.code for v in h3.hand_findings()) == "deal.dealer_not_eintreiber"
    # a thrown-in deal is dealt again by the same dealer and is not a game
    h4 = ss.new_hand(1, normal)
    h4.push(Action("throw_in", 0))
    ss.end_hand(h4, h4.score())
    assert ss.carry()["next_dealer"] == 1 and ss.carry()["games"] == 1


def test_pop_undoes_push() -> None:
    hand = new_hand(deal_of(E8_TRICKS))
    acts = turns(B2, A1, A2, B1) + [Action("play", s, card=c) for t in E8_TRICKS[:3] for s, c in t]
    views = []
    for a in acts:
        views.append(hand.view())
        hand.push(a)
    for a in reversed(acts):
        assert hand.pop() == a
        assert hand.view() == views.pop()
    with pytest.raises(IndexError):
        hand.pop()


def test_view_has_the_contract_keys() -> None:
    hand = new_hand(deal_of(E8_TRICKS))
    push_all(hand, turns(B2, A1, A2, B1) + [Action("play", s, card=c) for s, c in E8_TRICKS[0]])
    v = hand.view()
    for key in (
        "phase",
        "to_move",
        "hands",
        "trick",
        "tricks",
        "talon",
        "discards",
        "contract",
        "declarer",
        "partner",
        "bids",
        "announcements",
        "kontras",
    ):
        assert key in v
    assert v["talon"] == [] and v["discards"] == [] and v["contract"] is None
    assert v["tricks"] == [
        {
            "leader": 1,
            "cards": [[1, "T20"], [2, "T1"], [3, "T6"], [0, "T2"]],
            "winner": 1,
            "points": 0,
        }
    ]
    assert v["bids"] == [[3, "pass"], [0, "pass"], [1, "pass"], [2, "pass"]]
    assert v["pairs"] == {"attackers": [0, 1], "defenders": [2, 3]}
    json.dumps(v)


# --------------------------------------------------------------------------- the sample


def _sample_session():  # type: ignore[no-untyped-def]
    (rec,) = [r for r in read_paths([SAMPLE]) if r.session is not None]
    return rec.session


def test_sample_match_replays_legal_with_its_recorded_scores() -> None:
    session = _sample_session()
    replays = replay_session(session)
    assert all(r.legal and r.verified and not r.unverified for r in replays)
    sa = audit_session(session)
    assert [h.discrepancies for h in sa.hands] == [[]] * 8
    assert sa.recomputed_totals == [11, 11, 21, 21] == sa.recorded_totals
    assert sa.discrepancies == []


def test_sample_under_a_user_catalogue_file_shows_the_changed_value(tmp_path: Path) -> None:
    """A session option ``catalogue_path`` points the engine at a user's catalogue file."""
    path = tmp_path / "club.json"
    path.write_text(
        json.dumps(
            {
                "extends": "royal-gerots-2023",
                "catalogue": "club-2024",
                "items": [{"id": "F_SPIEL", "value": 11}],
            }
        )
    )
    doc = json.loads(SAMPLE.read_text())
    doc["options"]["catalogue_path"] = str(path)
    session = SessionAdapter.validate_python(doc)
    sa = audit_session(session)
    first = sa.hands[0]  # A's Spiel lost: -10 recorded, -11 under the club catalogue
    assert {(d.item, d.seat, d.recorded, d.recomputed) for d in first.discrepancies} >= {
        ("F_SPIEL", 0, -10, -11),
        ("F_SPIEL", 1, -10, -11),
    }


def test_a_bad_catalogue_file_is_a_clear_setup_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"items": [{"id": "X", "group": "nonsense"}]}')
    with pytest.raises(ValueError, match="group"):
        ENGINE.ruleset("royal", {"catalogue_path": str(path)})
    doc = json.loads(SAMPLE.read_text())
    doc["options"]["catalogue_path"] = str(path)
    replays = replay_session(SessionAdapter.validate_python(doc))
    assert all(r.score is None and any("group" in u for u in r.unverified) for r in replays)


def test_recorded_irregularities_are_not_applied_but_reported_unverified() -> None:
    from tarock_logs.rules.base import Irregularity

    rs = ENGINE.ruleset("royal", {"consolation": 0})
    hand = RoyalHand(rs, 3, deal_of(E8_TRICKS), (), [Irregularity("penalty", seat=0, points=5)])
    push_all(
        hand, turns(B2, A1, A2, B1) + [Action("play", s, card=c) for t in E8_TRICKS for s, c in t]
    )
    score = hand.score()
    assert score.totals == (65, 65, 5, 5)
    assert any("irregularities (penalty) are not applied" in u for u in score.unverified)


def test_a_recorded_line_for_an_item_of_unknown_value_is_not_checked_rather_than_wrong() -> None:
    doc = json.loads(SAMPLE.read_text())
    doc["hands"][0]["result"]["items"].append({"item": "TR_VALAT", "value": 0, "seat": 0})
    sa = audit_session(SessionAdapter.validate_python(doc))
    first = sa.hands[0]
    assert first.discrepancies == []
    assert any("TR_VALAT" in u and "not checked" in u for u in first.unverified)
