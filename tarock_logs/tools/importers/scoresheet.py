"""Tournament score sheets (CSV) → tarock log sessions of hands recorded as facts (format 1.1).

A score sheet is what a tournament keeps of a table's round: one row per hand with the
contract, who played it and with whom, won or lost, the card points or the difference, the
bonuses, kontras, mondfang and renons, the points written per player, the running totals and
the radelci, and the placement points under the last hand. The layout is documented in
``docs/importers.md`` ("score sheets"); in short:

* optional ``# key: value`` lines before the header: ``game``, ``ruleset``, ``session``,
  ``tournament``, ``event``, ``date``, ``site``, ``round``, ``table``, ``first_dealer``;
* a header row naming the columns: the facts (``hand``, ``dealer``, ``contract``, ``declarer``,
  ``partner``, ``called``, ``won``, ``points``, ``difference``, one column per bonus code of
  the game, ``kontra``, ``mondfang``, ``renons``, ``notes``) and the players **in seat order**:
  ``NAME`` (the points written), ``NAME total`` (the running total), ``NAME radelci``
  (radelci after the hand); ``NAME (id)`` gives a player's id;
* one row per hand; a row whose ``hand`` is ``placement`` gives the placement points.

The same layout carries the Zwanzigerrufen running sheet (no radelci; a ``double`` column for
the double-round marker) and the Royal Tarock match sheet (a column per pair,
``ABFAENGER+EINTREIBER``, with ``PAIR items`` and ``PAIR consolation``; no contract column; a
``result`` row with the match result).

Bad cells (an unknown contract, a player not at the table, a non-number ...) are reported
one by one with their line and column, and only their row is left out: the rest of the sheet
is imported. A game whose engine cannot score hands from facts is refused as a whole.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tarock_logs.cards import CardError, parse_card
from tarock_logs.log import models as m
from tarock_logs.report.text import bonus_name, contract_name
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import FactTerms, GameEngine, Ruleset

__all__ = [
    "CODES",
    "FACT_COLUMNS",
    "SheetError",
    "SheetImport",
    "import_sheet",
    "read_sheet",
]

#: The importer's error codes, with what each means.
CODES: Mapping[str, str] = {
    "sheet.empty": "the file holds no header row",
    "sheet.header": "the header lacks a required column, names a column twice, or names no player",
    "sheet.column": "a header cell is neither a known column nor a player (a misspelt column)",
    "sheet.meta": "a `# key: value` line names an unknown key or a bad value",
    "sheet.game": "the game is unknown, or its engine cannot score hands recorded as facts",
    "sheet.table_size": "the sheet names a number of players the game is not played with",
    "sheet.hand": "the hand number is missing, not a number, or used twice",
    "sheet.contract": "an unknown contract",
    "sheet.player": "a player who is not at the table",
    "sheet.number": "a cell that must be a number is not one",
    "sheet.cell": "a cell that does not follow its column's syntax (a card, a bonus, a kontra, "
    "won or lost ...)",
    "sheet.schema": "the hand made of the row is not a valid log hand",
}

#: the columns of the facts, besides the game's bonus codes and the players' columns
FACT_COLUMNS: tuple[str, ...] = (
    "hand",
    "dealer",
    "contract",
    "declarer",
    "partner",
    "called",
    "won",
    "points",
    "difference",
    "kontra",
    "mondfang",
    "renons",
    "notes",
)
#: columns only some games' sheets have: Zwanzigerrufen's double-round marker
_GAME_COLUMNS: Mapping[str, tuple[str, ...]] = {"zwanzigerrufen": ("double",)}
#: the suffixes of a player's (Royal Tarock: a pair's) columns, per game
_SUFFIXES: Mapping[str, tuple[str, ...]] = {
    "slovenian": ("total", "radelci"),
    "zwanzigerrufen": ("total",),
    "royal": ("total", "consolation", "items"),
}
#: games whose sheets have a column per pair (``ABFAENGER+EINTREIBER``), not per player
_PAIR_GAMES = frozenset({"royal"})
#: games whose sheet has no contract column (every game is played the same way)
_NO_CONTRACT: Mapping[str, str] = {"royal": "game"}
#: the double-round marker: ``x2``, ``×4``, ``2``, or stars (``*`` ×2, ``**`` ×4)
_DOUBLE_RE = re.compile(r"^(?:[x×*]?\s*(?P<r>\d{1,3})|(?P<stars>\*+))$")
_META_KEYS = frozenset(
    {
        "game",
        "ruleset",
        "session",
        "tournament",
        "event",
        "date",
        "site",
        "round",
        "table",
        "first_dealer",
    }
)
_KONTRA_LEVELS = {
    "kontra": 1,
    "re": 2,
    "rekontra": 2,
    "sub": 3,
    "subkontra": 3,
    "mord": 4,
    "mordkontra": 4,
    "retour": 2,
    "supra": 3,
    "resupra": 4,
}
_RENONS_KINDS = (
    "illegal_card",
    "wrong_discard",
    "announce_out_of_turn",
    "cards_shown",
    "comment",
    "hint",
    "signal",
    "partner_revealed",
    "partial_king_ultimo",
    "interference",
    "other",
)
_TRUE = frozenset({"yes", "y", "true", "1", "won", "w", "da", "+"})
_FALSE = frozenset({"no", "n", "false", "0", "lost", "l", "ne", "-"})
_SIDES = {
    "d": "declarer",
    "declarer": "declarer",
    "o": "defenders",
    "defenders": "defenders",
    "defender": "defenders",
}
_BONUS_RE = re.compile(r"^(?P<side>[do])(?P<ann>a?)(?P<made>[+-]?)$")
#: card points as counted: ``45``, or ``35+`` for 35 points and a card (which rounding hides)
_POINTS_RE = re.compile(r"^(?P<points>\d{1,3})(?P<card>\+?)$")
_ID_RE = re.compile(r"^(?P<name>.*?)\s*\((?P<id>[^()]+)\)$")


@dataclass(frozen=True, slots=True)
class SheetError:
    """One located problem: file, line (1-based, as an editor counts) and column header."""

    code: str
    message: str
    file: str
    line: int | None = None
    column: str | None = None

    def __str__(self) -> str:
        where = self.file + (f":{self.line}" if self.line is not None else "")
        col = f" column {self.column!r}:" if self.column is not None else ""
        return f"{where}:{col} {self.code}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
        }


@dataclass(slots=True)
class SheetImport:
    """One sheet read: its session (None when nothing could be imported), the errors, and
    how many hand rows were read and imported."""

    file: str
    session: m.Session | None
    errors: list[SheetError] = field(default_factory=list)
    rows: int = 0
    imported: int = 0
    rejected_lines: list[int] = field(default_factory=list)


def _fold(text: str) -> str:
    """Lower case, single spaces, no diacritics: how names and words are matched."""
    t = " ".join(text.split()).lower()
    return "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", ".", _fold(name)).strip(".") or "player"


@dataclass(slots=True)
class _Column:
    kind: str  # a fact column name, "bonus", or a player's "written", "total", "radelci"
    header: str
    index: int
    seat: int | None = None
    bonus: str | None = None


@dataclass(slots=True)
class _Sheet:
    """The header and metadata of a sheet, and what it takes to read its rows."""

    file: str
    engine: GameEngine
    ruleset: Ruleset
    terms: FactTerms
    game: str
    meta: dict[str, str]
    columns: list[_Column]
    players: list[tuple[str, str]]  # (id, name) in seat order
    contracts: dict[str, str]  # folded code or name -> code

    def seat_of(self, text: str) -> int | None:
        key = _fold(text)
        for s, (pid, name) in enumerate(self.players):
            if key in (_fold(name), _fold(pid)):
                return s
        return None


class _Row:
    """Reads the cells of one row, collecting every bad cell."""

    def __init__(self, sheet: _Sheet, line: int, cells: Sequence[str]) -> None:
        self.sheet = sheet
        self.line = line
        self.cells = cells
        self.errors: list[SheetError] = []

    def err(self, code: str, column: str, message: str) -> None:
        self.errors.append(SheetError(code, message, self.sheet.file, self.line, column))

    def cell(self, col: _Column) -> str:
        return self.cells[col.index].strip() if col.index < len(self.cells) else ""

    def number(self, col: _Column, *, allow_float: bool = False) -> int | float | None:
        text = self.cell(col)
        if not text:
            return None
        try:
            return int(text)
        except ValueError:
            pass
        if allow_float:
            try:
                return float(text.replace(",", "."))
            except ValueError:
                pass
        self.err("sheet.number", col.header, f"{text!r} is not a number")
        return None

    def seat(self, col: _Column, text: str | None = None) -> int | None:
        text = self.cell(col) if text is None else text.strip()
        if not text:
            return None
        s = self.sheet.seat_of(text)
        if s is None:
            names = ", ".join(n for _, n in self.sheet.players)
            self.err("sheet.player", col.header, f"{text!r} is not at the table ({names})")
        return s


def _contracts(engine: GameEngine, game: str, terms: FactTerms) -> dict[str, str]:
    out: dict[str, str] = {}
    for code in terms.contracts:
        out[_fold(code)] = code
        out[_fold(code.replace("_", " "))] = code
        out[_fold(contract_name(code, game))] = code
    return out


def _meta_and_rows(text: str) -> tuple[list[tuple[int, str, str]], list[tuple[int, list[str]]]]:
    """The ``# key: value`` lines (line, key, value) and the CSV records (line, cells)."""
    meta: list[tuple[int, str, str]] = []
    body: list[str] = []
    first_body = None
    lines = text.splitlines()
    for i, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if first_body is None and (not stripped or stripped.startswith("#")):
            if stripped.startswith("#"):
                key, _, value = stripped[1:].partition(":")
                meta.append((i, key.strip().lower(), value.strip()))
            continue
        if first_body is None:
            first_body = i
        body.append(raw)
    rows: list[tuple[int, list[str]]] = []
    if first_body is None:
        return meta, rows
    reader = csv.reader(io.StringIO("\n".join(body)))
    start = 1
    for cells in reader:
        line = first_body + start - 1
        start = reader.line_num + 1
        if not any(c.strip() for c in cells):
            continue
        rows.append((line, cells))
    return meta, rows


