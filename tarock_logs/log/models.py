"""The tarock log format, version 1.2, as pydantic models.

A log file holds **sessions**. A session is one sitting of one table: a tournament round at a
table, a match, an evening. It names the game and the ruleset, the players in seat order, and
holds the hands in the order they were played. A hand holds the deal, every action in order with
the seat that made it, the irregularities a referee dealt with, and the result as the scorer
wrote it. Logs hold raw facts only: contract, declarer, partner, tricks and scores are derived by
the rules engines and only compared with what was recorded.

Seats are 0-based indices into ``Session.players`` (the seating in playing order). Cards are the
tokens of :mod:`tarock_logs.cards`; the reader accepts aliases and normalises them.

A hand is recorded either with its cards (``deal`` and ``actions``: everything the engines
replay) or, since format 1.1, as **facts** without cards (``facts``: what a tournament score
sheet keeps: contract, declarer, partner, won or lost, the difference, bonuses, kontras,
mondfang), which the engines score but cannot judge for legality. Since format 1.2 a hand
may be **counted** (``extent: counted``): its facts (contract, announcements, kontras) and the
cards each side took (:class:`Counted`: the piles, the talon and the discards, without trick
order), from which the engines count the card points and every item the piles decide.

The documentation of every field is ``docs/log-format.md``; the JSON Schema exported from these
models lives in ``schemas/``. Fields added in format 1.1 carry ``"x-since": "1.1"`` in the
schema (:data:`SINCE_1_1`), those added in 1.2 ``"x-since": "1.2"`` (:data:`SINCE_1_2`);
:func:`format_version_for` says which version a session needs.
"""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    TypeAdapter,
    model_validator,
)
from pydantic_core import PydanticCustomError

from tarock_logs.cards import GAMES

FORMAT_NAME = "tarock-log"
#: the major version of the format, and the ``format_version`` of a file that uses nothing of
#: a later minor version (every version-1.0 file stays a valid 1.1 file)
FORMAT_VERSION = 1
#: the ``format_version`` of a session that uses a field added in 1.1 (and none of 1.2)
VERSION_1_1 = "1.1"
#: the ``format_version`` of a session that uses a field added in 1.2 (a counted hand)
VERSION_1_2 = "1.2"
#: the newest version (what the schema files are stamped with)
LATEST_FORMAT_VERSION = VERSION_1_2
#: the ``format_version`` values this reader reads (1 is version 1.0)
FORMAT_VERSIONS: tuple[int | str, ...] = (1, VERSION_1_1, VERSION_1_2)
#: the schema mark of a field added in format 1.1 (``json_schema_extra``)
SINCE_1_1: dict[str, Any] = {"x-since": "1.1"}
#: the schema mark of a field added in format 1.2
SINCE_1_2: dict[str, Any] = {"x-since": "1.2"}

if TYPE_CHECKING:
    GameName = str
else:
    #: a game by its log-format name: one of the games the card vocabulary knows
    #: (:data:`tarock_logs.cards.GAMES`, the registry's list), an enum in the JSON Schema
    GameName = Literal[GAMES]
Seat = Annotated[int, Field(ge=0, le=4, description="0-based index into the session's players")]
CardToken = Annotated[str, Field(min_length=1, max_length=12, description="card token, see docs")]
Score = Annotated[int, Field(ge=-10_000_000, le=10_000_000)]
ParamValue = str | int | bool


def _calendar_date(text: str) -> str:
    """``text`` (``YYYY-MM-DD``, checked by the pattern) when it is a day of the calendar;
    else the schema error ``schema.date_invalid`` (``2025-02-30`` is none)."""
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        raise PydanticCustomError(
            "date_invalid", "{date} is not a day of the calendar", {"date": text}
        ) from None
    return text


#: A day as ``YYYY-MM-DD``, one that the calendar has.
CalendarDate = Annotated[str, Field(pattern=r"^\d{4}-\d{2}-\d{2}$"), AfterValidator(_calendar_date)]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


# --------------------------------------------------------------------------- session metadata


