"""Royal Tarock hands and matches: throw-in (§3.4, E12), deal checks (§3.3), the dealer
rotation (§3.2), the view, pop, and the sample match replayed through replay/audit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarock_logs.log.models import SessionAdapter
from tarock_logs.log.reader import read_paths
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Action, DealInfo, GameEngine, HandState, SeatRole, SessionState
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
            "points_unit": "tricks",  # (Royal Tarock counts tricks, not card points)
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


# --------------------------------------------------------------------- pairs from the log


ROLES = [
    SeatRole("A", "abfaenger"),
    SeatRole("A", "eintreiber"),
    SeatRole("B", "abfaenger"),
    SeatRole("B", "eintreiber"),
]


def _recorded_session():  # type: ignore[no-untyped-def]
    ss = ENGINE.new_session(ENGINE.ruleset("royal", {"consolation": 0}), 4)
    ss.set_seats(ROLES)
    return ss


def test_the_pairs_come_from_the_recorded_roles_and_an_abfaenger_dealing_is_reported():
    """§3.2, the seed: "Die Karten müssen immer vom Eintreiber der Verteidigungspartei gegeben
    werden". The parties follow the recorded pairs (the dealer's pair defends), not the
    dealer's seat; a dealer who is not his pair's Eintreiber is deal.dealer_not_eintreiber."""
    normal = deal_of(E8_TRICKS)  # T19 with seat 0, T20 with seat 1: pair A attacks
    ok = _recorded_session().new_hand(3, normal)
    assert isinstance(ok, RoyalHand) and ok.parties == ((0, 1), (2, 3))
    assert ok.hand_findings() == []
    wrong = _recorded_session().new_hand(2, normal)  # pair B's Abfänger deals
    assert isinstance(wrong, RoyalHand) and wrong.parties == ((0, 1), (2, 3))
    (v,) = wrong.hand_findings()
    assert v.code == "deal.dealer_not_eintreiber" and v.seat == 2 and v.params["expected"] == 3
    assert v.rule == "royal-gerots-2023 §3.2"
    # derived from the dealer alone the parties would be wrong, and so would the honours
    derived = ENGINE.new_session(ENGINE.ruleset("royal", {"consolation": 0}), 4).new_hand(2, normal)
    assert isinstance(derived, RoyalHand) and derived.parties == ((3, 0), (1, 2))


def test_the_pack_is_cut_by_the_attacking_eintreiber():
    """§3.3 (seed): "wonach der Eintreiber der Angriffspartei die Karten abhebt"."""
    normal = deal_of(E8_TRICKS)
    assert _recorded_session().new_hand(3, normal, deal=DealInfo(cut_by=1)).hand_findings() == []
    (v,) = _recorded_session().new_hand(3, normal, deal=DealInfo(cut_by=2)).hand_findings()
    assert (v.code, v.seat, v.params["expected"]) == ("deal.wrong_cutter", 2, 1)


def _misdealt_session(actions: list[dict]) -> bytes:
    """The sample match's first game with one card moved from seat 2 to seat 3 (9 and 11
    cards), with ``actions``."""
    doc = json.loads(SAMPLE.read_text(encoding="utf-8"))
    s = dict(doc[0] if isinstance(doc, list) else doc)
    h = json.loads(json.dumps(s["hands"][0]))
    hands = h["deal"]["hands"]
    moved = next(c for c in hands[2] if c[0] != "T")
    hands[2].remove(moved)
    hands[3].append(moved)
    h.pop("result", None)
    s.pop("recorded", None)
    s["hands"] = [{**h, "number": 1, "actions": actions}]
    return json.dumps(s).encode()


def test_a_recorded_misdeal_reaches_the_engine_and_is_judged():
    """§3.4 (seed): "Wenn falsch gegeben wurde ... muss er das zeigen und das Spiel damit
    annullieren". A deal of 9 and 11 cards thrown in by the player with 9 is read (the wrong
    counts are the reader's warnings, deal.misdeal_count) and judged by the engine: a valid
    throw-in. Thrown in by a player with a sound hand, it is the engine's throw_in.unjustified."""
    from tarock_logs.log.reader import read_bytes

    for seat, want in ((2, []), (0, ["throw_in.unjustified"])):
        (rec,) = read_bytes(_misdealt_session([{"type": "throw_in", "seat": seat}]), kind="json")
        assert [e.code for e in rec.all_errors()] == ["deal.misdeal_count"] * 2
        assert rec.session is not None and len(rec.session.hands) == 1
        (r,) = replay_session(rec.session)
        assert [v.code for v in r.violations if v.severity == "error"] == want
    # not recorded as a misdeal (played on), the wrong counts stay the reader's errors
    (rec,) = read_bytes(_misdealt_session([]), kind="json")
    assert {e.code for e in rec.all_errors()} == {"deal.count"}


# --------------------------------------------------------------- consolation and the match


def _sample_match(options: dict | None = None, hands: slice = slice(None)) -> bytes:
    doc = json.loads(SAMPLE.read_text(encoding="utf-8"))
    s = dict(doc[0] if isinstance(doc, list) else doc)
    s["options"] = {k: v for k, v in s["options"].items() if k != "consolation"} | (options or {})
    s["hands"] = s["hands"][hands]
    if hands != slice(None):
        s.pop("recorded", None)
    return json.dumps(s).encode()


def _audit(data: bytes):  # type: ignore[no-untyped-def]
    from tarock_logs.log.reader import read_bytes

    (rec,) = read_bytes(data, kind="json")
    assert rec.session is not None and not rec.all_errors()
    return audit_session(rec.session)


def test_a_recorded_consolation_is_a_claimed_value_never_a_discrepancy():
    """§7.1: the consolation's formula is unknown. Without the ruleset option, a score sheet's
    consolation line is a claimed value: no "recorded 30, recomputed null" discrepancy, the
    hand partial (the party totals it decides are not compared), and the consolation each game
    implies is reported; the sample match scored with 0 implies 0 everywhere."""
    sa = _audit(_sample_match())
    assert not [d for h in sa.hands for d in h.discrepancies]
    assert all(h.verification == "partial" for h in sa.hands)
    notes = [u for h in sa.hands for u in h.unverified if u.startswith("consolation:")]
    assert len(notes) == len(sa.hands) and all("seat 0 +0" in u for u in notes)
    assert not [u for u in sa.unverified if "not the same in every hand" in u]


def test_a_consolation_that_differs_between_games_is_reported_for_the_session():
    doc = json.loads(_sample_match())
    for k, h in enumerate(doc["hands"][:2]):
        for it in h["result"]["items"]:
            if it["item"] == "consolation" and k == 1:
                it["value"] += 5
        if k == 1 and not any(it["item"] == "consolation" for it in h["result"]["items"]):
            h["result"]["items"].append({"item": "consolation", "seat": 0, "value": 5})
    sa = _audit(json.dumps(doc).encode())
    assert any("consolation of seat 0 is not the same in every hand" in u for u in sa.unverified)
    assert not [d for h in sa.hands for d in h.discrepancies if d.item == "consolation"]


def test_a_match_shorter_than_its_match_length_is_flagged_incomplete():
    """§7.2: the match result is each total divided by the match length (8); a one-game
    "match" (floor(15 / 8) = 1) is not a finished match, and the audit says so."""
    one = _audit(_sample_match({"consolation": 0}, slice(0, 1)))
    assert any("the match is incomplete: 1 of 8 games" in u for u in one.unverified)
    full = _audit(_sample_match({"consolation": 0}))
    assert not any("incomplete" in u for u in full.unverified)
