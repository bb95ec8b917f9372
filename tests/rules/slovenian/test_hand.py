"""The hand state machine: king call, talon and discards (spec 6), announcements and kontra
(spec 7), play violations and early ends (spec 8.7), claims, the deal check (spec 3.4) and the
renons.unclaimed finding (spec 10.7)."""

from __future__ import annotations

import random

import pytest

from tarock_logs.rules.base import Action

from .helpers import bid, new_hand, play
from .test_replays import B1_HANDS, B1_TALON, B1_TRICKS, play_tricks


def b1_after_bidding(ruleset="tournament", contract="three", **kw):
    h = new_hand(B1_HANDS, B1_TALON, ruleset=ruleset, **kw)
    for a in [bid(1, "pass"), bid(2, "pass"), bid(3, "pass"), bid(0, contract)]:
        assert h.push(a) == []
    return h


def b1_to_announcements(ruleset="tournament"):
    h = b1_after_bidding(ruleset)
    for a in [
        Action("call", 0, card="DK"),
        Action("talon", 0, group=1),
        Action("discard", 0, cards=("DJ", "S9", "H4")),
    ]:
        assert h.push(a) == []
    return h


def finish_randomly(h, rng):
    """Say 'v redu' in the announcement round, then play random legal cards to the end."""
    while not h.is_over():
        acts = h.legal_actions()
        quiet = [a for a in acts if a.type in ("pass", "lezim")]
        h.push(quiet[0] if quiet else rng.choice(acts))


def codes(found):
    return [v.code for v in found]


# ---------------------------------------------------------------- king call, talon, discards


def test_king_call_finds_the_partner_privately():
    h = b1_after_bidding()
    assert h.push(Action("call", 0, card="DK")) == []
    assert h.partner == 1 and not h.king_in_talon and not h.self_call


def test_self_call_means_no_partner():
    h = b1_after_bidding()
    h.push(Action("call", 0, card="HK"))
    assert h.partner is None and h.self_call


def test_call_must_be_a_king():
    h = b1_after_bidding()
    assert codes(h.push(Action("call", 0, card="HQ"))) == ["call.not_a_king"]
    assert h.phase == "king_call"


def test_talon_group_must_exist():
    h = b1_after_bidding()
    h.push(Action("call", 0, card="DK"))
    assert codes(h.push(Action("talon", 0, group=2))) == ["talon.bad_group"]
    assert [a.group for a in h.legal_actions()] == [0, 1]


@pytest.mark.parametrize(
    "cards,shown,code",
    [
        (("SK", "S9", "H4"), (), "discard.king"),
        (("T1", "S9", "H4"), (), "discard.trula"),
        (("T6", "S9", "H4"), (), "discard.tarok_not_shown"),
        (("DJ", "S9", "H4", "C10"), (), "discard.count"),
    ],
)
def test_wrong_discards(cards, shown, code):
    h = b1_after_bidding()
    h.push(Action("call", 0, card="DK"))
    h.push(Action("talon", 0, group=1))
    assert code in codes(h.push(Action("discard", 0, cards=cards, shown=shown)))
    assert "renons.unclaimed" in codes(h.hand_findings())


def test_O11_tarok_discard_shown_is_legal_in_tournament_only():
    for ruleset, expected in (("tournament", []), ("openspiel", ["discard.tarok_not_forced"])):
        h = b1_after_bidding(ruleset)
        h.push(Action("call", 0, card="DK"))
        h.push(Action("talon", 0, group=1))
        found = h.push(Action("discard", 0, cards=("T6", "S9", "H4"), shown=("T6",)))
        assert codes(found) == expected


def test_openspiel_discard_candidates_exclude_taroks_while_suit_cards_remain():
    h = b1_after_bidding("openspiel")
    h.push(Action("call", 0, card="DK"))
    h.push(Action("talon", 0, group=1))
    assert sorted(a.cards[0] for a in h.legal_actions()) == sorted(["H1", "H4", "DJ", "C10", "S9"])
    for c in ("H1", "H4", "DJ"):  # one card at a time, as OpenSpiel does
        assert h.push(Action("discard", 0, cards=(c,))) == []
    assert h.phase == "play"  # openspiel has no announcement phase