def read_sheet(
    text: str,
    *,
    name: str = "sheet.csv",
    overrides: Mapping[str, str] | None = None,
) -> SheetImport:
    """Read one score sheet (the CSV text of ``name``) into a session of facts-only hands.

    ``overrides`` set or replace ``# key: value`` metadata (``game``, ``ruleset``,
    ``tournament``, ``round``, ``table``, ``session`` ...), as ``tarock import scoresheet``'s
    options do. Never raises for a bad sheet: every problem is a located :class:`SheetError`.
    """
    text = text.lstrip("\ufeff")
    out = SheetImport(name, None)
    meta_lines, rows = _meta_and_rows(text)
    meta: dict[str, str] = {}
    for line, key, value in meta_lines:
        if key not in _META_KEYS:
            known = ", ".join(sorted(_META_KEYS))
            out.errors.append(
                SheetError("sheet.meta", f"unknown key {key!r} (known: {known})", name, line)
            )
            continue
        meta[key] = value
    meta.update({k: v for k, v in (overrides or {}).items() if v is not None})
    sheet = _header(out, meta, rows, name)
    if sheet is None:
        return out
    hands: list[dict[str, Any]] = []
    placement: list[float] | None = None
    numbers: set[int] = set()
    dealer: int | None = None
    first = meta.get("first_dealer")
    for line, cells in rows[1:]:
        row = _Row(sheet, line, cells)
        hand_col = sheet.columns[0]
        label = row.cell(hand_col)
        if _fold(label) in ("placement", "result"):
            placement = _placement(row, sheet)
            if row.errors:
                out.errors.extend(row.errors)
                out.rejected_lines.append(line)
                placement = None
            continue
        out.rows += 1
        doc, dealer_seat = _hand(row, sheet, numbers, dealer, first)
        if row.errors or doc is None:
            out.errors.extend(row.errors)
            out.rejected_lines.append(line)
            if dealer_seat is not None:
                dealer = dealer_seat
            continue
        try:
            m.HandAdapter.validate_python(doc)
        except ValidationError as exc:
            for e in exc.errors(include_url=False):
                where = ".".join(str(x) for x in e["loc"])
                out.errors.append(
                    SheetError("sheet.schema", f"{where}: {e['msg']}", name, line, None)
                )
            out.rejected_lines.append(line)
            continue
        numbers.add(doc["number"])
        dealer = doc["dealer"]
        hands.append(doc)
    out.imported = len(hands)
    out.session = _session(sheet, hands, placement, out)
    return out


