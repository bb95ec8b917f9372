"""Differential tests of the fast path's scoring (:mod:`tarock_logs.rules.slovenian.fast.fastfacts`
and the OpenSpiel scorer fed with the fast path's trick records) against the reference.

Every contract at every table size (3, 4, 5) under both rulesets and a few option variants:
random legal hands played in that contract, then

* ``fast_hand_facts`` over the hand's trick records equals ``hand_facts`` of the reference (all
  fields, and the card-points keys in the same order), and ``score_facts`` of both is the same
  ``HandScore``;
* the whole fast path (:func:`fast_replay`) gives the reference's score and tricks or declines;
* planted changes (a claim, a recorded irregularity, a token outside the pack in the talon)
  make ``fast_hand_facts`` decline.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tarock_logs.rules.base import Irregularity
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.fast.cardbits import BIT, CARD, mask_of, mask_thirds
from tarock_logs.rules.slovenian.fast.fastfacts import fast_hand_facts
from tarock_logs.rules.slovenian.openspiel_scoring import card_value, pile_points
from tarock_logs.rules.slovenian.scoring import (
    _openspiel_score,
    hand_facts,
    openspiel_hand_score,
    score_facts,
)
from tarock_logs.rules.slovenian.tricks import PACK, thirds
from tests.rules.slovenian.randomgame import contract_game
from tests.rules.slovenian.test_fastpath import _differential

#: (ruleset, options) variants: the two rulesets, and the options hand_facts reads flipped
VARIANTS = (
    ("tournament", None),
    ("openspiel", None),
    (
        "tournament",
        {
            "trula_kralji_count_talon_remainder": False,
            "silent_ultimo_failure_counts": True,
            "mondfang_when_valat": True,
        },
    ),
)
GAMES_PER_CONTRACT = 12


def _records(h: Any) -> tuple[list[Any], list[int], list[int]]:
    """The fast path's trick records of a reference hand: (leader, cards, winner), the index
    of the winning card, the trick's card mask."""
    recs = [(t.leader, [c for _, c in t.cards], t.winner) for t in h.tricks]
    wins = [[c for _, c in t.cards].index(t.winning_card) for t in h.tricks]
    tmasks = [mask_of(c for _, c in t.cards) for t in h.tricks]
    return recs, wins, tmasks


def _games(ruleset: str, n: int, options: Any = None) -> list[tuple[Any, list[Any], list[int]]]:
    out = []
    for contract in CONTRACTS:
        for seed in range(GAMES_PER_CONTRACT):
            radelci = [(seed + i) % 3 for i in range(n)]
            g = contract_game(seed, n, ruleset, contract, radelci, options)
            if g is not None:
                out.append((*g, radelci))
    return out


@pytest.mark.parametrize(("ruleset", "options"), VARIANTS)
@pytest.mark.parametrize("n", [3, 4, 5])
def test_fast_facts_equal_the_reference_facts_in_every_contract(
    ruleset: str, options: Any, n: int
) -> None:
    games = _games(ruleset, n, options)
    seen = {h.contract for h, _, _ in games}
    assert seen >= set(CONTRACTS) - ({"solo_three", "solo_two", "solo_one"} if n == 3 else set())
    for h, _actions, _radelci in games:
        ref = hand_facts(h)
        fast = fast_hand_facts(h, *_records(h))
        assert fast is not None
        assert fast == ref, (h.contract, h.dealt)
        assert list(fast.card_points) == list(ref.card_points)  # the same keys, same order
        assert score_facts(h.rules, fast) == score_facts(h.rules, ref)


@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_fast_path_scores_equal_the_reference_in_every_contract(ruleset: str, n: int) -> None:
    taken = clean = 0
    by_contract: dict[str, int] = {}
    for h, actions, radelci in _games(ruleset, n):
        t, c = _differential(ruleset, n, h.dealer, h.dealt, h.talon, actions, radelci)
        taken += t
        clean += c
        by_contract[h.contract] = by_contract.get(h.contract, 0) + t
    if ruleset == "openspiel" and n == 5:
        assert taken == 0  # not a table of openspiel-2.0: the deal check reports it
        return
    assert clean > 0 and taken >= 0.9 * clean
    assert all(by_contract.get(c, 0) > 0 for c in by_contract), by_contract


@pytest.mark.parametrize("n", [3, 4])
def test_openspiel_score_from_trick_records_equals_the_reference(n: int) -> None:
    for h, _actions, _radelci in _games("openspiel", n):
        recs, _wins, _tmasks = _records(h)
        assert openspiel_hand_score(h, recs) == _openspiel_score(h)


def test_fast_facts_decline_a_claim_an_irregularity_and_a_foreign_talon_card() -> None:
    games = _games("tournament", 4)[:40]
    for h, _actions, _radelci in games:
        recs = _records(h)
        assert fast_hand_facts(h, *recs) is not None
        h.claim = (h.active[0], len(h.tricks), ())
        assert fast_hand_facts(h, *recs) is None
        h.claim = None
        h.irregularities = (Irregularity("renons", seat=h.active[0], kind="revoke"),)
        assert fast_hand_facts(h, *recs) is None
        h.irregularities = ()
        h.talon = ("XX", *h.talon[1:])
        assert fast_hand_facts(h, *recs) is None


def test_fast_facts_follow_a_planted_change_of_the_tricks() -> None:
    """Moving a trick to another winner changes the reference's facts; the fast reading of the
    same (planted) records follows it exactly (it reads the records, nothing cached)."""
    changed = 0
    for h, _actions, _radelci in _games("tournament", 4)[:60]:
        t0 = h.tricks[0]
        other = next(s for s in h.active if s != t0.winner)
        h.tricks[0] = dataclasses.replace(t0, winner=other)
        ref = hand_facts(h)
        recs, wins, tmasks = _records(h)
        wins[0] = [c for _, c in t0.cards].index(t0.winning_card)
        fast = fast_hand_facts(h, recs, wins, tmasks)
        assert fast == ref
        changed += 1
    assert changed


def test_mask_thirds_is_thirds_of_the_cards() -> None:
    import random

    rng = random.Random(5)
    for _ in range(500):
        cards = rng.sample(PACK, rng.randrange(55))
        assert mask_thirds(mask_of(cards)) == thirds(cards)
    assert mask_thirds(mask_of(PACK)) == 210
    assert [CARD[i] for i in range(len(CARD))] == list(PACK) and BIT[PACK[3]] == 8


def test_pile_points_by_table_equals_the_per_card_formula() -> None:
    import random

    rng = random.Random(9)
    for _ in range(500):
        cards = rng.choices([*PACK, "T1", "HK"], k=rng.randrange(60))
        assert pile_points(cards) == round(sum(card_value(c) for c in cards) - 0.666 * len(cards))
