"""The native card loop of Zwanzigerrufen (``tarock_logs/_native/zrloop.h``, the bulk path
``zwanzigerrufen.fast``) against the reference engine (``ZRHand`` pushing every card, with the
native core off: ``fast._CORE = None``).

The property: the same replay either way: the same verdicts, findings, scores, carries and
tricks (the native path's trick views equal the reference state's ``view()["tricks"]``:
winners, card points, Märchenstich and Mondfang). Checked on every Zwanzigerrufen sample log,
on simulated hands (3,000 in the suite, 100,000 with ``TAROCK_LONG_CHECKS=1``), on simulated
hands replayed under other play options (Märchenstich in fixed order or off, no or
suit-first compulsion in the Farbensolo, the Pagat's hold obligation ignored: hands then
become illegal, the native loop must decline them) and on hands with one planted illegal or
misplaced card (never accepted by the native loop).
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import orjson
import pytest

from tarock_logs import _native
from tarock_logs.log.reader import read_paths
from tarock_logs.rules.zwanzigerrufen import fast
from tarock_logs.tools.simulate import simulate_hands
from tests.support.native_replay import native_replays_equal, replays_equal, sessions_of

needs_native = pytest.mark.skipif(
    not _native.available(), reason=f"the native core is not loaded: {_native.why_not}"
)
pytestmark = needs_native

ROOT = Path(__file__).resolve().parents[3] / "sample_logs"
LONG = os.environ.get("TAROCK_LONG_CHECKS") == "1"
GAME = "zwanzigerrufen"


def test_the_zwanzigerrufen_bulk_path_uses_the_native_loop_when_the_core_is_loaded() -> None:
    assert fast.native_card_loop() is True


def test_every_zwanzigerrufen_sample_replays_alike_with_and_without_the_native_loop(
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
    hands, taken = replays_equal(sessions, fast, monkeypatch, python_fast_path=False)
    assert hands >= 4 and taken == hands  # the worked examples are clean hands


@pytest.fixture(scope="module")
def simulated() -> list[dict[str, Any]]:
    """3,000 simulated hands (375 sessions of 8, seed 41), simulated once for the module: the
    simulation is most of these tests' time (each test that changes hands takes a copy)."""
    return simulate_hands(3_000, 41, game=GAME, hands_per_session=8)


def test_simulated_hands_replay_alike_with_and_without_the_native_loop(
    monkeypatch: pytest.MonkeyPatch, simulated: list[dict[str, Any]]
) -> None:
    """Farbzwang, Tarockzwang, the Farbensolo and Solo, Märchenstich and Mondfang as the
    simulator plays them: 3,000 hands in the suite; 100,000 with TAROCK_LONG_CHECKS=1."""
    n = 100_000 if LONG else 3_000
    step = 5_000
    hands = taken = 0
    for start in range(0, n, step):  # in slices: the replays of 100,000 hands do not fit
        docs = (
            simulated
            if start == 0 and n == 3_000
            else simulate_hands(min(step, n - start), 41 + start, game=GAME, hands_per_session=8)
        )
        h, t = replays_equal(sessions_of(docs), fast, monkeypatch, python_fast_path=False)
        hands += h
        taken += t
    assert hands == n
    assert taken >= 0.85 * n  # the rest: auction info lines (implied kontra) or thrown in


@pytest.mark.parametrize(
    "options",
    [
        {"maerchenstich": "fixed_order"},
        {"maerchenstich": "off"},
        {"farbensolo_tarock_compulsion": False},
        {"farbensolo_tarock_compulsion": "suit_first"},
        {"pagat_hold_obligation": "ignore"},
    ],
    ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items()),
)
def test_play_options_replay_alike_with_and_without_the_native_loop(
    options: dict[str, Any], monkeypatch: pytest.MonkeyPatch, simulated: list[dict[str, Any]]
) -> None:
    """Simulated hands (800 of the module's) replayed under another Märchenstich rule (O29),
    Farbensolo compulsion (O30) or Pagat hold obligation (O32): the same verdicts and tricks
    either way (hands the option makes illegal are declined by the native loop and reported
    by the reference)."""
    docs = [{**d, "options": dict(options)} for d in simulated[:100]]
    hands, taken = replays_equal(sessions_of(docs), fast, monkeypatch, python_fast_path=False)
    assert hands == 800 and taken >= 400


