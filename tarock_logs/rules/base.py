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

import copy
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import Any, Literal, NamedTuple, Self

#: ``error`` makes a hand illegal; ``warning`` is a questionable but tolerated record;
#: ``info`` a remark for the referee (an implied kontra, a voided announcement)
Severity = Literal["error", "warning", "info"]


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
        """The compact machine form, every field that is set as ``name=value``
        (``play seat=3 card=HK``, ``kontra seat=2 target=game level=2``): for logs and
        messages of the engines, not a wording for people (``report/text.py`` words actions)."""
        parts = [self.type, f"seat={self.seat}"]
        for name in _ACTION_FIELDS:
            value = getattr(self, name)
            if value is None or value == ():
                continue
            if name in ("cards", "shown"):
                value = ",".join(value)
            elif name == "params":
                value = ",".join(f"{k}:{v}" for k, v in value)
            parts.append(f"{name}={value}")
        return " ".join(parts)


#: the optional fields of an :class:`Action`, in the order ``str()`` writes them
_ACTION_FIELDS: tuple[str, ...] = (
    "card",
    "cards",
    "shown",
    "contract",
    "group",
    "bonus",
    "side",
    "target",
    "level",
    "claim",
    "meld",
    "raises",
    "params",
)


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


@lru_cache(maxsize=8192)
def score_item(item: str, value: int, seat: int | None = None, reason: str = "") -> ScoreItem:
    """``ScoreItem(item, value, seat, reason)``, shared: items are frozen values, and a bulk
    audit makes the same few thousand of them again and again (one look-up instead of a new
    object per line)."""
    return ScoreItem(item, value, seat, reason)


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
    #: items the engine cannot value and takes from the record as a claimed value (Royal
    #: Tarock's consolation of unknown formula): a recorded line of one is checked against
    #: nothing (partial, never wrong); :meth:`GameEngine.implied_claims` says what the
    #: recorded totals imply for them
    claimed: tuple[str, ...] = ()


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


@dataclass(frozen=True, slots=True)
class Code:
    """A finding code with everything a finding of it cites: the section of the game's spec it
    enforces, its severity and what it means (the engine's ``codes.py`` declares them all, so
    a call site passes only the code, a message and the machine facts)."""

    code: str  # ``area.snake_name``, e.g. ``play.illegal_card``
    section: str  # e.g. ``8.3``
    severity: Severity
    meaning: str
    #: retired codes this one replaces (still accepted where users filter by code)
    old: tuple[str, ...] = ()

    def violation(
        self,
        ruleset: Ruleset,
        message: str,
        *,
        seat: int | None = None,
        card: str | None = None,
        **params: Any,
    ) -> Violation:
        """A :class:`Violation` of this code citing ``"<ruleset id> §<section>"``."""
        return Violation(
            self.code,
            message,
            f"{ruleset.id} §{self.section}",
            seat=seat,
            card=card,
            severity=self.severity,
            params=params,
        )


def code_table(*codes: Code) -> Mapping[str, Code]:
    """An engine's codes by name (a code declared twice is a mistake: ``ValueError``)."""
    out: dict[str, Code] = {}
    for c in codes:
        if c.code in out:
            raise ValueError(f"finding code {c.code} declared twice")
        out[c.code] = c
    return MappingProxyType(out)


def retired_codes(codes: Mapping[str, Code]) -> Mapping[str, str]:
    """Retired code -> its replacement, from the ``old`` names of ``codes``."""
    return MappingProxyType({old: c.code for c in codes.values() for old in c.old})


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


def rank_by_total_and_deviation(
    rows: Sequence[tuple[str, float, float]],
) -> list[tuple[str, int]]:
    """The generic final ranking of ``(player, total, deviation)`` rows: total, then deviation
    sum, both descending; players equal on both share the rank (the next rank skips: 1, 2, 2,
    4); names order the ties. ``(player, rank)`` best first."""
    order = sorted(rows, key=lambda r: (-r[1], -r[2], r[0]))
    out: list[tuple[str, int]] = []
    prev: tuple[float, float] | None = None
    rank = 0
    for i, (player, total, dev) in enumerate(order, start=1):
        if (total, dev) != prev:
            rank, prev = i, (total, dev)
        out.append((player, rank))
    return out


