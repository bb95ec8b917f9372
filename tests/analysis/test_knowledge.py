"""What the player knew: the view of a player, the sampler of consistent layouts, and the
player-view values (issue 34, items 2 and 5).

The trust tests: every sample is consistent with the view (sizes, allowed places, the player's
own and the played cards never dealt again, earlier cards legal again), the true layout always
is one of them, the sampler is uniform over the consistent layouts (counted by brute force on
small endgames, a chi-square test on the draws), the true layout as the only sample gives the
all-cards-visible values, and a seed gives the same samples and values.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from tarock_logs.analysis.cardset import CARD
from tarock_logs.analysis.knowledge import Sampler, View, view_of
from tarock_logs.analysis.native import make_solver
from tarock_logs.analysis.player import LABEL_PLAYER, iter_player_analyses, sample_values
from tarock_logs.analysis.position import read_position
from tarock_logs.log.reader import read_sessions
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.rules.slovenian.tricks import SUIT
from tests.analysis.support import CONTRACTS_3, CONTRACTS_4, endgame

DISPUTED = Path(__file__).resolve().parents[2] / "sample_logs" / "disputed"
SESSION_A = "sim-slovenian-2027-r1-A"


def _hands(seed: int, tricks_left: int, count: int) -> Iterator[SlovenianHand]:
    """Random endgames of every contract at tables of 3, 4 and 5, ``count`` per contract."""
    rng = random.Random(seed)
    for table, contracts in ((4, CONTRACTS_4), (3, CONTRACTS_3), (5, CONTRACTS_4)):
        for contract in contracts:
            got = 0
            for _ in range(60):
                h = endgame(rng, table, contract, tricks_left)
                if h is not None:
                    yield h
                    got += 1
                    if got == count:
                        break


def _seen(h: SlovenianHand, seat: int) -> set[str]:
    """Cards whose place ``seat`` saw: his hand and every card played."""
    played = {c for t in h.tricks for _, c in t.cards} | {c for _, c in h.trick}
    return set(h.hands[seat]) | played


def _check_sample(h: SlovenianHand, v: View, layout: tuple[tuple[str, ...], ...]) -> None:
    assert v.fits(layout)
    assert [len(x) for x in layout] == list(v.sizes)
    dealt = [c for x in layout for c in x]
    assert sorted(dealt) == sorted(v.hidden) and len(set(dealt)) == len(dealt)
    assert not set(dealt) & _seen(h, v.seat)
    # a seat that failed to follow a suit is dealt none of it
    for t in [*(t.cards for t in h.tricks), tuple(h.trick)]:
        if not t:
            continue
        led = SUIT[t[0][1]]
        for s, c in t[1:]:
            name = f"seat {s}"
            if SUIT[c] != led and name in v.holders:
                assert all(SUIT[x] != led for x in layout[v.holder_index(name)])


def test_every_sample_is_consistent_with_the_view_and_the_truth_is_one_of_them() -> None:
    n = 0
    for h in _hands(34, 4, 2):
        seat = h.to_move()
        assert seat is not None
        v = view_of(h, seat)
        assert v.fits(v.truth), (h.contract, v.notes)
        assert v.notes == ()  # random legal play: every restriction holds
        s = Sampler(v)
        assert s.count() >= 1
        for layout in s.samples(4, seed=n):
            _check_sample(h, v, layout)
        n += 1
    assert n >= 40


def test_the_view_of_the_recorded_hands_fits_their_cards_at_every_card() -> None:
    """Every card of the disputed sample (illegal cards included): the true layout is
    consistent with the player's view, and the samples are."""
    checked = illegal_seen = 0
    for session in read_sessions([DISPUTED])[:2]:
        for h, seat, illegal in iter_player_views(session):
            v = view_of(h, seat, illegal)
            assert v.fits(v.truth)
            for layout in Sampler(v).samples(2, seed=checked):
                assert v.fits(layout)
            checked += 1
            illegal_seen += bool(illegal)
    assert checked > 100 and illegal_seen > 0


def iter_player_views(session: object) -> Iterator[tuple[SlovenianHand, int, list[str]]]:
    """Every card-play moment of a session's Slovenian hands: (engine, seat to move, the
    illegal cards so far)."""
    from tarock_logs.verdict.replay import replay_session

    for replay in replay_session(session):  # type: ignore[arg-type]
        state = replay.state
        if not isinstance(state, SlovenianHand):
            continue
        h = state.copy()
        for _ in range(replay.actions_applied):
            h.pop()
        illegal: list[str] = []
        for step in replay.steps[1:]:
            a = step.action
            if a is None:
                continue
            if a.type == "play" and h.phase == "play" and a.seat == h.to_move():
                if a.card in h.hands[a.seat]:
                    yield h, a.seat, list(illegal)
                if not any(x.card == a.card for x in h.legal_actions()):
                    illegal.append(str(a.card))
            h.push(a)


