"""The predicate language of the Royal Tarock catalogue (royal-tarock.md §5.7).

A catalogue item's ``condition`` is JSON data, not code, so that completing the catalogue
never needs a code change. An expression is a literal (number, string, list, ``true``) or an
object with exactly one key, the operator:

* about the tricks of the **party** (the pair scoring the item), evaluated after trick 10;
  "bring home" (*heimbringen*) a card means the card ends in a trick the party won:

  ``{"home": "T18"}``, ``{"all_home": ["T22", "T21"]}``, ``{"any_home": ["T22", "T21"]}``,
  ``{"home_from_opponents": "T1"}`` (a card dealt to the other pair ends in the party's
  tricks), ``{"tricks_at_least": 5}``, ``{"first_to_tricks": 5}`` (the party completes n
  tricks before the other pair does), ``{"trick_won_with": {"trick": 10, "card": "T1"}}``
  (the party wins trick k and card c is the card that wins it), ``{"first_n_tricks": 5}``;
* about the **declaring player's dealt hand** (Meldungen):

  ``{"hand_has_all_of_suit": null}`` (any suit, or a suit letter), ``{"hand_has_four_of_rank":
  null}`` (four kings, queens, cavalls or jacks; or a rank letter), ``{"hand_has": "T1"}``,
  ``{"hand_has_any": ["T1", "T2"]}``, and the value ``{"hand_count": "H"}`` (cards of a suit;
  ``"T"`` counts tarocks);
* values: ``{"param": "count"}`` (a parameter of the Meldung, e.g. ``{"suit": "S",
  "count": 3}``), ``{"suit_size": "H"}`` (4 for red suits, 5 for black);
* comparisons ``eq ne lt le gt ge`` over a list of two values, and ``and`` / ``or`` (lists)
  and ``not``.

:func:`validate` checks an expression's shape (raising ``ValueError`` with the path of the
fault); :func:`evaluate` computes it in a :class:`Context`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tarock_logs.cards import PACKS

_PACK = frozenset(PACKS["royal"])
SUIT_SIZE = {"H": 4, "D": 4, "S": 5, "C": 5, "T": 22}
RANKS = ("K", "Q", "N", "J")

#: operator -> kind of argument ("card", "cards", "int", "suit?", "rank?", "value", ...)
_TRICK_OPS = {
    "home": "card",
    "all_home": "cards",
    "any_home": "cards",
    "home_from_opponents": "card",
    "tricks_at_least": "int",
    "first_to_tricks": "int",
    "trick_won_with": "trick_card",
    "first_n_tricks": "int",
}
_HAND_OPS = {
    "hand_has_all_of_suit": "suit?",
    "hand_has_four_of_rank": "rank?",
    "hand_has": "card",
    "hand_has_any": "cards",
}
_VALUE_OPS = {"hand_count": "suit_or_param", "param": "name", "suit_size": "suit_or_param"}
_CMP_FN: dict[str, Callable[[Any, Any], Any]] = {
    "eq": operator.eq,
    "ne": operator.ne,
    "lt": operator.lt,
    "le": operator.le,
    "gt": operator.gt,
    "ge": operator.ge,
}
_CMP = set(_CMP_FN)
_LOGIC = {"and", "or", "not"}
OPERATORS = frozenset(_TRICK_OPS) | frozenset(_HAND_OPS) | frozenset(_VALUE_OPS) | _CMP | _LOGIC


@dataclass(frozen=True, slots=True)
class Context:
    """What a condition can look at.

    ``party`` are the seats of the pair the item is scored for; ``dealt`` the four dealt
    hands; ``tricks`` the completed tricks as ``(cards in play order as (seat, card), winner
    seat)``; ``player`` the seat whose hand the hand predicates read; ``params`` the Meldung's
    parameters.
    """

    party: frozenset[int]
    dealt: Sequence[Sequence[str]] = ()
    tricks: Sequence[tuple[Sequence[tuple[int, str]], int]] = ()
    player: int | None = None
    params: Mapping[str, Any] = field(default_factory=dict)

    def home_cards(self) -> set[str]:
        return {c for cards, w in self.tricks if w in self.party for _, c in cards}

    def owner(self, card: str) -> int | None:
        for s, h in enumerate(self.dealt):
            if card in h:
                return s
        return None


def _card(x: Any, path: str) -> None:
    if not isinstance(x, str) or x not in _PACK:
        raise ValueError(f"{path}: {x!r} is not a card of the Royal Tarock pack")


def validate(expr: Any, path: str = "condition") -> None:
    """Raise ``ValueError`` naming ``path`` if ``expr`` is not a well-formed expression."""
    if expr is None or isinstance(expr, (bool, int, str)):
        return
    if isinstance(expr, list):
        for i, e in enumerate(expr):
            validate(e, f"{path}[{i}]")
        return
    if not isinstance(expr, Mapping) or len(expr) != 1:
        raise ValueError(f"{path}: an expression is an object with exactly one operator key")
    ((op, arg),) = expr.items()
    where = f"{path}.{op}"
    if op not in OPERATORS:
        raise ValueError(f"{path}: unknown operator {op!r} (known: {', '.join(sorted(OPERATORS))})")
    kind = _TRICK_OPS.get(op) or _HAND_OPS.get(op) or _VALUE_OPS.get(op)
    if kind == "card":
        _card(arg, where)
    elif kind == "cards":
        if not isinstance(arg, list) or not arg:
            raise ValueError(f"{where}: expects a non-empty list of cards")
        for i, c in enumerate(arg):
            _card(c, f"{where}[{i}]")
    elif kind == "int":
        if not isinstance(arg, int) or isinstance(arg, bool) or not 1 <= arg <= 10:
            raise ValueError(f"{where}: expects a number of tricks 1..10")
    elif kind == "trick_card":
        if not isinstance(arg, Mapping) or set(arg) != {"trick", "card"}:
            raise ValueError(f'{where}: expects {{"trick": k, "card": c}}')
        if not isinstance(arg["trick"], int) or not 1 <= arg["trick"] <= 10:
            raise ValueError(f"{where}.trick: expects 1..10")
        _card(arg["card"], f"{where}.card")
    elif kind == "suit?":
        if arg is not None and arg not in ("H", "D", "S", "C"):
            raise ValueError(f"{where}: expects null or a suit letter H D S C")
    elif kind == "rank?":
        if arg is not None and arg not in RANKS:
            raise ValueError(f"{where}: expects null or a rank letter K Q N J")
    elif kind == "suit_or_param":
        if not (
            (isinstance(arg, str) and arg in SUIT_SIZE)
            or (isinstance(arg, Mapping) and set(arg) == {"param"})
        ):
            raise ValueError(f'{where}: expects a suit letter, T, or {{"param": name}}')
    elif kind == "name":
        if not isinstance(arg, str) or not arg:
            raise ValueError(f"{where}: expects a parameter name")
    elif op in _CMP:
        if not isinstance(arg, list) or len(arg) != 2:
            raise ValueError(f"{where}: expects a list of two values")
        validate(arg, where)
    elif op in ("and", "or"):
        if not isinstance(arg, list) or not arg:
            raise ValueError(f"{where}: expects a non-empty list of expressions")
        validate(arg, where)
    else:  # not
        validate(arg, where)


def cards_mentioned(expr: Any) -> set[str]:
    """Every card token an expression names (used by the Lauer rule of §8.1 item 13)."""
    out: set[str] = set()
    if isinstance(expr, str) and expr in _PACK:
        out.add(expr)
    elif isinstance(expr, list):
        for e in expr:
            out |= cards_mentioned(e)
    elif isinstance(expr, Mapping):
        for v in expr.values():
            out |= cards_mentioned(v)
    return out


def evaluate(expr: Any, ctx: Context) -> bool:
    """The truth of a (validated) condition in ``ctx``; ``None``/``true`` conditions are true.
    The expression is made into a function once (:func:`compiled`), which is where each
    operator's meaning lives."""
    return compiled(expr)(ctx)


