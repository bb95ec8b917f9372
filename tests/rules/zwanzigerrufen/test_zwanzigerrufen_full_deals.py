"""Full-deal replays FD1–FD4 of zwanzigerrufen.md §7.9: hands → auction → every card checked
→ trick winners, card points and running totals → items and per-player result."""

from __future__ import annotations

import pytest

from tarock_logs.rules.base import Action
from tests.support.zwanzigerrufen_support import auction, codes, fd_hand, plays, push_all, seat

# trick: cards in play order, winner, card points, declarer side running total
FD = {
    "FD1": {
        "auction": "1 P1 [CALL T19] · 2 P2 [KONTRA GAME, ANN ABSOLUT DAGEGEN] · "
        "3 P3 [KONTRA ABSOLUT] · "
        "4 P4 [ANN PAGAT DAGEGEN] · 5 P1 [KONTRA PAGAT] · 6 P2 [] · 7 P3 [] · 8 P4 [] · 9 P1 []",
        "tricks": [
            ("P1:T15 P2:T21 P3:T13 P4:T11", "P2", 8, 0),
            ("P2:DN P3:DQ P4:DK P1:DG", "P4", 12, 0),
            ("P4:CJ P1:T20 P2:CQ P3:CK", "P1", 12, 12),
            ("P1:HJ P2:HQ P3:HK P4:T4", "P4", 12, 12),
            ("P4:SG P1:SN P2:T10 P3:T19", "P3", 5, 17),
            ("P3:T5 P4:T8 P1:T12 P2:T17", "P2", 4, 17),
            ("P2:HN P3:T16 P4:T7 P1:T22", "P1", 10, 27),
            ("P1:T18 P2:T6 P3:T9 P4:T14", "P1", 4, 31),
            ("P1:SK P2:HG P3:CG P4:SQ", "P1", 9, 40),
            ("P1:SJ P2:DJ P3:CN P4:T1", "P4", 12, 40),
        ],
        "claims": [],
        "per_player": [35, 12, 5, 36],
        "contract": ("normal", "P1", "P3"),
        "items": {"game": 2, "absolut": -4, "pagat": 2 * 2},  # value seen by P2 (a defender)
        "result": (-2, 2, -2, 2),
    },
    "FD2": {
        "auction": "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []",
        "tricks": [
            ("P1:DJ P2:DK P3:DN P4:DG", "P2", 10, 10),
            ("P2:SG P3:SK P4:T17 P1:SQ", "P4", 10, 10),
            ("P4:HG P1:T4 P2:HQ P3:HJ", "P1", 7, 17),
            ("P1:T22 P2:T19 P3:T21 P4:T18", "P1", 12, 29),
            ("P1:T16 P2:T20 P3:T5 P4:T6", "P2", 4, 33),
            ("P2:CQ P3:CJ P4:CG P1:CN", "P2", 9, 42),
            ("P2:T11 P3:T15 P4:T12 P1:T10", "P3", 4, 42),
            ("P3:CK P4:T13 P1:T9 P2:T14", "P2", 8, 50),
            ("P2:HN P3:T7 P4:HK P1:SJ", "P3", 11, 50),
            ("P3:SN P4:T8 P1:DQ P2:T1", "P4", 13, 50),
        ],
        "claims": [],
        "per_player": [19, 31, 15, 23],
        "contract": ("normal", "P1", "P2"),
        "items": {"game": -1, "pagat": 1, "mondfang": -1},  # value seen by P3 (a defender)
        "result": (1, 1, -1, -1),
    },
    "FD3": {
        "auction": "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [FARBENSOLO] · 4 P4 [] · 5 P1 [] · "
        "6 P2 [] · 7 P3 []",
        "tricks": [
            ("P1:DK P2:DN P3:DG P4:T16", "P1", 9, 0),
            ("P1:SQ P2:SG P3:SN P4:SJ", "P1", 9, 0),
            ("P1:HN P2:HQ P3:HG P4:T17", "P2", 8, 0),
            ("P2:CJ P3:CN P4:CQ P1:CK", "P1", 14, 0),
            ("P1:HJ P2:T14 P3:HK P4:T20", "P3", 9, 9),
            ("P3:CG P4:T18 P1:T7 P2:T8", "P3", 3, 12),
            ("P3:SK P4:T13 P1:T5 P2:T9", "P3", 8, 20),
            ("P3:DQ P4:T19 P1:DJ P2:T15", "P3", 8, 28),
            ("P3:T12 P4:T11 P1:T10 P2:T4", "P3", 4, 32),
            ("P3:T1 P4:T22 P1:T6 P2:T21", "P3", 16, 48),
        ],
        "claims": [],
        "per_player": [32, 8, 48, 0],
        "contract": ("farbensolo", "P3", None),
        "items": {"game": -4},  # seen by P1
        "result": (-4, -4, 12, -4),
    },
    "FD4": {
        "auction": "1 P1 [CALL T19] · 2 P2 [SOLO] · 3 P3 [KONTRA GAME] · 4 P4 [] · 5 P1 [] · "
        "6 P2 [] · 7 P3 []",
        "tricks": [
            ("P1:DG P2:DN P3:DJ P4:DK", "P4", 10, 0),
            ("P4:HK P1:HN P2:T18 P3:HJ", "P2", 11, 11),
            ("P2:T12 P3:T4 P4:T10 P1:T20", "P1", 4, 11),
            ("P1:T7 P2:T19 P3:T16 P4:T9", "P2", 4, 15),
            ("P2:T6 P3:T13 P4:CG P1:T8", "P3", 3, 15),
            ("P3:DQ P4:SJ P1:T5 P2:T17", "P2", 8, 23),
            ("P2:CJ P3:CQ P4:CK P1:T11", "P1", 12, 23),
            ("P1:SQ P2:SN P3:SG P4:SK", "P4", 12, 23),
            ("P4:HQ P1:HG P2:T15 P3:T14", "P2", 6, 29),
            ("P2:T1 P3:T21 P4:CN P1:T22", "P2", 18, 47),
        ],
        "claims": [Action("claim", seat("P4"), claim="four_kings")],
        "per_player": [16, 47, 3, 22],
        "contract": ("solo", "P2", None),
        "items": {"game": 8 * -1, "pagat": 2 * -1, "four_kings": 4},  # seen by P1
        "result": (-6, 18, -6, -6),
    },
}