def _all_layouts(v: View) -> Iterator[tuple[tuple[str, ...], ...]]:
    """Brute force: every way to deal the hidden cards into the holders' sizes."""

    def deal(cards: list[str], k: int) -> Iterator[list[tuple[str, ...]]]:
        if k == len(v.sizes):
            if not cards:
                yield []
            return
        for pick in itertools.combinations(cards, v.sizes[k]):
            rest = [c for c in cards if c not in pick]
            for tail in deal(rest, k + 1):
                yield [pick, *tail]

    for layout in deal(list(v.hidden), 0):
        yield tuple(tuple(x) for x in layout)


def _allowed_only(v: View, layout: tuple[tuple[str, ...], ...]) -> bool:
    where = {c: k for k, x in enumerate(layout) for c in x}
    return all(a >> where[c] & 1 for c, a in zip(v.hidden, v.allowed, strict=True))


def _chi2_critical(dof: int, z: float = 3.719) -> float:
    """The chi-square quantile of ``dof`` degrees at the normal quantile ``z`` (3.719: one in
    10,000), by Wilson and Hilferty's approximation."""
    a = 2 / (9 * dof)
    return float(dof * (1 - a + z * math.sqrt(a)) ** 3)


def test_the_sampler_counts_and_draws_uniformly_over_the_consistent_layouts() -> None:
    """On small endgames the layouts are counted by brute force: the sampler's count equals
    the layouts within the allowed places, every draw is one of the consistent layouts, and
    the draws' counts pass a chi-square test of uniformity."""
    cases = 0
    for h in _hands(7, 2, 1):
        seat = h.to_move()
        assert seat is not None
        v = view_of(h, seat)
        every = list(_all_layouts(v))
        if len(every) > 4_000:
            continue
        allowed = [x for x in every if _allowed_only(v, x)]
        consistent = {x for x in allowed if v.fits(x)}
        s = Sampler(v)
        assert s.count() == len(allowed)
        assert v.truth in consistent
        if not 3 <= len(consistent) <= 150:
            continue
        per = 20
        draws = Counter(s.samples(per * len(consistent), seed=cases))
        assert set(draws) <= consistent
        expected = per
        chi2 = sum((draws.get(x, 0) - expected) ** 2 / expected for x in consistent)
        assert chi2 < _chi2_critical(len(consistent) - 1), (h.contract, len(consistent), chi2)
        cases += 1
        if cases == 8:
            break
    assert cases >= 5


def test_a_restriction_the_truth_breaks_is_not_used() -> None:
    """A king among the declarer's discards (an illegal discard): the view drops the
    restriction "no king is laid away" and says so, and the true layout stays consistent;
    with legal discards the restriction holds in every sample."""
    rng = random.Random(5)
    for _ in range(200):
        h = endgame(rng, 4, "three", 6)
        if h is None:
            continue
        seat = h.to_move()
        assert seat is not None
        if seat == h.declarer:
            continue
        v = view_of(h, seat)
        assert "discards" in v.holders and v.notes == ()
        d = v.holder_index("discards")
        for layout in Sampler(v).samples(10, seed=1):
            assert not any(c[1:] == "K" or c in ("T1", "T21", "T22") for c in layout[d])
        other = next(s for s in h.active if s not in (seat, h.declarer))
        king = next((c for c in h.hands[other] if c[1:] == "K"), None)
        laid = next((c for c in h.discards if c not in h.shown), None)
        if king is None or laid is None:
            continue
        h.hands[other] = (h.hands[other] - {king}) | {laid}
        h.discards = tuple(king if c == laid else c for c in h.discards)
        v = view_of(h, seat)
        assert any("never laid away" in n for n in v.notes)
        assert v.fits(v.truth)
        return
    pytest.fail("no hand found")


