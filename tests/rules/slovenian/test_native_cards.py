"""The native card loop (``tarock_logs/_native/cardloop.h``) against its pure-Python twin
(``fastpath._play_cards`` with the native core off), and the native legal cards against the
reference rules (``PlayRules.legal``, spec 8.3-8.4).

The property: on the same hand state, the C loop and the Python loop give the same answer:
both decline, or the same trick records, winning-card indexes, card masks and the same state
left on the hand (phase, early end, cards left). Checked on random legal games under both
rulesets at tables of 3, 4 and 5, on games with one planted illegal action (never accepted by
either), on every Slovenian sample log (the whole replay: verdicts, scores, trick rows), and on
simulated hands: 3,000 in the suite, 100,000 with ``TAROCK_LONG_CHECKS=1``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from tarock_logs import _native
from tarock_logs.log.reader import read_paths
from tarock_logs.rules.base import Action
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.contracts import CONTRACTS, Rules
from tarock_logs.rules.slovenian.fast import fastpath
from tarock_logs.rules.slovenian.fast.cardbits import CID, mask_of
from tarock_logs.rules.slovenian.hand import SlovenianHand, make_play_rules
from tarock_logs.rules.slovenian.tricks import PACK
from tests.rules.slovenian.test_fastpath import _mutate, _random_game
from tests.support.native_replay import replays_equal

needs_native = pytest.mark.skipif(
    not _native.available(), reason=f"the native core is not loaded: {_native.why_not}"
)
pytestmark = needs_native

ROOT = Path(__file__).resolve().parents[3] / "sample_logs"
LONG = os.environ.get("TAROCK_LONG_CHECKS") == "1"


def _same(a: Action) -> Action:
    return a


def _fresh(rules: Rules, n: int, dealer: int, hands: Any, talon: Any, radelci: list[int]) -> Any:
    return SlovenianHand(rules, n, dealer, hands, talon, radelci=list(radelci), misdeals_before=[])


def _state(h: SlovenianHand) -> tuple[Any, ...]:
    return (h.phase, h.ended_early, list(h.trick), [set(x) for x in h.hands])


def _both_loops(
    rules: Rules,
    n: int,
    dealer: int,
    hands: Any,
    talon: Any,
    actions: list[Any],
    radelci: list[int],
    to_action: Any = _same,
) -> bool | None:
    """Run the card play of one hand through the C loop and the Python loop from the same
    state; assert they agree. None when the hand does not reach its first card cleanly, else
    whether the loops accepted it."""
    hc = _fresh(rules, n, dealer, hands, talon, radelci)
    if hc.deal_violations:
        return None
    k = fastpath._before_play(hc, actions, to_action)
    if k is None:
        return None
    hp = _fresh(rules, n, dealer, hands, talon, radelci)
    assert fastpath._before_play(hp, actions, to_action) == k
    native = fastpath._native_play_cards(hc, actions, k)
    core = fastpath._CORE
    try:
        fastpath._CORE = None  # type: ignore[misc]
        python = fastpath._play_cards(hp, actions, k)
    finally:
        fastpath._CORE = core  # type: ignore[misc]
    assert native == python
    if native is not None:
        assert _state(hc) == _state(hp)
    return native is not None


def test_the_fast_path_uses_the_native_loop_when_the_core_is_loaded() -> None:
    assert fastpath.native_card_loop() is True


@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_native_card_loop_equals_the_python_loop_on_random_legal_games(
    ruleset: str, n: int
) -> None:
    if ruleset == "openspiel" and n == 5:
        pytest.skip("openspiel-2.0 is played at tables of 3 and 4")
    rules = Rules(ENGINE.ruleset(ruleset))
    taken = 0
    for seed in range(300):
        rng = random.Random(seed)
        radelci = [rng.choice((0, 0, 1, 2)) for _ in range(n)]
        h, actions = _random_game(seed, n, ruleset, radelci)
        taken += bool(_both_loops(rules, n, h.dealer, h.dealt, h.talon, actions, radelci))
    assert taken >= 240  # random legal games mostly reach the card loop and pass it


@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
@pytest.mark.parametrize("n", [3, 4, 5])
def test_native_card_loop_never_accepts_a_planted_illegal_card(ruleset: str, n: int) -> None:
    """One action of a legal hand replaced (another card, held or not; a card out of turn; a
    bid, discard or call changed; an action dropped): the two loops agree, and where the
    reference flags the hand, the fast path declines it."""
    if ruleset == "openspiel" and n == 5:
        pytest.skip("openspiel-2.0 is played at tables of 3 and 4")
    rules = Rules(ENGINE.ruleset(ruleset))
    declined_cards = 0
    for seed in range(300):
        rng = random.Random(2000 + seed)
        radelci = [rng.choice((0, 1)) for _ in range(n)]
        h, actions = _random_game(seed + 9000, n, ruleset, radelci)
        bad = _mutate(rng, h, actions)
        taken = _both_loops(rules, n, h.dealer, h.dealt, h.talon, bad, radelci)
        ref = _fresh(rules, n, h.dealer, h.dealt, h.talon, radelci)
        flagged = [v for a in bad for v in ref.push(a)] + list(ref.hand_findings())
        if taken:
            assert not [v for v in flagged if v.code.startswith("play.")], flagged
        declined_cards += taken is False
    assert declined_cards >= 50  # most planted cards are illegal: each was declined


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


@pytest.mark.parametrize("protect_either", [True, False])
@pytest.mark.parametrize("contract", ["klop", "three", "berac", "barvni_valat"])
def test_native_legal_cards_are_the_reference_legal_set(
    contract: str, protect_either: bool
) -> None:
    """``core.legal`` with the replay's nine rule ints (the ninth: ``protect_either``, spec
    8.4(c)) gives ``PlayRules.legal``'s set, protected (announced ultimo) cards included."""
    core = _native.core
    assert core is not None
    rules = Rules(ENGINE.ruleset("tournament"))
    rng = random.Random(f"{contract}:{protect_either}")
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


def test_every_slovenian_sample_replays_alike_with_and_without_the_native_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sessions = _sample_sessions()
    assert sessions
    hands, fast = replays_equal(sessions, fastpath, monkeypatch, python_fast_path=True)
    assert hands >= 50 and fast >= 20


@pytest.mark.parametrize(
    ("ruleset", "table"),
    [("si-tournament-2021", 4), ("si-tournament-2021", 3), ("si-tournament-2021", 5),
     ("openspiel-2.0", 4)],
)  # fmt: skip
def test_simulated_hands_replay_alike_with_and_without_the_native_loop(
    ruleset: str, table: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Simulated Slovenian hands: 1,000 per ruleset and table size in the suite; with
    TAROCK_LONG_CHECKS=1, 25,000 each (100,000 in all)."""
    from tarock_logs.log.models import SessionAdapter
    from tarock_logs.tools.simulate import simulate_hands

    n = 25_000 if LONG else 1_000
    docs = simulate_hands(n, 23 + table, ruleset=ruleset, table_size=table)
    sessions = [SessionAdapter.validate_python(d) for d in docs]
    hands, fast = replays_equal(sessions, fastpath, monkeypatch, python_fast_path=True)
    assert hands == n
    assert fast >= 0.95 * n  # simulated hands are clean: (nearly) all take the fast path
