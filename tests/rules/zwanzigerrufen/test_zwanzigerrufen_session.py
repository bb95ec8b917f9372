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


@pytest.mark.parametrize(
    ("option", "physical"),
    [
        ("red_four", {"HG": "HA", "DG": "DA"}),  # the red aces, written as players write them
        ("red_four", {"HG": "ha", "DG": "D1"}),
        ("red_ace_black_ten", {"HG": "H4", "DG": "D4"}),
        ("red_four", {"SG": "S9", "CG": "C10"}),
    ],
)
def test_a_physical_pip_card_not_in_the_configured_glatzen_set_must_be_rejected(option, physical):
    """zwanzigerrufen.md §2.2 (Notation): "Physical Glatze names MUST be mapped to `G`; a
    physical pip card that is not in the configured Glatze set MUST be rejected (it is not in
    the pack)." Under ``glatzen = red_four`` the Glatzen are ♥4 ♦4 ♠10 ♣10, so a deal with ♥A
    and ♦A (``HA``/``DA``, any spelling) is not the pack: the reader rejects the card
    (``card.not_in_pack``) and nothing of the session reaches the engines (Python or native)."""
    from tarock_logs.log.reader import read_bytes

    (rec,) = read_bytes(_fd_session_with_glatzen(physical, {"glatzen": option}), kind="json")
    codes = [e.code for e in rec.all_errors()]
    assert "card.not_in_pack" in codes, codes
    assert rec.session is None or not rec.session.hands


def test_the_engines_refuse_a_physical_pip_card_given_to_them_as_a_token():
    """§2.2 and §3.7 for a caller that bypasses the reader: the engine expects canonical tokens,
    so a physical pip card (``HA``, ``H1``) in a deal is ``deal.bad_card`` and the native card
    loop (zrloop.h, fed through ``fast_replay``) is never reached with it, nor does the ingest
    lane (lane.h) take the record: the reference and the native paths agree that such a deal
    is not the pack."""
    import json

    from tarock_logs.rules.zwanzigerrufen.fast import ZR_CID
    from tarock_logs.store.write import lane
    from tarock_logs.verdict.convert import to_engine_action

    assert "HA" not in ZR_CID and "H1" not in ZR_CID and "H4" not in ZR_CID
    for physical in ({"HG": "HA", "DG": "DA"}, {"HG": "H1", "DG": "D1"}):
        doc = json.loads(_fd_session_with_glatzen(physical, {"glatzen": "red_four"}))
        h = doc["hands"][0]
        rs = ENGINE.ruleset("zr-std", {"glatzen": "red_four"})
        sess = ENGINE.new_session(rs, 4)
        fast = sess.fast_replay(
            h["dealer"], h["deal"]["hands"], [], _model_actions(h["actions"]), to_engine_action
        )
        assert fast is None  # the bulk path (native or not) declines
        hand = ENGINE.new_session(rs, 4).new_hand(h["dealer"], h["deal"]["hands"])
        assert "deal.bad_card" in [v.code for v in hand.hand_findings()]
        # the ingest lane (lane.h) reads Slovenian records only: it declines this line, and
        # the careful reader rejects it (test above)
        assert lane.read_session(json.dumps(doc).encode(), "x.jsonl", 1) is None


def _model_actions(actions: list[dict]) -> list:
    from tarock_logs.log import models as m

    return [m.ActionAdapter.validate_python(a) for a in actions]


def test_a_glatzen_option_must_name_a_set_or_one_pip_card_per_suit():
    listed = ENGINE.card_names(ENGINE.ruleset("zr-std", {"glatzen": ["H3", "D3", "S7", "C7"]}))
    assert dict(listed) == {"H3": "HG", "D3": "DG", "S7": "SG", "C7": "CG"}
    for bad in ("red_five", ["H4", "D4"], ["H4", "D4", "S10", "HK"]):
        with pytest.raises(ValueError, match="glatzen"):
            ENGINE.ruleset("zr-std", {"glatzen": bad})


def _fd_doc() -> dict:
    import json
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    doc = json.loads((root / "sample_logs/zwanzigerrufen/fd-examples.json").read_text("utf-8"))
    return doc[0]