def _trick_op(op: str, arg: Any, ctx: Context) -> bool:
    if op == "home":
        return arg in ctx.home_cards()
    if op == "all_home":
        home = ctx.home_cards()
        return all(c in home for c in arg)
    if op == "any_home":
        home = ctx.home_cards()
        return any(c in home for c in arg)
    if op == "home_from_opponents":
        owner = ctx.owner(arg)
        return owner is not None and owner not in ctx.party and arg in ctx.home_cards()
    winners = [w for _, w in ctx.tricks]
    if op == "tricks_at_least":
        return sum(1 for w in winners if w in ctx.party) >= int(arg)
    if op == "first_to_tricks":
        mine = theirs = 0
        for w in winners:
            if w in ctx.party:
                mine += 1
                if mine == arg:
                    return True
            else:
                theirs += 1
                if theirs == arg:
                    return False
        return False
    if op == "first_n_tricks":
        return len(winners) >= arg and all(w in ctx.party for w in winners[:arg])
    # trick_won_with
    k, card = arg["trick"], arg["card"]
    if len(ctx.tricks) < k:
        return False
    cards, w = ctx.tricks[k - 1]
    return w in ctx.party and any(c == card and s == w for s, c in cards)


# ------------------------------------------------------------------ compiled conditions

Condition = Callable[[Context], bool]
#: compiled conditions by the id of their expression (kept with it, so that the id stays its)
_COMPILED: dict[int, tuple[Any, Condition]] = {}
_COMPILED_LIMIT = 4096


