"""Bidding (spec section 4): the worked examples B1–B11 of section 4.5, and openspiel bidding."""

from __future__ import annotations

import pytest

from tarock_logs.rules.base import Action

from .helpers import bid, new_hand

DEAL4 = [
    "T19 T18 T16 T15 T6 T1 HK H4 DJ C10 SK S9",
    "T14 T7 T4 T2 HN DK D2 CK CJ C8 C7 SJ",
    "T22 T13 T8 HQ HJ H2 H3 D3 D4 SN S10 S8",
    "T21 T17 T11 T9 T5 DQ DN D1 CQ CN C9 SQ",
]
TALON = "T3 S7 T12 H1 T20 T10"
DEAL3 = [
    "T19 T18 T16 T15 T6 T1 HK H4 DJ C10 SK S9 T14 T7 T4 T2",
    "HN DK D2 CK CJ C8 C7 SJ T22 T13 T8 HQ HJ H2 H3 D3",
    "D4 SN S10 S8 T21 T17 T11 T9 T5 DQ DN D1 CQ CN C9 SQ",
]


def run(calls: str, deal: list[str] = DEAL4, ruleset: str = "tournament"):
    """Calls as "P2:pass P3:one ..." (P-numbers relative to forehand, dealer = last seat)."""
    h = new_hand(deal, TALON, ruleset=ruleset, dealer=len(deal) - 1)
    codes = []
    for tok in calls.split():
        p, c = tok.split(":")
        codes += [v.code for v in h.push(bid(h.active[int(p[1:]) - 1], c))]
    return h, codes


@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
def test_B1_everybody_passes_forehand_declares_klop(ruleset):
    h, codes = run("P2:pass P3:pass P4:pass P1:klop", ruleset=ruleset)
    assert codes == [] and h.contract == "klop" and h.declarer is None


def test_B2_forehand_plays_the_mandatory_three():
    h, codes = run("P2:pass P3:pass P4:pass P1:three")
    assert codes == [] and (h.contract, h.declarer) == ("three", 0) and h.phase == "king_call"


def test_B3_forehand_raises_after_everybody_passed():
    h, codes = run("P2:pass P3:pass P4:pass P1:solo_two")
    assert codes == [] and (h.contract, h.declarer) == ("solo_two", 0) and h.phase == "talon"


def test_B4_equal_bid_by_priority_and_final_raise():
    h, codes = run("P2:two P3:one P4:pass P1:one P2:solo_three P3:pass P1:pass P2:solo_two")
    assert codes == [] and (h.contract, h.declarer) == ("solo_two", 1)


def test_B5_forehand_takes_over_two_by_priority():
    h, codes = run("P2:two P3:pass P4:pass P1:two P2:pass P1:two")
    assert codes == [] and (h.contract, h.declarer) == ("two", 0)


def test_B6_three_only_for_forehand():
    _, codes = run("P2:three")
    assert codes == ["bid.three_not_forehand"]


def test_B7_equal_bid_needs_higher_priority():
    _, codes = run("P2:two P3:two")
    assert codes == ["bid.too_low"]


def test_B8_no_bid_after_passing():
    _, codes = run("P2:pass P3:one P4:pass P1:pass P2:solo_one")
    assert codes == ["bid.after_pass"]


def test_B9_higher_priority_may_match_the_bid():
    h, codes = run("P2:two P3:one P4:pass P1:pass P2:one")
    assert codes == [] and h.high == "one" and h.holder == 1


def test_B10_final_raise_to_odprti_berac():
    h, codes = run("P2:berac P3:pass P4:pass P1:pass P2:odprti_berac")
    assert codes == [] and (h.contract, h.declarer) == ("odprti_berac", 1)
    assert h.phase == "announcements"  # no talon, no king: only kontras remain


def test_B11_no_solo_three_at_three_active_players():
    _, codes = run("P2:solo_three", deal=DEAL3)
    assert codes == ["bid.not_available_for_table"]


