"""Trust in the solver: differential tests against exhaustive minimax and between the two
solvers, and the invariants of a principal line.

* the pure-Python solver against an exhaustive minimax **over the engine itself** (every
  legal card by ``legal_actions()``, every finished hand scored by ``score()``: legality and
  scoring are the engine's, not the solver's) on random endgames of 1 to 3 tricks of every
  contract at tables of 3, 4 and 5;
* the native solver against the native exhaustive minimax without pruning, table or card
  equivalence on thousands of random endgames of up to 4 tricks;
* native against pure Python on up to 7 tricks;
* the solver's legal cards equal the engine's ``legal_actions()`` in every position reached;
* invariants: the best value bounds every card's value, the engine's score of a principal
  line equals the solver's value, and the value does not change along the line.
"""

from __future__ import annotations

from random import Random

import pytest

from tarock_logs import _native
from tarock_logs.analysis.cardset import CARD, CID, legal
from tarock_logs.analysis.hand import analyse_replay
from tarock_logs.analysis.native import NativeSolver, rules_tuple
from tarock_logs.analysis.outcome import line_value
from tarock_logs.analysis.position import Position, read_position
from tarock_logs.analysis.search import PySolver
from tarock_logs.log.models import SessionAdapter
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.tools.simulate import simulate_hands
from tarock_logs.verdict.replay import replay_session
from tests.analysis.support import (
    CONTRACTS_3,
    CONTRACTS_4,
    endgame,
    endgame_positions,
    engine_card_values,
)

NORMAL_CONTRACTS = ("three", "two", "one", "solo_three", "solo_two", "solo_one")

native = pytest.mark.skipif(not _native.available(), reason=f"native core: {_native.why_not}")


def _positions(seed: int, count: int, tricks: tuple[int, ...],
               tables: tuple[int, ...] = (3, 4, 4, 5)) -> list[SlovenianHand]:  # fmt: skip
    """``count`` random endgames, every contract in turn (and announced barvni valat)."""
    rng = Random(seed)
    out: list[SlovenianHand] = []
    i = 0
    while len(out) < count:
        table = tables[i % len(tables)]
        cs = CONTRACTS_3 if table == 3 else CONTRACTS_4
        extra = () if table == 3 else ("solo_brez+bv",)
        pick = (*cs, *extra)[i % (len(cs) + len(extra))]
        i += 1
        kw: dict[str, object] = {"p_announce": 0.5, "p_kontra": 0.3}
        contract = pick
        if pick.endswith("+bv"):
            contract, kw["announce"] = pick[:-3], "barvni_valat"
        h = endgame(rng, table, contract, rng.choice(tricks), **kw)  # type: ignore[arg-type]
        if h is not None:
            out.append(h)
    return out


def _solver_values(h: SlovenianHand, solver_cls: type) -> dict[str, int]:
    pos, setting = read_position(h)
    return {CARD[c]: v for c, v in solver_cls(setting).values(pos).items()}


def test_python_solver_equals_engine_minimax_on_endgames() -> None:
    """Every contract type, tables of 3, 4 and 5, announcements and kontras at random."""
    hands = _positions(11, 500, (1, 2, 2))
    contracts = set()
    for h in hands:
        contracts.add(h.contract if "barvni_valat" not in h.ann else "barvni_valat announced")
        assert _solver_values(h, PySolver) == engine_card_values(h), (h.contract, h.view())
    assert len(contracts) == 13


def test_python_solver_equals_engine_minimax_on_three_tricks() -> None:
    for h in _positions(12, 60, (3,), tables=(3, 4)):
        assert _solver_values(h, PySolver) == engine_card_values(h), (h.contract, h.view())