@dataclass(frozen=True, slots=True)
class SeatRole:
    """What a log records about a seated player beyond the seat: Royal Tarock's fixed pair
    (``A`` / ``B``) and role in it (``abfaenger`` / ``eintreiber``); None when not recorded."""

    pair: str | None = None
    role: str | None = None


@dataclass(frozen=True, slots=True)
class DealInfo:
    """How a hand was dealt, as recorded: ``method`` (``normal``, or ``knocked``: the cutter
    knocked and the pack was laid out in stacks, Zwanzigerrufen §3.3), ``cut_by`` (the seat that
    cut; None when not recorded) and, after a knock, ``stacks`` (per seat, the stack taken)."""

    method: str = "normal"
    cut_by: int | None = None
    stacks: tuple[int, ...] | None = None


class DealShape(NamedTuple):
    """How a hand is dealt: the cards each seat receives (0 for a seat that sits out) and the
    size of the talon (0 in games without one)."""

    hands: tuple[int, ...]
    talon: int


@dataclass(frozen=True, slots=True)
class FastReplay:
    """What an engine's bulk path (:meth:`SessionState.fast_replay`) gives for a hand it proved
    legal and finished: the result the reference replay would give, without its views.

    ``state`` is the finished hand as the engine's session takes it back (``end_hand``; it may
    be a light stand-in), ``rebuild()`` replays the hand through the reference engine (for the
    viewer, on first use), ``tricks`` are the completed tricks in the format of
    ``view()["tricks"]`` (a list, or a callable building it on first use), ``findings`` the
    hand-level findings the reference would report too (warnings only) and ``trick_rows``, when
    the engine has it, a callable giving the same tricks as :class:`TrickRows` columns.
    """

    score: HandScore
    state: HandState
    rebuild: Callable[[], HandState]
    tricks: Sequence[Mapping[str, Any]] | Callable[[], Sequence[Mapping[str, Any]]]
    findings: tuple[Violation, ...] = ()
    trick_rows: Callable[[], TrickRows] | None = None
    #: set when ``score`` is the native engine's (:meth:`SessionState.native_replay`): its
    #: lines carry no reason and its card points are counted on request; this gives the
    #: reference's score of the hand (the same lines, with the reasons a finding quotes)
    reference_score: Callable[[], HandScore] | None = None


class OnRequest(Mapping[str, Any]):
    """A mapping computed on first use (a native engine's score gives the reference's card
    points only when someone reads them: :meth:`SessionState.native_replay`). Equal to the
    plain mapping it computes."""

    __slots__ = ("_got", "_make")

    def __init__(self, make: Callable[[], Mapping[str, Any]]) -> None:
        self._make: Callable[[], Mapping[str, Any]] | None = make
        self._got: Mapping[str, Any] = {}

    def _data(self) -> Mapping[str, Any]:
        make = self._make
        if make is not None:
            self._make = None
            self._got = dict(make())
        return self._got

    def __getitem__(self, key: str) -> Any:
        return self._data()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data())

    def __len__(self) -> int:
        return len(self._data())

    def __repr__(self) -> str:
        return repr(dict(self._data()))


@dataclass(frozen=True, slots=True)
class BonusOutcome:
    """One bonus of a hand recorded as facts: the side it belongs to (``declarer``: the
    declarer and his partner, or ``defenders``), whether that side announced it, and whether
    that side made it (for a silent bonus: achieved it, or failed it, like a silent ultimo
    lost in the last trick)."""

    bonus: str
    side: str  # "declarer" | "defenders"
    announced: bool = False
    made: bool = True


