"""What a Royal Tarock player sees at a card of the play (the shape of
:mod:`tarock_logs.rules.sight`; /work/shared/rules/royal-tarock.md §3–§6).

There is no talon and the pairs are fixed: the hidden cards are the other three hands, and
the sides never depend on a layout. A seat sees its own hand, the bidding (Meldungen,
Schlemme, contras: everybody hears them) and every card played. What that tells of the
hidden hands:

* **voids** (§6.1–§6.3): a card that was legal only because the player held none of some
  cards (he did not follow suit, did not play a tarock on a void, played a bound card early
  because he had no free one, held back no card due in that trick) — asked of the engine's
  ``judge`` with his pair's bindings (:func:`~tarock_logs.rules.sight.card_voids`);
* **the deal** (§3.3): XIX is dealt to the attacking Abfänger and XX to the attacking
  Eintreiber, so everybody knows where they are until they are played;
* **the Meldungen** (§4.3, true by rule: "only the real number may be declared"): a
  Farbenanzahl, Tarockanzahl, Vogerl, Flush or Wonok says what its declarer was dealt; and
  every hand of a deal that was played has at least three tarocks (§3.4). These come from the
  **redeal check**: the engine replays the game's actions on the layout's deal, and every
  action that was clean must be clean again (``meld.false``, ``throw_in.required``, the bound
  cards' duties), the deal's own checks adding no error (``deal.honours``)
  (:class:`~tarock_logs.rules.sight.Redeal`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from tarock_logs.cards import PACKS
from tarock_logs.rules.royal.bidding import ATT
from tarock_logs.rules.royal.hand import RoyalHand
from tarock_logs.rules.royal.tricks import Bound, judge, suit_of
from tarock_logs.rules.sight import Count, Layout, Redeal, Restriction, Sight, card_voids, in_order

__all__ = ["sight"]

ORDER = tuple(PACKS["royal"])


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return in_order(cards, ORDER)


def _played(h: RoyalHand) -> list[tuple[int, str, tuple[tuple[int, str], ...], int]]:
    """Every card played so far: (seat, card, the trick's cards before it, trick number)."""
    out = []
    for n, t in enumerate([*(cards for cards, _ in h.tricks), tuple(h.trick)], start=1):
        for k, (s, c) in enumerate(t):
            out.append((s, c, tuple(t[:k]), n))
    return out


def _duties(h: RoyalHand, seat: int) -> dict[str, list[Bound]]:
    """The bound cards of ``seat``'s pair, whoever holds them (``RoyalHand.bindings`` keeps
    those its holder was dealt: here the hand is the one asked about)."""
    out: dict[str, list[Bound]] = {}
    p = h.party_of(seat)
    for inst in h.bidding.instances:
        if inst.party != p:
            continue
        item = h.catalogue.get(inst.item_id)
        for b in item.bindings if item is not None else ():
            out.setdefault(b.card, []).append(Bound(b.trick, inst.seq))
    return out


def _dealt(h: RoyalHand, held: Layout) -> list[tuple[str, ...]]:
    gone: dict[int, list[str]] = {s: [] for s in range(4)}
    for s, c, _, _ in _played(h):
        gone[s].append(c)
    return [tuple(held.get(f"seat {s}", h.held[s])) + tuple(gone[s]) for s in range(4)]


def _build(h: RoyalHand) -> Any:
    init = h._init  # the arguments the hand was made with (its own ``pop`` rebuilds so too)

    def build(dealt: Sequence[Sequence[str]]) -> RoyalHand:
        return RoyalHand(init[0], init[1], dealt, *init[3:5], session_findings=init[5],
                         pairs=init[6], deal=init[7])  # fmt: skip

    return build


def sight(h: RoyalHand, seat: int) -> Sight:
    """What ``seat`` sees in the card play of ``h`` (the engine at that moment)."""
    places = tuple((f"seat {s}", _sorted(h.held[s])) for s in range(4) if s != seat)
    hidden = [c for _, cs in places for c in cs]
    build = _build(h)
    redeal = Redeal(build, h.actions, h.dealt)
    clean: dict[tuple[int, str], bool] = {}
    for a, ok in zip(redeal.actions, redeal.clean, strict=True):
        if a.type == "play" and a.card is not None:
            clean.setdefault((a.seat, a.card), ok)
    duties = {s: _duties(h, s) for s in range(4)}
    plays = [(s, c, before, (n, s)) for s, c, before, n in _played(h)
             if s != seat and clean.get((s, c), False)]  # fmt: skip

    def legal(hand: Sequence[str], before: Any, moment: Any) -> frozenset[str]:
        n, s = moment
        return judge(hand, before, n, duties[s]).legal

    rs: list[Restriction] = card_voids(plays, hidden, legal)
    att_abf, att_ein = h.parties[ATT]
    for card, to in (("T19", att_abf), ("T20", att_ein)):
        rs.append(Restriction((card,), frozenset({f"seat {to}"}),
                              f"{card} is dealt to seat {to} (§3.3)"))  # fmt: skip

    counts = _counts(h, {s for s, _ in places})

    def check(layout: Layout) -> bool:
        return bool(redeal.replay(_dealt(h, layout))[1])

    def dealt_hand(layout: Layout) -> RoyalHand:
        hand, ok = redeal.replay(_dealt(h, layout))
        if not ok:  # an inconsistent layout: replayed in full all the same
            hand = build(_dealt(h, layout))
            for a in h.actions:
                hand.push(a)
        return hand  # type: ignore[no-any-return]

    return Sight(seat, places, tuple(rs), check, dealt_hand, ORDER, counts=counts)


def _param(x: Any, params: Mapping[str, Any]) -> Any:
    return params.get(x["param"]) if isinstance(x, dict) and "param" in x else x


def _counts(h: RoyalHand, hidden_places: set[str]) -> tuple[Count, ...]:
    """What the true Meldungen (a count of a suit or of the tarocks, at least one of some
    cards) and the played deal (at least three tarocks each, §3.4) say of how many cards a
    hidden hand holds; the Meldungen the catalogue words otherwise (Flush, Wonok: the suit or
    rank is not named) are left to the redeal check."""
    played: dict[int, list[str]] = {s: [] for s in range(4)}
    for s, c, _, _ in _played(h):
        played[s].append(c)
    out: list[Count] = []

    def of(suit: str) -> tuple[str, ...]:
        return tuple(c for c in ORDER if suit_of(c) == suit)

    for s in range(4):
        place = f"seat {s}"
        if place not in hidden_places:
            continue
        gone = played[s]
        taroks = of("T")
        least = max(0, 3 - sum(c in taroks for c in gone))
        out.append(Count(place, taroks, frozenset(range(least, 11)),
                         f"seat {s} was dealt at least three tarocks (§3.4)"))  # fmt: skip
        for m in h.bidding.melds:
            item = h.catalogue.get(m.item_id)
            if m.seat != s or not m.valid or item is None or item.condition is None:
                continue
            cond = item.condition
            parts = cond["and"] if isinstance(cond, dict) and "and" in cond else [cond]
            for part in parts:
                if not isinstance(part, dict):
                    continue
                lhs = part["eq"][0] if "eq" in part else None
                if isinstance(lhs, dict) and "hand_count" in lhs:
                    suit = _param(lhs["hand_count"], m.params)
                    n = _param(part["eq"][1], m.params)
                    if isinstance(suit, str) and isinstance(n, int):
                        cards = of(suit)
                        left = n - sum(c in cards for c in gone)
                        out.append(Count(place, cards, frozenset({left}),
                                         f"seat {s} declared {m.item_id}"))  # fmt: skip
                elif "hand_has_any" in part:
                    cards = tuple(part["hand_has_any"])
                    if not any(c in cards for c in gone):
                        out.append(Count(place, cards, frozenset(range(1, len(cards) + 1)),
                                         f"seat {s} declared {m.item_id}"))  # fmt: skip
    return tuple(out)
