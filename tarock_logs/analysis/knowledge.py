"""What a player knew at a card, and layouts sampled from it (every game with a view).

A value "with all cards visible" can call a card a mistake that was right on what the player
knew. openschafkopf (the Schafkopf analyser) answers this by **sampling**: the cards the player
could not see are dealt at random among the layouts consistent with everything he saw, each
sample is solved with all cards visible, and every legal card gets its mean value over the
samples. This module gives the two halves of that, for every game: the **view** of one player
at one moment (:func:`view_of`) and a **sampler** of the layouts consistent with it
(:class:`Sampler`); :mod:`tarock_logs.analysis.player` solves the samples.

**The view** is the game's: its engine's ``view`` module (``tarock_logs/rules/<game>/view.py``,
reached through the game's analysis plug-in, :meth:`~tarock_logs.analysis.games.GameAnalysis.
sight`) says what the seat saw, in the shape of :class:`~tarock_logs.rules.sight.Sight`: the
places of the hidden cards (other hands, discards, talon cards) with their true contents, the
restrictions on them (voids, cards a place must or cannot hold) and a check of a whole layout
(the play rules, or the engine replaying the hand on the layout's deal). Here it becomes a
:class:`View`: per hidden card a mask of its allowed places. A restriction the true layout
breaks (an illegal discard, a card the log let through) is not used and the view says so in
``notes``, as is a check the true layout fails: the true layout is always one of the
consistent ones.

**The sampler** is exact: cards with the same allowed holders form a class; the number of
layouts is counted by a dynamic programme over the classes and the holders' remaining room
(a class of ``m`` cards split ``x`` among its holders in ``m! / Π x!`` ways), and a layout is
drawn class by class, each split with probability proportional to its number of completions,
the class's cards then shuffled into the split. Every layout consistent with the restrictions
is equally likely. The check is applied by rejection (a rejected draw is drawn again, at
most ``max_tries`` times per sample), which keeps the draw uniform over the layouts that pass
it. The random numbers come from ``random.Random(seed)``: the same seed gives the same
samples. This module never names a game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from math import factorial
from typing import Any

from tarock_logs.rules.base import HandState
from tarock_logs.rules.sight import Layout, Sight

__all__ = ["NoLayout", "Sampler", "View", "make_view", "view_of"]


class NoLayout(RuntimeError):
    """No layout was found: none is consistent with the restrictions (never for a view taken
    from a hand, whose true layout is one), or none passed the check within the draws
    allowed."""


@dataclass(frozen=True, slots=True)
class View:
    """What player ``seat`` knew at one moment (see the module docstring)."""

    seat: int
    #: the hidden cards, in pack order
    hidden: tuple[str, ...]
    #: the places the hidden cards can be in: ``seat S``, ``discards``, ``talon``, ``talon I``
    holders: tuple[str, ...]
    #: how many hidden cards each place holds
    sizes: tuple[int, ...]
    #: per hidden card, a bit mask of the holders allowed for it
    allowed: tuple[int, ...]
    #: the true layout (per holder, its hidden cards)
    truth: tuple[tuple[str, ...], ...]
    #: the check of a whole layout beyond the masks (the game's; None: none)
    check: Callable[[Layout], bool] | None = None
    #: the hand at the same moment with a layout dealt (the game's)
    dealer: Callable[[Layout], Any] | None = None
    #: the pack's card order (layouts list their cards in it)
    order: tuple[str, ...] = ()
    #: restrictions the true layout broke, not used
    notes: tuple[str, ...] = ()
    #: quotas: (holder, a set of cards, the numbers of them the holder may hold)
    quotas: tuple[tuple[int, frozenset[str], frozenset[int]], ...] = ()

    def holder_index(self, name: str) -> int:
        return self.holders.index(name)

    def layout(self, cards: Sequence[Sequence[str]]) -> dict[str, tuple[str, ...]]:
        """A layout as the game reads it: place name → its cards."""
        return {h: tuple(c) for h, c in zip(self.holders, cards, strict=True)}

    def fits(self, layout: Sequence[Sequence[str]]) -> bool:
        """Whether ``layout`` deals the hidden cards consistently with the view: the sizes,
        the allowed holders and the check."""
        if len(layout) != len(self.holders):
            return False
        where: dict[str, int] = {}
        for k, cards in enumerate(layout):
            if len(cards) != self.sizes[k]:
                return False
            for c in cards:
                if c in where:
                    return False
                where[c] = k
        if set(where) != set(self.hidden):
            return False
        for c, a in zip(self.hidden, self.allowed, strict=True):
            if not a >> where[c] & 1:
                return False
        for h, these, ok in self.quotas:
            if sum(c in these for c in layout[h]) not in ok:
                return False
        return self.plays_fit(layout)

    def plays_fit(self, layout: Sequence[Sequence[str]]) -> bool:
        """The game's check of a whole layout (the play rules, the bidding)."""
        return self.check is None or self.check(self.layout(layout))

    def deal(self, layout: Sequence[Sequence[str]]) -> HandState:
        """The hand at the view's moment with ``layout`` dealt (a new engine state)."""
        if self.dealer is None:
            raise NoLayout("the game gives no hand for a layout")
        hand: HandState = self.dealer(self.layout(layout))
        return hand