def test_explicit_opening_three_is_accepted():
    h, codes = run("P1:three P2:pass P3:pass P4:pass P1:three")
    assert codes == [] and (h.contract, h.declarer) == ("three", 0)


def test_forehand_opening_with_another_call_is_out_of_turn():
    _, codes = run("P1:two")
    assert codes == ["bid.out_of_turn"]


def test_missing_final_after_everybody_passed_is_reported():
    h, _ = run("P2:pass P3:pass P4:pass")
    codes = [v.code for v in h.push(Action("play", 0, card="T1"))]
    assert "bid.missing_final" in codes and h.contract == "klop"


def test_missing_final_after_a_won_auction_assumes_the_held_bid():
    h, _ = run("P2:two P3:pass P4:pass P1:pass")
    codes = [v.code for v in h.push(Action("call", 1, card="HK"))]
    assert codes == [] and (h.contract, h.declarer, h.called_king) == ("two", 1, "HK")


def test_final_below_high_is_reported():
    _, codes = run("P2:one P3:pass P4:pass P1:pass P2:two")
    assert codes == ["bid.final_below_high"]


def test_bid_out_of_turn():
    _, codes = run("P3:two")
    assert codes == ["bid.out_of_turn"]


def test_legal_bids_of_forehand_after_everybody_passed_have_no_pass():
    h, _ = run("P2:pass P3:pass P4:pass")
    acts = h.legal_actions()
    assert [a.contract for a in acts][:3] == ["klop", "three", "two"]
    assert all(a.type == "bid" for a in acts) and len(acts) == 12


def test_legal_bids_respect_priority():
    h, _ = run("P2:two P3:one")
    # P4 (lower priority than P3) must go higher than one
    assert [a.contract or a.type for a in h.legal_actions()][:2] == ["pass", "solo_three"]
    h, _ = run("P2:two P3:one P4:pass")
    # P1 may match one
    assert [a.contract or a.type for a in h.legal_actions()][:2] == ["pass", "one"]


def test_legal_bids_at_three_players_skip_the_solos():
    h, _ = run("P2:two", deal=DEAL3)
    assert [a.contract or a.type for a in h.legal_actions()] == [
        "pass",
        "one",
        "berac",
        "solo_brez",
        "odprti_berac",
        "barvni_valat",
        "valat",
    ]


def test_table_of_five_dealer_sits_out_and_p1_follows_dealer():
    deal = ["", *DEAL4]  # seat 0 deals and sits out
    h = new_hand(deal, TALON, dealer=0)
    assert h.active == (1, 2, 3, 4) and h.to_move() == 2 and h.deal_violations == []
    codes = [v.code for v in h.push(bid(0, "two"))]
    assert codes == ["action.seat_not_active"]


@pytest.mark.parametrize(
    "ruleset,klop,keep",
    [
        ("tournament", ("bid.pass_as_klop", "warning"), ("bid.pass_as_final", "warning")),
        ("openspiel", ("bid.final_pass", "error"), ("bid.final_pass", "error")),
    ],
)
def test_final_pass_is_read_as_klop_leniently_only_in_tournament(ruleset, klop, keep):
    """Spec 4.4: a pass as the final declaration is read (klop after everybody passed, else
    keeping the winning bid): a warning where the ruleset reads it leniently, an error with its
    own code where it does not exist (openspiel)."""
    h, _ = run("P2:pass P3:pass P4:pass", ruleset=ruleset)
    found = h.push(bid(0, "pass"))
    assert [(v.code, v.severity) for v in found] == [klop]
    assert h.contract == "klop"
    h, _ = run("P2:two P3:pass P4:pass P1:pass", ruleset=ruleset)
    found = h.push(bid(1, "pass"))
    assert [(v.code, v.severity) for v in found] == [keep]
    assert (h.contract, h.declarer) == ("two", 1)
