"""Importers: other programs' and people's records → the tarock log format (``docs/log-format.md``).

Importers are plug-ins found through the entry-point group :data:`ENTRY_POINT_GROUP`
(``tarock_logs.importers``): each entry point names an :class:`Importer` (or a callable that
returns one); a plug-in's ``convert`` runs as ``tarock import NAME``. The built-in importers
are registered the same way (``pyproject.toml`` declares each under the group, so an installed
package exposes them to other tools) and also in code (:data:`BUILTINS`), so that a source
checkout whose installed metadata is older still lists them. :func:`discover` merges both;
``tarock import --list`` prints what it finds.

* :mod:`tarock_logs.tools.importers.openspiel`: OpenSpiel ``tarok`` games (deal seed + action ids);
* :mod:`tarock_logs.tools.importers.scoresheet`: tournament score sheets (CSV), as hands
  recorded as facts without cards (format 1.1);
* :mod:`tarock_logs.tools.importers.palcka`: the records of the Palčka online platform
  (per-player protobuf message lists, the app's game logs);
* :mod:`tarock_logs.tools.importers.scoreboard`: the rounds of the tarok scoreboard app
  (erikbozic/tarok-scoreboard), as facts-only hands;
* :mod:`tarock_logs.tools.importers.cup`: Austrian tarock cup results pasted as TSV (each
  player's round scores), as sessions of recorded totals.

Every importer writes sessions with ``source`` (importer, version, original id) and keeps every
record it cannot convert as a :class:`Reject` (file, record or line, field, stable code), never a
guessed action. Writing one: ``docs/importers.md`` ("Writing an importer").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

__all__ = [
    "BUILTINS",
    "ENTRY_POINT_GROUP",
    "IMPORTERS",
    "Conversion",
    "Discovery",
    "Importer",
    "Reject",
    "discover",
]

#: The entry-point group importers register under.
ENTRY_POINT_GROUP = "tarock_logs.importers"


@dataclass(frozen=True, slots=True)
class Reject:
    """A record an importer could not convert, located: the ``file``, the ``record`` (a line
    or the record's 1-based index, as the format counts), the ``field`` (None: the record as a
    whole), a stable ``code`` and a message. Rejected records are reported, never guessed."""

    file: str
    record: int
    field: str | None
    code: str
    message: str

    def __str__(self) -> str:
        where = f" field '{self.field}':" if self.field else ""
        return f"{self.file}:{self.record}:{where} {self.code}: {' '.join(self.message.split())}"


@dataclass(frozen=True, slots=True)
class Conversion:
    """What an importer's ``convert`` made of its files: sessions of the log format (plain
    dicts, validated by the caller) and the records it could not convert."""

    sessions: list[dict[str, Any]] = field(default_factory=list)
    rejects: list[Reject] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Importer:
    """One importer: its ``name`` (the ``tarock import NAME`` command), the ``command`` line
    that runs it, what it reads (``input``), what it ``carries`` into a log and what it
    ``cannot_carry``, its module; the ``formats`` it reads (short names), the ``games`` it
    writes (log-format game names) and its ``version`` (written to ``source.software``)."""

    name: str
    command: str
    input: str
    carries: str
    cannot_carry: str
    module: str
    formats: tuple[str, ...] = ()
    games: tuple[str, ...] = ()
    version: str = "1"
    #: a plug-in's conversion, run by ``tarock import NAME FILE ... [-o OUT.jsonl]`` (the
    #: built-ins have commands of their own and leave it None)
    convert: Callable[[Sequence[Path]], Conversion] | None = field(default=None, compare=False)


OPENSPIEL = Importer(
    name="openspiel",
    command="tarock import openspiel FILE.jsonl -o OUT.jsonl",
    input="JSONL: one OpenSpiel tarok game a line (players, serialized state, returns)",
    carries="the deal (from its seed), every action, OpenSpiel's returns as the recorded "
    "score; Slovenian tarok under openspiel-2.0, one session per game",
    cannot_carry="players' names, sessions, dealer rotation, radelci, irregularities",
    module="tarock_logs.tools.importers.openspiel",
    formats=("openspiel-jsonl",),
    games=("slovenian",),
)

SCORESHEET = Importer(
    name="scoresheet",
    command="tarock import scoresheet FILE.csv [FILE.csv ...] [-o OUT.jsonl]",
    input="CSV: a tournament score sheet, one row per hand, players in seat order "
    "(docs/importers.md)",
    carries="per hand the contract, declarer, partner, called card, won or lost, card "
    "points or difference, bonuses, kontras, mondfang, renons, the points written, "
    "running totals and radelci; placement points; event, round and table; "
    "Zwanzigerrufen running sheets (double-round markers) and Royal Tarock match sheets "
    "(per pair: items, consolation, game value, running sum; the match result)",
    cannot_carry="the cards and the play (hands are facts only: legality not checked); "
    "the value of a Royal Tarock item the catalogue does not know (reported, not guessed)",
    module="tarock_logs.tools.importers.scoresheet",
    formats=("csv",),
    games=("slovenian", "zwanzigerrufen", "royal"),
)

PALCKA = Importer(
    name="palcka",
    command="tarock import palcka FILE [FILE ...] [-o OUT.jsonl]",
    input="Palčka records: per-player message lists (JSON lists of base64 protobuf "
    "Messages, one player's view of one game) and the app's game logs "
    "(gamelog-<uuid>.json)",
    carries="the deal where the views suffice (else the hand as facts, partial), bids, king "
    "call, talon, discard, announcements and kontras, every card played, the platform's "
    "result per player (points, razlika, kontra, radelc) as the recorded score",
    cannot_carry="sessions across games (one session per game), the dealer (taken from "
    "the bidding order), chat, timers, ratings; a hand no view shows whole",
    module="tarock_logs.tools.importers.palcka",
    formats=("palcka-messages", "palcka-gamelog"),
    games=("slovenian",),
)


def _convert_scoreboard(paths: Sequence[Path]) -> Conversion:
    from tarock_logs.tools.importers.scoreboard import convert

    return convert(paths)


def _convert_cup(paths: Sequence[Path]) -> Conversion:
    from tarock_logs.tools.importers.cup import convert

    return convert(paths)


SCOREBOARD = Importer(
    name="scoreboard",
    command="tarock import scoreboard FILE [FILE ...] [-o OUT.jsonl]",
    input="JSON: one game of the tarok scoreboard app (erikbozic/tarok-scoreboard): its "
    "players and rounds (round, round_modifier, round_result), API or database field names",
    carries="per round the contract (game_type), declarer and partner, won, difference, "
    "kontra (contra_factor), bonuses (modifiers, by the side that scored them), mondfang; "
    "the app's score change per player as the recorded score, its running totals and radelci",
    cannot_carry="the cards, the dealer (not recorded: the rotation's), the called king, "
    "klop card points (klop hands are not scored), the pagat fang (−25: a located reject), "
    "the end-of-game radelc penalty (a note)",
    module="tarock_logs.tools.importers.scoreboard",
    formats=("tarok-scoreboard-json",),
    games=("slovenian",),
    convert=_convert_scoreboard,
)

CUP = Importer(
    name="cup",
    command="tarock import cup FILE.tsv [FILE.tsv ...] [-o OUT.jsonl]",
    input="TSV: Austrian tarock cup results as pasted (player number, name, the round "
    "scores; optional table per round and the sum)",
    carries="each player's score per round as the recorded total of his table's session "
    "(one session per round and table, seated by player number); the tournament, its name "
    "and date; the sum column is checked against the rounds",
    cannot_carry="the hands (a results list has none: nothing is recomputed), the seat "
    "order at a table; a round without a table column (its tables are not known: a "
    "located reject); Königrufen (no engine)",
    module="tarock_logs.tools.importers.cup",
    formats=("cup-tsv",),
    games=("zwanzigerrufen",),
    convert=_convert_cup,
)

#: The built-in importers, registered in code (the same objects the entry points name).
BUILTINS: dict[str, Importer] = {
    i.name: i for i in (OPENSPIEL, SCORESHEET, PALCKA, SCOREBOARD, CUP)
}

#: The built-in importers by name (kept for callers of the registry before plug-ins).
IMPORTERS: dict[str, Importer] = dict(BUILTINS)


@dataclass(frozen=True, slots=True)
class Discovery:
    """What :func:`discover` found: every importer by name (built-ins first, then plug-ins in
    name order), where each came from (``builtin`` or the distribution of its entry point),
    and the entry points that could not be loaded (a message each; they are left out)."""

    importers: dict[str, Importer]
    origin: dict[str, str]
    problems: list[str] = field(default_factory=list)


def discover() -> Discovery:
    """The built-in importers and every importer of the entry-point group. A plug-in whose
    entry point fails to load, or names no :class:`Importer`, is reported in ``problems``; a
    plug-in that reuses a built-in's name with another object is refused (``problems``)."""
    found: dict[str, Importer] = dict(BUILTINS)
    origin = dict.fromkeys(BUILTINS, "builtin")
    problems: list[str] = []
    try:
        eps = sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name)
    except Exception as exc:  # noqa: BLE001 - broken metadata on sys.path: report, go on
        return Discovery(found, origin, [f"entry points unreadable: {exc}"])
    for ep in eps:
        dist = ep.dist.name if ep.dist is not None else "?"
        try:
            obj: object = ep.load()
            if not isinstance(obj, Importer) and callable(obj):
                obj = _call(obj)
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not break the list
            problems.append(f"{ep.name} ({dist}): cannot load {ep.value}: {exc}")
            continue
        if not isinstance(obj, Importer):
            problems.append(f"{ep.name} ({dist}): {ep.value} is no Importer")
            continue
        if obj.name != ep.name:
            problems.append(f"{ep.name} ({dist}): the importer calls itself {obj.name!r}")
            continue
        if ep.name in found:
            if found[ep.name] is not obj:
                problems.append(f"{ep.name} ({dist}): the name is taken by {origin[ep.name]}")
            continue
        found[ep.name] = obj
        origin[ep.name] = dist
    return Discovery(found, origin, problems)


def _call(factory: Callable[[], object]) -> object:
    return factory()
