"""Itemised scoring of one Slovenian hand (spec sections 9 and 10), and the OpenSpiel bridge.

Items are named as in docs/architecture.md "Score items": ``contract``, ``difference``,
``trula``, ``kralji``, ``pagat_ultimo``, ``kralj_ultimo``, ``valat``, ``barvni_valat``,
``radelc``, ``mondfang``, ``klop``, ``renons``, ``penalty``. An item with ``seat=None`` is
written by every member of the declarer's side.

Vocabulary: the **difference** (*razlika*) is |rounded card points of the declarer's side − 35|;
a **radelc** is a token every player earns after a game worth 70 or more, which doubles the
holder's next result as declarer (and is erased when he wins); **mondfang** is the −20 for
losing the mond (T21); **kontra** doubles one item; a **renons** is a rules violation whose
settlement replaces the hand's score.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tarock_logs.rules.base import HandScore, ScoreItem
from tarock_logs.rules.slovenian.cardplay import KINGS, MOND, PAGAT, TRULA, rounded, thirds
from tarock_logs.rules.slovenian.contracts import BONUS_VALUES, CONTRACTS

if TYPE_CHECKING:
    from tarock_logs.rules.slovenian.hand import SlovenianHand

_BONUS_NAMES = {"trula": "trula", "kralji": "kralji (all four kings)",
                "pagat_ultimo": "pagat ultimo", "kralj_ultimo": "kralj ultimo"}  # fmt: skip


class _Acc:
    """Collects items and adds them up per seat."""

    def __init__(self, h: SlovenianHand) -> None:
        self.h = h
        self.items: list[ScoreItem] = []

    def add(self, item: str, value: int, seat: int | None, reason: str) -> None:
        self.items.append(ScoreItem(item, int(value), seat, reason))

    def totals(self) -> tuple[int, ...]:
        h = self.h
        tot = [0] * h.table_size
        side_m = [s for s in (h.declarer, h.partner) if s is not None]
        for it in self.items:
            if it.seat is None:
                for s in side_m:
                    tot[s] += it.value
            else:
                tot[it.seat] += it.value
        return tuple(tot)


def _won_piles(h: SlovenianHand) -> dict[int, list[str]]:
    """Cards each active seat won in tricks (klop gifts included; a claim's rest to the claimer)."""
    won: dict[int, list[str]] = {s: [] for s in h.active}
    for t in h.tricks:
        pile = won.setdefault(t.winner, [])
        pile.extend(c for _, c in t.cards)
        if t.gift:
            pile.append(t.gift)
    if h.claim is not None:
        won.setdefault(h.claim[0], []).extend(h.claim[2])
    return won


def _tricks_by(h: SlovenianHand) -> dict[int, int]:
    n: dict[int, int] = {s: 0 for s in h.active}
    for t in h.tricks:
        n[t.winner] = n.get(t.winner, 0) + 1
    if h.claim is not None:
        n[h.claim[0]] = n.get(h.claim[0], 0) + h.tricks_total - h.claim[1]
    return n


def _complete(h: SlovenianHand) -> bool:
    return h.claim is not None or len(h.tricks) >= h.tricks_total


def _radelc_factor(h: SlovenianHand, seat: int | None) -> int:
    if seat is None or not h.rules.radelci:
        return 1
    return 2 if h.radelci_before[seat] >= 1 else 1


def score_hand(h: SlovenianHand) -> HandScore:
    """The itemised score of a finished (or stopped) hand under its ruleset."""
    if h.rules.openspiel_scoring:
        return _openspiel_score(h)
    acc = _Acc(h)
    unverified: list[str] = []
    radelci = list(h.radelci_before)
    card_points: dict[str, Any] = {}
    won: bool | None = None
    c = h.contract
    renons = [i for i in h.irregularities if i.type == "renons" and i.upheld
              and i.kind != "partial_king_ultimo"]  # fmt: skip
    if c is None:
        unverified.append("the hand has no contract (the bidding did not finish)")
    elif renons:
        won = _renons(h, acc, renons, radelci)
    elif c == "klop":
        _klop(h, acc, radelci, card_points, unverified)
    else:
        won = _declarer_game(h, acc, radelci, card_points, unverified)
    misdeals = _penalties(h, acc)
    if h.rules.radelci and c is not None:
        _award_radelci(h, radelci, renons)
    carry: dict[str, Any] = {"radelci": radelci}
    if misdeals is not None:
        carry["misdeals"] = misdeals
    return HandScore(
        totals=acc.totals(),
        items=tuple(acc.items),
        contract=c,
        declarer=h.declarer,
        partner=h.partner,
        won=won,
        card_points=card_points,
        unverified=tuple(unverified),
        carry_after=carry,
    )


# ---------------------------------------------------------------------- declarer games


def _declarer_game(h: SlovenianHand, acc: _Acc, radelci: list[int],
                   card_points: dict[str, Any], unverified: list[str]) -> bool | None:  # fmt: skip
    r = h.rules
    c = h.contract
    assert c is not None and h.declarer is not None
    d = h.declarer
    row = CONTRACTS[c]
    kg = 2 ** h.kontra.get("game", 0)
    ntricks = _tricks_by(h)
    m_seats = {s for s in (d, h.partner) if s is not None}
    m_tricks = sum(ntricks.get(s, 0) for s in m_seats)
    o_tricks = sum(v for s, v in ntricks.items() if s not in m_seats)
    complete = _complete(h)
    if not complete and not h.ended_early:
        unverified.append(f"the hand stops after {len(h.tricks)} of {h.tricks_total} tricks: "
                          "scored as far as played")  # fmt: skip
    F = _radelc_factor(h, d)

    # fixed-value contracts (spec 9.7)
    if c in ("berac", "odprti_berac", "barvni_valat", "valat"):
        V = r.contract_value(c)
        if c in ("berac", "odprti_berac"):
            won = ntricks.get(d, 0) == 0
            why = "took no trick" if won else "took a trick"
        else:
            won = ntricks.get(d, 0) == h.tricks_total
            why = "took every trick" if won else "lost a trick"
        R = (V if won else -V) * kg
        acc.add("contract", R, None, f"{row.name} {'won' if won else 'lost'}: the declarer {why}"
                f"{' (×2 kontra)' if kg > 1 else ''}")  # fmt: skip
        _radelc_item(acc, R, F)
        if won and F == 2:
            radelci[d] -= 1
        card_points["declarer_tricks"] = ntricks.get(d, 0)
        return won

    # positive games with a difference: piles (spec 9.2)
    won_piles = _won_piles(h)
    remainder: list[str] = []
    if row.talon:
        remainder = [x for x in h.talon if x not in h.taken]
    else:
        remainder = list(h.talon)  # solo brez: the untouched talon belongs to O
    rem_to_m = bool(
        row.talon and h.king_in_talon and h.called_king in h.taken and not h.self_call
        and any(t.winning_card == h.called_king for t in h.tricks)
    )  # fmt: skip
    pile_m = [x for s in m_seats for x in won_piles.get(s, [])] + list(h.discards)
    pile_o = [x for s, p in won_piles.items() if s not in m_seats for x in p]
    if rem_to_m:
        pile_m += remainder
    else:
        pile_o += remainder
    t_m = thirds(pile_m)
    t_o = thirds(pile_o)
    card_points.update({"declarer_side_thirds": t_m, "defenders_thirds": t_o,
                        "declarer_side_cards": len(pile_m), "defenders_cards": len(pile_o),
                        "remainder_to_declarer": rem_to_m})  # fmt: skip
    if complete and (t_m + t_o != 210 or len(pile_m) + len(pile_o) != 54):
        unverified.append(f"card conservation broken: piles hold {len(pile_m) + len(pile_o)} "
                          f"cards worth {t_m + t_o} thirds (expected 54 and 210)")  # fmt: skip

    # announced barvni valat (spec 9.6)
    if "barvni_valat" in h.ann:
        k = 2 ** max(h.kontra.get("barvni_valat", 0), h.kontra.get("game", 0))
        won = ntricks.get(d, 0) == h.tricks_total
        R = (125 if won else -125) * k
        acc.add("barvni_valat", R, None, f"barvni valat announced and "
                f"{'won' if won else 'lost'}{' (×2 kontra)' if k > 1 else ''}")  # fmt: skip
        _radelc_item(acc, R, F)
        if won and F == 2:
            radelci[d] -= 1
        return won

    # game and difference (spec 9.3, 9.4)
    game_won = t_m >= r.win_threshold
    p_m = rounded(t_m)
    diff = abs(p_m - 35)
    if r.diff_nearest_5:
        diff = 5 * ((diff + 2) // 5)
    if c == "solo_brez" and not r.solo_brez_difference:
        diff = 0
    s = 1 if game_won else -1
    V = r.contract_value(c)
    ktxt = " (×2 kontra)" if kg > 1 else ""
    pts = f"{t_m // 3} points" + ("" if t_m % 3 == 0 else " and one card" if t_m % 3 == 1
                                  else " and two cards")  # fmt: skip
    game_items = [
        ("contract", s * V * kg, f"{row.name} {'won' if game_won else 'lost'} with {pts} "
         f"({t_m} thirds){ktxt}"),
        ("difference", s * diff * kg, f"difference |{p_m} − 35| = {diff}{ktxt}"),
    ]  # fmt: skip

    # bonuses (spec 7.1, 9.5)
    bonus_items: list[tuple[str, int, str]] = []
    if r.has_bonuses(c):
        for b in ("trula", "kralji", "pagat_ultimo", "kralj_ultimo"):
            bi = _bonus(h, b, pile_m, pile_o, remainder, rem_to_m, unverified)
            if bi is not None:
                bonus_items.append(bi)

    # valat (spec 9.6)
    o_valat = None
    if complete:
        if o_tricks == 0:
            o_valat = "M"
        elif m_tricks == 0:
            o_valat = "O"
    kv = 2 ** h.kontra.get("valat", 0)
    final: list[tuple[str, int, str]]
    if "valat" in h.ann:
        kvt = " (×2 kontra)" if kv > 1 else ""
        if o_valat == "M":
            final = [("valat", 500 * kv, f"valat announced and won{kvt}")]
        elif o_valat == "O":
            final = [("valat", -250 * kg, f"the defenders won every trick{ktxt}"),
                     ("valat", -500 * kv, f"valat announced and lost{kvt}")]  # fmt: skip
        else:
            final = game_items + bonus_items + [("valat", -500 * kv,
                                                 f"valat announced and lost{kvt}")]  # fmt: skip
    elif o_valat == "M":
        final = [("valat", 250 * kg, f"silent valat: the declarer's side won every trick{ktxt}")]
    elif o_valat == "O":
        final = [("valat", -250 * kg, f"silent valat of the defenders{ktxt}")]
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

    # mondfang (spec 9.9)
    if o_valat is None or r.mondfang_when_valat:
        _mondfang(h, acc, rem_to_m)
    return won


def _radelc_item(acc: _Acc, R: int, F: int) -> None:
    if F == 2:
        acc.add("radelc", R, None, "the declarer holds a radelc: the result is doubled")


def _outcome(pile_m: list[str], pile_o: list[str], cards: frozenset[str]) -> str | None:
    if cards.issubset(pile_m):
        return "M"
    if cards.issubset(pile_o):
        return "O"
    return None


def _bonus(h: SlovenianHand, b: str, pile_m: list[str], pile_o: list[str], remainder: list[str],
           rem_to_m: bool, unverified: list[str]) -> tuple[str, int, str] | None:  # fmt: skip
    r = h.rules
    v = BONUS_VALUES[b]
    failed_silent: str | None = None  # side that failed a silent ultimo (switch)
    if b in ("trula", "kralji"):
        pm, po = pile_m, pile_o
        if not r.count_remainder:
            pm = [x for x in pile_m if not (rem_to_m and x in remainder)]
            po = [x for x in pile_o if not (not rem_to_m and x in remainder)]
        o = _outcome(pm, po, TRULA if b == "trula" else frozenset(KINGS))
    elif b == "pagat_ultimo":
        o = None
        if h.claim is not None:
            if PAGAT in h.claim[2]:
                unverified.append("pagat ultimo cannot be judged: the rest was claimed")
        elif len(h.tricks) >= h.tricks_total:
            last = h.tricks[-1]
            if last.winning_card == PAGAT:
                o = h.side(last.winner)
            else:
                for seat, card in last.cards:
                    if card == PAGAT:
                        failed_silent = h.side(seat)
    else:  # kralj_ultimo
        k = h.called_king
        if k is None or not CONTRACTS[h.contract].king_call or h.n_active != 4:  # type: ignore[index]
            return None
        o = None
        if h.claim is None and len(h.tricks) >= h.tricks_total:
            last = h.tricks[-1]
            if any(card == k for _, card in last.cards):
                if h.side(last.winner) == "M":
                    o = "M"
                else:
                    failed_silent = "M"
        partial = any(i.type == "renons" and i.upheld and i.kind == "partial_king_ultimo"
                      for i in h.irregularities)  # fmt: skip
        if partial or (h.claim is not None and "kralj_ultimo" in h.ann):
            o = None
    name = _BONUS_NAMES[b]
    if b in h.ann:
        side = h.ann[b][1]
        kb = 2 ** h.kontra.get(b, 0)
        kt = " (×2 kontra)" if kb > 1 else ""
        who = "the declarer's side" if side == "M" else "the defenders"
        if side == "M":
            val = (2 * v if o == "M" else -2 * v) * kb
        else:
            val = (-2 * v if o == "O" else 2 * v) * kb
        ach = "achieved" if o == side else "not achieved"
        return (b, val, f"{name} announced by {who}, {ach}{kt}")
    if o == "M":
        return (b, v, f"silent {name} of the declarer's side")
    if o == "O":
        return (b, -v, f"silent {name} of the defenders")
    if failed_silent and r.silent_ultimo_failure_counts:
        val = -v if failed_silent == "M" else v
        return (b, val, f"silent {name} failed in the last trick")
    return None


def _mondfang(h: SlovenianHand, acc: _Acc, rem_to_m: bool) -> None:
    r = h.rules
    mv = r.mondfang_value
    for i, t in enumerate(h.tricks):
        for seat, card in t.cards:
            if card == MOND and t.winning_card != MOND:
                acc.add("mondfang", -mv, seat, f"seat {seat}'s mond was captured by "
                        f"{t.winning_card} in trick {i + 1}")  # fmt: skip
    row = CONTRACTS[h.contract]  # type: ignore[index]
    if row.talon and MOND in h.talon and MOND not in h.taken and not rem_to_m:
        acc.add("mondfang", -mv, h.declarer, "the declarer left the mond in the talon"
                + (" (self-call: the remainder is never his)" if h.self_call else ""))  # fmt: skip


# ---------------------------------------------------------------------- klop


def _klop(h: SlovenianHand, acc: _Acc, radelci: list[int], card_points: dict[str, Any],
          unverified: list[str]) -> None:  # fmt: skip
    r = h.rules
    won = _won_piles(h)
    ntr = _tricks_by(h)
    th = {s: thirds(won[s]) for s in h.active}
    card_points["thirds"] = [th.get(s) for s in range(h.table_size)]
    if not _complete(h):
        unverified.append(f"klop stops after {len(h.tricks)} of {h.tricks_total} tricks")
    elif sum(th.values()) != 210:
        unverified.append(f"card conservation broken: klop piles hold {sum(th.values())} thirds")
    full = {s for s in h.active if th[s] >= r.win_threshold}
    empty = {s for s in h.active if ntr.get(s, 0) == 0}
    base: dict[int, int] = {}
    why: dict[int, str] = {}
    for s in h.active:
        if full or empty:
            if s in full:
                base[s], why[s] = -70, f"full: {th[s]} thirds, more than 35 points"
            elif s in empty:
                base[s], why[s] = 70, "empty: won no trick"
            else:
                base[s], why[s] = 0, "another player is full or empty"
        else:
            p = rounded(th[s])
            if r.klop_nearest_5:
                p = 5 * ((p + 2) // 5)
            base[s], why[s] = -p, f"{p} card points ({th[s]} thirds)"
    if h.kontra.get("game"):
        pair = bool(full and empty) and not r.klop_kontra_full_and_empty_doubled
        if not pair:
            for s in h.active:
                base[s] *= 2
                if base[s]:
                    why[s] += " (×2 kontra)"
    for s in h.active:
        F = _radelc_factor(h, s)
        acc.add("klop", base[s], s, why[s])
        if F == 2 and base[s]:
            acc.add("radelc", base[s], s, f"seat {s} holds a radelc: his klop result is doubled")
        if base[s] > 0 and r.radelci and radelci[s] > 0:
            radelci[s] -= 1


# ---------------------------------------------------------------------- renons (section 10)


def _renons(h: SlovenianHand, acc: _Acc, renons: list[Any], radelci: list[int]) -> bool | None:
    r = h.rules
    c = h.contract
    assert c is not None
    row = CONTRACTS[c]
    kg = 2 ** h.kontra.get("game", 0)
    vr = 125 if "barvni_valat" in h.ann else row.renons_value
    d = h.declarer
    erased: set[int] = set()
    for ir in renons:
        x = ir.seat
        if x is None:
            continue
        fx = _radelc_factor(h, x)
        if ir.kind == "wrong_discard":
            fd = _radelc_factor(h, d)
            who = d if d is not None else x
            acc.add("renons", -70 * fd, who, "wrong discard: the declarer writes −70"
                    + (" (radelc ×2)" if fd == 2 else "") + "; kontras are ignored")  # fmt: skip
            continue
        pen = vr * kg
        parts = [f"{vr}" + (" ×2 kontra" if kg > 1 else "")]
        if r.renons_with_bonuses:
            for b, (_, _) in h.ann.items():
                if b == "barvni_valat":
                    continue
                vb = 2 * BONUS_VALUES[b] * 2 ** h.kontra.get(b, 0)
                pen += vb
                parts.append(f"{b} {vb}")
        acc.add("renons", -pen * fx, x, f"renons ({ir.kind}) by seat {x}: −({' + '.join(parts)})"
                + (" ×2 radelc" if fx == 2 else ""))  # fmt: skip
        gave_kontra = any(s == x for s, _, _ in h.kontra_list)
        if gave_kontra and d is not None and c != "klop":
            fd = _radelc_factor(h, d)
            plus = r.contract_value(c) * kg * fd
            acc.add("renons", plus, d, f"the kontra giver (seat {x}) committed the renons: the "
                    f"declarer writes +{r.contract_value(c)}"
                    + (" ×2 kontra" if kg > 1 else "") + (" ×2 radelc" if fd == 2 else ""))  # fmt: skip
            if r.renons_partner_plus and h.partner is not None:
                acc.add("renons", plus, h.partner, "the partner writes the declarer's plus")
            if fd == 2 and r.radelci and d not in erased:
                radelci[d] -= 1
                erased.add(d)
    return None


# ---------------------------------------------------------------------- penalties, radelci


def _penalties(h: SlovenianHand, acc: _Acc) -> list[int] | None:
    counts = list(h.misdeals_before)
    changed = False
    for ir in h.irregularities:
        if ir.type == "misdeal" and ir.seat is not None:
            counts[ir.seat] += 1
            changed = True
            k = counts[ir.seat]
            pts = 0 if k == 1 else -20 * 2 ** (k - 2)
            acc.add("penalty", pts, ir.seat, f"misdeal number {k} of seat {ir.seat}"
                    + (": a warning" if k == 1 else f": {pts}"))  # fmt: skip
        elif ir.type == "penalty" and ir.seat is not None and ir.unit == "game":
            pts = -abs(ir.points or 0)
            acc.add("penalty", pts, ir.seat, f"penalty of {pts} game points")
        elif ir.type == "arbiter":
            for seat, pts, unit in ir.adjustments:
                if unit == "game":
                    acc.add("penalty", pts, seat, f"arbiter's adjustment of {pts:+d}")
    return counts if changed else None


def _award_radelci(h: SlovenianHand, radelci: list[int], renons: list[Any]) -> None:
    c = h.contract
    assert c is not None
    award = CONTRACTS[c].radelc or "barvni_valat" in h.ann
    if not award and h.rules.radelci_from_silent_valat and c != "klop" and not renons:
        ntr = _tricks_by(h)
        m = {s for s in (h.declarer, h.partner) if s is not None}
        if _complete(h) and (all(ntr.get(s, 0) == 0 for s in h.active if s not in m)
                             or all(ntr.get(s, 0) == 0 for s in m) or "valat" in h.ann):  # fmt: skip
            award = True
    if award:
        for s in range(h.table_size):
            radelci[s] += 1
    for s in range(h.table_size):
        radelci[s] = max(0, radelci[s])


# ---------------------------------------------------------------------- openspiel


def _openspiel_score(h: SlovenianHand) -> HandScore:
    n = h.table_size
    c = h.contract
    if c is None:
        return HandScore(totals=(0,) * n, items=(), unverified=("the hand has no contract",))
    try:
        from tarock_logs.rules.slovenian.openspiel_scoring import openspiel_returns
    except ImportError:
        return HandScore(totals=(0,) * n, items=(), contract=c, declarer=h.declarer,
                         partner=h.partner,
                         unverified=("OpenSpiel scoring (openspiel_scoring.py) is not "
                                     "available",))  # fmt: skip
    tricks = [(t.leader, [x for _, x in t.cards], t.winner) for t in h.tricks]
    returns = openspiel_returns(
        num_players=n, forehand=h.p1, contract=c, declarer=h.declarer, partner=h.partner,
        called_king=h.called_king, talon=h.talon, talon_group=h.talon_group,
        discards=list(h.discards), tricks=tricks,
    )  # fmt: skip
    item = "klop" if c == "klop" else "contract"
    items = tuple(ScoreItem(item, int(returns[s]), s, "OpenSpiel returns") for s in h.active)
    won = None
    if c != "klop" and h.declarer is not None:
        won = returns[h.declarer] > 0
    return HandScore(totals=tuple(int(x) for x in returns), items=items, contract=c,
                     declarer=h.declarer, partner=h.partner, won=won,
                     carry_after={"radelci": [0] * n})  # fmt: skip
