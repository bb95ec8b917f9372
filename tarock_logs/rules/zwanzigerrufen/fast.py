"""The bulk path of Zwanzigerrufen (:meth:`ZRSession.fast_replay`): the card phase of a clean
hand played by the native card loop (``tarock_logs/_native/zrloop.h``).

The reference is the engine itself (:class:`~.hand.ZRHand` pushing one action at a time,
:mod:`.tricks` deciding the legal cards and the tricks): it stays the readable rules and the
path every hand the native loop does not take goes through. Here:

* the deal and the auction run through the reference (``ZRHand._apply``, what ``push`` runs,
  minus the undo snapshot: this state is never popped); anything reported and the path
  declines;
* the forty cards go to the native loop, which knows Farbzwang, Tarockzwang, the Farbensolo
  lead and its ``farbensolo_tarock_compulsion`` (O30), the Märchenstich (O29: the Pagat wins
  a trick holding Sküs, Mond and Pagat), the Mondfang (the Sküs captures the Mond) and the
  Pagat's hold obligation of §6.6; it declines on anything unusual (a card out of turn, not
  held, illegal, a Pagat released, a hand that is not forty cards);
* the tricks it gives become the reference's :class:`~.tricks.Trick` records on the hand,
  the claims after the play (Trull, Four Kings) run through the reference, and the hand is
  scored by the reference (:meth:`ZRHand.score`).

Declining (``None``) is always safe: the caller replays the hand through the reference, which
reports what is wrong. tests/rules/zwanzigerrufen/test_native_cards.py holds the two paths
equal (verdicts, scores, trick rows) on the samples, on simulated hands and on planted
illegal cards. Without the native core (not built, or ``TAROCK_NATIVE=0``) there is no fast
path: every hand takes the reference.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from tarock_logs import _native
from tarock_logs.cards import PACKS
from tarock_logs.rules.base import Action, DealInfo, FastReplay, HandState
from tarock_logs.rules.zwanzigerrufen.hand import Phase, ZRHand
from tarock_logs.rules.zwanzigerrufen.tricks import FARBENSOLO, NORMAL, SOLO, Trick

__all__ = ["ZR_CID", "fast_replay", "native_card_loop", "play_rules"]

#: the native core, or None (not built, or switched off with ``TAROCK_NATIVE=0``)
_CORE: Final = _native.core

_SLOVENIAN_ID: Final = {c: i for i, c in enumerate(PACKS["slovenian"])}
#: card token -> the id of cards.h: the Slovenian pack's, the Glatze on the weakest pip's id
#: (the king's id + 7: below the jack in its suit)
ZR_CID: Final[dict[str, int]] = {
    c: (_SLOVENIAN_ID[c[0] + "K"] + 7 if c.endswith("G") else _SLOVENIAN_ID[c])
    for c in PACKS["zwanzigerrufen"]
}
_CONTRACTS: Final = frozenset({NORMAL, FARBENSOLO, SOLO})
_MAERCHEN: Final = {"off": 0, "any_order": 1, "fixed_order": 2}


def native_card_loop() -> bool:
    """Whether Zwanzigerrufen hands have the native card loop (else the reference plays
    every card)."""
    return _CORE is not None


def play_rules(h: ZRHand) -> tuple[int, int, int, int] | None:
    """The play rules of the hand for the native loop, ``(farbensolo, compulsion, maerchen,
    keep_pagat)`` (see ``zrloop.h``), or None for anything it does not implement."""
    a = h.auction
    if a.contract not in _CONTRACTS or a.holder is None:
        return None
    mode = h.opts["farbensolo_tarock_compulsion"]
    if isinstance(mode, str) and mode.lower() in ("true", "false"):
        mode = mode.lower() == "true"
    if mode is True:
        compulsion = 1
    elif mode is False:
        compulsion = 0
    elif mode == "suit_first":
        compulsion = 2
    else:
        return None
    maerchen = _MAERCHEN.get(str(h.opts["maerchenstich"]))
    if maerchen is None:
        return None
    hold = h.opts["pagat_hold_obligation"]
    keep = 0
    if hold == "report":
        # §6.6: the seats of a side that announced Pagat Ultimo keep the Pagat
        for k in a.announced:
            if k[0] == "pagat":
                for s in a.side_seats(k[1]):
                    keep |= 1 << s
    elif hold != "ignore":
        return None
    return (int(a.contract == FARBENSOLO), compulsion, maerchen, keep)


def fast_replay(
    session: Any,
    dealer: int,
    hands: Sequence[Sequence[str]],
    talon: Sequence[str],
    actions: Sequence[Any],
    to_action: Callable[[Any], Action],
    deal: DealInfo | None = None,
) -> FastReplay | None:
    """Replay one clean hand with the native card loop, or None (the caller replays it
    through the reference; the session is left as the reference's ``new_hand`` leaves it).

    ``session`` is the :class:`~.session.ZRSession`; the caller ends the hand with its
    ``end_hand``."""
    core = _CORE
    if core is None:
        return None
    h = session.new_hand(dealer, hands, talon, (), deal)
    assert isinstance(h, ZRHand)
    if h.deal_violations:
        return None
    st = h._st
    apply = h._apply
    total = len(actions)
    k = 0
    # ---- the throw-in check and the auction: the reference, nothing may be reported
    while k < total:
        a = actions[k]
        if a.type == "play":
            break
        if apply(st, to_action(a)):
            return None
        k += 1
    if k == total or st.phase != Phase.PLAY or st.trick or st.tricks:
        return None
    rules = play_rules(h)
    if rules is None:
        return None
    end = k + 40
    # ---- the forty cards: the native loop
    recs = core.zr_play_cards(st.hands, actions[k:end], 0, st.leader, rules, ZR_CID)
    if recs is None:
        return None
    tricks = tuple(Trick(i, *r) for i, r in enumerate(recs, 1))
    st.tricks = tricks
    st.trick = ()
    st.hands = [(), (), (), ()]
    st.leader = tricks[-1].winner
    st.phase = Phase.DONE
    # ---- after the play: the claims (Trull, Four Kings), through the reference
    for a in actions[end:]:
        if apply(st, to_action(a)):
            return None
    if h.hand_findings():
        return None
    score = h.score()

    def rebuild() -> HandState:
        ref = ZRHand(
            h.ruleset,
            h.opts,
            dealer,
            hands,
            multiplier=h.multiplier,
            game_number=h.game_number,
        )
        for a in actions:
            ref.push(to_action(a))
        return ref

    def views() -> list[Mapping[str, Any]]:
        return [t.to_view() for t in tricks]

    return FastReplay(score, h, rebuild, views)