def _header(
    out: SheetImport, meta: dict[str, str], rows: list[tuple[int, list[str]]], name: str
) -> _Sheet | None:
    """The game, its engine and the columns of the header row (None: nothing to import)."""
    game = meta.get("game", "slovenian").strip().lower()
    engine = get_engine(game) if game in ("slovenian", "zwanzigerrufen", "royal") else None
    if engine is None:
        out.errors.append(SheetError("sheet.game", f"unknown game {game!r}", name))
        return None
    try:
        ruleset = engine.ruleset(meta.get("ruleset") or engine.default_ruleset)
    except (KeyError, ValueError) as exc:
        out.errors.append(SheetError("sheet.meta", str(exc).strip("\"'"), name, None, None))
        return None
    terms = engine.fact_terms(ruleset)
    if terms is None:
        out.errors.append(
            SheetError(
                "sheet.game",
                f"{game} under {ruleset.id}: its engine cannot score hands recorded as facts "
                "(docs/importers.md says why): nothing imported",
                name,
            )
        )
        return None
    if not rows:
        out.errors.append(SheetError("sheet.empty", "no header row", name))
        return None
    line, header = rows[0]
    pairs = game in _PAIR_GAMES
    known = {c: c for c in FACT_COLUMNS + _GAME_COLUMNS.get(game, ())}
    if pairs:  # a pair's items are one cell per pair (``NAME+NAME items``), not a column each
        known["game"] = "hand"
    else:
        known |= {b: b for b in terms.bonuses}
        for b in terms.bonuses:
            known[_fold(bonus_name(b, game))] = b
    suffixes = _SUFFIXES.get(game, ("total",))
    columns: list[_Column] = []
    players: list[tuple[str, str]] = []
    seen: set[str] = set()
    pending: list[tuple[int, str, str]] = []  # player columns with a suffix, seen before the name
    for i, raw in enumerate(header):
        h = " ".join(raw.split())
        key = _fold(h)
        if not key:
            continue
        if key in seen:
            out.errors.append(
                SheetError("sheet.header", f"column {h!r} appears twice", name, line, h)
            )
            continue
        seen.add(key)
        if key in known:
            col = known[key]
            kind = "bonus" if col in terms.bonuses else col
            columns.append(_Column(kind, h, i, bonus=col if kind == "bonus" else None))
            continue
        for suffix in ("total", "radelci", "consolation", "items"):
            if key.endswith(" " + suffix):
                if suffix not in suffixes:
                    out.errors.append(
                        SheetError(
                            "sheet.column",
                            f"column {h!r}: a {game} sheet has no {suffix} column",
                            name,
                            line,
                            h,
                        )
                    )
                    break
                pending.append((i, h, suffix))
                break
        else:
            close = difflib.get_close_matches(key, list(known), n=1, cutoff=0.8)
            if close:
                out.errors.append(
                    SheetError(
                        "sheet.column",
                        f"unknown column {h!r} (did you mean {close[0]!r}?)",
                        name,
                        line,
                        h,
                    )
                )
                continue
            if pairs:
                members = [x.strip() for x in h.split("+")]
                if len(members) != 2 or not all(members):
                    out.errors.append(
                        SheetError(
                            "sheet.header",
                            f"column {h!r}: a {game} sheet has a column per pair, "
                            "ABFAENGER+EINTREIBER (e.g. 'Anna+Bela')",
                            name,
                            line,
                            h,
                        )
                    )
                    continue
            else:
                members = [h]
            for member in members:
                m_id = _ID_RE.match(member)
                pname, pid = (m_id["name"], m_id["id"].strip()) if m_id else (member, _slug(member))
                players.append((pid, pname))
            columns.append(_Column("written", h, i, seat=len(players) - len(members)))
    written = {_fold(c.header): c.seat for c in columns if c.kind == "written"}
    for i, h, suffix in pending:
        base = h[: -len(suffix)].strip()
        seat = written.get(_fold(base)) if pairs else None
        if not pairs:
            seat = next(
                (
                    s
                    for s, (pid, pn) in enumerate(players)
                    if _fold(base) in (_fold(pn), _fold(pid))
                ),
                None,
            )
        if seat is None:
            out.errors.append(
                SheetError(
                    "sheet.header", f"column {h!r} names no player of the header", name, line, h
                )
            )
            continue
        columns.append(_Column(suffix, h, i, seat=seat))
    required = ("hand",) if game in _NO_CONTRACT else ("hand", "contract")
    missing = [c for c in required if c not in {col.kind for col in columns}]
    if missing or not players:
        what = f"no {' or '.join(repr(c) for c in missing)} column" if missing else "no player"
        hint = " (is the file comma-separated?)" if len(header) == 1 else ""
        out.errors.append(SheetError("sheet.header", f"the header has {what}{hint}", name, line))
        return None
    if len(players) not in engine.table_sizes(ruleset):
        sizes = ", ".join(map(str, engine.table_sizes(ruleset)))
        out.errors.append(
            SheetError(
                "sheet.table_size",
                f"the header names {len(players)} players; {game} is played by {sizes}",
                name,
                line,
            )
        )
        return None
    ids = [p for p, _ in players]
    if len(set(ids)) != len(ids):
        out.errors.append(SheetError("sheet.header", "two players have the same id", name, line))
        return None
    columns.sort(key=lambda c: (c.kind != "hand", c.index))
    return _Sheet(
        name, engine, ruleset, terms, game, meta, columns, players, _contracts(engine, game, terms)
    )


