"""Helpers for the Zwanzigerrufen tests: the spec's compact notation turned into engine actions.

The spec writes players by role, P1 (forehand) … P4 (dealer). Every test deal here uses seat 3
as the dealer, so P1 … P4 are seats 0 … 3 (``seat = k - 1``).

* ``auction("1 P1 [CALL T19] · 2 P2 [KONTRA GAME, ANN ABSOLUT DAGEGEN] · 3 P3 []")`` gives the
  actions of those turns: each declaration, then one ``pass`` (weiter) ending the turn.
* ``deal_with({1: [...], 3: [...]})`` completes partly specified hands (P-numbers as keys).
* ``synth_tricks(...)`` builds the ten tricks a scoring example describes only by its facts
  (card points and tricks of the declarer side, where the Pagat fell, a Mondfang).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import Action
from tarock_logs.rules.zwanzigerrufen import ENGINE, ZRHand
from tarock_logs.rules.zwanzigerrufen.tricks import KING_CARDS, TRULL_CARDS, Trick

DEALER = 3
PACK = PACKS["zwanzigerrufen"]

_KONTRA_WORDS = {"KONTRA": 1, "RETOUR": 2, "SUPRA": 3, "RESUPRA": 4}


def seat(p: str | int) -> int:
    """``"P3"`` or ``3`` → seat 2."""
    n = int(p[1:]) if isinstance(p, str) else p
    return n - 1


def new_hand(
    hands: Sequence[Sequence[str]], options: Mapping[str, Any] | None = None, **kw: Any
) -> ZRHand:
    rs = ENGINE.ruleset("ZR-STD", options or {})
    session = ENGINE.new_session(rs, 4)
    hand = session.new_hand(kw.get("dealer", DEALER), hands)
    assert isinstance(hand, ZRHand)
    return hand


def decl(token: str, s: int) -> Action:
    """One declaration of the compact notation (``CALL T19``, ``ANN PAGAT DAGEGEN`` …)."""
    words = token.split()
    head = words[0].upper()
    if head == "CALL":
        return Action("call", s, card=words[1])
    if head in ("FARBENSOLO", "SOLO"):
        return Action("bid", s, contract=head.lower())
    if head == "ANN":
        return Action("announce", s, bonus=words[1].lower(), side=words[2].lower())
    if head in _KONTRA_WORDS:
        return Action("kontra", s, target=words[1].lower(), level=_KONTRA_WORDS[head])
    raise ValueError(f"unknown declaration {token!r}")


def auction(text: str) -> list[Action]:
    """Actions of turns written as ``n Pk [decl, decl]`` separated by ``·``."""
    out: list[Action] = []
    for part in text.split("·"):
        m = re.fullmatch(r"\s*\d+\s+P(\d)\s+\[(.*)\]\s*", part)
        assert m, part
        s = seat(int(m.group(1)))
        for token in filter(None, (t.strip() for t in m.group(2).split(","))):
            out.append(decl(token, s))
        out.append(Action("pass", s))
    return out


def plays(text: str) -> list[Action]:
    """``"P1:T15 P2:T21 P3:T13 P4:T11"`` → four play actions."""
    out = []
    for tok in text.split():
        p, card = tok.split(":")
        out.append(Action("play", seat(p), card=card))
    return out


def push_all(hand: ZRHand, actions: Iterable[Action]) -> list[list[Any]]:
    """Push every action; returns the findings per action."""
    return [hand.push(a) for a in actions]


def codes(findings: Iterable[Iterable[Any]]) -> list[str]:
    return [v.code for found in findings for v in found]


def error_codes(findings: Iterable[Iterable[Any]]) -> list[str]:
    return [v.code for found in findings for v in found if v.severity == "error"]


def by_p(hands: Mapping[int, Sequence[str]]) -> list[list[str]]:
    """``{1: [...], 2: [...], ...}`` keyed by P-number → hands by seat."""
    return [list(hands[k + 1]) for k in range(4)]


def deal_with(
    fixed: Mapping[int, Iterable[str]],
    *,
    avoid: Mapping[int, Iterable[str]] | None = None,
    allow_bonus: bool = False,
    seed: int = 0,
) -> list[list[str]]:
    """Complete hands around the cards ``fixed`` (keys P-numbers), deterministically.

    The free cards are shuffled with ``random.Random(seed)`` until the deal is ordinary:
    forehand gets none of XX…XVI unless given (``avoid`` bans more), nobody qualifies for a
    throw-in, and no hand holds a Trull or Four Kings it was not given (unless
    ``allow_bonus``).
    """
    rng = random.Random(seed)
    base: dict[int, list[str]] = {p: list(fixed.get(p, ())) for p in (1, 2, 3, 4)}
    used = {c for h in base.values() for c in h}
    bans: dict[int, set[str]] = {p: set() for p in (1, 2, 3, 4)}
    bans[1] |= {"T20", "T19", "T18", "T17", "T16"} - set(base[1])
    for p, cards in (avoid or {}).items():
        bans[p] |= set(cards)
    free = [c for c in PACK if c not in used]
    for _ in range(2000):
        rng.shuffle(free)
        hands = {p: list(h) for p, h in base.items()}
        ok = True
        for card in sorted(free, key=lambda c: -sum(c in b for b in bans.values())):
            options = [p for p in (1, 2, 3, 4) if len(hands[p]) < 10 and card not in bans[p]]
            if not options:
                ok = False
                break
            hands[rng.choice(options)].append(card)
        if not ok:
            continue
        result = by_p(hands)
        filled = [h for k, h in enumerate(result) if len(base[k + 1]) < 10]
        if any(not any(c.startswith("T") for c in h) for h in filled):
            continue
        if any(sum(c.startswith("T") for c in h) == 1 and set(h) & TRULL_CARDS for h in filled):
            continue
        if not allow_bonus and any(
            TRULL_CARDS.issubset(h) or KING_CARDS.issubset(h) for h in result
        ):
            continue
        assert sorted(c for h in result for c in h) == sorted(PACK)
        return result
    raise AssertionError(f"no ordinary deal around {fixed}")


def synth_tricks(
    declarer_side: Iterable[int],
    cp_d: int,
    tricks_d: int,
    *,
    pagat: tuple[int, int, int] | None = None,
    mondfang: tuple[int, int] | None = None,
) -> list[Trick]:
    """Ten tricks with the given facts, for scoring examples stated by facts only.

    ``pagat`` = (seat that played T1, trick number, seat that won that trick);
    ``mondfang`` = (seat of the Mond, seat of the capturing Sküs), placed in a trick won by
    the capturer. The declarer side's card points go to its first trick, the rest to the
    defenders' first trick.
    """
    d_side = sorted(declarer_side)
    f_side = sorted(set(range(4)) - set(d_side))
    winners: list[int | None] = [None] * 10
    if pagat is not None:
        winners[pagat[1] - 1] = pagat[2]
    if mondfang is not None:
        slot = next(i for i in range(10) if winners[i] is None)
        winners[slot] = mondfang[1]
    need_d = tricks_d - sum(1 for w in winners if w is not None and w in d_side)
    for i in range(10):
        if winners[i] is None:
            if need_d > 0:
                winners[i] = d_side[0]
                need_d -= 1
            else:
                winners[i] = f_side[0]
    assert sum(1 for w in winners if w in d_side) == tricks_d, winners
    pts = [0] * 10
    first_d = next((i for i in range(10) if winners[i] in d_side), None)
    first_f = next((i for i in range(10) if winners[i] in f_side), None)
    if first_d is not None:
        pts[first_d] = cp_d
    else:
        assert cp_d == 0
    if first_f is not None:
        pts[first_f] = 88 - cp_d
    else:
        assert cp_d == 88
    out = []
    for i in range(10):
        cards: tuple[tuple[int, str], ...] = ()
        mf = None
        if pagat is not None and i == pagat[1] - 1:
            cards = ((pagat[0], "T1"),)
        if mondfang is not None and winners[i] == mondfang[1] and i == winners.index(mondfang[1]):
            mf = mondfang
            cards = cards + ((mondfang[0], "T21"), (mondfang[1], "T22"))
        w = winners[i]
        assert w is not None
        out.append(Trick(i + 1, w, cards, w, pts[i], False, mf))
    return out


#: The dealt hands of the full-deal replays FD1–FD4 (spec §7.9), by P-number.
FD_HANDS: dict[str, dict[int, list[str]]] = {
    "FD1": {
        1: "T22 T20 T18 T15 T12 HJ DG SK SN SJ".split(),
        2: "T21 T17 T10 T6 HQ HN HG DN DJ CQ".split(),
        3: "T19 T16 T13 T9 T5 HK DQ CK CN CG".split(),
        4: "T14 T11 T8 T7 T4 T1 DK SQ SG CJ".split(),
    },
    "FD2": {
        1: "T22 T16 T10 T9 T4 DQ DJ SQ SJ CN".split(),
        2: "T20 T19 T14 T11 T1 HQ HN DK SG CQ".split(),
        3: "T21 T15 T7 T5 HJ DN SK SN CK CJ".split(),
        4: "T18 T17 T13 T12 T8 T6 HK HG DG CG".split(),
    },
    "FD3": {
        1: "T10 T7 T6 T5 HN HJ DK DJ SQ CK".split(),
        2: "T21 T15 T14 T9 T8 T4 HQ DN SG CJ".split(),
        3: "T12 T1 HK HG DQ DG SK SN CN CG".split(),
        4: "T22 T20 T19 T18 T17 T16 T13 T11 SJ CQ".split(),
    },
    "FD4": {
        1: "T22 T20 T11 T8 T7 T5 HN HG DG SQ".split(),
        2: "T19 T18 T17 T15 T12 T6 T1 DN SN CJ".split(),
        3: "T21 T16 T14 T13 T4 HJ DQ DJ SG CQ".split(),
        4: "T10 T9 HK HQ DK SK SJ CK CN CG".split(),
    },
}


def fd_hand(name: str, options: Mapping[str, Any] | None = None) -> ZRHand:
    return new_hand(by_p(FD_HANDS[name]), options)


def score_facts(
    hands: Sequence[Sequence[str]],
    auction_text: str,
    *,
    cp_d: int,
    tricks_d: int,
    pagat: tuple[int, int, int] | None = None,
    mondfang: tuple[int, int] | None = None,
    claims: Iterable[tuple[int, str]] = (),
    options: Mapping[str, Any] | None = None,
    multiplier: int = 1,
):
    """Run the auction through the engine (it must be legal), then score the stated facts.

    Seats in ``pagat``, ``mondfang`` and ``claims`` are P-numbers (1–4) like the spec.
    """
    from tarock_logs.rules.zwanzigerrufen.scoring import score_deal

    hand = new_hand(hands, options)
    found = push_all(hand, auction(auction_text))
    assert error_codes(found) == [], error_codes(found)
    assert hand.auction.over
    a = hand.auction
    d_side = a.declarer_side()
    p = (lambda t: (seat(t[0]), t[1], seat(t[2]))) if pagat else None
    tricks = synth_tricks(
        d_side,
        cp_d,
        tricks_d,
        pagat=p(pagat) if p and pagat else None,
        mondfang=(seat(mondfang[0]), seat(mondfang[1])) if mondfang else None,
    )
    assert a.contract is not None and a.holder is not None
    res = score_deal(
        opts=hand.opts,
        contract=a.contract,
        declarer=a.holder,
        declarer_side=d_side,
        dealt=hand.dealt,
        tricks=tricks,
        game_level=a.game_level,
        announced=[{"bonus": k[0], **v} for k, v in a.announced.items()],
        claims=frozenset((seat(s), c) for s, c in claims),
        multiplier=multiplier,
    )
    assert sum(res.totals) == 0
    return res


def side_items(res) -> dict[str, tuple[tuple[int, ...], int]]:
    """item → (winning P-numbers, value v) of a ScoreResult."""
    return {i.item: (tuple(sorted(s + 1 for s in i.winners)), i.value) for i in res.items}
