"""Scoring of one Zwanzigerrufen deal (spec §7): items, values, settlement per player.

Every contract and bonus is an **item** won by one side and paid by the other; its value is
``v = b × 2^k × s × r`` (base, Kontra level, Solo bonus factor, double-round multiplier). Each
player settles for himself: two against two, each winner gets +v and each loser −v; a soloist
gets +3v or pays −3v against three defenders (§7.4). The items are expanded per seat, so every
:class:`ScoreItem` carries an explicit seat.

Item names: ``game``, ``valat``, ``absolut``, ``pagat`` (Pagat Ultimo), ``trull``,
``four_kings`` (Vier Könige), ``mondfang`` (the Mond captured by the Sküs).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.rules.base import ScoreItem
from tarock_logs.rules.zwanzigerrufen.contracts import value as value_of
from tarock_logs.rules.zwanzigerrufen.tricks import (
    ABSOLUT_LIMIT,
    FARBENSOLO,
    GAME_THRESHOLD,
    KING_CARDS,
    NORMAL,
    PAGAT,
    SOLO,
    TOTAL_POINTS,
    TRULL_CARDS,
    Trick,
)

SEATS = frozenset(range(4))
ITEM_ORDER = ("game", "valat", "absolut", "pagat", "trull", "four_kings", "mondfang")


@dataclass(frozen=True, slots=True)
class SideItem:
    """One logical item before settlement: who wins it and its value ``v``."""

    item: str
    winners: frozenset[int]
    value: int
    reason: str
    losers: frozenset[int] | None = None  # None: everybody else (players_only Mondfang: one)


@dataclass(slots=True)
class ScoreResult:
    items: list[SideItem]
    per_seat: list[ScoreItem]
    totals: tuple[int, ...]
    card_points: dict[str, Any]
    won: bool | None
    mondfang_counts: bool  # opens a double-round window (§7.5)
    facts: dict[str, Any] = field(default_factory=dict)


def item_factor(kontra: int, solo: int, double: int, contract: str) -> tuple[int, str]:
    """The factor of a score item (a Kontra level doubles it per level, a Solo or Farbensolo
    bonus and a double round multiply it) and its reason's words (``""`` for ×1)."""
    parts = []
    if kontra:
        parts.append(f"Kontra level {kontra} ×{2**kontra}")
    if solo != 1:
        parts.append(f"{'Solo' if contract == SOLO else 'Farbensolo'} bonus ×{solo}")
    if double != 1:
        parts.append(f"double round ×{double}")
    return 2**kontra * solo * double, (", " + ", ".join(parts)) if parts else ""


def contract_value(contract: str, opts: Mapping[str, Any]) -> int:
    """c of §5.1: normal 1, Farbensolo ``farbensolo_value``, Solo ``solo_value`` (the
    contract's row of :data:`~.contracts.CONTRACTS`)."""
    return value_of(contract, opts)


def _side_name(side: frozenset[int], declarer_side: frozenset[int]) -> str:
    return "declarer side" if side == declarer_side else "defenders"