def _parse_bool(text: str) -> bool | None:
    t = _fold(text)
    if t in _TRUE:
        return True
    if t in _FALSE:
        return False
    raise ValueError(text)


def _bonus(row: _Row, col: _Column) -> dict[str, Any] | None:
    """``D``/``O`` (the declarer's side / the defenders), ``A`` announced, ``+`` made or ``-``
    failed (default made): ``D+``, ``DA-``, ``OA``; or the words ``declarer announced failed``."""
    text = row.cell(col)
    if not text:
        return None
    t = _fold(text)
    side = ann = made = None
    short = _BONUS_RE.match(t.replace(" ", ""))
    if short:
        side = _SIDES[short["side"]]
        ann = bool(short["ann"])
        made = short["made"] != "-"
    else:
        words = t.replace(",", " ").split()
        for w in words:
            if w in _SIDES and side is None:
                side = _SIDES[w]
            elif w in ("announced", "a", "napovedan"):
                ann = True
            elif w in ("silent", "tiho"):
                ann = False
            elif w in ("made", "won", "+"):
                made = True
            elif w in ("failed", "lost", "-"):
                made = False
            else:
                side = None
                break
    if side is None:
        row.err(
            "sheet.cell",
            col.header,
            f"{text!r}: write the side D (declarer's) or O "
            "(defenders'), A if announced, + made or - failed (e.g. DA+, O+)",
        )
        return None
    out: dict[str, Any] = {"bonus": col.bonus, "side": side}
    if ann:
        out["announced"] = True
    if made is False:
        out["made"] = False
    return out


