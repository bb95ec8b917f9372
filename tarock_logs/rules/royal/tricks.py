"""Trick play of Royal Tarock: which cards may be played, who wins a trick (royal-tarock.md §6).

Tarocks are a fifth suit for following and beat every suit card; the Sküs (``T22``) is the
highest tarock and there is no Pagat exception (§2.3). A player follows suit, else plays a
tarock, else anything; he need not overtake (§6.1). On top of that come the duties of **bound
cards** (§6.2): once a pair has announced a *behaltpflichtig* Schlemm (a trick to be won with a
given card), the holder of that card must keep it for its trick, may play it earlier only when
he has no other choice, and then must play the card bound most recently.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tarock_logs.cards import CARDS


def suit_of(card: str) -> str:
    """``T`` for a tarock, else the suit letter."""
    return card[0]


def strength(card: str) -> int:
    """Order within the card's own suit (higher wins); tarocks by their number."""
    return CARDS[card].strength


def trick_winner(cards: Sequence[tuple[int, str]]) -> int:
    """The seat that wins a complete trick given as ``(seat, card)`` in play order (§6.3)."""
    taroks = [(strength(c), s) for s, c in cards if c[0] == "T"]
    if taroks:
        return max(taroks)[1]
    led = cards[0][1][0]
    return max((strength(c), s) for s, c in cards if c[0] == led)[1]


def winning_card(cards: Sequence[tuple[int, str]]) -> str:
    w = trick_winner(cards)
    return next(c for s, c in cards if s == w)


def suit_legal(hand: Iterable[str], trick: Sequence[tuple[int, str]]) -> set[str]:
    """Cards the suit rules allow: follow suit, else tarock, else anything (§6.1)."""
    held = set(hand)
    if not trick:
        return held
    led = trick[0][1][0]
    same = {c for c in held if c[0] == led}
    if same:
        return same
    tar = {c for c in held if c[0] == "T"}
    return tar if tar else held


def follows_suit_rules(hand: Sequence[str], trick: Sequence[tuple[int, str]], card: str) -> bool:
    """``card in suit_legal(hand, trick)`` without building sets (the replay's hot path)."""
    if not trick:
        return True
    led = trick[0][1][0]
    if card[0] == led:
        return True
    if any(c[0] == led for c in hand):
        return False
    return card[0] == "T" or not any(c[0] == "T" for c in hand)


@dataclass(frozen=True, slots=True)
class Bound:
    """One binding on a card: due in trick ``trick``, bound at bidding sequence ``seq``."""

    trick: int
    seq: int


@dataclass(frozen=True, slots=True)
class Judgement:
    """Which cards are legal now and why the others are not."""

    legal: frozenset[str]
    suit_legal: frozenset[str]
    due_now: frozenset[str]
    free: frozenset[str]


def judge(
    hand: Iterable[str],
    trick: Sequence[tuple[int, str]],
    trick_no: int,
    bindings: Mapping[str, Sequence[Bound]],
) -> Judgement:
    """The legal cards of §6.3 for a holder with ``bindings`` (card -> its bindings)."""
    sl = suit_legal(hand, trick)
    due = {c for c in sl if any(b.trick == trick_no for b in bindings.get(c, ()))}
    if due:  # a bound card goes into its own trick when it can
        return Judgement(frozenset(due), frozenset(sl), frozenset(due), frozenset())

    def pending(c: str) -> bool:  # bound to a later trick (a passed target frees it, §8.1/15a)
        return any(b.trick > trick_no for b in bindings.get(c, ()))

    free = {c for c in sl if not pending(c)}
    if free:  # bound cards may not be played early
        return Judgement(frozenset(free), frozenset(sl), frozenset(), frozenset(free))

    def last(c: str) -> int:
        return max(b.seq for b in bindings[c] if b.trick > trick_no)

    top = max(last(c) for c in sl)  # only bound cards: the most recently bound one(s)
    legal = frozenset(c for c in sl if last(c) == top)
    return Judgement(legal, frozenset(sl), frozenset(), frozenset())


def legal_cards(
    hand: Iterable[str],
    trick: Sequence[tuple[int, str]],
    trick_no: int,
    bindings: Mapping[str, Sequence[Bound]] | None = None,
) -> set[str]:
    """The set of cards the player may play now (royal-tarock.md §6.3)."""
    return set(judge(hand, trick, trick_no, bindings or {}).legal)
