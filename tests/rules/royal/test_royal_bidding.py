"""Royal Tarock bidding (royal-tarock.md §4): the end condition (E10), Meldungen (E11),
raising (§4.5's examples), contras (§4.4) and the opener conventions (§8.1 item 1)."""

from __future__ import annotations

import pytest

from tarock_logs.rules.base import Action
from tarock_logs.rules.royal import bidding_over
from tests.support.royal_support import (
    A1,
    A2,
    B1,
    B2,
    ann,
    fixture_catalogue,
    kontra,
    meld,
    new_hand,
    push_all,
    turns,
)

# dealer 3: seat 0 holds HK HQ HJ (no HN), seat 1 all five spades
DEAL = [
    ["HK", "HQ", "HJ", "T19", "T22", "T5", "T4", "T3", "T2", "DJ"],
    ["SK", "SQ", "SN", "SJ", "S10", "T20", "T21", "T17", "T16", "T15"],
    ["HN", "DK", "DQ", "DN", "CK", "CQ", "T18", "T11", "T10", "T1"],
    ["CN", "CJ", "C10", "T14", "T13", "T12", "T9", "T8", "T7", "T6"],
]
# dealer 3: seat 0 holds the four kings
WONOK_DEAL = [
    ["HK", "DK", "SK", "CK", "T19", "T22", "T5", "T4", "T3", "T2"],
    ["T20", "T21", "T17", "T16", "T15", "T14", "HQ", "HN", "HJ", "DQ"],
    ["T18", "T13", "T12", "T11", "DN", "DJ", "SQ", "SN", "SJ", "S10"],
    ["T10", "T9", "T8", "T7", "T6", "T1", "CQ", "CN", "CJ", "C10"],
]


def codes(found: list) -> list[str]:  # type: ignore[type-arg]
    return [v.code for v in found]


# --------------------------------------------------------------------------- E10


@pytest.mark.parametrize(
    ("turns_said", "over"),
    [
        ([False, False, False], False),  # (a)
        ([False] * 4, True),  # (b)
        ([True, False, False, False], True),  # (c)
        ([False, True, False, False, False], True),  # (d)
        ([True, True, False, False], False),  # (e) one more pass ends it
        ([True, True, False, False, False], True),
    ],
    ids=["E10a", "E10b", "E10c", "E10d", "E10e", "E10e+pass"],
)
def test_e10_bidding_end_condition(turns_said: list[bool], over: bool) -> None:
    assert bidding_over(turns_said) is over


def test_e10b_four_passes_end_the_bidding_with_obscur_in_force() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, A1, A2))
    assert hand.phase == "bidding"
    push_all(hand, turns(B1))
    assert hand.phase == "play" and hand.to_move() == A2  # attackers' Eintreiber leads


def test_e10e_engel_and_its_contra_need_a_third_pass() -> None:
    hand = new_hand(DEAL)
    found = push_all(hand, turns([ann(B2, "S_VISI")], [kontra(A1, "S_VISI")], A2, B1))
    assert found == [] and hand.phase == "bidding"
    push_all(hand, turns(B2))
    assert hand.phase == "play"


def test_play_before_the_bidding_closed_is_reported_and_closes_it() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, A1))
    [v] = hand.push(Action("play", A2, card="T21"))
    assert v.code == "bidding.not_closed" and v.rule == "royal-gerots-2023 §4.2"
    assert hand.phase == "play" and hand.trick == [(A2, "T21")]


def test_bidding_after_close_is_reported_and_ignored() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, A1, A2, B1))
    [v] = hand.push(ann(A2, "F_SPIEL"))
    assert v.code == "bidding.after_close"
    assert hand.bidding.instances == []


def test_speaking_out_of_turn_is_reported() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2))
    [v] = hand.push(ann(A2, "S_ENGEL"))
    assert v.code == "bidding.out_of_turn" and "turn of seat 0" in v.message


