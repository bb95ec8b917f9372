"""The auction test cases AT1–AT18 of zwanzigerrufen.md §4.9, plus the other §4 codes."""

from __future__ import annotations

import pytest

from tarock_logs.rules.base import Action
from tests.support.zwanzigerrufen_support import (
    auction,
    codes,
    deal_with,
    error_codes,
    fd_hand,
    new_hand,
    push_all,
    seat,
)

W1_AUCTION = (
    "1 P1 [CALL T19] · 2 P2 [KONTRA GAME, ANN ABSOLUT DAGEGEN] · 3 P3 [KONTRA ABSOLUT] · "
    "4 P4 [ANN PAGAT DAGEGEN] · 5 P1 [KONTRA PAGAT] · 6 P2 [] · 7 P3 [] · 8 P4 [] · 9 P1 []"
)


def levels(hand):  # bonus -> (side, level)
    return {k[0]: (v["side"], v["level"]) for k, v in hand.auction.announced.items()}


def test_at1_seed_auction_is_valid_and_gives_the_seed_levels():
    hand = fd_hand("FD1")
    found = push_all(hand, auction(W1_AUCTION))
    assert codes(found) == []
    a = hand.auction
    assert (a.contract, a.holder, a.called, a.partner) == ("normal", seat("P1"), "T19", seat("P3"))
    assert a.game_level == 1
    assert levels(hand) == {"absolut": ("dagegen", 1), "pagat": ("dagegen", 1)}
    assert a.turns_done == 9 and a.over and hand.phase == "play"


def test_at2_forehand_may_not_call_a_tarock_she_holds():
    found = push_all(fd_hand("FD1"), auction("1 P1 [CALL T20]"))
    assert "call.self_call" in error_codes(found)


def test_at3_call_must_be_the_highest_missing_tarock():
    found = push_all(fd_hand("FD1"), auction("1 P1 [CALL T17]"))
    assert error_codes(found) == ["call.wrong_tarock"]
    hand = fd_hand("FD1", {"call_rule": "any_missing"})
    assert error_codes(push_all(hand, auction("1 P1 [CALL T17]"))) == []
    assert hand.auction.partner == seat("P2")


def test_at4_farbensolo_needs_five_suit_cards():
    found = push_all(
        fd_hand("FD1"), auction("1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 [FARBENSOLO]")
    )
    assert error_codes(found) == ["auction.farbensolo_ineligible"]


def test_at5_defender_may_not_announce_dazu():
    found = push_all(fd_hand("FD1"), auction("1 P1 [CALL T19] · 2 P2 [ANN ABSOLUT DAZU]"))
    assert error_codes(found) == ["announce.wrong_side"]


def test_at6_partner_may_not_kontra_his_own_game():
    found = push_all(fd_hand("FD1"), auction("1 P1 [CALL T19] · 2 P2 [] · 3 P3 [KONTRA GAME]"))
    assert error_codes(found) == ["kontra.wrong_side"]


def test_at7_pagat_dagegen_needs_a_kontra_on_the_game():
    found = push_all(
        fd_hand("FD1"), auction("1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 [ANN PAGAT DAGEGEN]")
    )
    assert error_codes(found) == ["announce.pagat_dagegen_without_kontra"]


def test_at8_retour_belongs_to_the_declarer_side():
    found = push_all(
        fd_hand("FD1"),
        auction("1 P1 [CALL T19] · 2 P2 [KONTRA GAME] · 3 P3 [] · 4 P4 [RETOUR GAME]"),
    )
    assert error_codes(found) == ["kontra.wrong_side"]


def test_at9_kontra_on_an_unannounced_bonus_is_rejected():
    hand = fd_hand("FD1")
    found = push_all(hand, auction("1 P1 [CALL T19] · 2 P2 [KONTRA PAGAT]"))
    assert error_codes(found) == ["kontra.bad_target"]
    assert hand.auction.announced == {}