def test_tournament_discard_candidates_include_shown_taroks():
    h = b1_after_bidding()
    h.push(Action("call", 0, card="DK"))
    h.push(Action("talon", 0, group=1))
    acts = {a.cards[0]: a for a in h.legal_actions()}
    assert "T6" in acts and acts["T6"].shown == ("T6",)
    assert not {"SK", "HK", "T1"} & set(acts)


def test_called_king_in_talon_remainder_and_mond():
    """W4's rule on real play: the remainder is the declarer's iff the called king, taken
    from the talon, wins a trick; otherwise the mond left in the talon costs him −20."""
    hands = [
        "T19 T18 T16 T15 T6 T1 HK H4 DJ C10 T3 S9",
        "T14 T7 S7 T2 HN DK D2 CK CJ C8 T12 SJ",
        "T22 T13 T8 HQ HJ H2 H1 D3 T10 SN S10 S8",
        "T20 T17 T11 T9 T5 DQ DN D1 CQ CN C9 SQ",
    ]
    talon = "SK T4 H3 T21 C7 D4"
    seen = set()
    for seed in range(40):
        rng = random.Random(seed)
        h = new_hand(hands, talon)
        for a in [
            bid(1, "pass"),
            bid(2, "pass"),
            bid(3, "pass"),
            bid(0, "three"),
            Action("call", 0, card="SK"),
            Action("talon", 0, group=0),
            Action("discard", 0, cards=("DJ", "S9", "H4")),
            Action("lezim", 0),
        ]:
            assert h.push(a) == []
        assert h.partner is None and h.king_in_talon
        finish_randomly(h, rng)
        s = h.score()
        king_won = any(t.winning_card == "SK" for t in h.tricks)
        seen.add(king_won)
        assert s.card_points["remainder_to_declarer"] is king_won
        talon_mond = [i for i in s.items if i.item == "mondfang" and "talon" in i.reason]
        valat = any(i.item == "valat" for i in s.items)
        assert bool(talon_mond) is (not king_won and not valat)
    assert seen == {True, False}


# ---------------------------------------------------------------- announcements and kontra


def test_declarer_announcement_options_then_lezim():
    h = b1_to_announcements()
    acts = h.legal_actions()
    assert {a.bonus for a in acts if a.type == "announce"} == {
        "trula",
        "kralji",
        "pagat_ultimo",
        "kralj_ultimo",
        "valat",
    }
    # he closes his turn with "ležim" (a "v redu" of his is read as "ležim")
    assert [a.type for a in acts][-2:] == ["lezim", "pass"] and h.to_move() == 0


def test_defender_options_after_lezim():
    h = b1_to_announcements()
    h.push(Action("announce", 0, bonus="trula"))
    h.push(Action("lezim", 0))
    h.push(Action("pass", 1))
    acts = h.legal_actions()
    assert h.to_move() == 2
    assert {a.bonus for a in acts if a.type == "announce"} == {"kralji", "pagat_ultimo"}
    assert {a.target for a in acts if a.type == "kontra"} == {"game", "trula"}


