"""Tables of 3, missing steps in a log, and ruleset variants that change play."""

from __future__ import annotations

import random

from tarock_logs.rules.base import Action

from .helpers import bid, new_hand, play
from .test_bidding import DEAL3, TALON
from .test_hand import codes, finish_randomly
from .test_replays import B1_HANDS, B1_TALON


def three_player_two():
    h = new_hand(DEAL3, TALON, dealer=2)
    for a in [bid(1, "two"), bid(2, "pass"), bid(0, "pass"), bid(1, "two")]:
        assert h.push(a) == []
    return h


def test_three_players_play_tri_dva_ena_alone_with_the_talon():
    h = three_player_two()
    assert h.phase == "talon" and h.partner is None  # no king call at a table of 3
    assert [a.group for a in h.legal_actions()] == [0, 1, 2]


def test_three_players_may_announce_barvni_valat_in_dva_but_not_kralj_ultimo():
    h = three_player_two()
    h.push(Action("talon", 1, group=0))
    hand = sorted(h.hands[1])
    two = [c for c in hand if c[0] != "T" and c[1] != "K"][:2]
    assert h.push(Action("discard", 1, cards=tuple(two))) == []
    bonuses = {a.bonus for a in h.legal_actions() if a.type == "announce"}
    assert "barvni_valat" in bonuses and "kralj_ultimo" not in bonuses


def test_three_player_klop_gives_talon_cards_to_the_first_six_tricks():
    rng = random.Random(3)
    h = new_hand(DEAL3, TALON, dealer=2)
    for a in [bid(1, "pass"), bid(2, "pass"), bid(0, "klop")]:
        assert h.push(a) == []
    finish_randomly(h, rng)
    assert len(h.tricks) == 16
    assert [t.gift for t in h.tricks[:6]] == TALON.split() and h.tricks[6].gift is None
    s = h.score()
    assert sum(s.card_points["thirds"]) == 210


def test_missing_king_call_and_talon_pick_are_reported_and_play_goes_on():
    h = new_hand(B1_HANDS, B1_TALON)
    for a in [bid(1, "pass"), bid(2, "pass"), bid(3, "pass"), bid(0, "three")]:
        h.push(a)
    found = codes(h.push(play(0, "SK")))
    assert found == ["call.missing", "talon.missing", "discard.count"]
    assert h.phase == "play" and [c for _, c in h.trick] == ["SK"]


def test_kontra_levels_variant_allows_re_by_the_declarer():
    h = new_hand(B1_HANDS, B1_TALON, options={"kontra_levels": 4})
    for a in [
        bid(1, "pass"),
        bid(2, "pass"),
        bid(3, "pass"),
        bid(0, "three"),
        Action("call", 0, card="DK"),
        Action("talon", 0, group=1),
        Action("discard", 0, cards=("DJ", "S9", "H4")),
        Action("lezim", 0),
        Action("pass", 1),
        Action("kontra", 2, target="game"),
        Action("pass", 2),
        Action("pass", 3),
    ]:
        assert h.push(a) == []
    assert h.to_move() == 0 and h.stage == 2  # the declarer may answer the kontra
    assert codes(h.push(Action("kontra", 1, target="game"))) == ["kontra.not_eligible"]
    assert h.push(Action("kontra", 0, target="game", level=2)) == []
    assert h.kontra["game"] == 2


def test_announced_valat_lead_switch():
    for lead_switch, leader in ((True, 1), (False, 0)):
        h = new_hand(B1_HANDS, B1_TALON, options={"announced_valat_declarer_leads": lead_switch})
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
            Action("pass", 0),
            Action("pass", 2),
            Action("pass", 3),
        ]:
            h.push(a)
        assert h.to_move() == leader


def test_barvni_valat_announced_switches_trick_rules_and_ends_at_the_first_lost_trick():
    h = new_hand(B1_HANDS, B1_TALON)
    for a in [
        bid(1, "solo_three"),
        bid(2, "pass"),
        bid(3, "pass"),
        bid(0, "pass"),
        bid(1, "solo_three"),
        Action("talon", 1, group=0),
        Action("discard", 1, cards=("D2", "C7", "C8")),
        Action("announce", 1, bonus="barvni_valat"),
        Action("lezim", 1),
        Action("pass", 0),
        Action("pass", 2),
        Action("pass", 3),
    ]:
        assert h.push(a) == [], a
    assert h.colour_valat() and h.to_move() == 1
    # P2 leads SJ; in colour valat the led suit wins: P1's SK takes the trick
    for a in [play(1, "SJ"), play(2, "SN"), play(3, "SQ"), play(0, "SK")]:
        h.push(a)
    assert h.tricks[0].winner == 0 and h.is_over() and h.ended_early
    assert h.score().totals == (0, -125, 0, 0)
