"""Session bookkeeping (zwanzigerrufen.md §3.2, §3.5, §7.5): the eight games of W16 with a
Mondfang double round under each ``double_round_stacking``; dealer rotation; the engine
object (rulesets, options, placement points)."""

from __future__ import annotations

import pytest

from tarock_logs.rules.base import Action, GameEngine, HandScore, SessionState
from tarock_logs.rules.zwanzigerrufen import ENGINE, ZR_STD
from tarock_logs.rules.zwanzigerrufen.scoring import score_deal
from tests.support.zwanzigerrufen_support import (
    auction,
    deal_with,
    error_codes,
    push_all,
    synth_tricks,
)

A, B, C, D = 0, 1, 2, 3
NORMAL = "1 P1 [CALL T20] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []"
SOLO = "1 P1 [SOLO] · 2 P2 [] · 3 P3 [] · 4 P4 [] · 5 P1 []"

# (dealer, auction, cards fixed by seat, declarer-side card points, Mondfang (mond, capturer),
#  base deal score A/B/C/D)
W16 = [
    (D, NORMAL, {C: ["T20"], B: ["T21"], A: ["T22"]}, 50, (B, A), (2, -2, 2, -2)),
    (A, NORMAL, {D: ["T20"]}, 40, None, (1, -1, 1, -1)),
    (B, NORMAL, {A: ["T20", "T22"], C: ["T21"]}, 50, (C, A), (0, 0, 0, 0)),
    (C, NORMAL, {B: ["T20"]}, 48, None, (-1, 1, -1, 1)),
    (D, SOLO, {}, 45, None, (12, -4, -4, -4)),
    "throw-in",
    (A, NORMAL, {C: ["T20"]}, 30, None, (2, -2, -2, 2)),
    (B, NORMAL, {D: ["T20"]}, 45, None, (-1, -1, 1, 1)),
    (C, NORMAL, {A: ["T20"]}, 47, None, (1, -1, -1, 1)),
]


def _seats(dealer, fixed):
    """deal_with works with P-numbers; P(k) = seat (dealer + k) mod 4."""
    by_p = deal_with({(s - dealer - 1) % 4 + 1: cards for s, cards in fixed.items()}, seed=dealer)
    return [by_p[(s - dealer - 1) % 4] for s in range(4)]


def _rotated(text, dealer):
    return [
        Action(
            a.type,
            (a.seat + dealer + 1) % 4,
            card=a.card,
            contract=a.contract,
            bonus=a.bonus,
            side=a.side,
            target=a.target,
            level=a.level,
        )
        for a in auction(text)
    ]