@pytest.mark.parametrize(
    "actions,code",
    [
        ([Action("announce", 2, bonus="trula")], "ann.before_lezim"),
        ([Action("lezim", 0), Action("announce", 1, bonus="valat")], "ann.valat_not_declarer"),
        (
            [Action("lezim", 0), Action("announce", 2, bonus="kralj_ultimo")],
            "ann.not_allowed_for_side",
        ),
        (
            [Action("announce", 0, bonus="trula"), Action("announce", 0, bonus="trula")],
            "ann.duplicate",
        ),
        (
            [
                Action("announce", 0, bonus="trula"),
                Action("lezim", 0),
                Action("announce", 2, bonus="trula"),
            ],
            "ann.both_sides",
        ),
        ([Action("announce", 0, bonus="barvni_valat")], "ann.barvni_valat_not_solo"),
        ([Action("lezim", 0), Action("kontra", 1, target="game")], "kontra.not_eligible"),
        ([Action("lezim", 0), Action("kontra", 2, target="trula")], "kontra.item_not_announced"),
        (
            [
                Action("lezim", 0),
                Action("kontra", 2, target="game"),
                Action("kontra", 0, target="game"),
            ],
            "kontra.second_level",
        ),
        (
            [
                Action("lezim", 0),
                Action("announce", 2, bonus="kralji"),
                Action("kontra", 3, target="kralji"),
            ],
            "kontra.not_eligible",
        ),
        (
            [Action("lezim", 0), play(0, "SK"), Action("announce", 1, bonus="kralji")],
            "ann.after_first_card",
        ),
        (
            [Action("lezim", 0), play(0, "SK"), Action("kontra", 2, target="game")],
            "kontra.too_late",
        ),
        ([Action("announce", 0, bonus="lucky")], "ann.unknown_bonus"),
    ],
)
def test_announcement_violations(actions, code):
    h = b1_to_announcements()
    found = []
    for a in actions:
        found += h.push(a)
    assert code in codes(found)


def test_declarer_may_double_a_defender_announcement():
    h = b1_to_announcements()
    for a in [
        Action("lezim", 0),
        Action("pass", 1),
        Action("announce", 2, bonus="kralji"),
        Action("pass", 2),
        Action("pass", 3),
    ]:
        assert h.push(a) == []
    assert h.to_move() == 0 and h.stage == 2
    assert [a.target for a in h.legal_actions() if a.type == "kontra"] == ["kralji"]
    assert h.push(Action("kontra", 0, target="kralji")) == []


def test_announced_card_not_held_is_a_warning():
    h = b1_to_announcements()
    h.push(Action("lezim", 0))
    h.push(Action("pass", 1))
    found = h.push(Action("announce", 2, bonus="pagat_ultimo"))
    assert [(v.code, v.severity) for v in found] == [("ann.card_not_held", "warning")]


def test_berac_has_no_announcements_only_kontra_after_the_declarers_lezim():
    """Rulebook point 6a (the seed): the kontras start when the declarer says "ležim", in
    every contract; berač has no bonuses, so his turn is only that (lezim_without_bonuses =
    said). A defender's kontra before it is out of turn, as in a contract with bonuses."""
    h = b1_after_bidding(contract="berac")
    assert h.phase == "announcements" and h.to_move() == 0
    assert codes(h.push(Action("announce", 0, bonus="trula"))) == ["ann.not_allowed_in_contract"]
    assert [a.type for a in h.legal_actions()] == ["lezim", "pass"]
    assert codes(h.check(Action("kontra", 1, target="game", level=1))) == ["ann.before_lezim"]
    assert h.push(Action("lezim", 0)) == [] and h.to_move() == 1
    assert [a.type for a in h.legal_actions()] == ["kontra", "pass"]
    assert codes(h.check(Action("lezim", 0))) == ["ann.order"]  # said again


def test_under_the_spec_reading_berac_has_only_kontras_and_no_lezim():
    """Spec 7.5 (option lezim_without_bonuses = none): in contracts without bonuses the phase
    consists only of kontras, the first defender speaks first; a "ležim" there is reported
    (a warning), never silently taken."""
    h = b1_after_bidding(contract="berac", options={"lezim_without_bonuses": "none"})
    assert h.phase == "announcements" and h.to_move() == 1
    assert [a.type for a in h.legal_actions()] == ["kontra", "pass"]
    (v,) = h.check(Action("lezim", 0))
    assert (v.code, v.severity) == ("ann.lezim_not_expected", "warning")
    assert h.push(Action("kontra", 1, target="game", level=1)) == []


def test_first_card_ends_the_announcement_phase():
    h = b1_to_announcements()
    assert h.push(play(0, "SK")) == [] and h.phase == "play"


