"""Austrian tarock cup results pasted as TSV → sessions of recorded round totals.

A cup's results list (Zwanzigerrufen or Königrufen cups) gives per player his number, his
name and his score in each round (three, usually), often the sum; the draw of the tables may
be given as a table column per round. That is all it holds: no hand, no game of a round. So
the importer writes what the list honestly holds: for each round and table, one session of
the players drawn to it (seated by player number) with their round scores as the session's
recorded totals (``recorded.totals``) and no hands; the tournament, its name and date as the
event. Nothing of it can be recomputed (the audit says the session has no hands); the one
piece of arithmetic a list carries, the sum column, is checked here (``cup.sum``), row by row.

The layout (docs/importers.md, "cup"): optional ``# key: value`` lines (``game``,
``tournament``, ``event``, ``date``), then a header, tab-separated: ``Nr``, ``Name``, a score
column per round (``R1``, ``Runde 1``, ``1. Runde``), optionally a table column per round
(``T1``, ``Tisch 1``, ``R1 Tisch``) and the sum (``Summe``, ``Gesamt``, ``Total``). Every bad
cell is a located :class:`Reject` (file, line, column): its row is left out of the sessions.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from tarock_logs.log import models as m
from tarock_logs.rules import get_engine
from tarock_logs.tools.importers import Conversion, Reject

__all__ = ["CODES", "convert"]

VERSION = "1"

CODES: Mapping[str, str] = {
    "cup.file": "the file is not UTF-8 text, or holds no header",
    "cup.meta": "a `# key: value` line names an unknown key or a bad value",
    "cup.game": "a game the log format has no engine for (Königrufen), or an unknown one",
    "cup.header": "the header lacks Nr, Name or a round, names a column twice, or an unknown one",
    "cup.tables": "no table column for a round: the players of a table are not known",
    "cup.number": "a cell that must be a whole number is not one (a score, a player number)",
    "cup.player": "a player number used twice, or a row without a name",
    "cup.sum": "the sum column is not the sum of the row's round scores",
    "cup.table_size": "a table of a round has a number of players the game is not played with",
    "cup.schema": "the session made of a table is not a valid log session",
}

_META = frozenset({"game", "tournament", "event", "date"})
_GAMES: Mapping[str, str] = {
    "zwanzigerrufen": "zwanzigerrufen",
    "zwanzigerruf": "zwanzigerrufen",
    "20errufen": "zwanzigerrufen",
}
_NOT_LOG_GAMES = frozenset({"koenigrufen", "konigrufen", "königrufen", "koenigsrufen"})
_NR = frozenset({"nr", "nr.", "no", "no.", "nummer", "startnummer", "stnr", "#"})
_NAME = frozenset({"name", "spieler", "spielerin", "player"})
_SUM = frozenset({"summe", "gesamt", "total", "sum", "punkte gesamt"})
_ROUND = re.compile(r"^(?:r|runde|round)\s*(\d)$|^(\d)\.?\s*(?:runde|round)$")
_TABLE = re.compile(
    r"^(?:t|tisch|table)\s*(\d)$|^(?:r|runde|round)\s*(\d)\s*(?:tisch|table)$"
    r"|^(\d)\.?\s*(?:runde|round)\s*(?:tisch|table)$"
)
_INT = re.compile(r"^[+\-−]?\d{1,6}$")


def _fold(text: str) -> str:
    t = " ".join(text.split()).lower()
    return "".join(c for c in unicodedata.normalize("NFKD", t) if not unicodedata.combining(c))


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", ".", _fold(name)).strip(".") or "player"


def _num(text: str) -> int | None:
    t = text.strip().replace("−", "-")
    return int(t) if _INT.match(t) else None


def convert(paths: Sequence[Path]) -> Conversion:
    """Every results list of ``paths`` → its table sessions; never raises for bad input."""
    out = Conversion()
    for p in paths:
        _convert_file(Path(p), out)
    return out


def _convert_file(path: Path, out: Conversion) -> None:
    name = str(path)

    def reject(line: int, column: str | None, code: str, message: str) -> None:
        out.rejects.append(Reject(name, line, column, code, message))

    try:
        text = path.read_bytes().decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        reject(1, None, "cup.file", f"not UTF-8 text: {exc}")
        return
    meta: dict[str, str] = {}
    header: tuple[int, list[str]] | None = None
    rows: list[tuple[int, list[str]]] = []
    for i, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        if header is None and raw.lstrip().startswith("#"):
            mkey, _, value = raw.strip()[1:].partition(":")
            k = mkey.strip().lower()
            if k not in _META:
                reject(
                    i, None, "cup.meta", f"unknown key {k!r} (known: {', '.join(sorted(_META))})"
                )
            else:
                meta[k] = value.strip()
            continue
        cells = raw.split("\t")
        if header is None:
            header = (i, cells)
        else:
            rows.append((i, cells))
    game_text = _fold(meta.get("game", "zwanzigerrufen"))
    if game_text in _NOT_LOG_GAMES:
        reject(1, None, "cup.game", f"{meta['game']!r}: the log format has no Königrufen engine "
               "or game yet: nothing imported")  # fmt: skip
        return
    game = _GAMES.get(game_text)
    engine = get_engine(game) if game else None
    if game is None or engine is None:
        reject(1, None, "cup.game", f"unknown game {meta.get('game')!r}")
        return
    ruleset = engine.ruleset(engine.default_ruleset)
    if header is None:
        reject(1, None, "cup.file", "no header row")
        return
    hline, hcells = header
    cols: dict[str, int] = {}
    rounds: dict[int, int] = {}
    tables: dict[int, int] = {}
    for i, raw in enumerate(hcells):
        h = _fold(raw)
        if not h:
            continue
        rm, tm = _ROUND.match(h), _TABLE.match(h)
        key: str | None = None
        if h in _NR:
            key = "nr"
        elif h in _NAME:
            key = "name"
        elif h in _SUM:
            key = "sum"
        elif tm:
            key = f"t{next(g for g in tm.groups() if g)}"
        elif rm:
            key = f"r{next(g for g in rm.groups() if g)}"
        if key is None:
            reject(hline, raw.strip(), "cup.header", f"unknown column {raw.strip()!r} (Nr, Name, "
                   "R1…, T1…, Summe)")  # fmt: skip
            continue
        if key in cols:
            reject(hline, raw.strip(), "cup.header", f"column {raw.strip()!r} appears twice")
            continue
        cols[key] = i
        if key[0] == "r" and key != "r":
            rounds[int(key[1:])] = i
        elif key[0] == "t":
            tables[int(key[1:])] = i
    missing = [c for c in ("nr", "name") if c not in cols] + ([] if rounds else ["R1"])
    if missing:
        reject(hline, None, "cup.header", f"the header has no {', '.join(missing)} column")
        return
    no_tables = sorted(set(rounds) - set(tables))
    for r in no_tables:
        reject(hline, None, "cup.tables", f"round {r} has no table column (T{r}): the players "
               "of its tables are not known, so its scores make no session")  # fmt: skip

    def cell(cells: list[str], idx: int) -> str:
        return cells[idx].strip() if idx < len(cells) else ""

    players: list[
        tuple[int, str, dict[int, tuple[str, int]]]
    ] = []  # nr, name, round->(table, score)
    numbers: set[int] = set()
    for line, cells in rows:
        bad = False
        nr = _num(cell(cells, cols["nr"]))
        if nr is None or nr < 1:
            reject(line, hcells[cols["nr"]].strip(), "cup.number",
                   f"{cell(cells, cols['nr'])!r} is not a player number")  # fmt: skip
            bad = True
        elif nr in numbers:
            reject(line, hcells[cols["nr"]].strip(), "cup.player", f"player number {nr} is "
                   "used by an earlier row")  # fmt: skip
            bad = True
        if nr is not None:
            numbers.add(nr)
        pname = cell(cells, cols["name"])
        if not pname:
            reject(line, hcells[cols["name"]].strip(), "cup.player", "no name")
            bad = True
        scores: dict[int, int] = {}
        for r, idx in sorted(rounds.items()):
            v = _num(cell(cells, idx))
            if v is None:
                reject(line, hcells[idx].strip(), "cup.number",
                       f"{cell(cells, idx)!r} is not a score")  # fmt: skip
                bad = True
            else:
                scores[r] = v
        seats: dict[int, tuple[str, int]] = {}
        for r, idx in sorted(tables.items()):
            t = cell(cells, idx)
            if not re.fullmatch(r"[A-Za-z0-9]{1,32}", t):
                reject(line, hcells[idx].strip(), "cup.number", f"{t!r} is not a table")
                bad = True
            elif r in scores:
                seats[r] = (t, scores[r])
        if "sum" in cols and not bad:
            s = _num(cell(cells, cols["sum"]))
            if s is None:
                reject(line, hcells[cols["sum"]].strip(), "cup.number",
                       f"{cell(cells, cols['sum'])!r} is not a number")  # fmt: skip
            elif s != sum(scores.values()):
                reject(line, hcells[cols["sum"]].strip(), "cup.sum", f"{pname}: the sum "
                       f"{s} is not the rounds' {sum(scores.values())}")  # fmt: skip
        if bad or nr is None:
            continue
        players.append((nr, pname[:128], seats))
    ids: dict[int, str] = {}
    slugs: dict[str, int] = {}
    for _nr, pname, _ in players:
        slugs[_slug(pname)] = slugs.get(_slug(pname), 0) + 1
    for nr, pname, _ in players:
        sl = _slug(pname)[:56]
        ids[nr] = sl if slugs[_slug(pname)] == 1 else f"{sl}.{nr}"
    tour = meta.get("tournament") or path.stem
    sizes = engine.table_sizes(ruleset)
    for r in sorted(tables):
        if r not in rounds:
            continue
        by_table: dict[str, list[tuple[int, str, int]]] = {}
        for nr, pname, seats in sorted(players):
            if r in seats:
                t, score = seats[r]
                by_table.setdefault(t, []).append((nr, pname, score))
        for t, at in sorted(by_table.items(), key=lambda x: (len(x[0]), x[0])):
            if len(at) not in sizes:
                who = ", ".join(str(x[0]) for x in at)
                played = ", ".join(map(str, sizes))
                reject(hline, f"T{r}", "cup.table_size", f"round {r}, table {t}: {len(at)} "
                       f"player(s) ({who}); {game} is played by {played}")  # fmt: skip
                continue
            doc: dict[str, Any] = {
                "format": m.FORMAT_NAME,
                "format_version": m.FORMAT_VERSION,
                "id": f"cup-{_slug(tour)}-r{r}-t{t}"[:128],
                "game": game,
                "ruleset": ruleset.id,
                "event": {"tournament": tour[:200], "round": r, "table": t},
                "players": [{"id": ids[nr], "name": pname} for nr, pname, _ in at],
                "hands": [],
                "recorded": {"totals": [score for _, _, score in at]},
                "source": {
                    "importer": "cup",
                    "software": f"cup results TSV (tarock-logs importer {VERSION})",
                    "original_id": f"{path.name}:R{r}:T{t}",
                },
                "notes": "a cup results list: each player's score for the round at this table "
                "(seated by player number); no hands are recorded, so nothing is recomputed",
            }
            if meta.get("event"):
                doc["event"]["name"] = meta["event"][:200]
            if meta.get("date"):
                doc["event"]["date"] = meta["date"]
            try:
                m.SessionAdapter.validate_python(doc)
            except ValidationError as exc:
                e = exc.errors(include_url=False)[0]
                where = ".".join(str(x) for x in e["loc"])
                reject(1, where or None, "cup.schema", e["msg"])
                continue
            out.sessions.append(doc)
