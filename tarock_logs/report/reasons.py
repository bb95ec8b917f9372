"""The reason of a score item, in the reader's language: one wording for the replayer's end
panel and the dossier's score section.

A recomputed score is a list of lines (an item, the seat that writes it or the declarer's
side, the value). Why a line has its value is said here from the line and the hand's facts
(:class:`HandFacts`: the contract, the declarer and partner, won or lost, the card points the
engine counted, the announcements, kontras, melds and claims of the record, the tricks, the
irregularities), never from an engine's English sentence: *"difference 15 × 2 (kontra)"*,
*"pagat ultimo announced and won by Ana Kos"*, *"Mond of Bojan Zupan caught by Cene Novak in
trick 7"*. Players are named, never seats; the game's terms stay in the game's own words
(:mod:`tarock_logs.report.text`).

Nothing here decides a rule: who won a line is its sign (a line gains for the seat that
writes it, or the declarer's side), what was announced and doubled is the record, the card
points are the engine's count as stored. A game whose kontras are scored as their own item
(its engine lists ``kontra`` among its :attr:`~tarock_logs.rules.base.GameEngine.score_items`)
does not multiply the doubled item: its lines then say no factor.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.cards import CARDS
from tarock_logs.report.i18n import normalize, number, t
from tarock_logs.report.text import (
    bonus_name,
    card_text,
    contract_name,
    kontra_name,
    meld_name,
    score_item_name,
    target_name,
)
from tarock_logs.rules import get_engine

__all__ = ["HandFacts", "ScoreLine", "record_facts", "score_reason", "thirds_text"]


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One recomputed line: ``seat`` None is written by every member of the declarer's side."""

    item: str
    seat: int | None
    value: int | float | None


@dataclass(frozen=True, slots=True)
class HandFacts:
    """What a score line's reason is said from. ``actions`` are the record's (log or engine
    actions: ``type``, ``seat``, ``bonus``, ``side``, ``target``, ``level``, ``claim``,
    ``meld`` are read); ``pairs`` the seats' fixed pairs (a game of fixed pairs; else empty);
    ``tricks`` the completed tricks (``cards`` as ``[seat, token]``, ``winner``, ``points``
    in ``points_unit``); ``irregularities`` ``(type, seat, kind)`` as recorded; ``lines`` all
    of the hand's recomputed lines (a klop line is said against the others)."""

    game: str
    players: Sequence[str]
    contract: str | None = None
    declarer: int | None = None
    partner: int | None = None
    won: bool | None = None
    card_points: Mapping[str, Any] = field(default_factory=dict)
    actions: Sequence[Any] = ()
    pairs: Sequence[Any] = ()
    tricks: Sequence[Mapping[str, Any]] = ()
    irregularities: Sequence[tuple[str, int | None, str | None]] = ()
    lines: Sequence[ScoreLine] = ()


def record_facts(
    session: Any,
    hand: Any,
    score: Any,
    tricks: Sequence[Any] = (),
    lines: Sequence[ScoreLine] | None = None,
) -> HandFacts:
    """The facts of a logged hand (a log session and hand, the engine's :class:`~tarock_logs.
    rules.base.HandScore` or None, the completed tricks of its replay): what the dossier says
    the reasons from. ``lines`` default to the score's own items."""
    names = [p.name or p.id for p in session.players]
    pairs = [getattr(p, "pair", None) for p in session.players]
    items = (
        list(lines)
        if lines is not None
        else [ScoreLine(it.item, it.seat, it.value) for it in (score.items if score else ())]
    )
    return HandFacts(
        game=session.game,
        players=names,
        contract=getattr(score, "contract", None),
        declarer=getattr(score, "declarer", None),
        partner=getattr(score, "partner", None),
        won=getattr(score, "won", None),
        card_points=dict(getattr(score, "card_points", None) or {}),
        actions=list(hand.actions),
        pairs=pairs if all(p is not None for p in pairs) else [],
        tricks=[tr for tr in tricks if isinstance(tr, Mapping)],
        irregularities=[
            (str(ir.type), getattr(ir, "seat", None), getattr(ir, "kind", None))
            for ir in getattr(hand, "irregularities", None) or ()
        ],
        lines=items,
    )


def thirds_text(thirds: float | None) -> str:
    """Card points counted in thirds of a point, as people write them: ``149`` → ``49⅔``."""
    if thirds is None:
        return ""
    n = int(thirds)
    whole, rest = divmod(abs(n), 3)
    frac = ("", "⅓", "⅔")[rest]
    return ("-" if n < 0 else "") + (f"{whole}{frac}" if whole or not frac else frac)


