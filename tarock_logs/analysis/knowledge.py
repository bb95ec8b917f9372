"""What a player knew at a card of Slovenian tarok, and layouts sampled from it.

A value "with all cards visible" can call a card a mistake that was right on what the player
knew. openschafkopf (the Schafkopf analyser) answers this by **sampling**: the cards the player
could not see are dealt at random among the layouts consistent with everything he saw, each
sample is solved with all cards visible, and every legal card gets its mean value over the
samples. This module gives the two halves of that: the **view** of one player at one moment
(:func:`view_of`) and a **sampler** of the layouts consistent with it (:class:`Sampler`);
:mod:`tarock_logs.analysis.player` solves the samples.

**The view.** A card's place is known to the viewer when it is in his own hand, was played,
lies in the talon of a contract with a talon exchange (the talon is turned up for everyone),
was shown when laid away (taroks), was laid away by the viewer himself (the declarer), is a
klop talon card already added to a trick, or is in the declarer's hand of an odprti berač
after the first trick. Every other card is **hidden**; its **holders** are the places it can
be in, with the true number of hidden cards each place holds: the other players' hands, the
declarer's discards (to everyone else), the talon of a contract without an exchange (unseen
until the end), the klop talon cards still to come (one place each, in order). What the viewer
saw constrains the places (each restriction is a set of holders allowed for a set of cards):

* a player who did not follow the suit led holds none of it; one who played neither the suit
  led nor a tarok holds no tarok either (follow suit and tarok compulsion hold in every
  contract; only plays the engine judged legal count, an illegal card tells nothing);
* the talon group the declarer took (everyone saw it) is in his hand or his discards;
* the discards hold no king and no trula card, and no unshown tarok (unless the ruleset lets
  taroks be laid away unshown when forced);
* announcements constrain through the protection rule only (an announced pagat or ultimo
  king is not played early unless forced: the play check below); the rulebook lets any member
  of a side announce an ultimo without holding the card, so its holder is not inferred;
* the called king: its holder is the declarer's partner (the declarer himself on a self-call),
  so every layout fixes the sides, and the objective is built from the layout.

A restriction the true layout breaks (an illegal discard) is not used and the view says so in
``notes``: the true layout is always one of the consistent ones. Finally the **play check**:
every earlier legal card of a hidden hand must be legal again when that hand is rebuilt from
the layout (the cards it holds now plus those it played since): this adds what the
overtaking rules of klop and berač, the pagat rule and the protected ultimo cards reveal.

**The sampler** is exact: cards with the same allowed holders form a class; the number of
layouts is counted by a dynamic programme over the classes and the holders' remaining room
(a class of ``m`` cards split ``x`` among its holders in ``m! / Π x!`` ways), and a layout is
drawn class by class, each split with probability proportional to its number of completions,
the class's cards then shuffled into the split. Every layout consistent with the restrictions
is equally likely. The play check is applied by rejection (a rejected draw is drawn again,
at most ``max_tries`` times per sample), which keeps the draw uniform over the layouts that
pass it. The random numbers come from ``random.Random(seed)``: the same seed gives the same
samples.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from math import factorial

from tarock_logs.cards import KINGS, PACKS, TRULA
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.hand import SlovenianHand, make_play_rules
from tarock_logs.rules.slovenian.tricks import SUIT, PlayRules

__all__ = ["NoLayout", "PlayCheck", "Sampler", "View", "apply_layout", "view_of"]


class NoLayout(RuntimeError):
    """No layout was found: none is consistent with the restrictions (never for a view taken
    from a hand, whose true layout is one), or none passed the play check within the draws
    allowed."""


_ORDER = {c: i for i, c in enumerate(PACKS["slovenian"])}


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(cards, key=_ORDER.__getitem__))


@dataclass(frozen=True, slots=True)
class PlayCheck:
    """One earlier legal card of a hidden hand: ``seat`` played ``card`` to ``trick`` (the
    cards before it), and has played ``since`` (this card included) from then on."""

    seat: int
    card: str
    trick: tuple[str, ...]
    since: tuple[str, ...]


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
    #: the earlier legal cards of hidden hands, checked on every layout
    checks: tuple[PlayCheck, ...] = ()
    rules: PlayRules | None = None
    protected: tuple[str, ...] = ()
    #: restrictions the true layout broke, not used
    notes: tuple[str, ...] = ()

    def holder_index(self, name: str) -> int:
        return self.holders.index(name)

    def fits(self, layout: Sequence[Sequence[str]]) -> bool:
        """Whether ``layout`` deals the hidden cards consistently with the view: the sizes,
        the allowed holders and the play check."""
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
        return self.plays_fit(layout)

    def plays_fit(self, layout: Sequence[Sequence[str]]) -> bool:
        """The play check: every earlier legal card of a hidden hand is legal again with the
        hand rebuilt from ``layout``."""
        if not self.checks or self.rules is None:
            return True
        now = {h: layout[k] for k, h in enumerate(self.holders) if h.startswith("seat ")}
        for pc in self.checks:
            held = now.get(f"seat {pc.seat}")
            if held is None:
                continue
            hand = set(held) | set(pc.since)
            legal, _ = self.rules.legal(hand, list(pc.trick), self.protected)
            if pc.card not in legal:
                return False
        return True


def _tricks_cards(h: SlovenianHand) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every card played so far: (seat, card, the cards of its trick before it)."""
    out = []
    for t in h.tricks:
        before: list[str] = []
        for s, c in t.cards:
            out.append((s, c, tuple(before)))
            before.append(c)
    before = []
    for s, c in h.trick:
        out.append((s, c, tuple(before)))
        before.append(c)
    return out