def test_a_session_recorded_from_its_middle_starts_from_its_recorded_state():
    """§3.5 ("A log that starts in the middle of a session MUST give the initial values"),
    format 1.1 ``start``: the games played, the open double-round windows and the running
    totals carry into the first recorded deal, which is then played doubled."""
    import json

    from tarock_logs.log.reader import read_bytes
    from tarock_logs.verdict.replay import replay_session

    plain = _fd_doc()
    resumed = {
        **plain,
        "format_version": "1.1",
        "start": {"games": 6, "double_round_windows": [2], "totals": [10, -10, 5, -5]},
    }
    (a,), (b,) = (read_bytes(json.dumps(d).encode(), kind="json") for d in (plain, resumed))
    assert a.session is not None and b.session is not None and not b.all_errors()
    fresh, mid = replay_session(a.session)[0], replay_session(b.session)[0]
    assert fresh.score is not None and mid.score is not None
    assert mid.carry_before["games"] == 6 and mid.carry_before["next_multiplier"] == 2
    assert [2 * x for x in fresh.score.totals] == list(mid.score.totals)
    # the sheet's running totals under the first hand continue from the recorded start
    from tarock_logs.verdict.audit import audit_session

    rec_scores = resumed["hands"][0]["result"]["scores"]
    start = resumed["start"]["totals"]
    for base, flagged in ((start, False), ([0, 0, 0, 0], True)):
        h = {**resumed["hands"][0]}
        h["result"] = {
            **h["result"],
            "totals_after": [x + y for x, y in zip(base, rec_scores, strict=True)],
        }
        (c,) = read_bytes(json.dumps({**resumed, "hands": [h]}).encode(), kind="json")
        assert c.session is not None
        items = {d.item for d in audit_session(c.session).hands[0].discrepancies}
        assert ("running_total" in items) is flagged


@pytest.mark.parametrize(
    ("knocking", "deal", "want"),
    [
        ("allowed", {"method": "knocked", "stacks": [2, 4, 1, 3]}, []),
        ("forbidden", {"method": "knocked"}, ["deal.knock_forbidden"]),
        ("allowed", {"method": "knocked", "stacks": [1, 1, 2, 3]}, ["deal.stacks"]),
        ("allowed", {"stacks": [1, 2, 3, 4]}, ["deal.stacks"]),
    ],
)
def test_a_knocked_deal_is_judged_against_option_o4(knocking, deal, want):
    """§3.3 and option O4 (``knocking``): the cutter may knock where the ruleset allows it;
    after a knock each player takes one of the four stacks (format 1.1 ``deal.stacks``)."""
    import json

    from tarock_logs.log.reader import read_bytes
    from tarock_logs.verdict.replay import replay_session

    d = _fd_doc()
    h = d["hands"][0]
    s = {
        **d,
        "format_version": "1.1",
        "options": {**d.get("options", {}), "knocking": knocking},
        "hands": [{**h, "deal": {**h["deal"], **deal}}],
    }
    (rec,) = read_bytes(json.dumps(s).encode(), kind="json")
    assert rec.session is not None and rec.session.hands, rec.all_errors()
    (r,) = replay_session(rec.session)
    assert [v.code for v in r.violations if v.code.startswith("deal.")] == want


@pytest.mark.parametrize(
    ("compulsory", "want"), [(True, []), (False, ["throw_in.compulsion_mismatch"])]
)
def test_a_recorded_compulsory_throw_in_is_checked_against_section_3_4(compulsory, want):
    """§3.4: a hand without a tarock MUST throw in; format 1.1 records whether the throw-in
    was compulsory, and a record that calls it the player's choice is reported."""
    from tarock_logs.cards import PACKS

    pack = list(PACKS["zwanzigerrufen"])
    suits = [c for c in pack if not c.startswith("T")]
    taroks = [c for c in pack if c.startswith("T")]
    rest = suits[10:] + taroks
    hands = [suits[:10], rest[:10], rest[10:20], rest[20:]]  # dealer 3: seat 0 is P1
    hand = ENGINE.new_session(ZR_STD, 4).new_hand(3, hands)
    found = hand.push(Action("throw_in", 0, params=(("compulsory", compulsory),)))
    assert [v.code for v in found] == want