class Player(_Model):
    """One seated player. ``id`` is stable across sessions (it joins a player's hands)."""

    id: Annotated[str, Field(min_length=1, max_length=64)]
    name: Annotated[str, Field(max_length=128)] | None = None
    pair: Literal["A", "B"] | None = Field(None, description="Royal Tarock: the fixed pair")
    role: Literal["abfaenger", "eintreiber"] | None = Field(
        None, description="Royal Tarock: the player's role within the pair"
    )


class Event(_Model):
    """Where and when the session was played."""

    tournament: Annotated[str, Field(max_length=200)] | None = Field(
        None, description="tournament id; sessions with the same id form one tournament"
    )
    name: Annotated[str, Field(max_length=200)] | None = None
    date: CalendarDate | None = None
    site: Annotated[str, Field(max_length=200)] | None = None
    round: Annotated[int, Field(ge=1, le=99)] | None = None
    table: Annotated[str, Field(max_length=32)] | None = None


class Source(_Model):
    """Where the log came from, when it was imported or generated."""

    software: str | None = None
    importer: str | None = None
    original_id: str | None = None
    seed: int | None = None


# --------------------------------------------------------------------------- the deal


class Deal(_Model):
    """The cards as dealt: one list per seat (empty for a seat that sits out) and the talon.

    ``talon`` keeps the dealt order: it defines the talon groups and klop's talon gifts.
    """

    hands: list[list[CardToken]]
    talon: list[CardToken] = Field(default_factory=list)
    method: Literal["normal", "knocked"] = "normal"
    cut_by: Seat | None = None
    stacks: (
        Annotated[list[Annotated[int, Field(ge=1, le=4)]], Field(min_length=4, max_length=4)] | None
    ) = Field(
        None,
        description="after a knock (method knocked; Zwanzigerrufen §3.3): per seat, the stack "
        "(1-4, in the order laid out) the seat took",
        json_schema_extra=SINCE_1_1,
    )
    seed: int | None = Field(None, description="a generator's deal seed (e.g. OpenSpiel's)")


# --------------------------------------------------------------------------- actions


class _Action(_Model):
    seat: Seat
    note: Annotated[str, Field(max_length=500)] | None = None


class Bid(_Action):
    """A contract bid, or the winner's final declaration (e.g. ``three``, ``solo_two``, ``klop``)."""  # noqa: E501

    type: Literal["bid"]
    contract: Annotated[str, Field(min_length=1, max_length=32)]


class Pass(_Action):
    """Pass / naprej in bidding; v redu / ok in the announcement round; weiter in Austria."""

    type: Literal["pass"]


class Call(_Action):
    """The king call (Slovenian) or the tarock call (Zwanzigerrufen calls XX or lower)."""

    type: Literal["call"]
    card: CardToken


class TalonPick(_Action):
    """The talon group the declarer takes (0-based, in dealt order)."""

    type: Literal["talon"]
    group: Annotated[int, Field(ge=0, le=5)]


class Discard(_Action):
    """Cards laid away after the talon exchange (zalaganje); ``shown`` lists shown taroks."""

    type: Literal["discard"]
    cards: list[CardToken]
    shown: list[CardToken] = Field(default_factory=list)


class Announce(_Action):
    """An announcement (napoved) of a bonus or premium.

    ``side`` is Zwanzigerrufen's dazu/dagegen; ``params`` carries parameters such as Royal
    Tarock's ``{"suit": "H", "count": 3}``; ``raises`` names the announcement it raises.
    """

    type: Literal["announce"]
    bonus: Annotated[str, Field(min_length=1, max_length=48)]
    side: Literal["dazu", "dagegen"] | None = None
    params: dict[str, ParamValue] = Field(default_factory=dict)
    raises: str | None = None


class Kontra(_Action):
    """A kontra on the game or on an announced bonus; ``level`` 1 kontra, 2 re, 3 sub, 4 mord."""

    type: Literal["kontra"]
    target: Annotated[str, Field(min_length=1, max_length=48)] = "game"
    level: Annotated[int, Field(ge=1, le=4)] = 1


class Lezim(_Action):
    """The declarer's "ležim": discards and announcements are complete."""

    type: Literal["lezim"]


