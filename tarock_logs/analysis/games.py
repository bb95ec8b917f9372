"""The games the card-play analysis covers, as plug-ins.

Each game brings two things (docs/analysis.md, "Games"):

* a :class:`GameAnalysis`: how to read a card-play position off its engine's hand state
  (:meth:`~GameAnalysis.read_position`), whose side a seat is on, how the engine's score of a
  finished hand becomes the solver's value, and which score items the play decides;
* for one hand's card play, a :class:`HandPlay` (carried by the
  :class:`~tarock_logs.analysis.position.Setting`): the legal cards and the trick winner,
  which are the game's **reference engine's** play rules (its ``rules/<game>/tricks.py``,
  called on card tokens: no copy of a rule here), and the objective: the facts a trick adds
  (:meth:`HandPlay.fold`) and the value of a finished play (:meth:`HandPlay.leaf`, scored by
  the engine's scoring module).

Slovenian tarok keeps its own objective (:mod:`~tarock_logs.analysis.objective`) and its
native solver; its :class:`GameAnalysis` wraps the functions of
:mod:`~tarock_logs.analysis.position` and :mod:`~tarock_logs.analysis.outcome`
(``Setting.play`` is None). The other games run on the pure-Python solver.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import import_module
from typing import Any, ClassVar

from tarock_logs.analysis.cardset import CARD, CardRules
from tarock_logs.analysis.outcome import LineResult, play_line, plays_alone, score_value
from tarock_logs.analysis.position import Position, Setting, Unsupported, read_position
from tarock_logs.cards import CARDS
from tarock_logs.rules.base import Action, HandScore, HandState
from tarock_logs.rules.sight import Sight
from tarock_logs.rules.slovenian.hand import SlovenianHand

__all__ = ["NO_RULES", "ContractLine", "DiscardClass", "GameAnalysis", "HandPlay", "Pack",
           "TalonGroup", "analysis_for", "analysis_for_state", "has_native_solver"]  # fmt: skip

#: the Slovenian card-rule switches of a :class:`Setting`, unused where a game plug-in's
#: :meth:`HandPlay.legal` decides
NO_RULES = CardRules(False, False, False, False, False, False)

#: the modules of the games' analysis plug-ins (the registry's games without one are not
#: analysed, and say so)
_PLUGINS = {
    "slovenian": "tarock_logs.analysis.games",
    "zwanzigerrufen": "tarock_logs.analysis.zwanzigerrufen",
    "royal": "tarock_logs.analysis.royal",
}


@dataclass(frozen=True, slots=True)
class Pack:
    """A game's card ids: ``cards[id]`` is the token; per id its suit letter, strength in the
    suit and card points (for move ordering only: the value comes from the engine)."""

    cards: tuple[str, ...]

    @property
    def cid(self) -> dict[str, int]:
        return _cid(self.cards)

    def tokens(self, mask: int) -> list[str]:
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cards[low.bit_length() - 1])
            mask ^= low
        return out

    def tokens_ids(self, mask: int) -> list[int]:
        """The ids in ``mask``, lowest first."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out

    def mask(self, cards: Sequence[str]) -> int:
        cid = _cid(self.cards)
        m = 0
        for c in cards:
            m |= 1 << cid[c]
        return m

    @property
    def strength(self) -> tuple[int, ...]:
        return tuple(CARDS[c].strength + (100 if c.startswith("T") else 0) for c in self.cards)

    @property
    def points(self) -> tuple[int, ...]:
        return tuple(CARDS[c].points for c in self.cards)


@cache
def _cid(cards: tuple[str, ...]) -> dict[str, int]:
    return {c: i for i, c in enumerate(cards)}


@dataclass(frozen=True, slots=True)
class TalonGroup:
    """One talon group the declarer could take (par, :mod:`~tarock_logs.analysis.par`): its
    number, its cards and the action that takes it."""

    index: int
    cards: tuple[str, ...]
    action: Action


