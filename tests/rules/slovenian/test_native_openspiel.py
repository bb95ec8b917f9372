"""OpenSpiel's returns in C (``tarock_logs/_native/openspiel.h``) against the pure-Python
reference (``openspiel_scoring._play_out``), on random hands of every contract and scoring
branch: klop's talon gifts and its ±70, the talon contracts with and without a partner (the
called king from the talon bringing the remainder home, the mond left in the talon or
captured, valat by 48 cards, the king or pagat ultimo among the last cards, the "kings"
defect of a 4-card pile), berač, solo brez and (colour) valat, short hands and odd seats."""

from __future__ import annotations

import random

import pytest

from tarock_logs import _native
from tarock_logs.cards import PACKS
from tarock_logs.rules.slovenian import openspiel_scoring as os_scoring
from tarock_logs.rules.slovenian.openspiel_scoring import (
    _CID,
    _KIND,
    CONTRACT_VALUES,
    TALON_CARDS,
    _play_out,
)

pytestmark = pytest.mark.skipif(
    not _native.available(), reason=f"the native core is not loaded: {_native.why_not}"
)
PACK = list(PACKS["slovenian"])


def _hand(rng: random.Random, n: int, contract: str) -> dict:
    deck = list(PACK)
    rng.shuffle(deck)
    if rng.random() < 0.4:  # the mond in the talon, the pagat and kings late: the branches
        deck.remove("T21")
        deck.insert(rng.randrange(6), "T21")
    talon, rest = deck[:6], deck[6:]
    k = TALON_CARDS[contract]
    declarer = None if contract == "klop" else rng.randrange(n)
    group = rng.choice([None, *range(6 // k)]) if k else None
    taken = talon[group * k : group * k + k] if group is not None and k else []
    discards: list[str] = []
    if k:  # the declarer discards as many cards as he took (any cards: the piles only count)
        discards = rest[:k]
        rest = rest[k:] + taken
        rng.shuffle(rest)
    kings = ["HK", "DK", "SK", "CK"]
    called = rng.choice([*kings, None]) if k and n == 4 else None
    if called is not None and rng.random() < 0.3 and k:
        taken_kings = [c for c in taken if c in kings]
        called = taken_kings[0] if taken_kings else called
    partner = rng.choice([None, declarer, *range(n)]) if k else None
    tricks = []
    leader = rng.randrange(n)
    n_tricks = len(rest) // n
    if rng.random() < 0.15:
        n_tricks = rng.randrange(1, n_tricks + 1)  # a hand that ended early
    for t in range(n_tricks):
        cards = rest[t * n : t * n + n]
        if rng.random() < 0.1:  # the emperor's / mond trick forced now and then
            for want in ("T21", "T22", "T1"):
                if want in rest[t * n :] and want not in cards:
                    j = rest.index(want)
                    rest[j], rest[t * n] = rest[t * n], rest[j]
                    cards = rest[t * n : t * n + n]
        winner = rng.randrange(n)
        if rng.random() < 0.1 and declarer is not None:
            winner = declarer  # valat-ish piles and empty beggar piles
        tricks.append((leader, list(cards), winner))
        leader = winner
    if contract in ("berac", "odprti_berac", "valat", "barvni_valat") and rng.random() < 0.5:
        side = declarer if rng.random() < 0.5 else (declarer + 1) % n  # type: ignore[operator]
        tricks = [(ld, cs, side) for ld, cs, _ in tricks]
    return {
        "n": n, "contract": contract, "declarer": declarer, "partner": partner,
        "called_king": called, "talon": talon, "talon_group": group, "discards": discards,
        "tricks": tricks,
    }  # fmt: skip


def _native_returns(h: dict) -> list[int] | None:
    core = _native.core
    assert core is not None
    c = h["contract"]
    d, p, g = h["declarer"], h["partner"], h["talon_group"]
    return core.openspiel_returns(
        h["n"], _KIND[c], CONTRACT_VALUES[c], TALON_CARDS[c],
        -1 if d is None else d, -1 if p is None else p, h["called_king"], h["talon"],
        -1 if g is None else g, h["discards"], h["tricks"], _CID,
    )  # fmt: skip


def _reference(h: dict) -> list[int]:
    return _play_out(
        h["n"], 0, h["contract"], h["declarer"], h["partner"], h["called_king"], h["talon"],
        h["talon_group"], h["discards"], h["tricks"],
    )[0]  # fmt: skip


@pytest.mark.parametrize("contract", sorted(CONTRACT_VALUES))
@pytest.mark.parametrize("n", [3, 4])
def test_native_openspiel_returns_equal_the_reference(contract: str, n: int) -> None:
    rng = random.Random(f"{contract}:{n}")
    flags: set[str] = set()
    for _ in range(800):
        h = _hand(rng, n, contract)
        got = _native_returns(h)
        assert got is not None, h
        assert got == _reference(h), h
        flags |= _play_out(
            h["n"], 0, contract, h["declarer"], h["partner"], h["called_king"], h["talon"],
            h["talon_group"], h["discards"], h["tricks"],
        )[4]  # fmt: skip
    if contract == "klop":
        assert {"klop_full", "klop_empty"} & flags
    if TALON_CARDS[contract]:
        assert {"won", "lost", "mond_in_talon", "mond_captured", "pagat_ultimo"} <= flags, flags
        if n == 4:
            assert {"king_takes_talon", "king_ultimo"} <= flags, flags


def test_openspiel_returns_takes_the_native_twin_and_falls_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = random.Random(5)
    h = _hand(rng, 4, "three")
    kw = {
        "num_players": 4, "forehand": 0, "contract": "three", "declarer": h["declarer"],
        "partner": h["partner"], "called_king": h["called_king"], "talon": h["talon"],
        "talon_group": h["talon_group"], "discards": h["discards"], "tricks": h["tricks"],
    }  # fmt: skip
    native = os_scoring.openspiel_returns(**kw)  # type: ignore[arg-type]
    monkeypatch.setattr(os_scoring, "_CORE", None)
    assert os_scoring.openspiel_returns(**kw) == native == _reference(h)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "spoil",
    ["unknown card", "card twice", "winner off the table", "no declarer"],
)
def test_the_native_twin_declines_what_only_the_reference_may_judge(spoil: str) -> None:
    h = _hand(random.Random(spoil), 4, "two")
    if spoil == "unknown card":
        h["tricks"][0][1][0] = "X9"
    elif spoil == "card twice":
        h["tricks"][1][1][0] = h["tricks"][0][1][0]
    elif spoil == "winner off the table":
        h["tricks"][0] = (h["tricks"][0][0], h["tricks"][0][1], 7)
    else:
        h["declarer"] = None
    assert _native_returns(h) is None
