"""Scoring of one Royal Tarock game (royal-tarock.md §7.1).

Each party P (a fixed pair) scores only its own things, independently of the other party:

* ``C`` the consolation (starting score; its formula is unknown, so it is the ruleset option
  ``consolation``, and without it the score is reported unverified);
* ``M`` its valid Meldungen (Flush 10, Wonok 20, the others 0);
* ``S`` its final (not raised-from) non-trophy Schlemme, ± value, single even when contra'd;
* ``Z`` the silent premiums it won (Obscur only while in force, 4 Könige unless suppressed);
* ``K`` its contras: + value of each opposing Schlemm it contra'd that failed, − value of each
  that was made, the sum limited to ±20;
* ``T`` its trophies, ± value.

``score = max(0, min(100, C + M + S + Z + K) + T)``: never below 0, above 100 only through
trophies. Items are named by catalogue id, plus ``consolation``, ``kontra`` and ``cap`` (what
the floor and the 100 limit add or take away). Both partners write the party's score, so every
line is given once for each of the two seats. An item whose value or condition the catalogue
does not know is not guessed: it is left out and named in ``HandScore.unverified``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.rules.base import HandScore, ScoreItem
from tarock_logs.rules.royal import predicates
from tarock_logs.rules.royal.bidding import PARTY_NAMES, Bidding, Instance
from tarock_logs.rules.royal.catalogue import Catalogue, Item

Trick = tuple[Sequence[tuple[int, str]], int]


@dataclass(slots=True)
class PartyScore:
    """The itemised score of one party before it is written per seat."""

    seats: tuple[int, int]
    lines: list[tuple[str, int, str]] = field(default_factory=list)  # item, value, reason
    unknown: list[str] = field(default_factory=list)
    score: int = 0
    consolation_unknown: bool = False
    #: the sum of the known items before the cap and the trophies (what a claimed
    #: consolation is added to: :func:`implied_consolation`)
    known: int = 0
    trophies: int = 0

    def add(self, item: str, value: int, reason: str) -> None:
        self.lines.append((item, value, reason))


def _ctx(
    party: tuple[int, int], dealt: Sequence[Sequence[str]], tricks: Sequence[Trick]
) -> predicates.Context:
    return predicates.Context(party=frozenset(party), dealt=dealt, tricks=tricks)


def instance_outcome(
    inst: Instance,
    bidding: Bidding,
    parties: Sequence[tuple[int, int]],
    dealt: Sequence[Sequence[str]],
    tricks: Sequence[Trick],
) -> bool | None:
    """Was the Schlemm made? None when the catalogue does not know its condition.

    A raised Schlemm is lost unless it is made with the cards bound by the Schlemme it was
    raised from (§6.2), so every binding along the chain must be met too.
    """
    cat = bidding.catalogue
    item = cat.get(inst.item_id)
    if item is None or item.condition is None:
        return None
    ctx = _ctx(parties[inst.party], dealt, tricks)
    if not predicates.evaluate(item.condition, ctx):
        return False
    chain = [inst]
    while chain:
        i = chain.pop()
        it = cat.get(i.item_id)
        for b in it.bindings if it is not None else ():
            if not predicates.evaluate({"trick_won_with": {"trick": b.trick, "card": b.card}}, ctx):
                return False
        chain.extend(bidding.instances[j] for j in i.raised_from)
    return True


def _fmt_party(p: int, parties: Sequence[tuple[int, int]]) -> str:
    a, e = parties[p]
    return f"{PARTY_NAMES[p]} (seats {a} and {e})"


def score_game(
    *,
    catalogue: Catalogue,
    options: Mapping[str, Any],
    parties: Sequence[tuple[int, int]],
    dealt: Sequence[Sequence[str]],
    tricks: Sequence[Trick],
    bidding: Bidding,
    card_info: Mapping[str, Any] | None = None,
) -> HandScore:
    """The :class:`HandScore` of a finished game (§7.1); see the module docstring."""
    cat = catalogue
    announced = bidding.instances
    suppressed: set[str] = set()
    obscur_off = False
    for inst in announced:
        it = cat.get(inst.item_id)
        if it is not None:
            suppressed |= set(it.suppresses)
            obscur_off = obscur_off or it.disables_obscur
    if obscur_off and cat.obscur_item:
        suppressed.add(cat.obscur_item)
    outcome = {i.idx: instance_outcome(i, bidding, parties, dealt, tricks) for i in announced}

    results: list[PartyScore] = []
    for p, seats in enumerate(parties):
        ps = PartyScore(seats)
        _consolation(ps, p, options)
        _meldungen(ps, p, bidding, cat)
        trophies = _schlemme(ps, p, bidding, cat, outcome)
        _silent(ps, p, bidding, cat, options, suppressed, parties, dealt, tricks)
        _contras(ps, p, bidding, cat, outcome, options)
        _close(ps, trophies, options)
        results.append(ps)
    return _hand_score(results, parties, card_info)


def _close(
    ps: PartyScore, trophies: list[tuple[str, int, str]], options: Mapping[str, Any]
) -> None:
    """The party's score from its lines and trophies (§7.1: the floor 0, the cap before the
    trophies, ``trophy_cap_order``), with the ``cap`` line of what the limits changed."""
    n = sum(v for _, v, _ in ps.lines)
    t = sum(v for _, v, _ in trophies)
    ps.known, ps.trophies = n, t
    ps.lines.extend(trophies)
    cap = options["cap"]
    if options["trophy_cap_order"] == "lost_trophies_inside_cap" and t < 0:
        ps.score = max(0, min(cap, n + t))
    else:
        ps.score = max(0, min(cap, n) + t)
    adj = ps.score - (n + t)
    if adj:
        why = (
            "floor: a party never writes less than 0"
            if ps.score == 0 and n + t < 0
            else (f"cap: at most {cap} before trophies")
        )
        ps.add("cap", adj, why)


def _hand_score(
    results: Sequence[PartyScore],
    parties: Sequence[tuple[int, int]],
    card_info: Mapping[str, Any] | None,
    notes: Sequence[str] = (),
) -> HandScore:
    items: list[ScoreItem] = []
    totals = [0, 0, 0, 0]
    unverified: list[str] = list(notes)
    incomplete: list[int] = []
    claimed = any(ps.consolation_unknown for ps in results)
    for p, ps in enumerate(results):
        for s in ps.seats:
            totals[s] = ps.score
        for item, value, reason in ps.lines:
            for s in ps.seats:
                items.append(ScoreItem(item, value, s, reason))
        if ps.unknown:
            incomplete.extend(ps.seats)
            unverified.append(
                f"{_fmt_party(p, parties)}: score not fully verifiable, the total counts the "
                "known items only: " + "; ".join(ps.unknown)
            )
    info = dict(card_info or {})
    if claimed:  # what a recorded total implies for the consolation (implied_consolation)
        info["claim_basis"] = [[list(ps.seats), ps.known, ps.trophies] for ps in results]
    return HandScore(
        totals=tuple(totals),
        items=tuple(items),
        card_points=info,
        unverified=tuple(unverified),
        incomplete_seats=tuple(sorted(incomplete)),
        claimed=("consolation",) if claimed else (),
    )


class FactsError(ValueError):
    """The facts of a game do not settle its score (the message says why)."""


def score_facts(
    *,
    catalogue: Catalogue,
    options: Mapping[str, Any],
    parties: Sequence[tuple[int, int]],
    bonuses: Sequence[tuple[str, str, bool, bool]],
    kontras: Sequence[tuple[str, int, int | None]],
    consolation: Sequence[int] | None,
) -> HandScore:
    """The :class:`HandScore` of a game recorded as facts (a line of the match sheet), by the
    same arithmetic as :func:`score_game` (§7.1) with what the sheet says instead of the
    tricks.

    ``parties`` are the attackers' and the defenders' seats; ``bonuses`` ``(item id, side,
    announced, made)`` with side ``declarer`` (the attackers) or ``defenders``: the party's
    Meldungen, final Schlemme (made or lost), silent premiums won and trophies; ``kontras``
    ``(the other party's Schlemm, level, seat of the contra-ing player)``; ``consolation`` the
    value written per seat (a claim: its formula is unknown), else the ruleset option. An item
    the catalogue does not know, or whose value it does not know, is never guessed: the
    party's total is then not checked (``incomplete_seats``) and ``unverified`` says why.
    """
    cat = catalogue
    side_index = {"declarer": 0, "defenders": 1}
    made_of: dict[tuple[int, str], bool] = {}
    for bonus, side, _ann, made in bonuses:
        if side not in side_index:
            raise FactsError(
                f"{bonus}: side {side!r} is neither declarer (attackers) nor defenders"
            )
        key = (side_index[side], bonus)
        if key in made_of:
            raise FactsError(f"{bonus} is recorded twice for the {PARTY_NAMES[key[0]]}")
        made_of[key] = made
    notes: list[str] = []
    results: list[PartyScore] = []
    for p, seats in enumerate(parties):
        ps = PartyScore(seats)
        claimed = None
        if consolation is not None:
            values = {consolation[s] for s in seats if s < len(consolation)}
            if len(values) != 1:
                raise FactsError(
                    f"the {PARTY_NAMES[p]} (seats {seats[0]} and {seats[1]}) are written "
                    "different consolations: one pair, one consolation"
                )
            claimed = values.pop()
        if (
            claimed is not None
            and options[f"consolation_{PARTY_NAMES[p]}"] is None
            and (options["consolation"] is None)
        ):
            ps.add("consolation", claimed, "consolation as written on the sheet (a claim)")
            notes.append(
                f"{_fmt_party(p, parties)}: consolation {claimed} taken from the sheet: its "
                "formula is unknown (§1.4), so it is a claim, not checked"
            )
        else:
            _consolation(ps, p, options)
        trophies: list[tuple[str, int, str]] = []
        for bonus, side, _ann, made in bonuses:
            if side_index[side] != p:
                continue
            item = cat.get(bonus)
            if item is None:
                ps.unknown.append(f"{bonus}: not in the catalogue")
                continue
            label = f"{item.name} ({bonus})"
            if item.value is None:
                ps.unknown.append(f"{label} {'made' if made else 'lost'}: value unknown")
                continue
            if item.group == "meldung" or item.silent:
                if not made:
                    if item.group == "meldung":
                        ps.unknown.append(f"false Meldung {label}: its penalty is unknown")
                    continue  # a failed silent premium scores nothing (§8.1 item 12)
                if item.value:
                    kind = "Meldung" if item.group == "meldung" else "silent premium"
                    ps.add(bonus, item.value, f"{kind} {item.name}")
                continue
            line = (
                bonus,
                item.value if made else -item.value,
                f"{item.name} announced, {'made' if made else 'lost'}",
            )
            if item.is_trophy:
                trophies.append(line)
            elif line[1]:
                ps.add(*line)
        _fact_contras(ps, p, kontras, parties, made_of, cat, options)
        _close(ps, trophies, options)
        results.append(ps)
    return _hand_score(results, parties, {}, notes)


def _fact_contras(
    ps: PartyScore,
    p: int,
    kontras: Sequence[tuple[str, int, int | None]],
    parties: Sequence[tuple[int, int]],
    made_of: Mapping[tuple[int, str], bool],
    cat: Catalogue,
    options: Mapping[str, Any],
) -> None:
    """``K_P`` of the party ``p`` (§7.1) from recorded contras on the other party's Schlemme."""
    results: list[int] = []
    any_contra = False
    for target, level, seat in kontras:
        if seat is None:
            raise FactsError(f"a contra on {target}: who gave it (its party) is not recorded")
        if seat not in parties[p]:
            continue
        if level != 1:
            raise FactsError(f"a contra on {target} at level {level}: there is no re-contra")
        other = 1 - p
        if (other, target) not in made_of:
            raise FactsError(
                f"seat {seat} contra'd {target}, which the {PARTY_NAMES[other]} did not announce"
            )
        any_contra = True
        item = cat.get(target)
        cv = item.effective_contra_value if item is not None else None
        if cv is None:
            ps.unknown.append(f"contra of seat {seat} on {target}: value unknown")
            continue
        results.append(-cv if made_of[(other, target)] else cv)
    if not any_contra:
        return
    limit = options["contra_limit"]
    raw = sum(results)
    if options["contra_limit_mode"] == "separate":
        k = min(limit, sum(x for x in results if x > 0)) + max(
            -limit, sum(x for x in results if x < 0)
        )
    else:
        k = max(-limit, min(limit, raw))
    if k:
        reason = f"contras: {raw:+d}" + (f", limited to {k:+d}" if k != raw else "")
        ps.add("kontra", k, reason)


def implied_consolation(
    score: HandScore, recorded_totals: Sequence[int], options: Mapping[str, Any]
) -> tuple[int | None, ...]:
    """Per seat, the consolation a party's recorded score implies when the consolation is
    unknown (§7.1: score = max(0, min(cap, C + known) + trophies)): C = recorded − trophies −
    known, where the recorded score is neither floored at 0 nor capped (else None: the record
    does not determine it)."""
    out: list[int | None] = [None] * len(recorded_totals)
    cap = int(options["cap"])
    inside = options["trophy_cap_order"] == "lost_trophies_inside_cap"
    for seats, known, trophies in score.card_points.get("claim_basis", ()):
        for s in seats:
            if s >= len(recorded_totals):
                continue
            r = recorded_totals[s]
            if inside and trophies < 0:
                ok = 0 < r < cap
                c = r - trophies - known
            else:
                ok = r > 0 and r - trophies < cap
                c = r - trophies - known
            out[s] = c if ok else None
    return tuple(out)


def _consolation(ps: PartyScore, p: int, options: Mapping[str, Any]) -> None:
    c = options[f"consolation_{PARTY_NAMES[p]}"]
    if c is None:
        c = options["consolation"]
    if c is None:
        ps.consolation_unknown = True
        ps.unknown.append(
            "consolation: its formula is unknown (§1.4); set the ruleset option 'consolation' "
            "(a recorded consolation is taken as a claimed value)"
        )
    else:
        ps.add("consolation", int(c), "consolation (starting score), from the ruleset options")


def _meldungen(ps: PartyScore, p: int, bidding: Bidding, cat: Catalogue) -> None:
    sums: dict[str, int] = {}
    for m in bidding.melds:
        if bidding.party_of(m.seat) != p or not m.counted or m.valid is False:
            continue
        item = cat.get(m.item_id)
        if item is None or m.valid is None:
            ps.unknown.append(
                f"Meldung {m.item_id} of seat {m.seat}: not in the catalogue or "
                "its condition is unknown"
            )
            continue
        if item.value is None:
            ps.unknown.append(f"Meldung {m.item_id} of seat {m.seat}: value unknown")
            continue
        sums[m.item_id] = sums.get(m.item_id, 0) + item.value
    for mid, v in sums.items():
        if v:
            ps.add(mid, v, f"Meldung {cat.items[mid].name}")


def _schlemme(
    ps: PartyScore, p: int, bidding: Bidding, cat: Catalogue, outcome: Mapping[int, bool | None]
) -> list[tuple[str, int, str]]:
    trophies: list[tuple[str, int, str]] = []
    for inst in bidding.instances:
        if inst.party != p or not inst.active:
            continue
        item = cat.get(inst.item_id)
        won = outcome[inst.idx]
        label = item.name if item is not None else inst.item_id
        if item is None:
            ps.unknown.append(f"{inst.item_id}: not in the catalogue")
            continue
        if won is None:
            ps.unknown.append(f"{inst.item_id} ({label}): its condition is unknown")
            continue
        if item.value is None:
            ps.unknown.append(
                f"{inst.item_id} ({label}) {'made' if won else 'lost'}: value unknown"
            )
            continue
        value = item.value if won else -item.value
        line = (
            inst.item_id,
            value,
            f"{label} announced by seat {inst.announcer}, {'made' if won else 'lost'}",
        )
        if item.is_trophy:
            trophies.append(line)
        elif value:
            ps.add(*line)
    return trophies


def _silent(
    ps: PartyScore,
    p: int,
    bidding: Bidding,
    cat: Catalogue,
    options: Mapping[str, Any],
    suppressed: set[str],
    parties: Sequence[tuple[int, int]],
    dealt: Sequence[Sequence[str]],
    tricks: Sequence[Trick],
) -> None:
    own = {i.item_id for i in bidding.instances if i.party == p}
    theirs = [i for i in bidding.instances if i.party != p]
    ctx = _ctx(parties[p], dealt, tricks)
    for item in cat.items.values():
        if not item.silent or item.id in suppressed:
            continue
        if own & set(item.replaced_by):
            continue
        lauer_victims = item.id == cat.lauer_item and options["lauer_rule"] == "victims"
        if lauer_victims and _victims_announced(item, theirs, cat):
            continue
        if item.condition is None:
            ps.unknown.append(f"silent {item.id} ({item.name}): condition unknown")
            continue
        if not predicates.evaluate(item.condition, ctx):
            continue  # a failed silent premium scores nothing (§8.1 item 12)
        if item.value is None:
            ps.unknown.append(f"silent {item.id} ({item.name}) won: value unknown")
            continue
        if item.value:
            ps.add(item.id, item.value, f"silent premium {item.name}")


def _victims_announced(item: Item, theirs: Sequence[Instance], cat: Catalogue) -> bool:
    """§8.1 item 13, reading "victims": the other pair announced a Schlemm naming the card
    this silent premium captures from them."""
    captured = predicates.cards_mentioned(item.condition)
    for inst in theirs:
        it = cat.get(inst.item_id)
        if it is None:
            continue
        named = predicates.cards_mentioned(it.condition) | {b.card for b in it.bindings}
        if named & captured:
            return True
    return False


def _contras(
    ps: PartyScore,
    p: int,
    bidding: Bidding,
    cat: Catalogue,
    outcome: Mapping[int, bool | None],
    options: Mapping[str, Any],
) -> None:
    limit = options["contra_limit"]
    results: list[int] = []
    any_contra = False
    for c in bidding.contras:
        if c.party != p or c.void:
            continue
        inst = bidding.instances[c.target]
        if not inst.active and options["raise_voids_contra"] != "keep":
            continue
        any_contra = True
        item = cat.get(inst.item_id)
        won = outcome[inst.idx]
        cv = item.effective_contra_value if item is not None else None
        if won is None or cv is None:
            ps.unknown.append(
                f"contra of seat {c.seat} on {inst.item_id}: "
                + ("outcome unknown" if won is None else "value unknown")
            )
            continue
        results.append(-cv if won else cv)
    if not any_contra:
        return
    raw = sum(results)
    if options["contra_limit_mode"] == "separate":
        gains = sum(x for x in results if x > 0)
        losses = sum(x for x in results if x < 0)
        k = min(limit, gains) + max(-limit, losses)
    else:
        k = max(-limit, min(limit, raw))
    if k or results:
        reason = f"contras: {raw:+d}" + (f", limited to {k:+d}" if k != raw else "")
        if k:
            ps.add("kontra", k, reason)