def test_announced_valat_makes_the_declarer_lead():
    h = new_hand(B1_HANDS, B1_TALON)
    for a in [
        bid(1, "two"),
        bid(2, "pass"),
        bid(3, "pass"),
        bid(0, "pass"),
        bid(1, "two"),
        Action("call", 1, card="HK"),
        Action("talon", 1, group=0),
        Action("discard", 1, cards=("D2", "C7")),
        Action("announce", 1, bonus="valat"),
        Action("lezim", 1),
    ]:
        assert h.push(a) == []
    assert h.partner == 0
    for s in (0, 2, 3):
        h.push(Action("pass", s))
    assert h.phase == "play" and h.to_move() == 1


# ---------------------------------------------------------------- play


def test_revoke_message_names_the_card_held():
    h = b1_to_announcements()
    h.push(Action("lezim", 0))
    h.push(play(0, "SK"))
    (v,) = h.check(play(1, "T2"))
    assert v.code == "play.illegal_card" and v.rule == "si-tournament-2021 §8.3"
    assert v.message == "seat 1 played T2 while holding SJ: spades must be followed"
    assert v.params["legal"] == ["SJ"]


def test_illegal_card_is_applied_and_reported_then_pop_restores():
    h = b1_to_announcements()
    h.push(Action("lezim", 0))
    h.push(play(0, "SK"))
    before = h.view()
    assert codes(h.push(play(1, "T2"))) == ["play.illegal_card"]
    assert "T2" not in h.hands[1] and h.to_move() == 2
    h.pop()
    assert h.view() == before


def test_card_not_in_hand_and_out_of_turn():
    h = b1_to_announcements()
    h.push(Action("lezim", 0))
    assert codes(h.push(play(0, "T22"))) == ["play.not_in_hand"]
    assert codes(h.push(play(3, "T5"))) == ["play.out_of_turn"]


def test_play_after_the_end_is_a_warning_and_ignored():
    h, _ = b1_full()
    found = h.push(play(0, "T1"))
    assert [(v.code, v.severity) for v in found] == [("play.after_end", "warning")]
    assert len(h.tricks) == 12
    h.pop()
    assert len(h.history) == len(h.tricks) * 4 + 13


def b1_full():
    h = b1_to_announcements()
    found = []
    for a in [
        Action("announce", 0, bonus="pagat_ultimo"),
        Action("lezim", 0),
        Action("pass", 1),
        Action("kontra", 2, target="pagat_ultimo"),
        Action("pass", 2),
        Action("pass", 3),
    ]:
        found += h.push(a)
    found += play_tricks(h, B1_TRICKS)
    return h, found


def test_berac_ends_at_the_declarers_first_trick():
    for seed in range(60):
        rng = random.Random(seed)
        h = new_hand(B1_HANDS, B1_TALON)
        for a in [bid(1, "berac"), bid(2, "pass"), bid(3, "pass"), bid(0, "pass"), bid(1, "berac")]:
            h.push(a)
        finish_randomly(h, rng)
        wins = [t.winner == 1 for t in h.tricks]
        assert not any(wins[:-1])
        assert wins[-1] or len(h.tricks) == 12
        assert h.ended_early is (wins[-1] and len(h.tricks) < 12)
        s = h.score()
        assert s.totals[1] == (-70 if wins[-1] else 70) and s.carry_after["radelci"] == [1] * 4


def test_claim_gives_the_rest_to_the_claimer():
    h = b1_to_announcements()
    h.push(Action("lezim", 0))
    play_tricks(h, B1_TRICKS[:10])
    assert h.push(Action("claim", 0, claim="rest")) == []
    assert h.is_over()
    s = h.score()
    assert s.card_points["declarer_side_thirds"] + s.card_points["defenders_thirds"] == 210
    assert s.card_points["declarer_side_cards"] == 35


# ---------------------------------------------------------------- deal check


def test_deal_check_codes():
    hands = list(B1_HANDS)
    hands[0] = hands[0].replace("S9", "T22")  # T22 twice, S9 missing
    h = new_hand(hands, B1_TALON + " H2")
    assert set(codes(h.deal_violations)) == {
        "deal.duplicate_card",
        "deal.missing_card",
        "deal.talon_size",
    }