def _json_copy(docs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A deep copy of simulated sessions (JSON data), several times faster than
    ``copy.deepcopy``."""
    out: list[dict[str, Any]] = orjson.loads(orjson.dumps(docs))
    return out


def _plant(rng: random.Random, doc: dict[str, Any]) -> bool:
    """Change one card action of one hand of ``doc``: another card of the same seat (held or
    not), two cards of a trick swapped (out of turn), a card dropped or played twice."""
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
    if kind == 0:  # another card the seat was dealt (often illegal, sometimes already played)
        seat = acts[i]["seat"]
        acts[i] = {**acts[i], "card": rng.choice(h["deal"]["hands"][seat])}
    elif kind == 1:  # a card of another seat (not held)
        seat = (acts[i]["seat"] + 1 + rng.randrange(3)) % 4
        acts[i] = {**acts[i], "card": rng.choice(h["deal"]["hands"][seat])}
    elif kind == 2:  # the next card played first (out of turn)
        acts[i], acts[i + 1] = acts[i + 1], acts[i]
    elif kind == 3:  # a card dropped
        del acts[i]
    else:  # a card played twice
        acts.insert(i, dict(acts[i]))
    return True


def test_native_card_loop_never_accepts_a_planted_illegal_card(
    monkeypatch: pytest.MonkeyPatch, simulated: list[dict[str, Any]]
) -> None:
    """One card of one hand per session changed (1,600 of the module's hands, copied): the
    replays agree, and no hand the reference reports a play finding for (illegal card, not in
    hand, out of turn, Pagat released, missing tricks) was taken by the native loop."""
    rng = random.Random(16)
    docs = _json_copy(simulated[-200:])
    planted = 0
    for d in docs:
        planted += _plant(rng, d)
    sessions = sessions_of(docs)
    _, _, native = native_replays_equal(sessions, fast, monkeypatch, python_fast_path=False)
    flagged = 0
    for replays in native:  # (the native replays compared above)
        for r in replays:
            play = [v for v in r.violations if v.code.startswith("play.")]
            if play:
                flagged += 1
                assert r._tricks is None, play
    assert planted >= 150 and flagged >= 150


def test_the_pagat_released_early_is_declined_and_reported(
    monkeypatch: pytest.MonkeyPatch, simulated: list[dict[str, Any]]
) -> None:
    """§6.6: a hand whose announced Pagat is played before the last trick while its holder
    had another legal card is never taken by the native loop (the reference reports
    play.pagat_released; the hands of 1,600 of the module's, copied, so changed). The
    sessions without such a hand are left out: unchanged, they are replayed alike either way
    by ``test_simulated_hands_replay_alike_with_and_without_the_native_loop`` already."""
    docs = []
    found = 0
    for d in _json_copy(simulated[:200]):
        changed = found
        for h in d["hands"]:
            acts = h.get("actions", [])
            pagat = [a for a in acts if a["type"] == "announce" and a.get("bonus") == "pagat"]
            if not pagat:
                continue
            plays = [i for i, a in enumerate(acts) if a["type"] == "play"]
            at = next((i for i in plays if acts[i]["card"] == "T1"), None)
            if at is None or at == plays[-1]:
                continue
            # move the Pagat's play to the holder's first card: released early
            seat = acts[at]["seat"]
            first = next(i for i in plays if acts[i]["seat"] == seat)
            acts[first]["card"], acts[at]["card"] = acts[at]["card"], acts[first]["card"]
            found += 1
        if found > changed:
            docs.append(d)
    sessions = sessions_of(docs)
    _, _, native = native_replays_equal(sessions, fast, monkeypatch, python_fast_path=False)
    released = 0
    for replays in native:  # (the native replays compared above)
        for r in replays:
            if any(v.code == "play.pagat_released" for v in r.violations):
                released += 1
                assert r._tricks is None
    assert found >= 20 and released >= 15
