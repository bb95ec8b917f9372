"""A counted Slovenian hand (log format 1.2): scored from the cards each side took.

What a table can still show after the play is the piles: the cards each side won in tricks,
the talon, the cards the declarer took from it and laid away (in klop, each player's pile).
From them, without the order of the tricks, the engine counts (spec 9.2, 9.8):

* the card points of each side in thirds (of each player in klop), hence won or lost and the
  difference (9.3), or each klop player's points, full and empty (9.8);
* the silent and announced **trula** and **kralji** (the side whose pile holds all three or
  all four; 7.1), **valat** (a side that won no trick), **berač** (the declarer took no trick)
  and **barvni valat** (he took every trick), a **valat** contract;
* the **mondfang** where the piles decide it (9.9): the mond left in the talon, or the mond and
  the škis in different piles (the škis cannot have captured it); when both are in one pile the
  piles do not say whether the škis took the mond, and the recorded mondfang is taken.

What the piles cannot show, said in the score's ``unverified``: the order of the tricks and the
legality of the play, **pagat ultimo** and **kralj ultimo** (the last trick: taken as recorded).

The recorded count (``card_points``, or the difference with the result, or klop's points per
seat) is compared with the piles': a count that differs is a finding
(``count.card_points_differ``) with the difference in thirds and the score items it changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from tarock_logs.rules.base import (
    BonusOutcome,
    CountedCards,
    CountedScore,
    FactsNotScored,
    HandScore,
    Irregularity,
    RecordedFacts,
    Violation,
)
from tarock_logs.rules.slovenian.codes import violation
from tarock_logs.rules.slovenian.contracts import CONTRACTS, Rules
from tarock_logs.rules.slovenian.scoring import HandFacts, facts_from_record, score_facts
from tarock_logs.rules.slovenian.tricks import KINGS, MOND, PACK, SKIS, TRULA, rounded, thirds

#: what the piles never show, said of every counted hand
NOT_CHECKED: tuple[str, ...] = (
    "trick order and legality of play not checked: the hand is recorded as counted piles, "
    "without the order of the tricks",
)
#: the bonuses the piles decide (their recorded outcomes are replaced by the piles')
_DECIDED = ("trula", "kralji", "valat", "barvni_valat")
_ULTIMO = ("pagat_ultimo", "kralj_ultimo")


def _side_of(pile_m: Sequence[str], pile_o: Sequence[str], cards: frozenset[str]) -> str | None:
    if cards.issubset(pile_m):
        return "declarer"
    if cards.issubset(pile_o):
        return "defenders"
    return None


def _items(score: HandScore) -> dict[tuple[str, int | None], int]:
    out: dict[tuple[str, int | None], int] = {}
    for it in score.items:
        out[(it.item, it.seat)] = out.get((it.item, it.seat), 0) + it.value
    return out


def changed_items(recorded: HandScore, counted: HandScore) -> list[str]:
    """The score items (and ``total``) whose value the recorded count gives differently from
    the piles' count, in the order the counted score lists them."""
    a, b = _items(recorded), _items(counted)
    keys = [*b, *(k for k in a if k not in b)]
    out = [k[0] for k in keys if a.get(k) != b.get(k)]
    out = list(dict.fromkeys(out))
    if recorded.totals != counted.totals:
        out.append("total")
    return out


