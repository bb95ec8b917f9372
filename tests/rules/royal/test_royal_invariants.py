"""Invariants of the Royal Tarock engine over random legal games (hypothesis).

Random deals follow §3.3 (XIX and XX to the attackers, the rest shuffled); the bidding and the
play pick random actions among ``legal_actions()``. Checked: legal actions raise no violation
and are exactly the cards ``check`` accepts, the 40 cards are conserved in 10 tricks of four
seats, both partners write the same lines and the same score, a score lies between 0 and the
cap (no trophy of known value can be announced with the built-in catalogue), and ``pop``
undoes ``push``.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import Action
from tarock_logs.rules.royal import ENGINE, RoyalHand
from tests.support.royal_support import bound_item, fixture_catalogue

BOUND = fixture_catalogue(
    bound_item("B_PAGAT", "T1", 10, 10),
    bound_item("B_UHU", "T2", 9, 8),
    {
        "id": "B_BOTH",
        "group": "bound",
        "value": 20,
        "raises": ["B_PAGAT", "B_UHU"],
        "bindings": [],
        "condition": {"tricks_at_least": 1},
    },
)


def random_deal(rng: random.Random, dealer: int) -> list[list[str]]:
    abf_att, ein_att = (dealer + 1) % 4, (dealer + 2) % 4
    rest = [c for c in PACKS["royal"] if c not in ("T19", "T20")]
    rng.shuffle(rest)
    hands: list[list[str]] = [[], [], [], []]
    hands[abf_att].append("T19")
    hands[ein_att].append("T20")
    for s in range(4):
        need = 10 - len(hands[s])
        hands[s] += rest[:need]
        rest = rest[need:]
    return hands


def play_random_game(seed: int, bound: bool) -> RoyalHand:
    rng = random.Random(seed)
    dealer = rng.choice([1, 3])
    opts = {"consolation": 0, **({"catalogue": BOUND} if bound else {})}
    hand = ENGINE.new_hand(ENGINE.ruleset("royal", opts), dealer, random_deal(rng, dealer))
    while not hand.is_over():
        acts = hand.legal_actions()
        assert acts, hand.view()
        if acts[0].type == "throw_in":  # a short hand: the deal must be thrown in
            a = rng.choice(acts)
        elif hand.phase == "bidding":
            passes = [a for a in acts if a.type == "pass"]
            a = passes[0] if rng.random() < 0.6 or len(acts) == 1 else rng.choice(acts[1:])
        else:
            seat = hand.to_move()
            assert seat is not None
            legal = {x.card for x in acts}
            for c in hand.held[seat]:  # check() accepts exactly the legal cards
                assert (hand.check(Action("play", seat, card=c)) == []) == (c in legal)
            a = rng.choice(acts)
        assert hand.push(a) == [], a
    return hand


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bound=st.booleans())
def test_random_legal_games_keep_the_invariants(seed: int, bound: bool) -> None:
    hand = play_random_game(seed, bound)
    if hand.thrown_in:
        assert hand.score().totals == (0, 0, 0, 0)
        assert hand.throwin_seat in hand.short_hands()
        return
    assert len(hand.tricks) == 10
    assert all(sorted(s for s, _ in cards) == [0, 1, 2, 3] for cards, _ in hand.tricks)
    played = sorted(c for cards, _ in hand.tricks for _, c in cards)
    assert played == sorted(PACKS["royal"]) == sorted(c for h in hand.dealt for c in h)
    assert all(h == [] for h in hand.held) and hand.trick == []
    assert hand.hand_findings() == []
    score = hand.score()
    for abf, ein in hand.parties:
        assert score.totals[abf] == score.totals[ein]
        lines = [[(i.item, i.value) for i in score.items if i.seat == s] for s in (abf, ein)]
        assert lines[0] == lines[1]
        assert sum(v for _, v in lines[0]) == score.totals[abf]
        assert 0 <= score.totals[abf] <= 100
    assert all(i.seat is not None for i in score.items)
    before = score
    last = hand.pop()
    assert not hand.is_over()
    hand.push(last)
    assert hand.score() == before


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_short_deals_offer_only_the_throw_in(seed: int) -> None:
    rng = random.Random(seed)
    hand = ENGINE.new_hand(ENGINE.ruleset("royal"), 3, random_deal(rng, 3))
    short = hand.short_hands()
    acts = hand.legal_actions()
    if short:
        assert acts == [Action("throw_in", s) for s in short]
    else:
        assert all(a.type != "throw_in" for a in acts) and acts[0] == Action("pass", 3)


def test_engine_imports_only_the_standard_library() -> None:
    code = (
        "import sys; import tarock_logs.rules.royal as r; r.builtin_catalogue(); "
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
_NAMES = [
    "S_HONNEUR",
    "S_KOEPFE",
    "S_TRULL",
    "F_SPIEL",
    "Q_OBSCUR",
    "M_VOGERL",
    "M_SUITCOUNT",
    "TR_VALAT",
    "B_PAGAT",
    "game",
    "",
    None,
]
garbage = st.builds(
    Action,
    type=st.sampled_from(_TYPES),
    seat=st.integers(0, 3),
    card=st.sampled_from([*PACKS["royal"], "H1", "", None]),
    bonus=st.sampled_from(_NAMES),
    target=st.sampled_from(_NAMES),
    meld=st.sampled_from(_NAMES),
    raises=st.sampled_from(_NAMES),
    level=st.sampled_from([None, 1, 2, 7]),
    params=st.sampled_from([(), (("count", 3), ("suit", "H")), (("count", "x"),), (("x", 1),)]),
)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), actions=st.lists(garbage, max_size=60))
def test_garbage_actions_are_reported_or_refused_never_a_crash(seed: int, actions: list) -> None:  # type: ignore[type-arg]
    rng = random.Random(seed)
    opts = {"consolation": 0, "catalogue": BOUND}
    hand = ENGINE.new_hand(ENGINE.ruleset("royal", opts), 3, random_deal(rng, 3))
    for a in actions:
        hand.check(a)
        try:
            hand.push(a)
        except ValueError:
            continue  # physically impossible (a card not held): the replay stops there
        json.dumps(hand.view())
    if hand.is_over():
        score = hand.score()
        assert all(t >= 0 for t in score.totals)