class Play(_Action):
    """A card played to the current trick."""

    type: Literal["play"]
    card: CardToken


class ThrowIn(_Action):
    """The deal is thrown in and dealt again (Zusammenwerfen)."""

    type: Literal["throw_in"]
    reason: str | None = None
    compulsory: bool | None = Field(
        None,
        description="whether the throw-in was compulsory (true) or the player's choice (false)"
        ", as recorded (Zwanzigerrufen §3.4)",
        json_schema_extra=SINCE_1_1,
    )


class Claim(_Action):
    """A claim: ``rest`` (the remaining tricks, cards laid down) or a card bonus (``trull``)."""

    type: Literal["claim"]
    claim: Annotated[str, Field(min_length=1, max_length=48)]
    cards: list[CardToken] = Field(default_factory=list)


class Meld(_Action):
    """A hand declaration (Royal Tarock's Meldung), e.g. ``{"meld": "M_SUITCOUNT"}``."""

    type: Literal["meld"]
    meld: Annotated[str, Field(min_length=1, max_length=48)]
    params: dict[str, ParamValue] = Field(default_factory=dict)


Action = Annotated[
    Bid
    | Pass
    | Call
    | TalonPick
    | Discard
    | Announce
    | Kontra
    | Lezim
    | Play
    | ThrowIn
    | Claim
    | Meld,
    Field(discriminator="type"),
]
ACTION_TYPES = (
    "bid", "pass", "call", "talon", "discard", "announce", "kontra", "lezim", "play",
    "throw_in", "claim", "meld",
)  # fmt: skip


# --------------------------------------------------------------------------- irregularities


class Renons(_Model):
    """A renons (a rules violation and its penalty) called at the table and ruled on."""

    type: Literal["renons"]
    offender: Seat
    called_by: Seat | None = None
    kind: Literal[
        "illegal_card", "wrong_discard", "announce_out_of_turn", "cards_shown", "comment",
        "hint", "signal", "partner_revealed", "partial_king_ultimo", "interference", "other",
    ]  # fmt: skip
    action_index: Annotated[int, Field(ge=0)] | None = None
    trick: Annotated[int, Field(ge=1, le=20)] | None = None
    upheld: bool = True
    note: str | None = None


class Misdeal(_Model):
    """A misdeal (zatalanje); the recorded penalty, if the scorer wrote one."""

    type: Literal["misdeal"]
    seat: Seat
    penalty: Score | None = None
    note: str | None = None


class Adjustment(_Model):
    seat: Seat
    points: Score
    unit: Literal["game", "tournament"] = "game"


class ArbiterDecision(_Model):
    """A referee's ruling, with the score adjustments it ordered."""

    type: Literal["arbiter"]
    decision: Annotated[str, Field(min_length=1, max_length=2000)]
    by: str | None = None
    adjustments: list[Adjustment] = Field(default_factory=list)


class Penalty(_Model):
    """A penalty outside renons (interference, disturbing): game or tournament points."""

    type: Literal["penalty"]
    seat: Seat
    points: Score
    unit: Literal["game", "tournament"] = "game"
    reason: str | None = None


Irregularity = Annotated[Renons | Misdeal | ArbiterDecision | Penalty, Field(discriminator="type")]


# --------------------------------------------------------------------------- facts (format 1.1)

#: the two sides of a hand: the declarer with his partner, and the defenders
Side = Literal["declarer", "defenders"]


class BonusFact(_Model):
    """One bonus of a hand recorded as facts: whose it is, whether it was announced, and
    whether that side made it.

    ``side`` is the side the bonus belongs to: the side that announced it, or for a silent
    bonus the side that achieved it (or failed it: a silent ultimo lost in the last trick).
    Slovenian bonus codes: ``trula kralji pagat_ultimo kralj_ultimo valat barvni_valat``;
    Zwanzigerrufen: ``valat absolut pagat trull four_kings``.
    """

    bonus: Annotated[str, Field(min_length=1, max_length=48)]
    side: Side
    announced: bool = False
    made: bool = True


