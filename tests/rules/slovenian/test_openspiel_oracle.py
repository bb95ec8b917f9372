"""Lock-step with pyspiel (OpenSpiel 2.0.2 ``tarok``) under the ``openspiel-2.0`` ruleset: the
same player to move and the same legal-action set at every step of random games, 3 and 4
players, and the same returns at the end. (The 10,000-game cross-check lives elsewhere.)"""

from __future__ import annotations

import importlib
import random

import pytest

from tarock_logs.rules.base import Action
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.contracts import OPENSPIEL_BID

pyspiel = pytest.importorskip("pyspiel")
# the importer is ours (always there); it needs pyspiel, the oracle extra
openspiel_importer = importlib.import_module("tarock_logs.tools.importers.openspiel")

pytestmark = pytest.mark.oracle
BID_CODE = {v: k for k, v in OPENSPIEL_BID.items()}


def our_ids(h) -> set[int]:
    card_id = openspiel_importer.card_id
    out: set[int] = set()
    for a in h.legal_actions():
        if a.type == "pass":
            out.add(0)
        elif a.type == "bid":
            out.add(OPENSPIEL_BID[a.contract])
        elif a.type in ("call", "play"):
            out.add(card_id(a.card))
        elif a.type == "talon":
            out.add(a.group)
        elif a.type == "discard":
            out.add(card_id(a.cards[0]))
        else:
            raise AssertionError(f"openspiel has no {a.type}")
    return out


def to_action(state, h, aid: int) -> Action:
    phase = pyspiel.TarokGamePhase
    p = state.current_player()
    ph = state.current_game_phase()
    tok = openspiel_importer.card_token
    if ph == phase.BIDDING:
        return Action("pass", p) if aid == 0 else Action("bid", p, contract=BID_CODE[aid])
    if ph == phase.KING_CALLING:
        return Action("call", p, card=tok(aid))
    if ph == phase.TALON_EXCHANGE:
        if h.phase == "talon":
            return Action("talon", p, group=aid)
        return Action("discard", p, cards=(tok(aid),))
    return Action("play", p, card=tok(aid))


@pytest.mark.parametrize("players", [3, 4])
def test_lock_step_with_pyspiel(players):
    game = pyspiel.load_game("tarok", {"players": players, "rng_seed": 20 + players})
    rng = random.Random(players)
    for _ in range(120):
        state = game.new_initial_state()
        state.apply_action(0)
        seed = int(state.serialize().split("\n")[0])
        hands, talon = openspiel_importer.deal_from_seed(seed, players)
        h = ENGINE.new_session(ENGINE.ruleset("openspiel"), players).new_hand(
            players - 1, hands, talon
        )
        while not state.is_terminal():
            legal = sorted(state.legal_actions())
            assert state.current_player() == h.to_move()
            assert set(legal) == our_ids(h), (seed, [str(a) for a in h.history])
            if state.current_game_phase() == pyspiel.TarokGamePhase.BIDDING and rng.random() < 0.7:
                aid = 0 if 0 in legal and rng.random() < 0.6 else legal[min(len(legal) - 1, 2)]
            else:
                aid = rng.choice(legal)
            assert [v for v in h.push(to_action(state, h, aid)) if v.severity == "error"] == []
            state.apply_action(aid)
        assert h.is_over()
        s = h.score()
        assert not s.unverified, s.unverified
        assert list(s.totals) == [int(x) for x in state.returns()], seed
