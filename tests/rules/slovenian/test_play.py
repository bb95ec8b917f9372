"""Trick play (spec section 8): legality cases L1–L20 under both profiles, trick winners (8.6)
and the openspiel cross-check legality cases O9–O10 (Appendix C)."""

from __future__ import annotations

import pytest

from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.contracts import Rules
from tarock_logs.rules.slovenian.hand import make_play_rules
from tarock_logs.rules.slovenian.tricks import winner_index

CONTRACT = {"tri": "three", "klop": "klop", "berač": "berac"}

# (id, contract, hand, trick, protected, tournament legal, openspiel legal)
CASES = [
    ("L1", "tri", "H4 HK T5 CK", "H1", "", "H4 HK", None),
    ("L2", "tri", "T5 T9 CK C7", "H1", "", "T5 T9", None),
    ("L3", "tri", "CK C7 S8", "H1", "", "CK C7 S8", None),
    ("L4", "tri", "T1 T9 H3", "T4", "", "T1 T9", None),
    ("L5", "tri", "T1 T9 H3", "T4", "T1", "T9", "T1 T9"),
    ("L6", "tri", "T1 H3", "T4", "T1", "T1", "T1"),
    ("L7", "klop", "H4 HK H2", "H1", "", "HK", None),
    ("L8", "klop", "H4 H3 H2", "H1", "", "H4 H3 H2", None),
    ("L9", "klop", "H4 HK", "H1 T3", "", "H4 HK", None),
    ("L10", "klop", "T1 T5 T12", "H1", "", "T5 T12", None),
    ("L11", "klop", "T1 T5 T12", "H1 T8", "", "T12", None),
    ("L12", "klop", "T1 T5 T6", "H1 T8", "", "T5 T6", None),
    ("L13", "klop", "T1 CK", "H1 T8", "", "T1", None),
    ("L14", "klop", "T1 T5 T20", "T22 T21", "", "T1", None),
    ("L15", "klop", "T1 H2 T20", "H4 T22 T21", "", "H2", "T1"),
    ("L16", "klop", "T1 T5 T22", "T21", "", "T22", None),
    ("L17", "klop", "T22 T5", "T21 T1", "", "T22 T5", "T22"),
    ("L18", "klop", "T1 T5 H2", "", "", "T5 H2", None),
    ("L19", "klop", "T1", "", "", "T1", None),
    ("L20", "berač", "CK C7 T3", "C8", "", "CK", None),
]


def legal(ruleset: str, contract: str, hand: str, trick: str, protected: str) -> set[str]:
    rules = Rules(ENGINE.ruleset(ruleset))
    pr = make_play_rules(rules, CONTRACT[contract])
    prot = tuple(protected.split()) if rules.protection else ()
    cards, _ = pr.legal(set(hand.split()), trick.split(), prot)
    return set(cards)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_legality_tournament(case):
    _, contract, hand, trick, prot, expected, _ = case
    assert legal("tournament", contract, hand, trick, prot) == set(expected.split())


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_legality_openspiel(case):
    _, contract, hand, trick, prot, expected, os_expected = case
    want = os_expected if os_expected is not None else expected
    assert legal("openspiel", contract, hand, trick, prot) == set(want.split())


def test_O9_emperor_forcing_differs_between_profiles():
    assert legal("tournament", "klop", "T1 H2 T20", "H4 T22 T21", "") == {"H2"}
    assert legal("openspiel", "klop", "T1 H2 T20", "H4 T22 T21", "") == {"T1"}


def test_O10_overtake_by_outcome_or_by_rank():
    assert legal("tournament", "klop", "T22 T5", "T21 T1", "") == {"T22", "T5"}
    assert legal("openspiel", "klop", "T22 T5", "T21 T1", "") == {"T22"}


WINNERS = [
    ("H4 HK T3 T2", "T3", "HK"),
    ("T21 T22 H4 T1", "T1", "T1"),
    ("H4 T22 T21 T1", "T1", "H4"),
    ("H1 HK CK H4", "HK", "HK"),
    ("T20 T1 T21 T22", "T1", "T1"),
]


@pytest.mark.parametrize("trick,normal,colour", WINNERS)
def test_trick_winner_section_8_6(trick, normal, colour):
    cards = trick.split()
    assert cards[winner_index(cards)] == normal
    assert cards[winner_index(cards, colour_valat=True)] == colour


def test_emperor_trick_needs_all_three_trula_cards():
    assert winner_index(["T21", "T1", "T5"]) == 0
    assert winner_index(["T1", "T22", "T21"]) == 0


def test_red_pips_rank_one_highest_black_ten_highest():
    assert winner_index(["H4", "H1", "H2"]) == 1
    assert winner_index(["S7", "S10", "S9"]) == 1


@pytest.mark.parametrize(
    ("option", "hand", "trick", "expected"),
    [
        ("either", "T1 CK", "", "T1 CK"),
        ("pagat_kept", "T1 CK", "", "CK"),
        ("either", "T1 CK H3", "", "H3"),
        ("pagat_kept", "T1 CK H3", "", "H3"),
        ("either", "T1 CK", "C8", "CK"),
        ("either", "T1 CK", "T8", "T1"),
    ],
)
def test_two_protected_ultimo_cards_as_the_only_legal_cards(option, hand, trick, expected):
    """Spec 8.4(c) with both the announced pagat and the called king (kralj ultimo) protected:
    while another card is legal both wait; when they are the only legal cards (leading with the
    last two cards) one of them is forced and, by the rulebook ("razen če je izsiljen": unless
    forced), either may be played (option ``protected_only_left = either``); the spec's rule
    applied in its order keeps the pagat and forces the king (``pagat_kept``). The native
    engine's legal cards (``core.legal``) give the same sets."""
    from tarock_logs import _native
    from tarock_logs.rules.slovenian.fast.cardbits import CID

    rules = Rules(ENGINE.ruleset("tournament", {"protected_only_left": option}))
    pr = make_play_rules(rules, "three")
    prot = ("T1", "CK")
    got, _why = pr.legal(set(hand.split()), trick.split(), prot)
    assert set(got) == set(expected.split())
    core = _native.core
    if core is not None:
        ints = (pr.negative, pr.pagat_restricted, pr.pagat_last_tarok, pr.by_rank,
                pr.emperor_always, pr.colour_valat, CID["T1"], CID["CK"],
                pr.protect_either)  # fmt: skip
        mask = core.legal(sum(1 << CID[c] for c in hand.split()),
                          [CID[c] for c in trick.split()], ints)  # fmt: skip
        assert mask == sum(1 << CID[c] for c in got)