def test_the_called_kings_holder_becomes_the_partner_of_each_layout() -> None:
    rng = random.Random(11)
    done = 0
    for _ in range(200):
        h = endgame(rng, 4, "three", 5)
        if h is None or h.king_in_talon or h.called_king is None:
            continue
        seat = h.to_move()
        assert seat is not None
        v = view_of(h, seat)
        if h.called_king not in v.hidden:
            continue
        for layout in Sampler(v).samples(6, seed=done):
            hc = v.deal(layout)
            assert isinstance(hc, SlovenianHand)
            holder = next(s for s in hc.active if h.called_king in hc.hands[s])
            assert hc.side(holder) == "M"
            assert hc.self_call == (holder == h.declarer)
            assert sum(hc.side(s) == "M" for s in hc.active) == (1 if hc.self_call else 2)
        done += 1
        if done == 5:
            return
    pytest.fail("too few hands with a hidden called king")


def test_the_true_layout_alone_gives_the_all_cards_visible_values() -> None:
    """The player-view values with the true layout as the only sample equal the values of
    the solver that sees every hand, in positions of every contract."""
    n = 0
    for h in _hands(21, 3, 1):
        seat = h.to_move()
        assert seat is not None
        v = view_of(h, seat)
        got, _ = sample_values(h, [v.truth], seat)
        persp = h.active.index(seat) if h.contract == "klop" else None
        pos, setting = read_position(h, persp)
        want = make_solver(setting).values(pos)
        assert got == {CARD[c]: [x] for c, x in want.items()}, h.contract
        n += 1
    assert n >= 25


def test_the_same_seed_gives_the_same_samples_and_values() -> None:
    (session,) = [s for s in read_sessions([DISPUTED]) if s.id == SESSION_A]
    a = [x.to_dict() for x in iter_player_analyses(session, hands={1}, last_tricks=2,
                                                   samples=5, seed=9)]  # fmt: skip
    b = [x.to_dict() for x in iter_player_analyses(session, hands={1}, last_tricks=2,
                                                   samples=5, seed=9)]  # fmt: skip
    for d in (*a, *b):
        d.pop("seconds")
    assert a == b
    (hand,) = a
    assert hand["label"] == LABEL_PLAYER and hand["samples"] == 5 and hand["seed"] == 9
    assert len(hand["cards"]) == 8
    for c in hand["cards"]:
        assert c["samples"] == 5 and c["seed"].startswith("9:")
        assert c["values"][c["card"]]["mean"] == c["value"]
        assert c["loss"] >= 0 and c["mistake"] == (c["loss"] >= hand["threshold"])
        for st in c["values"].values():
            assert st["min"] <= st["mean"] <= st["max"] and st["std"] >= 0
    rng_a = Sampler(_first_view()).samples(6, seed=3)
    assert rng_a == Sampler(_first_view()).samples(6, seed=3)
    assert rng_a != Sampler(_first_view()).samples(6, seed=4)


def _first_view() -> View:
    rng = random.Random(2)
    while True:
        h = endgame(rng, 4, "three", 6)
        if h is not None:
            seat = h.to_move()
            assert seat is not None
            return view_of(h, seat)


def test_without_the_extension_the_pure_python_solver_gives_the_same_sample_values() -> None:
    """The player view's samples solved by the pure-Python solver (a package built without a
    compiler) value every card as the native solver does."""
    from tarock_logs import _native

    if not _native.available():
        pytest.skip(f"native core: {_native.why_not}")
    n = 0
    for h in _hands(8, 2, 1):
        seat = h.to_move()
        assert seat is not None
        layouts = Sampler(view_of(h, seat)).samples(3, seed=n)
        native, used = sample_values(h, layouts, seat, backend="native")
        python, used_py = sample_values(h, layouts, seat, backend="python")
        assert (used, used_py) == ("native", "python")
        assert native == python, h.contract
        n += 1
    assert n >= 25


def test_where_one_layout_fits_the_view_the_player_view_is_the_all_cards_visible_one() -> None:
    """End to end on recorded hands: at every card where the player's view leaves a single
    layout (he saw everything that matters), each legal card's mean is its value with all
    cards visible, with no spread."""
    from tarock_logs.analysis.hand import iter_analyses

    (session,) = [s for s in read_sessions([DISPUTED]) if s.id == SESSION_A]
    hands = iter_analyses(session, last_tricks=2, lines=False)
    every = {(h.hand_number, c.action_index): c for h in hands for c in h.cards}
    single = 0
    for ph in iter_player_analyses(session, last_tricks=2, samples=3, seed=2):
        for pc in ph.cards:
            if pc.layouts != 1:
                continue
            ca = every[(ph.hand_number, pc.action_index)]
            assert {c: s.mean for c, s in pc.values} == dict(ca.values)
            assert all(s.std == 0 for _, s in pc.values)
            assert (pc.value, pc.loss) == (ca.value, ca.loss)
            single += 1
    assert single >= 4