def test_at10_overcall_voids_announcements_and_the_implied_kontra():
    hand = fd_hand("FD1")
    found = push_all(
        hand,
        auction(
            "1 P1 [CALL T19] · 2 P2 [ANN ABSOLUT DAGEGEN] · 3 P3 [SOLO] · 4 P4 [] · 5 P1 [] · "
            "6 P2 [] · 7 P3 []"
        ),
    )
    assert error_codes(found) == []
    # actions: 0 call, 1 pass, 2 announce (turn 2), 3 pass, 4 solo (turn 3), ...
    assert [v.code for v in found[2]] == ["kontra.implied"]
    assert [v.code for v in found[4]] == ["announce.voided_by_overcall"]
    a = hand.auction
    assert (a.contract, a.holder, a.game_level, a.announced) == ("solo", seat("P3"), 0, {})
    assert a.over


def test_at11_forehand_may_overcall_after_being_overcalled():
    hand = fd_hand("FD3")
    found = push_all(
        hand,
        auction(
            "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [FARBENSOLO] · 4 P4 [] · 5 P1 [SOLO] · 6 P2 [] · "
            "7 P3 [] · 8 P4 [] · 9 P1 []"
        ),
    )
    assert codes(found) == []
    assert (hand.auction.contract, hand.auction.holder) == ("solo", seat("P1"))
    assert hand.auction.over


def test_at12_a_player_who_passed_on_the_contract_may_not_overcall():
    found = push_all(
        fd_hand("FD3"),
        auction("1 P1 [CALL T20] · 2 P2 [] · 3 P3 [FARBENSOLO] · 4 P4 [] · 5 P1 [] · 6 P2 [SOLO]"),
    )
    assert error_codes(found) == ["auction.already_passed"]


def test_at13_no_overcall_after_the_contract_closed():
    found = push_all(
        fd_hand("FD1"), auction("1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 [SOLO]")
    )
    # C5 (a) and (d): the contract has closed, and P1 holds it (every rule broken is reported)
    assert error_codes(found) == ["auction.contract_closed", "auction.own_contract"]


def test_at14_forehand_must_declare_in_her_first_turn():
    found = push_all(fd_hand("FD1"), auction("1 P1 []"))
    assert error_codes(found) == ["auction.forehand_must_declare"]


def test_at15_a_log_ending_before_four_empty_turns_is_incomplete():
    hand = fd_hand("FD1")
    found = push_all(hand, auction("1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 []"))
    assert codes(found) == []
    assert not hand.is_over()
    assert [v.code for v in hand.hand_findings()] == ["auction.incomplete"]


def test_at16_pagat_dagegen_by_the_partner_of_the_holder():
    text = (
        "1 P1 [CALL T19] · 2 P2 [KONTRA GAME, ANN PAGAT DAGEGEN] · 3 P3 [] · 4 P4 [] · "
        "5 P1 [] · 6 P2 []"
    )
    hand = fd_hand("FD1")
    assert codes(push_all(hand, auction(text))) == []
    assert levels(hand) == {"pagat": ("dagegen", 0)}
    assert hand.auction.game_level == 1 and hand.auction.over
    strict = fd_hand("FD1", {"pagat_announcer": "holder_only"})
    found = push_all(strict, auction(text))
    assert error_codes(found) == ["announce.pagat_not_held"]
    assert error_codes(found[:4]) == ["announce.pagat_not_held"]  # at turn 2 (actions 2-4)


@pytest.mark.parametrize("announcer", ["any_side_member", "holder_only"])
def test_at17_a_side_without_the_pagat_cannot_announce_it(announcer):
    hand = fd_hand("FD1", {"pagat_announcer": announcer})
    assert error_codes(push_all(hand, auction("1 P1 [CALL T19, ANN PAGAT DAZU]"))) == [
        "announce.pagat_not_held"
    ]


def _at18_hands():
    return deal_with({1: "T20 T19 T18 T17 T16 HK HQ HN DK DQ".split()})


