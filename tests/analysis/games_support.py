"""Random card-play positions of Zwanzigerrufen and Royal Tarock, reached through their
engines, and an exhaustive minimax over the engine itself (the oracle the solver is tested
against), as ``tests/analysis/support.py`` does for Slovenian tarok.

Zwanzigerrufen hands are dealt from a shuffled pack under random ruleset options (the ones
the score or the card rules read), the auction steered to a wanted contract with random
announcements and Kontras among the engine's ``legal_actions()``; Royal Tarock games come from
the simulator (its bidding policy). Random legal cards are then played.
"""

from __future__ import annotations

from random import Random
from typing import Any

from tarock_logs.analysis.games import GameAnalysis, analysis_for
from tarock_logs.log.models import SessionAdapter
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import HandState
from tarock_logs.rules.zwanzigerrufen.hand import ZRHand
from tarock_logs.rules.zwanzigerrufen.rulesets import normalize_options
from tarock_logs.tools.simulate import deal_pack, simulate_hands
from tarock_logs.verdict.replay import replay_session

ZR = "zwanzigerrufen"
ROYAL = "royal"
#: the options a Zwanzigerrufen variant draws from (the ones the card play and score read)
ZR_VARIANTS: dict[str, tuple[Any, ...]] = {
    "valat_mode": ("contract_multiple", "contract_multiple_undoubled", "fixed"),
    "valat_overrides_bonuses": (False, True),
    "valat_replaces_game": (False, True),
    "lost_announced_valat_loses_game": (False, True),
    "absolut_moves_game_threshold": (False, True),
    "silent_pagat_loss": ("counted", "not_counted"),
    "card_bonus_claim": ("claim_required", "automatic"),
    "mondfang_payer": ("mond_side", "capturing_side", "players_only"),
    "mondfang_in_farbensolo": ("ignored", "scored"),
    "maerchenstich": ("any_order", "fixed_order", "off"),
    "farbensolo_tarock_compulsion": (True, False, "suit_first"),
    "pagat_hold_obligation": ("report", "ignore"),
    "infraction_policy": ("report_only", "penalize"),
    "solo_bonus_factor": (1, 2),
}
ZR_CONTRACTS = ("normal", "solo", "farbensolo")


def zr_start(rng: Random, contract: str, p_announce: float = 0.4,
             p_kontra: float = 0.3) -> ZRHand | None:  # fmt: skip
    """A Zwanzigerrufen hand of ``contract`` at its first card under random options, or None
    when the random choices led elsewhere."""
    engine = get_engine(ZR)
    assert engine is not None
    rs = engine.ruleset("zr-std-2026")
    variant = {k: rng.choice(v) for k, v in ZR_VARIANTS.items()}
    opts = normalize_options({**rs.options, **variant, "farbensolo_min_suit_cards": 0})
    dealer = rng.randrange(4)
    hands, _ = deal_pack(engine, rs, rng, dealer, 4)
    h = ZRHand(rs, opts, dealer, hands, multiplier=rng.choice((1, 1, 2)))
    for _ in range(300):
        if h.phase == "play":
            break
        legal = [a for a in h.legal_actions() if a.type != "throw_in"]
        if not legal:
            return None
        bids = [a for a in legal if a.type == "bid" and a.contract == contract]
        anns = [a for a in legal if a.type == "announce"]
        kontras = [a for a in legal if a.type == "kontra"]
        quiet = [a for a in legal if a.type == "pass"]
        calls = [a for a in legal if a.type == "call"]
        if bids:
            h.push(bids[0])
        elif contract == "normal" and calls:
            h.push(rng.choice(calls))
        elif kontras and rng.random() < p_kontra:
            h.push(rng.choice(kontras))
        elif anns and rng.random() < p_announce:
            h.push(rng.choice(anns))
        elif quiet:
            h.push(quiet[0])
        else:
            h.push(rng.choice(legal))
    if h.phase != "play" or h.auction.contract != contract:
        return None
    return h


def random_card(rng: Random, h: HandState) -> None:
    h.push(rng.choice(h.legal_actions()))


def zr_endgame(rng: Random, contract: str, tricks_left: int) -> ZRHand | None:
    """A hand of ``contract`` with ``tricks_left`` tricks (or fewer) to play and up to three
    cards of the next trick already played."""
    h = zr_start(rng, contract)
    if h is None:
        return None
    while 10 - len(h.tricks) > tricks_left:
        random_card(rng, h)
    for _ in range(rng.randrange(4)):
        random_card(rng, h)
    return None if h.is_over() else h


def zr_finished(rng: Random, contract: str) -> ZRHand | None:
    h = zr_start(rng, contract)
    if h is None:
        return None
    while not h.is_over():
        random_card(rng, h)
    return h


def royal_games(n: int, seed: int) -> list[HandState]:
    """``n`` finished simulated Royal Tarock games (their engine states)."""
    out: list[HandState] = []
    for doc in simulate_hands(n, seed, game=ROYAL, hands_per_session=8):
        for r in replay_session(SessionAdapter.validate_python(doc)):
            if r.state.is_over():
                out.append(r.state)
    return out


def back_to(h: HandState, cards_left: int) -> HandState | None:
    """A copy of a finished hand stepped back until ``cards_left`` cards are still to play
    (None if the hand's play is shorter)."""
    c = h.copy()
    for _ in range(cards_left):
        c.pop()
    g = analysis_for(ROYAL if type(h).__name__ == "RoyalHand" else ZR)
    assert g is not None
    return c if g.in_play(c) else None


def engine_minimax(g: GameAnalysis, h: HandState) -> int:
    """Exhaustive minimax over the engine (no pruning, no table): every legal card by
    ``legal_actions()``, every finished hand scored by ``score()``."""
    if h.is_over():
        return g.score_value(h, h.score(), None)
    legal = h.legal_actions()
    vals = []
    for a in legal:
        h.push(a)
        vals.append(engine_minimax(g, h))
        h.pop()
    return max(vals) if g.maximiser(h, legal[0].seat) else min(vals)


def engine_card_values(g: GameAnalysis, h: HandState) -> dict[str, int]:
    """The exhaustive value of every legal card of the player to move."""
    out = {}
    for a in h.legal_actions():
        h.push(a)
        out[str(a.card)] = engine_minimax(g, h)
        h.pop()
    return out
