"""The bulk path of Royal Tarock (:meth:`RoyalSession.fast_replay`): the card phase of a clean
game played by the native card loop (``tarock_logs/_native/royalloop.h``).

The reference is the engine itself (:class:`~.hand.RoyalHand` pushing one action at a time,
:mod:`.tricks` judging the cards): it stays the readable rules and the path every game the
native loop does not take goes through. Here:

* the deal and the bidding (melds, announcements, kontras, passes) run through the reference
  (``RoyalHand.push``); anything reported and the path declines;
* the forty cards go to the native loop, which knows the suit rules of §6.1 (follow suit,
  else a tarock, else anything; the Sküs the highest tarock, no Pagat exception) and the
  bound cards of §6.2 (a behaltpflichtig Schlemm's card kept for its trick, never played
  early while another card is legal, the most recently bound one first); it declines on
  anything unusual (a card out of turn, not held, illegal, a game that is not forty cards);
* the tricks it gives become the reference's trick records on the hand, which the reference
  scores (:meth:`RoyalHand.score`).

Declining (``None``) is always safe: the caller replays the game through the reference, which
reports what is wrong. tests/rules/royal/test_native_cards.py holds the two paths equal
(verdicts, scores, tricks) on the samples, on simulated games and on planted illegal cards.
Without the native core (not built, or ``TAROCK_NATIVE=0``) there is no fast path.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from tarock_logs import _native
from tarock_logs.cards import PACKS
from tarock_logs.rules.base import Action, DealInfo, FastReplay, HandState
from tarock_logs.rules.royal.hand import Phase, RoyalHand, trick_views

__all__ = ["ROYAL_CID", "fast_replay", "native_card_loop"]

#: the native core, or None (not built, or switched off with ``TAROCK_NATIVE=0``)
_CORE: Final = _native.core

_SLOVENIAN_ID: Final = {c: i for i, c in enumerate(PACKS["slovenian"])}
#: card token -> the id of cards.h (the Royal pack is part of the Slovenian one)
ROYAL_CID: Final[dict[str, int]] = {c: _SLOVENIAN_ID[c] for c in PACKS["royal"]}


def native_card_loop() -> bool:
    """Whether Royal Tarock games have the native card loop (else the reference plays every
    card)."""
    return _CORE is not None


def bound_cards(h: RoyalHand) -> list[list[tuple[int, int, int]]]:
    """Per seat the bound cards of §6.2 as ``(card id, trick, seq)`` for the native loop."""
    return [
        [(ROYAL_CID[c], b.trick, b.seq) for c, bs in h.bindings(s).items() for b in bs]
        for s in range(4)
    ]


def fast_replay(
    session: Any,
    dealer: int,
    hands: Sequence[Sequence[str]],
    talon: Sequence[str],
    actions: Sequence[Any],
    to_action: Callable[[Any], Action],
    deal: DealInfo | None = None,
) -> FastReplay | None:
    """Replay one clean game with the native card loop, or None (the caller replays it through
    the reference; the session is left as it was).

    ``session`` is the :class:`~.session.RoyalSession`; the caller ends the game with its
    ``end_hand``."""
    core = _CORE
    if core is None:
        return None
    parity = session.eintreiber_parity  # what new_hand may set: put back when declining
    took = False
    try:
        h = session.new_hand(dealer, hands, talon, (), deal)
        assert isinstance(h, RoyalHand)
        took = _play(core, h, actions, to_action)
    except ValueError:  # a deal or action the reference refuses: it will say so
        pass
    finally:
        if not took:
            session.eintreiber_parity = parity
    if not took:
        return None
    score = h.score()
    tricks = h.tricks
    init = h._init

    def rebuild() -> HandState:
        ref = RoyalHand(*init[:5], session_findings=init[5], pairs=init[6], deal=init[7])
        for a in actions:
            ref.push(to_action(a))
        return ref

    def views() -> list[Mapping[str, Any]]:
        return list(trick_views(tricks))

    return FastReplay(score, h, rebuild, views)


def _play(
    core: Any, h: RoyalHand, actions: Sequence[Any], to_action: Callable[[Any], Action]
) -> bool:
    """The bidding through the reference, the cards through the native loop; whether the
    game was played out with nothing reported."""
    if h.talon or h.irregularities or h.hand_findings() or any(len(x) != 10 for x in h.dealt):
        return False
    total = len(actions)
    k = 0
    while k < total:
        a = actions[k]
        if a.type == "play":
            break
        if h.push(to_action(a)):
            return False
        k += 1
    if k == total or h.phase != Phase.PLAY or h.trick or h.tricks or h.thrown_in:
        return False
    recs = core.royal_play_cards(h.held, actions, k, h.leader, bound_cards(h), ROYAL_CID)
    if recs is None:
        return False
    h.tricks = recs
    h.trick = []
    h.held = [[], [], [], []]
    h.leader = recs[-1][1]
    h.phase = Phase.DONE
    return True