def test_at18_forehand_with_xx_to_xvi_must_declare_solo():
    hands = _at18_hands()
    assert error_codes(push_all(new_hand(hands), auction("1 P1 [FARBENSOLO]"))) == [
        "auction.solo_required"
    ]
    assert (
        error_codes(
            push_all(
                new_hand(hands, {"forehand_all_five": "any_solo"}), auction("1 P1 [FARBENSOLO]")
            )
        )
        == []
    )
    for opts in ({}, {"forehand_all_five": "any_solo"}):
        hand = new_hand(hands, opts)
        found = push_all(hand, auction("1 P1 [SOLO] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []"))
        assert codes(found) == [] and hand.auction.over and hand.auction.contract == "solo"


# ----------------------------------------------------------------- other codes of §4


def test_full_kontra_chain_stops_at_resupra():
    hand = fd_hand("FD2")  # P1 calls T20, P2 partner
    text = (
        "1 P1 [CALL T20] · 2 P3 [KONTRA GAME] · 3 P4 [] · 4 P1 [RETOUR GAME] · 5 P2 [] · "
        "6 P3 [SUPRA GAME] · 7 P4 [] · 8 P1 [RESUPRA GAME]"
    )
    # P3 speaks second here only to keep the chain short: that is a turn-order error
    found = push_all(hand, auction(text))
    assert "auction.turn_order" in codes(found)
    assert hand.auction.game_level == 4
    found = hand.push(Action("kontra", seat("P2"), target="game", level=5))
    # K3 (no fifth level) and K4 (an odd level comes from the opponents of the declarer side,
    # and P2 is on it): both reported, in that order, and the declaration is ignored
    assert [v.code for v in found] == ["kontra.level", "kontra.wrong_side"]
    assert hand.auction.game_level == 4


def test_max_kontra_level_option_limits_the_chain():
    hand = fd_hand("FD2", {"max_kontra_level": 3})
    push_all(
        hand,
        auction(
            "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [KONTRA GAME] · 4 P4 [] · "
            "5 P1 [RETOUR GAME] · 6 P2 [] · 7 P3 [SUPRA GAME]"
        ),
    )
    assert hand.auction.game_level == 3
    found = push_all(hand, auction("8 P4 [] · 9 P1 [RESUPRA GAME]"))
    assert error_codes(found) == ["kontra.level"]


def test_turn_out_of_order_is_reported():
    found = push_all(fd_hand("FD1"), auction("1 P1 [CALL T19] · 2 P3 []"))
    assert error_codes(found) == ["auction.turn_order"]
    assert found[-1][0].seat == seat("P3")


def test_only_forehand_may_call():
    found = push_all(fd_hand("FD1"), auction("1 P1 [CALL T19] · 2 P2 [CALL T20]"))
    assert error_codes(found) == ["call.not_forehand"]


def test_farbensolo_does_not_overcall_solo():
    found = push_all(fd_hand("FD3"), auction("1 P1 [SOLO] · 2 P2 [] · 3 P3 [FARBENSOLO]"))
    assert error_codes(found) == ["auction.not_higher"]


def test_overcall_must_be_the_first_declaration_of_a_turn():
    hand = fd_hand("FD3")
    found = push_all(
        hand, auction("1 P1 [CALL T20] · 2 P2 [] · 3 P3 [ANN ABSOLUT DAGEGEN, FARBENSOLO]")
    )
    assert "auction.declaration_position" in error_codes(found)


def test_trull_four_kings_and_mondfang_are_not_announceable():
    for bonus in ("TRULL", "FOUR_KINGS", "MONDFANG"):
        found = push_all(fd_hand("FD1"), auction(f"1 P1 [CALL T19, ANN {bonus} DAZU]"))
        assert error_codes(found) == ["announce.not_announceable"]