def test_deal_check_hand_sizes_and_the_sitting_out_dealer():
    h = new_hand(["H4", *B1_HANDS], B1_TALON, dealer=0)
    assert "deal.sitting_out_has_cards" in codes(h.deal_violations)
    h = new_hand([B1_HANDS[0] + " " + B1_HANDS[1], *B1_HANDS[2:]], B1_TALON, dealer=2)
    assert "deal.hand_size" in codes(h.deal_violations)


def test_openspiel_has_no_table_of_five():
    h = new_hand(["", *B1_HANDS], B1_TALON, dealer=0, ruleset="openspiel")
    assert "deal.table_size" in codes(h.deal_violations)


def test_unclaimed_renons_is_flagged_claimed_one_is_not():
    from tarock_logs.rules.base import Irregularity

    for irr, expected in (
        ((), True),
        ((Irregularity("renons", seat=1, kind="illegal_card"),), False),
    ):
        h = new_hand(B1_HANDS, B1_TALON, irregularities=irr)
        for a in [
            bid(1, "pass"),
            bid(2, "pass"),
            bid(3, "pass"),
            bid(0, "three"),
            Action("call", 0, card="DK"),
            Action("talon", 0, group=1),
            Action("discard", 0, cards=("DJ", "S9", "H4")),
            Action("lezim", 0),
            play(0, "SK"),
            play(1, "T2"),
        ]:
            h.push(a)
        assert ("renons.unclaimed" in codes(h.hand_findings())) is expected


def test_R4_claim_with_kralj_ultimo_announced_is_a_partial_renons():
    h = b1_to_announcements()
    for a in [
        Action("lezim", 0),
        Action("announce", 1, bonus="kralj_ultimo"),
        Action("pass", 1),
        Action("kontra", 2, target="kralj_ultimo"),
        Action("pass", 2),
        Action("pass", 3),
    ]:
        assert h.push(a) == [], a
    assert play_tricks(h, B1_TRICKS[:10]) == []
    found = h.push(Action("claim", 0, claim="rest"))
    assert [(v.code, v.severity) for v in found] == [("renons.partial_king_ultimo", "warning")]
    s = h.score()
    ku = [i for i in s.items if i.item == "kralj_ultimo"]
    assert [(i.value, i.seat) for i in ku] == [(-40, None)]  # failed and doubled
    assert "renons.unclaimed" in codes(h.hand_findings())


# ---------------------------------------------------------------- barvni valat: one kontra


def _solo_with_barvni_valat_announced():
    """B1's deal, P1 declares solo tri, lays away H4 DJ S9 and announces barvni valat."""
    h = b1_after_bidding(contract="solo_three")
    for a in [
        Action("talon", 0, group=0),
        Action("discard", 0, cards=("H4", "DJ", "S9")),
        Action("announce", 0, bonus="barvni_valat"),
        Action("lezim", 0),
    ]:
        assert h.push(a) == []
    return h


@pytest.mark.parametrize(("first", "second"), [("game", "barvni_valat"), ("barvni_valat", "game")])
def test_barvni_valat_and_the_game_take_only_one_kontra(first, second):
    """Spec 9.6 ("only one kontra exists") and rulebook point 6 ("Kontra je lahko samo ENA"):
    with barvni valat announced, a kontra on the game and one on barvni valat are one item; the
    second, whichever name it uses, is kontra.duplicate and is not applied."""
    h = _solo_with_barvni_valat_announced()
    assert h.push(Action("kontra", 1, target=first, level=1)) == []
    (v,) = h.push(Action("kontra", 2, target=second, level=1))
    assert v.code == "kontra.duplicate" and v.rule == "si-tournament-2021 §7.6"
    assert "one item" in v.message and v.params["item"] == ["game", "barvni_valat"]
    assert h.kontra == {first: 1}
    # nor is it offered: after the kontra no defender may double the other name
    assert not [a for a in h.legal_actions() if a.type == "kontra"]


def test_either_name_of_the_one_item_may_take_the_first_kontra():
    h = _solo_with_barvni_valat_announced()
    assert h.to_move() == 1
    targets = [a.target for a in h.legal_actions() if a.type == "kontra"]
    assert targets == ["game", "barvni_valat"]
