"""Invariants over random legal deals (zwanzigerrufen.md §7.6), the push/pop round trip, and
the purity of the engine (standard library only)."""

from __future__ import annotations

import random
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import Action
from tarock_logs.rules.zwanzigerrufen import ENGINE, ZRHand

PACK = PACKS["zwanzigerrufen"]
OPTION_VARIANTS = [
    {},
    {"solo_value": 5, "valat_mode": "fixed", "maerchenstich": "fixed_order"},
    {
        "card_bonus_claim": "automatic",
        "mondfang_payer": "capturing_side",
        "call_rule": "any_missing",
    },
    {
        "farbensolo_tarock_compulsion": "suit_first",
        "dagegen_kontra": "auto_all",
        "late_declarations": "responses_only",
        "throw_in": "strict",
    },
    {"auction_model": "two_phase", "forehand_all_five": "any_solo"},
    {
        "one_announcement_per_bonus": False,
        "max_kontra_level": "unlimited",
        "throw_in": "off",
        "mondfang_in_farbensolo": "scored",
        "valat_overrides_bonuses": True,
    },
]


def random_game(seed: int, options: dict) -> ZRHand:
    """Deal at random and walk legal actions to the end (claims included)."""
    rng = random.Random(seed)
    cards = list(PACK)
    rng.shuffle(cards)
    session = ENGINE.new_session(ENGINE.ruleset("ZR-STD", options), 4)
    hand = session.new_hand(rng.randrange(4), [cards[i * 10 : i * 10 + 10] for i in range(4)])
    assert isinstance(hand, ZRHand)
    steps = 0
    while True:
        legal = hand.legal_actions()
        if not legal:
            break
        passes = [a for a in legal if a.type == "pass"]
        if passes and rng.random() < 0.75:
            action = passes[0]
        else:
            action = rng.choice(legal)
        found = hand.push(action)
        assert not [v for v in found if v.severity == "error"], (action, found)
        steps += 1
        assert steps < 400
    return hand


def check_invariants(hand: ZRHand) -> None:
    assert hand.is_over()
    score = hand.score()
    assert sum(score.totals) == 0  # 1. zero-sum
    per_seat = [0, 0, 0, 0]
    for line in score.items:
        assert line.seat is not None and isinstance(line.value, int)
        per_seat[line.seat] += line.value
    assert tuple(per_seat) == score.totals
    if score.carry_after["thrown_in"]:
        assert score.totals == (0, 0, 0, 0) and hand.tricks == []
        return
    tricks = hand.tricks
    played = [c for t in tricks for _, c in t.cards]
    assert len(tricks) == 10 and sorted(played) == sorted(PACK)  # card conservation: 40
    assert all(h == [] for h in hand.view()["hands"])
    assert sum(t.points for t in tricks) == 88  # card points sum to 88
    cp = score.card_points
    assert cp["declarer_side"] + cp["defenders"] == 88
    side = hand.auction.declarer_side()
    opts = hand.opts
    if opts["mondfang_payer"] != "players_only":
        d = [score.totals[s] for s in sorted(side)]
        f = [score.totals[s] for s in range(4) if s not in side]
        if len(side) == 2:  # 2. both declarers equal, both defenders the negation
            assert d[0] == d[1] and f[0] == f[1] == -d[0]
        else:  # 3. three equal defenders, the soloist −3 times that
            assert f[0] == f[1] == f[2] and d[0] == -3 * f[0]


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(range(len(OPTION_VARIANTS))))
def test_random_legal_deals_keep_the_invariants(seed, variant):
    check_invariants(random_game(seed, OPTION_VARIANTS[variant]))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_push_pop_round_trip(seed):
    hand = random_game(seed, {})
    actions = hand.actions
    views = []
    # pop everything back, recording each view, then push again and compare
    while hand.actions:
        views.append(hand.view())
        hand.pop()
    start = hand.view()
    assert start["phase"] == "auction" and start["trick"] == [] and start["tricks"] == []
    for action, expected in zip(actions, reversed(views), strict=True):
        hand.push(action)
        assert hand.view() == expected


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 39), st.data())
def test_lenient_push_of_any_held_card_then_pop(seed, cut, data):
    """Any held card may be pushed: a legal one without findings, an illegal one applied and
    reported (never refused); ``pop`` restores the state exactly."""
    hand = random_game(seed, {"throw_in": "off"})
    first_play = next(i for i, a in enumerate(hand.actions) if a.type == "play")
    while len(hand.actions) > first_play + cut:
        hand.pop()
    seat = hand.to_move()
    assert seat is not None
    held = hand.view()["hands"][seat]
    card = data.draw(st.sampled_from(held))
    legal = {a.card for a in hand.legal_actions()}
    before = hand.view()
    action = Action("play", seat, card=card)
    checked = hand.check(action)
    assert hand.view() == before  # check() changes nothing
    found = hand.push(action)
    assert found == checked
    assert card not in hand.view()["hands"][seat]
    assert (found == []) == (card in legal)
    assert all(
        v.code in ("play.illegal_card", "play.farbensolo_tarock_lead", "play.pagat_released")
        for v in found
    )
    hand.pop()
    assert hand.view() == before


