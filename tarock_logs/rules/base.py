"""The contract every rules engine implements (pure: standard library only).

Everything outside ``tarock_logs/rules/<game>/`` (replay, audit, store, statistics, dashboard)
talks to an engine only through these types, so a new game plugs in without changes there.

Shape (after python-chess's board): a :class:`HandState` is a state machine for one hand.
``legal_actions()`` lists what may be done now, ``check(action)`` says why an action would be
illegal, ``push(action)`` applies it (leniently: an illegal but physically possible action is
applied and reported, because an audit must go on to the end of the hand), ``pop()`` undoes the
last action, ``is_over()`` and ``score()`` finish the hand. A :class:`SessionState` carries what
passes from hand to hand (Slovenian radelci, Austrian double rounds) and a :class:`GameEngine`
names the game, its rulesets and the tournament arithmetic.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple, Protocol, runtime_checkable

Severity = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Action:
    """One action in the game-agnostic vocabulary of the log format.

    ``type`` is one of ``bid pass call talon discard announce kontra lezim play throw_in claim
    meld``; the other fields are used by the types that need them (see ``docs/log-format.md``).
    """

    type: str
    seat: int
    card: str | None = None  # play, call
    cards: tuple[str, ...] = ()  # discard, claim
    shown: tuple[str, ...] = ()  # discard: taroks shown to the table
    contract: str | None = None  # bid
    group: int | None = None  # talon
    bonus: str | None = None  # announce
    side: str | None = None  # announce (Zwanzigerrufen dazu/dagegen)
    target: str | None = None  # kontra: "game" or an announced bonus
    level: int | None = None  # kontra level 1..4
    claim: str | None = None  # claim
    meld: str | None = None  # meld
    raises: str | None = None  # announce (Royal raising)
    params: tuple[tuple[str, Any], ...] = ()  # announce/meld parameters, sorted by key

    def __str__(self) -> str:
        arg = self.card or self.contract or self.bonus or self.target or self.claim or self.meld
        if self.type == "discard":
            arg = " ".join(self.cards)
        if self.type == "talon":
            arg = str(self.group)
        return f"seat {self.seat} {self.type}" + (f" {arg}" if arg else "")


@dataclass(frozen=True, slots=True)
class Irregularity:
    """A recorded irregularity handed to the engine (renons, misdeal, arbiter, penalty)."""

    type: str  # renons | misdeal | arbiter | penalty
    seat: int | None = None  # offender (renons), misdealer, penalised seat
    called_by: int | None = None
    kind: str | None = None  # renons kind
    action_index: int | None = None
    trick: int | None = None
    upheld: bool = True
    points: int | None = None  # penalty / misdeal points as recorded
    unit: str = "game"
    adjustments: tuple[tuple[int, int, str], ...] = ()  # arbiter: (seat, points, unit)


@dataclass(frozen=True, slots=True)
class Violation:
    """An illegal (or questionable) action, with the rule it breaks.

    ``code`` is stable (e.g. ``play.illegal_card``); ``message`` is a sentence a referee
    understands ("seat 3 played HK while holding H2: hearts must be followed"); ``rule`` cites
    the ruleset section (``"si-tournament-2021 §8.3"``). ``action_index`` is filled in by the
    replay layer (0-based into the hand's actions); ``None`` for hand-level findings.
    """

    code: str
    message: str
    rule: str
    seat: int | None = None
    card: str | None = None
    action_index: int | None = None
    severity: Severity = "error"
    params: Mapping[str, Any] = field(default_factory=dict)

    def at(self, action_index: int) -> Violation:
        return replace(self, action_index=action_index)


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One line of an itemised score, with its reason.

    ``seat`` None means the line is written by every member of the declarer's side (declarer
    and partner); otherwise by that seat alone. A seat's total is the sum of its lines.
    """

    item: str  # e.g. game, difference, trula, kralji, pagat_ultimo, valat, radelc, mondfang, klop
    value: int
    seat: int | None = None
    reason: str = ""


@dataclass(frozen=True, slots=True)
class HandScore:
    """The recomputed score of one hand."""

    totals: tuple[int, ...]  # what each seat writes (len = table size)
    items: tuple[ScoreItem, ...]
    contract: str | None = None
    declarer: int | None = None
    partner: int | None = None
    won: bool | None = None  # None for klop and hands without a declarer
    card_points: Mapping[str, Any] = field(
        default_factory=dict
    )  # e.g. {"declarer_side_thirds": 149}
    unverified: tuple[str, ...] = ()  # items the engine could not check, with why
    #: seats whose total counts only the items the engine could value (e.g. a Royal Tarock
    #: premium of unknown value): the audit does not compare these seats' totals
    incomplete_seats: tuple[int, ...] = ()
    carry_after: Mapping[str, Any] = field(default_factory=dict)  # e.g. {"radelci": [0, 1, 0, 0]}


@dataclass(frozen=True, slots=True)
class Ruleset:
    """A ruleset: data with a dated id (``si-tournament-2021``) and named options."""

    id: str
    game: str
    title: str
    options: Mapping[str, Any]
    description: str = ""
    aliases: tuple[str, ...] = ()

    def cite(self, section: str) -> str:
        """``"si-tournament-2021 §8.3"``: how a violation names the rule it enforces."""
        return f"{self.id} §{section}"

    def violation(
        self,
        code: str,
        section: str,
        message: str,
        *,
        seat: int | None = None,
        card: str | None = None,
        severity: Severity = "error",
        **params: Any,
    ) -> Violation:
        """A :class:`Violation` citing ``"<ruleset id> §<section>"`` (the one way engines cite)."""
        return Violation(
            code=code,
            message=message,
            rule=self.cite(section),
            seat=seat,
            card=card,
            severity=severity,
            params=params,
        )

    def with_options(self, overrides: Mapping[str, Any]) -> Ruleset:
        """A copy with some options changed (unknown option names raise ``KeyError``)."""
        unknown = set(overrides) - set(self.options)
        if unknown:
            raise KeyError(f"unknown option(s) for {self.id}: {', '.join(sorted(unknown))}")
        return replace(self, options={**self.options, **overrides})


class TrickRows(NamedTuple):
    """The completed tricks of a hand as columns, one entry per trick (what the store keeps):
    the leader's seat, the winner's seat, the seats in playing order, the cards they played
    and the trick's card points (in the engine's unit, e.g. thirds; None when unknown).

    An engine's optional bulk path may give these instead of building ``view()["tricks"]``
    dicts (docs/architecture.md, "Optional engine hooks")."""

    leaders: list[int]
    winners: list[int]
    seats: list[tuple[int, ...]]
    cards: list[tuple[str, ...]]
    points: list[int | None]


@runtime_checkable
class HandState(Protocol):
    """One hand as a state machine."""

    phase: str  # e.g. deal, bidding, king_call, talon, discard, announcements, play, done
    table_size: int

    def to_move(self) -> int | None: ...
    def legal_actions(self) -> list[Action]: ...
    def check(self, action: Action) -> list[Violation]: ...
    def push(self, action: Action) -> list[Violation]: ...
    def pop(self) -> Action: ...
    def is_over(self) -> bool: ...
    def score(self) -> HandScore: ...
    def view(self) -> dict[str, Any]:
        """A JSON-able snapshot for the replay viewer.

        Keys every engine provides: ``phase``, ``to_move``, ``hands`` (per seat, cards still
        held), ``trick`` (list of ``[seat, card]`` on the table), ``tricks`` (completed:
        ``{"leader", "cards": [[seat, card]...], "winner", "points"}``), ``talon``,
        ``discards``, ``contract``, ``declarer``, ``partner`` (None until known to the
        engine), ``bids``, ``announcements``, ``kontras``.
        """
        ...


@runtime_checkable
class SessionState(Protocol):
    """What carries from hand to hand within one session (radelci, double rounds)."""

    def new_hand(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
    ) -> HandState: ...

    def end_hand(self, hand: HandState, score: HandScore) -> None: ...

    def carry(self) -> dict[str, Any]: ...


@runtime_checkable
class GameEngine(Protocol):
    """A game: its rulesets, sessions and tournament arithmetic."""

    game: str
    rulesets: Mapping[str, Ruleset]

    def ruleset(self, ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset: ...

    def new_session(self, ruleset: Ruleset, table_size: int) -> SessionState: ...

    def placement_points(
        self, ruleset: Ruleset, round_scores: Sequence[int], all_tables_of_five: bool = False
    ) -> list[float]: ...