@dataclass(frozen=True, slots=True)
class RecordedFacts:
    """A hand recorded as facts without cards (a score-sheet line; log format 1.1, ``facts``)
    in the engines' vocabulary: what :meth:`SessionState.score_facts` scores.

    ``won`` is whether the declarer's side won, ``card_points`` that side's card points as
    counted (rounded), ``difference`` the recorded difference; any of them may be missing.
    ``points_by_seat`` is a klop record (each seat's card points; ``full``: the seats with 35
    and a card, which rounding hides). ``kontras`` are
    ``(target, level, seat or None)``, ``mondfang`` ``(seat that lost the mond, capturer or
    None)``.
    """

    contract: str
    declarer: int | None = None
    partner: int | None = None
    called: str | None = None
    won: bool | None = None
    card_points: int | None = None
    difference: int | None = None
    points_by_seat: tuple[int, ...] | None = None
    full: tuple[int, ...] = ()
    bonuses: tuple[BonusOutcome, ...] = ()
    kontras: tuple[tuple[str, int, int | None], ...] = ()
    mondfang: tuple[tuple[int, int | None], ...] = ()
    #: per seat, the consolation (starting score) written on the sheet, where the engine
    #: cannot know it (Royal Tarock): a claimed value the score is built on
    consolation: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class CountedCards:
    """The cards of a counted hand (log format 1.2, ``extent: counted``): what the table
    took, without the order of the tricks. Either ``declarer`` and ``defenders`` (the cards
    each side won in tricks) or ``by_seat`` (klop: each seat's cards, the talon cards given
    with the tricks included); ``talon`` as dealt, ``talon_taken`` the talon cards the
    declarer took, ``discards`` the cards he laid away. :meth:`SessionState.score_counted`
    counts them."""

    talon: tuple[str, ...] = ()
    talon_taken: tuple[str, ...] = ()
    discards: tuple[str, ...] = ()
    declarer: tuple[str, ...] | None = None
    defenders: tuple[str, ...] | None = None
    by_seat: tuple[tuple[str, ...], ...] | None = None


@dataclass(frozen=True, slots=True)
class CountedScore:
    """A counted hand scored from its piles (:meth:`SessionState.score_counted`): the
    ``score`` (its ``unverified`` says what the piles could not decide, e.g. the order of the
    tricks, an ultimo taken as recorded), and ``findings``: what the piles show against the
    hand's own record (a card-point count that differs, in thirds, with the items it
    changes), as hand-level violations."""

    score: HandScore
    findings: tuple[Violation, ...] = ()


class FactsNotScored(Exception):
    """The engine cannot score this hand from its facts; the message says why (the game has
    no facts scorer, or the facts are incomplete or contradict each other)."""


class CountNotSupported(FactsNotScored):
    """The game's engine cannot score a counted hand from its piles (log format 1.2): the
    audit says so, and scores the hand's facts as recorded where it can."""


class FactTerms(NamedTuple):
    """The words a hand recorded as facts may use in a game (what an importer checks a score
    sheet against): contract codes, bonus codes and kontra targets (``game`` and bonuses)."""

    contracts: tuple[str, ...]
    bonuses: tuple[str, ...]
    kontra_targets: tuple[str, ...]