@native
def test_native_solver_equals_exhaustive_minimax_up_to_four_tricks() -> None:
    """Thousands of endgames of 1-4 tricks against a minimax without pruning, table or
    equivalence (the native ``minimax``; its legality and leaf are the ones pinned against
    the engine above)."""
    rng = Random(13)
    positions = []
    i = 0
    while len(positions) < 2000:
        table = (3, 4, 4, 5)[i % 4]
        cs = CONTRACTS_3 if table == 3 else CONTRACTS_4
        positions += endgame_positions(rng, table, cs[i % len(cs)], 4, every=2,
                                       p_announce=0.5, p_kontra=0.3)  # fmt: skip
        i += 1
    kinds = {setting.objective.kind for _, setting in positions}
    assert kinds == {"normal", "klop", "no_trick", "all_tricks"}
    for pos, setting in positions:
        fast = NativeSolver(setting, tt_bits=12).values(pos)
        mm = NativeSolver(setting, tt_bits=4)
        py = PySolver(setting)
        for card, v in fast.items():
            after = py._after(pos, card)
            want = py.value(pos, card) if after is None else mm.minimax(after)
            assert v == want, (CARD[card], pos, setting)


@native
def test_native_equals_python_up_to_seven_tricks() -> None:
    hands = _positions(14, 16, (4, 5)) + _positions(15, 2, (6, 7), tables=(4,))
    for h in hands:
        assert _solver_values(h, NativeSolver) == _solver_values(h, PySolver), h.contract


@native
@pytest.mark.slow
def test_native_equals_python_on_many_seven_trick_endgames() -> None:
    for h in _positions(18, 30, (6, 7), tables=(3, 4)):
        assert _solver_values(h, NativeSolver) == _solver_values(h, PySolver), h.contract


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=native)])
def test_legal_cards_equal_the_engines_in_every_position(backend: str) -> None:
    for h in _positions(16, 300, (1, 2, 3, 6, 9, 12)):
        pos, setting = read_position(h)
        engine = {a.card for a in h.legal_actions()}
        mask = legal(pos.hands[pos.to_move], pos.trick, setting.rules)
        assert {CARD[c] for c in range(54) if mask >> c & 1} == engine
        if backend == "native":
            assert _native.core is not None
            nat = _native.core.legal(pos.hands[pos.to_move], pos.trick, rules_tuple(setting))
            assert nat == sum(1 << CID[c] for c in engine)


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=native)])
def test_principal_lines_are_consistent(backend: str) -> None:
    """The best value bounds every card; the engine scores each card's line at the solver's
    value; every position along the best line keeps the root's value."""
    cls = NativeSolver if backend == "native" else PySolver
    count, tricks = (60, (2, 3, 4)) if backend == "native" else (25, (1, 2, 3))
    for h in _positions(17, count, tricks):
        pos, setting = read_position(h)
        solver = cls(setting)
        vals = solver.values(pos)
        mx = setting.objective.maxside[pos.to_move]
        best = max(vals.values()) if mx else min(vals.values())
        persp = h.to_move() if h.contract == "klop" else None
        for card, v in vals.items():
            assert (best >= v) if mx else (best <= v)
            assert line_value(h, solver.line(pos, card), persp) == v
        best_card = next(c for c, v in vals.items() if v == best)
        line = solver.line(pos, best_card)
        walker = PySolver(setting)
        cur = pos
        for card in line[:-1]:
            nxt = walker._after(cur, card)
            assert nxt is not None
            assert solver.value(nxt) == best
            cur = nxt


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=native)])
def test_a_spent_budget_raises_and_leaves_the_table_valid(backend: str) -> None:
    cls = NativeSolver if backend == "native" else PySolver
    for h in _positions(19, 6, (3, 4), tables=(4,)):
        pos, setting = read_position(h)
        want = PySolver(setting).values(pos)
        solver = cls(setting)
        solver.budget = 5
        with pytest.raises(TimeoutError):
            solver.values(pos)
        solver.budget = 0
        assert solver.values(pos) == want