def make_view(sight: Sight) -> View:
    """The masks of a game's :class:`~tarock_logs.rules.sight.Sight` (see the module
    docstring): restrictions the true layout breaks are dropped with a note, and so is a
    check the true layout fails."""
    pos = {c: i for i, c in enumerate(sight.order)}

    def ordered(cards: Iterable[str]) -> tuple[str, ...]:
        return tuple(sorted(cards, key=lambda c: pos.get(c, len(pos))))

    places = {name: tuple(cards) for name, cards in sight.places if cards}
    holders = tuple(places)
    idx = {k: i for i, k in enumerate(holders)}
    sizes = tuple(len(places[k]) for k in holders)
    hidden = ordered(x for v in places.values() for x in v)
    true_at = {x: idx[k] for k, v in places.items() for x in v}
    full = (1 << len(holders)) - 1
    allowed = dict.fromkeys(hidden, full)
    notes = list(sight.notes)
    for r in sight.restrictions:
        mask = 0
        for name in r.places:
            if name in idx:
                mask |= 1 << idx[name]
        if r.exclude:
            mask = full & ~mask
        cards = [x for x in r.cards if x in allowed]
        if any(not mask >> true_at[x] & 1 for x in cards):
            notes.append(f"{r.why}: the cards do not agree, not used")
            continue
        for x in cards:
            allowed[x] &= mask
    quotas: list[tuple[int, frozenset[str], frozenset[int]]] = []
    for qu in sight.counts:
        if qu.place not in idx:
            continue
        these = frozenset(qu.cards) & set(hidden)
        if sum(x in these for x in places[qu.place]) not in qu.allowed:
            notes.append(f"{qu.why}: the cards do not agree, not used")
            continue
        quotas.append((idx[qu.place], these, frozenset(qu.allowed)))
    truth = tuple(ordered(places[k]) for k in holders)
    v = View(sight.seat, hidden, holders, sizes, tuple(allowed[x] for x in hidden), truth,
             sight.check, sight.deal, tuple(sight.order), tuple(notes), tuple(quotas))  # fmt: skip
    if not v.plays_fit(truth):
        why = "the earlier cards do not replay: the play check is not used"
        v = View(v.seat, hidden, holders, sizes, v.allowed, truth, None, sight.deal,
                 tuple(sight.order), (*notes, why), tuple(quotas))  # fmt: skip
    return v


def view_of(h: HandState, seat: int, illegal: Iterable[str] = ()) -> View:
    """The view of ``seat`` in the card play of ``h`` (the engine at that moment, with every
    hand), by the game's analysis plug-in; ``illegal``: cards played so far that the engine
    judged illegal (they tell nothing about the hand they came from). :class:`~tarock_logs.
    analysis.position.Unsupported` when the game has no view."""
    from tarock_logs.analysis.games import analysis_for_state

    return make_view(analysis_for_state(h).sight(h, seat, tuple(illegal)))


# ---------------------------------------------------------------------- counting and drawing