def test_opener_either_convention_is_accepted_a_third_is_flagged() -> None:
    dealer_first = new_hand(DEAL)
    assert push_all(dealer_first, turns(B2)) == []
    assert dealer_first.opener_convention == "dealer"
    eintreiber_first = new_hand(DEAL)
    assert push_all(eintreiber_first, turns(A2)) == []  # §8.1 item 1: the other reading
    assert eintreiber_first.opener_convention == "attacking_eintreiber"
    neither = new_hand(DEAL)
    assert codes(push_all(neither, turns(A1))) == ["bidding.wrong_opener"]


def test_option_attacking_eintreiber_opens() -> None:
    hand = new_hand(DEAL, bidding_opener="attacking_eintreiber")
    assert hand.to_move() == A2 and hand.legal_actions()[0] == Action("pass", A2)


# --------------------------------------------------------------------------- E11


def test_e11_suit_count_must_be_exact_and_not_all() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2))
    assert hand.push(meld(A1, "M_SUITCOUNT", suit="H", count=3)) == []  # "drei Herz"
    assert codes(hand.push(meld(A1, "M_SUITCOUNT", suit="H", count=4))) == ["meld.false"]
    hand.push(Action("pass", A1))
    assert hand.push(meld(A2, "M_FLUSH")) == []
    assert codes(hand.push(meld(A2, "M_SUITCOUNT", suit="S", count=5))) == ["meld.false"]


def test_e11_wonok_is_four_figures_of_one_rank() -> None:
    hand = new_hand(WONOK_DEAL)
    push_all(hand, turns(B2))
    assert hand.push(meld(A1, "M_WONOK")) == []
    assert codes(hand.push(meld(A1, "M_FLUSH"))) == ["meld.false"]


def test_tarock_count_and_vogerl() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, A1))
    assert codes(hand.push(meld(A2, "M_TAROCKCOUNT", count=8))) == ["meld.false"]  # 5
    assert codes(hand.push(meld(A2, "M_VOGERL"))) == ["meld.false"]  # no I-IIII
    assert codes(hand.push(meld(A2, "M_SUITCOUNT", suit="S"))) == ["meld.false"]  # count?


def test_a_meldung_is_counted_once_per_player() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2))
    hand.push(meld(A1, "M_VOGERL"))
    [v] = hand.push(meld(A1, "M_VOGERL"))
    assert v.code == "meld.duplicate" and v.severity == "warning"


def test_meldungen_cannot_be_contrad_or_announced() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, [meld(A1, "M_VOGERL")]))
    assert codes(hand.push(kontra(A2, "M_VOGERL"))) == ["kontra.not_allowed"]
    assert codes(hand.push(ann(A2, "M_FLUSH"))) == ["announce.not_announceable"]
    assert codes(hand.push(ann(A2, "Q_OBSCUR"))) == ["announce.not_announceable"]
    assert codes(hand.push(meld(A2, "S_ENGEL"))) == ["meld.not_a_meldung"]


def test_legal_actions_offer_only_true_meldungen() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2))
    melds = {(a.meld, a.params) for a in hand.legal_actions() if a.type == "meld"}
    assert melds == {
        ("M_SUITCOUNT", (("count", 3), ("suit", "H"))),
        ("M_VOGERL", ()),
    }


# --------------------------------------------------------------------------- §4.5 raising


def test_raising_chain_alternates_partners_and_voids_contras() -> None:
    """§4.5's legal example: A1 Honneur; B1 contra; A2 Köpfe; B2 contra; A1 Trull."""
    hand = new_hand(DEAL)
    found = push_all(
        hand,
        turns(
            B2,
            [ann(A1, "S_HONNEUR")],
            A2,
            [kontra(B1, "S_HONNEUR")],
            B2,
            A1,
            [ann(A2, "S_KOEPFE", raises="S_HONNEUR")],
            B1,
            [kontra(B2, "S_KOEPFE")],
            [ann(A1, "S_TRULL", raises="S_KOEPFE")],
        ),
    )
    assert found == []
    b = hand.bidding
    assert [i.item_id for i in b.active(0)] == ["S_TRULL"]
    assert [c.void for c in b.contras] == [True, True]
    # the new Trull may be contra'd afresh
    assert push_all(hand, [Action("pass", A2), kontra(B1, "S_TRULL")]) == []