def settle(items: Sequence[SideItem]) -> tuple[list[ScoreItem], tuple[int, ...]]:
    """Expand side items to per-seat lines (§7.4) and sum them."""
    lines: list[ScoreItem] = []
    totals = [0, 0, 0, 0]
    for it in items:
        losers = it.losers if it.losers is not None else SEATS - it.winners
        nw, nl = len(it.winners), len(losers)
        if nw == 0 or nl == 0:
            continue
        # 2 v 2: ±v; 1 v 3: +3v / −v; 3 v 1: +v / −3v. In general each winner receives the
        # losers' payments shared so that every loser pays v per winner-equivalent.
        win_each = it.value * max(nl // nw, 1) if nw <= nl else it.value
        lose_each = it.value * max(nw // nl, 1) if nl <= nw else it.value
        if nw == 1 and nl == 1:
            win_each = lose_each = it.value
        for s in sorted(it.winners | losers):
            value = win_each if s in it.winners else -lose_each
            lines.append(ScoreItem(it.item, value, s, it.reason))
            totals[s] += value
    return lines, tuple(totals)


def score_deal(
    *,
    opts: Mapping[str, Any],
    contract: str,
    declarer: int,
    declarer_side: frozenset[int],
    dealt: Sequence[frozenset[str]],
    tricks: Sequence[Trick],
    game_level: int,
    announced: Sequence[Mapping[str, Any]],
    claims: frozenset[tuple[int, str]],
    multiplier: int = 1,
    offender: int | None = None,
) -> ScoreResult:
    """Items and settlement of a completed deal (§7.1–§7.4, options of §7.2).

    ``announced`` lists ``{"bonus", "side": "dazu"|"dagegen", "level": k}`` (two entries for one
    bonus only when ``one_announcement_per_bonus`` is false);
    ``claims`` holds ``(seat, "trull"|"four_kings")``; ``offender`` is the seat of the first
    infraction when ``infraction_policy`` = ``penalize`` (A36).
    """
    d_side = declarer_side
    f_side = SEATS - d_side

    def opp(side: frozenset[int]) -> frozenset[int]:
        return SEATS - side

    def side_of_seat(seat: int) -> frozenset[int]:
        return d_side if seat in d_side else f_side

    def ann_side(info: Mapping[str, Any]) -> frozenset[int]:
        return d_side if info["side"] == "dazu" else f_side

    anns: dict[str, list[Mapping[str, Any]]] = {b: [] for b in ("valat", "absolut", "pagat")}
    for entry in announced:
        anns.setdefault(entry["bonus"], []).append(entry)
    c = contract_value(contract, opts)
    r = multiplier
    if contract == SOLO:
        s_bonus = int(opts["solo_bonus_factor"])
    elif contract == FARBENSOLO:
        s_bonus = int(opts["farbensolo_bonus_factor"])
    else:
        s_bonus = 1

    per_seat_points = [0, 0, 0, 0]
    per_seat_tricks = [0, 0, 0, 0]
    for t in tricks:
        per_seat_points[t.winner] += t.points
        per_seat_tricks[t.winner] += 1
    cp_d = sum(per_seat_points[s] for s in d_side)
    cp_f = sum(per_seat_points[s] for s in f_side)
    tricks_d = sum(per_seat_tricks[s] for s in d_side)
    complete = len(tricks) == 10

    def cp(side: frozenset[int]) -> int:
        return cp_d if side == d_side else cp_f

    def mult(k: int, s: int) -> tuple[int, str]:
        return item_factor(k, s, r, contract)

    items: list[SideItem] = []
    facts: dict[str, Any] = {}

    valat_side: frozenset[int] | None = None
    if complete and tricks_d == 10:
        valat_side = d_side
    elif complete and tricks_d == 0:
        valat_side = f_side

    # --- penalize (A36): the offender's side loses the game and every announced bonus.
    if offender is not None:
        off_side = side_of_seat(offender)
        m, why = mult(game_level, 1)
        items.append(
            SideItem(
                "game",
                opp(off_side),
                c * m,
                f"infraction by seat {offender}: game to the other side{why}",
            )
        )
        for info in announced:
            bonus = info["bonus"]
            base = 2 if bonus != "valat" else (12 if opts["valat_mode"] == "fixed" else 12 * c)
            undoubled = bonus == "valat" and opts["valat_mode"] == "contract_multiple_undoubled"
            m, why = mult(int(info["level"]), 1 if undoubled else s_bonus)
            items.append(
                SideItem(
                    bonus,
                    opp(off_side),
                    base * m,
                    f"announced {bonus} scored against the offending side{why}",
                )
            )
        per_seat, totals = settle(items)
        return ScoreResult(
            items,
            per_seat,
            totals,
            _cp(cp_d, cp_f, per_seat_points, tricks_d),
            opp(off_side) == d_side,
            False,
            {"penalized": offender},
        )

    # --- game (§7.1)
    threshold_low = GAME_THRESHOLD
    if opts["absolut_moves_game_threshold"] and anns["absolut"]:
        # FBG reading (A18): an Absolut announcement moves the game threshold.
        threshold_low = (
            TOTAL_POINTS - ABSOLUT_LIMIT
            if anns["absolut"][0]["side"] == "dazu"
            else ABSOLUT_LIMIT + 1
        )
    game_winner = d_side if cp_d >= threshold_low else f_side
    game_reason = (
        f"declarer side {cp_d} card points, needs {threshold_low}: game "
        f"{'won' if game_winner == d_side else 'lost'}"
    )
    for valat_info in anns["valat"]:
        a = ann_side(valat_info)
        if opts["lost_announced_valat_loses_game"] and valat_side != a:
            game_winner = opp(a)
            game_reason += "; announced Valat failed, so the game goes to the other side"
    m, why = mult(game_level, 1)
    items.append(SideItem("game", game_winner, c * m, game_reason + f" (value {c}{why})"))

    # --- Valat
    s_valat = 1 if opts["valat_mode"] == "contract_multiple_undoubled" else s_bonus
    fixed = opts["valat_mode"] == "fixed"
    for valat_info in anns["valat"]:
        a = ann_side(valat_info)
        ok = valat_side == a
        m, why = mult(int(valat_info["level"]), s_valat)
        base = 12 if fixed else 12 * c
        items.append(
            SideItem(
                "valat",
                a if ok else opp(a),
                base * m,
                f"Valat announced {valat_info['side']}: "
                f"{'won' if ok else 'failed'} (base {base}{why})",
            )
        )
    if not anns["valat"] and valat_side is not None:
        m, why = mult(0, s_valat)
        base = 6 if fixed else 6 * c
        items.append(
            SideItem(
                "valat",
                valat_side,
                base * m,
                f"silent Valat: the {_side_name(valat_side, d_side)} won all ten "
                f"tricks (base {base}{why})",
            )
        )

    # --- Absolut
    for abs_info in anns["absolut"]:
        a = ann_side(abs_info)
        ok = cp(opp(a)) <= ABSOLUT_LIMIT
        m, why = mult(int(abs_info["level"]), s_bonus)
        items.append(
            SideItem(
                "absolut",
                a if ok else opp(a),
                2 * m,
                f"Absolut announced {abs_info['side']}: the other side has "
                f"{cp(opp(a))} card points, {'at most' if ok else 'more than'} 32 "
                f"({'won' if ok else 'failed'}, base 2{why})",
            )
        )
    if not anns["absolut"] and complete and (cp_f <= ABSOLUT_LIMIT or cp_d <= ABSOLUT_LIMIT):
        w = d_side if cp_f <= ABSOLUT_LIMIT else f_side
        m, why = mult(0, s_bonus)
        items.append(
            SideItem(
                "absolut",
                w,
                1 * m,
                f"silent Absolut: the other side has only {cp(opp(w))} card points (base 1{why})",
            )
        )

    # --- Pagat Ultimo, Trull, Mondfang (not in a Farbensolo)
    t1_seat = t1_trick = None
    for t in tricks:
        for s, card in t.cards:
            if card == PAGAT:
                t1_seat, t1_trick = s, t
    t1_last = t1_trick is not None and t1_trick.number == 10
    t1_won = t1_last and t1_trick is not None and t1_trick.winner == t1_seat
    facts.update(
        pagat_seat=t1_seat, pagat_trick=t1_trick.number if t1_trick else None, pagat_won_last=t1_won
    )
    mondfang = next((t.mondfang for t in tricks if t.mondfang), None)
    mondfang_counts = mondfang is not None and (
        contract != FARBENSOLO or opts["mondfang_in_farbensolo"] == "scored"
    )
    if contract != FARBENSOLO:
        for pag_info in anns["pagat"]:
            a = ann_side(pag_info)
            ok = t1_won and t1_seat is not None and t1_seat in a
            m, why = mult(int(pag_info["level"]), s_bonus)
            if ok:
                how = "the Pagat won the last trick"
            elif t1_trick is None:
                how = "the Pagat was not played"
            elif not t1_last:
                how = f"the Pagat was played early, in trick {t1_trick.number}"
            else:
                how = "the Pagat was beaten in the last trick"
            items.append(
                SideItem(
                    "pagat",
                    a if ok else opp(a),
                    2 * m,
                    f"Pagat Ultimo announced {pag_info['side']}: {how} (base 2{why})",
                )
            )
        if not anns["pagat"] and t1_last and t1_seat is not None:
            x = side_of_seat(t1_seat)
            if t1_won or opts["silent_pagat_loss"] == "counted":
                m, why = mult(0, s_bonus)
                items.append(
                    SideItem(
                        "pagat",
                        x if t1_won else opp(x),
                        1 * m,
                        f"silent Pagat Ultimo: seat {t1_seat}'s Pagat "
                        f"{'won' if t1_won else 'was beaten in'} the last trick "
                        f"(base 1{why})",
                    )
                )

    automatic = opts["card_bonus_claim"] == "automatic"
    for bonus, cards, base, counts in (
        ("trull", TRULL_CARDS, int(opts["trull_value"]), contract != FARBENSOLO),
        ("four_kings", KING_CARDS, int(opts["four_kings_value"]), True),
    ):
        for seat, hand in enumerate(dealt):
            if cards.issubset(hand) and counts and (automatic or (seat, bonus) in claims):
                m, why = mult(0, s_bonus)
                label = "Trull" if bonus == "trull" else "Four Kings"
                how = "claimed" if (seat, bonus) in claims else "automatic"
                items.append(
                    SideItem(
                        bonus,
                        side_of_seat(seat),
                        base * m,
                        f"{label} dealt to seat {seat} ({how}, base {base}{why})",
                    )
                )

    if mondfang_counts and mondfang is not None:
        owner, capturer = mondfang
        m, why = mult(0, s_bonus)
        payer = opts["mondfang_payer"]
        reason = f"Mondfang: seat {owner}'s Mond captured by seat {capturer}'s Sküs"
        if payer == "players_only":
            items.append(
                SideItem(
                    "mondfang",
                    frozenset({capturer}),
                    1 * m,
                    reason + f", settled between the two players (base 1{why})",
                    losers=frozenset({owner}),
                )
            )
        else:
            w = opp(side_of_seat(owner)) if payer == "mond_side" else side_of_seat(capturer)
            items.append(SideItem("mondfang", w, 1 * m, reason + f" (base 1{why})"))

    if valat_side is not None and opts["valat_overrides_bonuses"]:
        items = [i for i in items if i.item in ("game", "valat")]
    if valat_side is not None and opts["valat_replaces_game"]:
        items = [i for i in items if i.item != "game"]

    per_seat, totals = settle(items)
    won = game_winner == d_side
    facts.update(mondfang=list(mondfang) if mondfang else None, valat=valat_side is not None)
    return ScoreResult(
        items,
        per_seat,
        totals,
        _cp(cp_d, cp_f, per_seat_points, tricks_d),
        won,
        mondfang_counts,
        facts,
    )


def _cp(cp_d: int, cp_f: int, per_seat: list[int], tricks_d: int) -> dict[str, Any]:
    return {
        "declarer_side": cp_d,
        "defenders": cp_f,
        "per_seat": list(per_seat),
        "declarer_side_tricks": tricks_d,
    }


# --------------------------------------------------------------------------- facts (score sheets)

#: the bonuses a hand recorded as facts may name (§7.2), in item order
FACT_BONUSES = ("valat", "absolut", "pagat", "trull", "four_kings")
#: what a Kontra may be given on (§4.5 K1): the game, or a bonus that can be announced
KONTRA_TARGETS = ("game", "valat", "absolut", "pagat")


class FactsError(ValueError):
    """The facts do not settle the score (the message says why)."""


def score_from_facts(
    *,
    opts: Mapping[str, Any],
    contract: str,
    declarer: int,
    partner: int | None,
    won: bool | None,
    card_points: int | None,
    bonuses: Sequence[tuple[str, str, bool, bool]],
    kontras: Sequence[tuple[str, int, int | None]],
    mondfang: Sequence[tuple[int, int | None]],
    multiplier: int = 1,
) -> ScoreResult:
    """Items and settlement of a deal recorded as facts without cards (a score-sheet line):
    the same items, values and settlement as :func:`score_deal` (§7.1–§7.4), taken from what
    the sheet says instead of the tricks.

    ``bonuses`` are ``(bonus, side, announced, made)`` with side ``declarer``/``defenders``
    (the side the bonus belongs to: its announcer's, or for a silent one the side that made or
    failed it); ``kontras`` ``(target, level, seat)``; ``mondfang`` ``(seat whose Mond was
    captured, capturer or None)``. ``won`` is whether the declarer side won the game; the
    declarer side's ``card_points`` settle it too (≥ 45). Raises :class:`FactsError` when the
    facts contradict each other or leave the score open.
    """
    if contract not in (NORMAL, FARBENSOLO, SOLO):
        raise FactsError(f"{contract!r} is no Zwanzigerrufen contract (normal, farbensolo, solo)")
    d_side = frozenset({declarer} | ({partner} if partner is not None else set()))
    f_side = SEATS - d_side
    side_of = {"declarer": d_side, "defenders": f_side}

    def opp(side: frozenset[int]) -> frozenset[int]:
        return SEATS - side

    c = contract_value(contract, opts)
    r = multiplier
    s_bonus = (
        int(opts["solo_bonus_factor"])
        if contract == SOLO
        else int(opts["farbensolo_bonus_factor"])
        if contract == FARBENSOLO
        else 1
    )
    levels: dict[str, int] = {}
    for target, level, _seat in kontras:
        if target not in KONTRA_TARGETS:
            raise FactsError(
                f"a Kontra on {target!r}: on the game or an announced bonus "
                f"({', '.join(KONTRA_TARGETS)}, §4.5 K1)"
            )
        levels[target] = max(levels.get(target, 0), int(level))

    def mult(k: int, s: int) -> tuple[int, str]:
        return item_factor(k, s, r, contract)

    seen: set[tuple[str, str]] = set()
    for bonus, side, _ann, _made in bonuses:
        if bonus not in FACT_BONUSES:
            raise FactsError(f"{bonus!r} is no Zwanzigerrufen bonus ({', '.join(FACT_BONUSES)})")
        if side not in side_of:
            raise FactsError(f"{bonus}: side {side!r} is neither declarer nor defenders")
        if (bonus, side) in seen:
            raise FactsError(f"{bonus} is recorded twice for the {side}")
        seen.add((bonus, side))
    announced = {b: side_of[s] for b, s, ann, _ in bonuses if ann}
    for target in levels:
        if target != "game" and target not in announced:
            raise FactsError(f"a Kontra on {target}, which was not announced (§4.5 K1)")
    for b, _s, ann, _ in bonuses:
        if ann and b in ("trull", "four_kings"):
            raise FactsError(f"{b} cannot be announced (§4.4): it is a card bonus, claimed")

    # --- game (§7.1)
    threshold = GAME_THRESHOLD
    if opts["absolut_moves_game_threshold"] and "absolut" in announced:
        threshold = (
            TOTAL_POINTS - ABSOLUT_LIMIT if announced["absolut"] == d_side else ABSOLUT_LIMIT + 1
        )
    if card_points is not None:
        if not 0 <= card_points <= TOTAL_POINTS:
            raise FactsError(f"card points {card_points}: a side has 0 to {TOTAL_POINTS}")
        by_points = card_points >= threshold
        if won is not None and won != by_points:
            raise FactsError(
                f"the declarer side's {card_points} card points "
                f"{'win' if by_points else 'lose'} the game (it needs {threshold}), "
                f"but the line says {'won' if won else 'lost'}"
            )
        won = by_points
    if won is None:
        raise FactsError("whether the declarer side won the game (won, or its card points)")
    game_winner = d_side if won else f_side
    game_reason = f"the declarer side {'won' if won else 'lost'} the game" + (
        f" with {card_points} card points" if card_points is not None else ""
    )
    valat_made: frozenset[int] | None = None
    for bonus, side, ann, made in bonuses:
        if bonus == "valat" and made:
            valat_made = side_of[side]
        if bonus == "valat" and ann and not made and opts["lost_announced_valat_loses_game"]:
            game_winner = opp(side_of[side])
            game_reason += "; announced Valat failed, so the game goes to the other side"
    m, why = mult(levels.get("game", 0), 1)
    items: list[SideItem] = [
        SideItem("game", game_winner, c * m, f"{game_reason} (value {c}{why})")
    ]

    # --- bonuses, in item order
    fixed = opts["valat_mode"] == "fixed"
    s_valat = 1 if opts["valat_mode"] == "contract_multiple_undoubled" else s_bonus
    for bonus, side, ann, made in sorted(bonuses, key=lambda b: FACT_BONUSES.index(b[0])):
        own = side_of[side]
        if contract == FARBENSOLO and bonus in ("pagat", "trull"):
            raise FactsError(f"{bonus} does not count in a Farbensolo (§7.2)")
        winner = own if made else opp(own)
        label = f"{bonus} {'announced' if ann else 'silent'} by the {side}"
        if bonus == "valat":
            base = (12 if ann else 6) * (1 if fixed else c)
            k, s = (levels.get("valat", 0) if ann else 0), s_valat
        elif bonus == "absolut":
            base, k, s = (2 if ann else 1), (levels.get("absolut", 0) if ann else 0), s_bonus
        elif bonus == "pagat":
            base, k, s = (2 if ann else 1), (levels.get("pagat", 0) if ann else 0), s_bonus
            if not ann and not made and opts["silent_pagat_loss"] != "counted":
                continue
        else:
            base = int(opts["trull_value"] if bonus == "trull" else opts["four_kings_value"])
            k, s = 0, s_bonus
            if not made:
                continue  # a card bonus is claimed by its holder or not at all
        if not ann and not made and bonus in ("valat", "absolut"):
            continue  # silent failures of Absolut and Valat produce no item (§7.2)
        m, why = mult(k, s)
        items.append(
            SideItem(
                bonus,
                winner,
                base * m,
                f"{label}: {'made' if made else 'failed'} (base {base}{why})",
            )
        )

    # --- Mondfang
    counts = contract != FARBENSOLO or opts["mondfang_in_farbensolo"] == "scored"
    if len(mondfang) > 1:
        raise FactsError("one Mond can be captured once")
    if mondfang and counts:
        owner, capturer = mondfang[0]
        m, why = mult(0, s_bonus)
        payer = opts["mondfang_payer"]
        side_owner = d_side if owner in d_side else f_side
        reason = f"Mondfang: seat {owner}'s Mond captured"
        if payer != "mond_side" and capturer is None:
            raise FactsError(f"mondfang_payer {payer}: the Mondfang needs the capturer")
        if payer == "players_only" and capturer is not None:
            items.append(
                SideItem(
                    "mondfang",
                    frozenset({capturer}),
                    m,
                    reason + f" (base 1{why})",
                    losers=frozenset({owner}),
                )
            )
        else:
            w = (
                opp(side_owner)
                if payer == "mond_side" or capturer is None
                else (d_side if capturer in d_side else f_side)
            )
            items.append(SideItem("mondfang", w, m, reason + f" (base 1{why})"))

    if valat_made is not None and opts["valat_overrides_bonuses"]:
        items = [i for i in items if i.item in ("game", "valat")]
    if valat_made is not None and opts["valat_replaces_game"]:
        items = [i for i in items if i.item != "game"]
    per_seat, totals = settle(items)
    cp: dict[str, Any] = {}
    if card_points is not None:
        cp = {"declarer_side": card_points, "defenders": TOTAL_POINTS - card_points}
    return ScoreResult(
        items, per_seat, totals, cp, game_winner == d_side, bool(mondfang) and counts, {}
    )