class KontraFact(_Model):
    """A kontra on the game or on a bonus, at the level it reached (1 kontra, 2 re, 3 sub,
    4 mord; Zwanzigerrufen: Kontra, Retour, Supra, Resupra); ``seat`` gave it, if recorded."""

    target: Annotated[str, Field(min_length=1, max_length=48)] = "game"
    level: Annotated[int, Field(ge=1, le=4)] = 1
    seat: Seat | None = None


class MondfangFact(_Model):
    """The mond (XXI) lost: ``seat`` lost it (captured, or, Slovenian, left in the talon by
    the declarer); ``captured_by`` the seat whose škis took it, where the game settles the
    Mondfang between players (Zwanzigerrufen)."""

    seat: Seat
    captured_by: Seat | None = None


class Facts(_Model):
    """A hand recorded as facts without cards (format 1.1): what a tournament score sheet
    keeps of it. The engines score it from these facts; the legality of the play and the card
    points behind them cannot be checked.

    ``won`` (the declarer's side won), ``card_points`` (the declarer side's card points,
    rounded as counted) and ``difference`` (Slovenian *razlika*: |card points − 35|) may be
    given in any combination the contract needs: a fixed-value contract (berač, valat) needs
    ``won`` only; tri … solo brez need the difference and the result, or the card points
    (35 points need ``won``: 35 and a card wins, 35 exactly loses). ``points_by_seat`` is klop's
    record: each seat's card points (none taken: empty; more than 35: full), and ``full`` the
    seats with 35 points and a card (full, which rounding hides). ``called`` is the called king
    (Slovenian) or tarock (Zwanzigerrufen); ``partner`` the seat that held it (None: the
    declarer plays alone, e.g. the king was in the talon or in his own hand).
    """

    contract: Annotated[str, Field(min_length=1, max_length=32)]
    declarer: Seat | None = None
    partner: Seat | None = None
    called: CardToken | None = None
    won: bool | None = None
    card_points: Annotated[int, Field(ge=0, le=100)] | None = None
    difference: Annotated[int, Field(ge=0, le=100)] | None = None
    points_by_seat: list[Annotated[int, Field(ge=0, le=100)]] | None = None
    full: list[Seat] = Field(default_factory=list)
    bonuses: list[BonusFact] = Field(default_factory=list)
    kontras: list[KontraFact] = Field(default_factory=list)
    mondfang: list[MondfangFact] = Field(default_factory=list)
    consolation: list[Score] | None = Field(
        None,
        description="Royal Tarock: the consolation (starting score) each seat's pair was "
        "written, one value per seat; its formula is unknown, so the sheet's value is a claim",
        json_schema_extra=SINCE_1_1,
    )


# --------------------------------------------------------------------------- counted (format 1.2)


class Counted(_Model):
    """The cards of a **counted** hand (format 1.2, ``extent: counted``): what a table can
    still show after the play, the cards each side took, without the order of the tricks.

    Either ``declarer`` and ``defenders`` (the cards each side won in tricks) or ``by_seat``
    (klop, where everyone plays for himself: the cards each seat took, one list per seat, the
    talon cards given with the tricks included). With sides, ``talon`` is the talon as dealt
    (in dealt order where known), ``talon_taken`` the talon cards the declarer took and
    ``discards`` the cards he laid away; the piles, the discards and the talon cards not taken
    hold every card of the pack exactly once. With ``by_seat`` the piles hold the whole pack
    (a recorded ``talon`` is then only what was dealt face down: its cards are in the piles).
    """

    talon: list[CardToken] = Field(default_factory=list)
    talon_taken: list[CardToken] = Field(
        default_factory=list, description="the talon cards the declarer took"
    )
    discards: list[CardToken] = Field(
        default_factory=list, description="the cards the declarer laid away (his side's)"
    )
    declarer: list[CardToken] | None = Field(
        None, description="the cards the declarer's side (he and his partner) won in tricks"
    )
    defenders: list[CardToken] | None = Field(
        None, description="the cards the defenders won in tricks"
    )
    by_seat: list[list[CardToken]] | None = Field(
        None, description="klop: the cards each seat took (the talon cards given included)"
    )