@dataclass(frozen=True, slots=True)
class DiscardClass:
    """Discards the declarer could make after taking a group, valued once (par): the
    representative ``cards`` (laid away by ``actions``) and every discard of the class
    (``equivalent``, the representative first), which give the same value because their cards
    are interchangeable (the solver's card equivalence: same suit, same points, no card held
    by another player between them)."""

    cards: tuple[str, ...]
    equivalent: tuple[tuple[str, ...], ...]
    actions: tuple[Action, ...]


@dataclass(frozen=True, slots=True)
class ContractLine:
    """One way from the declarer's final declaration of ``contract`` to the first card (par):
    the declaration, the king call, group and discard (a class's representative) and the
    announcement passes, as actions."""

    contract: str
    actions: tuple[Action, ...]


class HandPlay(ABC):
    """The card play of one hand for the pure-Python solver (see the module docstring).
    Players are the seats ``0 … n-1`` in playing order; card sets are masks over
    :attr:`pack`; ``acc`` is the game's tuple of facts of the tricks searched so far (it keys
    the transposition table with the cards in play and the leader, so it holds exactly what
    the value of the rest depends on)."""

    pack: Pack
    #: per card id: the move-ordering strength (taroks above suit cards) and card points
    strength: tuple[int, ...]
    points: tuple[int, ...]
    #: masks inside which neighbouring cards of one player are interchangeable (same points,
    #: no role of their own in the score)
    equivalence: tuple[int, ...] = ()

    def __init__(self, pack: Pack) -> None:
        self.pack = pack
        self.strength = pack.strength
        self.points = pack.points

    @abstractmethod
    def legal(self, hand: int, trick: Sequence[int], done: int, player: int) -> int:
        """The mask of legal cards of ``player`` holding ``hand`` with ``trick`` (ids) on the
        table in trick ``done + 1``: the engine's rules."""

    @abstractmethod
    def winner(self, trick: Sequence[int], leader: int) -> int:
        """Index (in playing order) of the card that wins the full trick: the engine's."""

    @abstractmethod
    def fold(self, acc: tuple[int, ...], trick: Sequence[int], leader: int, wi: int,
             done: int) -> tuple[int, ...]:  # fmt: skip
        """The facts after the full trick ``trick`` (led by ``leader``, won by index ``wi``,
        the trick number ``done + 1``)."""

    @abstractmethod
    def leaf(self, acc: tuple[int, ...]) -> int:
        """The value of the finished play whose searched tricks left the facts ``acc``."""

    def bounds(self, acc: tuple[int, ...], remaining: int) -> tuple[int, int]:
        """A sound (low, high) bracket of the final value at a trick boundary (default: none)."""
        return -(1 << 30), 1 << 30