def score_counted(
    rules: Rules,
    table_size: int,
    dealer: int,
    rec: RecordedFacts,
    cards: CountedCards,
    *,
    radelci: Sequence[int] = (),
    irregularities: Sequence[Irregularity] = (),
    misdeals: Sequence[int] = (),
) -> CountedScore:
    """The score of a counted hand from its piles, and the findings of its recorded count
    (module docstring). Raises :class:`FactsNotScored` when the piles do not hold the pack or
    do not fit the contract."""
    c = rec.contract
    row = CONTRACTS.get(c)
    if row is None:
        raise FactsNotScored(f"unknown contract {c!r} (contracts: {', '.join(CONTRACTS)})")
    n_active = table_size - 1 if table_size == 5 else table_size

    def facts_of(r: RecordedFacts) -> HandFacts:
        return facts_from_record(rules, table_size, dealer, r, radelci=radelci,
                                 irregularities=irregularities, misdeals=misdeals)  # fmt: skip

    notes = list(NOT_CHECKED)
    if row.alone:
        return _klop(rules, table_size, rec, cards, n_active, notes, facts_of)
    if cards.declarer is None or cards.defenders is None:
        raise FactsNotScored("a counted game with a declarer needs both sides' piles")
    tricks_m, tricks_o = list(cards.declarer), list(cards.defenders)
    pool = tricks_m + tricks_o + list(cards.discards)
    taken = set(cards.talon_taken)
    remainder = [x for x in cards.talon if x not in taken]
    if sorted(pool + remainder) != sorted(PACK):
        raise FactsNotScored("the piles, the discards and the talon not taken are not the pack")
    # the remainder becomes the declarer's when he took the called king from the talon and
    # it won its trick (spec 6.3): his own king in his pile of tricks can only have won it
    k = rec.called
    rem_to_m = bool(
        row.talon and k is not None and k in cards.talon and k in taken and k in tricks_m
    )
    pile_m = tricks_m + list(cards.discards) + (remainder if rem_to_m else [])
    pile_o = tricks_o + ([] if rem_to_m else remainder)
    t_m = thirds(pile_m)
    pm = pile_m if rules.count_remainder or not rem_to_m else tricks_m + list(cards.discards)
    po = pile_o if rules.count_remainder or rem_to_m else tricks_o
    n_tricks = 48 // n_active
    tricks_won_m, tricks_won_o = len(tricks_m) // n_active, len(tricks_o) // n_active
    won = t_m >= rules.win_threshold
    if row.no_trick:
        won = tricks_won_m == 0
    elif row.every_trick or any(b.bonus == "barvni_valat" and b.announced for b in rec.bonuses):
        won = tricks_won_m == n_tricks
    # bonuses: the announcements as recorded; the outcomes the piles decide replace the
    # recorded ones; the ultimos (the last trick) are taken as recorded
    bonuses: list[BonusOutcome] = []
    for b in rec.bonuses:
        if b.bonus in _DECIDED:
            if b.announced:
                bonuses.append(BonusOutcome(b.bonus, b.side, True, True))
        else:
            bonuses.append(b)
            if b.bonus in _ULTIMO:
                notes.append(
                    f"{b.bonus.replace('_', ' ')} taken as recorded: the piles do not show the "
                    "last trick"
                )
    if row.bonuses:
        for bonus, cards_of in (("trula", TRULA), ("kralji", KINGS)):
            side = _side_of(pm, po, cards_of)
            announced = next((b for b in bonuses if b.bonus == bonus and b.announced), None)
            if announced is not None:
                bonuses[bonuses.index(announced)] = replace(announced, made=side == announced.side)
            elif side is not None:
                bonuses.append(BonusOutcome(bonus, side))
    valat_side = "declarer" if tricks_won_o == 0 else "defenders" if tricks_won_m == 0 else None
    if not row.fixed:
        ann = next((b for b in bonuses if b.bonus == "valat" and b.announced), None)
        if ann is not None:
            bonuses[bonuses.index(ann)] = replace(ann, made=valat_side == ann.side)
        if valat_side is not None and (ann is None or ann.side != valat_side):
            bonuses.append(BonusOutcome("valat", valat_side))
    for i, b in enumerate(bonuses):
        if b.bonus == "barvni_valat" and b.announced:
            bonuses[i] = replace(b, made=won)
    mondfang = _mondfang(row.talon > 0, rec, cards, pile_m, pile_o, remainder, rem_to_m, notes)
    points = rounded(t_m)
    counted = replace(
        rec, won=won, card_points=points, difference=None, bonuses=tuple(bonuses),
        mondfang=mondfang,
    )  # fmt: skip
    f = facts_of(counted)
    if not row.fixed and "declarer_side_thirds" in (f.card_points):
        f.t_m, f.t_o = t_m, thirds(pile_o)
        f.card_points.update(
            {"declarer_side_thirds": f.t_m, "defenders_thirds": f.t_o,
             "declarer_side_cards": len(pile_m), "defenders_cards": len(pile_o),
             "remainder_to_declarer": rem_to_m}
        )  # fmt: skip
    f.card_points["counted"] = True
    f.unverified.extend(notes)
    score = score_facts(rules, f)
    findings = _count_findings(rules, rec, counted, score, t_m, won, facts_of)
    return CountedScore(score, tuple(findings))


def _mondfang(
    talon_game: bool,
    rec: RecordedFacts,
    cards: CountedCards,
    pile_m: Sequence[str],
    pile_o: Sequence[str],
    remainder: Sequence[str],
    rem_to_m: bool,
    notes: list[str],
) -> tuple[tuple[int, int | None], ...]:
    """The mondfang the piles decide (spec 9.9), else the recorded one (with a note)."""
    d = rec.declarer
    assert d is not None
    if MOND in remainder:  # left in the talon: the declarer's, unless the remainder is his
        return ((d, None),) if talon_game and not rem_to_m else ()
    if MOND in cards.discards:
        return ()
    same = (MOND in pile_m and SKIS in pile_m) or (MOND in pile_o and SKIS in pile_o)
    if not same or SKIS in cards.discards or SKIS in remainder:
        return ()  # the škis is not in the mond's pile of tricks: it cannot have captured it
    notes.append(
        "mondfang taken as recorded: the mond and the škis are in the same pile, and the piles "
        "do not show whether the škis captured the mond"
    )
    return rec.mondfang


def _recorded_points(rec: RecordedFacts) -> int | None:
    """The declarer side's card points as the record counted them, where it says."""
    if rec.card_points is not None:
        return rec.card_points
    if rec.difference is not None and rec.won is not None:
        return 35 + rec.difference if rec.won else 35 - rec.difference
    return None


