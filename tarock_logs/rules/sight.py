"""What one player sees of a hand at one moment, in the same shape for every game.

Each game's ``view`` module (``tarock_logs/rules/<game>/view.py``) answers two questions in
its engine's own terms, and nothing else:

* :func:`sight`-style: **what a seat sees** at a card of the play (a :class:`Sight`): where
  the cards it cannot see truly are (its *places*: the other hands, discards or talon cards
  it has not seen), the **restrictions** the play and the bidding put on them (a set of cards
  allowed only in, or never in, some places, with the reason: a void shown by failing to
  follow suit, a called card its caller does not hold, a card the deal gives to a fixed
  seat), **counts** (how many of some cards a place holds: what a Meldung declared), and a
  **check** of a whole layout (the engine replays what was seen on the layout's
  deal: every action that was clean must be clean again, which brings in what announcements,
  Meldungen and the play rules tell of the hands);
* a hand with a **layout** dealt (the hidden cards put in the places a sample gave them),
  at the same moment, for the solver (:attr:`Sight.deal`).

The analysis (:mod:`tarock_logs.analysis.knowledge`) turns a :class:`Sight` into masks and
samples layouts uniformly among those consistent with it. This module is generic: it never
names a game.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = [
    "Count",
    "Layout",
    "Redeal",
    "Restriction",
    "Sight",
    "card_voids",
    "in_order",
    "played_cards",
]

#: a layout: per place (``seat 2``, ``discards``, ``talon``, ...) the hidden cards it holds
Layout = Mapping[str, Sequence[str]]


@dataclass(frozen=True, slots=True)
class Restriction:
    """``cards`` may lie only in ``places`` (``exclude``: anywhere but in ``places``)."""

    cards: tuple[str, ...]
    places: frozenset[str]
    why: str
    exclude: bool = False


@dataclass(frozen=True, slots=True)
class Count:
    """``place`` holds a number of the hidden ``cards`` in ``allowed`` (a Meldung's count of
    a suit, at least one of some cards, at least three tarocks)."""

    place: str
    cards: tuple[str, ...]
    allowed: frozenset[int]
    why: str


@dataclass(frozen=True, slots=True)
class Sight:
    """What ``seat`` sees (see the module docstring). ``places`` are the true places of the
    cards it cannot see, in a fixed order; ``order`` is the pack's card order."""

    seat: int
    places: tuple[tuple[str, tuple[str, ...]], ...]
    restrictions: tuple[Restriction, ...] = ()
    #: the check of a whole layout (None: none beyond the restrictions)
    check: Callable[[Layout], bool] | None = None
    #: the hand at the same moment with a layout dealt (a new engine state)
    deal: Callable[[Layout], Any] | None = None
    order: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    #: how many of some cards a place holds
    counts: tuple[Count, ...] = ()


def in_order(cards: Iterable[str], order: Sequence[str]) -> tuple[str, ...]:
    """``cards`` sorted in the pack's ``order``."""
    pos = {c: i for i, c in enumerate(order)}
    return tuple(sorted(cards, key=pos.__getitem__))


def played_cards(
    tricks: Iterable[Iterable[tuple[int, str]]],
) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every card played so far, from the tricks' ``(seat, card)`` plays (the unfinished trick
    last): ``(seat, card, the cards of its trick before it)``."""
    out = []
    for t in tricks:
        before: list[str] = []
        for s, c in t:
            out.append((s, c, tuple(before)))
            before.append(c)
    return out


def card_voids(
    plays: Iterable[tuple[int, str, Any, Any]],
    hidden: Iterable[str],
    legal: Callable[[Sequence[str], Any, Any], Iterable[str]],
) -> list[Restriction]:
    """The voids a player showed by the cards he played: for each legal card ``card`` that
    ``seat`` played to ``before`` (``(seat, card, before, moment)``), a hidden card ``x``
    with which ``card`` would not have been legal (the game's ``legal(hand, before,
    moment)`` on the hand ``{card, x}``) was not in his hand then, so it is not now: he
    failed to follow that suit, to play a tarock, to lead a suit card, to play a card due in
    that trick. Sound for rules under which a card illegal beside ``x`` stays illegal in
    every larger hand that holds ``x`` (following suit, trump compulsion, bound cards)."""
    out: list[Restriction] = []
    xs = tuple(hidden)
    for seat, card, before, moment in plays:
        never = tuple(x for x in xs if x != card and card not in set(legal((card, x), before,
                                                                           moment)))  # fmt: skip
        if never:
            out.append(Restriction(never, frozenset({f"seat {seat}"}),
                                   f"seat {seat} showed he held none of {' '.join(never)}",
                                   exclude=True))  # fmt: skip
    return out


def _errors(found: Iterable[object]) -> frozenset[str]:
    return frozenset(str(getattr(v, "code", "")) for v in found
                     if getattr(v, "severity", "error") == "error")  # fmt: skip


class Redeal:
    """The check of a layout by the engine: ``build(dealt)`` makes a fresh hand of the same
    game with the hands ``dealt``; every action of ``actions`` that raised no error on the
    true deal must raise none on the layout's deal, and the hand-level findings
    (``hand_findings``, the deal's own checks) may add no error the true deal did not have.
    The hand rebuilt for the last layout checked is kept (:meth:`hand`)."""

    def __init__(self, build: Callable[[Sequence[Sequence[str]]], Any],
                 actions: Sequence[Any], truth: Sequence[Sequence[str]]) -> None:  # fmt: skip
        self.build = build
        self.actions = tuple(actions)
        self.clean: list[bool] = []
        h = build(truth)
        for a in self.actions:
            self.clean.append(not _errors(h.push(a)))
        self.deal_errors = _errors(getattr(h, "hand_findings", lambda: ())())
        self._last: tuple[tuple[tuple[str, ...], ...], Any, bool] | None = None

    def replay(self, dealt: Sequence[Sequence[str]]) -> tuple[Any, bool]:
        """The hand with ``dealt`` after the actions, and whether it is consistent."""
        key = tuple(tuple(sorted(d)) for d in dealt)
        if self._last is not None and self._last[0] == key:
            return self._last[1], self._last[2]
        h = self.build(dealt)
        ok = True
        for a, clean in zip(self.actions, self.clean, strict=True):
            found = h.push(a)
            if clean and _errors(found):
                ok = False  # the hand is left part-way: not for use
                break
        if ok and not _errors(getattr(h, "hand_findings", lambda: ())()) <= self.deal_errors:
            ok = False
        self._last = (key, h, ok)
        return h, ok