# --------------------------------------------------------------------------- results


class ResultItem(_Model):
    """One line of an itemised score. ``seat`` None = written by every member of the
    declarer's side (declarer and partner); otherwise written by that seat alone."""

    item: Annotated[str, Field(min_length=1, max_length=48)]
    value: Score
    seat: Seat | None = None


class HandResult(_Model):
    """The hand's score as the scorer wrote it: one total per seat, optionally itemised;
    ``totals_after`` is the running total per seat a score sheet writes under the hand."""

    scores: list[Score]
    items: list[ResultItem] = Field(default_factory=list)
    radelci_after: list[Annotated[int, Field(ge=0, le=1000)]] | None = None
    totals_after: list[Score] | None = Field(
        None,
        description="the running total per seat as written after this hand (score sheets)",
        json_schema_extra=SINCE_1_1,
    )


def _hand_record(hand: Hand) -> Hand:
    """A hand is recorded with its cards (``deal``) or as ``facts``, exactly one of them; a
    hand recorded as facts has no actions (they would need the cards). A counted hand
    (``extent: counted``) is facts with the piles (``counted``), and only it has piles."""
    if hand.deal is None and hand.facts is None:
        raise PydanticCustomError("hand_record", "a hand needs its deal or its facts")
    if hand.deal is not None and hand.facts is not None:
        raise PydanticCustomError(
            "hand_record", "a hand is recorded with its deal or as facts, not both"
        )
    if hand.facts is not None and hand.actions:
        raise PydanticCustomError(
            "hand_record", "a hand recorded as facts has no actions (they need the cards)"
        )
    if hand.extent == "counted" and (hand.counted is None or hand.facts is None):
        raise PydanticCustomError(
            "hand_record", "a counted hand needs its facts and the cards each side took (counted)"
        )
    if hand.counted is not None and hand.extent != "counted":
        raise PydanticCustomError(
            "hand_record", "the cards each side took (counted) belong to a hand of extent counted"
        )
    c = hand.counted
    if c is not None and (c.by_seat is None) == (c.declarer is None or c.defenders is None):
        raise PydanticCustomError(
            "hand_record",
            "a counted hand gives the piles of both sides (declarer and defenders) or, in klop, "
            "of each seat (by_seat): one of the two",
        )
    return hand


class Hand(_Model):
    """One deal and everything done with it: the cards and actions, or (format 1.1) the
    facts of a score sheet (:class:`Facts`)."""

    model_config = ConfigDict(
        json_schema_extra={
            "oneOf": [  # with its cards, or (1.1) as facts without cards and actions
                {
                    "required": ["deal"],
                    "properties": {
                        "deal": {"type": "object"},
                        "facts": {"type": "null"},
                        "counted": {"type": "null"},
                    },
                },
                {
                    "required": ["facts"],
                    "properties": {
                        "facts": {"type": "object"},
                        "deal": {"type": "null"},
                        "actions": {"maxItems": 0},
                    },
                },
            ]
        }
    )

    number: Annotated[int, Field(ge=1, le=100_000)]
    id: Annotated[str, Field(max_length=128)] | None = None
    dealer: Seat
    deal: Deal | None = Field(
        None, description="the cards as dealt (required unless the hand is recorded as facts)"
    )
    facts: Facts | None = Field(
        None,
        description="the hand recorded without cards, as a score sheet keeps it",
        json_schema_extra=SINCE_1_1,
    )
    counted: Counted | None = Field(
        None,
        description="a counted hand (extent counted): the cards each side took, the talon "
        "and the discards, without trick order",
        json_schema_extra=SINCE_1_2,
    )
    radelci_before: list[Annotated[int, Field(ge=0, le=1000)]] | None = Field(
        None,
        description="Slovenian: each seat's radelci before this hand, as on the score sheet "
        "(on a session's first hand: the state a session recorded from mid-round starts from)",
    )
    actions: list[Action] = Field(default_factory=list)
    irregularities: list[Irregularity] = Field(default_factory=list)
    result: HandResult | None = None
    notes: Annotated[str, Field(max_length=4000)] | None = None
    extent: Literal["whole", "partial", "counted"] = Field(
        "whole",
        description="partial: the hand is recorded only up to a point on purpose (a referee "
        "entering a dispute: the tricks up to the disputed one); the audit judges what is "
        "recorded and does not count the missing rest as a violation. counted (1.2): the "
        "hand's facts and the cards each side took (counted), without trick order",
        json_schema_extra=SINCE_1_1,
    )

    _check_record = model_validator(mode="after")(_hand_record)