# ------------------------------------------------------------------ the hand's facts, read


def _name(f: HandFacts, seat: int | None, lang: str) -> str:
    if seat is not None and 0 <= seat < len(f.players):
        return f.players[seat]
    return t("a player", lang)


def _declarer_side(f: HandFacts) -> frozenset[int]:
    return frozenset(s for s in (f.declarer, f.partner) if s is not None)


def _side_of(f: HandFacts, seat: int | None) -> frozenset[int]:
    """The seats that write with ``seat`` (None: the declarer's side)."""
    n = len(f.players)
    if seat is None:
        return _declarer_side(f)
    if f.pairs and seat < len(f.pairs) and f.pairs[seat] is not None:
        return frozenset(s for s in range(n) if s < len(f.pairs) and f.pairs[s] == f.pairs[seat])
    side = _declarer_side(f)
    if side:
        return side if seat in side else _other(f, side)
    return frozenset({seat})


def _side_text(f: HandFacts, seats: frozenset[int], lang: str) -> str:
    if not seats:
        return t("the declarer's side", lang)
    return " + ".join(_name(f, s, lang) for s in sorted(seats))


def _active(f: HandFacts) -> frozenset[int]:
    """The seats that played in the hand (every seat where no trick is known)."""
    played = frozenset(int(s) for tr in f.tricks for s, _ in tr.get("cards") or ())
    return played or frozenset(range(len(f.players)))


def _other(f: HandFacts, seats: frozenset[int]) -> frozenset[int]:
    return _active(f) - seats


def _same_bonus(f: HandFacts, a: Any, item: str) -> bool:
    if not isinstance(a, str):
        return False
    return a == item or bonus_name(a, f.game) == bonus_name(item, f.game)


def _of_type(f: HandFacts, kind: str) -> list[Any]:
    return [a for a in f.actions if getattr(a, "type", None) == kind]


def _kontra_level(f: HandFacts, target: str) -> int:
    """The highest kontra level said on ``target`` (``game``: the game itself)."""
    level = 0
    for a in _of_type(f, "kontra"):
        on = getattr(a, "target", None) or "game"
        if on == target or (target != "game" and _same_bonus(f, on, target)):
            level = max(level, int(getattr(a, "level", None) or 1))
    return level


def _multiplies(game: str) -> bool:
    """Whether a kontra multiplies the item it doubles (not where kontras are an item)."""
    engine = get_engine(game)
    return engine is None or "kontra" not in (engine.score_items or ())


def _factor(f: HandFacts, target: str, lang: str) -> tuple[int, str]:
    """The kontra factor on ``target`` and its words (`` × 2 (kontra)``; none at level 0)."""
    level = _kontra_level(f, target) if _multiplies(f.game) else 0
    if not level:
        return 1, ""
    k = 2**level
    return k, t(" × {factor} ({kontra})", lang, factor=k, kontra=kontra_name(level, f.game))


def _card_points(f: HandFacts, lang: str) -> str | None:
    """The declarer's side's card points as the engine counted them (else as its tricks
    add up, where every trick is known with its points)."""
    cp = f.card_points
    if isinstance(cp.get("declarer_side_thirds"), int | float):
        return thirds_text(cp["declarer_side_thirds"])
    if isinstance(cp.get("declarer_side"), int | float):
        return number(cp["declarer_side"], lang)
    side = _declarer_side(f)
    if side and f.tricks and all(isinstance(tr.get("points"), int | float) for tr in f.tricks):
        total = sum(tr["points"] for tr in f.tricks if tr.get("winner") in side)
        thirds = any(tr.get("points_unit") == "thirds" for tr in f.tricks)
        return thirds_text(total) if thirds else number(total, lang)
    return None


def _seat_tricks(f: HandFacts, seat: int) -> tuple[int, str | None]:
    """The tricks ``seat`` won and their card points (None where the tricks say none)."""
    won = [tr for tr in f.tricks if tr.get("winner") == seat]
    pts = [tr.get("points") for tr in won]
    if not f.tricks or any(not isinstance(p, int | float) for p in pts):
        return len(won), None
    total = sum(p for p in pts if isinstance(p, int | float))
    thirds = any(tr.get("points_unit") == "thirds" for tr in f.tricks)
    return len(won), thirds_text(total) if thirds else number(total, "en")