def compiled(expr: Any) -> Condition:
    """``expr`` (a validated condition) as a function of a :class:`Context` (what
    :func:`evaluate` answers), made once per expression object: a Royal game's bidding asks
    the Meldungen's conditions of every seat (58 a seat with the parameters enumerated), and
    walking the expression's dicts at every question was most of that time. The one home of
    each operator's meaning (the module docstring lists them)."""
    hit = _COMPILED.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[1]
    fn = _compile(expr)
    if len(_COMPILED) >= _COMPILED_LIMIT:
        _COMPILED.clear()
    _COMPILED[id(expr)] = (expr, fn)
    return fn


def _always(value: bool) -> Condition:
    return lambda ctx: value


def _not_a_condition(op: str) -> Condition:
    """A value (or an unknown operator) where a condition belongs: an error when asked, as
    an ``and``/``or`` that settles before reaching it never asks."""

    def fail(ctx: Context) -> bool:
        raise ValueError(f"{op!r} is a value, not a condition")

    return fail


def _player_hand(ctx: Context) -> list[str]:
    return list(ctx.dealt[ctx.player]) if ctx.player is not None else []


def _compile(expr: Any) -> Condition:
    if expr is None or expr is True:
        return _always(True)
    if expr is False:
        return _always(False)
    ((op, arg),) = expr.items()  # (not one operator: raises, as validate would have said)
    if op in ("and", "or"):
        parts = tuple(_compile(e) for e in arg)
        if op == "and":

            def conj(ctx: Context) -> bool:
                for f in parts:
                    if not f(ctx):
                        return False
                return True

            return conj

        def disj(ctx: Context) -> bool:
            for f in parts:
                if f(ctx):
                    return True
            return False

        return disj
    if op == "not":
        inner = _compile(arg)
        return lambda ctx: not inner(ctx)
    if op in _CMP:
        fn = _CMP_FN[op]
        va, vb = _compile_value(arg[0]), _compile_value(arg[1])

        def cmp(ctx: Context) -> bool:
            a, b = va(ctx), vb(ctx)
            if a is None or b is None:
                return False
            try:
                return bool(fn(a, b))
            except TypeError:
                return False

        return cmp
    if op in _TRICK_OPS:
        return lambda ctx: _trick_op(op, arg, ctx)
    if op == "hand_has":
        return lambda ctx: arg in _player_hand(ctx)
    if op == "hand_has_any":
        cards = tuple(arg)

        def has_any(ctx: Context) -> bool:
            hand = _player_hand(ctx)
            return any(c in hand for c in cards)

        return has_any
    if op == "hand_has_all_of_suit":
        suits = tuple([arg] if arg else ["H", "D", "S", "C"])

        def all_of_suit(ctx: Context) -> bool:
            hand = _player_hand(ctx)
            return any(sum(1 for c in hand if c[0] == s) == SUIT_SIZE[s] for s in suits)

        return all_of_suit
    if op == "hand_has_four_of_rank":
        ranks = tuple([arg] if arg else RANKS)

        def four_of_rank(ctx: Context) -> bool:
            hand = _player_hand(ctx)
            return any(all(s + r in hand for s in "HDSC") for r in ranks)

        return four_of_rank
    return _not_a_condition(op)


def _compile_value(expr: Any) -> Callable[[Context], Any]:
    """A comparison's side: a literal, ``param``, ``hand_count``, ``suit_size``, or a
    condition (its truth)."""
    if not isinstance(expr, Mapping):
        return lambda ctx: expr
    ((op, arg),) = expr.items()
    if op == "param":
        return lambda ctx: ctx.params.get(arg)
    if op in ("hand_count", "suit_size"):
        suit_of = _compile_value(arg)
        if op == "suit_size":

            def suit_size(ctx: Context) -> Any:
                suit = suit_of(ctx)
                if not isinstance(suit, str) or suit not in SUIT_SIZE:
                    return None
                return SUIT_SIZE[suit]

            return suit_size

        def hand_count(ctx: Context) -> Any:
            suit = suit_of(ctx)
            if not isinstance(suit, str) or suit not in SUIT_SIZE:
                return None
            hand = ctx.dealt[ctx.player] if ctx.player is not None else ()
            return sum(1 for c in hand if c[0] == suit)

        return hand_count
    return _compile(expr)
