"""Trick-taking arithmetic of Slovenian tarok: who wins a trick (spec 8.2) and which cards are
legal (spec 8.3 and 8.4), over precomputed per-card tables.

Vocabulary: a **tarok** is a trump (``T1`` … ``T22``); the **pagat** is ``T1``, the **mond**
``T21``, the **škis** ``T22``; the three together are the **trula**. The **emperor's trick**
(*kraljevski trik*): when pagat, mond and škis fall in the same trick the pagat wins it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from tarock_logs.cards import CARDS, PACKS

PACK: Final = PACKS["slovenian"]
PACK_SET: Final = frozenset(PACK)
#: suit letter per card: "T" for taroks, else H/D/S/C
SUIT: Final[dict[str, str]] = {c: CARDS[c].suit for c in PACK}
#: strength inside the suit (taroks: their number; suit cards: K 8 … weakest pip 1)
STRENGTH: Final[dict[str, int]] = {c: CARDS[c].strength for c in PACK}
POINTS: Final[dict[str, int]] = {c: CARDS[c].points for c in PACK}
KINGS: Final = frozenset({"HK", "DK", "SK", "CK"})
TRULA: Final = frozenset({"T1", "T21", "T22"})
PAGAT: Final = "T1"
MOND: Final = "T21"
SKIS: Final = "T22"
SUIT_NAMES: Final = {"T": "taroks", "H": "hearts", "D": "diamonds", "S": "spades", "C": "clubs"}
ORDER: Final = {c: i for i, c in enumerate(PACK)}


class _SortKey(dict[str, int]):
    """:data:`ORDER`, with 99 for a token outside the pack (its ``__getitem__`` is the sort key:
    no Python call per card, the engine sorts at every card played)."""

    def __missing__(self, key: str) -> int:
        return 99


_SORT_KEY: Final = _SortKey(ORDER)


def sort_cards(cards: Iterable[str]) -> list[str]:
    """Cards in canonical order (taroks low to high, then H, D, S, C; unknown tokens last)."""
    return sorted(cards, key=_SORT_KEY.__getitem__)


#: a card's share of a pile's thirds: 3·value − 2
_THIRDS: Final[dict[str, int]] = {c: 3 * v - 2 for c, v in POINTS.items()}


def thirds(pile: Iterable[str]) -> int:
    """Card points of a pile in thirds of a point: 3·Σv − 2·n (spec 2.4).

    Tokens outside the pack (a broken log) count nothing."""
    try:
        return sum(map(_THIRDS.__getitem__, pile))
    except KeyError:
        return sum(_THIRDS.get(c, 0) for c in pile)


def rounded(t: int) -> int:
    """Points of a pile of ``t`` thirds, rounded to the nearest integer (ties cannot occur)."""
    return (t + 1) // 3


def winner_index(cards: list[str] | tuple[str, ...], colour_valat: bool = False) -> int:
    """Index (in playing order) of the card that wins the trick ``cards`` (spec 8.2).

    Emperor's trick: pagat, mond and škis together → the pagat, except in colour valat when a
    suit card was led. Otherwise the strongest tarok, or the strongest card of the led suit; in
    colour valat taroks win only when a tarok was led.
    """
    first = cards[0]
    led = SUIT[first]
    if PAGAT in cards and MOND in cards and SKIS in cards and (not colour_valat or led == "T"):
        return cards.index(PAGAT)
    best = 0
    bsuit = led
    bstr = STRENGTH[first]
    for i in range(1, len(cards)):
        c = cards[i]
        s = SUIT[c]
        if s == bsuit:
            if STRENGTH[c] > bstr:
                best, bstr = i, STRENGTH[c]
        elif s == "T" and not colour_valat:
            best, bsuit, bstr = i, "T", STRENGTH[c]
    return best


class PlayRules:
    """The legal-card rules of one hand (contract and ruleset fixed), spec 8.3–8.4.

    ``negative``: klop, berač, odprti berač (must overtake); ``pagat_restricted``: the pagat may
    be played only when it is the only legal card (or the last tarok, per option);
    ``colour_valat``: the colour-valat trick-winner rule; ``protect_either``: when only
    protected cards (announced pagat and called king ultimo) are legal, either may be played
    (else the pagat is kept and the king must be played, spec 8.4(c) in its order).
    """

    __slots__ = (
        "by_rank",
        "colour_valat",
        "emperor_always",
        "negative",
        "pagat_last_tarok",
        "pagat_restricted",
        "protect_either",
    )

    def __init__(
        self,
        *,
        negative: bool,
        pagat_restricted: bool,
        pagat_last_tarok: bool,
        by_rank: bool,
        emperor_always: bool,
        colour_valat: bool,
        protect_either: bool = True,
    ) -> None:
        self.protect_either = protect_either
        self.negative = negative
        self.pagat_restricted = pagat_restricted
        self.pagat_last_tarok = pagat_last_tarok
        self.by_rank = by_rank
        self.emperor_always = emperor_always
        self.colour_valat = colour_valat

    def legal(
        self, hand: set[str] | frozenset[str], trick: list[str], protected: tuple[str, ...] = ()
    ) -> tuple[list[str], str]:
        """The legal cards of ``hand`` given the ``trick`` so far, and the rule that chose them.

        The rule text is one of: ``lead``, ``follow <suit>``, ``trump``, ``any``, plus
        ``, overtake``, ``, emperor``, ``, pagat restriction``, ``, protected <card>``.
        """
        if not trick:
            cands = list(hand)
            why = "lead"
        else:
            led = SUIT[trick[0]]
            cands = [c for c in hand if SUIT[c] == led]
            if cands:
                why = "follow " + SUIT_NAMES[led]
                suit = led
            else:
                cands = [c for c in hand if SUIT[c] == "T"]
                if cands:
                    why = "trump"
                    suit = "T"
                else:
                    cands = list(hand)
                    why = "any"
                    suit = ""
            if self.negative and suit:
                if self.by_rank:
                    cands, why = self._overtake_rank(hand, trick, cands, suit, led, why)
                else:
                    if self.emperor_always and PAGAT in hand and MOND in trick and SKIS in trick:
                        cands, why = [PAGAT], why + ", emperor"
                    else:
                        n = len(trick)
                        probe = trick + [""]
                        over = []
                        for c in cands:
                            probe[n] = c
                            if winner_index(probe, self.colour_valat) == n:
                                over.append(c)
                        if over:
                            if len(over) < len(cands):
                                why += ", overtake"
                            cands = over
        if self.pagat_restricted and len(cands) > 1 and PAGAT in cands:
            if not self.pagat_last_tarok or any(SUIT[c] == "T" and c != PAGAT for c in hand):
                cands.remove(PAGAT)
                why += ", pagat restriction"
        held = [x for x in protected if x in cands]
        if held and len(cands) > 1 and (len(held) < len(cands) or not self.protect_either):
            # spec 8.4(c): a protected card waits while another card is legal; when only
            # protected cards are (both ultimo cards, the last two cards) one of them is forced
            # and either may be played (rulebook: "razen če je izsiljen"), or, under
            # protected_only_left = pagat_kept, the pagat is kept and the king must be played
            for x in held:
                if len(cands) > 1:
                    cands.remove(x)
                    why += ", protected " + x
        return cands, why

    def _overtake_rank(
        self,
        hand: set[str] | frozenset[str],
        trick: list[str],
        cands: list[str],
        suit: str,
        led: str,
        why: str,
    ) -> tuple[list[str], str]:
        """OpenSpiel's overtake rule (Appendix A.6): judged by rank within the suit played."""
        if PAGAT in hand and MOND in trick and SKIS in trick:
            return [PAGAT], why + ", emperor"
        has_tarok = any(SUIT[c] == "T" for c in trick)
        if suit != "T" and has_tarok:
            return cands, why
        if suit == "T" and not has_tarok:
            return cands, why
        beat = max(STRENGTH[c] for c in trick if SUIT[c] == suit)
        higher = [c for c in cands if STRENGTH[c] > beat]
        if higher:
            if len(higher) < len(cands):
                why += ", overtake"
            return higher, why
        return cands, why


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: leader, ``(seat, card)`` in playing order, winner and klop gift."""

    leader: int
    cards: tuple[tuple[int, str], ...]
    winner: int
    winning_card: str
    gift: str | None = None  # klop: the talon card added to this trick
    pile: tuple[str, ...] = ()  # the cards the winner collects (gift included)
