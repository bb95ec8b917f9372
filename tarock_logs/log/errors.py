"""Located errors found while reading a log, and the one table of their codes.

A :class:`LogError` says *what* is wrong (a stable ``code`` such as ``card.unknown``, its
``severity`` and a ``message`` a referee understands) and *where*: the file, the 1-based line
(of the JSONL record, or of the JSON text where the parser knows it), the session id, the hand
number, the 0-based action index and a JSON path (``$.hands[2].actions[10].card``).

Codes are an interface: scripts and the store key on them. They follow the project's style
``area.snake_name`` (the engines' codes look the same: ``play.illegal_card``) and are listed,
with their severity and meaning, in :data:`CODES` and in ``docs/log-format.md``. Schema errors
reported by pydantic keep pydantic's error type as ``schema.<type>`` (``schema.missing``,
``schema.int_type``).

Until the codes were renamed they were written ``E-CARD-UNKNOWN``; :data:`OLD_CODES` maps every
old code to its new one and :func:`canonical_code` accepts either, so a filter written with an
old code keeps working.

This module is pure standard library.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass
from typing import Any, Final, Literal, NamedTuple

Severity = Literal["error", "warning"]


class Code(NamedTuple):
    """What a code means: its ``severity`` (an ``error`` rejects what it is found in, a
    ``warning`` only reports), its ``meaning`` in one line, and the ``old`` code it replaces
    (None for a code added after the renaming)."""

    severity: Severity
    meaning: str
    old: str | None


#: Every code the reader and ``tarock validate`` emit (besides ``schema.<type>``).
CODES: Final[dict[str, Code]] = {
    "file.empty": Code(
        "error", "the file (or the gzip stream inside it) holds no data", "E-FILE-EMPTY"
    ),
    "file.too_large": Code(
        "error", "a .json file or one JSONL record is over the size limit", "E-FILE-TOO-LARGE"
    ),
    "file.truncated": Code(
        "error",
        "the text ends in the middle of a JSON value (or a gzip stream is cut)",
        "E-FILE-TRUNCATED",
    ),
    "file.not_a_log": Code(
        "error",
        "the file is not a tarock log (unknown suffix, not gzip, or not JSON text)",
        "E-FILE-TYPE",
    ),
    "file.unreadable": Code(
        "error", "the file could not be read (permissions, I/O error)", "E-FILE-READ"
    ),
    "json.bom": Code(
        "error",
        "the file starts with a UTF-8 byte-order mark (the content is still read, "
        "`tarock fmt` removes the mark)",
        "E-JSON-BOM",
    ),
    "json.not_utf8": Code("error", "the bytes are not valid UTF-8", "E-JSON-UTF8"),
    "json.syntax": Code("error", "the text is not valid JSON", "E-JSON-SYNTAX"),
    "json.duplicate_key": Code(
        "error", "an object names the same key twice", "E-JSON-DUPLICATE-KEY"
    ),
    "json.depth": Code(
        "error", "arrays/objects are nested deeper than the limit (64)", "E-JSON-DEPTH"
    ),
    "json.number": Code(
        "error",
        "a number is out of range: an integer beyond 64 bits, NaN or Infinity",
        "E-JSON-NUMBER",
    ),
    "format.unsupported": Code(
        "error",
        "the record is not a tarock-log of a format version this reader knows",
        "E-FORMAT-VERSION",
    ),
    "options.catalogue_path": Code(
        "error",
        "a catalogue_path that is absolute, leaves the log's folder, or is not a regular file "
        "of at most 1 MiB there",
        None,
    ),
    "table.size": Code("error", "the number of players does not fit the game", "E-TABLE-SIZE"),
    "table.royal_pairs": Code(
        "error",
        "Royal Tarock players are not two fixed pairs sitting together",
        "E-ROYAL-PAIRS",
    ),
    "card.unknown": Code(
        "error", "a token that is no card at all, under any alias", "E-CARD-UNKNOWN"
    ),
    "card.not_in_pack": Code(
        "error", "a real card that the game's pack does not have", "E-CARD-NOT-IN-PACK"
    ),
    "deal.duplicate_card": Code("error", "a card is dealt twice", "E-DEAL-DUPLICATE-CARD"),
    "deal.missing_card": Code(
        "error", "cards of the pack are missing from the deal", "E-DEAL-MISSING-CARD"
    ),
    "deal.count": Code(
        "error",
        "a hand or the talon has the wrong number of cards for the game and table",
        "E-DEAL-COUNT",
    ),
    "deal.misdeal_count": Code(
        "warning",
        "a hand of a deal recorded as a misdeal (thrown in, or a misdeal irregularity) has the "
        "wrong number of cards: kept for the rules to judge",
        None,
    ),
    "deal.dealer_rotation": Code(
        "warning", "the dealer is not the one the rotation gives", "E-DEALER-ROTATION"
    ),
    "counted.duplicate_card": Code(
        "error",
        "a counted hand (1.2) has a card twice: in two piles, or in a pile and the discards or "
        "the talon not taken",
        None,
    ),
    "counted.missing_card": Code(
        "error",
        "cards of the pack are in no pile of a counted hand, nor in its discards or the talon "
        "not taken",
        None,
    ),
    "counted.count": Code(
        "error",
        "a counted hand's talon, discards or piles have sizes the table cannot give (a pile of "
        "tricks holds one card per active player and trick)",
        None,
    ),
    "counted.talon_taken": Code(
        "error", "a card the declarer took from the talon is not in the recorded talon", None
    ),
    "seat.range": Code("error", "a seat number that is not at the table", "E-SEAT-RANGE"),
    "seat.inactive": Code(
        "error",
        "the dealer sitting out at a table of five takes part in the hand",
        "E-SEAT-INACTIVE",
    ),
    "result.size": Code(
        "error",
        "a per-seat list (scores, radelci, totals) has the wrong length",
        "E-RESULT-SIZE",
    ),
    "hand.duplicate_number": Code(
        "error", "two hands of a session carry the same number", "E-HAND-NUMBER-DUPLICATE"
    ),
    "session.duplicate": Code(
        "warning", "a session id read twice in one validation run", "E-SESSION-DUPLICATE"
    ),
    "hand.duplicate": Code(
        "warning",
        "the same hand (deal, actions, result) recorded twice",
        "E-HAND-DUPLICATE",
    ),
}

#: The prefix of the codes of schema errors: ``schema.`` and pydantic's error type.
SCHEMA_PREFIX: Final = "schema."
_OLD_SCHEMA_PREFIX: Final = "E-SCHEMA-"

#: Every old code (``E-CARD-UNKNOWN``) with the code that replaces it (``card.unknown``);
#: ``E-SCHEMA-<TYPE>`` codes map to ``schema.<type>`` (see :func:`canonical_code`).
OLD_CODES: Final[dict[str, str]] = {c.old: new for new, c in CODES.items() if c.old}


def canonical_code(code: str) -> str:
    """The current code for ``code``, which may be an old one (``E-JSON-DEPTH`` →
    ``json.depth``, ``E-SCHEMA-INT-TYPE`` → ``schema.int_type``); any other code as it is."""
    new = OLD_CODES.get(code)
    if new is not None:
        return new
    if code.startswith(_OLD_SCHEMA_PREFIX):
        return SCHEMA_PREFIX + code[len(_OLD_SCHEMA_PREFIX) :].lower().replace("-", "_")
    return code


def severity_of(code: str) -> Severity:
    """The severity of ``code`` from :data:`CODES` (``error`` for schema and other codes)."""
    known = CODES.get(code)
    return known.severity if known is not None else "error"


def schema_code(pydantic_type: str) -> str:
    """``schema.<type>`` for a pydantic error type (``int_type`` → ``schema.int_type``)."""
    return SCHEMA_PREFIX + pydantic_type


_ESCAPES: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
_SURROGATE_RE: Final = re.compile("[\ud800-\udfff]")


def _escape(ch: str) -> str:
    known = _ESCAPES.get(ch)
    if known is not None:
        return known
    n = ord(ch)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}" if n < 0x10000 else f"\\U{n:08x}"


def printable(text: str) -> str:
    """``text`` safe to print as part of one line: every character that is not printable
    (newlines and other control characters such as the escape that starts a terminal
    sequence, Unicode line separators, bidirectional and zero-width format characters, lone
    surrogates, spaces other than the plain one) is written as its escape (``\\n``,
    ``\\x1b``, ``\\u2028``). Everything else, accented letters and card symbols included,
    stays as it is.

    Every text that comes from a log (ids, names, paths, messages quoting it) goes through
    this before it is printed, so a log can never forge a line of a command's output.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape(ch) for ch in text)


