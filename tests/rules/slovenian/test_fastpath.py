"""Differential tests of the bulk-audit path (``SlovenianSession.fast_replay``: the native
engine, :mod:`tarock_logs.rules.slovenian.fast.fastpath`) against the reference engine
(:class:`SlovenianHand` pushed action by action).

The property, over thousands of hands (random legal games under both rulesets at tables of 3,
4 and 5, the simulated sample logs, OpenSpiel-generated games, and hands with one planted
mutation in the bidding, the exchange, the announcement round or the play): the fast path
either declines (``None``) or gives exactly the reference result: no violation or warning at
all, the same score (items, totals, radelci after), the same tricks. A hand the reference
flags in any way is never taken. Without the native core the fast path declines every hand
(the reference replays it, whole); a table of 5 is always the reference's.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import Any

import pytest

from tarock_logs import _native
from tarock_logs.log.models import SessionAdapter
from tarock_logs.rules.base import Action
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.fast.fastpath import HandTricks
from tarock_logs.rules.slovenian.session import SlovenianSession
from tarock_logs.rules.slovenian.tricks import PACK_SET as CARDS
from tarock_logs.verdict import replay as rp
from tests.rules.slovenian.randomgame import choose, random_hand
from tests.support.simulated import simulated_sessions

ROOT = Path(__file__).resolve().parents[3] / "sample_logs"
RULESETS = ("tournament", "openspiel")
#: (ruleset, table size): openspiel-2.0 is played at tables of 3 and 4
CASES = [(r, n) for r in RULESETS for n in (3, 4, 5) if not (r == "openspiel" and n == 5)]
#: the fast path is the native engine's: it takes hands only with the native core loaded
NATIVE = _native.available()


def _coverage(taken: int, clean: int, n: int = 4, share: float = 0.95) -> None:
    """The fast path takes (nearly) all clean hands at tables of 3 and 4 with the native core,
    and none without it or at a table of 5 (the reference's, whole)."""
    if NATIVE and n in (3, 4):
        assert taken >= share * clean, f"the fast path took {taken} of {clean} clean hands"
    else:
        assert taken == 0


def _same(a: Action) -> Action:
    return a


def _session(ruleset: str, n: int, radelci: list[int]) -> SlovenianSession:
    s = ENGINE.new_session(ENGINE.ruleset(ruleset), n)
    s.radelci = list(radelci)
    return s


def _reference(
    ruleset: str,
    n: int,
    dealer: int,
    hands: Any,
    talon: Any,
    actions: list[Action],
    radelci: list[int],
) -> tuple[bool, Any, Any]:
    """(clean, score, finished hand) of the reference engine: clean = no violation or warning
    at all, the hand over and its score without unverified items."""
    h = _session(ruleset, n, radelci).new_hand(dealer, hands, talon)
    found = []
    for a in actions:
        found += h.push(a)
    found += h.hand_findings()
    if not h.is_over():
        return False, None, None
    score = h.score()
    return not found and not score.unverified, score, h


def _differential(
    ruleset: str,
    n: int,
    dealer: int,
    hands: Any,
    talon: Any,
    actions: list[Action],
    radelci: list[int],
) -> tuple[bool, bool]:
    """Assert the fast path's answer is None or the reference's; returns (taken, ref clean)."""
    s = _session(ruleset, n, radelci)
    before = s.carry()
    got = s.fast_replay(dealer, hands, talon, actions, _same)
    clean, score, ref = _reference(ruleset, n, dealer, hands, talon, actions, radelci)
    assert s.carry() == before  # the session is changed only by end_hand
    if got is None:
        return False, clean
    assert clean, "the fast path took a hand the reference flags"
    assert got.findings == ()
    f_score = got.score
    assert f_score == score
    assert f_score.items == score.items and f_score.totals == score.totals
    assert f_score.carry_after == score.carry_after
    assert callable(got.tricks) and got.tricks() == ref.view()["tricks"]
    built = got.tricks.__self__  # type: ignore[attr-defined]
    assert isinstance(built, HandTricks)
    assert built() == ref.tricks and built() is built()  # built once, on first call
    return True, clean


def _random_game(seed: int, n: int, ruleset: str, radelci: list[int]) -> tuple[Any, list[Action]]:
    rng = random.Random(seed * 7 + 1)
    h = random_hand(seed, n, ruleset, radelci=radelci)
    actions: list[Action] = []
    while not h.is_over():
        a = choose(rng, h, h.legal_actions())
        h.push(a)
        actions.append(a)
    return h, actions


@pytest.mark.parametrize(("ruleset", "n"), CASES)
def test_random_legal_games_fast_path_equals_reference(ruleset: str, n: int) -> None:
    taken = clean = 0
    total = 300
    for seed in range(total):
        rng = random.Random(seed)
        radelci = [rng.choice((0, 0, 1, 2)) for _ in range(n)]
        h, actions = _random_game(seed, n, ruleset, radelci)
        t, c = _differential(ruleset, n, h.dealer, h.dealt, h.talon, actions, radelci)
        taken += t
        clean += c
    # random legal games are mostly clean (some carry warnings or unverified score items, which
    # the fast path leaves to the reference), and the fast path takes (nearly) all clean ones
    print(f"{ruleset} n={n}: {clean} clean, {taken} taken of {total}")
    assert clean >= 0.8 * total
    _coverage(taken, clean, n)


def _mutate(rng: random.Random, h0: Any, actions: list[Action]) -> list[Action]:
    """One action of a legal hand replaced: another card (held or not), a bad bid, a king
    discarded, a tarok called, an announcement, or an action dropped."""
    i = rng.randrange(len(actions))
    a = actions[i]
    out = list(actions)
    # the seat's hand at that point (reference, legal prefix)
    st = _session(h0.rules.ruleset.id, h0.table_size, list(h0.radelci_before)).new_hand(
        h0.dealer, h0.dealt, h0.talon
    )
    for b in actions[:i]:
        st.push(b)
    held = sorted(st.hands[a.seat] - {a.card}) if a.seat in st.pos else []
    if a.type == "play":
        if held and rng.random() < 0.8:
            out[i] = Action("play", a.seat, card=rng.choice(held))
        else:
            out[i] = Action("play", rng.choice(st.active), card=rng.choice(sorted(CARDS)))
    elif a.type in ("bid", "pass"):
        out[i] = Action("bid", a.seat, contract=rng.choice([*CONTRACTS, "pass", "bogus"]))
    elif a.type == "discard":
        kings = [c for c in st.hands[a.seat] if c.endswith("K")] or ["HK"]
        out[i] = Action("discard", a.seat, cards=(rng.choice(kings), *a.cards[1:]), shown=a.shown)
    elif a.type == "call":
        out[i] = Action("call", a.seat, card=rng.choice(["T5", "H1", "HK", "SK"]))
    elif a.type == "talon":
        out[i] = Action("talon", a.seat, group=rng.choice([0, 1, 5, 9]))
    else:
        out[i] = Action(
            "announce", a.seat, bonus=rng.choice(["trula", "kralji", "valat", "pagat_ultimo"])
        )
    if rng.random() < 0.1:
        del out[i]
    return out


@pytest.mark.parametrize(("ruleset", "n"), CASES)
def test_planted_illegal_actions_are_never_taken(ruleset: str, n: int) -> None:
    flagged = 0
    for seed in range(250):
        rng = random.Random(1000 + seed)
        radelci = [rng.choice((0, 1)) for _ in range(n)]
        h, actions = _random_game(seed + 5000, n, ruleset, radelci)
        bad = _mutate(rng, h, actions)
        _taken, clean = _differential(ruleset, n, h.dealer, h.dealt, h.talon, bad, radelci)
        flagged += not clean
    assert flagged >= 100  # most mutations are illegal; none of those was taken


def _replay_both(sessions: list[Any], monkeypatch: pytest.MonkeyPatch) -> tuple[int, int]:
    fast = [rp.replay_session(s) for s in sessions]
    with monkeypatch.context() as mp:
        mp.delattr(SlovenianSession, "fast_replay")
        ref = [rp.replay_session(s) for s in sessions]
    taken = total = 0
    for fs, rs in zip(fast, ref, strict=True):
        for x, y in zip(fs, rs, strict=True):
            total += 1
            taken += x._tricks is not None
            assert x.score == y.score
            assert x.violations == y.violations and x.legal == y.legal
            assert x.unverified == y.unverified and x.complete == y.complete
            assert x.carry_before == y.carry_before and x.carry_after == y.carry_after
            assert x.actions_applied == y.actions_applied
            if x.tricks is not None:
                assert list(x.tricks) == y.state.view()["tricks"]
                assert [(s.action, s.violations) for s in x.steps] == [
                    (s.action, s.violations) for s in y.steps
                ]
                # the reference state is rebuilt on demand (the viewer's alternatives)
                assert x.state is not None and x.state.view() == y.state.view()
    return taken, total


def _sample_sessions(folder: str) -> list[Any]:
    out = []
    for f in sorted((ROOT / folder).rglob("*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.strip():
                try:
                    s = SessionAdapter.validate_json(line)
                except ValueError:
                    continue
                if s.game == "slovenian":
                    out.append(s)
    return out


@pytest.mark.parametrize("folder", ["tournament", "disputed"])
def test_simulated_samples_replay_identically(folder: str, monkeypatch: pytest.MonkeyPatch) -> None:
    sessions = _sample_sessions(folder)
    assert sessions, f"no Slovenian sessions in sample_logs/{folder}"
    taken, total = _replay_both(sessions, monkeypatch)
    assert total > 0
    if folder != "disputed":  # the legal samples: the fast path must carry the common case
        _coverage(taken, sum(len(s.players) in (3, 4) for s in sessions for s_h in s.hands))


@pytest.mark.parametrize("table_size", [3, 4, 5])
def test_simulated_sessions_with_radelci_replay_identically(
    table_size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default ruleset's simulated sessions (radelci carried from hand to hand), the first
    400 hands of those the other native-replay differentials share (tests/support/simulated.py)."""
    sessions = simulated_sessions(ENGINE.default_ruleset, table_size, 400)
    taken, total = _replay_both(sessions, monkeypatch)
    assert total == 400
    _coverage(taken, total, table_size)


def test_a_dealer_out_of_rotation_is_no_engine_finding_on_either_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Spec 3.2 (the deal passes to the next seat) is judged once, by the reader, which sees the
    whole session (``deal.dealer_rotation``). The bench's OpenSpiel set deals from seat 3 every
    hand: neither the reference nor the fast path reports it, and the fast path takes them."""
    from tarock_logs.bench import openspiel_sessions

    sessions = [SessionAdapter.validate_python(s) for s in openspiel_sessions(120, 7)]
    taken, total = _replay_both(sessions, monkeypatch)
    replays = [r for s in sessions for r in rp.replay_session(s)]
    assert len({h.dealer for s in sessions for h in s.hands}) == 1 and len(replays) > 1
    assert all(r.legal and not r.violations for r in replays)
    _coverage(taken, total)


@pytest.mark.slow
@pytest.mark.parametrize("players", [3, 4])
def test_openspiel_generated_games_replay_identically(
    players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("pyspiel")
    from tarock_logs.cli.import_openspiel import import_lines
    from tarock_logs.tools.importers.openspiel_games import generate_games

    lines = [json.dumps(g.record()) for g in generate_games(players, 600, 4242 + players)]
    sessions = [i.session for i in import_lines(lines, name="g.jsonl") if i.session is not None]
    assert len(sessions) == 600
    taken, total = _replay_both(sessions, monkeypatch)
    _coverage(taken, total, players)


_BIDDING_FIELDS = (
    "bids",
    "passed",
    "high",
    "holder",
    "others_bid",
    "turn",
    "awaiting_final",
    "phase",
    "contract",
    "declarer",
)


def _mutate_bidding(rng: random.Random, h0: Any, actions: list[Action]) -> list[Action]:
    """One change in the bidding: a bid or pass by another seat (out of turn, after a pass), a
    bid replaced (too low, klop, three, unknown, not at this table, a pass as the final
    declaration), a bid inserted twice, or one dropped."""
    nb = next((i for i, a in enumerate(actions) if a.type not in ("bid", "pass")), len(actions))
    i = rng.randrange(max(1, nb))
    a = actions[i]
    out = list(actions)
    r = rng.random()
    if r < 0.25:
        out[i] = Action(a.type, rng.choice(list(range(h0.table_size))), contract=a.contract)
    elif r < 0.65:
        code = rng.choice([*CONTRACTS, "pass", "bogus", "three", "klop"])
        out[i] = Action("pass", a.seat) if code == "pass" else Action("bid", a.seat, contract=code)
    elif r < 0.85:
        out.insert(i, a)
    else:
        del out[i]
    return out


@pytest.mark.parametrize(("ruleset", "n"), CASES)
def test_a_changed_bidding_is_taken_only_when_clean(ruleset: str, n: int) -> None:
    """The bidding changed (out of turn, after a pass, too low, klop or three bid, unknown,
    not at this table, twice, dropped): the fast path takes only hands the reference finds
    clean, with its result (``_differential``); the reference flags most of them."""
    flagged = 0
    for seed in range(300):
        rng = random.Random(7000 + seed)
        h0, actions = _random_game(seed + 9000, n, ruleset, [0] * n)
        bad = _mutate_bidding(rng, h0, actions)
        _taken, clean = _differential(ruleset, n, h0.dealer, h0.dealt, h0.talon, bad, [0] * n)
        flagged += not clean
    assert flagged >= 100


def _mutate_exchange(rng: random.Random, h0: Any, actions: list[Action]) -> list[Action] | None:
    """One change in the king call, talon or discards: a wrong or non-king call, a talon group
    out of range or taken by another seat, a king / trula card / unshown tarok / card not held /
    duplicate laid away, too many cards, or the action doubled or dropped."""
    idx = [i for i, a in enumerate(actions) if a.type in ("call", "talon", "discard")]
    if not idx:
        return None
    i = rng.choice(idx)
    a = actions[i]
    out = list(actions)
    r = rng.random()
    other = rng.choice([s for s in range(h0.table_size) if s != a.seat])
    if r < 0.15:
        out[i] = dataclasses.replace(a, seat=other)
    elif r < 0.25:
        out.insert(i, a)
    elif r < 0.3:
        del out[i]
    elif a.type == "call":
        out[i] = Action("call", a.seat, card=rng.choice(["T5", "H1", "HK", "SK", "DK", "CK"]))
    elif a.type == "talon":
        out[i] = Action("talon", a.seat, group=rng.choice([-1, 0, 1, 2, 3, 5, 9, None]))
    else:
        bad = rng.choice(["HK", "T1", "T21", "SKIS", "T15", "C7", *a.cards, *sorted(CARDS)])
        cards = rng.choice([(bad, *a.cards[1:]), (*a.cards, bad), (a.cards[0], a.cards[0])])
        shown = a.shown if rng.random() < 0.7 else ()
        out[i] = Action("discard", a.seat, cards=cards, shown=shown)
    return out


@pytest.mark.parametrize(("ruleset", "n"), CASES)
def test_a_changed_exchange_is_taken_only_when_clean(ruleset: str, n: int) -> None:
    """The king call, talon or discards changed (a wrong or non-king call, a talon group out of
    range or by another seat, a king, trula card, unshown tarok, card not held or duplicate
    laid away, too many cards, the action doubled or dropped): the fast path takes only hands
    the reference finds clean, with its result; the reference flags most of them."""
    changed = flagged = 0
    for seed in range(400):
        rng = random.Random(11000 + seed)
        h0, actions = _random_game(seed + 13000, n, ruleset, [0] * n)
        bad = _mutate_exchange(rng, h0, actions)
        if bad is None:
            continue
        changed += 1
        _taken, clean = _differential(ruleset, n, h0.dealer, h0.dealt, h0.talon, bad, [0] * n)
        flagged += not clean
    assert changed >= 100 and flagged >= 0.5 * changed


def _mutate_announcements(rng: random.Random, h0: Any, actions: list[Action]) -> list[Action]:
    """One change in the announcement round or just before it: a pass by another seat (out of
    order, before the declarer's ležim), a pass doubled or dropped, a stray ležim, announcement
    or kontra, or a pass inserted before the king call / talon / discards."""
    first = next(i for i, a in enumerate(actions) if a.type == "play")
    idx = [
        i
        for i, a in enumerate(actions[:first])
        if a.type in ("pass", "announce", "kontra", "lezim", "discard", "talon", "call")
    ]
    i = rng.choice(idx) if idx else first
    a = actions[i]
    out = list(actions)
    r = rng.random()
    seat = rng.randrange(h0.table_size)
    if r < 0.3:
        out[i] = Action("pass", seat) if a.type == "pass" else out[i]
        if a.type != "pass":
            out.insert(i, Action("pass", seat))
    elif r < 0.45:
        out.insert(i, a)
    elif r < 0.55:
        del out[i]
    elif r < 0.63:
        out.insert(i, Action("lezim", seat))  # by anyone, maybe twice, maybe too early
    elif r < 0.8:
        out.insert(
            i,
            Action(
                "announce",
                seat,
                bonus=rng.choice(["trula", "kralji", "valat", "pagat_ultimo", "bogus"]),
            ),
        )
    else:
        out.insert(
            i,
            Action(
                "kontra",
                seat,
                target=rng.choice(["game", "trula", None]),
                level=rng.choice([1, 2, 3]),
            ),
        )
    return out


@pytest.mark.parametrize(("ruleset", "n"), CASES)
def test_a_changed_announcement_round_is_taken_only_when_clean(ruleset: str, n: int) -> None:
    """Out-of-order passes, stray ležim, announcements and kontras in or before the
    announcement round: the fast path takes only hands the reference finds clean, with its
    result; the unchanged games are taken (with the native core, at tables of 3 and 4)."""
    flagged = plain = plain_clean = plain_taken = 0
    for seed in range(300):
        rng = random.Random(17000 + seed)
        h0, actions = _random_game(seed + 19000, n, ruleset, [0] * n)
        if seed % 3:
            actions = _mutate_announcements(rng, h0, actions)
        taken, clean = _differential(ruleset, n, h0.dealer, h0.dealt, h0.talon, actions, [0] * n)
        if seed % 3 == 0:
            plain += 1
            plain_clean += clean
            plain_taken += taken
        else:
            flagged += not clean
    assert flagged >= 100 and plain_clean >= 0.8 * plain
    _coverage(plain_taken, plain_clean, n, 0.9)
