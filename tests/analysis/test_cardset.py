"""The solver's card rules: the pure-Python solver calls the engine's own rules
(:mod:`tarock_logs.analysis.cardset` is a thin caller of ``PlayRules`` and ``winner_index``), and
the native primitives (``_native/cards.h``, the native solver's move generation) agree with
them."""

from __future__ import annotations

from random import Random

import pytest

from tarock_logs import _native
from tarock_logs.analysis import cardset as cs
from tarock_logs.analysis.cardset import CARD, STR, SUIT_OF
from tarock_logs.analysis.native import rules_tuple
from tarock_logs.analysis.objective import Objective
from tarock_logs.analysis.position import Setting
from tarock_logs.rules.slovenian import tricks
from tarock_logs.rules.slovenian.fast import cardbits
from tarock_logs.rules.slovenian.tricks import POINTS, PlayRules, thirds, winner_index

native = pytest.mark.skipif(not _native.available(), reason=f"native core: {_native.why_not}")

#: every combination of the engine's rule switches that occurs (negative games with their
#: options, positive games, colour valat, protected cards)
RULE_CASES = [
    {"negative": n, "pagat_restricted": pr, "pagat_last_tarok": plt, "by_rank": br,
     "emperor_always": ea, "colour_valat": cv, "protect_either": pe}
    for n in (False, True) for pr in ((False, True) if n else (False,))
    for plt in (False, True) for br in (False, True) for ea in (False, True)
    for cv in ((False,) if n else (False, True)) for pe in ((True,) if n else (False, True))
]  # fmt: skip


def _random_situation(rng: Random) -> tuple[list[str], list[str]]:
    deck = list(CARD)
    rng.shuffle(deck)
    k = rng.randrange(0, 4)
    trick = deck[:k]
    hand = deck[k : k + rng.randint(1, 12)]
    return hand, trick


def test_card_ids_are_the_fast_paths() -> None:
    """One numbering of the cards for every bitmask user (the solver, the bulk audit)."""
    assert cardbits.CARD == CARD
    assert cs.thirds(cs.mask_of(CARD)) == 210
    assert [SUIT_OF[i] for i in range(54)] == [0] * 22 + [s for s in range(1, 5) for _ in range(8)]


@native
def test_native_tables_are_the_engines() -> None:
    core = _native.core
    assert core is not None
    assert core.tables() == tuple((SUIT_OF[i], STR[i], POINTS[c]) for i, c in enumerate(CARD))


def test_thirds_of_random_piles_match_the_engine() -> None:
    rng = Random(1)
    for _ in range(2000):
        pile = rng.sample(CARD, rng.randrange(55))
        assert cs.thirds(cs.mask_of(pile)) == thirds(pile)
        if _native.core is not None:
            assert _native.core.thirds(cs.mask_of(pile)) == thirds(pile)


@pytest.mark.parametrize("colour_valat", [False, True])
def test_trick_winner_matches_the_engine(colour_valat: bool) -> None:
    rng = Random(2)
    deck = list(CARD)
    for _ in range(3000):
        trick = rng.sample(deck, rng.choice((3, 4)))
        if rng.random() < 0.2:  # the emperor's trick in any order
            trick = rng.sample(["T1", "T21", "T22", rng.choice(deck[22:])], 4)
        want = winner_index(trick, colour_valat)
        ids = cs.ids_of(trick)
        assert cs.winner(ids, colour_valat) == want
        if _native.core is not None:
            assert _native.core.winner(ids, colour_valat) == want


@pytest.mark.parametrize("case", range(len(RULE_CASES)))
def test_legal_cards_match_play_rules(case: int) -> None:
    """Every switch of spec 8.3-8.4 (overtake by outcome or rank, the pagat restriction and
    its last-tarok option, emperor forcing, colour valat, protected ultimo cards and what
    happens when only they are left): the native move generation equals ``PlayRules``."""
    opts = RULE_CASES[case]
    pr = PlayRules(**opts)
    rng = Random(100 + case)
    for _ in range(800):
        hand, trick = _random_situation(rng)
        prot: tuple[str, ...] = ()
        if rng.random() < 0.15:  # the trula situations of L14-L17
            hand = ["T1", *rng.sample(CARD[1:20], 2), *rng.sample(CARD[22:], 2)]
            trick = rng.choice((["T22", "T21"], ["T21", "T1"], ["H4", "T22", "T21"], ["T21"]))
        elif not opts["negative"] and rng.random() < 0.1:
            # both announced ultimo cards are the last two (8.4c: either, or the pagat kept)
            king = rng.choice(["HK", "DK", "SK", "CK"])
            hand, trick, prot = ["T1", king], [], ("T1", king)
        elif not opts["negative"] and rng.random() < 0.3:
            prot = tuple(rng.sample(["T1", rng.choice(["HK", "DK", "SK", "CK"])],
                                    rng.choice((1, 2))))  # fmt: skip
            prot = tuple(sorted(prot, key=lambda c: c != "T1"))
        want, _ = pr.legal(set(hand), list(trick), prot)
        rules = cs.CardRules(**opts, protected=tuple(cs.CID[c] for c in prot))
        got = cs.legal(cs.mask_of(hand), cs.ids_of(trick), rules)
        assert got == cs.mask_of(want), (opts, hand, trick, prot)
        if _native.core is not None:
            setting = Setting((0, 1, 2, 3), rules, Objective("normal", (True,) * 4, 12))
            nat = _native.core.legal(cs.mask_of(hand), cs.ids_of(trick), rules_tuple(setting))
            assert nat == got, (opts, hand, trick, prot)


def test_the_python_solver_asks_the_engines_play_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """One home for the legal-card rule on the Python side: the solver's ``legal`` is the
    engine's ``PlayRules.legal`` (no copy of spec 8.3-8.4 in the analysis), and its trick
    winner the engine's ``winner_index``."""
    calls: list[list[str]] = []
    real = PlayRules.legal

    def spy(self: PlayRules, hand: set[str], trick: list[str],
            protected: tuple[str, ...] = ()) -> tuple[list[str], str]:  # fmt: skip
        calls.append(trick)
        return real(self, hand, trick, protected)

    monkeypatch.setattr(PlayRules, "legal", spy)
    rules = cs.CardRules(True, True, False, False, False, False)
    got = cs.legal(cs.mask_of(["T5", "T9", "H3"]), cs.ids_of(["T7"]), rules)
    assert calls == [["T7"]]
    assert got == cs.mask_of(["T9"])  # klop: overtake when you can (spec 8.3)
    assert not hasattr(cs, "_overtake_rank")
    monkeypatch.setattr(tricks, "winner_index", lambda cards, cv=False: 2)
    assert cs.winner(cs.ids_of(["H3", "HK", "H4"]), False) == 2
