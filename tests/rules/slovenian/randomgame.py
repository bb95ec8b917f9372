"""Random legal Slovenian hands (for property tests and benchmarks): deal, then random legal
actions from ``legal_actions()`` until the hand is over."""

from __future__ import annotations

import random

from tarock_logs.cards import PACKS
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.hand import SlovenianHand


def random_deal(rng: random.Random, n: int, dealer: int) -> tuple[list[list[str]], list[str]]:
    deck = list(PACKS["slovenian"])
    rng.shuffle(deck)
    talon, rest = deck[:6], deck[6:]
    active = [(dealer + i) % n for i in range(1, 5 if n == 5 else n + 1)]
    per = 48 // len(active)
    hands: list[list[str]] = [[] for _ in range(n)]
    for i, s in enumerate(active):
        hands[s] = rest[i * per : (i + 1) * per]
    return hands, talon


def random_hand(seed: int, n: int, ruleset: str = "tournament", radelci=None) -> SlovenianHand:
    rng = random.Random(seed)
    session = ENGINE.new_session(ENGINE.ruleset(ruleset), n)
    if radelci is not None:
        session.radelci = list(radelci)
    dealer = rng.randrange(n)
    hands, talon = random_deal(rng, n, dealer)
    # OpenSpiel never deals a hand without a tarok (it redraws; option redeal_without_taroks)
    while ruleset == "openspiel" and any(
        h and not any(c.startswith("T") for c in h) for h in hands
    ):
        hands, talon = random_deal(rng, n, dealer)
    return session.new_hand(dealer, hands, talon)


def choose(rng: random.Random, h: SlovenianHand, actions: list):
    """A random legal action, biased so that bidding and announcements stay short."""
    if h.phase == "bidding":
        passes = [a for a in actions if a.type == "pass"]
        if passes and rng.random() < 0.6:
            return passes[0]
        bids = [a for a in actions if a.type == "bid"]
        if bids and rng.random() < 0.8:
            return rng.choice(bids[:3])
    if h.phase == "announcements":
        quiet = [a for a in actions if a.type in ("pass", "lezim")]
        if quiet and rng.random() < 0.6:
            return quiet[0]
    return rng.choice(actions)


def contract_game(seed: int, n: int, ruleset: str, contract: str, radelci=None, options=None):
    """A random legal hand played in ``contract``: everybody passes (or someone bids it) and the
    auction's winner declares it; then random legal actions to the end. ``(hand, actions)``, or
    None when the contract cannot be declared at this table under this ruleset.
    ``options`` override ruleset options by name."""
    rng = random.Random(f"contract-game:{seed}:{n}:{ruleset}:{contract}")
    session = ENGINE.new_session(ENGINE.ruleset(ruleset, options), n)
    if radelci is not None:
        session.radelci = list(radelci)
    dealer = rng.randrange(n)
    hands, talon = random_deal(rng, n, dealer)
    while ruleset == "openspiel" and any(
        h and not any(c.startswith("T") for c in h) for h in hands
    ):
        hands, talon = random_deal(rng, n, dealer)
    h = session.new_hand(dealer, hands, talon)
    actions = []
    while not h.is_over():
        legal = h.legal_actions()
        if h.phase == "bidding":
            target = [a for a in legal if a.type == "bid" and a.contract == contract]
            passes = [a for a in legal if a.type == "pass"]
            if target and (h.awaiting_final or not passes or rng.random() < 0.2):
                a = target[0]
            elif passes:
                a = passes[0]
            else:
                return None
        else:
            a = choose(rng, h, legal)
        h.push(a)
        actions.append(a)
    if h.contract != contract:
        return None
    return h, actions
