"""Invariants over random legal hands (hypothesis): every offered action is legal, card
conservation, 210 thirds in complete hands, push/pop round trips, the partner scores what the
declarer scores (mondfang aside), radelci never negative, items add up to totals."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import Action

from .randomgame import choose, random_hand

TABLES = st.sampled_from(
    [("tournament", 3), ("tournament", 4), ("tournament", 5), ("openspiel", 3), ("openspiel", 4)]
)


def play_out(seed: int, ruleset: str, n: int, roundtrip: bool = True):
    rng = random.Random(seed ^ 0x5EED)
    rad = [rng.choice([0, 0, 1, 2]) for _ in range(n)] if ruleset == "tournament" else None
    h = random_hand(seed, n, ruleset, rad)
    steps = 0
    while not h.is_over():
        acts = h.legal_actions()
        assert acts, f"no legal action in phase {h.phase}"
        a = choose(rng, h, acts)
        # an offered action is legal and draws no warning (but announcing an ultimo whose
        # card one's side does not hold: legal, with the warning ann.card_not_held)
        found = [v for v in h.check(a) if v.code != "ann.card_not_held"]
        assert found == [], (a, found)
        if roundtrip:
            before = h.view()
            h.push(a)
            h.pop()
            assert h.view() == before, a
        assert [v for v in h.push(a) if v.code != "ann.card_not_held"] == []
        steps += 1
        assert steps < 200
    return h


def conserved(h) -> Counter:
    cards: Counter = Counter()
    for hand in h.hands:
        cards.update(hand)
    for t in h.tricks:
        cards.update(c for _, c in t.cards)
        if t.gift:
            cards[t.gift] += 1
    cards.update(c for _, c in h.trick)
    cards.update(h.discards)
    gifts = {t.gift for t in h.tricks if t.gift}
    cards.update(c for c in h.talon if c not in h.taken and c not in gifts)
    return cards


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), table=TABLES)
def test_random_legal_hands_keep_the_invariants(seed, table):
    ruleset, n = table
    h = play_out(seed, ruleset, n)
    assert conserved(h) == Counter(PACKS["slovenian"])
    assert [v for v in h.hand_findings() if v.code != "renons.unclaimed"] == []
    s = h.score()
    assert len(s.totals) == n
    assert all(r >= 0 for r in s.carry_after["radelci"])
    if ruleset == "openspiel":
        return
    side_m = [x for x in (s.declarer, s.partner) if x is not None]
    tot = [0] * n
    for it in s.items:
        for seat in side_m if it.seat is None else [it.seat]:
            tot[seat] += it.value
    assert tuple(tot) == s.totals
    complete = len(h.tricks) == h.tricks_total
    if s.contract == "klop":
        assert sum(x for x in s.card_points["thirds"] if x is not None) == 210
    elif "declarer_side_thirds" in s.card_points and complete:
        assert s.card_points["declarer_side_thirds"] + s.card_points["defenders_thirds"] == 210
    if s.contract != "klop":
        mond = Counter()
        for it in s.items:
            if it.item == "mondfang":
                mond[it.seat] += it.value
        if s.partner is not None:
            assert s.totals[s.declarer] - mond[s.declarer] == s.totals[s.partner] - mond[s.partner]
        for seat in h.active:
            if seat not in side_m:
                assert s.totals[seat] == mond[seat]
    if n == 5:
        assert s.totals[h.dealer] == 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), table=TABLES)
def test_illegal_cards_are_reported_and_legal_ones_are_not(seed, table):
    ruleset, n = table
    rng = random.Random(seed)
    h = random_hand(seed, n, ruleset)
    while not h.is_over():
        acts = h.legal_actions()
        if h.phase == "play":
            seat = h.to_move()
            legal = {a.card for a in acts}
            for card in h.hands[seat]:
                codes = [v.code for v in h.check(Action("play", seat, card=card))]
                assert (codes == []) == (card in legal), (card, codes)
        h.push(choose(rng, h, acts))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), table=TABLES)
def test_popping_everything_restores_the_deal(seed, table):
    ruleset, n = table
    h = play_out(seed, ruleset, n, roundtrip=False)
    fresh = random_hand(seed, n, ruleset)
    while h.history:
        h.pop()
    assert h.view() == {**fresh.view(), "radelci_before": h.view()["radelci_before"]}
