"""What the player knew in Zwanzigerrufen and Royal Tarock (``tarock analyse --view player``).

Each game's view (``rules/<game>/view.py``) says what a seat saw; the sampler draws layouts
of the hidden cards consistent with it; each layout is solved with all cards visible. The
rules pinned here, per game: every sample is consistent with the view (the player's own
cards and every card played stay where they are, the voids he saw are respected, the called
tarock's holder is the partner of each layout, what the bidding said holds), samples and
values are reproducible by seed, and where every hidden card is known the player-view value
is the all-cards-visible value.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from random import Random

import pytest
from typer.testing import CliRunner

from tarock_logs.analysis.games import analysis_for
from tarock_logs.analysis.knowledge import Sampler, View, make_view, view_of
from tarock_logs.analysis.native import make_solver
from tarock_logs.analysis.player import iter_player_analyses, sample_values
from tarock_logs.cli import app
from tarock_logs.log.reader import read_sessions
from tarock_logs.report.text import contract_name
from tarock_logs.rules.base import HandState
from tarock_logs.rules.royal.bidding import ATT
from tarock_logs.rules.royal.hand import RoyalHand
from tarock_logs.rules.royal.tricks import suit_of as royal_suit
from tarock_logs.rules.sight import Count, Restriction, Sight
from tarock_logs.rules.zwanzigerrufen.hand import ZRHand
from tarock_logs.rules.zwanzigerrufen.tricks import FARBENSOLO, PAGAT
from tarock_logs.rules.zwanzigerrufen.tricks import suit_of as zr_suit
from tests.analysis.games_support import ZR_CONTRACTS, back_to, royal_games, zr_endgame
from tests.analysis.support import needs_native

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
ZR_LOGS = SAMPLES / "zwanzigerrufen"
ROYAL_LOGS = SAMPLES / "royal"


# ----------------------------------------------------------------------------- positions


def _zr_positions(n: int, seed: int, tricks_left: int = 6) -> Iterator[ZRHand]:
    rng = Random(seed)
    got = 0
    while got < n:
        h = zr_endgame(rng, ZR_CONTRACTS[got % 3], rng.randint(1, tricks_left))
        if h is not None:
            got += 1
            yield h


def _royal_positions(n: int, seed: int, cards_left: int = 24) -> Iterator[RoyalHand]:
    rng = Random(seed)
    got = 0
    for game in royal_games(max(1, n // 3), seed):
        for _ in range(3):
            h = back_to(game, rng.randint(1, cards_left))
            if isinstance(h, RoyalHand):
                got += 1
                yield h
            if got == n:
                return


def _tricks(h: HandState) -> list[list[tuple[int, str]]]:
    """The tricks so far as ``(seat, card)`` lists, the one in progress last."""
    if isinstance(h, ZRHand):
        return [list(t.cards) for t in h.tricks] + [list(h.trick)]
    assert isinstance(h, RoyalHand)
    return [list(cards) for cards, _ in h.tricks] + [list(h.trick)]


def _held(h: HandState, seat: int) -> set[str]:
    return set(h.held(seat)) if isinstance(h, ZRHand) else set(h.held[seat])  # type: ignore[attr-defined]


def _check_sample(h: HandState, v: View, layout: tuple[tuple[str, ...], ...]) -> HandState:
    """What every sample keeps of the view, checked on the hand the sample deals."""
    seat = v.seat
    assert v.fits(layout)
    dealt = [c for cards in layout for c in cards]
    assert sorted(dealt) == sorted(v.hidden) and len(set(dealt)) == len(dealt)
    played = {c for t in _tricks(h) for _, c in t}
    assert not set(dealt) & (played | _held(h, seat))
    hs = v.deal(layout)
    # the player's own cards and every card played stay as they were
    assert _held(hs, seat) == _held(h, seat)
    assert _tricks(hs) == _tricks(h)
    for k, name in enumerate(v.holders):
        assert _held(hs, int(name[5:])) == set(layout[k])
    # a seat that did not follow the suit led holds none of it
    suit = zr_suit if isinstance(h, ZRHand) else royal_suit
    for t in _tricks(h):
        if not t:
            continue
        led = suit(t[0][1])
        for s, c in t[1:]:
            if s != seat and suit(c) != led:
                assert not any(suit(x) == led for x in _held(hs, s)), (s, led, t)
    return hs


# ----------------------------------------------------------------------------- Zwanzigerrufen


def test_every_zwanzigerrufen_sample_is_consistent_with_the_players_view() -> None:
    """Own cards fixed, voids respected (a Farbensolo's tarock lead: no suit card left), the
    called tarock never with forehand and its holder the partner of each layout, an announced
    Pagat on its side, and the true layout always one of the consistent ones."""
    called_hidden = pagats = 0
    for n, h in enumerate(_zr_positions(45, 3, tricks_left=9)):
        seat = h.to_move()
        assert seat is not None
        v = view_of(h, seat)
        assert v.fits(v.truth) and v.notes == (), v.notes
        a = h.auction
        for layout in Sampler(v).samples(4, seed=n):
            hs = _check_sample(h, v, layout)
            assert isinstance(hs, ZRHand)
            b = hs.auction
            assert (b.contract, b.holder, b.called) == (a.contract, a.holder, a.called)
            if a.called is not None:
                holder = next(s for s in range(4) if a.called in hs.dealt[s])
                assert holder != a.holder and b.partner == holder
                if a.called not in v.hidden:  # played or the viewer's own: the partner known
                    assert b.partner == a.partner
                else:
                    called_hidden += 1
            for bonus, side in a.announced:
                if bonus == "pagat":
                    owner = next(s for s in range(4) if PAGAT in hs.dealt[s])
                    assert owner in b.side_seats(side)
                    pagats += 1
            if a.contract == FARBENSOLO:
                for t in _tricks(h):
                    if t and t[0][1].startswith("T") and t[0][0] != seat:
                        assert all(x.startswith("T") for x in _held(hs, t[0][0]))
    assert called_hidden >= 10 and pagats > 0


def test_zwanzigerrufen_samples_and_values_are_reproducible_by_seed() -> None:
    (session, *_) = read_sessions([ZR_LOGS])

    def run(seed: int) -> list[dict[str, object]]:
        out = []
        for ph in iter_player_analyses(session, last_tricks=2, samples=4, seed=seed):
            d = ph.to_dict()
            d.pop("seconds")
            out.append(d)
        return out

    a, b, c = run(3), run(3), run(4)
    assert a == b and a != c
    (hand,) = a
    assert hand["samples"] == 4 and hand["seed"] == 3 and len(hand["cards"]) == 8  # type: ignore[arg-type]
    h = next(_zr_positions(1, 11))
    v = view_of(h, h.to_move() or 0)
    assert Sampler(v).samples(5, seed="x") == Sampler(v).samples(5, seed="x")


def _known_equals_visible(h: HandState) -> bool:
    """Where the view leaves one layout (every hidden card known), the player-view values
    are the all-cards-visible values; with the true layout as the only sample, always."""
    g = analysis_for("zwanzigerrufen" if isinstance(h, ZRHand) else "royal")
    assert g is not None
    seat = h.to_move()
    assert seat is not None
    v = view_of(h, seat)
    pos, setting = g.read_position(h)
    ids = g.cards(h)
    want = {ids[c]: x for c, x in make_solver(setting).values(pos).items()}
    got, _ = sample_values(h, [v.truth], seat, view=v)
    assert got == {c: [x] for c, x in want.items()}
    s = Sampler(v)
    if s.count() != 1:
        return False
    got, _ = sample_values(h, s.samples(3, seed=1), seat, view=v)
    assert got == {c: [x] * 3 for c, x in want.items()}
    return True


def test_zwanzigerrufen_with_every_hidden_card_known_the_player_view_is_all_cards_visible() -> None:
    known = sum(_known_equals_visible(h) for h in _zr_positions(30, 5, tricks_left=1))
    assert known >= 5


# ----------------------------------------------------------------------------- Royal Tarock


def test_every_royal_sample_is_consistent_with_the_players_view() -> None:
    """Own cards fixed, voids respected, XIX and XX with the attackers' Abfänger and
    Eintreiber until played, every true Meldung still true of the layout's deal, every hand of
    at least three tarocks, the bound cards' duties kept (the redeal check)."""
    melds = honours = 0
    for n, h in enumerate(_royal_positions(30, 2)):
        seat = h.to_move()
        assert seat is not None
        v = view_of(h, seat)
        assert v.fits(v.truth) and v.notes == (), v.notes
        abf, ein = h.parties[ATT]
        for layout in Sampler(v).samples(3, seed=n):
            hs = _check_sample(h, v, layout)
            assert isinstance(hs, RoyalHand)
            assert "T19" in hs.dealt[abf] and "T20" in hs.dealt[ein]
            honours += "T19" in v.hidden or "T20" in v.hidden
            assert all(sum(c.startswith("T") for c in d) >= 3 for d in hs.dealt)
            for m0, m1 in zip(h.bidding.melds, hs.bidding.melds, strict=True):
                if m0.valid:
                    assert m1.valid, (m0.item_id, m0.params)
                    melds += 1
    assert honours > 0 and melds > 0


def test_royal_samples_and_values_are_reproducible_by_seed() -> None:
    (session, *_) = read_sessions([ROYAL_LOGS])

    def run(seed: int) -> list[dict[str, object]]:
        out = []
        for ph in iter_player_analyses(session, hands={1, 2}, last_tricks=2, samples=3,
                                       seed=seed):  # fmt: skip
            d = ph.to_dict()
            d.pop("seconds")
            out.append(d)
        return out

    a, b, c = run(5), run(5), run(6)
    assert a == b and a != c
    assert [len(h["cards"]) for h in a] == [8, 8]  # type: ignore[arg-type]
    assert all(x["seed"].startswith("5:") for h in a for x in h["cards"])  # type: ignore[attr-defined]


def test_royal_with_every_hidden_card_known_the_player_view_is_all_cards_visible() -> None:
    known = sum(_known_equals_visible(h) for h in _royal_positions(24, 4, cards_left=4))
    assert known >= 4


# ----------------------------------------------------------------------------- the command


@pytest.mark.parametrize("logs", [ZR_LOGS, ROYAL_LOGS], ids=["zwanzigerrufen", "royal"])
def test_cli_player_view_values_the_sample_hands_with_samples_and_seed(logs: Path) -> None:
    """``tarock analyse --view player`` on the samples: every hand analysed under its
    contract, every card with its mean and spread, samples and seed in every output, the same
    seed the same values; the table names each hand's contract (never "?")."""
    args = ["analyse", str(logs), "--view", "player", "--last-tricks", "1", "--samples", "3",
            "--seed", "9"]  # fmt: skip
    runs = [CliRunner().invoke(app, [*args, "--format", "json"]) for _ in range(2)]
    docs = []
    for r in runs:
        assert r.exit_code == 0, r.output
        doc = json.loads(r.stdout)
        for d in (doc["summary"], *doc["hands"]):
            d.pop("seconds")
        docs.append(doc)
    assert docs[0] == docs[1]
    doc = docs[0]
    assert (doc["label"], doc["samples"], doc["seed"]) == ("what the player knew", 3, 9)
    assert doc["hands"] and all(h["skipped"] is None and h["cards"] for h in doc["hands"])
    for h in doc["hands"]:
        assert (h["samples"], h["seed"]) == (3, 9)
        for c in h["cards"]:
            assert c["samples"] == 3 and c["seed"].startswith("9:")
            assert set(c["values"][c["card"]]) == {"mean", "std", "min", "max"}
    table = CliRunner().invoke(app, args)
    assert table.exit_code == 0, table.output
    assert "(?" not in table.stdout
    assert "what the player knew, 3 samples per card, seed 9" in table.stdout
    sessions = read_sessions([logs])
    games = {s.game for s in sessions}
    (game,) = games
    first = doc["hands"][0]
    assert contract_name(first["contract"], game) in table.stdout or " " in first["contract"]


@needs_native
def test_cli_names_the_contract_and_why_in_the_readers_language() -> None:
    """A hand that is not analysed says why, and every heading names the contract, in
    en/sl/de (``--lang``)."""
    args = ["analyse", str(ZR_LOGS), "--view", "player", "--last-tricks", "1", "--samples",
            "2", "--backend", "native"]  # fmt: skip
    for lang, words in (("en", "not analysed"), ("sl", "ni analizirano"),
                        ("de", "nicht analysiert")):  # fmt: skip
        r = CliRunner().invoke(app, [*args, "--lang", lang])
        assert r.exit_code == 0, r.output
        heads = [x for x in r.stdout.splitlines() if x.startswith("zr-fd")]
        assert len(heads) == 4 and all(words in x for x in heads)
        assert all("(?" not in x for x in heads)
    de = CliRunner().invoke(app, [*args, "--lang", "de"]).stdout
    assert "Spieler auf Platz 0" in de and "keinen nativen Löser" in de


# ----------------------------------------------------------------------------- the sampler


def test_the_sampler_with_counts_is_exact_and_uniform() -> None:
    """A count (a Meldung: "exactly one of A B C", "at least one of D E") is part of the
    sampler's dynamic programme: its count equals the brute-force count of the layouts that
    keep every restriction and count, every draw is one of them, and the draws pass a
    chi-square test of uniformity."""
    places = (("seat 1", ("A", "D")), ("seat 2", ("B", "E", "F")), ("seat 3", ("C", "G")))
    void = Restriction(("G",), frozenset({"seat 1"}), "a void", exclude=True)
    counts = (Count("seat 1", ("A", "B", "C"), frozenset({1}), "exactly one"),
              Count("seat 2", ("D", "E"), frozenset({1, 2}), "at least one"))  # fmt: skip
    sight = Sight(0, places, (void,), order=tuple("ABCDEFG"), counts=counts)
    v = make_view(sight)
    assert v.notes == () and v.fits(v.truth)
    every = set()
    for perm in itertools.permutations("ABCDEFG"):
        layout = tuple(tuple(sorted(p)) for p in (perm[:2], perm[2:5], perm[5:]))
        if v.fits(layout):
            every.add(layout)
    s = Sampler(v)
    assert s.count() == len(every) > 10
    per = 30
    draws = Counter(s.samples(per * len(every), seed=2))
    assert set(draws) == every
    chi2 = sum((draws[x] - per) ** 2 / per for x in every)
    # the 0.999 quantile of chi-square with len(every) - 1 degrees of freedom (Wilson-Hilferty)
    k = len(every) - 1
    assert chi2 < k * (1 - 2 / (9 * k) + 3.09 * (2 / (9 * k)) ** 0.5) ** 3
