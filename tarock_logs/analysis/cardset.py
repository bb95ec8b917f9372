"""Card ids and masks for the solver, and thin callers of the engine's card rules.

A card's **id** is its index in the Slovenian pack (``tarock_logs.cards.PACKS``, the ids of
``tarock_logs/_native/cards.h`` too: ``T1`` … ``T22`` are ids 0 … 21, then eight ids per
suit from the king down to the weakest pip); a set of cards is an ``int`` with bit ``id`` set
for each card. Card points are counted in **thirds** (spec 2.4): a card worth ``v`` counts
``3v − 2``.

No rule lives here. The rules have two homes (docs/architecture.md): the reference,
:class:`~tarock_logs.rules.slovenian.tricks.PlayRules` and
:func:`~tarock_logs.rules.slovenian.tricks.winner_index` (which the pure-Python solver calls
through :func:`legal` and :func:`winner`, translating masks to card tokens), and the native
``_native/cards.h`` (``tk_legal``, ``tk_winner``: the native solver's move generation, held
equal to the reference by tests/analysis/test_cardset.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from tarock_logs.cards import CARDS, PACKS
from tarock_logs.rules.slovenian import tricks

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
THIRDS: Final[tuple[int, ...]] = tuple(tricks.thirds((c,)) for c in CARD)
#: per suit index: the mask of its cards
SUIT_MASK: Final[tuple[int, ...]] = tuple(
    sum(1 << i for i, s in enumerate(SUIT_OF) if s == k) for k in range(5)
)
PAGAT: Final = CID[tricks.PAGAT]
MOND: Final = CID[tricks.MOND]
SKIS: Final = CID[tricks.SKIS]
TAROKS: Final = SUIT_MASK[0]
TRULA: Final = sum(1 << CID[c] for c in tricks.TRULA)
KINGS: Final = sum(1 << CID[k] for k in tricks.KINGS)
#: the plain taroks T2 … T20: one point each, no bonus
PLAIN_TAROKS: Final = TAROKS & ~TRULA


def bits(mask: int) -> list[int]:
    """The ids in ``mask``, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def tokens(mask: int) -> list[str]:
    """The card tokens of ``mask``, lowest id first."""
    return [CARD[c] for c in bits(mask)]


def mask_of(cards: Iterable[str]) -> int:
    """The mask of card tokens (``KeyError`` for a token outside the pack)."""
    m = 0
    for c in cards:
        m |= 1 << CID[c]
    return m


def ids_of(cards: Iterable[str]) -> list[int]:
    return [CID[c] for c in cards]


def thirds(mask: int) -> int:
    """Card points of the pile ``mask`` in thirds (the engine's
    :func:`~tarock_logs.rules.slovenian.tricks.thirds`)."""
    return tricks.thirds(tokens(mask))


@dataclass(frozen=True, slots=True)
class CardRules:
    """The legal-card rules of one hand: the fields of the engine's ``PlayRules`` and the
    announced ultimo cards protected from early play (ids, pagat first, then the called king).
    Data only: :func:`legal` asks the engine's ``PlayRules`` (:meth:`play_rules`)."""

    negative: bool
    pagat_restricted: bool
    pagat_last_tarok: bool
    by_rank: bool
    emperor_always: bool
    colour_valat: bool
    protected: tuple[int, ...] = ()
    #: only protected cards legal: either may be played (else the pagat is kept, spec 8.4(c))
    protect_either: bool = True

    def play_rules(self) -> tricks.PlayRules:
        """The engine's rules object for these fields."""
        return _play_rules(self)


@lru_cache(maxsize=64)
def _play_rules(r: CardRules) -> tricks.PlayRules:
    return tricks.PlayRules(
        negative=r.negative, pagat_restricted=r.pagat_restricted,
        pagat_last_tarok=r.pagat_last_tarok, by_rank=r.by_rank,
        emperor_always=r.emperor_always, colour_valat=r.colour_valat,
        protect_either=r.protect_either,
    )  # fmt: skip


def legal(hand: int, trick: Sequence[int], r: CardRules) -> int:
    """The mask of legal cards of ``hand`` given the trick so far: the engine's
    ``PlayRules.legal`` (spec 8.3–8.4) on the cards' tokens."""
    cards, _ = _play_rules(r).legal(
        set(tokens(hand)), [CARD[c] for c in trick], tuple(CARD[c] for c in r.protected)
    )
    return mask_of(cards)


def winner(trick: Sequence[int], colour_valat: bool) -> int:
    """Index (in playing order) of the card that wins the trick of card ids ``trick``: the
    engine's :func:`~tarock_logs.rules.slovenian.tricks.winner_index` (spec 8.2)."""
    return tricks.winner_index([CARD[c] for c in trick], colour_valat)
