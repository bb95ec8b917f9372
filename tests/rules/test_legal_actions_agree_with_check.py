"""The differential test of issue 15's acceptance: at every position, ``legal_actions()`` is
exactly the set of candidate actions that ``check()`` finds no error in (the contract of
``rules/base.py``: "everything that may be done now without an error-severity violation").

The candidates at a position are the legal actions, every card held by each seat (as a play),
the recorded action (sample logs), and the *vocabulary*: every action that was legal at some
position of the same game and phase, given to each seat in turn. So an action ``check()``
accepts silently but ``legal_actions()`` leaves out (the Slovenian declarer's ležim in a
contract without bonuses, issue 15) is found wherever the same action is legal elsewhere.

Positions: every position of the sample logs (the recorded action pushed after each check,
leniently, so the positions after an illegal action are compared too) and of simulated hands
(random legal actions, biased towards passing). The suite plays ``SUITE_HANDS`` hands per game
(a few seconds); ``pytest -m slow`` plays ``SLOW_HANDS`` (10,000) per game. Run by hand with
another count: ``python -m tests.rules.test_legal_actions_agree_with_check 2000``.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tarock_logs.cards import PACKS
from tarock_logs.log.reader import read_paths
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Action, HandState, SessionState
from tarock_logs.verdict.convert import to_engine_action, to_engine_irregularity
from tarock_logs.verdict.replay import deal_info, start_session

ROOT = Path(__file__).resolve().parents[2]
#: hands per game in the suite (the Royal engine is the slowest to ask)
SUITE_HANDS = {"slovenian": 60, "zwanzigerrufen": 10, "royal": 6}
SLOW_HANDS = 10_000

#: per game, the candidate vocabulary: (phase, action with seat 0) seen legal somewhere
Vocabulary = dict[str, set[Action]]


def _error(hand: HandState, action: Action) -> bool:
    return any(v.severity == "error" for v in hand.check(action))


def _held(hand: HandState) -> list[list[str]]:
    hands = hand.view().get("hands") or []
    return [list(h or []) for h in hands]


#: the fields that an action's equality compares
_COMPARED = tuple(f.name for f in dataclasses.fields(Action) if f.compare)


@functools.cache
def _normal(a: Action) -> Action:
    """``a`` with its cards (a discard) and shown cards in sorted order."""
    cards, shown = tuple(sorted(a.cards)), tuple(sorted(a.shown))
    if cards == a.cards and shown == a.shown:
        return a
    return dataclasses.replace(a, cards=cards, shown=shown)


@functools.cache
def _given(a: Action) -> tuple[str, ...]:
    """The compared fields that ``a`` sets."""
    return tuple(f for f in _COMPARED if getattr(a, f) not in (None, ()))


@functools.cache
def _seated(a: Action, seat: int) -> Action:
    """``a`` given to ``seat`` (a vocabulary action, asked of each seat at every position)."""
    return dataclasses.replace(a, seat=seat)


def _by_turn(legal: list[Action]) -> dict[tuple[str, int], list[Action]]:
    """The legal actions, normalised (:func:`_normal`), by (type, seat)."""
    out: dict[tuple[str, int], list[Action]] = defaultdict(list)
    for b in legal:
        out[b.type, b.seat].append(_normal(b))
    return out


def _covered(a: Action, legal: dict[tuple[str, int], list[Action]]) -> bool:
    """``a`` is a legal action written another way: its cards in another order (a discard), or
    leaving out a field that a legal action sets (a Royal raise written without the raised
    Schlemm, which ``check()`` infers). ``legal``: from :func:`_by_turn`."""
    a = _normal(a)
    given = _given(a)
    return any(
        all(getattr(a, f) == getattr(b, f) for f in given) for b in legal.get((a.type, a.seat), ())
    )


def _recording_form(hand: HandState, a: Action) -> bool:
    """An action that only writes down what the rules already imply, which ``check()`` takes
    and ``legal_actions()`` does not offer (it changes nothing): the Slovenian forehand's
    mandatory "three" written as his first bid (spec 5.2); a first card that closes the
    bidding or the announcements (the passes left out); the Slovenian discards, which
    ``legal_actions()`` offers one card at a time, written as one action."""
    if a.type == "bid" and a.contract == "three" and str(hand.phase) == "bidding":
        return not hand.view().get("bids")
    if a.type == "play" and str(hand.phase) != "play":  # the first card closes the talking
        return True
    if a.type == "discard" and len(a.cards) > 1:  # the discards one card at a time, at once
        singles = {b.cards for b in hand.legal_actions() if b.type == "discard"}
        return all(len(b) == 1 for b in singles) and all((c,) in singles for c in a.cards)
    return False


def disagreements(hand: HandState, vocab: Vocabulary, extra: tuple[Action, ...] = ()) -> list[str]:
    """Where ``legal_actions()`` and ``check()`` disagree at ``hand``'s position (empty: they
    agree); ``vocab`` learns the legal actions of this position."""
    legal = hand.legal_actions()
    phase = str(hand.phase)
    known = vocab.setdefault(phase, set())
    out = [f"{phase}: legal {a} but check() finds an error" for a in legal if _error(hand, a)]
    for a in legal:
        if a.type != "play":
            known.add(_seated(a, 0))
    legal_set = set(legal)
    seats = range(hand.table_size)
    candidates = set(extra)
    candidates.update(_seated(a, s) for a in known for s in seats)
    if phase == "play":
        for s, cards in enumerate(_held(hand)):
            candidates.update(Action("play", s, card=c) for c in cards)
    by_turn = _by_turn(legal)
    for a in candidates - legal_set:
        if not _covered(a, by_turn) and not _recording_form(hand, a) and not hand.check(a):
            out.append(
                f"{phase}: check() takes {a} without a finding, legal_actions() leaves it out"
            )
    return out


# ------------------------------------------------------------------ simulated hands


def _pick(rng: random.Random, phase: str, legal: list[Action]) -> Action:
    quiet = [a for a in legal if a.type in ("pass", "lezim")]
    if phase != "play" and quiet and rng.random() < 0.65:
        return rng.choice(quiet)
    return rng.choice(legal)


def _slovenian_deals(rng: random.Random) -> tuple[SessionState, int, list[list[str]], list[str]]:
    from tests.rules.slovenian.randomgame import random_deal

    eng = get_engine("slovenian")
    assert eng is not None
    rid, options = rng.choice(
        [
            ("tournament", {}),
            ("tournament", {}),
            ("tournament", {"lezim_without_bonuses": "none"}),
            ("tournament", {"protected_only_left": "pagat_kept"}),
            ("openspiel", {}),
        ]
    )
    rs = eng.ruleset(rid, options)
    n = rng.choice(eng.table_sizes(rs))
    dealer = rng.randrange(n)
    hands, talon = random_deal(rng, n, dealer)
    return eng.new_session(rs, n), dealer, hands, talon


def _zwanzigerrufen_deals(
    rng: random.Random,
) -> tuple[SessionState, int, list[list[str]], list[str]]:
    from tests.rules.zwanzigerrufen.test_zwanzigerrufen_invariants import OPTION_VARIANTS

    eng = get_engine("zwanzigerrufen")
    assert eng is not None
    rs = eng.ruleset("zr-std", rng.choice(OPTION_VARIANTS))
    cards = list(eng.pack(rs))
    rng.shuffle(cards)
    return (
        eng.new_session(rs, 4),
        rng.randrange(4),
        [cards[i * 10 : i * 10 + 10] for i in range(4)],
        [],
    )


def _royal_deals(rng: random.Random) -> tuple[SessionState, int, list[list[str]], list[str]]:
    from tests.rules.royal.test_royal_invariants import BOUND, random_deal

    eng = get_engine("royal")
    assert eng is not None
    opts = {"consolation": 0, **({"catalogue": BOUND} if rng.random() < 0.3 else {})}
    if rng.random() < 0.1:  # a short hand now and then: the throw-in positions
        dealer = rng.choice([1, 3])
        cards = list(PACKS["royal"])
        rng.shuffle(cards)
        hands = [cards[0:9], cards[9:20], cards[20:30], cards[30:40]]
    else:
        dealer = rng.choice([1, 3])
        hands = random_deal(rng, dealer)
    return eng.new_session(eng.ruleset("royal", opts), 4), dealer, hands, []


DEALS: dict[
    str, Callable[[random.Random], tuple[SessionState, int, list[list[str]], list[str]]]
] = {
    "slovenian": _slovenian_deals,
    "zwanzigerrufen": _zwanzigerrufen_deals,
    "royal": _royal_deals,
}


def simulate(game: str, hands: int, seed: int = 15) -> tuple[int, list[str]]:
    """Play ``hands`` random legal hands of ``game`` comparing every position; returns (the
    number of positions compared, the disagreements found, at most 20)."""
    rng = random.Random(seed)
    vocab: Vocabulary = defaultdict(set)
    positions = 0
    found: list[str] = []
    for k in range(hands):
        ss, dealer, dealt, talon = DEALS[game](rng)
        try:
            hand = ss.new_hand(dealer, dealt, talon)
        except ValueError:  # a deal the engine refuses outright (not a position)
            continue
        for _ in range(500):
            bad = disagreements(hand, vocab)
            positions += 1
            found += [f"{game} hand {k}: {b}" for b in bad]
            legal = hand.legal_actions()
            if hand.is_over() or not legal or len(found) >= 20:
                break
            hand.push(_pick(rng, str(hand.phase), legal))
        if len(found) >= 20:
            break
    return positions, found[:20]


@pytest.mark.parametrize("game", sorted(DEALS))
def test_legal_actions_are_exactly_what_check_accepts_in_simulated_hands(game: str) -> None:
    positions, found = simulate(game, SUITE_HANDS[game])
    assert positions > SUITE_HANDS[game] * 10
    assert found == []


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("TAROCK_LONG_CHECKS"),
    reason="10,000 hands per game take about 25 CPU minutes (TAROCK_LONG_CHECKS=1 runs them; "
    "the last run's figures are in docs/rulesets.md)",
)
@pytest.mark.parametrize("game", sorted(DEALS))
def test_legal_actions_are_exactly_what_check_accepts_in_10000_simulated_hands(game: str) -> None:
    positions, found = simulate(game, SLOW_HANDS, seed=1515)
    assert positions > SLOW_HANDS * 10
    assert found == []


# ------------------------------------------------------------------ sample logs


def _sample_sessions() -> Iterator[tuple[str, object]]:
    paths = sorted(
        p
        for d in ("slovenian", "zwanzigerrufen", "royal", "tournament", "disputed")
        for p in (ROOT / "sample_logs" / d).glob("*.json*")
    )
    for rec in read_paths(paths):
        if rec.session is not None:
            yield f"{rec.file}:{rec.line or rec.index}", rec.session


def test_legal_actions_are_exactly_what_check_accepts_at_every_sample_log_position() -> None:
    """Every position of every hand of the sample logs (disputed ones included): before each
    recorded action, the legal actions and ``check()`` agree, the recorded action included."""
    vocab: dict[str, Vocabulary] = defaultdict(lambda: defaultdict(set))
    positions = 0
    found: list[str] = []
    for where, session in _sample_sessions():
        eng = get_engine(session.game)  # type: ignore[attr-defined]
        assert eng is not None
        rs = eng.ruleset(session.ruleset, dict(session.options))  # type: ignore[attr-defined]
        n = len(session.players)  # type: ignore[attr-defined]
        ss = eng.new_session(rs, n)
        start_session(session, ss)  # type: ignore[arg-type]
        for h in session.hands:  # type: ignore[attr-defined]
            if h.deal is None:
                continue
            try:
                hand = ss.new_hand(
                    h.dealer,
                    [list(c) for c in h.deal.hands],
                    list(h.deal.talon),
                    [to_engine_irregularity(i) for i in h.irregularities],
                    deal_info(h),
                )
            except ValueError:
                continue
            for a in h.actions:
                action = to_engine_action(a)
                bad = disagreements(hand, vocab[session.game], (action,))  # type: ignore[attr-defined]
                positions += 1
                found += [f"{where} hand {h.number}: {b}" for b in bad]
                try:
                    hand.push(action)
                except Exception:  # noqa: BLE001 - not applicable: the replay stops here too
                    break
            if hand.is_over():
                ss.end_hand(hand, hand.score())
    assert positions > 1000
    assert found[:20] == []


if __name__ == "__main__":  # pragma: no cover - a bigger run by hand
    count = int(sys.argv[1]) if len(sys.argv) > 1 else SLOW_HANDS
    result = {g: simulate(g, count, seed=1515) for g in sorted(DEALS)}
    print(
        json.dumps(
            {g: {"positions": p, "disagreements": f} for g, (p, f) in result.items()}, indent=1
        )
    )
