"""Itemised scoring of one Slovenian hand (spec sections 9 and 10), and the OpenSpiel bridge.

Scoring runs in two steps: :func:`hand_facts` reads what happened in a hand (the declarer side's
card points in thirds, who achieved which bonus, who won every trick, mond events, klop piles)
into a :class:`HandFacts`, and :func:`score_facts` turns facts into items under a ruleset. The
worked examples of the spec give facts, so the second step is tested directly from them.

Items are named as in docs/architecture.md "Score items": ``contract``, ``difference``,
``trula``, ``kralji``, ``pagat_ultimo``, ``kralj_ultimo``, ``valat``, ``barvni_valat``,
``radelc``, ``mondfang``, ``klop``, ``renons``, ``penalty``. An item with ``seat=None`` is
written by every member of the declarer's side.

Vocabulary: the **difference** (*razlika*) is |rounded card points of the declarer's side − 35|;
a **radelc** is a token every player earns after a game worth 70 or more, which doubles the
holder's next result as declarer (and is erased when he wins); **mondfang** is the −20 for
losing the mond (T21); **kontra** doubles one item; a **renons** is a rules violation whose
settlement replaces the hand's score; **valat** is winning every trick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.rules.base import (
    BonusOutcome,
    FactsNotScored,
    FactTerms,
    HandScore,
    Irregularity,
    RecordedFacts,
    ScoreItem,
    score_item,
)
from tarock_logs.rules.slovenian.contracts import ALONE, BONUS_VALUES, CONTRACTS, Rules
from tarock_logs.rules.slovenian.state import HandFields
from tarock_logs.rules.slovenian.tricks import KINGS, MOND, PAGAT, TRULA, rounded, thirds

try:  # OpenSpiel's scoring rules (pure stdlib, in this package)
    from tarock_logs.rules.slovenian.openspiel_scoring import openspiel_returns
except ImportError:  # pragma: no cover - the module ships with the engine
    openspiel_returns = None  # type: ignore[assignment]


_BONUS_NAMES = {
    "trula": "trula",
    "kralji": "kralji (all four kings)",
    "pagat_ultimo": "pagat ultimo",
    "kralj_ultimo": "kralj ultimo",
}


@dataclass
class HandFacts:
    """What happened in a hand, as far as scoring needs it (seats are session seats)."""

    contract: str
    active: tuple[int, ...]
    table_size: int
    declarer: int | None = None
    partner: int | None = None
    radelci: tuple[int, ...] = ()  # before the hand, per seat
    t_m: int = 0  # thirds of the declarer side's pile
    t_o: int = 0
    declarer_tricks: int = 0
    tricks_total: int = 12
    complete: bool = True  # played to the end (or claimed)
    valat_side: str | None = None  # "M" / "O": the side that won every trick
    outcomes: dict[str, str | None] = field(default_factory=dict)  # bonus → achieving side
    failed_silent: dict[str, str] = field(default_factory=dict)  # ultimo → side that failed it
    announced: dict[str, str] = field(default_factory=dict)  # bonus → announcing side
    kontra: dict[str, int] = field(default_factory=dict)  # target → kontra level
    kontra_givers: frozenset[int] = frozenset()
    mond_events: tuple[tuple[int, str], ...] = ()  # (seat, reason) of each −20
    klop_thirds: dict[int, int] = field(default_factory=dict)
    klop_tricks: dict[int, int] = field(default_factory=dict)
    irregularities: tuple[Irregularity, ...] = ()
    misdeals_before: tuple[int, ...] = ()
    card_points: dict[str, Any] = field(default_factory=dict)
    unverified: list[str] = field(default_factory=list)


class _Acc:
    """Collects items and adds them up per seat."""

    def __init__(self, f: HandFacts) -> None:
        self.f = f
        self.items: list[ScoreItem] = []

    def add(self, item: str, value: int, seat: int | None, reason: str) -> None:
        self.items.append(score_item(item, int(value), seat, reason))

    def totals(self) -> tuple[int, ...]:
        f = self.f
        tot = [0] * f.table_size
        side_m = [s for s in (f.declarer, f.partner) if s is not None]
        for it in self.items:
            if it.seat is None:
                for s in side_m:
                    tot[s] += it.value
            else:
                tot[it.seat] += it.value
        return tuple(tot)


# ---------------------------------------------------------------------- facts of a hand


def _won_piles(h: HandFields) -> dict[int, list[str]]:
    """Cards each active seat won in tricks (klop gifts included; a claim's rest to the claimer)."""
    won: dict[int, list[str]] = {s: [] for s in h.active}
    for t in h.tricks:
        won.setdefault(t.winner, []).extend(t.pile)
    if h.claim is not None:
        won.setdefault(h.claim[0], []).extend(h.claim[2])
    return won


def _tricks_by(h: HandFields) -> dict[int, int]:
    n: dict[int, int] = dict.fromkeys(h.active, 0)
    for t in h.tricks:
        n[t.winner] = n.get(t.winner, 0) + 1
    if h.claim is not None:
        n[h.claim[0]] = n.get(h.claim[0], 0) + h.tricks_total - h.claim[1]
    return n


def _side_of(pile_m: list[str], pile_o: list[str], cards: frozenset[str]) -> str | None:
    if cards.issubset(pile_m):
        return "M"
    if cards.issubset(pile_o):
        return "O"
    return None


def hand_facts(h: HandFields) -> HandFacts:
    """Read the scoring facts of a (finished) hand."""
    c = h.contract or ALONE
    complete = h.claim is not None or len(h.tricks) >= h.tricks_total
    ntr = _tricks_by(h)
    f = HandFacts(
        contract=c,
        active=h.active,
        table_size=h.table_size,
        declarer=h.declarer,
        partner=h.partner,
        radelci=h.radelci_before,
        tricks_total=h.tricks_total,
        complete=complete,
        announced={b: side for b, (_, side) in h.ann.items()},
        kontra=dict(h.kontra),
        kontra_givers=frozenset(s for s, _, _ in h.kontra_list),
        irregularities=h.irregularities,
        misdeals_before=h.misdeals_before,
    )
    won = _won_piles(h)
    if CONTRACTS[c].alone:
        f.klop_thirds = {s: thirds(won[s]) for s in h.active}
        f.klop_tricks = ntr
        f.card_points["thirds"] = [f.klop_thirds.get(s) for s in range(h.table_size)]
        if not complete:
            f.unverified.append(f"klop stops after {len(h.tricks)} of {h.tricks_total} tricks")
        elif sum(f.klop_thirds.values()) != 210:
            f.unverified.append(
                "card conservation broken: klop piles hold "
                f"{sum(f.klop_thirds.values())} thirds, not 210"
            )
        return f
    d = h.declarer
    assert d is not None
    row = CONTRACTS[c]
    m_seats = {s for s in (d, h.partner) if s is not None}
    f.declarer_tricks = ntr.get(d, 0)
    m_tr = sum(ntr.get(s, 0) for s in m_seats)
    o_tr = sum(v for s, v in ntr.items() if s not in m_seats)
    if complete:
        f.valat_side = "M" if o_tr == 0 else "O" if m_tr == 0 else None
    elif not h.ended_early:
        f.unverified.append(
            f"the hand stops after {len(h.tricks)} of {h.tricks_total} tricks: "
            "scored as far as played"
        )
    if row.fixed:
        f.card_points["declarer_tricks"] = f.declarer_tricks
        return f
    # piles (spec 9.2, 6.3)
    remainder = [x for x in h.talon if x not in h.taken] if row.talon else list(h.talon)
    rem_to_m = bool(
        row.talon
        and h.king_in_talon
        and h.called_king in h.taken
        and not h.self_call
        and any(t.winning_card == h.called_king for t in h.tricks)
    )
    pile_m = [x for s in m_seats for x in won.get(s, [])] + list(h.discards)
    pile_o = [x for s, p in won.items() if s not in m_seats for x in p]
    (pile_m if rem_to_m else pile_o).extend(remainder)
    f.t_m, f.t_o = thirds(pile_m), thirds(pile_o)
    f.card_points.update(
        {
            "declarer_side_thirds": f.t_m,
            "defenders_thirds": f.t_o,
            "declarer_side_cards": len(pile_m),
            "defenders_cards": len(pile_o),
            "remainder_to_declarer": rem_to_m,
        }
    )
    if complete and (f.t_m + f.t_o != 210 or len(pile_m) + len(pile_o) != 54):
        f.unverified.append(
            f"card conservation broken: piles hold {len(pile_m) + len(pile_o)} "
            f"cards worth {f.t_m + f.t_o} thirds (expected 54 and 210)"
        )
    # bonus outcomes (spec 7.1)
    pm, po = pile_m, pile_o
    if not h.rules.count_remainder:
        pm = [x for x in pile_m if not (rem_to_m and x in remainder)]
        po = [x for x in pile_o if not (not rem_to_m and x in remainder)]
    f.outcomes["trula"] = _side_of(pm, po, TRULA)
    f.outcomes["kralji"] = _side_of(pm, po, KINGS)
    last = h.tricks[-1] if h.claim is None and len(h.tricks) >= h.tricks_total else None
    f.outcomes["pagat_ultimo"] = None
    if last is not None:
        if last.winning_card == PAGAT:
            f.outcomes["pagat_ultimo"] = h.side(last.winner)
        else:
            for seat, card in last.cards:
                if card == PAGAT:
                    f.failed_silent["pagat_ultimo"] = h.side(seat)
    elif h.claim is not None and PAGAT in h.claim[2]:
        f.unverified.append("pagat ultimo cannot be judged: the rest of the tricks was claimed")
    k = h.called_king
    if k is not None and row.king_call and h.n_active == 4:
        f.outcomes["kralj_ultimo"] = None
        if last is not None and any(card == k for _, card in last.cards):
            if h.side(last.winner) == "M":
                f.outcomes["kralj_ultimo"] = "M"
            else:
                f.failed_silent["kralj_ultimo"] = "M"
        partial = any(
            i.type == "renons" and i.upheld and i.kind == "partial_king_ultimo"
            for i in h.irregularities
        )
        if partial or (h.claim is not None and "kralj_ultimo" in h.ann and len(h.claim[2]) >= 2):
            f.outcomes["kralj_ultimo"] = None  # partial renons: the king counts as caught
    # mond events (spec 9.9)
    ev: list[tuple[int, str]] = []
    for i, t in enumerate(h.tricks):
        for seat, card in t.cards:
            if card == MOND and t.winning_card != MOND:
                ev.append(
                    (seat, f"seat {seat}'s mond was captured by {t.winning_card} in trick {i + 1}")
                )
    if row.talon and MOND in h.talon and MOND not in h.taken and not rem_to_m:
        ev.append(
            (
                d,
                "the declarer left the mond in the talon"
                + (" (self-call: the remainder is never his)" if h.self_call else ""),
            )
        )
    f.mond_events = tuple(ev)
    return f


# ---------------------------------------------------------------------- facts of a score sheet

#: the bonuses a score-sheet hand may name, and what a kontra may target
_SHEET_BONUSES = ("trula", "kralji", "pagat_ultimo", "kralj_ultimo", "valat", "barvni_valat")


def fact_terms() -> FactTerms:
    """The words of a Slovenian hand recorded as facts (log format 1.1, ``facts``)."""
    return FactTerms(tuple(CONTRACTS), _SHEET_BONUSES, ("game", *_SHEET_BONUSES))


def _thirds_of(rules: Rules, points: int, won: bool | None, what: str) -> int:
    """The thirds behind ``points`` rounded card points of the declarer's side (or a klop
    player), chosen to agree with ``won`` where rounding hides the odd card: 35 points are
    105 thirds (35 exactly: lost) or 106 (35 and a card: won)."""
    candidates = [t for t in (3 * points, 3 * points + 1, 3 * points - 1) if 0 <= t <= 210]
    if won is None:
        sides = {t >= rules.win_threshold for t in candidates}
        if len(sides) > 1:
            raise FactsNotScored(
                f"{what} {points} card points: won or lost depends on the odd card, and the "
                "result is not recorded"
            )
        return candidates[0]
    for t in candidates:
        if (t >= rules.win_threshold) == won:
            return t
    raise FactsNotScored(
        f"{what} {points} card points cannot be {'won' if won else 'lost'} (the game is won "
        f"with {rules.win_threshold} thirds, {rules.win_threshold // 3} points and a card)"
    )


def facts_from_record(
    rules: Rules,
    table_size: int,
    dealer: int,
    rec: RecordedFacts,
    *,
    radelci: Sequence[int] = (),
    irregularities: Sequence[Irregularity] = (),
    misdeals: Sequence[int] = (),
) -> HandFacts:
    """The :class:`HandFacts` of a hand recorded as facts without cards (a score-sheet
    line), so that :func:`score_facts` scores it exactly as a played hand with these facts.

    The card points become thirds (:func:`_thirds_of`); a fixed-value contract's result
    becomes the declarer's tricks (berač won: none; valat won: all). Raises
    :class:`FactsNotScored` when the facts do not settle the score (an unknown contract, no
    declarer, a result that neither the card points nor the difference and ``won`` give).
    """
    c = rec.contract
    row = CONTRACTS.get(c)
    if row is None:
        raise FactsNotScored(f"unknown contract {c!r} (contracts: {', '.join(CONTRACTS)})")
    order = [(dealer + 1 + k) % table_size for k in range(table_size)]  # from P1 on
    active = tuple(s for s in order if not (table_size == 5 and s == dealer))
    tricks_total = 48 // len(active) if len(active) in (3, 4) else 12
    side = {"declarer": "M", "defenders": "O"}
    f = HandFacts(
        contract=c, active=active, table_size=table_size, declarer=rec.declarer,
        partner=rec.partner, radelci=tuple(radelci), tricks_total=tricks_total,
        kontra={t: max(lv for t2, lv, _ in rec.kontras if t2 == t) for t, _, _ in rec.kontras},
        kontra_givers=frozenset(s for _, _, s in rec.kontras if s is not None),
        irregularities=tuple(irregularities), misdeals_before=tuple(misdeals),
    )  # fmt: skip
    for b in rec.bonuses:
        if b.bonus not in _SHEET_BONUSES:
            raise FactsNotScored(
                f"unknown bonus {b.bonus!r} (bonuses: {', '.join(_SHEET_BONUSES)})"
            )
        who = side[b.side]
        if b.announced:
            f.announced[b.bonus] = who
        if b.bonus in ("valat", "barvni_valat"):
            continue
        if b.made:
            f.outcomes[b.bonus] = who
        elif b.announced:
            f.outcomes.setdefault(b.bonus, None)
        else:
            f.failed_silent[b.bonus] = who
    if row.alone:
        pts = rec.points_by_seat
        if pts is None or len(pts) != table_size:
            raise FactsNotScored("klop needs each seat's card points (points_by_seat)")
        for s in rec.full:
            if s not in active or pts[s] != 35:
                raise FactsNotScored(
                    f"seat {s} is recorded full with {pts[s]} card points "
                    "(full with 35 and a card; more points are full anyway)"
                )
        f.klop_thirds = {
            s: _thirds_of(rules, pts[s], s in rec.full, f"seat {s} in klop with")
            if pts[s] == 35 else 3 * pts[s]
            for s in active
        }  # fmt: skip
        f.klop_tricks = {s: (1 if pts[s] else 0) for s in active}
        f.card_points["points"] = [pts[s] if s in active else None for s in range(table_size)]
        return f
    d = rec.declarer
    if d is None or d not in active:
        raise FactsNotScored(f"{row.name} needs the declarer (an active seat)")
    if rec.partner is not None and (rec.partner == d or rec.partner not in active):
        raise FactsNotScored(f"seat {rec.partner} cannot be the declarer's partner")
    made_valat = [b for b in rec.bonuses if b.bonus == "valat" and b.made]
    if made_valat:
        f.valat_side = side[made_valat[0].side]
    f.mond_events = tuple(
        (seat, f"seat {seat} lost the mond" + ("" if by is None else f" to seat {by}'s škis"))
        for seat, by in rec.mondfang
    )
    colour_valat = "barvni_valat" in f.announced
    if row.fixed or colour_valat:
        if rec.won is None:
            raise FactsNotScored(f"{row.name}: won or lost is not recorded")
        if row.no_trick:
            f.declarer_tricks = 0 if rec.won else 1
        else:
            f.declarer_tricks = tricks_total if rec.won else 0
        f.card_points["declarer_won"] = rec.won
        return f
    if f.valat_side is not None and rec.card_points is None and rec.difference is None:
        f.card_points["valat"] = f.valat_side
        return f  # a valat replaces the game and the difference
    points = rec.card_points
    if points is None:
        if rec.difference is None:
            raise FactsNotScored(
                f"{row.name}: neither the card points nor the difference is recorded"
            )
        if rec.won is None and rec.difference != 0:
            raise FactsNotScored(f"{row.name}: the difference is recorded, but not won or lost")
        points = 35 + rec.difference if rec.won else 35 - rec.difference
        if not 0 <= points <= 70:
            raise FactsNotScored(f"a difference of {rec.difference} is more than 35")
    elif rec.difference is not None and abs(points - 35) != rec.difference:
        raise FactsNotScored(
            f"the recorded difference {rec.difference} contradicts the recorded card points "
            f"{points} (|{points} − 35| = {abs(points - 35)})"
        )
    f.t_m = _thirds_of(rules, points, rec.won, "the declarer's side with")
    f.t_o = 210 - f.t_m
    f.card_points.update({"declarer_side_thirds": f.t_m, "defenders_thirds": f.t_o,
                          "declarer_side_points": points})  # fmt: skip
    return f


def recorded_facts(h: HandFields) -> RecordedFacts | None:
    """What a score sheet keeps of a finished played hand: the :class:`RecordedFacts` that
    :func:`facts_from_record` turns back into this hand's scoring facts (so scoring them gives
    this hand's score). None when the hand has no contract."""
    if h.contract is None:
        return None
    f = hand_facts(h)
    side = {"M": "declarer", "O": "defenders"}
    bonuses: list[BonusOutcome] = []
    for b in ("trula", "kralji", "pagat_ultimo", "kralj_ultimo"):
        if b in f.announced:
            who = f.announced[b]
            bonuses.append(BonusOutcome(b, side[who], True, f.outcomes.get(b) == who))
        elif f.outcomes.get(b):
            bonuses.append(BonusOutcome(b, side[str(f.outcomes[b])]))
        elif b in f.failed_silent:
            bonuses.append(BonusOutcome(b, side[f.failed_silent[b]], False, False))
    if "valat" in f.announced:
        bonuses.append(BonusOutcome("valat", "declarer", True, f.valat_side == "M"))
        if f.valat_side == "O":
            bonuses.append(BonusOutcome("valat", "defenders"))
    elif f.valat_side is not None:
        bonuses.append(BonusOutcome("valat", side[f.valat_side]))
    won: bool | None = None
    if "barvni_valat" in f.announced:
        won = f.declarer_tricks == f.tricks_total
        bonuses.append(BonusOutcome("barvni_valat", "declarer", True, won))
    kontras = tuple((target, level, seat) for seat, target, level in h.kontra_list)
    capturer: dict[int, int | None] = {}
    for t in h.tricks:
        for seat, card in t.cards:
            if card == MOND and t.winning_card != MOND:
                capturer[seat] = t.winner
    mondfang = tuple((seat, capturer.pop(seat, None)) for seat, _ in f.mond_events)
    c = f.contract
    row = CONTRACTS[c]
    if row.alone:
        th = f.klop_thirds
        return RecordedFacts(
            c, points_by_seat=tuple(rounded(th.get(s, 0)) for s in range(h.table_size)),
            full=tuple(s for s in h.active if rounded(th[s]) == 35
                       and th[s] >= h.rules.win_threshold),
            kontras=kontras, bonuses=tuple(bonuses),
        )  # fmt: skip
    card_points = difference = None
    if row.no_trick:
        won = f.declarer_tricks == 0
    elif row.every_trick:
        won = f.declarer_tricks == f.tricks_total
    elif won is None:
        won = f.t_m >= h.rules.win_threshold
        card_points = rounded(f.t_m)
        difference = abs(card_points - 35)
    return RecordedFacts(
        c, declarer=f.declarer, partner=f.partner, called=h.called_king, won=won,
        card_points=card_points, difference=difference, bonuses=tuple(bonuses),
        kontras=kontras, mondfang=mondfang,
    )  # fmt: skip


# ---------------------------------------------------------------------- scoring from facts


def score_hand(h: HandFields) -> HandScore:
    """The itemised score of a finished (or stopped) hand under its ruleset."""
    if h.rules.openspiel_scoring:
        return _openspiel_score(h)
    if h.contract is None:
        return HandScore(
            totals=(0,) * h.table_size,
            items=(),
            unverified=("the hand has no contract (the bidding did not finish)",),
            carry_after={"radelci": list(h.radelci_before)},
        )
    return score_facts(h.rules, hand_facts(h))


def score_facts(rules: Rules, f: HandFacts) -> HandScore:
    """Items, totals and radelci after the hand from its facts (spec 9.1 pipeline, section 10)."""
    acc = _Acc(f)
    radelci = list(f.radelci) if f.radelci else [0] * f.table_size
    won: bool | None = None
    renons = (
        [
            i
            for i in f.irregularities
            if i.type == "renons" and i.upheld and i.kind != "partial_king_ultimo"
        ]
        if f.irregularities
        else []
    )
    if renons:
        _renons(rules, f, acc, renons, radelci)
    elif CONTRACTS[f.contract].alone:
        _klop(rules, f, acc, radelci)
    else:
        won = _declarer_game(rules, f, acc, radelci)
    misdeals = _penalties(f, acc)
    if rules.radelci:
        _award_radelci(rules, f, radelci, bool(renons))
    carry: dict[str, Any] = {"radelci": radelci if rules.radelci else [0] * f.table_size}
    if misdeals is not None:
        carry["misdeals"] = misdeals
    return HandScore(
        totals=acc.totals(),
        items=tuple(acc.items),
        contract=f.contract,
        declarer=f.declarer,
        partner=f.partner,
        won=won,
        card_points=dict(f.card_points),
        unverified=tuple(f.unverified),
        carry_after=carry,
    )


def _radelc_factor(rules: Rules, f: HandFacts, seat: int | None) -> int:
    if seat is None or not rules.radelci or not f.radelci:
        return 1
    return 2 if f.radelci[seat] >= 1 else 1


def _kt(k: int) -> str:
    return f" (×{k} kontra)" if k > 1 else ""


def _declarer_game(rules: Rules, f: HandFacts, acc: _Acc, radelci: list[int]) -> bool:
    c = f.contract
    d = f.declarer
    assert d is not None
    row = CONTRACTS[c]
    kg = 2 ** f.kontra.get("game", 0)
    F = _radelc_factor(rules, f, d)

    if row.fixed:  # spec 9.7
        V = rules.contract_value(c)
        if row.no_trick:
            won = f.declarer_tricks == 0
            why = "took no trick" if won else "took a trick"
        else:
            won = f.declarer_tricks == f.tricks_total
            why = "took every trick" if won else "lost a trick"
        R = (V if won else -V) * kg
        acc.add(
            "contract",
            R,
            None,
            f"{row.name} {'won' if won else 'lost'}: the declarer {why}{_kt(kg)}",
        )
        _radelc_item(acc, R, F)
        if won and F == 2:
            radelci[d] -= 1
        return won

    if "barvni_valat" in f.announced:  # spec 9.6
        k = 2 ** max(f.kontra.get("barvni_valat", 0), f.kontra.get("game", 0))
        won = f.declarer_tricks == f.tricks_total
        R = (125 if won else -125) * k
        acc.add(
            "barvni_valat",
            R,
            None,
            f"barvni valat announced and {'won' if won else 'lost'}{_kt(k)}",
        )
        _radelc_item(acc, R, F)
        if won and F == 2:
            radelci[d] -= 1
        return won

    # game and difference (spec 9.3, 9.4)
    t_m = f.t_m
    game_won = t_m >= rules.win_threshold
    p_m = rounded(t_m)
    diff = abs(p_m - 35)
    if rules.diff_nearest_5:
        diff = 5 * ((diff + 2) // 5)
    if row.brez_options and not rules.solo_brez_difference:
        diff = 0
    s = 1 if game_won else -1
    V = rules.contract_value(c)
    pts = f"{t_m // 3} points" + (
        "" if t_m % 3 == 0 else " and one card" if t_m % 3 == 1 else " and two cards"
    )
    game_items = [
        (
            "contract",
            s * V * kg,
            f"{row.name} {'won' if game_won else 'lost'} with {pts} ({t_m} thirds){_kt(kg)}",
        ),
        ("difference", s * diff * kg, f"difference |{p_m} − 35| = {diff}{_kt(kg)}"),
    ]
    bonus_items: list[tuple[str, int, str]] = []
    if rules.has_bonuses(c):
        for b in ("trula", "kralji", "pagat_ultimo", "kralj_ultimo"):
            bi = _bonus(rules, f, b)
            if bi is not None:
                bonus_items.append(bi)

    o_valat = f.valat_side
    kv = 2 ** f.kontra.get("valat", 0)
    final: list[tuple[str, int, str]]
    if "valat" in f.announced:
        if o_valat == "M":
            final = [("valat", 500 * kv, f"valat announced and won{_kt(kv)}")]
        elif o_valat == "O":
            final = [
                ("valat", -250 * kg, f"the defenders won every trick{_kt(kg)}"),
                ("valat", -500 * kv, f"valat announced and lost{_kt(kv)}"),
            ]
        else:
            final = (
                game_items
                + bonus_items
                + [("valat", -500 * kv, f"valat announced and lost{_kt(kv)}")]
            )
    elif o_valat == "M":
        final = [("valat", 250 * kg, f"silent valat: the declarer's side won every trick{_kt(kg)}")]
    elif o_valat == "O":
        final = [("valat", -250 * kg, f"silent valat of the defenders{_kt(kg)}")]
    else:
        final = game_items + bonus_items
    R = 0
    for item, value, reason in final:
        acc.add(item, value, None, reason)
        R += value
    _radelc_item(acc, R, F)
    won = (o_valat == "M") if o_valat else game_won
    if won and F == 2:
        radelci[d] -= 1
    if o_valat is None or rules.mondfang_when_valat:  # spec 9.9
        for seat, reason in f.mond_events:
            acc.add("mondfang", -rules.mondfang_value, seat, reason)
    return won


def _radelc_item(acc: _Acc, R: int, F: int) -> None:
    if F == 2:
        acc.add("radelc", R, None, "the declarer holds a radelc: the result is doubled")


def _bonus(rules: Rules, f: HandFacts, b: str) -> tuple[str, int, str] | None:
    """One bonus line (spec 9.5), or None when it does not count."""
    if b not in f.outcomes and b not in f.announced:
        return None
    v = BONUS_VALUES[b]
    o = f.outcomes.get(b)
    name = _BONUS_NAMES[b]
    if b in f.announced:
        side = f.announced[b]
        kb = 2 ** f.kontra.get(b, 0)
        who = "the declarer's side" if side == "M" else "the defenders"
        if side == "M":
            val = (2 * v if o == "M" else -2 * v) * kb
        else:
            val = (-2 * v if o == "O" else 2 * v) * kb
        ach = "achieved" if o == side else "not achieved"
        return (b, val, f"{name} announced by {who}, {ach}{_kt(kb)}")
    if o == "M":
        return (b, v, f"silent {name} of the declarer's side")
    if o == "O":
        return (b, -v, f"silent {name} of the defenders")
    failed = f.failed_silent.get(b)
    if failed and rules.silent_ultimo_failure_counts:
        val = -v if failed == "M" else v
        return (b, val, f"silent {name} failed in the last trick")
    return None


def _klop(rules: Rules, f: HandFacts, acc: _Acc, radelci: list[int]) -> None:
    """Klop (spec 9.8): everyone for himself; full (> 35) −70, empty (no trick) +70."""
    th = f.klop_thirds
    full = {s for s in f.active if th.get(s, 0) >= rules.win_threshold}
    empty = {s for s in f.active if f.klop_tricks.get(s, 0) == 0}
    base: dict[int, int] = {}
    why: dict[int, str] = {}
    for s in f.active:
        if full or empty:
            if s in full:
                base[s], why[s] = -70, f"full: {th[s]} thirds, more than 35 points"
            elif s in empty:
                base[s], why[s] = 70, "empty: won no trick"
            else:
                base[s], why[s] = 0, "another player is full or empty"
        else:
            p = rounded(th.get(s, 0))
            if rules.klop_nearest_5:
                p = 5 * ((p + 2) // 5)
            base[s], why[s] = -p, f"{p} card points ({th.get(s, 0)} thirds)"
    if f.kontra.get("game"):
        if not (full and empty) or rules.klop_kontra_full_and_empty_doubled:
            for s in f.active:
                base[s] *= 2
                if base[s]:
                    why[s] += " (×2 kontra)"
    for s in f.active:
        F = _radelc_factor(rules, f, s)
        acc.add("klop", base[s], s, why[s])
        if F == 2 and base[s]:
            acc.add("radelc", base[s], s, f"seat {s} holds a radelc: his klop result is doubled")
        if base[s] > 0 and rules.radelci and radelci[s] > 0:
            radelci[s] -= 1


def _renons(
    rules: Rules, f: HandFacts, acc: _Acc, renons: list[Irregularity], radelci: list[int]
) -> None:
    """Renons settlements (spec 10.4); they replace the hand's normal score."""
    c = f.contract
    row = CONTRACTS[c]
    kg = 2 ** f.kontra.get("game", 0)
    vr = 125 if "barvni_valat" in f.announced else row.renons_value
    d = f.declarer
    erased: set[int] = set()
    for ir in renons:
        x = ir.seat
        if x is None:
            continue
        fx = _radelc_factor(rules, f, x)
        if ir.kind == "wrong_discard":
            who = d if d is not None else x
            fd = _radelc_factor(rules, f, who)
            acc.add(
                "renons",
                -70 * fd,
                who,
                "wrong discard: the declarer writes −70"
                + (" ×2 radelc" if fd == 2 else "")
                + "; kontras are ignored",
            )
            continue
        pen = vr * kg
        parts = [f"{vr}" + (f" ×{kg} kontra" if kg > 1 else "")]
        if rules.renons_with_bonuses:
            for b in f.announced:
                if b == "barvni_valat":
                    continue
                vb = 2 * BONUS_VALUES[b] * 2 ** f.kontra.get(b, 0)
                pen += vb
                parts.append(f"{b} {vb}")
        acc.add(
            "renons",
            -pen * fx,
            x,
            f"renons ({ir.kind}) by seat {x}: −({' + '.join(parts)})"
            + (" ×2 radelc" if fx == 2 else ""),
        )
        if x in f.kontra_givers and d is not None and not row.alone:
            fd = _radelc_factor(rules, f, d)
            v = rules.contract_value(c)
            plus = v * kg * fd
            acc.add(
                "renons",
                plus,
                d,
                f"the kontra giver (seat {x}) committed the renons: the "
                f"declarer writes +{v}"
                + (f" ×{kg} kontra" if kg > 1 else "")
                + (" ×2 radelc" if fd == 2 else ""),
            )
            if rules.renons_partner_plus and f.partner is not None:
                acc.add("renons", plus, f.partner, "the partner writes the declarer's plus")
            if fd == 2 and rules.radelci and d not in erased:
                radelci[d] -= 1
                erased.add(d)


def _penalties(f: HandFacts, acc: _Acc) -> list[int] | None:
    """Misdeal penalties (0, −20, −40, −80 … per offender, spec 3.6) and game-point penalties."""
    counts = list(f.misdeals_before) if f.misdeals_before else [0] * f.table_size
    changed = False
    for ir in f.irregularities:
        if ir.type == "misdeal" and ir.seat is not None:
            counts[ir.seat] += 1
            changed = True
            k = counts[ir.seat]
            pts = 0 if k == 1 else -20 * 2 ** (k - 2)
            acc.add(
                "penalty",
                pts,
                ir.seat,
                f"misdeal number {k} of seat {ir.seat}" + (": a warning" if k == 1 else f": {pts}"),
            )
        elif ir.type == "penalty" and ir.seat is not None and ir.unit == "game":
            pts = -abs(ir.points or 0)
            acc.add("penalty", pts, ir.seat, f"penalty of {pts} game points")
        elif ir.type == "arbiter":
            for seat, pts, unit in ir.adjustments:
                if unit == "game":
                    acc.add("penalty", pts, seat, f"arbiter's adjustment of {pts:+d}")
    return counts if changed else None


def _award_radelci(rules: Rules, f: HandFacts, radelci: list[int], renons: bool) -> None:
    """Every seated player earns a radelc after a game worth 70 or more (spec 9.10 step 4)."""
    row = CONTRACTS[f.contract]
    award = row.radelc or "barvni_valat" in f.announced
    if (
        not award
        and rules.radelci_from_silent_valat
        and not row.alone
        and not renons
        and (f.valat_side is not None or "valat" in f.announced)
    ):
        award = True
    for s in range(f.table_size):
        radelci[s] = max(0, radelci[s] + (1 if award else 0))


# ---------------------------------------------------------------------- openspiel


def _openspiel_score(h: HandFields) -> HandScore:
    if h.contract is None:
        return HandScore(
            totals=(0,) * h.table_size, items=(), unverified=("the hand has no contract",)
        )
    return openspiel_hand_score(
        h, [(t.leader, [x for _, x in t.cards], t.winner) for t in h.tricks]
    )


def openspiel_hand_score(
    h: HandFields, tricks: Sequence[tuple[int, Sequence[str], int]]
) -> HandScore:
    """The ``openspiel-2.0`` score of the hand ``h`` whose tricks are ``tricks`` (leader, card
    tokens in playing order, winner): OpenSpiel's returns, one ``contract`` (or ``klop``) item
    per active seat. The fast path passes its own trick records; :func:`score_hand` those of
    ``h.tricks``."""
    n = h.table_size
    c = h.contract
    if c is None:
        return HandScore(totals=(0,) * n, items=(), unverified=("the hand has no contract",))
    if openspiel_returns is None:
        return HandScore(
            totals=(0,) * n,
            items=(),
            contract=c,
            declarer=h.declarer,
            partner=h.partner,
            unverified=("OpenSpiel scoring (openspiel_scoring.py) is not available",),
        )
    try:
        returns = openspiel_returns(
            num_players=n,
            forehand=h.p1,
            contract=c,
            declarer=h.declarer,
            partner=h.partner,
            called_king=h.called_king,
            talon=h.talon,
            talon_group=h.talon_group,
            discards=list(h.discards),
            tricks=tricks,
        )
    except (ValueError, KeyError, IndexError) as exc:
        return HandScore(
            totals=(0,) * n,
            items=(),
            contract=c,
            declarer=h.declarer,
            partner=h.partner,
            carry_after={"radelci": [0] * n},
            unverified=(f"OpenSpiel cannot score this hand: {exc}",),
        )
    alone = CONTRACTS[c].alone
    item = "klop" if alone else "contract"  # the score item of klop is "klop"
    items = tuple([score_item(item, int(returns[s]), s, "OpenSpiel returns") for s in h.active])
    won = None
    if not alone and h.declarer is not None:
        won = returns[h.declarer] > 0
    return HandScore(
        totals=tuple(map(int, returns)),
        items=items,
        contract=c,
        declarer=h.declarer,
        partner=h.partner,
        won=won,
        carry_after={"radelci": [0] * n},
    )


__all__ = [
    "HandFacts",
    "fact_terms",
    "facts_from_record",
    "hand_facts",
    "openspiel_hand_score",
    "recorded_facts",
    "score_facts",
    "score_hand",
]