class GameAnalysis(ABC):
    """A game's analysis plug-in: positions read off its engine's hand state and the engine's
    score read as the solver's value (see the module docstring)."""

    game: ClassVar[str]
    #: the C solver of ``tarock_logs/_native`` plays this game
    native: ClassVar[bool] = False
    #: the score items the card play decides (an outcome names them when they change)
    bonus_items: ClassVar[tuple[str, ...]] = ()

    @abstractmethod
    def cards(self, h: HandState) -> tuple[str, ...]:
        """Card id → token for this hand's positions."""

    @abstractmethod
    def in_play(self, h: HandState) -> bool:
        """The hand is in its card play (a card can be analysed)."""

    @abstractmethod
    def tricks_total(self, h: HandState) -> int: ...

    @abstractmethod
    def tricks_done(self, h: HandState) -> int: ...

    @abstractmethod
    def holds(self, h: HandState, seat: int, card: str) -> bool: ...

    @abstractmethod
    def read_position(self, h: HandState, perspective: int | None = None
                      ) -> tuple[Position, Setting]:  # fmt: skip
        """The position of ``h`` and its setting, or :class:`Unsupported`."""

    @abstractmethod
    def maximiser(self, h: HandState, seat: int) -> bool:
        """``seat`` is on the maximising side (the declarer side's; klop: the perspective)."""

    @abstractmethod
    def score_value(self, h: HandState, score: HandScore, perspective_seat: int | None) -> int:
        """The solver's objective read off the engine's score of a finished hand."""

    def alone(self, h: HandState) -> bool:
        """Everybody plays for himself (the klop of Slovenian tarok)."""
        return False

    @abstractmethod
    def owns(self, h: HandState) -> bool:
        """``h`` is a hand of this game (its engine's state)."""

    def sight(self, h: HandState, seat: int, illegal: Sequence[str] = ()) -> Sight:
        """What ``seat`` sees in the card play of ``h`` (the game's engine ``view`` module;
        what the player knew, :mod:`~tarock_logs.analysis.knowledge`). ``illegal``: the cards
        played so far that the engine judged illegal. Default: the game has no view."""
        raise Unsupported(f"the game of {type(h).__name__} has no player view")

    def role(self, h: HandState, seat: int) -> str:
        return "declarer side" if self.maximiser(h, seat) else "defender"

    def contract(self, h: HandState) -> str | None:
        return None

    def declarer(self, h: HandState) -> int | None:
        return None

    def play_item(self, item: str) -> bool:
        """The score item ``item`` is decided by the card play (named when it changes)."""
        return item in self.bonus_items

    def unknown(self, h: HandState) -> tuple[str, ...]:
        """Score items the engine could not value in this hand (left out of every value)."""
        return ()

    # ---- before the first trick (par, :mod:`~tarock_logs.analysis.par`); default: the game
    # has no talon exchange, so no par (Royal Tarock, Zwanzigerrufen)

    #: the game's declarer may exchange cards with a talon before the card play
    has_exchange: ClassVar[bool] = False

    def at_exchange(self, h: HandState) -> bool:
        """``h`` waits for the declarer's choice of a talon group."""
        return False

    def discarding(self, h: HandState) -> bool:
        """``h`` waits for (more of) the declarer's discards."""
        return False

    def talon_groups(self, h: HandState) -> list[TalonGroup]:
        """The talon groups the declarer could take at ``h`` (:meth:`at_exchange`)."""
        return []

    def discard_classes(self, h: HandState) -> list[DiscardClass]:
        """The legal discards after a group was taken (``h`` :meth:`discarding`), equivalent
        discards together, one class each."""
        return []

    def at_final_declaration(self, h: HandState) -> bool:
        """``h`` waits for the declarer's final choice of his contract."""
        return False

    def contract_lines(self, h: HandState) -> list[list[ContractLine]]:
        """Per contract the declarer could choose at ``h`` (:meth:`at_final_declaration`),
        every way from that choice to the first card."""
        return []

    def play_line(self, h: HandState, cards: Sequence[int],
                  perspective_seat: int | None) -> LineResult:  # fmt: skip
        """Play ``cards`` (ids) from ``h`` to the end, score the hand with the engine, undo."""
        ids = self.cards(h)
        pushed = 0
        tokens = []
        try:
            for c in cards:
                seat = h.to_move()
                if seat is None or h.is_over():
                    break
                h.push(Action("play", seat, card=ids[c]))
                tokens.append(ids[c])
                pushed += 1
            score = h.score()
        finally:
            for _ in range(pushed):
                h.pop()
        items: dict[str, int] = {}
        for it in score.items:
            if self.play_item(it.item) and it.seat is not None:
                sign = 1 if self.maximiser(h, it.seat) else -1
                items[it.item] = items.get(it.item, 0) + sign * it.value
        return LineResult(tuple(tokens), self.score_value(h, score, perspective_seat), score.won,
                          tuple(sorted(items.items())))  # fmt: skip


