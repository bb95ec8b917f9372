"""Reading a finished line off the engine: its value in the solver's units and the outcome
facts a player cares about (contract made, bonuses won or lost).

The solver's value of a line is checked against the engine's own itemised score of the same
line (:func:`line_value`): the engine writes the score, the solver only chooses cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tarock_logs.analysis.cardset import CARD
from tarock_logs.rules.base import Action, HandScore
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.hand import SlovenianHand

__all__ = ["LineResult", "changes", "line_value", "play_line", "score_value"]

#: score items decided by the card play (the ones an outcome names)
BONUS_ITEMS = ("trula", "kralji", "pagat_ultimo", "kralj_ultimo", "valat", "barvni_valat",
               "mondfang")  # fmt: skip


def plays_alone(h: SlovenianHand) -> bool:
    """Everyone plays for himself (klop: :attr:`Contract.alone`)."""
    return h.contract is not None and CONTRACTS[h.contract].alone


def score_value(h: SlovenianHand, score: HandScore, perspective_seat: int | None) -> int:
    """The solver's objective read off the engine's score: the declarer side's items, with
    each mondfang made zero-sum (a defender's counts for the declarer side); klop: the
    perspective player's own total."""
    if plays_alone(h):
        assert perspective_seat is not None
        return score.totals[perspective_seat]
    v = 0
    for it in score.items:
        if it.seat is None or h.side(it.seat) == "M":
            v += it.value
        else:
            v -= it.value
    return v


@dataclass(frozen=True, slots=True)
class LineResult:
    """A principal line played out on the engine: its cards, the engine's value of it and
    the outcome facts (``made``: the declarer's contract; ``items``: bonus item → value for
    the declarer side; ``klop``: the perspective player's klop item, before the radelc)."""

    cards: tuple[str, ...]
    value: int
    made: bool | None
    items: tuple[tuple[str, int], ...]
    klop: int | None = None

    def facts(self) -> dict[str, object]:
        out: dict[str, object] = {"value": self.value, "made": self.made}
        out.update(dict(self.items))
        if self.klop is not None:
            out["klop"] = self.klop
        return out


def play_line(h: SlovenianHand, cards: Sequence[int], perspective_seat: int | None) -> LineResult:
    """Play ``cards`` (ids) from ``h`` to the end of the hand, score it with the engine, and
    undo every card again (``h`` is left as it was)."""
    pushed = 0
    tokens = []
    try:
        for c in cards:
            seat = h.to_move()
            if seat is None or h.is_over():
                break
            tok = CARD[c]
            h.push(Action("play", seat, card=tok))
            tokens.append(tok)
            pushed += 1
        score = h.score()
    finally:
        for _ in range(pushed):
            h.pop()
    items: dict[str, int] = {}
    for it in score.items:
        if it.item in BONUS_ITEMS:
            sign = 1 if it.seat is None or h.side(it.seat) == "M" else -1
            items[it.item] = items.get(it.item, 0) + sign * it.value
    klop = None
    if plays_alone(h) and perspective_seat is not None:
        klop = sum(
            it.value for it in score.items if it.item == "klop" and it.seat == perspective_seat
        )
    return LineResult(tuple(tokens), score_value(h, score, perspective_seat), score.won,
                      tuple(sorted(items.items())), klop)  # fmt: skip


def line_value(h: SlovenianHand, cards: Sequence[int], perspective_seat: int | None) -> int:
    return play_line(h, cards, perspective_seat).value


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def changes(best: LineResult, played: LineResult) -> list[str]:
    """What the played card changed against the best card, in words: the contract made or
    lost, a bonus won or lost (the sign of its item), klop's full or empty."""
    out = []
    if best.made is not None and played.made is not None and best.made != played.made:
        out.append("contract lost" if best.made else "contract made")
    b, p = dict(best.items), dict(played.items)
    for item in BONUS_ITEMS:
        sb, sp = _sign(b.get(item, 0)), _sign(p.get(item, 0))
        if sb != sp:
            if item == "mondfang":
                word = {1: "paid by the defenders", 0: "not paid", -1: "paid by the declarer side"}
            else:
                word = {1: "for the declarer side", 0: "for nobody", -1: "for the defenders"}
            out.append(f"{item} {word[sp]} (best: {word[sb]})")
    if best.klop is not None and played.klop is not None:

        def cat(x: int) -> str:
            return "empty" if x in (70, 140) else "full" if x in (-70, -140) else "points"

        kb, kp = cat(best.klop), cat(played.klop)
        if kb != kp:
            out.append(f"klop {kp} (best: {kb})")
    return out
