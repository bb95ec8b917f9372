"""Trick play of Zwanzigerrufen as pure functions (spec §6).

* **Farbzwang** (follow suit): a player must follow the suit led if he can.
* **Tarockzwang** (tarock compulsion): void in the led suit, he must play a tarock if he holds
  one; only a player without tarocks may discard (a card of another suit).
* There is no duty to win the trick (no Stichzwang).
* In a **Farbensolo** (suit solo) tarocks are not trumps: a leader who still holds suit cards
  must lead one, and a suit-led trick is won by the highest card of the led suit.
* **Märchenstich** (fairy-tale trick): when Sküs (``T22``), Mond (``T21``) and Pagat (``T1``)
  fall in one trick, the Pagat wins it.
* **Mondfang**: the Mond is captured by the Sküs (never in a Märchenstich trick).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from tarock_logs.cards import CARDS

NORMAL: Final = "normal"
FARBENSOLO: Final = "farbensolo"
SOLO: Final = "solo"

PAGAT: Final = "T1"
MOND: Final = "T21"
SKUS: Final = "T22"
TRULL_CARDS: Final = frozenset({PAGAT, MOND, SKUS})
KING_CARDS: Final = frozenset({"HK", "DK", "SK", "CK"})
CALLABLE: Final = ("T20", "T19", "T18", "T17", "T16")  # the call goes down from XX to XVI

TOTAL_POINTS: Final = 88
GAME_THRESHOLD: Final = 45
ABSOLUT_LIMIT: Final = 32


def is_tarock(card: str) -> bool:
    return card.startswith("T")


def suit_of(card: str) -> str:
    """``"T"`` for tarocks, else the suit letter."""
    return "T" if card.startswith("T") else card[0]


def strength(card: str) -> int:
    """Rank within the card's suit: tarock number; K > Q > N > J > G for suit cards."""
    return CARDS[card].strength


def points(card: str) -> int:
    """Card points (§2.4): Trull cards and kings 5, queens 4, knights 3, jacks 2, other
    tarocks 1, Glatzen 0."""
    return CARDS[card].points


def pile_points(cards: Iterable[str]) -> int:
    return sum(CARDS[c].points for c in cards)


def suit_cards(hand: Iterable[str]) -> list[str]:
    return [c for c in hand if not c.startswith("T")]


def _compulsion(value: Any) -> Any:
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def legal_cards(
    hand: Sequence[str],
    led: Sequence[str],
    contract: str | None,
    farbensolo_tarock_compulsion: Any = True,
) -> list[str]:
    """The cards of ``hand`` that may be played to a trick holding ``led`` (first = led card).

    §6.2 (leading) and §6.3 (following); the order of ``hand`` is kept.
    """
    if not led:
        if contract == FARBENSOLO:
            # §6.2: in a Farbensolo a leader who holds a suit card must lead one.
            suits = suit_cards(hand)
            if suits:
                return suits
        return list(hand)
    # (a token's first letter is its suit: T for the tarocks, H D S C for the suits)
    led_suit = led[0][0]
    taroks = [c for c in hand if c[0] == "T"]
    if led_suit == "T":
        # §6.3.2: a tarock lead is followed by a tarock while one is held.
        return taroks or list(hand)
    same = [c for c in hand if c[0] == led_suit]
    if same:
        return same  # §6.3.1: follow suit (Farbzwang)
    if contract == FARBENSOLO:
        mode = _compulsion(farbensolo_tarock_compulsion)
        if mode is False:
            return list(hand)  # A31 alternative: no compulsion in the suit solo
        if mode == "suit_first":
            others = suit_cards(hand)  # A39 reading (b): other suits before tarocks
            return others or taroks or list(hand)
    return taroks or list(hand)  # tarock compulsion (Tarockzwang), else free discard


def is_maerchenstich(cards: Sequence[str], rule: str = "any_order") -> bool:
    """True when Sküs, Mond and Pagat meet in ``cards`` (in playing order) under ``rule``."""
    if rule == "off" or not TRULL_CARDS.issubset(cards):
        return False
    if rule == "fixed_order":
        return cards.index(MOND) < cards.index(SKUS) < cards.index(PAGAT)
    return True


def winner_index(
    cards: Sequence[str], contract: str | None, maerchenstich: str = "any_order"
) -> int:
    """Index (0 = leader) of the card that wins the trick ``cards`` (§6.4)."""
    first = cards[0]
    if contract == FARBENSOLO and not first.startswith("T"):
        # Suit lead in a suit solo: only the led suit can win; tarocks are not trumps.
        return _highest_of_suit(cards, first[0])
    if is_maerchenstich(cards, maerchenstich):
        return cards.index(PAGAT)
    best = -1
    best_i = -1
    for i, c in enumerate(cards):
        if c.startswith("T") and CARDS[c].strength > best:
            best, best_i = CARDS[c].strength, i
    if best_i >= 0:
        return best_i
    return _highest_of_suit(cards, first[0])


def _highest_of_suit(cards: Sequence[str], suit: str) -> int:
    best_i = 0
    best = -1
    for i, c in enumerate(cards):
        if not c.startswith("T") and c[0] == suit and CARDS[c].strength > best:
            best, best_i = CARDS[c].strength, i
    return best_i


@dataclass(frozen=True, slots=True)
class Trick:
    """A completed trick: the cards in playing order as ``(seat, card)``, its winner and points.

    ``mondfang`` is ``(mond_owner, capturer)`` when the Sküs captured the Mond here.
    """

    number: int  # 1..10
    leader: int
    cards: tuple[tuple[int, str], ...]
    winner: int
    points: int
    maerchenstich: bool
    mondfang: tuple[int, int] | None

    def to_view(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "leader": self.leader,
            "cards": [[s, c] for s, c in self.cards],
            "winner": self.winner,
            "points": self.points,
            "maerchenstich": self.maerchenstich,
            "mondfang": list(self.mondfang) if self.mondfang else None,
        }


def close_trick(
    number: int, cards: Sequence[tuple[int, str]], contract: str | None, maerchenstich: str
) -> Trick:
    """Decide a full trick: winner, card points, Märchenstich and Mondfang (§6.4, §6.5)."""
    only = [c for _, c in cards]
    wi = winner_index(only, contract, maerchenstich)
    winner = cards[wi][0]
    maerchen = is_maerchenstich(only, maerchenstich) and only[wi] == PAGAT
    mondfang = None
    if only[wi] == SKUS and MOND in only:
        mondfang = (cards[only.index(MOND)][0], winner)
    # (positional: number, leader, cards, winner, points, maerchenstich, mondfang)
    return Trick(number, cards[0][0], tuple(cards), winner, pile_points(only), maerchen, mondfang)