def _unicode(text: str) -> str:
    """``text`` with each lone surrogate written as its escape (``\\ud800``): UTF-8, JSON
    writers and terminals can take the result."""
    if text.isascii():
        return text
    return _SURROGATE_RE.sub(lambda m: _escape(m.group()), text)


@dataclass(frozen=True, slots=True)
class LogError:
    """One located problem in a log file.

    ``line`` is 1-based; ``action_index`` is 0-based into the hand's ``actions``; ``path`` is a
    JSON path relative to the session record (``$`` is the session object). ``severity`` is the
    one :data:`CODES` gives the code (the reader always passes it).

    Its texts are always Unicode: a lone surrogate (from an escape in a log, or from a file
    name that is not UTF-8) is kept as its escape, so the error can be printed and written
    as JSON. ``str()`` gives one line, with :func:`printable` text.
    """

    code: str
    message: str
    file: str | None = None
    line: int | None = None
    session: str | None = None
    hand: int | None = None
    action_index: int | None = None
    path: str | None = None
    severity: Severity = "error"

    def __post_init__(self) -> None:
        for name in ("message", "file", "session", "path"):
            value = getattr(self, name)
            if value is not None and not value.isascii():
                object.__setattr__(self, name, _unicode(value))

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict with every field (the keys are an interface)."""
        return asdict(self)

    def __str__(self) -> str:
        """One line: ``file:line: session S hand H action A $.path: error: code: message``."""
        where = []
        if self.session is not None:
            where.append(f"session {self.session}")
        if self.hand is not None:
            where.append(f"hand {self.hand}")
        if self.action_index is not None:
            where.append(f"action {self.action_index}")
        if self.path:
            where.append(self.path)
        head = self.file or "<input>"
        if self.line is not None:
            head += f":{self.line}"
        loc = (": " + " ".join(where)) if where else ""
        msg = " ".join(self.message.split())  # one line, always
        return printable(f"{head}{loc}: {self.severity}: {self.code}: {msg}")