def test_raising_ones_own_schlemm_needs_the_partner() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, [ann(A1, "S_HONNEUR")], A2, B1, [kontra(B2, "S_HONNEUR")]))
    [v] = hand.push(ann(A1, "S_KOEPFE", raises="S_HONNEUR"))
    assert v.code == "raise.needs_partner" and v.severity == "error"
    assert v.params["legal_under"] == "B" and "reading B" in v.message


def test_raise_rule_b_lets_either_member_raise_an_ordinary_schlemm() -> None:
    hand = new_hand(DEAL, raise_rule="B")
    push_all(hand, turns(B2, [ann(A1, "S_HONNEUR")], A2, B1, [kontra(B2, "S_HONNEUR")]))
    [v] = hand.push(ann(A1, "S_KOEPFE"))
    assert v.code == "raise.by_announcer" and v.severity == "warning"


TROPHIES = fixture_catalogue(
    {"id": "TR_LOW", "group": "trophy", "value": 30, "condition": {"tricks_at_least": 8}},
    {
        "id": "TR_HIGH",
        "group": "trophy",
        "value": 60,
        "condition": {"tricks_at_least": 9},
        "raises": ["TR_LOW"],
        "direct_announcement_allowed": False,
    },
)


@pytest.mark.parametrize("reading", ["A", "B"])
def test_trophies_are_raised_only_with_a_change_of_partner(reading: str) -> None:
    hand = new_hand(DEAL, catalogue=TROPHIES, raise_rule=reading)
    push_all(hand, turns(B2, [ann(A1, "TR_LOW")], A2, B1, [kontra(B2, "TR_LOW")]))
    [v] = hand.push(ann(A1, "TR_HIGH"))
    assert v.code == "raise.needs_partner" and v.severity == "error"


def test_an_item_reachable_only_by_raising_cannot_be_announced_directly() -> None:
    hand = new_hand(DEAL, catalogue=TROPHIES)
    push_all(hand, turns(B2))
    assert codes(hand.push(ann(A1, "TR_HIGH"))) == ["announce.only_by_raise"]


def test_cheaper_after_raised_is_a_no_op() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, [ann(A1, "S_KOEPFE")]))
    [v] = hand.push(ann(A2, "S_HONNEUR"))
    assert v.code == "announce.cheaper_after_raise" and v.severity == "warning"
    assert [i.item_id for i in hand.bidding.instances] == ["S_KOEPFE"]


def test_duplicate_schlemm_is_ignored_but_both_parties_may_announce_it() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, [ann(A1, "F_SPIEL")]))
    assert codes(hand.push(ann(A2, "F_SPIEL"))) == ["announce.duplicate"]
    push_all(hand, [Action("pass", A2)])
    assert hand.push(ann(B1, "F_SPIEL")) == []  # §8.1 item 8


