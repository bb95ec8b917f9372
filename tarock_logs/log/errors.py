"""Located errors found while reading a log.

A :class:`LogError` says *what* is wrong (a stable ``code`` such as ``E-CARD-UNKNOWN``, and a
``message`` a referee understands) and *where*: the file, the 1-based line (of the JSONL record,
or of the JSON text where the parser knows it), the session id, the hand number, the 0-based
action index and a JSON path (``$.hands[2].actions[10].card``).

Codes are an interface: scripts and the store key on them. They are listed, with their meaning,
in :data:`CODES` and in ``docs/log-format.md``. Schema errors reported by pydantic keep pydantic's
error type as ``E-SCHEMA-<TYPE>`` (``missing`` → ``E-SCHEMA-MISSING``).

This module is pure standard library.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final, Literal

Severity = Literal["error", "warning"]

#: Every code the reader emits (besides ``E-SCHEMA-*``), with its meaning.
CODES: Final[dict[str, str]] = {
    "E-FILE-EMPTY": "the file (or the gzip stream inside it) holds no data",
    "E-FILE-TOO-LARGE": "a .json file or one JSONL record is over the size limit",
    "E-FILE-TRUNCATED": "the text ends in the middle of a JSON value (or a gzip stream is cut)",
    "E-FILE-TYPE": "the file is not a tarock log (unknown suffix, not gzip, or not JSON text)",
    "E-FILE-READ": "the file could not be read (permissions, I/O error)",
    "E-JSON-BOM": "the file starts with a UTF-8 byte-order mark (the content is still read)",
    "E-JSON-UTF8": "the bytes are not valid UTF-8",
    "E-JSON-SYNTAX": "the text is not valid JSON",
    "E-JSON-DUPLICATE-KEY": "an object names the same key twice",
    "E-JSON-DEPTH": "arrays/objects are nested deeper than the limit (64)",
    "E-JSON-NUMBER": "a number is out of range: a huge integer, NaN or Infinity",
    "E-FORMAT-VERSION": "the record is not a tarock-log of a format version this reader knows",
    "E-TABLE-SIZE": "the number of players does not fit the game",
    "E-ROYAL-PAIRS": "Royal Tarock players are not two fixed pairs sitting together",
    "E-CARD-UNKNOWN": "a token that is no card at all, under any alias",
    "E-CARD-NOT-IN-PACK": "a real card that the game's pack does not have",
    "E-DEAL-DUPLICATE-CARD": "a card is dealt twice",
    "E-DEAL-MISSING-CARD": "cards of the pack are missing from the deal",
    "E-DEAL-COUNT": "a hand or the talon has the wrong number of cards for the game and table",
    "E-SEAT-RANGE": "a seat number that is not at the table",
    "E-SEAT-INACTIVE": "the dealer sitting out at a table of five takes part in the hand",
    "E-DEALER-ROTATION": "warning: the dealer is not the one the rotation gives",
    "E-RESULT-SIZE": "a per-seat list (scores, radelci, totals) has the wrong length",
    "E-HAND-NUMBER-DUPLICATE": "two hands of a session carry the same number",
    "E-SESSION-DUPLICATE": "warning: a session id read twice in one validation run",
    "E-HAND-DUPLICATE": "warning: the same hand (deal, actions, result) recorded twice",
}


@dataclass(frozen=True, slots=True)
class LogError:
    """One located problem in a log file.

    ``line`` is 1-based; ``action_index`` is 0-based into the hand's ``actions``; ``path`` is a
    JSON path relative to the session record (``$`` is the session object).
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

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict with every field (the keys are an interface)."""
        return asdict(self)

    def __str__(self) -> str:
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
        return f"{head}{loc}: {self.code}: {msg}"


def schema_code(pydantic_type: str) -> str:
    """``E-SCHEMA-<TYPE>`` for a pydantic error type (``int_type`` → ``E-SCHEMA-INT-TYPE``)."""
    return "E-SCHEMA-" + pydantic_type.upper().replace("_", "-")