def test_engine_imports_only_the_standard_library():
    code = (
        "import sys; import tarock_logs.rules.zwanzigerrufen as z; "
        "bad = [m for m in ('pydantic', 'duckdb', 'polars', 'streamlit', 'pyarrow') "
        "if m in sys.modules]; print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


_TYPES = [
    "bid",
    "pass",
    "call",
    "talon",
    "discard",
    "announce",
    "kontra",
    "lezim",
    "play",
    "throw_in",
    "claim",
    "meld",
    "nonsense",
]
_TOKENS = list(PACK) + ["T2", "T3", "H1", "XX", "", "sk"]
garbage_actions = st.builds(
    Action,
    type=st.sampled_from(_TYPES),
    seat=st.integers(-2, 6),
    card=st.none() | st.sampled_from(_TOKENS),
    contract=st.none() | st.sampled_from(["solo", "farbensolo", "normal", "trischaken", ""]),
    bonus=st.none() | st.sampled_from(["absolut", "pagat", "valat", "trull", "x"]),
    side=st.none() | st.sampled_from(["dazu", "dagegen", "sideways"]),
    target=st.none() | st.sampled_from(["game", "absolut", "pagat", "valat", "trull"]),
    level=st.none() | st.integers(-1, 6),
    claim=st.none() | st.sampled_from(["trull", "four_kings", "rest"]),
)


@settings(max_examples=80, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(0, 60),
    st.lists(garbage_actions, max_size=12),
    st.sampled_from(range(len(OPTION_VARIANTS))),
)
def test_garbage_actions_never_raise_and_pop_restores(seed, cut, garbage, variant):
    """Whatever a log contains, push reports and never raises; pop undoes it exactly."""
    hand = random_game(seed, OPTION_VARIANTS[variant])
    while len(hand.actions) > cut:
        hand.pop()
    before = hand.view()
    for action in garbage:
        found = hand.push(action)
        assert all(v.rule.startswith("zr-std-2026 §") for v in found)
        hand.view()
        hand.legal_actions()
        hand.hand_findings()
        if hand.is_over():
            assert sum(hand.score().totals) == 0
    for _ in garbage:
        hand.pop()
    assert hand.view() == before


def test_a_seat_outside_the_table_is_reported_and_ignored():
    hand = random_game(1, {})
    while hand.actions:
        hand.pop()
    assert [v.code for v in hand.push(Action("bid", 4, contract="solo"))] == ["action.bad_seat"]
    assert hand.auction.contract is None and hand.to_move() == hand.auction.p1


def test_a_bad_deal_is_reported_not_refused():
    session = ENGINE.new_session(ENGINE.ruleset("ZR-STD"), 4)
    hand = session.new_hand(3, [list(PACK[:10]), list(PACK[10:20]), list(PACK[20:29]) + ["T2"], []])
    codes = sorted({v.code for v in hand.hand_findings()})
    assert codes == ["auction.incomplete", "deal.bad_card", "deal.hand_size", "deal.not_the_pack"]
    hand.push(Action("call", 0, card="T20"))


def test_a_dealer_outside_the_table_is_reported():
    session = ENGINE.new_session(ENGINE.ruleset("ZR-STD"), 4)
    hands = [list(PACK[i * 10 : i * 10 + 10]) for i in range(4)]
    hand = session.new_hand(9, hands)
    assert [v.code for v in hand.deal_violations] == ["action.bad_seat"]
    assert hand.dealer == 1 and hand.to_move() == 2
