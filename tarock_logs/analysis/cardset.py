"""Card sets as bitmasks for the solver: the pure-Python twin of ``tarock_logs/_native/cards.h``.

A card's **id** is its index in the Slovenian pack (``tarock_logs.cards.PACKS``, the ids of
the bulk audit's ``rules/slovenian/fast/cardbits`` too: ``T1`` … ``T22`` are ids 0 … 21, then
eight ids per suit from the king down to the weakest pip); a set of cards is an ``int`` with
bit ``id`` set for each card. Within a suit the strongest card of a set is its lowest bit;
among taroks its highest bit. Card points are counted in **thirds** (spec 2.4): a card worth
``v`` counts ``3v − 2``.

:func:`legal` and :func:`winner` decide exactly what the engine's
:class:`~tarock_logs.rules.slovenian.tricks.PlayRules` and
:func:`~tarock_logs.rules.slovenian.tricks.winner_index` decide (a differential test pins
it); they are written over masks so that the search does not build token lists.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from tarock_logs.cards import CARDS, PACKS

__all__ = [
    "CARD",
    "CID",
    "KINGS",
    "MOND",
    "PAGAT",
    "PLAIN_TAROKS",
    "SKIS",
    "TAROKS",
    "TRULA",
    "CardRules",
    "bits",
    "ids_of",
    "legal",
    "mask_of",
    "thirds",
    "winner",
]  # fmt: skip

#: card id → token and token → id
CARD: Final[tuple[str, ...]] = tuple(PACKS["slovenian"])
CID: Final[dict[str, int]] = {c: i for i, c in enumerate(CARD)}
_SUIT_INDEX: Final = {"T": 0, "H": 1, "D": 2, "S": 3, "C": 4}
#: per card id: suit index (0 taroks, then H D S C), strength in the suit, thirds (3v − 2)
SUIT_OF: Final[tuple[int, ...]] = tuple(_SUIT_INDEX[CARDS[c].suit] for c in CARD)
STR: Final[tuple[int, ...]] = tuple(CARDS[c].strength for c in CARD)
THIRDS: Final[tuple[int, ...]] = tuple(3 * CARDS[c].points - 2 for c in CARD)
#: per suit index: the mask of its cards
SUIT_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << i for i, s in enumerate(SUIT_OF) if s == k) for k in range(5)
)
PAGAT: Final = CID["T1"]
MOND: Final = CID["T21"]
SKIS: Final = CID["T22"]
TAROKS: Final = SUIT_MASK[0]
TRULA: Final = 1 << PAGAT | 1 << MOND | 1 << SKIS
KINGS: Final = sum(1 << CID[k] for k in ("HK", "DK", "SK", "CK"))
#: the plain taroks T2 … T20: one point each, no bonus
PLAIN_TAROKS: Final = TAROKS & ~TRULA
#: per point class (thirds per card): the mask of its cards
_BY_THIRDS: Final = tuple(
    (t, sum(1 << i for i, x in enumerate(THIRDS) if x == t)) for t in sorted(set(THIRDS))
)


def bits(mask: int) -> list[int]:
    """The ids in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def mask_of(cards: Iterable[str]) -> int:
    """The mask of card tokens (``KeyError`` for a token outside the pack)."""
    m = 0
    for c in cards:
        m |= 1 << CID[c]
    return m


def ids_of(cards: Iterable[str]) -> list[int]:
    return [CID[c] for c in cards]


def thirds(mask: int) -> int:
    """Card points of the pile ``mask`` in thirds."""
    return sum(t * (mask & m).bit_count() for t, m in _BY_THIRDS)


def winner(trick: Sequence[int], colour_valat: bool) -> int:
    """Index (in playing order) of the card that wins the trick of card ids ``trick``
    (spec 8.2: the emperor's trick, then the strongest tarok, then the led suit)."""
    led = SUIT_OF[trick[0]]
    if PAGAT in trick and MOND in trick and SKIS in trick and (not colour_valat or led == 0):
        return trick.index(PAGAT)
    best, bsuit, bstr = 0, led, STR[trick[0]]
    for i in range(1, len(trick)):
        c = trick[i]
        s = SUIT_OF[c]
        if s == bsuit:
            if STR[c] > bstr:
                best, bstr = i, STR[c]
        elif s == 0 and not colour_valat:
            best, bsuit, bstr = i, 0, STR[c]
    return best


@dataclass(frozen=True, slots=True)
class CardRules:
    """The legal-card rules of one hand (the fields of the engine's ``PlayRules``) and the
    announced ultimo cards protected from early play (pagat first, then the called king)."""

    negative: bool
    pagat_restricted: bool
    pagat_last_tarok: bool
    by_rank: bool
    emperor_always: bool
    colour_valat: bool
    protected: tuple[int, ...] = ()


def _overtake_rank(hand: int, trick: Sequence[int], cands: int, suit: int) -> int:
    """OpenSpiel's overtake rule (Appendix A.6): by rank within the suit played."""
    if hand >> PAGAT & 1 and MOND in trick and SKIS in trick:
        return 1 << PAGAT
    has_tarok = any(SUIT_OF[c] == 0 for c in trick)
    if (suit != 0 and has_tarok) or (suit == 0 and not has_tarok):
        return cands
    beat = max(STR[c] for c in trick if SUIT_OF[c] == suit)
    higher = sum(1 << c for c in bits(cands) if STR[c] > beat)
    return higher or cands


def legal(hand: int, trick: Sequence[int], r: CardRules) -> int:
    """The mask of legal cards of ``hand`` given the trick so far (spec 8.3–8.4)."""
    suit = -1
    if not trick:
        cands = hand
    else:
        led = SUIT_OF[trick[0]]
        cands = hand & SUIT_MASK[led]
        if cands:
            suit = led
        elif hand & TAROKS:
            cands = hand & TAROKS
            suit = 0
        else:
            cands = hand
        if r.negative and suit >= 0:
            if r.by_rank:
                cands = _overtake_rank(hand, trick, cands, suit)
            elif r.emperor_always and hand >> PAGAT & 1 and MOND in trick and SKIS in trick:
                cands = 1 << PAGAT
            else:
                probe = [*trick, 0]
                n = len(trick)
                over = 0
                for c in bits(cands):
                    probe[n] = c
                    if winner(probe, r.colour_valat) == n:
                        over |= 1 << c
                if over:
                    cands = over
    if r.pagat_restricted and cands >> PAGAT & 1 and cands.bit_count() > 1:
        if not r.pagat_last_tarok or hand & TAROKS & ~(1 << PAGAT):
            cands &= ~(1 << PAGAT)
    for x in r.protected:
        if cands.bit_count() > 1 and cands >> x & 1:
            cands &= ~(1 << x)
    return cands