class HandState(ABC):
    """One hand as a state machine (subclass it; the hooks with a body have defaults).

    ``phase`` is a member of the engine's ``Phase`` enum (a ``StrEnum``, so it compares equal
    to its name: ``"bidding"``, ``"play"``, ``"done"``...).
    """

    phase: str  # e.g. bidding, king_call, talon, discard, announcements, play, done
    table_size: int

    @abstractmethod
    def to_move(self) -> int | None:
        """The seat whose turn it is (None when the hand is over)."""

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Everything that may be done now without an error-severity violation: each action
        passes :meth:`check` without an error, and every action :meth:`check` takes without
        any finding is offered (except forms of record that only write down what the rules
        imply, e.g. a first card closing the announcements; docs/rulesets.md)."""

    @abstractmethod
    def check(self, action: Action) -> list[Violation]:
        """Why ``action`` would be illegal now (empty: legal); the state is unchanged."""

    @abstractmethod
    def push(self, action: Action) -> list[Violation]:
        """Apply ``action`` (leniently: an illegal but physically possible action is applied
        and reported) and return its violations."""

    @abstractmethod
    def pop(self) -> Action:
        """Undo the last pushed action exactly and return it."""

    @abstractmethod
    def is_over(self) -> bool:
        """The hand has ended (``phase == "done"``)."""

    @abstractmethod
    def score(self) -> HandScore:
        """The recomputed, itemised score of the finished hand."""

    @abstractmethod
    def view(self) -> dict[str, Any]:
        """A JSON-able snapshot for the replay viewer.

        Keys every engine provides: ``phase``, ``to_move``, ``hands`` (per seat, cards still
        held), ``trick`` (list of ``[seat, card]`` on the table), ``tricks`` (completed:
        ``{"leader", "cards": [[seat, card]...], "winner", "points"}``), ``talon``,
        ``discards``, ``contract``, ``declarer``, ``partner`` (None until known to the
        engine), ``bids``, ``announcements``, ``kontras``.
        """

    def timeline_state(self, keys: Sequence[str]) -> dict[str, Any]:
        """The values of :meth:`view` under ``keys`` (None for a key it lacks): what the
        store's step timeline keeps after an action (the engine's
        :attr:`GameEngine.timeline_keys`). Raises what :meth:`view` raises. Default: read
        from a whole :meth:`view`; an engine may answer without building one."""
        view = self.view()
        return {k: view.get(k) for k in keys}

    def hand_findings(self) -> list[Violation]:
        """Hand-level findings (no action index), asked for after the last action: the deal
        check, a log that stops before the end, unclaimed renons. Default: none."""
        return []

    def copy(self) -> Self:
        """An independent copy (push and pop on it leave this state alone), like OpenSpiel's
        ``Clone()``. Default: a deep copy; engines may share what never changes."""
        return copy.deepcopy(self)

    def recorded_facts(self) -> RecordedFacts | None:
        """What a score sheet keeps of this finished hand: the facts that
        :meth:`SessionState.score_facts` scores exactly as this hand is scored (None when the
        hand has no such record, e.g. no contract). Default: None."""
        return None


class SessionState(ABC):
    """What carries from hand to hand within one session (radelci, double rounds)."""

    @abstractmethod
    def new_hand(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str] = (),
        irregularities: Sequence[Irregularity] = (),
        deal: DealInfo | None = None,
    ) -> HandState:
        """A new hand dealt by ``dealer`` with the session's carried state (``deal``: how it
        was dealt, as recorded; None: normally, nothing more recorded)."""

    @abstractmethod
    def end_hand(self, hand: HandState, score: HandScore) -> None:
        """Take the finished, scored ``hand`` into the session (the carried state moves on)."""

    @abstractmethod
    def carry(self) -> dict[str, Any]:
        """The carried state as plain data (e.g. ``{"radelci": [0, 1, 0, 0]}``)."""

    def set_seats(self, seats: Sequence[SeatRole]) -> None:
        """Take what the log records about the seated players (Royal Tarock's pairs and
        roles), once, before the first hand. Default: nothing to take."""
        return None

    def restore(self, carry: Mapping[str, Any]) -> bool:
        """Set the carried state from ``carry`` (keys of :meth:`carry`, e.g. the radelci a log
        records before a hand); returns whether anything was applied. Default: nothing."""
        return False

    def fast_replay(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str],
        actions: Sequence[Any],
        to_action: Callable[[Any], Action],
        deal: DealInfo | None = None,
    ) -> FastReplay | None:
        """The optional bulk path: replay a hand whose every action is legal much faster than
        the reference, or decline with None (then the session is untouched and the caller
        uses :meth:`new_hand` and ``push``). ``actions`` are the log's actions, ``to_action``
        converts one into an :class:`Action`, ``deal`` is how the hand was dealt (what
        :meth:`new_hand` gets). On success the session has recorded the deal; the caller ends
        the hand with :meth:`end_hand`. Default: always declines."""
        return None

    def native_replay(
        self,
        dealer: int,
        hands: Sequence[Sequence[str]],
        talon: Sequence[str],
        actions: Sequence[Any],
        to_action: Callable[[Any], Action],
        deal: DealInfo | None = None,
    ) -> FastReplay | None:
        """The machine's bulk path: the game's native engine plays and scores a whole hand the
        reference would find clean, or declines with None (then the caller tries
        :meth:`fast_replay`, then the reference; the session is untouched). Called as
        :meth:`fast_replay` is, by replays that read no reasons (bulk audits, the bench). Its
        ``score`` holds the reference's lines (item, seat, value, in order), totals, verdict
        and carry, but the lines carry no reason and the card points are counted on request
        (:class:`OnRequest`); ``reference_score`` gives the reference's score with its
        reasons. A game plugs its native whole hand in here. Default: always declines."""
        return None

    def score_facts(
        self,
        dealer: int,
        facts: RecordedFacts,
        irregularities: Sequence[Irregularity] = (),
    ) -> HandScore:
        """Score a hand dealt by ``dealer`` and recorded as ``facts`` without cards, and take
        it into the session as :meth:`end_hand` does (the carried state moves on). Nothing
        about the legality of the play can be known from facts. Raises
        :class:`FactsNotScored` when the game cannot score from facts or the facts do not
        settle the score. Default: the game cannot."""
        raise FactsNotScored("this game's engine cannot score a hand from facts")

    def score_counted(
        self,
        dealer: int,
        facts: RecordedFacts,
        cards: CountedCards,
        irregularities: Sequence[Irregularity] = (),
    ) -> CountedScore:
        """Score a counted hand (log format 1.2) dealt by ``dealer``: the contract,
        announcements and kontras of ``facts`` with the card points and every item the piles
        ``cards`` decide counted from them (the recorded count, card points or difference or
        klop points, is compared with the piles' count, not trusted), and take it into the
        session as :meth:`score_facts` does. Raises :class:`CountNotSupported` when the game
        cannot count a hand from its piles, :class:`FactsNotScored` when these facts and
        piles do not settle the score. Default: the game cannot."""
        raise CountNotSupported("this game's engine cannot count a hand from its piles")


class RulesetRegistry(Mapping[str, Ruleset]):
    """The rulesets of one game by id, looked up by id or alias (case-insensitive): the one
    ruleset lookup of every engine (:meth:`GameEngine.ruleset`)."""

    def __init__(
        self, game: str, rulesets: Sequence[Ruleset], extra_aliases: Mapping[str, str] | None = None
    ) -> None:
        self.game = game
        self._by_id: dict[str, Ruleset] = {r.id: r for r in rulesets}
        names: dict[str, str] = {}
        for r in rulesets:
            for name in (r.id, *r.aliases):
                names[name.lower()] = r.id
        for name, rid in (extra_aliases or {}).items():
            names[name.lower()] = rid
        self._names = names

    def __getitem__(self, key: str) -> Ruleset:
        return self._by_id[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_id)

    def __len__(self) -> int:
        return len(self._by_id)

    @property
    def aliases(self) -> Mapping[str, str]:
        """Every accepted name (lower case) -> ruleset id."""
        return MappingProxyType(self._names)

    def find(self, name: str) -> Ruleset:
        """The ruleset named ``name`` (id or alias, any case); ``KeyError`` says which exist."""
        rid = self._names.get(name.strip().lower())
        if rid is None:
            known = sorted({n for r in self._by_id.values() for n in (r.id, *r.aliases)})
            raise KeyError(f"unknown {self.game} ruleset {name!r} (known: {', '.join(known)})")
        return self._by_id[rid]


class NativeLane(NamedTuple):
    """What the store's ingest lane needs to read a game's ordinary records in C
    (:meth:`GameEngine.native_lane`): the native engine's configuration of the ruleset at one
    table (its whole hand and its score, built from the game's rule tables), the contract ids
    by the native engine's codes, the card tokens by its card ids, the name of the core's
    function that reads a record's hands (``lane_hands``: lane.h with the Slovenian whole
    hand), and the score items by the codes its columns write."""

    config: bytes
    score_config: bytes
    contracts: tuple[str, ...]
    cards: tuple[str, ...]
    reader: str = "lane_hands"
    items: tuple[str, ...] = ()
    #: what the reader needs of the session besides its hands (passed after the hasher):
    #: from the session's model, e.g. Royal Tarock's recorded pairs and first dealer; None:
    #: nothing
    session_args: Callable[[Any], tuple[Any, ...]] | None = None
    #: for a lane that takes a session hand by hand (a hand its engine declines audited by the
    #: reference, the lane going on after it): the native engine's carry as the reference
    #: session's (:meth:`SessionState.restore`'s keys), and the reference's
    #: (:meth:`SessionState.carry`) as the native engine's (None from it: a state the native
    #: engine does not keep); None: the lane takes a session whole or not at all
    to_reference: Callable[[Any], dict[str, Any]] | None = None
    from_reference: Callable[[Mapping[str, Any]], Any] | None = None


#: the per-game statistics sections the Players page draws (:attr:`GameEngine.stat_sections`
#: picks a game's): per contract, per bonus, Schlemme, matches and pairs
STAT_SECTIONS: tuple[str, ...] = ("contracts", "bonuses", "schlemm", "matches")


@dataclass(frozen=True, slots=True)
class GameTerms:
    """A game's own words for its terms, whatever the language of the sentence around them
    (the wording layer asks the engine for them: :meth:`GameEngine.terms`).

    ``language`` is the game's own language (``sl``, ``de``); ``trula`` names the three trula
    cards by token; ``contracts``, ``bonuses`` (announced bonuses, premiums, card bonuses,
    claims) and ``melds`` by id; ``kontra_levels`` the kontra chain from level 1; ``pass_words``
    the word said for a pass by phase (key ``""``: every other phase)."""

    language: str = "en"
    #: what the game calls a trump card (``tarok``, ``Tarock``)
    tarok: str = "tarok"
    trula: Mapping[str, str] = field(default_factory=dict)
    contracts: Mapping[str, str] = field(default_factory=dict)
    bonuses: Mapping[str, str] = field(default_factory=dict)
    melds: Mapping[str, str] = field(default_factory=dict)
    kontra_levels: tuple[str, ...] = ()
    pass_words: Mapping[str, str] = field(default_factory=dict)

    def pass_word(self, phase: str | None) -> str | None:
        """The word said for a pass in ``phase`` (None: the game has none)."""
        return self.pass_words.get(phase or "") or self.pass_words.get("")


class GameEngine(ABC):
    """A game: its rulesets, sessions, deal and tournament arithmetic (subclass it).

    The hooks with a body are declared defaults (python-chess's ``Board.is_variant_end``
    style): an engine overrides those its game needs, and callers call them directly.
    """

    game: str
    rulesets: RulesetRegistry
    default_ruleset: str
    #: every score item name the engine writes under its default ruleset, or None when it
    #: does not say (a recorded item outside the set is "not checked", not wrong)
    score_items: frozenset[str] | None = None
    #: retired finding codes -> the codes that replaced them (``tarock audit --code OLD``)
    code_aliases: Mapping[str, str] = MappingProxyType({})
    #: the codes of hand-level findings that only say the log stops before the hand is over
    #: (for a hand recorded in part on purpose they are not violations)
    stop_codes: frozenset[str] = frozenset()
    #: the game's name in English, a label id the wording translates ("Slovenian tarok")
    title: str = ""
    #: what the game has beyond the common ground, declared so that the generic layers (log,
    #: verdict, report, store, dashboard) ask for a feature instead of naming a game:
    #:
    #: * ``fixed_pairs``: the players play in two fixed pairs (the log's ``pair`` of each
    #:   player; :meth:`seating`); a pair scores as one team, and a seat without a declared
    #:   role is the attacker or the defender by the dealer's pair;
    #: * ``schlemm``: Schlemme are announced, and one's outcome is its announcer's own item
    #:   (made when positive, failed when negative, raised by a partner's Hebung); a kontra on
    #:   a Schlemm succeeds when the Schlemm failed.
    features: frozenset[str] = frozenset()
    #: the Players page's per-game statistics sections, in order, after the roles (each a
    #: key of the read API's ``GAME_SECTIONS`` with its tab)
    stat_sections: tuple[str, ...] = ("contracts", "bonuses")
    #: the display names of the values of a player's ``role`` field in the log (none: the
    #: value as written)
    player_role_names: Mapping[str, str] = MappingProxyType({})
    #: the code and the sentence of the finding that a table's seating breaks
    #: :meth:`seating` (the log's structural check, ``log/validate.py``)
    seating_error: tuple[str, str] = ("table.size", "the players' seating is not the game's")
    #: the contracts in which every seat plays for itself, with no declarer side (Slovenian
    #: klop): each seat's role in them is ``klop``, and a score sheet writes each seat's
    #: card points
    alone_contracts: frozenset[str] = frozenset()

    # ---------------------------------------------------------------- rulesets

    def ruleset(self, ruleset_id: str, options: Mapping[str, Any] | None = None) -> Ruleset:
        """The ruleset ``ruleset_id`` (id or alias) with ``options`` overriding its defaults.

        Raises ``KeyError`` for an unknown ruleset or option name, ``ValueError`` for a bad
        option value (:meth:`check_ruleset`).
        """
        base = self.rulesets.find(ruleset_id)
        if not options:
            return base
        rs = base.with_options(options)
        self.check_ruleset(rs)
        return rs

    def check_ruleset(self, ruleset: Ruleset) -> None:
        """Raise ``ValueError`` when an option of ``ruleset`` has a value the game does not
        allow. Default: every value is accepted."""
        return None

    @abstractmethod
    def new_session(self, ruleset: Ruleset, table_size: int) -> SessionState:
        """A fresh session at a table of ``table_size`` (``ValueError`` if not played)."""

    # ---------------------------------------------------------------- the deal

    def table_sizes(self, ruleset: Ruleset | None = None) -> tuple[int, ...]:
        """The table sizes the game (under ``ruleset``) is played at. Default: four."""
        return (4,)

    def deal_shape(
        self, table_size: int, dealer: int, ruleset: Ruleset | None = None
    ) -> DealShape | None:
        """Cards per seat and talon size of a hand dealt by ``dealer`` at a table of
        ``table_size``; None when the game is not played at that table. Default: the pack
        shared out evenly, no talon."""
        if table_size not in self.table_sizes(ruleset):
            return None
        return DealShape((len(self.pack(ruleset)) // table_size,) * table_size, 0)

    def seating(self, table_size: int) -> tuple[tuple[str, str], ...] | None:
        """The ``(pair, role)`` of each seat the game requires at a table of ``table_size``,
        in seat order of a usual table (the log's ``pair`` and ``role`` of each player); None
        when the seating is free. Default: free."""
        return None

    def native_lane(self, ruleset: Ruleset, table_size: int) -> NativeLane | None:
        """The native engine's reading of the game's ordinary records under ``ruleset`` at a
        table of ``table_size`` (the store's ingest lane), or None when it has none there (the
        lane declines those records: the reference reads them). Default: none."""
        return None

    def next_dealer(self, dealer: int, table_size: int, *, thrown_in: bool = False) -> int:
        """Who deals the hand after one dealt by ``dealer`` (a thrown-in deal is dealt again
        by the same dealer). Default: the next seat in playing order."""
        return dealer if thrown_in else (dealer + 1) % table_size

    @abstractmethod
    def pack(self, ruleset: Ruleset | None = None) -> tuple[str, ...]:
        """The card tokens of the pack under ``ruleset`` (canonical order)."""

    def card_names(self, ruleset: Ruleset | None = None) -> Mapping[str, str]:
        """Physical card names the ruleset maps onto pack tokens (Zwanzigerrufen's Glatzen:
        ``{"S10": "SG", ...}``); a physical name not listed and not a token of the pack is
        not in the pack. Default: none."""
        return MappingProxyType({})

    # ---------------------------------------------------------------- presentation

    #: the keys of :meth:`HandState.view` the store keeps at the steps where they change (the
    #: replay page reads them instead of replaying the hand: tarock_logs/store/read/timeline.py);
    #: a game adds the keys its page needs beyond these
    timeline_keys: tuple[str, ...] = ("contract", "declarer", "partner")
    #: the unit of a completed trick's ``points`` in :meth:`HandState.view` and the store's
    #: ``tricks`` (None: card points; ``"thirds"``: thirds of a point; ``"tricks"``: the game
    #: counts tricks, not card points, and a trick's ``points`` mean nothing)
    trick_points_unit: str | None = None

    def talon_groups(self, contract: str | None, talon: Sequence[str]) -> list[list[str]]:
        """The talon in the groups the declarer chooses from in a hand of ``contract`` (the
        groups a talon pick's ``group`` numbers, as :meth:`HandState.view`'s
        ``talon_groups``). Default: none (no talon exchange)."""
        return []

    def clean_states(
        self,
        actions: Sequence[Action],
        hands: Sequence[Sequence[str]],
        dealer: int,
        seats: Sequence[SeatRole],
        final: tuple[str | None, int | None, int | None],
    ) -> list[tuple[int, str, Any]]:
        """The steps where :attr:`timeline_keys` change in a clean hand (every action legal and
        made by the seat to move, as the engine's bulk path or its native lane proved it),
        said from the record alone: ``(step, key, value)``, step 0 the deal, step ``k`` after
        action ``k - 1``. ``hands`` are the cards dealt, ``seats`` the recorded pairs and
        roles, ``final`` the hand's contract, declarer and partner as the audit found them.
        The store keeps no view of such a hand; the replay page reads these instead.
        Default: the bidding ends with its last bid (the final declaration), which names the
        contract and the declarer; the partner is known from the call (without a call, with
        the declarer)."""
        contract, declarer, partner = final
        bid = max((i for i, a in enumerate(actions) if a.type == "bid"), default=None)
        call = next((i for i, a in enumerate(actions) if a.type == "call"), None)
        out: list[tuple[int, str, Any]] = []
        if bid is not None:
            out += [(bid + 1, "contract", contract), (bid + 1, "declarer", declarer)]
            if call is None:
                out.append((bid + 1, "partner", partner))
        if call is not None:
            out.append((call + 1, "partner", partner))
        return [x for x in out if x[2] is not None]

    def terms(self) -> GameTerms:
        """The game's own words for its contracts, bonuses, kontra levels, trula cards and
        passes (:class:`GameTerms`). Default: none (the wording then falls back to the ids)."""
        return GameTerms()

    def action_phases(self, actions: Sequence[Action]) -> list[str]:
        """The phase (a member of the engine's ``Phase`` enum) each action of a hand belongs
        to, in order, from the actions alone (no replay). Default: ``phase_of_type`` by action
        type, and an action type not in it belongs to the phase of the action before."""
        out: list[str] = []
        table = self.phase_of_type
        current = self.first_phase
        for a in actions:
            current = table.get(a.type, current)
            out.append(current)
        return out

    #: the phase of each action type (types that depend on the moment are left out)
    phase_of_type: Mapping[str, str] = MappingProxyType({})
    #: the phase a hand starts in
    first_phase: str = "bidding"

    def codes(self) -> Mapping[str, Code]:
        """Every finding code the engine reports, with its section, severity and meaning.
        Default: none declared."""
        return MappingProxyType({})

    def trick_winner(self, cards: Sequence[tuple[int, str]], contract: str | None) -> int | None:
        """The seat whose card wins the trick ``cards`` (``(seat, card)`` in playing order,
        possibly unfinished: who is winning it so far) in a hand of ``contract``, by the game's
        own trick rule; None for no card, or a card the rule does not know. Default: None (the
        engine does not say)."""
        return None

    # ---------------------------------------------------------------- sessions and tournaments

    def session_totals(self, ruleset: Ruleset, rows: Sequence[Sequence[int]]) -> list[int]:
        """A session's result from the per-hand totals (one row per hand, one column per
        seat). Default: the column sums."""
        n = max((len(r) for r in rows), default=0)
        if all(len(r) == n for r in rows):  # (every hand has every seat: the columns at once)
            return [sum(col) for col in zip(*rows, strict=True)]
        return [sum(r[s] for r in rows if s < len(r)) for s in range(n)]

    @abstractmethod
    def placement_points(
        self, ruleset: Ruleset, round_scores: Sequence[int], all_tables_of_five: bool = False
    ) -> list[float]:
        """Placement points of one table's round scores, in seat order."""

    def final_ranking(
        self, ruleset: Ruleset, rows: Sequence[tuple[str, float, float]]
    ) -> list[tuple[str, int]]:
        """The final ranking from ``(player, total, deviation)`` rows: ``(player, rank)`` best
        first. Default: :func:`rank_by_total_and_deviation`."""
        return rank_by_total_and_deviation(rows)

    def fact_terms(self, ruleset: Ruleset) -> FactTerms | None:
        """The contracts, bonuses and kontra targets a hand recorded as facts may name under
        ``ruleset``; None when the engine cannot score hands from facts (then
        :meth:`SessionState.score_facts` raises). Default: None."""
        return None

    def counted_piles(self, ruleset: Ruleset, contract: str) -> str | None:
        """How a counted hand of ``contract`` records what the table took: ``"sides"`` (the
        declarer's side's pile and the defenders'), ``"seats"`` (one pile per seat, as in
        klop), or None when the engine cannot count a hand from its piles
        (:meth:`SessionState.score_counted` raises). Default: None."""
        return None

    def zero_sum(self, ruleset: Ruleset) -> bool:
        """Whether every hand's scores sum to 0 under ``ruleset`` (each point one player wins,
        another pays): the audit then checks a recorded hand's scores add up to 0. Default:
        False (the game does not say)."""
        return False

    def implied_claims(
        self, ruleset: Ruleset, score: HandScore, recorded_totals: Sequence[int]
    ) -> Mapping[str, tuple[int | None, ...]]:
        """For each item of ``score.claimed``, per seat, the value the recorded totals imply
        (None where they do not determine it). Default: nothing claimed."""
        return MappingProxyType({})

    def session_notes(self, ruleset: Ruleset, carry: Mapping[str, Any]) -> list[str]:
        """What the result of a session that ended in the carried state ``carry`` cannot say
        (Royal Tarock: a match of fewer games than its match length). Default: nothing."""
        return []

    def score_items_for(self, ruleset: Ruleset) -> frozenset[str] | None:
        """The score item names the engine writes under ``ruleset`` (None: it does not say).
        Default: :attr:`score_items`."""
        return self.score_items