def _play_session(stacking):
    session = ENGINE.new_session(ENGINE.ruleset("zr-std", {"double_round_stacking": stacking}), 4)
    rs = []
    for game in W16:
        if game == "throw-in":
            hands = _seats(A, {C: "HK HQ HN HJ HG DK DQ DN SK SQ".split()})
            hand = session.new_hand(A, hands)
            assert hand.deal_violations == []
            assert hand.push(Action("throw_in", C)) == []
            session.end_hand(hand, hand.score())
            continue
        dealer, text, fixed, cp_d, mondfang, base = game
        hand = session.new_hand(dealer, _seats(dealer, fixed))
        assert hand.deal_violations == []  # the dealer rotation is right
        assert error_codes(push_all(hand, _rotated(text, dealer))) == []
        a = hand.auction
        res = score_deal(
            opts=hand.opts,
            contract=a.contract,
            declarer=a.holder,
            declarer_side=a.declarer_side(),
            dealt=hand.dealt,
            tricks=synth_tricks(a.declarer_side(), cp_d, 5 if cp_d < 45 else 6, mondfang=mondfang),
            game_level=a.game_level,
            announced=[],
            claims=frozenset(),
            multiplier=hand.multiplier,
        )
        assert tuple(t // hand.multiplier for t in res.totals) == base
        rs.append(hand.multiplier)
        session.end_hand(
            hand,
            HandScore(
                totals=res.totals,
                items=tuple(res.per_seat),
                carry_after={"mondfang": res.mondfang_counts},
            ),
        )
    return rs, session


@pytest.mark.parametrize(
    ("stacking", "multipliers", "totals"),
    [
        ("multiply", [1, 2, 2, 4, 4, 2, 2, 1], [51, -23, -19, -9]),
        ("cap", [1, 2, 2, 2, 2, 2, 2, 1], [29, -17, -9, -3]),
        ("extend", [1, 2, 2, 2, 2, 2, 2, 2], [30, -18, -10, -2]),
    ],
)
def test_w16_mondfang_double_rounds(stacking, multipliers, totals):
    rs, session = _play_session(stacking)
    assert rs == multipliers
    carry = session.carry()
    assert carry["totals"] == totals and carry["games"] == 8


def test_double_round_length_zero_turns_double_rounds_off():
    session = ENGINE.new_session(ENGINE.ruleset("zr-std", {"double_round_length": 0}), 4)
    hand = session.new_hand(D, _seats(D, {}))
    session.end_hand(hand, HandScore(totals=(0, 0, 0, 0), items=(), carry_after={"mondfang": True}))
    assert session.multiplier() == 1


def test_dealer_must_rotate_to_the_previous_forehand():
    session = ENGINE.new_session(ZR_STD, 4)
    hand = session.new_hand(D, _seats(D, {}))
    session.end_hand(hand, HandScore(totals=(0, 0, 0, 0), items=()))
    wrong = session.new_hand(B, _seats(B, {}))
    assert [v.code for v in wrong.deal_violations] == ["deal.dealer_order"]
    assert "deal.dealer_order" in [v.code for v in wrong.hand_findings()]


def test_engine_satisfies_the_contract():
    assert isinstance(ENGINE, GameEngine)
    assert ENGINE.game == "zwanzigerrufen" and "zr-std-2026" in ENGINE.rulesets
    assert isinstance(ENGINE.new_session(ZR_STD), SessionState)
    with pytest.raises(ValueError):
        ENGINE.new_session(ZR_STD, 5)


def test_ruleset_lookup_aliases_and_options():
    assert ENGINE.ruleset("ZR-STD") is ZR_STD and ENGINE.ruleset("zr-std") is ZR_STD
    rs = ENGINE.ruleset("ZR-STD", {"solo_value": 5})
    assert rs.options["solo_value"] == 5 and rs.id == "zr-std-2026"
    assert len(ZR_STD.options) == 34
    with pytest.raises(KeyError):
        ENGINE.ruleset("ZR-STD", {"solo_valeu": 5})
    with pytest.raises(ValueError):
        ENGINE.ruleset("ZR-STD", {"maerchenstich": "sometimes"})
    with pytest.raises(KeyError):
        ENGINE.ruleset("koenigrufen")


def test_placement_points_rank_by_score_and_share_ties():
    assert ENGINE.placement_points(ZR_STD, [10, -20, 5, 5]) == [4.0, 1.0, 2.5, 2.5]
    assert ENGINE.placement_points(ZR_STD, [3, 1, 2, 0]) == [4.0, 2.0, 3.0, 1.0]


def test_a_session_resumes_from_its_carry():
    _, session = _play_session("multiply")
    carry = session.carry()
    assert carry["double_round_windows"] == [] and carry["next_dealer"] == D
    mid = ENGINE.new_session(
        ZR_STD,
        4,
        {"games": 3, "double_round_windows": [2, 4], "totals": [4, -4, 4, -4], "next_dealer": C},
    )
    assert mid.multiplier() == 4 and mid.carry()["totals"] == [4, -4, 4, -4]
    assert [v.code for v in mid.new_hand(A, _seats(A, {})).deal_violations] == ["deal.dealer_order"]


def _fd_session_with_glatzen(physical: dict[str, str], options: dict) -> bytes:
    """FD1 of the sample log with its Glatzen written as physical cards."""
    import copy
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    doc = json.loads((root / "sample_logs/zwanzigerrufen/fd-examples.json").read_text("utf-8"))
    s = copy.deepcopy(doc[0])
    s["options"] = {**s.get("options", {}), **options}
    h = s["hands"][0]
    h["deal"]["hands"] = [[physical.get(c, c) for c in hand] for hand in h["deal"]["hands"]]
    for a in h["actions"]:
        if a.get("card") in physical:
            a["card"] = physical[a["card"]]
    s["hands"] = [h]
    return json.dumps(s).encode()


@pytest.mark.parametrize(
    ("option", "physical", "accepted"),
    [
        ("red_four", {"HG": "H4", "DG": "D4"}, True),
        ("red_four", {"HG": "H1", "DG": "D1"}, False),
        ("red_ace_black_ten", {"HG": "H1", "DG": "D1"}, True),
        ("red_ace_black_ten", {"HG": "H4", "DG": "D4"}, False),
    ],
)
def test_the_pack_of_a_session_follows_its_glatzen_option(option, physical, accepted):
    """§2.2 ("Physical Glatze names MUST be mapped to G; a physical pip card that is not in the
    configured Glatze set MUST be rejected") and option O2: the reader asks the engine which
    physical cards are the Glatzen of the session's ruleset."""
    from tarock_logs.log.reader import read_bytes

    (rec,) = read_bytes(_fd_session_with_glatzen(physical, {"glatzen": option}), kind="json")
    codes = [e.code for e in rec.all_errors()]
    if accepted:
        assert rec.session is not None and rec.session.hands and codes == [], codes
        dealt = {c for h in rec.session.hands[0].deal.hands for c in h}
        assert {"HG", "DG", "SG", "CG"} <= dealt
    else:
        assert "card.not_in_pack" in codes


def test_a_glatzen_option_must_name_a_set_or_one_pip_card_per_suit():
    listed = ENGINE.card_names(ENGINE.ruleset("zr-std", {"glatzen": ["H3", "D3", "S7", "C7"]}))
    assert dict(listed) == {"H3": "HG", "D3": "DG", "S7": "SG", "C7": "CG"}
    for bad in ("red_five", ["H4", "D4"], ["H4", "D4", "S10", "HK"]):
        with pytest.raises(ValueError, match="glatzen"):
            ENGINE.ruleset("zr-std", {"glatzen": bad})