def test_one_announcement_per_bonus():
    text = "1 P1 [CALL T19, ANN ABSOLUT DAZU] · 2 P2 [ANN ABSOLUT DAGEGEN]"
    assert error_codes(push_all(fd_hand("FD1"), auction(text))) == ["announce.duplicate"]
    hand = fd_hand("FD1", {"one_announcement_per_bonus": False})
    assert error_codes(push_all(hand, auction(text))) == []
    assert len(hand.auction.announced) == 2


def test_pagat_cannot_be_announced_in_a_farbensolo():
    hand = fd_hand("FD3")
    found = push_all(hand, auction("1 P1 [CALL T20] · 2 P2 [] · 3 P3 [FARBENSOLO, ANN PAGAT DAZU]"))
    assert error_codes(found) == ["announce.not_in_contract"]


def test_responses_only_forbids_new_announcements_in_later_turns():
    text = "1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 [ANN VALAT DAZU]"
    assert error_codes(push_all(fd_hand("FD1"), auction(text))) == []  # late_declarations=any
    hand = fd_hand("FD1", {"late_declarations": "responses_only"})
    assert error_codes(push_all(hand, auction(text))) == ["auction.late_declaration"]
    # a response to something raised since his previous turn is allowed
    hand = fd_hand("FD1", {"late_declarations": "responses_only"})
    ok = "1 P1 [CALL T19] · 2 P2 [KONTRA GAME] · 3 P3 [] · 4 P4 [] · 5 P1 [RETOUR GAME]"
    assert error_codes(push_all(hand, auction(ok))) == []


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # C5 and C4: a passed player's Farbensolo below the Solo, with too few suit cards
        # (was: only "not higher")
        (
            "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [SOLO] · 4 P4 [] · 5 P1 [] · 6 P2 [FARBENSOLO]",
            ["auction.not_higher", "auction.already_passed", "auction.farbensolo_ineligible"],
        ),
        # N2 then N3: a wrong-side Pagat in a Farbensolo
        (
            "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [FARBENSOLO] · 4 P4 [ANN PAGAT DAZU]",
            ["announce.wrong_side", "announce.not_in_contract"],
        ),
    ],
)
def test_every_rule_a_declaration_breaks_is_reported_in_the_spec_order(text, want):
    """A declaration that breaks several rules gets one finding per rule, in the order of the
    spec's rule lists (C2, C5 higher and (a)-(d), C4; N2, N3, N4; K1, K3, K4; then T3)."""
    found = push_all(fd_hand("FD3"), auction(text))
    assert error_codes(found) == want


def test_an_overcall_reopens_every_declaration_under_responses_only():
    """C7: an overcall voids the announcements and Kontras so far and "everybody may announce
    again afterwards"; under responses_only (T3) a player who spoke before the change of game
    may Kontra the new game and announce in his next turn (the overcall used to clear the
    record of changes, so that nothing counted as raised since his turn)."""
    text = (
        "1 P1 [CALL T19] · 2 P2 [] · 3 P3 [SOLO] · 4 P4 [] · 5 P1 [KONTRA GAME] · "
        "6 P2 [ANN ABSOLUT DAGEGEN]"
    )
    hand = fd_hand("FD1", {"late_declarations": "responses_only"})
    found = push_all(hand, auction(text))
    assert error_codes(found) == [], found
    assert hand.auction.contract == "solo" and hand.auction.game_level >= 1
    # once a player has spoken after the change he is bound again (T3): P1 may not announce
    later = "7 P3 [] · 8 P4 [] · 9 P1 [ANN VALAT DAGEGEN]"
    assert error_codes(push_all(hand, auction(later))) == ["auction.late_declaration"]


def test_declaration_after_the_auction_ended():
    hand = fd_hand("FD2")
    push_all(hand, auction("1 P1 [CALL T20] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []"))
    found = hand.push(Action("kontra", seat("P2"), target="game", level=1))
    assert [v.code for v in found] == ["auction.over"]
    assert hand.auction.game_level == 0


