"""The Slovenian pack as small ints and bitmasks, for the bulk-audit fast path (pure stdlib).

A card's **id** is its index in the pack (``T1`` … ``T22``, then the suit cards, the order of
:data:`~tarock_logs.rules.slovenian.tricks.PACK`); a set of cards (a hand, a trick, a pile) is
an ``int`` with bit ``id`` set for each card. The tables here answer per card id what the
reference answers per token: the suit, the strength, the card points in thirds (spec 2.4), and
for a pile mask its card points (:func:`mask_thirds`, byte-wise table sums).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import reduce
from operator import or_
from typing import Final

from tarock_logs.rules.slovenian.tricks import _THIRDS as _THIRDS_BY_TOKEN
from tarock_logs.rules.slovenian.tricks import KINGS, MOND, PACK, PAGAT, SKIS, STRENGTH, SUIT

__all__ = [
    "BIT",
    "CARD",
    "CID",
    "INFO",
    "KINGS_MASK",
    "MOND_BIT",
    "MOND_ID",
    "PAGAT_BIT",
    "PAGAT_ID",
    "SKIS_BIT",
    "STR",
    "SUIT_MASK",
    "SUIT_OF",
    "TAROKS",
    "THIRDS",
    "TRULA_MASK",
    "cards_of",
    "mask_of",
    "mask_thirds",
]

#: card id → token, and token → card id / single-card bitmask
CARD: Final[tuple[str, ...]] = tuple(PACK)
CID: Final[dict[str, int]] = {c: i for i, c in enumerate(PACK)}
BIT: Final[dict[str, int]] = {c: 1 << i for i, c in enumerate(PACK)}
_SUIT_INDEX: Final = {"T": 0, "H": 1, "D": 2, "S": 3, "C": 4}
#: per card id: its suit index (0 = taroks, then H D S C)
SUIT_OF: Final[tuple[int, ...]] = tuple(_SUIT_INDEX[SUIT[c]] for c in PACK)
#: per suit index: the bitmask of its cards
SUIT_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << i for i, c in enumerate(PACK) if _SUIT_INDEX[SUIT[c]] == s) for s in range(5)
)
TAROKS: Final = SUIT_MASK[0]
#: per card id: its strength inside its suit (spec 8.2)
STR: Final[tuple[int, ...]] = tuple(STRENGTH[c] for c in PACK)
#: per card id: its share of a pile's card points in thirds (3·value − 2, spec 2.4)
THIRDS: Final[tuple[int, ...]] = tuple(_THIRDS_BY_TOKEN[c] for c in PACK)
#: token → (card id, bitmask, suit index): what the card loop asks of each card, in one look-up
INFO: Final[dict[str, tuple[int, int, int]]] = {
    c: (i, 1 << i, SUIT_OF[i]) for i, c in enumerate(PACK)
}
PAGAT_ID: Final = CID[PAGAT]
MOND_ID: Final = CID[MOND]
PAGAT_BIT: Final = 1 << PAGAT_ID
MOND_BIT: Final = 1 << MOND_ID
SKIS_BIT: Final = 1 << CID[SKIS]
TRULA_MASK: Final = PAGAT_BIT | MOND_BIT | SKIS_BIT
KINGS_MASK: Final = sum(BIT[k] for k in KINGS)

#: per byte position (bits 8i … 8i+7): the thirds of every byte value
_BYTE_THIRDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        sum(THIRDS[8 * i + b] for b in range(8) if v >> b & 1 and 8 * i + b < len(PACK))
        for v in range(256)
    )
    for i in range((len(PACK) + 7) // 8)
)


def mask_of(cards: Iterable[str]) -> int:
    """The bitmask of ``cards`` (tokens of the pack; a ``KeyError`` for any other)."""
    return reduce(or_, map(BIT.__getitem__, cards), 0)


def cards_of(mask: int) -> set[str]:
    """The tokens of the cards in ``mask``."""
    return {CARD[i] for i in range(len(CARD)) if mask >> i & 1}


def mask_thirds(mask: int) -> int:
    """Card points of the pile ``mask`` in thirds: :func:`.tricks.thirds` of its cards."""
    b0, b1, b2, b3, b4, b5, b6 = _BYTE_THIRDS
    return (
        b0[mask & 255]
        + b1[mask >> 8 & 255]
        + b2[mask >> 16 & 255]
        + b3[mask >> 24 & 255]
        + b4[mask >> 32 & 255]
        + b5[mask >> 40 & 255]
        + b6[mask >> 48 & 255]
    )