@native
def test_one_table_kept_across_the_positions_of_a_hand_gives_a_fresh_solvers_values() -> None:
    """The hand analysis keeps one solver (and its transposition table) for every position of
    a hand: entries keyed by the relative ranks of the cards in play and, in normal contracts,
    bounds carried over to other card points of the declarer side must give every position the
    values a fresh solver finds."""
    rng = Random(19)
    hands = 0
    for i in range(24):
        table = (4, 4, 3)[i % 3]
        cs = CONTRACTS_3 if table == 3 else CONTRACTS_4
        positions = endgame_positions(rng, table, cs[i % len(cs)], 6, every=1,
                                      p_announce=0.5, p_kontra=0.3)  # fmt: skip
        if not positions:
            continue
        hands += 1
        kept: dict[str, NativeSolver] = {}  # one per setting (klop: per perspective)
        for pos, setting in positions:
            solver = kept.get(repr(setting))
            if solver is None:
                solver = kept[repr(setting)] = NativeSolver(setting, tt_bits=14)
            assert solver.values(pos) == NativeSolver(setting, tt_bits=14).values(pos), setting
    assert hands >= 16


@pytest.mark.parametrize("backend", ["python", pytest.param("native", marks=native)])
def test_a_hand_analysed_last_card_first_gives_every_card_a_fresh_solvers_values(
    backend: str,
) -> None:
    """``analyse_replay`` values a hand's cards from the last to the first with one solver
    (its table, its first guesses carried from card to card): every card's values equal a
    fresh solver's for that position, and the cards come out in playing order."""
    tricks = 3 if backend == "python" else 5
    checked = 0
    for doc in simulate_hands(4, 23, table_size=4):
        session = SessionAdapter.validate_python(doc)
        for hand, replay in zip(session.hands, replay_session(session), strict=True):
            ha = analyse_replay(replay, session.id, hand, last_tricks=tricks, lines=False,
                                backend=backend)  # type: ignore[arg-type]  # fmt: skip
            if ha.skipped or not ha.cards:
                continue
            assert [c.action_index for c in ha.cards] == sorted(c.action_index
                                                                for c in ha.cards)  # fmt: skip
            h = replay.state.copy()
            for _ in range(replay.actions_applied):
                h.pop()
            by_index = {c.action_index: c for c in ha.cards}
            for i, step in enumerate(replay.steps[1:]):
                if step.action is None:
                    continue
                if i in by_index:
                    assert isinstance(h, SlovenianHand)
                    persp = h.active.index(h.to_move()) if h.contract == "klop" else None
                    pos, setting = read_position(h, persp)
                    cls = NativeSolver if backend == "native" else PySolver
                    fresh = {CARD[c]: v for c, v in cls(setting).values(pos).items()}
                    assert dict(by_index[i].values) == fresh, (hand.number, i)
                    checked += 1
                h.push(step.action)
    assert checked >= 20


@native
def test_every_final_value_lies_on_the_solvers_value_lattice() -> None:
    """MTD(f) tests only the points ``offset + step * z`` of the objective's value lattice (the
    gcd of its components' steps; radelc doubles them all): every leaf value, random facts of
    every contract with kontras and radelci (``leaf`` is the finished play of normal and klop
    contracts; no_trick and all_tricks end at +-value), and every exhaustive minimax value lie
    on it."""
    rng = Random(21)
    steps: set[tuple[str, int, int]] = set()
    for i in range(48):
        table = (3, 4, 4, 5)[i % 4]
        cs = CONTRACTS_3 if table == 3 else CONTRACTS_4
        positions = endgame_positions(rng, table, cs[i % len(cs)], 2, every=3,
                                      p_announce=0.5, p_kontra=0.3)  # fmt: skip
        for pos, setting in positions:
            solver = NativeSolver(setting, tt_bits=8)
            step, off = solver._s.lattice
            ob = setting.objective
            steps.add((ob.kind, ob.radelc, step))
            if ob.kind == "normal":
                assert step % ob.radelc == 0
            for _ in range(40 if ob.kind in ("normal", "klop") else 0):  # no_trick: +-value
                if ob.kind == "klop":
                    acc = (*(rng.randrange(0, 150) for _ in range(4)),
                           *(rng.randrange(2) for _ in range(4)), 0)  # fmt: skip
                else:
                    acc = (rng.randrange(0, 211), *(rng.randrange(2) for _ in range(7)),
                           rng.randrange(3))  # fmt: skip
                last = (rng.randrange(3), rng.randrange(3), rng.randrange(2), rng.randrange(2))
                assert (solver.leaf(acc, last) - off) % step == 0, (ob, acc, last)
            assert (solver.minimax(pos) - off) % step == 0, (pos, setting)
    assert {kind for kind, _, _ in steps} == {"normal", "klop", "no_trick", "all_tricks"}
    assert any(kind == "normal" and step > 1 for kind, _, step in steps)


