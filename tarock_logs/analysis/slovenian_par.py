"""Slovenian tarok's part of the par (:mod:`~tarock_logs.analysis.par`): the talon groups the
declarer could take and the discards he could make after one, equivalent discards together.

The groups and the legality of a discard are the engine's (``rules/slovenian/exchange.py``,
spec 6.2: never a king or a trula card; a tarok only shown, or only when forced under
``discard_only_if_forced``): every combination of cards is laid away on a copy of the hand
and kept when the engine raises no violation. Two discards are **equivalent** when they differ
only in cards that are interchangeable for the rest of the hand: cards of one suit with the same
points and no card of another player between them (the solver's card equivalence; no such card
has a role of its own in the score, since kings and trula cards are never laid away), so the
hands left differ by a renaming that changes no trick and no count.
"""

from __future__ import annotations

from itertools import combinations

from tarock_logs.analysis.games import ContractLine, DiscardClass, TalonGroup
from tarock_logs.rules.base import Action
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.rules.slovenian.tricks import ORDER, POINTS, STRENGTH, SUIT, sort_cards

__all__ = ["at_final_declaration", "contract_lines", "discard_classes", "equivalence_classes",
           "talon_groups"]  # fmt: skip


def talon_groups(h: SlovenianHand) -> list[TalonGroup]:
    """The groups of the talon the declarer of ``h`` (waiting for his group) could take."""
    if h.phase != "talon" or h.contract is None or h.declarer is None:
        return []
    k = CONTRACTS[h.contract].talon
    if not k:
        return []
    return [
        TalonGroup(g, tuple(h.talon[g * k : (g + 1) * k]), Action("talon", h.declarer, group=g))
        for g in range(len(h.talon) // k)
    ]


def equivalence_classes(hand: set[str], others: set[str]) -> dict[str, int]:
    """Card → class number: neighbouring cards of ``hand`` in one suit with the same points and
    no card of ``others`` (the other players' cards) between them share a class."""
    out: dict[str, int] = {}
    n = 0
    by_suit: dict[str, list[str]] = {}
    for c in hand:
        by_suit.setdefault(SUIT[c], []).append(c)
    for suit, cards in by_suit.items():
        cards.sort(key=STRENGTH.__getitem__)
        held = sorted(STRENGTH[c] for c in others if SUIT.get(c) == suit)
        prev: str | None = None
        for c in cards:
            if (
                prev is not None
                and POINTS[prev] == POINTS[c]
                and not any(STRENGTH[prev] < s < STRENGTH[c] for s in held)
            ):
                out[c] = out[prev]
            else:
                n += 1
                out[c] = n
            prev = c
    return out


def _discard_actions(h: SlovenianHand, cards: tuple[str, ...]) -> tuple[Action, ...]:
    d = h.declarer
    assert d is not None
    return tuple(
        Action("discard", d, cards=(c,), shown=(c,) if SUIT[c] == "T" else ()) for c in cards
    )


def _legal(h: SlovenianHand, actions: tuple[Action, ...]) -> bool:
    """The engine lays ``actions`` away without a violation and the discard is complete."""
    pushed = 0
    try:
        for a in actions:
            out = h.push(a)
            pushed += 1
            if out:
                return False
        return h.phase != "discard"
    finally:
        for _ in range(pushed):
            h.pop()


def discard_classes(h: SlovenianHand) -> list[DiscardClass]:
    """Every legal discard of the declarer of ``h`` (after his group, nothing laid away yet),
    equivalent ones in one class, the classes in the order of their representatives."""
    if h.phase != "discard" or h.contract is None or h.declarer is None or h.discards:
        return []
    d = h.declarer
    k = CONTRACTS[h.contract].talon
    hand = set(h.hands[d])
    single = {a.cards[0] for a in h.legal_actions() if a.type == "discard" and a.cards}
    others = {c for s in h.active if s != d for c in h.hands[s]}
    cls = equivalence_classes(hand, others)
    groups: dict[tuple[int, ...], list[tuple[str, ...]]] = {}
    for combo in combinations(sort_cards(single), k):
        # a discard the engine refuses alone (a tarok while other cards are left) may not
        # become legal with others: checked on the engine all the same
        actions = _discard_actions(h, combo)
        if not _legal(h, actions):
            continue
        key = tuple(sorted(cls[c] for c in combo))
        groups.setdefault(key, []).append(combo)
    out = []
    for combos in groups.values():
        rep = min(combos, key=lambda cs: tuple(STRENGTH[c] for c in cs))
        rest = tuple(c for c in combos if c != rep)
        out.append(DiscardClass(rep, (rep, *rest), _discard_actions(h, rep)))
    out.sort(key=lambda dc: sorted(ORDER[c] for c in dc.cards))
    return out


def at_final_declaration(h: SlovenianHand) -> bool:
    """``h`` waits for the bidding winner's final declaration (spec 4.4: he may keep his bid
    or raise it to any higher contract the table allows)."""
    return h.phase == "bidding" and bool(h.awaiting_final)


def _quiet(h: SlovenianHand) -> Action | None:
    """The announcement phase's pass (nothing announced), or None."""
    for a in h.legal_actions():
        if a.type in ("pass", "lezim"):
            return a
    return None


def _to_play(h: SlovenianHand, prefix: tuple[Action, ...], out: list[ContractLine],
             contract: str) -> None:  # fmt: skip
    """Every way from ``h`` (after ``prefix``) to the first card: each king, group and discard
    class; nothing announced."""
    if h.phase == "play":
        out.append(ContractLine(contract, prefix))
        return
    choices: list[tuple[Action, ...]]
    if h.phase == "king_call":
        choices = [(a,) for a in h.legal_actions()]
    elif h.phase == "talon":
        choices = [(g.action,) for g in talon_groups(h)]
    elif h.phase == "discard":
        choices = [dc.actions for dc in discard_classes(h)]
    elif h.phase == "announcements":
        a = _quiet(h)
        choices = [(a,)] if a is not None else []
    else:
        choices = []
    for acts in choices:
        for a in acts:
            h.push(a)
        try:
            _to_play(h, (*prefix, *acts), out, contract)
        finally:
            for _ in acts:
                h.pop()


def contract_lines(h: SlovenianHand) -> list[list[ContractLine]]:
    """Per contract the declarer could declare at ``h`` (:func:`at_final_declaration`; klop,
    which has no declarer, left out): every way from the declaration to the first card (each
    king he could call, each group, each class of discards), nothing announced."""
    if not at_final_declaration(h):
        return []
    out = []
    for a in h.legal_actions():
        if a.type != "bid" or a.contract is None or CONTRACTS[a.contract].alone:
            continue
        lines: list[ContractLine] = []
        h.push(a)
        try:
            _to_play(h, (a,), lines, a.contract)
        finally:
            h.pop()
        if lines:
            out.append(lines)
    return out