def _entries(text: str) -> list[str]:
    return [e.strip() for e in text.split(";") if e.strip()]


def _kontras(row: _Row, col: _Column) -> list[dict[str, Any]]:
    """``TARGET[:LEVEL][@PLAYER]`` entries separated by ``;`` (``game``, ``pagat_ultimo:2``,
    ``game@Cene``); levels 1-4 or their names (kontra, re, sub, mord)."""
    out: list[dict[str, Any]] = []
    targets = {_fold(t): t for t in row.sheet.terms.kontra_targets}
    for b in row.sheet.terms.bonuses:
        targets[_fold(bonus_name(b, row.sheet.game))] = b
    for entry in _entries(row.cell(col)):
        body, _, who = entry.partition("@")
        target, _, level_text = body.partition(":")
        tgt = targets.get(_fold(target))
        if tgt is None:
            known = ", ".join(row.sheet.terms.kontra_targets)
            row.err("sheet.cell", col.header, f"{target.strip()!r} is no kontra target ({known})")
            continue
        kf: dict[str, Any] = {"target": tgt}
        if level_text.strip():
            lt = _fold(level_text)
            level = _KONTRA_LEVELS.get(lt) or (int(lt) if lt.isdigit() else None)
            if level is None or not 1 <= level <= 4:
                row.err(
                    "sheet.cell", col.header, f"{level_text.strip()!r} is no kontra level (1-4)"
                )
                continue
            if level != 1:
                kf["level"] = level
        if who.strip():
            seat = row.seat(col, who)
            if seat is None:
                continue
            kf["seat"] = seat
        out.append(kf)
    return out


def _mondfang(row: _Row, col: _Column) -> list[dict[str, Any]]:
    """``PLAYER[ by PLAYER]`` entries separated by ``;``: who lost the mond, and to whom."""
    out: list[dict[str, Any]] = []
    for entry in _entries(row.cell(col)):
        parts = re.split(r"\s+by\s+", entry, maxsplit=1)
        lost, by = parts[0], parts[1] if len(parts) > 1 else ""
        seat = row.seat(col, lost)
        if seat is None:
            continue
        mf: dict[str, Any] = {"seat": seat}
        if by.strip():
            cap = row.seat(col, by)
            if cap is None:
                continue
            mf["captured_by"] = cap
        out.append(mf)
    return out


def _renons(row: _Row, col: _Column) -> list[dict[str, Any]]:
    """``OFFENDER[:KIND][@CALLED_BY]`` entries separated by ``;``."""
    out: list[dict[str, Any]] = []
    for entry in _entries(row.cell(col)):
        body, _, by = entry.partition("@")
        who, _, kind = body.partition(":")
        seat = row.seat(col, who)
        if seat is None:
            continue
        r: dict[str, Any] = {"type": "renons", "offender": seat, "kind": "other"}
        if kind.strip():
            k = _fold(kind).replace(" ", "_")
            if k not in _RENONS_KINDS:
                row.err(
                    "sheet.cell",
                    col.header,
                    f"{kind.strip()!r} is no kind of renons ({', '.join(_RENONS_KINDS)})",
                )
                continue
            r["kind"] = k
        if by.strip():
            caller = row.seat(col, by)
            if caller is None:
                continue
            r["called_by"] = caller
        out.append(r)
    return out


