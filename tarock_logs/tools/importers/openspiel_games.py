"""Seeded OpenSpiel ``tarok`` games with a bidding policy that reaches every contract.

Needs ``pyspiel`` (the ``oracle`` extra, open-spiel 2.0.2); importing this module does not.
Uniform random bidding almost always ends in valat (the highest bid), so each game first picks
a **target contract** from a schedule that cycles through every contract OpenSpiel offers at the
table (12 with 4 players, 9 with 3) and a declarer seat for it; the other players pass, or now
and then bid something below the target before passing, and the declarer bids the target at
once or (in 40% of the games) climbs one contract at a time, declaring the target at the end
(so raises, priority matches and raised final declarations all occur). Every 25th game bids
uniformly at random instead. Everything else (king call, talon group, discards, cards) is
chosen by a play style:

* ``random``: a uniformly random legal action;
* ``greedy``: the declarer is the seat whose hand suits the target best (the highest sum of
  card ranks, the lowest for a beggar), and the declarer's side plays its highest-ranked legal
  card in positive contracts and its lowest in berač/odprti berač and klop (to reach won
  valats, won beggars, empty klop piles); the other players stay random;
* ``uniform`` (every 25th game): uniformly random bids and actions.

Each game is one line of the importer's input format::

    {"players": 4, "serialized": "<deal seed>\\n<action id>\\n...", "returns": [50, 50, 0, -20]}

The game object is ``pyspiel.load_game("tarok", {"players": n, "rng_seed": seed})``, so the
deals are those of :func:`tarock_logs.tools.importers.openspiel.game_deal_seeds`, and the policy
draws from ``random.Random(seed)``: the same arguments always give the same games.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.tools.importers.openspiel import (
    BID_CONTRACTS,
    CONTRACT_BIDS,
    CONTRACTS_BY_TABLE,
    PASS_BID,
    rank_of_id,
)

STYLES = ("random", "greedy")
#: Every UNIFORM_EVERY-th game bids uniformly at random (mostly ending in valat) and plays
#: randomly: auctions no policy would produce.
UNIFORM_EVERY = 25


@dataclass(frozen=True)
class GeneratedGame:
    """One generated game: the importer's input record plus what the policy aimed at."""

    players: int
    serialized: str
    returns: list[int]
    actions: list[int]  # the action ids after the deal
    seed: int  # the deal seed (first line of ``serialized``)
    target: str  # the contract the bidding policy aimed at
    style: str

    def record(self) -> dict[str, Any]:
        """The importer's input line (``players``, ``serialized``, ``returns``)."""
        return {"players": self.players, "serialized": self.serialized, "returns": self.returns}


def _int_returns(values: list[float]) -> list[int]:
    out = []
    for v in values:
        if float(v) != int(v):
            raise ValueError(f"OpenSpiel returned a non-integer score {v}")
        out.append(int(v))
    return out


class _Policy:
    """The bidding and play policy of one game."""

    def __init__(
        self, rng: random.Random, n: int, target: str, style: str, hands: list[list[int]]
    ) -> None:
        self.rng = rng
        self.n = n
        self.target = target
        self.target_bid = CONTRACT_BIDS[target]
        self.style = style
        if CONTRACTS[target].alone or CONTRACTS[target].forehand_holds:
            # klop and three exist only as player 0's bid after everyone else passed
            self.declarer = 0
        elif style == "greedy":
            # the hand that suits the target best: strongest, or weakest for a beggar
            def strength(p: int) -> int:
                return sum(rank_of_id(c) for c in hands[p])

            pick = min if CONTRACTS[target].negative else max
            self.declarer = pick(range(n), key=strength)
        else:
            self.declarer = rng.randrange(n)
        self.side: set[int] = {self.declarer}
        self.uniform_bidding = style == "uniform"
        self.step_up = rng.random() < 0.4

    def bid(self, player: int, legal: list[int], others_passed: bool) -> int:
        if self.uniform_bidding:
            return self.rng.choice(legal)
        if player == self.declarer:
            below = [b for b in legal if 3 <= b < self.target_bid]
            if below and self.step_up and not others_passed:  # climb: contested auctions
                return min(below)
            if self.target_bid in legal:
                return self.target_bid
            return self.rng.choice(legal)
        lower = [b for b in legal if 3 <= b < self.target_bid]
        if lower and self.rng.random() < 0.25:
            return self.rng.choice(lower)
        return PASS_BID if PASS_BID in legal else self.rng.choice(legal)

    def card(self, player: int, legal: list[int], contract: str) -> int:
        if self.style == "greedy" and (player in self.side or CONTRACTS[contract].alone):
            if CONTRACTS[contract].negative:
                return min(legal, key=rank_of_id)
            return max(legal, key=rank_of_id)
        return self.rng.choice(legal)


def play_game(game: Any, rng: random.Random, target: str, style: str) -> GeneratedGame:
    """Deal one state from the pyspiel ``game`` and play it to the end with the policy."""
    import pyspiel

    phase_t = pyspiel.TarokGamePhase
    n = game.num_players()
    state = game.new_initial_state()
    state.apply_action(0)  # the deal (a chance node with one outcome)
    hands = [list(state.player_cards(p)) for p in range(n)]
    policy = _Policy(rng, n, target, style, hands)
    actions: list[int] = []
    bids = [-1] * n
    contract = ""
    while not state.is_terminal():
        legal = state.legal_actions()
        player = state.current_player()
        phase = state.current_game_phase()
        if phase == phase_t.BIDDING:
            others_passed = all(bids[p] == PASS_BID for p in range(n) if p != player)
            a = policy.bid(player, legal, others_passed)
            bids[player] = a
        elif phase == phase_t.TRICKS_PLAYING:
            a = policy.card(player, legal, contract)
        else:
            a = rng.choice(legal)
            if phase == phase_t.KING_CALLING:
                holder = [p for p in range(n) if a in state.player_cards(p)]
                if holder:
                    policy.side.add(holder[0])
        state.apply_action(a)
        actions.append(a)
        if phase == phase_t.BIDDING and state.current_game_phase() != phase_t.BIDDING:
            contract = BID_CONTRACTS[a]
            policy.declarer = player
            policy.side = {player}
    serialized = state.serialize()
    return GeneratedGame(
        players=n,
        serialized=serialized,
        returns=_int_returns(list(state.returns())),
        actions=actions,
        seed=int(serialized.split("\n", 1)[0]),
        target=target,
        style=style,
    )


def generate_games(players: int, games: int, seed: int) -> Iterator[GeneratedGame]:
    """``games`` seeded games at a table of ``players``, targets cycling through every
    contract of the table and styles alternating per cycle (see the module docstring)."""
    import pyspiel

    if players not in (3, 4):
        raise ValueError(f"OpenSpiel tarok has 3 or 4 players, not {players}")
    game = pyspiel.load_game("tarok", {"players": players, "rng_seed": seed})
    rng = random.Random(seed)
    schedule = CONTRACTS_BY_TABLE[players]
    for i in range(games):
        target = schedule[i % len(schedule)]
        style = STYLES[(i // len(schedule)) % len(STYLES)]
        if i % UNIFORM_EVERY == UNIFORM_EVERY - 1:
            style = "uniform"
        yield play_game(game, rng, target, style)
