"""The native engine's card rules against the reference's: the legal cards (``core.legal``, the
``tk_legal`` of ``_native/cards.h`` that the native whole hand's card loop uses) against
``PlayRules.legal`` (spec 8.3-8.4) on random positions of every contract under both rulesets'
options, and the whole replay of every Slovenian sample log and of simulated hands with the
native engine and without it (the reference alone): 4,000 simulated hands in the suite,
≈ 100,000 with ``TAROCK_LONG_CHECKS=1``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from tarock_logs import _native
from tarock_logs.log.reader import read_paths
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.contracts import CONTRACTS, Rules
from tarock_logs.rules.slovenian.fast import fastpath
from tarock_logs.rules.slovenian.fast.cardbits import CID
from tarock_logs.rules.slovenian.hand import make_play_rules
from tarock_logs.rules.slovenian.tricks import PACK
from tests.support.native_replay import replays_equal
from tests.support.simulated import simulated_sessions

needs_native = pytest.mark.skipif(
    not _native.available(), reason=f"the native core is not loaded: {_native.why_not}"
)
pytestmark = needs_native

ROOT = Path(__file__).resolve().parents[3] / "sample_logs"
LONG = os.environ.get("TAROCK_LONG_CHECKS") == "1"


def mask_of(cards: Any) -> int:
    """The card set ``cards`` as the native engine's bitmask (bit ``CID[card]``)."""
    return sum(1 << CID[c] for c in set(cards))


def test_the_fast_path_is_the_native_engine_when_the_core_is_loaded() -> None:
    assert fastpath.native_card_loop() is True


def _protected_positions(rng: random.Random) -> tuple[list[str], list[str], tuple[str, ...]]:
    deck = list(PACK)
    rng.shuffle(deck)
    n_trick = rng.randrange(4)
    trick = deck[:n_trick]
    hand = deck[n_trick : n_trick + rng.randrange(1, 6)]
    prot = tuple(x for x in ("T1", rng.choice(["HK", "DK", "SK", "CK"])) if rng.random() < 0.7)
    for x in prot:  # the protected cards often held, sometimes the only ones left
        if x not in hand and x not in trick and rng.random() < 0.8:
            hand.append(x)
    if rng.random() < 0.2:
        hand = [x for x in hand if x in prot] or hand
    return hand, trick, prot


@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
@pytest.mark.parametrize("protect_either", [True, False])
@pytest.mark.parametrize("contract", ["klop", "three", "solo_brez", "berac", "barvni_valat"])
def test_native_legal_cards_are_the_reference_legal_set(
    contract: str, protect_either: bool, ruleset: str
) -> None:
    """``core.legal`` with the replay's nine rule ints (the ninth: ``protect_either``, spec
    8.4(c)) gives ``PlayRules.legal``'s set, protected (announced ultimo) cards included, under
    both rulesets' options (must-overtake by outcome or by rank, the pagat restriction, the
    emperor's trick when a tarok is required or always)."""
    core = _native.core
    assert core is not None
    rules = Rules(ENGINE.ruleset(ruleset))
    rng = random.Random(f"{contract}:{protect_either}:{ruleset}")
    hit: set[str] = set()
    for cv in (False, True):
        pr = make_play_rules(rules, contract, cv)
        pr.protect_either = protect_either
        for _ in range(2000):
            hand, trick, prot = _protected_positions(rng)
            if CONTRACTS[contract].negative:
                prot = ()
            want, why = pr.legal(set(hand), list(trick), prot)
            hit.update(w for w in ("overtake", "emperor", "protected") if w in why)
            ids = [CID[x] for x in prot] + [-1, -1]
            ints = (
                pr.negative,
                pr.pagat_restricted,
                pr.pagat_last_tarok,
                pr.by_rank,
                pr.emperor_always,
                pr.colour_valat,
                ids[0],
                ids[1],
                pr.protect_either,
            )
            got = core.legal(mask_of(hand), [CID[c] for c in trick], ints)
            assert got == mask_of(want), (contract, cv, hand, trick, prot, sorted(want))
    assert hit, "the special rules of spec 8.4 were met"


def _sample_sessions() -> list[Any]:
    out = []
    for rec in read_paths([ROOT]):
        s = rec.session
        if s is not None and s.game == "slovenian":
            out.append(s)
    return out


def test_every_slovenian_sample_replays_alike_with_and_without_the_native_engine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sessions = _sample_sessions()
    assert sessions
    hands, fast = replays_equal(sessions, fastpath, monkeypatch, python_fast_path=False)
    assert hands >= 50 and fast >= 20


@pytest.mark.parametrize(
    ("ruleset", "table"),
    [("si-tournament-2021", 4), ("si-tournament-2021", 3), ("si-tournament-2021", 5),
     ("openspiel-2.0", 4)],
)  # fmt: skip
def test_simulated_hands_replay_alike_with_and_without_the_native_engine(
    ruleset: str, table: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Simulated Slovenian hands, the whole replay with and without the native engine:
    1,000 per ruleset and table size in the suite; with TAROCK_LONG_CHECKS=1, 24,992 each
    (≈ 100,000 in all). The simulated sessions are shared with the other native-replay
    differentials (tests/support/simulated.py)."""
    n = 24_992 if LONG else 1_000
    sessions = simulated_sessions(ruleset, table, n)
    hands, fast = replays_equal(sessions, fastpath, monkeypatch, python_fast_path=False)
    assert hands == n
    if table == 5:  # the dealer sits out: the reference's, whole
        assert fast == 0
    else:  # simulated hands are clean: (nearly) all take the native engine
        assert fast >= 0.95 * n