def _hand(
    row: _Row,
    sheet: _Sheet,
    numbers: set[int],
    prev_dealer: int | None,
    first_dealer: str | None,
) -> tuple[dict[str, Any] | None, int | None]:
    """The log hand of one row, and its dealer (also for a rejected row, so that the rotation
    goes on)."""
    n = len(sheet.players)
    cols: dict[str, _Column] = {c.kind: c for c in sheet.columns if c.kind not in _PER_PLAYER}
    hand_col = cols["hand"]
    number = row.number(hand_col)
    if number is None and not row.errors:
        row.err("sheet.hand", hand_col.header, "the hand number is missing")
    elif isinstance(number, int) and (number < 1 or number in numbers):
        why = "used by an earlier row" if number in numbers else "not a hand number"
        row.err("sheet.hand", hand_col.header, f"hand {number} is {why}")
    dealer: int | None = None
    if "dealer" in cols and row.cell(cols["dealer"]):
        dealer = row.seat(cols["dealer"])
    elif prev_dealer is not None:
        dealer = sheet.engine.next_dealer(prev_dealer, n)
    elif first_dealer:
        dealer = sheet.seat_of(first_dealer)
        if dealer is None:
            row.err("sheet.player", "first_dealer", f"{first_dealer!r} is not at the table")
    else:
        dealer = n - 1  # then P1 (the forehand) is the first seat of the header
    facts: dict[str, Any] = {}
    fixed = _NO_CONTRACT.get(sheet.game)
    ccol = cols.get("contract")
    ctext = row.cell(ccol) if ccol is not None else (fixed or "")
    contract = sheet.contracts.get(_fold(ctext)) if ctext else None
    if contract is None and ccol is not None:
        known = ", ".join(sheet.terms.contracts)
        row.err(
            "sheet.contract",
            ccol.header,
            f"{ctext!r} is no {sheet.game} contract ({known})"
            if ctext
            else "the contract is missing",
        )
    else:
        facts["contract"] = contract
    for key in ("declarer", "partner"):
        if key in cols:
            s = row.seat(cols[key])
            if s is not None:
                facts[key] = s
    if "called" in cols and row.cell(cols["called"]):
        try:
            facts["called"] = parse_card(
                row.cell(cols["called"]), sheet.game, sheet.engine.card_names(sheet.ruleset)
            )
        except CardError:
            row.err(
                "sheet.cell",
                cols["called"].header,
                f"{row.cell(cols['called'])!r} is no card of the {sheet.game} pack",
            )
    if "won" in cols and row.cell(cols["won"]):
        try:
            facts["won"] = _parse_bool(row.cell(cols["won"]))
        except ValueError:
            row.err(
                "sheet.cell",
                cols["won"].header,
                f"{row.cell(cols['won'])!r}: write won or lost (yes/no, +/-)",
            )
    if "points" in cols and row.cell(cols["points"]):
        pcol = cols["points"]
        text = row.cell(pcol)
        if contract in sheet.engine.alone_contracts or ";" in text:
            found = [_POINTS_RE.match(p) for p in _entries(text)]
            if len(found) != n or not all(found):
                row.err(
                    "sheet.number",
                    pcol.header,
                    f"{text!r}: klop needs each player's card points, {n} numbers "
                    "separated by ';' (35+ for 35 and a card)",
                )
            else:
                facts["points_by_seat"] = [int(x["points"]) for x in found if x]
                full = [s for s, x in enumerate(found) if x and x["card"]]
                if full:
                    facts["full"] = full
        elif (pm := _POINTS_RE.match(text)) is None:
            row.err("sheet.number", pcol.header, f"{text!r} is not a number")
        elif pm["card"] and sheet.game not in _CARD_PLUS:
            row.err("sheet.number", pcol.header, f"{text!r}: write the card points as a number")
        else:
            facts["card_points"] = int(pm["points"])
            if pm["card"]:  # 35 and a card: won
                if facts.get("won") is False:
                    row.err(
                        "sheet.cell",
                        pcol.header,
                        f"{text!r} (and a card) wins, but the row says lost",
                    )
                facts["won"] = True
    if "difference" in cols:
        v = row.number(cols["difference"])
        if v is not None:
            facts["difference"] = v
    bonuses = [b for c in sheet.columns if c.kind == "bonus" and (b := _bonus(row, c))]
    if bonuses:
        facts["bonuses"] = bonuses
    if "kontra" in cols and (k := _kontras(row, cols["kontra"])):
        facts["kontras"] = k
    if "mondfang" in cols and (mf := _mondfang(row, cols["mondfang"])):
        facts["mondfang"] = mf
    irregularities = _renons(row, cols["renons"]) if "renons" in cols else []
    double = _double(row, cols["double"]) if "double" in cols else None
    pair_sides = _pair_sides(sheet, dealer)
    scores = [0] * n
    totals: list[int | None] = [None] * n
    radelci: list[int | None] = [None] * n
    consolation: list[int | None] = [None] * n
    items: list[dict[str, Any]] = []
    for c in sheet.columns:
        if c.seat is None:
            continue
        seats = _seats_of(sheet, c.seat)
        if c.kind == "written":
            v = row.number(c)
            for s in seats:
                scores[s] = int(v or 0)
        elif c.kind == "total":
            v = row.number(c)
            for s in seats:
                totals[s] = int(v) if v is not None else None
        elif c.kind == "radelci":
            radelci[c.seat] = _radelci(row, c)
        elif c.kind == "consolation":
            v = row.number(c)
            for s in seats:
                consolation[s] = int(v) if v is not None else None
        elif c.kind == "items" and pair_sides is not None:
            items += _pair_items(row, c, pair_sides[c.seat])
    if items:
        facts["bonuses"] = items
    if all(x is not None for x in consolation):
        facts["consolation"] = consolation
    elif any(x is not None for x in consolation):
        row.err("sheet.number", "consolation", "a consolation is written for one pair only")
    if row.errors or not isinstance(number, int) or dealer is None or contract is None:
        return None, dealer
    result: dict[str, Any] = {"scores": scores}
    if all(r is not None for r in radelci):
        result["radelci_after"] = radelci
    elif any(r is not None for r in radelci):
        row.err("sheet.number", "radelci", "radelci are written for some players only")
    if all(t is not None for t in totals):
        result["totals_after"] = totals
    elif any(t is not None for t in totals):
        row.err("sheet.number", "total", "running totals are written for some players only")
    doc: dict[str, Any] = {
        "number": number,
        "id": f"{Path(sheet.file).name}:{row.line}",
        "dealer": dealer,
        "facts": facts,
    }
    if irregularities:
        doc["irregularities"] = irregularities
    doc["result"] = result
    notes = [row.cell(cols["notes"])] if "notes" in cols and row.cell(cols["notes"]) else []
    if double is not None and double != 1:
        notes.append(f"marked on the sheet as a double-round game (×{double})")
    if notes:
        doc["notes"] = "; ".join(notes)
    return (None if row.errors else doc), dealer