def _replay(name, options=None, claims=True):
    spec = FD[name]
    hand = fd_hand(name, options)
    found = push_all(hand, auction(spec["auction"]))
    for text, winner, points, running in spec["tricks"]:
        for action in plays(text):
            assert action in hand.legal_actions(), (name, text, action)
            found.append(hand.push(action))
        trick = hand.tricks[-1]
        assert trick.winner == seat(winner), (name, text)
        assert trick.points == points, (name, text)
        assert hand.view()["card_points"]["declarer_side"] == running, (name, text)
    if claims:
        found += push_all(hand, spec["claims"])
    return hand, found


@pytest.mark.parametrize("name", sorted(FD))
def test_full_deal_replay(name):
    spec = FD[name]
    hand, found = _replay(name)
    assert codes(found) == []
    assert hand.is_over() and hand.hand_findings() == []
    score = hand.score()
    contract, declarer, partner = spec["contract"]
    assert score.contract == contract and score.declarer == seat(declarer)
    assert score.partner == (seat(partner) if partner else None)
    assert score.card_points["per_seat"] == spec["per_player"]
    assert score.totals == spec["result"]
    viewer = 1 if name == "FD1" else (2 if name == "FD2" else 0)
    seen = {}
    for line in score.items:
        assert line.seat is not None
        if line.seat == viewer:
            seen[line.item] = seen.get(line.item, 0) + line.value
    assert seen == spec["items"]


def test_fd2_mondfang_opens_a_double_round_window():
    hand, _ = _replay("FD2")
    assert hand.tricks[3].mondfang == (seat("P3"), seat("P1"))
    assert hand.score().carry_after["mondfang"] is True