def test_several_related_schlemme_are_raised_by_the_partner_of_the_last_announcer() -> None:
    """§4.5's fixture X_SE contains Spiel and Engel: after A2 Spiel, A1 Engel only A2 may
    announce it, and it supersedes both."""
    cat = fixture_catalogue(
        {
            "id": "X_SE",
            "group": "schlemm",
            "value": 12,
            "raises": ["F_SPIEL", "S_ENGEL"],
            "condition": None,
        }
    )
    bid = turns(B2, A1, [ann(A2, "F_SPIEL")], B1, B2, [ann(A1, "S_ENGEL")])
    hand = new_hand(DEAL, catalogue=cat)
    push_all(hand, bid)
    assert codes(hand.check(ann(A2, "X_SE"))) == []
    hand2 = new_hand(DEAL, catalogue=cat)
    push_all(hand2, bid[:-1])  # A1 has not passed yet
    assert codes(hand2.check(ann(A1, "X_SE"))) == ["raise.needs_partner"]
    hand.push(ann(A2, "X_SE"))
    b = hand.bidding
    assert [i.item_id for i in b.active(0)] == ["X_SE"]
    assert {b.instances[j].item_id for j in b.active(0)[0].raised_from} == {"F_SPIEL", "S_ENGEL"}


def test_a_raise_naming_the_wrong_schlemm_is_a_warning() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, [ann(A1, "S_HONNEUR")]))
    [v] = hand.push(ann(A2, "S_KOEPFE", raises="S_ENGEL"))
    assert v.code == "raise.target_mismatch" and v.severity == "warning"


# --------------------------------------------------------------------------- §4.4 contras


def test_contra_codes() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, [ann(A1, "S_HONNEUR")]))
    assert codes(hand.push(kontra(A2, "S_HONNEUR"))) == ["kontra.own_schlemm"]
    assert codes(hand.push(kontra(A2, "F_SPIEL"))) == ["kontra.inactive"]
    hand.push(Action("pass", A2))
    assert hand.push(kontra(B1, "S_HONNEUR")) == []
    assert codes(hand.push(kontra(B1, "S_HONNEUR"))) == ["kontra.twice"]
    assert codes(hand.push(Action("kontra", B1, target="S_HONNEUR", level=2))) == ["kontra.level"]
    assert codes(hand.push(kontra(B1, "game"))) == ["kontra.inactive"]


def test_contra_on_a_raised_from_schlemm_is_inactive() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, [ann(A1, "S_HONNEUR")], [ann(A2, "S_KOEPFE")]))
    [v] = hand.push(kontra(B1, "S_HONNEUR"))
    assert v.code == "kontra.inactive" and "raised" in v.message


def test_unknown_item_is_a_warning_not_an_error() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2))
    [v] = hand.push(ann(A1, "B_PAGAT_ULTIMO"))
    assert v.code == "catalogue.unknown_item" and v.severity == "warning"


def test_legal_actions_in_the_bidding_are_all_clean() -> None:
    hand = new_hand(DEAL)
    push_all(hand, turns(B2, [ann(A1, "S_HONNEUR")], A2))
    acts = hand.legal_actions()
    assert acts[0] == Action("pass", B1)
    assert Action("kontra", B1, target="S_HONNEUR", level=1) in acts
    assert all(hand.check(a) == [] for a in acts)
    assert not any(a.type == "announce" and a.bonus == "Q_OBSCUR" for a in acts)


def test_the_opening_turn_offers_both_readings_of_the_opener() -> None:
    """§4.2: the bidding is opened by the dealer or, by the other reading of the seed, by the
    attackers' Eintreiber; ``check()`` takes either without a finding, so ``legal_actions()``
    offers both (the ruleset's ``bidding_opener`` first, the seat ``to_move()`` names)."""
    import random

    from tarock_logs.rules.royal import ENGINE
    from tests.rules.royal.test_royal_invariants import random_deal

    hand = ENGINE.new_hand(
        ENGINE.ruleset("royal", {"consolation": 0}), 3, random_deal(random.Random(2), 3)
    )
    legal = hand.legal_actions()
    assert hand.to_move() == 3 and legal[0] == Action("pass", 3)
    assert {a.seat for a in legal} == {3, 1}  # the dealer and the attackers' Eintreiber
    assert all(hand.check(a) == [] for a in legal)
    hand.push(Action("pass", 1))  # opened by the Eintreiber: from now on one seat speaks
    assert {a.seat for a in hand.legal_actions()} == {2}