class SessionStart(_Model):
    """Where a session recorded from its middle starts (Zwanzigerrufen §3.5, a Royal Tarock
    match in progress): what the game carried into its first recorded hand. Slovenian radelci
    go on the first hand (``radelci_before``)."""

    games: Annotated[int, Field(ge=0, le=100_000)] | None = Field(
        None, description="games already played (thrown-in deals are not games)"
    )
    double_round_windows: list[Annotated[int, Field(ge=1, le=100)]] | None = Field(
        None,
        description="Zwanzigerrufen: for each open double-round window, the games it still covers",
    )
    totals: list[Score] | None = Field(
        None, description="each seat's running total before the first recorded hand"
    )


class SessionResult(_Model):
    """Session totals and placement points as recorded (per seat)."""

    totals: list[Score] | None = None
    placement_points: list[int | float] | None = None


class Session(_Model):
    """One table sitting: the unit a log file is made of."""

    format: Literal["tarock-log"]
    format_version: Literal[1, "1.1", "1.2"] = Field(
        description='1 (version 1.0), "1.1" (a session that uses a field of format 1.1) or '
        '"1.2" (a session with a counted hand)'
    )
    id: Annotated[str, Field(min_length=1, max_length=128)]
    game: GameName
    ruleset: Annotated[str, Field(min_length=1, max_length=64)]
    options: dict[str, ParamValue | float] = Field(default_factory=dict)
    event: Event | None = None
    players: Annotated[list[Player], Field(min_length=3, max_length=5)]
    first_dealer: Seat | None = None
    start: SessionStart | None = Field(
        None,
        description="a session recorded from its middle: the state its first hand starts from",
        json_schema_extra=SINCE_1_1,
    )
    hands: list[Hand] = Field(default_factory=list)
    recorded: SessionResult | None = None
    source: Source | None = None
    notes: Annotated[str, Field(max_length=4000)] | None = None

    #: the folder of the log file the session was read from, noted by the reader when the
    #: options name a file (:mod:`tarock_logs.log.options`); not part of the log
    _source_dir: str | None = PrivateAttr(default=None)


def format_version_for(session: Session) -> int | str:
    """The ``format_version`` a session needs: ``"1.2"`` when it has a counted hand (a field
    marked :data:`SINCE_1_2`), ``"1.1"`` when it uses a field added in 1.1 (a hand recorded
    as facts, running totals, or any field marked :data:`SINCE_1_1`), else 1: a 1.0 reader
    reads it."""
    since = _since(session)
    if VERSION_1_2 in since:
        return VERSION_1_2
    return VERSION_1_1 if since else FORMAT_VERSION


def _since(obj: BaseModel) -> set[str]:
    """The ``x-since`` marks of the fields ``obj`` or a model inside it sets (a value other
    than its default). A hand without a deal always has ``facts``, which is marked 1.1; a
    counted hand has ``counted``, marked 1.2."""
    out: set[str] = set()
    for name, info in type(obj).model_fields.items():
        value = getattr(obj, name)
        extra = info.json_schema_extra
        if isinstance(extra, dict) and "x-since" in extra:
            if value != info.get_default(call_default_factory=True):
                out.add(str(extra["x-since"]))
        items = value if isinstance(value, list) else [value]
        for it in items:
            if isinstance(it, BaseModel):
                out |= _since(it)
    return out


SessionAdapter: TypeAdapter[Session] = TypeAdapter(Session)
HandAdapter: TypeAdapter[Hand] = TypeAdapter(Hand)
ActionAdapter: TypeAdapter[Any] = TypeAdapter(Action)
