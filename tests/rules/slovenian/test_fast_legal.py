"""The fast path's legal-card test over bitmasks (``fastpath._legal_mask``) against the
reference rules (``PlayRules.legal``, spec 8.3–8.4) on many random positions: every contract's
play rules under both rulesets (must overtake in klop and berač, by rank under openspiel-2.0,
the emperor's trick, the pagat restriction, colour valat), with and without protected
(announced ultimo) cards."""

from __future__ import annotations

import random

import pytest

from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.contracts import CONTRACTS, Rules
from tarock_logs.rules.slovenian.fast.cardbits import BIT, CID, SUIT_OF, mask_of
from tarock_logs.rules.slovenian.fast.fastpath import _WKEY, _legal_mask, _overtake_mask
from tarock_logs.rules.slovenian.hand import make_play_rules
from tarock_logs.rules.slovenian.tricks import PACK

TRULA = ["T1", "T21", "T22"]


def _position(rng: random.Random, table: int) -> tuple[list[str], list[str]]:
    """A random hand and trick prefix (disjoint), often with trula cards in play."""
    deck = list(PACK)
    rng.shuffle(deck)
    if rng.random() < 0.5:  # bring the trula forward: emperor's tricks and pagat rules
        for c in TRULA:
            deck.remove(c)
            deck.insert(rng.randrange(8), c)
    n_trick = rng.randrange(table)
    trick = deck[:n_trick]
    hand = deck[n_trick : n_trick + rng.randrange(1, 13)]
    if rng.random() < 0.3:  # a hand of one suit (or taroks only): void of the others
        suit = rng.choice("THDSC")
        hand = [c for c in deck[n_trick:] if c[0] == suit][: rng.randrange(1, 9)] or hand
    return hand, trick


@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
@pytest.mark.parametrize("contract", ["klop", "three", "solo_brez", "berac", "barvni_valat"])
def test_legal_mask_is_the_reference_legal_set(ruleset: str, contract: str) -> None:
    rules = Rules(ENGINE.ruleset(ruleset))
    rng = random.Random(f"{ruleset}:{contract}")
    negative = CONTRACTS[contract].negative
    checked = 0
    rules_hit: set[str] = set()
    for cv in (False, True):
        pr = make_play_rules(rules, contract, cv)
        for _ in range(1500):
            hand, trick = _position(rng, rng.choice((3, 4)))
            prot: tuple[str, ...] = ()
            if not negative and rng.random() < 0.3:
                prot = tuple(rng.sample(["T1", "HK", "DK", "SK", "CK"], rng.randrange(1, 3)))
            want, why = pr.legal(set(hand), list(trick), prot)
            rules_hit.update(
                w for w in ("overtake", "emperor", "pagat restriction", "protected") if w in why
            )
            got = _legal_mask(
                pr,
                mask_of(hand),
                [CID[c] for c in trick],
                mask_of(trick),
                tuple(BIT[x] for x in prot),
            )
            assert got == mask_of(want), (contract, cv, hand, trick, prot, sorted(want))
            checked += 1
    assert checked == 3000
    # the special rules of spec 8.4 were met, not only following suit
    assert rules_hit >= ({"overtake"} if negative else {"protected"}), rules_hit


@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
@pytest.mark.parametrize("contract", ["klop", "berac"])
def test_overtake_shortcut_is_the_reference_legal_set_or_declines(
    ruleset: str, contract: str
) -> None:
    """Klop and berač (must overtake, spec 8.4(a); by rank under openspiel-2.0): the card
    loop's shortcut gives the reference's legal set, or 0 (ask the full rules) when the pagat
    or the trula is involved."""
    rules = Rules(ENGINE.ruleset(ruleset))
    pr = make_play_rules(rules, contract, False)
    rng = random.Random(f"overtake:{ruleset}:{contract}")
    answered = declined = 0
    for _ in range(4000):
        hand, trick = _position(rng, rng.choice((3, 4)))
        if not trick:
            continue
        ids = [CID[c] for c in trick]
        led = SUIT_OF[ids[0]]
        wi = max(range(len(ids)), key=lambda i: _WKEY[led][ids[i]])  # the loop's winner so far
        got = _overtake_mask(pr.by_rank, mask_of(hand), ids, mask_of(trick), led, wi)
        if got == 0:
            declined += 1
            continue
        want, _why = pr.legal(set(hand), list(trick), ())
        assert got == mask_of(want), (hand, trick, sorted(want))
        answered += 1
    assert answered > 2000 and declined > 100
