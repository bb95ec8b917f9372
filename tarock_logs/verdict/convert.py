"""The one codec between the log format and the engines.

A log action (a :mod:`tarock_logs.log.models` action, pydantic) becomes an engine
:class:`~tarock_logs.rules.base.Action` with the same ``type`` and ``seat`` and the same-named
fields (list fields as tuples, ``params`` as ``(key, value)`` pairs sorted by key); a recorded
irregularity becomes an engine :class:`~tarock_logs.rules.base.Irregularity`, a hand recorded
as facts (format 1.1) :class:`~tarock_logs.rules.base.RecordedFacts`, a counted hand's piles
(format 1.2) :class:`~tarock_logs.rules.base.CountedCards`. The way back,
:func:`action_to_log` and :func:`score_to_log`, writes an engine action or score in the log
format (the simulator, the hand entry). Nothing else in the tree converts between the two.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tarock_logs.rules.base import (
    Action,
    BonusOutcome,
    CountedCards,
    HandScore,
    Irregularity,
    RecordedFacts,
)

__all__ = [
    "action_to_log",
    "score_to_log",
    "to_engine_action",
    "to_engine_counted",
    "to_engine_facts",
    "to_engine_irregularity",
]


def _params(p: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    return tuple(sorted(p.items()))


_SIMPLE = frozenset({"play", "call", "pass", "lezim"})
_SIMPLE_CACHE: dict[tuple[str, int, str | None], Action] = {}
_PLAY_CACHE: dict[tuple[int, str], Action] = {}


def to_engine_action(model_action: Any) -> Action:
    """One log action (a :mod:`tarock_logs.log.models` action) as an engine :class:`Action`.

    Same ``type`` and ``seat`` and the same-named fields; list fields become tuples and
    ``params`` a tuple of ``(key, value)`` pairs sorted by key (docs/architecture.md).
    """
    a = model_action
    t = a.type
    if t == "play":  # most actions of a hand
        pkey = (a.seat, a.card)
        hit = _PLAY_CACHE.get(pkey)
        if hit is None:
            hit = _PLAY_CACHE[pkey] = Action(t, a.seat, card=a.card)
        return hit
    if t in _SIMPLE:  # the bulk of a hand: cached, Actions are immutable
        # a model's fields are in its __dict__; asking a pydantic model for a field it lacks
        # goes through a slow __getattr__ that raises
        d = getattr(a, "__dict__", None)
        key = (t, a.seat, d.get("card") if d is not None else getattr(a, "card", None))
        hit = _SIMPLE_CACHE.get(key)
        if hit is None:
            hit = _SIMPLE_CACHE[key] = Action(t, a.seat, card=key[2])
        return hit
    if t == "bid":
        return Action(t, a.seat, contract=a.contract)
    if t == "talon":
        return Action(t, a.seat, group=a.group)
    if t == "discard":
        return Action(t, a.seat, cards=tuple(a.cards), shown=tuple(a.shown))
    if t == "announce":
        return Action(
            t, a.seat, bonus=a.bonus, side=a.side, raises=a.raises, params=_params(a.params)
        )
    if t == "kontra":
        return Action(t, a.seat, target=a.target, level=a.level)
    if t == "throw_in":  # format 1.1 may record whether it was compulsory
        c = a.compulsory
        return Action(t, a.seat, params=(("compulsory", c),) if c is not None else ())
    if t == "claim":
        return Action(t, a.seat, claim=a.claim, cards=tuple(a.cards))
    if t == "meld":
        return Action(t, a.seat, meld=a.meld, params=_params(a.params))
    return Action(t, a.seat)  # an action type the log format may add later


def to_engine_irregularity(irr: Any) -> Irregularity:
    """A recorded irregularity (renons, misdeal, arbiter ruling, penalty) for the engine."""
    t = irr.type
    if t == "renons":
        return Irregularity(
            t,
            seat=irr.offender,
            called_by=irr.called_by,
            kind=irr.kind,
            action_index=irr.action_index,
            trick=irr.trick,
            upheld=irr.upheld,
        )
    if t == "misdeal":
        return Irregularity(t, seat=irr.seat, points=irr.penalty)
    if t == "arbiter":
        adj = tuple((a.seat, a.points, a.unit) for a in irr.adjustments)
        return Irregularity(t, adjustments=adj)
    if t == "penalty":
        return Irregularity(t, seat=irr.seat, points=irr.points, unit=irr.unit)
    raise ValueError(f"unknown irregularity type {t!r}")


def to_engine_facts(facts: Any) -> RecordedFacts:
    """A hand's ``facts`` (:class:`tarock_logs.log.models.Facts`) as engine
    :class:`~tarock_logs.rules.base.RecordedFacts` (the same fields; lists as tuples)."""
    return RecordedFacts(
        contract=facts.contract,
        declarer=facts.declarer,
        partner=facts.partner,
        called=facts.called,
        won=facts.won,
        card_points=facts.card_points,
        difference=facts.difference,
        points_by_seat=tuple(facts.points_by_seat) if facts.points_by_seat is not None else None,
        full=tuple(facts.full),
        bonuses=tuple(BonusOutcome(b.bonus, b.side, b.announced, b.made) for b in facts.bonuses),
        kontras=tuple((k.target, k.level, k.seat) for k in facts.kontras),
        mondfang=tuple((mf.seat, mf.captured_by) for mf in facts.mondfang),
        consolation=tuple(facts.consolation) if facts.consolation is not None else None,
    )


def to_engine_counted(counted: Any) -> CountedCards:
    """A counted hand's ``counted`` (:class:`tarock_logs.log.models.Counted`) as engine
    :class:`~tarock_logs.rules.base.CountedCards` (the same fields; lists as tuples)."""

    def pile(cs: Any) -> tuple[str, ...] | None:
        return tuple(cs) if cs is not None else None

    return CountedCards(
        talon=tuple(counted.talon),
        talon_taken=tuple(counted.talon_taken),
        discards=tuple(counted.discards),
        declarer=pile(counted.declarer),
        defenders=pile(counted.defenders),
        by_seat=tuple(tuple(p) for p in counted.by_seat) if counted.by_seat is not None else None,
    )


def action_to_log(a: Action) -> dict[str, Any]:
    """The log-format dict of an engine action (only the fields its type uses)."""
    d: dict[str, Any] = {"type": a.type, "seat": a.seat}
    t = a.type
    if t == "bid":
        d["contract"] = a.contract
    elif t in ("call", "play"):
        d["card"] = a.card
    elif t == "talon":
        d["group"] = a.group
    elif t == "discard":
        d["cards"] = list(a.cards)
        if a.shown:
            d["shown"] = list(a.shown)
    elif t == "announce":
        d["bonus"] = a.bonus
        if a.side:
            d["side"] = a.side
        if a.params:
            d["params"] = dict(a.params)
        if a.raises:
            d["raises"] = a.raises
    elif t == "kontra":
        d["target"] = a.target or "game"
        d["level"] = a.level or 1
    elif t == "claim":
        d["claim"] = a.claim
        if a.cards:
            d["cards"] = list(a.cards)
    elif t == "meld":
        d["meld"] = a.meld
        if a.params:
            d["params"] = dict(a.params)
    return d


def score_to_log(score: HandScore) -> dict[str, Any]:
    """The log-format ``result`` of an engine score: totals, items, radelci after the hand."""
    out: dict[str, Any] = {
        "scores": [int(x) for x in score.totals],
        "items": [
            {
                "item": i.item,
                "value": int(i.value),
                **({"seat": i.seat} if i.seat is not None else {}),
            }
            for i in score.items
        ],
    }
    radelci = (score.carry_after or {}).get("radelci")
    if radelci is not None:
        out["radelci_after"] = [int(r) for r in radelci]
    return out
