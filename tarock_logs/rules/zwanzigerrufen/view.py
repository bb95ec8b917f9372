"""What a Zwanzigerrufen player sees at a card of the play (the shape of
:mod:`tarock_logs.rules.sight`; /work/shared/rules/zwanzigerrufen.md §3–§6).

There is no talon: the hidden cards are the other three hands. A seat sees its own hand, the
auction (contract, call, announcements, Kontras: everybody hears them) and every card played.
What that tells of the hidden hands:

* **voids** (§6.2–§6.3): a card that was legal only because the player held none of some
  cards (he did not follow suit, did not play a tarock on a void, led a tarock in a
  Farbensolo) — asked of the engine's ``legal_cards`` (:func:`~tarock_logs.rules.sight.
  card_voids`), so every ``farbensolo_tarock_compulsion`` reading counts as the engine
  reads it;
* **the call** (§4.3 C2–C3): forehand does not hold the called tarock; under ``call_rule =
  highest_missing`` she holds every callable tarock above it. Its holder is the partner, so
  each layout brings its own sides (the partner becomes known to all when the called tarock
  is played: it is no longer hidden then);
* **the announcements and Kontras** (§4.4–§4.5): an announcement says which side its
  announcer is on (``announce.wrong_side``), a Pagat announcement that the side holds the
  Pagat (``announce.pagat_not_held``), a Kontra which side its player is on
  (``kontra.wrong_side``), a Farbensolo that its declarer had five suit cards; and the
  holder of an announced Pagat keeps it (§6.6, ``play.pagat_released``). These come from the
  **redeal check**: the engine replays the hand's actions on the layout's deal, and every
  action that was clean must be clean again (:class:`~tarock_logs.rules.sight.Redeal`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tarock_logs.cards import PACKS
from tarock_logs.rules.sight import (
    Layout,
    Redeal,
    Restriction,
    Sight,
    card_voids,
    in_order,
    played_cards,
)
from tarock_logs.rules.zwanzigerrufen.hand import ZRHand
from tarock_logs.rules.zwanzigerrufen.tricks import CALLABLE, NORMAL, legal_cards

__all__ = ["sight"]

ORDER = tuple(PACKS["zwanzigerrufen"])


def _sorted(cards: Iterable[str]) -> tuple[str, ...]:
    return in_order(cards, ORDER)


def _played(h: ZRHand) -> list[tuple[int, str, tuple[str, ...]]]:
    """Every card played so far: (seat, card, the cards of its trick before it)."""
    return played_cards([*(t.cards for t in h.tricks), tuple(h.trick)])


def _dealt(h: ZRHand, held: Layout) -> list[tuple[str, ...]]:
    """The four dealt hands of a layout: what each seat holds now and what it played."""
    gone: dict[int, list[str]] = {s: [] for s in range(4)}
    for s, c, _ in _played(h):
        gone[s].append(c)
    return [tuple(held.get(f"seat {s}", h.held(s))) + tuple(gone[s]) for s in range(4)]


def _builder(h: ZRHand) -> Redeal:
    def build(dealt: Sequence[Sequence[str]]) -> ZRHand:
        return ZRHand(h.ruleset, h.opts, h.dealer, dealt, multiplier=h.multiplier,
                      game_number=h.game_number)  # fmt: skip

    return Redeal(build, h.actions, [tuple(d) for d in h.dealt])


def sight(h: ZRHand, seat: int) -> Sight:
    """What ``seat`` sees in the card play of ``h`` (the engine at that moment)."""
    places = tuple((f"seat {s}", _sorted(h.held(s))) for s in range(4) if s != seat)
    hidden = [c for _, cs in places for c in cs]
    redeal = _builder(h)
    clean: dict[tuple[int, str], bool] = {}
    for a, ok in zip(redeal.actions, redeal.clean, strict=True):
        if a.type == "play" and a.card is not None:
            clean.setdefault((a.seat, a.card), ok)
    a = h.auction
    plays = [(s, c, before, None) for s, c, before in _played(h)
             if s != seat and clean.get((s, c), False)]  # fmt: skip
    contract = a.contract
    compulsion = h.opts["farbensolo_tarock_compulsion"]
    rs: list[Restriction] = card_voids(
        plays, hidden, lambda hand, before, _m: legal_cards(hand, before, contract, compulsion)
    )
    if contract == NORMAL and a.called is not None and a.holder is not None:
        fh = f"seat {a.holder}"
        rs.append(Restriction((a.called,), frozenset({fh}),
                              "forehand does not hold the tarock she called",
                              exclude=True))  # fmt: skip
        if h.opts.get("call_rule") == "highest_missing" and a.called in CALLABLE:
            above = CALLABLE[: CALLABLE.index(a.called)]
            rs.append(Restriction(tuple(above), frozenset({fh}),
                                  "forehand called the highest tarock she lacked"))  # fmt: skip

    def check(layout: Layout) -> bool:
        return redeal.replay(_dealt(h, layout))[1]

    def dealt_hand(layout: Layout) -> ZRHand:
        hand, ok = redeal.replay(_dealt(h, layout))
        if not ok:  # an inconsistent layout: replayed in full all the same
            hand = _rebuild(h, layout)
        return hand  # type: ignore[no-any-return]

    return Sight(seat, places, tuple(rs), check, dealt_hand, ORDER)


def _rebuild(h: ZRHand, layout: Layout) -> ZRHand:
    new = ZRHand(h.ruleset, h.opts, h.dealer, _dealt(h, layout), multiplier=h.multiplier,
                 game_number=h.game_number)  # fmt: skip
    for a in h.actions:
        new.push(a)
    return new