def _gains(line: ScoreLine) -> bool:
    return (line.value or 0) > 0


def _gaining_side(f: HandFacts, line: ScoreLine) -> frozenset[int]:
    side = _side_of(f, line.seat)
    return side if _gains(line) or not line.value else _other(f, side)


# ------------------------------------------------------------------ the items


def _game_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    """The contract or the game: won or lost by the declarer's side, with its card points."""
    side = _declarer_side(f)
    mine = line.seat is None or line.seat in side
    won = _gains(line) == mine if line.value else bool(f.won)
    what = (
        contract_name(f.contract, f.game, lang=lang)
        if line.item == "contract"
        else score_item_name(line.item, f.game, lang=lang)
    )
    who = _side_text(f, side, lang)
    with_points = line.item == "game" or any(x.item == "difference" for x in f.lines)
    points = _card_points(f, lang) if with_points else None
    fields = {"what": what, "who": who, "points": points}
    if points is not None:
        said = (
            t("{what} won by {who} with {points} card points", lang, **fields)
            if won
            else t("{what} lost by {who} with {points} card points", lang, **fields)
        )
    else:
        said = (
            t("{what} won by {who}", lang, **fields)
            if won
            else t("{what} lost by {who}", lang, **fields)
        )
    return said + _factor(f, "game", lang)[1]


def _difference_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    k, said = _factor(f, "game", lang)
    value = abs(line.value or 0)
    n = value // k if k and value % k == 0 else value
    return t("difference {n}", lang, n=number(n, lang)) + said


def _klop_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    """A klop line: said from its value against the other players' lines and the seat's
    tricks (empty: no trick and a plus; full: a minus while another writes nothing)."""
    v = line.value or 0
    k, said = _factor(f, "game", lang)
    others = [x for x in f.lines if x.item == line.item and x.seat != line.seat]
    n_tricks, points = _seat_tricks(f, line.seat) if line.seat is not None else (0, None)
    if v > 0:
        out = t("empty: no trick won", lang)
    elif v == 0:
        out = t("another player is full or empty", lang)
    elif any(not x.value for x in others):
        out = (
            t("full: {points} card points", lang, points=points)
            if points is not None
            else t("full", lang)
        )
    else:
        base = abs(v) // k if abs(v) % k == 0 else abs(v)
        out = t("{points} card points", lang, points=points or number(base, lang))
        if f.tricks:
            out += ", " + t("tricks: {n}", lang, n=n_tricks)
    return out + (said if v else "")


def _announcing(f: HandFacts, a: Any) -> frozenset[int]:
    """The side an announcement is for: its ``side`` (``dazu``: the declarer's, ``dagegen``:
    the defenders'), else its announcer's."""
    side = getattr(a, "side", None)
    if side == "dagegen":
        return _other(f, _declarer_side(f))
    if side == "dazu":
        return _declarer_side(f)
    return _side_of(f, a.seat)


def _bonus_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    """A bonus, premium or meld: announced (by whom, won or lost), declared, claimed, or
    silent (for whom)."""
    item = line.item
    named = score_item_name(item, f.game, lang=lang)
    said = [a for a in _of_type(f, "announce") if _same_bonus(f, getattr(a, "bonus", None), item)]
    _, factor = _factor(f, item, lang)
    if said:
        mine_side = _side_of(f, line.seat)
        # the line's own side's announcement first (each side scores its own, in a game of
        # fixed pairs), else the last one said
        a = next((x for x in reversed(said) if _announcing(f, x) == mine_side), said[-1])
        announcing = _announcing(f, a)
        mine = mine_side == announcing or (line.seat is not None and line.seat in announcing)
        won = _gains(line) == mine
        fields = {"bonus": named, "name": _name(f, a.seat, lang)}
        out = (
            t("{bonus} announced and won by {name}", lang, **fields)
            if won
            else t("{bonus} announced by {name} and lost", lang, **fields)
        )
        return out + factor
    melds = [a for a in _of_type(f, "meld") if getattr(a, "meld", None) == item]
    if melds:
        who = " + ".join(dict.fromkeys(_name(f, a.seat, lang) for a in melds))
        return t("{meld} declared by {name}", lang, meld=meld_name(item, f.game), name=who)
    claims = [a for a in _of_type(f, "claim") if _same_bonus(f, getattr(a, "claim", None), item)]
    if claims:
        who = " + ".join(dict.fromkeys(_name(f, a.seat, lang) for a in claims))
        return t("{bonus} claimed by {name}", lang, bonus=named, name=who) + factor
    return (
        t("{bonus} not announced, for {side}", lang, bonus=named,
          side=_side_text(f, _gaining_side(f, line), lang))
        + factor
    )  # fmt: skip


