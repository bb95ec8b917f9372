"""The card-id codec the Python side shares with the native engine (no rules here).

A card's **id** is its index in the Slovenian pack (``T1`` … ``T22``, then the suit cards, the
order of :data:`~tarock_logs.rules.slovenian.tricks.PACK`), the numbering of
``_native/cards.h``. :func:`check_native` holds the two sides to one numbering: the native
core's per-id table (suit, strength, card points) must be the engine's.
"""

from __future__ import annotations

from types import ModuleType
from typing import Final

from tarock_logs.rules.slovenian.tricks import PACK, POINTS, STRENGTH, SUIT

__all__ = ["CARD", "CID", "check_native"]

#: card id → token, and token → card id
CARD: Final[tuple[str, ...]] = tuple(PACK)
CID: Final[dict[str, int]] = {c: i for i, c in enumerate(PACK)}
_SUITS: Final = "THDSC"


def check_native(core: ModuleType) -> bool:
    """Whether the native core numbers the cards as :data:`CARD` does (its ``tables()``: per
    card id the suit index, the strength inside the suit, the card points)."""
    want = tuple((_SUITS.index(SUIT[c]), STRENGTH[c], POINTS[c]) for c in CARD)
    got: tuple[tuple[int, int, int], ...] = core.tables()
    return got == want
