"""The native card loop of Royal Tarock (``tarock_logs/_native/royalloop.h``, the bulk path
``royal.fast``) against the reference engine (``RoyalHand`` pushing every card, with the
native core off: ``fast._CORE = None``) and the reference rules (``tricks.judge``,
``tricks.trick_winner``).

The property: the same replay either way: the same verdicts, findings, scores, carries and
tricks (the native path's trick views equal the reference state's ``view()["tricks"]``).
Checked on every Royal sample log, on simulated games (2,000 in the suite, 100,000 with
``TAROCK_LONG_CHECKS=1``), on games with one planted illegal or misplaced card (never accepted
by the native loop), and, since the shipped catalogue binds no card, on random games with
bound cards (§6.2: a card kept for its trick, never played early while another is legal, the
most recently bound first) played straight through the loop against ``tricks.judge``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarock_logs import _native
from tarock_logs.cards import PACKS
from tarock_logs.log.reader import read_paths
from tarock_logs.rules.base import Action
from tarock_logs.rules.royal import fast
from tarock_logs.rules.royal.tricks import Bound, judge, trick_winner
from tarock_logs.tools.simulate import simulate_hands
from tests.support.native_replay import native_replays_equal, replays_equal, sessions_of

needs_native = pytest.mark.skipif(
    not _native.available(), reason=f"the native core is not loaded: {_native.why_not}"
)
pytestmark = needs_native

ROOT = Path(__file__).resolve().parents[3] / "sample_logs"
LONG = os.environ.get("TAROCK_LONG_CHECKS") == "1"
GAME = "royal"


def test_the_royal_bulk_path_uses_the_native_loop_when_the_core_is_loaded() -> None:
    assert fast.native_card_loop() is True


def test_every_royal_sample_replays_alike_with_and_without_the_native_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sessions = [  # the played samples (a score sheet's hands are facts: no cards to play)
        r.session
        for r in read_paths([ROOT])
        if r.session is not None
        and r.session.game == GAME
        and all(h.deal is not None for h in r.session.hands)
    ]
    assert sessions
    games, taken = replays_equal(sessions, fast, monkeypatch, python_fast_path=False)
    assert games >= 8 and taken == games  # the worked examples are clean games


@pytest.fixture(scope="module")
def simulated() -> list[dict[str, Any]]:
    """2,000 simulated games (250 matches of 8, seed 43), simulated once for the module: the
    simulation (the reference engine's bidding) is most of these tests' time."""
    return simulate_hands(2_000, 43, game=GAME, hands_per_session=8)


def test_simulated_games_replay_alike_with_and_without_the_native_loop(
    monkeypatch: pytest.MonkeyPatch, simulated: list[dict[str, Any]]
) -> None:
    """Follow suit, else a tarock, else anything, and the trick winner (the Sküs the highest
    tarock, no Pagat exception) as the simulator plays them: 2,000 games in the suite;
    100,000 with TAROCK_LONG_CHECKS=1."""
    n = 100_000 if LONG else 2_000
    step = 5_000
    games = taken = 0
    for start in range(0, n, step):  # in slices: the replays of 100,000 games do not fit
        docs = (
            simulated
            if start == 0 and n == 2_000
            else simulate_hands(min(step, n - start), 43 + start, game=GAME, hands_per_session=8)
        )
        g, t = replays_equal(sessions_of(docs), fast, monkeypatch, python_fast_path=False)
        games += g
        taken += t
    assert games == n
    assert taken >= 0.95 * n  # simulated games are clean: (nearly) all take the native loop


def _plant(rng: random.Random, doc: dict[str, Any]) -> bool:
    """Change one card action of one game of ``doc``: another card of the same seat (held or
    not), a card of another seat, two cards of a trick swapped (out of turn), a card dropped
    or played twice."""
    hands = [h for h in doc["hands"] if "actions" in h]
    if not hands:
        return False
    h = rng.choice(hands)
    acts = h["actions"]
    plays = [i for i, a in enumerate(acts) if a["type"] == "play"]
    if len(plays) < 8:
        return False
    i = rng.choice(plays[:-1])
    kind = rng.randrange(5)
    if kind == 0:
        seat = acts[i]["seat"]
        acts[i] = {**acts[i], "card": rng.choice(h["deal"]["hands"][seat])}
    elif kind == 1:
        seat = (acts[i]["seat"] + 1 + rng.randrange(3)) % 4
        acts[i] = {**acts[i], "card": rng.choice(h["deal"]["hands"][seat])}
    elif kind == 2:
        acts[i], acts[i + 1] = acts[i + 1], acts[i]
    elif kind == 3:
        del acts[i]
    else:
        acts.insert(i, dict(acts[i]))
    return True


def test_native_card_loop_never_accepts_a_planted_illegal_card(
    monkeypatch: pytest.MonkeyPatch, simulated: list[dict[str, Any]]
) -> None:
    """One card of one game per match changed (800 games: the first 100 matches of the
    module's simulated ones, copied): the replays agree, and no game the reference reports a
    finding for was taken by the native loop."""
    rng = random.Random(16)
    docs: list[dict[str, Any]] = orjson.loads(orjson.dumps(simulated[:100]))  # (a deep copy)
    assert sum(len(d["hands"]) for d in docs) == 800
    planted = 0
    for d in docs:
        planted += _plant(rng, d)
    sessions = sessions_of(docs)  # (validated into models of their own: nothing shared)
    _, _, native = native_replays_equal(sessions, fast, monkeypatch, python_fast_path=False)
    flagged = 0
    for replays in native:  # (the native replays compared above)
        for r in replays:
            if r.violations or not r.complete:
                flagged += 1
                assert r._tricks is None, r.violations
    assert planted >= 80 and flagged >= 75


def _random_bound_game(
    rng: random.Random,
) -> tuple[list[list[str]], int, list[dict[str, list[Bound]]], list[Action], bool]:
    """A random deal with random bound cards per seat, played by picking among the legal
    cards of ``tricks.judge`` (and, now and then, any held card): the hands, the leader, the
    bindings, the card actions and whether every card was legal."""
    pack = list(PACKS[GAME])
    rng.shuffle(pack)
    hands = [sorted(pack[10 * s : 10 * s + 10]) for s in range(4)]
    bindings: list[dict[str, list[Bound]]] = []
    for s in range(4):
        b: dict[str, list[Bound]] = {}
        for c in rng.sample(hands[s], rng.randrange(4)):
            b[c] = [Bound(rng.randint(1, 10), rng.randrange(12)) for _ in range(rng.randint(1, 2))]
        bindings.append(b)
    held = [list(h) for h in hands]
    leader = first = rng.randrange(4)
    acts: list[Action] = []
    clean = True
    for trick_no in range(1, 11):
        trick: list[tuple[int, str]] = []
        for j in range(4):
            s = (leader + j) % 4
            legal = judge(held[s], trick, trick_no, bindings[s]).legal
            if rng.random() < 0.02:
                card = rng.choice(held[s])
                clean = clean and card in legal
            else:
                card = rng.choice(sorted(legal))
            held[s].remove(card)
            trick.append((s, card))
            acts.append(Action("play", s, card=card))
        leader = trick_winner(trick)
    return hands, first, bindings, acts, clean


def test_bound_cards_of_section_6_2_are_judged_as_the_reference_judges_them() -> None:
    """Random games with bound cards straight through the native loop: it plays out exactly
    the games whose every card ``tricks.judge`` allows (same tricks and winners as
    ``tricks.trick_winner``) and declines every other one."""
    core = _native.core
    assert core is not None
    rng = random.Random(62)
    accepted = declined = 0
    for _ in range(3_000):
        hands, leader, bindings, acts, clean = _random_bound_game(rng)
        bound = [
            [(fast.ROYAL_CID[c], b.trick, b.seq) for c, bs in bindings[s].items() for b in bs]
            for s in range(4)
        ]
        got = core.royal_play_cards(hands, acts, 0, leader, bound, fast.ROYAL_CID)
        if not clean:
            assert got is None
            declined += 1
            continue
        want = []
        for t in range(10):
            cards = tuple((a.seat, a.card or "") for a in acts[4 * t : 4 * t + 4])
            want.append((cards, trick_winner(cards)))
        assert got == want
        accepted += 1
    assert accepted >= 1_500 and declined >= 200