#: the kinds of a player's (or a pair's) columns
_PER_PLAYER = frozenset({"bonus", "written", "total", "radelci", "consolation", "items"})
#: games whose card points are written ``35+`` for 35 and a card
_CARD_PLUS = frozenset({"slovenian"})


def _seats_of(sheet: _Sheet, seat: int) -> tuple[int, ...]:
    """The seats a player's column is written for: one, or a pair's two (Abfänger first)."""
    return (seat, seat + 1) if sheet.game in _PAIR_GAMES else (seat,)


def _pair_sides(sheet: _Sheet, dealer: int | None) -> dict[int, str] | None:
    """For a game of fixed pairs: the first seat of each pair -> its side in the game dealt by
    ``dealer`` (the dealer's pair defends, the other attacks: the facts' ``declarer`` side)."""
    if sheet.game not in _PAIR_GAMES or dealer is None:
        return None
    return {s: ("defenders" if dealer in (s, s + 1) else "declarer") for s in range(0, 4, 2)}


def _pair_items(row: _Row, col: _Column, side: str) -> list[dict[str, Any]]:
    """A pair's items: ``ITEM[+|-]`` separated by ``;``, the item by catalogue id or name;
    ``+`` made, ``-`` lost (an announced Schlemm or trophy), no sign for what is scored as it
    stands (a Meldung, a silent premium won)."""
    out: list[dict[str, Any]] = []
    names = {_fold(b): b for b in row.sheet.terms.bonuses}
    for b in row.sheet.terms.bonuses:
        names.setdefault(_fold(bonus_name(b, row.sheet.game)), b)
    for entry in _entries(row.cell(col)):
        sign = entry[-1] if entry[-1] in "+-" else ""
        key = _fold(entry[:-1] if sign else entry)
        item = names.get(key)
        if item is None:
            row.err(
                "sheet.cell",
                col.header,
                f"{entry!r} is no item of the catalogue (an id such as S_ENGEL or a name such as "
                "Engel, then + made or - lost)",
            )
            continue
        fact: dict[str, Any] = {"bonus": item, "side": side}
        if sign:
            fact["announced"] = True
        if sign == "-":
            fact["made"] = False
        out.append(fact)
    return out


