"""The scoring facts of a hand played through the fast path, from its compact trick records.

The reference reads a finished hand's scoring facts with
:func:`~tarock_logs.rules.slovenian.scoring.hand_facts`, walking the
:class:`~tarock_logs.rules.slovenian.hand.Trick` records card by card (piles as token lists,
bonus sides by subset tests, mond captures by scanning every card). The fast path
(:mod:`.fastpath`) plays the cards over bitmasks and keeps, per completed trick, only
``(leader, cards, winner)`` plus the index of the winning card and the trick's card mask.
:func:`fast_hand_facts` reads the same :class:`~.scoring.HandFacts` from those: piles as
bitmasks (a clean hand holds 54 distinct cards, so a pile's card count is its popcount and its
points are :func:`~.cardbits.mask_thirds`), the klop gifts from the talon, the remainder of the
talon to the side the called king brings it to (spec 6.3), the bonus sides (spec 7.1), the last
trick's ultimos and the mond events (spec 9.9). The items are then made by the reference
:func:`~.scoring.score_facts`: only the reading of the tricks is duplicated, and the
differential tests (tests/rules/slovenian/test_fastfacts.py) pin it to ``hand_facts`` on
thousands of hands.

It serves hands the fast path accepted: dealt 54 distinct cards, no claim, no recorded
irregularity. For anything else it returns None and the caller scores through the reference.
"""

from __future__ import annotations

from collections.abc import Sequence

from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.fast.cardbits import (
    BIT,
    KINGS_MASK,
    MOND_BIT,
    TRULA_MASK,
    mask_of,
    mask_thirds,
)
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.rules.slovenian.scoring import _FIXED, HandFacts
from tarock_logs.rules.slovenian.tricks import MOND, PACK_SET, PAGAT

__all__ = ["fast_hand_facts"]

_NONE: frozenset[int] = frozenset()

#: a completed trick of the fast path: (leader seat, card tokens in playing order, winner seat)
TrickRecord = tuple[int, list[str], int]