def view_of(h: SlovenianHand, seat: int, illegal: Iterable[str] = ()) -> View:
    """The view of ``seat`` in the card play of ``h`` (the engine at that moment, with every
    hand); ``illegal``: cards played so far that the engine judged illegal (they tell
    nothing about the hand they came from)."""
    bad = set(illegal)
    c = h.contract or "klop"
    row = CONTRACTS[c]
    d = h.declarer
    klop = c == "klop"
    exchange = bool(row.talon) and d is not None and not klop
    # ---- the true places of the hidden cards
    places: dict[str, list[str]] = {}
    for s in h.active:
        if s == seat:
            continue
        if c == "odprti_berac" and s == d and h.tricks:
            continue
        places[f"seat {s}"] = _sorted(h.hands[s])  # type: ignore[assignment]
    if exchange and seat != d:
        places["discards"] = [x for x in h.discards if x not in h.shown]
    if klop:
        for i in range(len(h.tricks), len(h.talon)):
            places[f"talon {i}"] = [h.talon[i]]
    elif not exchange:
        places["talon"] = list(h.talon)
    places = {k: list(v) for k, v in places.items() if v}
    holders = tuple(places)
    idx = {k: i for i, k in enumerate(holders)}
    sizes = tuple(len(places[k]) for k in holders)
    hidden = _sorted(x for v in places.values() for x in v)
    true_at = {x: idx[k] for k, v in places.items() for x in v}
    full = (1 << len(holders)) - 1
    allowed = dict.fromkeys(hidden, full)
    notes: list[str] = []

    def restrict(cards: Iterable[str], mask: int, why: str) -> None:
        cards = [x for x in cards if x in allowed]
        if any(not mask >> true_at[x] & 1 for x in cards):
            notes.append(f"{why}: the cards do not agree, not used")
            return
        for x in cards:
            allowed[x] &= mask

    def seat_bit(s: int | None) -> int:
        k = idx.get(f"seat {s}")
        return 0 if k is None else 1 << k

    # ---- voids shown by failing to follow suit (and failing to play a tarok)
    played = _tricks_cards(h)
    for s, card, before in played:
        if not before or card in bad or f"seat {s}" not in idx:
            continue
        led = SUIT[before[0]]
        if SUIT[card] != led:
            restrict([x for x in hidden if SUIT[x] == led], full & ~seat_bit(s),
                     f"seat {s} is void in {led}")  # fmt: skip
            if SUIT[card] != "T":
                restrict([x for x in hidden if SUIT[x] == "T"], full & ~seat_bit(s),
                         f"seat {s} holds no tarok")  # fmt: skip
    # ---- the talon group taken, and what the discards can hold
    if "discards" in idx:
        disc = 1 << idx["discards"]
        restrict(h.taken, seat_bit(d) | disc, "the talon group taken is the declarer's")
        never = [x for x in hidden if x in KINGS or x in TRULA
                 or (SUIT[x] == "T" and not h.rules.discard_only_if_forced)]  # fmt: skip
        restrict(never, full & ~disc, "kings, trula and unshown taroks are never laid away")
    # ---- the play check: earlier legal cards of hidden hands
    rules = make_play_rules(h.rules, c, h.colour_valat())
    prot: list[str] = []
    if h.rules.protection and not row.negative:
        if "pagat_ultimo" in h.ann:
            prot.append("T1")
        if "kralj_ultimo" in h.ann and h.called_king:
            prot.append(h.called_king)
    checks = []
    # follow suit and tarok compulsion are the voids above; only the overtaking and pagat
    # rules of the negative contracts and the protected ultimo cards say more
    telling = rules.negative or rules.pagat_restricted or bool(prot)
    for k, (s, card, before) in enumerate(played):
        if not telling or card in bad or f"seat {s}" not in idx:
            continue
        since = tuple(x for s2, x, _ in played[k:] if s2 == s)
        checks.append(PlayCheck(s, card, before, since))
    truth = tuple(_sorted(places[k]) for k in holders)
    v = View(seat, hidden, holders, sizes, tuple(allowed[x] for x in hidden), truth,
             tuple(checks), rules, tuple(prot), tuple(notes))  # fmt: skip
    if not v.plays_fit(truth):
        why = "the earlier cards do not replay: the play check is not used"
        v = View(seat, hidden, holders, sizes, v.allowed, truth, (), None, (), (*notes, why))
    return v


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
    """Uniform layouts of a :class:`View`'s hidden cards (see the module docstring)."""

    view: View
    #: draws that failed the play check, over all samples so far
    rejected: int = 0
    _classes: list[tuple[tuple[int, ...], tuple[str, ...]]] = field(default_factory=list)
    _memo: dict[tuple[int, tuple[int, ...]], int] = field(default_factory=dict)
    _splits_memo: dict[tuple[int, tuple[int, ...]], list[tuple[tuple[int, ...], int]]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        groups: dict[int, list[str]] = {}
        for x, a in zip(self.view.hidden, self.view.allowed, strict=True):
            groups.setdefault(a, []).append(x)
        n = len(self.view.holders)
        self._classes = [(tuple(k for k in range(n) if a >> k & 1), tuple(cs))
                         for a, cs in sorted(groups.items())]  # fmt: skip
        self._memo = {}
        self._splits_memo = {}

    def count(self) -> int:
        """The number of layouts consistent with the view's restrictions (before the play
        check)."""
        return self._count(0, self.view.sizes)

    def _count(self, k: int, room: tuple[int, ...]) -> int:
        """Layouts of classes ``k`` … with ``room`` left per holder (memoised)."""
        got = self._memo.get((k, room))
        if got is not None:
            return got
        if k == len(self._classes):
            total = int(not any(room))
        else:
            holders, cards = self._classes[k]
            total = 0
            for x in _splits(len(cards), holders, room):
                total += self._ways(cards, x) * self._count(k + 1, self._less(room, holders, x))
        self._memo[(k, room)] = total
        return total

    @staticmethod
    def _ways(cards: tuple[str, ...], x: tuple[int, ...]) -> int:
        w = factorial(len(cards))
        for v in x:
            w //= factorial(v)
        return w

    @staticmethod
    def _less(
        room: tuple[int, ...], holders: tuple[int, ...], x: tuple[int, ...]
    ) -> tuple[int, ...]:
        r = list(room)
        for k, v in zip(holders, x, strict=True):
            r[k] -= v
        return tuple(r)

    def _weighted(self, k: int, room: tuple[int, ...]) -> list[tuple[tuple[int, ...], int]]:
        """The splits of class ``k`` within ``room``, each with its number of layouts."""
        got = self._splits_memo.get((k, room))
        if got is None:
            holders, cards = self._classes[k]
            got = [(x, self._ways(cards, x) * self._count(k + 1, self._less(room, holders, x)))
                   for x in _splits(len(cards), holders, room)]  # fmt: skip
            self._splits_memo[(k, room)] = got
        return got

    def draw(self, rng: random.Random) -> tuple[tuple[str, ...], ...]:
        """One layout, uniform over those consistent with the restrictions (no play check)."""
        room = self.view.sizes
        if self._count(0, room) == 0:
            raise NoLayout("no layout is consistent with the view")
        out: list[list[str]] = [[] for _ in self.view.holders]
        for k, (holders, cards) in enumerate(self._classes):
            pick = rng.randrange(self._count(k, room))
            chosen: tuple[int, ...] = ()
            for x, w in self._weighted(k, room):
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
            room = self._less(room, holders, chosen)
        return tuple(_sorted(cs) for cs in out)

    def sample(self, rng: random.Random, max_tries: int = 1000) -> tuple[tuple[str, ...], ...]:
        """One layout, uniform over those consistent with the view (restrictions and play
        check), by rejection: at most ``max_tries`` draws (:class:`NoLayout` past them)."""
        for _ in range(max_tries):
            layout = self.draw(rng)
            if self.view.plays_fit(layout):
                return layout
            self.rejected += 1
        raise NoLayout(f"no layout passed the play check in {max_tries} draws")

    def samples(self, n: int, seed: int | str) -> list[tuple[tuple[str, ...], ...]]:
        """``n`` layouts drawn with ``random.Random(seed)`` (the same seed, the same layouts)."""
        rng = random.Random(seed)
        return [self.sample(rng) for _ in range(n)]


def apply_layout(h: SlovenianHand, view: View, layout: Sequence[Sequence[str]]) -> None:
    """Put ``layout`` into ``h`` (a copy of the hand the view was taken from, changed in
    place): the hidden hands, discards and talon cards, and the partner (the holder of the
    called king) with it."""
    talon = list(h.talon)
    for name, cards in zip(view.holders, layout, strict=True):
        if name.startswith("seat "):
            h.hands[int(name[5:])] = set(cards)
        elif name == "discards":
            h.discards = (*(x for x in h.discards if x in h.shown), *cards)
        elif name == "talon":
            talon = list(cards)
        else:
            talon[int(name[6:])] = cards[0]
    h.talon = tuple(talon)
    king = h.called_king
    if king and not h.king_in_talon and h.declarer is not None:
        for s in h.active:
            if king in h.hands[s]:
                h.partner = None if s == h.declarer else s
                h.self_call = s == h.declarer
                break