def test_fd2_with_silent_pagat_loss_not_counted():
    hand, _ = _replay("FD2", {"silent_pagat_loss": "not_counted"})
    assert hand.score().totals == (2, 2, -2, -2)


def test_fd3_ends_with_a_maerchenstich_and_no_mondfang():
    hand, _ = _replay("FD3")
    last = hand.tricks[-1]
    assert last.maerchenstich and last.mondfang is None
    assert hand.score().carry_after["mondfang"] is False


@pytest.mark.parametrize(
    ("options", "claims", "result"),
    [
        ({"solo_value": 5}, True, (-8, 24, -8, -8)),
        ({}, False, (-10, 30, -10, -10)),
        ({"solo_value": 5}, False, (-12, 36, -12, -12)),
    ],
)
def test_fd4_variants(options, claims, result):
    hand, found = _replay("FD4", options, claims=claims)
    assert codes(found) == []
    assert hand.score().totals == result


def test_fd4_claims_listed_after_the_play():
    hand, _ = _replay("FD4", claims=False)
    assert hand.legal_actions() == [Action("claim", seat("P4"), claim="four_kings")]
    found = hand.push(Action("claim", seat("P1"), claim="trull"))
    assert [v.code for v in found] == ["claim.false"]
    assert hand.score().totals == (-10, 30, -10, -10)


def test_fd3_under_suit_first_has_revokes_in_tricks_1_3_6_7():
    """A39: under ``suit_first`` tricks 1, 3 (P4) and 6, 7 (P1) of FD3 are revokes."""
    spec = FD["FD3"]
    hand = fd_hand("FD3", {"farbensolo_tarock_compulsion": "suit_first"})
    push_all(hand, auction(spec["auction"]))
    offenders = []
    for n, (text, *_rest) in enumerate(spec["tricks"], start=1):
        for action in plays(text):
            for v in hand.push(action):
                assert v.code == "play.illegal_card"
                offenders.append((n, v.seat))
    assert offenders == [(1, seat("P4")), (3, seat("P4")), (6, seat("P1")), (7, seat("P1"))]


def test_view_keys_and_json_shape():
    import json

    hand, _ = _replay("FD1")
    view = hand.view()
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
        assert key in view
    assert view["talon"] == [] and view["discards"] == []
    assert len(view["tricks"]) == 10 and view["tricks"][9]["winner"] == seat("P4")
    json.dumps(view)


def _fd1_with_revoke(options):
    hand = fd_hand("FD1", options)
    push_all(
        hand,
        auction(
            "1 P1 [CALL T19] · 2 P2 [KONTRA GAME, ANN ABSOLUT DAGEGEN] · 3 P3 [] · 4 P4 [] · "
            "5 P1 [] · 6 P2 []"
        ),
    )
    found = push_all(hand, plays("P1:HJ P2:HQ P3:T5"))  # P3 holds HK: a revoke
    assert [v.code for f in found for v in f] == ["play.illegal_card"]
    while not hand.is_over():
        hand.push(hand.legal_actions()[0])
    return hand


def test_report_only_scores_the_deal_as_played():
    hand = _fd1_with_revoke({})
    score = hand.score()
    assert {line.item for line in score.items} >= {"game", "absolut"}
    assert sum(score.totals) == 0


def test_penalize_gives_the_game_and_announced_bonuses_to_the_other_side():
    """A36: the offender's side (P3 is forehand's partner) loses the game and every announced
    bonus at its Kontra level; silent and card bonuses are not scored."""
    score = _fd1_with_revoke({"infraction_policy": "penalize"}).score()
    by_item = {}
    for line in score.items:
        if line.seat == seat("P2"):
            by_item[line.item] = line.value
    # the game stands at Kontra (×2); the Absolut has no Kontra of its own: base 2
    assert by_item == {"game": 2, "absolut": 2}
    assert score.totals == (-4, 4, -4, 4)