class SlovenianAnalysis(GameAnalysis):
    """Slovenian tarok: :mod:`~tarock_logs.analysis.position` and
    :mod:`~tarock_logs.analysis.outcome` (its own objective and the native solver)."""

    game = "slovenian"
    native = True

    def cards(self, h: HandState) -> tuple[str, ...]:
        return CARD

    def owns(self, h: HandState) -> bool:
        return isinstance(h, SlovenianHand)

    def sight(self, h: HandState, seat: int, illegal: Sequence[str] = ()) -> Sight:
        from tarock_logs.rules.slovenian.view import sight

        assert isinstance(h, SlovenianHand)
        return sight(h, seat, illegal)

    def in_play(self, h: HandState) -> bool:
        return h.phase == "play"

    def tricks_total(self, h: HandState) -> int:
        return int(_attr(h, "tricks_total"))

    def tricks_done(self, h: HandState) -> int:
        return len(_attr(h, "tricks"))

    def holds(self, h: HandState, seat: int, card: str) -> bool:
        return card in _attr(h, "hands")[seat]

    def read_position(self, h: HandState, perspective: int | None = None
                      ) -> tuple[Position, Setting]:  # fmt: skip
        return read_position(h, perspective)  # type: ignore[arg-type]

    def maximiser(self, h: HandState, seat: int) -> bool:
        return bool(_attr(h, "side")(seat) == "M")

    def alone(self, h: HandState) -> bool:
        return plays_alone(h)  # type: ignore[arg-type]

    def role(self, h: HandState, seat: int) -> str:
        if self.alone(h):
            return "klop"
        return super().role(h, seat)

    def contract(self, h: HandState) -> str | None:
        return _attr(h, "contract")  # type: ignore[no-any-return]

    def declarer(self, h: HandState) -> int | None:
        return _attr(h, "declarer")  # type: ignore[no-any-return]

    def score_value(self, h: HandState, score: HandScore, perspective_seat: int | None) -> int:
        return score_value(h, score, perspective_seat)  # type: ignore[arg-type]

    def play_line(self, h: HandState, cards: Sequence[int],
                  perspective_seat: int | None) -> LineResult:  # fmt: skip
        return play_line(h, cards, perspective_seat)  # type: ignore[arg-type]

    has_exchange = True

    def at_exchange(self, h: HandState) -> bool:
        return h.phase == "talon"

    def discarding(self, h: HandState) -> bool:
        return h.phase == "discard"

    def talon_groups(self, h: HandState) -> list[TalonGroup]:
        from tarock_logs.analysis.slovenian_par import talon_groups

        assert isinstance(h, SlovenianHand)
        return talon_groups(h)

    def discard_classes(self, h: HandState) -> list[DiscardClass]:
        from tarock_logs.analysis.slovenian_par import discard_classes

        assert isinstance(h, SlovenianHand)
        return discard_classes(h)

    def at_final_declaration(self, h: HandState) -> bool:
        from tarock_logs.analysis.slovenian_par import at_final_declaration

        return isinstance(h, SlovenianHand) and at_final_declaration(h)

    def contract_lines(self, h: HandState) -> list[list[ContractLine]]:
        from tarock_logs.analysis.slovenian_par import contract_lines

        assert isinstance(h, SlovenianHand)
        return contract_lines(h)


def _attr(h: HandState, name: str) -> Any:
    return getattr(h, name)


#: this module's plug-in (the registry imports each game's module and takes its ``ANALYSIS``)
ANALYSIS = SlovenianAnalysis()


@cache
def analysis_for(game: str) -> GameAnalysis | None:
    """The analysis plug-in of ``game``, or None when its card play is not analysed."""
    mod = _PLUGINS.get(game)
    if mod is None:
        return None
    plugin: GameAnalysis = import_module(mod).ANALYSIS
    return plugin


def analysis_for_state(h: HandState) -> GameAnalysis:
    """The analysis plug-in of the game ``h`` is a hand of (:class:`Unsupported` if none)."""
    for game in _PLUGINS:
        g = analysis_for(game)
        if g is not None and g.owns(h):
            return g
    raise Unsupported(f"no analysis plug-in plays {type(h).__name__}")


def has_native_solver(game: str) -> bool:
    """The C solver plays ``game``'s card play (the others run on the pure-Python solver)."""
    g = analysis_for(game)
    return g is not None and g.native