def fast_hand_facts(
    h: SlovenianHand, recs: Sequence[TrickRecord], wins: Sequence[int], tmasks: Sequence[int]
) -> HandFacts | None:
    """``hand_facts(h)`` for the finished hand ``h`` whose tricks are ``recs`` (with the index of
    each trick's winning card in ``wins`` and its card mask in ``tmasks``), or None when the
    hand is not one this reading serves (a claim, an irregularity, a deal outside the pack)."""
    if h.claim is not None or h.irregularities or not PACK_SET.issuperset(h.talon):
        return None
    c = h.contract or "klop"
    ntricks = len(recs)
    complete = ntricks >= h.tricks_total
    active = h.active
    n = h.table_size
    ntr = [0] * n  # tricks won per seat
    pmask = [0] * n  # cards won per seat (tricks; klop gifts below)
    for (_, _, winner), tm in zip(recs, tmasks, strict=True):
        ntr[winner] += 1
        pmask[winner] |= tm
    ann = h.ann
    f = HandFacts(
        contract=c,
        active=active,
        table_size=n,
        declarer=h.declarer,
        partner=h.partner,
        radelci=h.radelci_before,
        tricks_total=h.tricks_total,
        complete=complete,
        announced={b: side for b, (_, side) in ann.items()} if ann else {},
        kontra=dict(h.kontra),
        kontra_givers=frozenset([s for s, _, _ in h.kontra_list]) if h.kontra_list else _NONE,
        irregularities=h.irregularities,
        misdeals_before=h.misdeals_before,
    )
    talon = h.talon
    if c == "klop":
        for i in range(min(6, len(talon), ntricks)):  # the talon gifts of the first six tricks
            pmask[recs[i][2]] |= BIT[talon[i]]
        th = f.klop_thirds = {s: mask_thirds(pmask[s]) for s in active}
        f.klop_tricks = {s: ntr[s] for s in active}
        f.card_points["thirds"] = [th.get(s) for s in range(h.table_size)]
        if not complete:
            f.unverified.append(f"klop stops after {ntricks} of {h.tricks_total} tricks")
        elif sum(th.values()) != 210:
            f.unverified.append(
                f"card conservation broken: klop piles hold {sum(th.values())} thirds, not 210"
            )
        return f
    d = h.declarer
    if d is None:
        return None
    partner = h.partner
    m_seats = (d,) if partner is None or partner == d else (d, partner)
    f.declarer_tricks = ntr[d]
    m_tr = ntr[d] + (ntr[partner] if len(m_seats) == 2 else 0)  # type: ignore[index]
    o_tr = ntricks - m_tr
    if complete:
        f.valat_side = "M" if o_tr == 0 else "O" if m_tr == 0 else None
    elif not h.ended_early:
        f.unverified.append(
            f"the hand stops after {ntricks} of {h.tricks_total} tricks: scored as far as played"
        )
    if c in _FIXED:
        f.card_points["declarer_tricks"] = f.declarer_tricks
        return f
    # piles (spec 9.2, 6.3)
    row = CONTRACTS[c]
    taken = h.taken
    # the talon's remainder: the cards not taken (all of it without a talon exchange)
    rem = mask_of(talon) & ~mask_of(taken) if row.talon else mask_of(talon)
    ck = h.called_king
    rem_to_m = bool(
        row.talon
        and h.king_in_talon
        and ck in taken
        and not h.self_call
        and any(cards[wi] == ck for (_, cards, _), wi in zip(recs, wins, strict=True))
    )
    mm = mask_of(h.discards)
    mo = 0
    for s in active:
        if s in m_seats:
            mm |= pmask[s]
        else:
            mo |= pmask[s]
    if rem_to_m:
        mm |= rem
    else:
        mo |= rem
    t_m = f.t_m = mask_thirds(mm)
    t_o = f.t_o = mask_thirds(mo)
    n_m, n_o = mm.bit_count(), mo.bit_count()
    f.card_points.update(
        {
            "declarer_side_thirds": t_m,
            "defenders_thirds": t_o,
            "declarer_side_cards": n_m,
            "defenders_cards": n_o,
            "remainder_to_declarer": rem_to_m,
        }
    )
    if complete and (t_m + t_o != 210 or n_m + n_o != 54):
        f.unverified.append(
            f"card conservation broken: piles hold {n_m + n_o} "
            f"cards worth {t_m + t_o} thirds (expected 54 and 210)"
        )
    # bonus outcomes (spec 7.1); the remainder is in exactly one of the two piles
    pm_b, po_b = (mm, mo) if h.rules.count_remainder else (mm & ~rem, mo & ~rem)
    outcomes = f.outcomes
    outcomes["trula"] = (
        "M" if pm_b & TRULA_MASK == TRULA_MASK else "O" if po_b & TRULA_MASK == TRULA_MASK else None
    )
    outcomes["kralji"] = (
        "M" if pm_b & KINGS_MASK == KINGS_MASK else "O" if po_b & KINGS_MASK == KINGS_MASK else None
    )
    order = h._order  # the seats of a trick, from its leader
    last = recs[-1] if ntricks >= h.tricks_total else None
    outcomes["pagat_ultimo"] = None
    if last is not None:
        leader, cards, winner = last
        if cards[wins[-1]] == PAGAT:
            outcomes["pagat_ultimo"] = "M" if winner in m_seats else "O"
        else:
            for j, card in enumerate(cards):
                if card == PAGAT:
                    f.failed_silent["pagat_ultimo"] = "M" if order[leader][j] in m_seats else "O"
    if ck is not None and row.king_call and h.n_active == 4:
        outcomes["kralj_ultimo"] = None
        if last is not None and ck in last[1]:
            if last[2] in m_seats:
                outcomes["kralj_ultimo"] = "M"
            else:
                f.failed_silent["kralj_ultimo"] = "M"
    # mond events (spec 9.9)
    ev: list[tuple[int, str]] = []
    for i, tm in enumerate(tmasks):
        if tm & MOND_BIT:
            leader, cards, _ = recs[i]
            wc = cards[wins[i]]
            if wc != MOND:
                seat = order[leader][cards.index(MOND)]
                ev.append((seat, f"seat {seat}'s mond was captured by {wc} in trick {i + 1}"))
    if row.talon and MOND in talon and MOND not in taken and not rem_to_m:
        why = " (self-call: the remainder is never his)" if h.self_call else ""
        ev.append((d, "the declarer left the mond in the talon" + why))
    f.mond_events = tuple(ev)
    return f