def _mond(f: HandFacts) -> tuple[int, int, int] | None:
    """The mond's owner, the seat that took it and the trick's number (1-based), where a
    trick holds tarok XXI won by a seat other than the one that played it."""
    for i, tr in enumerate(f.tricks):
        for seat, token in tr.get("cards") or ():
            card = CARDS.get(token)
            if card is not None and card.is_tarok and card.strength == 21:
                winner = tr.get("winner")
                if isinstance(winner, int) and winner != seat:
                    return int(seat), winner, i + 1
    return None


def _mondfang_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    found = _mond(f)
    mond = card_text(next((c for c in CARDS if CARDS[c].is_tarok and CARDS[c].strength == 21),
                          "T21"), f.game)  # fmt: skip
    if found is not None:
        owner, taker, n = found
        return t(
            "{mond} of {owner} caught by {taker} in trick {n}",
            lang,
            mond=mond,
            owner=_name(f, owner, lang),
            taker=_name(f, taker, lang),
            n=n,
        )
    if line.seat is not None and (line.value or 0) < 0:
        return t("{name} lost the {mond}", lang, name=_name(f, line.seat, lang), mond=mond)
    return t("the {mond} was caught", lang, mond=mond)


def _radelc_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    seat = f.declarer if line.seat is None else line.seat
    return t("{name} holds a radelc: the result is doubled", lang, name=_name(f, seat, lang))


def _renons_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    offenders = [s for kind, s, _ in f.irregularities if kind == "renons" and s is not None]
    if line.seat is not None and line.seat in offenders:
        return (
            t("renons by {name}", lang, name=_name(f, line.seat, lang))
            + _factor(f, "game", lang)[1]
        )
    if offenders and _gains(line):
        return t(
            "renons by {offender}: {name} is paid the game",
            lang,
            offender=_name(f, offenders[0], lang),
            name=_name(f, line.seat, lang),
        )
    if offenders:
        return t("renons by {name}", lang, name=_name(f, offenders[0], lang))
    return t("renons", lang)


def _penalty_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    kinds = [k for k, s, _ in f.irregularities if s == line.seat]
    name = _name(f, line.seat, lang)
    if "misdeal" in kinds:
        return t("misdeal by {name}", lang, name=name)
    if "arbiter" in kinds and "penalty" not in kinds:
        return t("the referee's adjustment for {name}", lang, name=name)
    return t("penalty for {name}", lang, name=name)


def _kontra_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    """A game whose kontras are an item: the kontras said by the line's side, on what."""
    side = _side_of(f, line.seat)
    said = [
        t(
            "{kontra} by {name} on {target}",
            lang,
            kontra=kontra_name(getattr(a, "level", None), f.game),
            name=_name(f, a.seat, lang),
            target=target_name(getattr(a, "target", None), f.game, lang=lang),
        )
        for a in _of_type(f, "kontra")
        if a.seat in side
    ]
    return "; ".join(said) if said else t("kontras", lang)


def _cap_reason(f: HandFacts, line: ScoreLine, lang: str) -> str:
    if _gains(line):
        return t("a side never writes less than 0", lang)
    return t("the score is limited before the trophies", lang)


#: the wording of a score item's reason, by the item (any other item is a bonus)
_BY_ITEM: dict[str, Callable[[HandFacts, ScoreLine, str], str]] = {
    "contract": _game_reason,
    "game": _game_reason,
    "difference": _difference_reason,
    "klop": _klop_reason,
    "mondfang": _mondfang_reason,
    "radelc": _radelc_reason,
    "renons": _renons_reason,
    "penalty": _penalty_reason,
    "kontra": _kontra_reason,
    "consolation": lambda _f, _line, lang: t("the starting score of each side", lang),
    "cap": _cap_reason,
}


def score_reason(line: ScoreLine, facts: HandFacts, lang: str | None = "en") -> str:
    """Why ``line`` has its value, in ``lang``, from the hand's ``facts`` (module
    docstring)."""
    return _BY_ITEM.get(line.item, _bonus_reason)(facts, line, normalize(lang))