def _splits(m: int, holders: tuple[int, ...], room: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every way to put ``m`` cards into ``holders`` (indices) within ``room``: a tuple of
    counts per holder of ``holders``."""
    if not holders:
        if m == 0:
            yield ()
        return
    first, rest = holders[0], holders[1:]
    if not rest:
        if m <= room[first]:
            yield (m,)
        return
    cap = sum(room[k] for k in rest)
    for x in range(max(0, m - cap), min(m, room[first]) + 1):
        for tail in _splits(m - x, rest, room):
            yield (x, *tail)


@dataclass(slots=True)
class Sampler:
    """Uniform layouts of a :class:`View`'s hidden cards (see the module docstring). The
    state of the count is the room left per holder, then the cards of each quota's set put
    in its holder so far (capped one above the quota's largest allowed number)."""

    view: View
    #: draws that failed the check, over all samples so far
    rejected: int = 0
    #: per class: its holders, its cards, the quotas whose set holds its cards
    _classes: list[tuple[tuple[int, ...], tuple[str, ...], tuple[int, ...]]] = field(
        default_factory=list
    )
    _memo: dict[tuple[int, tuple[int, ...]], int] = field(default_factory=dict)
    _splits_memo: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = field(
        default_factory=dict
    )
    _pos: dict[str, int] = field(default_factory=dict)

    def __post_init__(self) -> None:
        quotas = self.view.quotas
        groups: dict[tuple[int, tuple[int, ...]], list[str]] = {}
        for x, a in zip(self.view.hidden, self.view.allowed, strict=True):
            member = tuple(q for q, (_, cards, _) in enumerate(quotas) if x in cards)
            groups.setdefault((a, member), []).append(x)
        n = len(self.view.holders)
        self._classes = [(tuple(k for k in range(n) if a >> k & 1), tuple(cs), member)
                         for (a, member), cs in sorted(groups.items())]  # fmt: skip
        self._memo = {}
        self._splits_memo = {}
        order = self.view.order or self.view.hidden
        self._pos = {c: i for i, c in enumerate(order)}
        for c in self.view.hidden:
            self._pos.setdefault(c, len(self._pos))

    def _start(self) -> tuple[int, ...]:
        return (*self.view.sizes, *(0 for _ in self.view.quotas))

    def count(self) -> int:
        """The number of layouts consistent with the view's restrictions and quotas (before
        the check)."""
        return self._count(0, self._start())

    def _count(self, k: int, state: tuple[int, ...]) -> int:
        """Layouts of classes ``k`` … from ``state`` (memoised)."""
        got = self._memo.get((k, state))
        if got is not None:
            return got
        if k == len(self._classes):
            n = len(self.view.holders)
            total = int(not any(state[:n]) and all(
                state[n + q] in ok for q, (_, _, ok) in enumerate(self.view.quotas)))  # fmt: skip
        else:
            holders, cards, _ = self._classes[k]
            total = 0
            for x in _splits(len(cards), holders, state):
                total += self._ways(cards, x) * self._count(k + 1, self._less(state, k, x))
        self._memo[(k, state)] = total
        return total

    @staticmethod
    def _ways(cards: tuple[str, ...], x: tuple[int, ...]) -> int:
        w = factorial(len(cards))
        for v in x:
            w //= factorial(v)
        return w

    def _less(self, state: tuple[int, ...], k: int, x: tuple[int, ...]) -> tuple[int, ...]:
        holders, _, member = self._classes[k]
        r = list(state)
        for h, v in zip(holders, x, strict=True):
            r[h] -= v
        n = len(self.view.holders)
        for q in member:
            h, _, ok = self.view.quotas[q]
            if h in holders:
                r[n + q] = min(r[n + q] + x[holders.index(h)], max(ok) + 1)
        return tuple(r)

    def _weighted(self, k: int, state: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """The splits of class ``k`` from ``state``, each with its number of layouts."""
        got = self._splits_memo.get((k, state))
        if got is None:
            holders, cards, _ = self._classes[k]
            got = [(x, self._ways(cards, x) * self._count(k + 1, self._less(state, k, x)))
                   for x in _splits(len(cards), holders, state)]  # fmt: skip
            self._splits_memo[(k, state)] = got
        return got

    def draw(self, rng: random.Random) -> tuple[tuple[str, ...], ...]:
        """One layout, uniform over those consistent with the restrictions and quotas (no
        check)."""
        state = self._start()
        if self._count(0, state) == 0:
            raise NoLayout("no layout is consistent with the view")
        out: list[list[str]] = [[] for _ in self.view.holders]
        for k, (holders, cards, _) in enumerate(self._classes):
            pick = rng.randrange(self._count(k, state))
            chosen: tuple[int, ...] = ()
            for x, w in self._weighted(k, state):
                if pick < w:
                    chosen = x
                    break
                pick -= w
            deck = list(cards)
            rng.shuffle(deck)
            at = 0
            for h, v in zip(holders, chosen, strict=True):
                out[h] += deck[at : at + v]
                at += v
            state = self._less(state, k, chosen)
        pos = self._pos
        return tuple(tuple(sorted(cs, key=pos.__getitem__)) for cs in out)

    def sample(self, rng: random.Random, max_tries: int = 1000) -> tuple[tuple[str, ...], ...]:
        """One layout, uniform over those consistent with the view (restrictions, quotas and
        check), by rejection: at most ``max_tries`` draws (:class:`NoLayout` past them)."""
        for _ in range(max_tries):
            layout = self.draw(rng)
            if self.view.plays_fit(layout):
                return layout
            self.rejected += 1
        raise NoLayout(f"no layout passed the check in {max_tries} draws")

    def samples(self, n: int, seed: int | str) -> list[tuple[tuple[str, ...], ...]]:
        """``n`` layouts drawn with ``random.Random(seed)`` (the same seed, the same layouts)."""
        rng = random.Random(seed)
        return [self.sample(rng) for _ in range(n)]
