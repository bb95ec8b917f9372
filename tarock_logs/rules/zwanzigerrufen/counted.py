"""A counted Zwanzigerrufen deal (log format 1.2): scored from the cards each side took.

From the two sides' piles, without the order of the tricks (zwanzigerrufen.md §2.4, §7.1,
§7.2): the declarer side's card points (the game: 45 of 88), **Valat** (a side that took no
trick), **Absolut** (the other side has at most 32 points), announced or silent; the
**Mondfang** where the piles decide it (the Mond and the Sküs in different piles: not
captured). What the piles cannot show is taken as recorded, and said: the order of the tricks
and the legality of the play, **Pagat Ultimo** (the last trick), **Trull** and **Vier Könige**
(card bonuses of the hand dealt, not of the tricks), the Mondfang when the Mond and the Sküs end
in one pile. The table's count (``card_points``, or ``won``) is compared with the piles': a
count that differs is ``count.card_points_differ`` (or ``count.result_differs``), with the
difference in card points and the items it changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from tarock_logs.cards import PACKS
from tarock_logs.rules.base import (
    BonusOutcome,
    CountedCards,
    FactsNotScored,
    RecordedFacts,
    Ruleset,
    ScoreItem,
    Violation,
)
from tarock_logs.rules.zwanzigerrufen.codes import violation
from tarock_logs.rules.zwanzigerrufen.tricks import ABSOLUT_LIMIT, MOND, SKUS, pile_points

#: what the piles never show, said of every counted deal
NOT_CHECKED = (
    "trick order and legality of play not checked: the deal is recorded as counted piles, "
    "without the order of the tricks",
)


def counted_facts(
    rec: RecordedFacts, cards: CountedCards, notes: list[str]
) -> tuple[RecordedFacts, int]:
    """The facts of a counted deal with every outcome the piles decide (the card points,
    Valat, Absolut, the Mondfang), and the declarer side's card points; ``notes`` gets what
    is taken as recorded."""
    if cards.declarer is None or cards.defenders is None:
        raise FactsNotScored("a counted Zwanzigerrufen deal needs both sides' piles")
    d_pile, f_pile = list(cards.declarer), list(cards.defenders)
    if sorted(d_pile + f_pile) != sorted(PACKS["zwanzigerrufen"]):
        raise FactsNotScored("the two piles are not the pack")
    cp_d, cp_f = pile_points(d_pile), pile_points(f_pile)
    side_pts = {"declarer": cp_d, "defenders": cp_f}
    other = {"declarer": "defenders", "defenders": "declarer"}
    took_all = "declarer" if not f_pile else "defenders" if not d_pile else None
    bonuses: list[BonusOutcome] = []
    ann_absolut = False
    for b in rec.bonuses:
        if b.bonus == "valat":
            if b.announced:
                bonuses.append(replace(b, made=took_all == b.side))
        elif b.bonus == "absolut":
            if b.announced:
                ann_absolut = True
                bonuses.append(replace(b, made=side_pts[other[b.side]] <= ABSOLUT_LIMIT))
        else:
            bonuses.append(b)
            notes.append(
                f"{b.bonus.replace('_', ' ')} taken as recorded: the piles do not show "
                + ("the last trick" if b.bonus == "pagat" else "the hands as dealt")
            )
    if took_all is not None and not any(b.bonus == "valat" and b.side == took_all for b in bonuses):
        bonuses.append(BonusOutcome("valat", took_all))
    if not ann_absolut and took_all is None:
        for side in ("declarer", "defenders"):
            if side_pts[other[side]] <= ABSOLUT_LIMIT:
                bonuses.append(BonusOutcome("absolut", side))
    mondfang = rec.mondfang
    same = (MOND in d_pile and SKUS in d_pile) or (MOND in f_pile and SKUS in f_pile)
    if not same:
        mondfang = ()  # the Sküs is not in the Mond's pile: it cannot have captured it
    else:
        notes.append(
            "mondfang taken as recorded: the Mond and the Sküs are in the same pile, and the "
            "piles do not show whether the Sküs captured the Mond"
        )
    return replace(rec, card_points=cp_d, won=None, bonuses=tuple(bonuses), mondfang=mondfang), cp_d


def _by_item(items: tuple[ScoreItem, ...] | list[ScoreItem]) -> dict[tuple[str, int | None], int]:
    out: dict[tuple[str, int | None], int] = {}
    for it in items:
        out[(it.item, it.seat)] = out.get((it.item, it.seat), 0) + it.value
    return out


def count_findings(
    ruleset: Ruleset,
    rec: RecordedFacts,
    counted: RecordedFacts,
    cp_d: int,
    won: bool | None,
    score_of: Callable[[RecordedFacts], tuple[list[ScoreItem], tuple[int, ...]]],
) -> list[Violation]:
    """The table's count against the piles' (module docstring)."""
    if rec.card_points is None and (rec.won is None or rec.won == won):
        return []
    if rec.card_points is not None and rec.card_points == cp_d:
        return []
    items: list[str] = []
    try:
        as_rec = replace(counted, card_points=rec.card_points, won=rec.won)
        a_items, a_tot = score_of(as_rec)
        b_items, b_tot = score_of(counted)
        a, b = _by_item(a_items), _by_item(b_items)
        keys = [*b, *(k for k in a if k not in b)]
        items = list(dict.fromkeys(k[0] for k in keys if a.get(k) != b.get(k)))
        if a_tot != b_tot:
            items.append("total")
    except FactsNotScored:
        pass
    if rec.card_points is None:
        return [
            violation(
                ruleset, "count.result_differs",
                f"the record says the game was {'won' if rec.won else 'lost'}; the piles show "
                f"it {'won' if won else 'lost'}",
                seat=rec.declarer, contract=rec.contract, recorded_won=rec.won, counted_won=won,
                items=items,
            )
        ]  # fmt: skip
    diff = cp_d - rec.card_points
    return [
        violation(
            ruleset, "count.card_points_differ",
            f"the declarer's side counted {rec.card_points} card points; its pile holds {cp_d}: "
            f"{abs(diff)} {'more' if diff > 0 else 'fewer'}"
            + (f"; it changes {', '.join(items)}" if items else ""),
            seat=rec.declarer, recorded_points=rec.card_points, counted_points=cp_d,
            points=diff, unit="points", items=items, side="declarer", won=won,
        )
    ]  # fmt: skip