@native
def test_the_value_does_not_depend_on_the_first_guess() -> None:
    """MTD(f) gallops from its first guess, then bisects on the value lattice: from a far or
    an off-lattice guess, above or below, every card gets the exhaustive minimax value."""
    rng = Random(22)
    checked = 0
    for i in range(40):
        table = (3, 4, 4, 5)[i % 4]
        cs = CONTRACTS_3 if table == 3 else CONTRACTS_4
        for pos, setting in endgame_positions(rng, table, cs[i % len(cs)], 3, every=3,
                                              p_announce=0.5, p_kontra=0.3):  # fmt: skip
            mm = NativeSolver(setting, tt_bits=4)
            py = PySolver(setting)
            for card in NativeSolver(setting, tt_bits=8).values(pos):
                after = py._after(pos, card)
                want = py.value(pos, card) if after is None else mm.minimax(after)
                for guess in (-777, -31, 0, 1, 7, 250, 999):
                    got = NativeSolver(setting, tt_bits=10)._s.value(
                        pos.hands, pos.trick, pos.leader, pos.tricks_done, pos.acc, card, guess
                    )
                    assert got == want, (CARD[card], guess, pos, setting)
                checked += 1
    assert checked > 100


@native
def test_table_bounds_carried_to_other_card_points_and_decided_facts_are_exact() -> None:
    """In normal contracts the native table shares an entry between positions that differ
    only in the declarer side's card points (a bound moved by the game value's slope in the
    points) or in facts no remaining card can change (the trula's, the kings', the mond's;
    their constant taken out): one solver kept across such variants of the same cards (points
    around the win threshold, every fact flipped) gives each variant the exhaustive minimax
    value, and every card a fresh solver's value."""
    rng = Random(41)
    checked = 0
    for i in range(60):
        table = (4, 4, 3)[i % 3]
        cs = CONTRACTS_3 if table == 3 else CONTRACTS_4
        normal = [c for c in cs if c in NORMAL_CONTRACTS]
        positions = endgame_positions(rng, table, normal[i % len(normal)], 3, every=3,
                                      p_announce=0.5, p_kontra=0.3)  # fmt: skip
        for pos, setting in positions[:2]:
            kept = NativeSolver(setting, tt_bits=12)
            for _ in range(10):
                acc = list(pos.acc)
                points = (acc[0], acc[0] + rng.randint(-9, 9), rng.randint(90, 120),
                          rng.randint(0, 200))  # fmt: skip
                acc[0] = max(0, rng.choice(points))
                for f in (1, 2, 4, 5, 6, 7):
                    if rng.random() < 0.3:
                        acc[f] = 1 - acc[f]
                if rng.random() < 0.4:  # a side with no trick yet: valat lines open
                    acc[rng.choice((1, 2))] = 0
                if rng.random() < 0.3:
                    acc[8] = rng.randint(0, 2)
                variant = Position(pos.hands, pos.trick, pos.leader, pos.tricks_done,
                                   tuple(acc))  # fmt: skip
                assert kept.value(variant) == NativeSolver(setting, tt_bits=12).minimax(
                    variant), (setting, acc)  # fmt: skip
                assert kept.values(variant) == NativeSolver(setting, tt_bits=12).values(variant)
                checked += 1
    assert checked >= 600