def _double(row: _Row, col: _Column) -> int | None:
    """The double-round marker: empty or ``1`` (a single game), ``x2``/``×2``/``2``, or stars
    (``*`` ×2, ``**`` ×4)."""
    text = row.cell(col).strip().lower()
    if not text:
        return None
    m_d = _DOUBLE_RE.match(text)
    r = None if m_d is None else (2 ** len(m_d["stars"]) if m_d["stars"] else int(m_d["r"]))
    if r is None or r < 1 or r & (r - 1):
        row.err("sheet.cell", col.header, f"{text!r}: mark a double round x2, x4 ... or * (×2)")
        return None
    return r


def _radelci(row: _Row, col: _Column) -> int | None:
    """A count, or circles as drawn on the sheet (``o``, ``○``; a crossed-out ``⊗``/``x``
    counts nothing)."""
    text = row.cell(col)
    if not text:
        return None
    if text.isdigit():
        return int(text)
    if all(ch in "oO○◯⊗xX-" for ch in text.replace(" ", "")):
        return sum(ch in "oO○◯" for ch in text)
    row.err("sheet.number", col.header, f"{text!r}: write the radelci as a number or as circles")
    return None


def _placement(row: _Row, sheet: _Sheet) -> list[float] | None:
    out: list[float] = [0.0] * len(sheet.players)
    for c in sheet.columns:
        if c.kind == "written" and c.seat is not None:
            v = row.number(c, allow_float=True)
            if v is None and not row.errors:
                row.err("sheet.number", c.header, "the placement points are missing")
            for s in _seats_of(sheet, c.seat):
                out[s] = float(v or 0)
    return out


def _session(
    sheet: _Sheet,
    hands: list[dict[str, Any]],
    placement: list[float] | None,
    out: SheetImport,
) -> m.Session | None:
    meta = sheet.meta
    event: dict[str, Any] = {}
    for key, target in (
        ("tournament", "tournament"),
        ("event", "name"),
        ("date", "date"),
        ("site", "site"),
        ("table", "table"),
    ):
        if meta.get(key):
            event[target] = meta[key]
    if meta.get("round"):
        try:
            event["round"] = int(meta["round"])
        except ValueError:
            out.errors.append(
                SheetError("sheet.meta", f"round {meta['round']!r} is not a number", sheet.file)
            )
    sid = meta.get("session")
    if not sid:
        stem = Path(sheet.file).name.split(".")[0] or "sheet"
        if event.get("tournament") and event.get("round") and event.get("table"):
            sid = f"{event['tournament']}-r{event['round']}-{event['table']}"
        else:
            sid = stem
    doc: dict[str, Any] = {
        "format": m.FORMAT_NAME,
        "format_version": m.VERSION_1_1,
        "id": sid,
        "game": sheet.game,
        "ruleset": sheet.ruleset.id,
        "players": [
            {"id": pid, "name": name} | _pair_role(sheet, s)
            for s, (pid, name) in enumerate(sheet.players)
        ],
        "hands": hands,
        "source": {"importer": "scoresheet", "original_id": Path(sheet.file).name},
    }
    if event:
        doc["event"] = event
    if hands:
        doc["first_dealer"] = hands[0]["dealer"] if hands[0]["number"] == 1 else None
        if doc["first_dealer"] is None:
            del doc["first_dealer"]
    if placement is not None:
        doc["recorded"] = {"placement_points": [int(p) if p == int(p) else p for p in placement]}
    try:
        return m.SessionAdapter.validate_python(doc)
    except ValidationError as exc:
        for e in exc.errors(include_url=False):
            where = ".".join(str(x) for x in e["loc"])
            out.errors.append(SheetError("sheet.schema", f"{where}: {e['msg']}", sheet.file))
        return None


def _pair_role(sheet: _Sheet, seat: int) -> dict[str, str]:
    """A game of fixed pairs: the pair (``A`` the first of the header, ``B`` the second) and
    the role (the first name of a pair column is the Abfänger, the second the Eintreiber)."""
    if sheet.game not in _PAIR_GAMES:
        return {}
    return {"pair": "AB"[seat // 2], "role": ("abfaenger", "eintreiber")[seat % 2]}


def import_sheet(path: str | Path, overrides: Mapping[str, str] | None = None) -> SheetImport:
    """Read the score sheet at ``path`` (UTF-8, a byte-order mark allowed)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        return SheetImport(
            str(p), None, [SheetError("sheet.cell", f"not UTF-8 text: {exc}", str(p))]
        )
    return read_sheet(text, name=str(p), overrides=overrides)


def import_sheets(
    paths: Iterable[str | Path], overrides: Mapping[str, str] | None = None
) -> list[SheetImport]:
    """Every sheet of ``paths``, in order."""
    return [import_sheet(p, overrides) for p in paths]