def _count_findings(
    rules: Rules,
    rec: RecordedFacts,
    counted: RecordedFacts,
    score: HandScore,
    t_m: int,
    won: bool,
    facts_of: Callable[[RecordedFacts], HandFacts],
) -> list[Violation]:
    """The recorded count against the piles': a finding when they differ (spec 9.2, 9.3),
    with the items the recorded count changes (``counted`` scored with the record's count
    instead of the piles', every other outcome the same)."""
    if CONTRACTS[rec.contract].fixed:
        if rec.won is None or rec.won == won:
            return []
        points = None
    else:
        points = _recorded_points(rec)
        if points is None:
            return []
        rec_won = rec.won if rec.won is not None else 3 * points >= rules.win_threshold
        if points == rounded(t_m) and rec_won == won:
            return []
    items: list[str] = []
    try:
        as_recorded = replace(
            counted, won=rec.won, card_points=rec.card_points, difference=rec.difference
        )
        items = changed_items(score_facts(rules, facts_of(as_recorded)), score)
    except FactsNotScored:
        pass
    if points is None:
        message = (
            f"the record says the {rec.contract} was {'won' if rec.won else 'lost'}; the piles "
            f"show it {'won' if won else 'lost'}"
        )
        return [
            violation(rules.ruleset, "count.result_differs", message, seat=rec.declarer,
                      contract=rec.contract, recorded_won=rec.won, counted_won=won, items=items)
        ]  # fmt: skip
    diff = t_m - 3 * points
    message = (
        f"the declarer's side counted {points} card points ({3 * points} thirds); its pile holds "
        f"{t_m} thirds ({rounded(t_m)} points, {'won' if won else 'lost'}): {abs(diff)} thirds "
        f"{'more' if diff > 0 else 'fewer'}" + (f"; it changes {', '.join(items)}" if items else "")
    )
    return [
        violation(
            rules.ruleset, "count.card_points_differ", message, seat=rec.declarer,
            recorded_points=points, recorded_thirds=3 * points, counted_thirds=t_m,
            counted_points=rounded(t_m), thirds=diff, won=won, items=items, side="declarer",
        )
    ]  # fmt: skip


def _klop(
    rules: Rules,
    table_size: int,
    rec: RecordedFacts,
    cards: CountedCards,
    n_active: int,
    notes: list[str],
    facts_of: Callable[[RecordedFacts], HandFacts],
) -> CountedScore:
    """Klop from each player's pile (spec 9.8): points, full and empty counted."""
    piles = cards.by_seat
    if piles is None or len(piles) != table_size:
        raise FactsNotScored("a counted klop needs each seat's pile (by_seat)")
    if sorted(x for p in piles for x in p) != sorted(PACK):
        raise FactsNotScored("the klop piles are not the pack")
    th = [thirds(p) for p in piles]
    pts = tuple(rounded(t) for t in th)
    full = tuple(s for s in range(table_size) if pts[s] == 35 and th[s] >= rules.win_threshold)
    counted = replace(rec, points_by_seat=pts, full=full)
    as_recorded = (
        counted
        if rec.points_by_seat is None
        else replace(counted, points_by_seat=rec.points_by_seat, full=rec.full)
    )
    f = facts_of(counted)
    f.klop_thirds = {s: th[s] for s in f.active}
    f.klop_tricks = {s: len(piles[s]) // n_active or (1 if piles[s] else 0) for s in f.active}
    f.card_points = {"thirds": [th[s] if s in f.active else None for s in range(table_size)],
                     "counted": True}  # fmt: skip
    f.unverified.extend(notes)
    score = score_facts(rules, f)
    findings: list[Violation] = []
    recorded = rec.points_by_seat
    if recorded is not None and len(recorded) == table_size:
        items: list[str] = []
        if any(recorded[s] != pts[s] for s in f.active):
            try:
                f_rec = facts_of(as_recorded)
                f_rec.klop_tricks = dict(f.klop_tricks)  # who took a trick: the piles say
                items = changed_items(score_facts(rules, f_rec), score)
            except FactsNotScored:
                pass
        for s in f.active:
            if recorded[s] == pts[s]:
                continue
            diff = th[s] - 3 * recorded[s]
            message = (
                f"seat {s} counted {recorded[s]} card points ({3 * recorded[s]} thirds); the "
                f"pile holds {th[s]} thirds ({pts[s]} points): {abs(diff)} thirds "
                f"{'more' if diff > 0 else 'fewer'}"
                + (f"; it changes {', '.join(items)}" if items else "")
            )
            findings.append(
                violation(
                    rules.ruleset, "count.card_points_differ", message, seat=s,
                    recorded_points=recorded[s], recorded_thirds=3 * recorded[s],
                    counted_thirds=th[s], counted_points=pts[s], thirds=diff, items=items,
                    side="seat",
                )
            )  # fmt: skip
    return CountedScore(score, tuple(findings))