def test_play_before_the_auction_ended_is_incomplete_auction():
    hand = fd_hand("FD2")
    push_all(hand, auction("1 P1 [CALL T20] · 2 P2 []"))
    found = hand.push(Action("play", seat("P1"), card="DJ"))
    assert [v.code for v in found] == ["auction.incomplete"]
    assert hand.phase == "play"


def test_violation_cites_the_ruleset_section():
    found = push_all(fd_hand("FD1"), auction("1 P1 [CALL T17]"))
    v = found[0][0]
    assert v.rule == "zr-std-2026 §4.3" and v.seat == 0 and "T19" in v.message


def test_legal_actions_of_forehand_at_the_start():
    hand = fd_hand("FD1")
    legal = hand.legal_actions()
    calls = [a.card for a in legal if a.type == "call"]
    assert calls == ["T19"]
    assert Action("bid", 0, contract="solo") in legal
    assert Action("bid", 0, contract="farbensolo") in legal  # P1 has 5 suit cards
    assert all(a.type != "pass" for a in legal)  # she must declare


# ----------------------------------------------------------------- auction_model = two_phase


def test_two_phase_contract_auction_then_announcement_rotation():
    hand = fd_hand("FD3", {"auction_model": "two_phase"})
    found = push_all(
        hand, auction("1 P1 [CALL T20] · 2 P2 [] · 3 P3 [FARBENSOLO] · 4 P4 [] · 5 P1 [SOLO]")
    )
    assert codes(found) == []
    assert hand.auction.stage == "announce" and hand.to_move() == seat("P1")
    found = push_all(
        hand, auction("6 P1 [] · 7 P2 [KONTRA GAME] · 8 P3 [] · 9 P4 [] · 10 P1 [] · 11 P2 []")
    )
    assert codes(found) == []
    a = hand.auction
    assert (a.contract, a.holder, a.game_level, a.over) == ("solo", seat("P1"), 1, True)


def test_two_phase_skips_players_who_passed():
    hand = fd_hand("FD1", {"auction_model": "two_phase"})
    push_all(hand, auction("1 P1 [CALL T19] · 2 P2 [] · 3 P3 [] · 4 P4 []"))
    assert hand.auction.stage == "announce"
    found = push_all(
        hand,
        auction(
            "5 P1 [] · 6 P2 [KONTRA GAME, ANN ABSOLUT DAGEGEN] · 7 P3 [KONTRA ABSOLUT] · "
            "8 P4 [ANN PAGAT DAGEGEN] · 9 P1 [KONTRA PAGAT] · 10 P2 [] · 11 P3 [] · "
            "12 P4 [] · 13 P1 []"
        ),
    )
    assert codes(found) == [] and hand.auction.over
    assert levels(hand) == {"absolut": ("dagegen", 1), "pagat": ("dagegen", 1)}


def test_two_phase_announcement_during_the_contract_auction():
    hand = fd_hand("FD1", {"auction_model": "two_phase"})
    found = push_all(hand, auction("1 P1 [CALL T19] · 2 P2 [ANN ABSOLUT DAGEGEN]"))
    assert error_codes(found) == ["auction.wrong_phase"]
    assert hand.auction.announced == {}


def test_legal_actions_offer_pagat_dagegen_then_require_the_kontra():
    """N5: a Pagat dagegen may be announced while the game stands at 0 if the same turn adds
    the Kontra; until it does, weiter is not offered."""
    hand = fd_hand("FD1")
    push_all(hand, auction("1 P1 [CALL T19] · 2 P2 [] · 3 P3 []"))
    pagat = Action("announce", seat("P4"), bonus="pagat", side="dagegen")
    assert pagat in hand.legal_actions()
    hand.push(pagat)
    legal = hand.legal_actions()
    assert Action("pass", seat("P4")) not in legal
    assert Action("kontra", seat("P4"), target="game", level=1) in legal
    hand.push(Action("kontra", seat("P4"), target="game", level=1))
    assert Action("pass", seat("P4")) in hand.legal_actions()
