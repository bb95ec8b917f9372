"""``tarock duplicate``: the deals played at several tables side by side, and the players'
duplicate ranking by match points (:mod:`tarock_logs.store.read.duplicate`, docs/duplicate.md)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer

from tarock_logs.cli.common import ExitCode, app, fail
from tarock_logs.store.paths import DB_ENV, DEFAULT_DB


class DuplicateFormat(str, Enum):
    text = "text"
    json = "json"


def _score(v: Any) -> str:
    if v is None:
        return "—"
    return f"{v:+d}" if v else "0"


def _who(d: dict[str, Any] | None) -> str:
    return "—" if d is None else f"{d['name']} (P{d['position']})"


def _result(won: bool | None) -> str:
    return "—" if won is None else ("won" if won else "lost")


def _grid(headers: list[str], rows: list[list[str]], left: set[int]) -> list[str]:
    """Rows of text in aligned columns (two spaces apart; the columns in ``left`` flush left,
    the others right). Plain text: rich's tables cost ≈ 35 ms each, a thousand deals 38 s."""
    widths = [max(len(r[i]) for r in [headers, *rows]) for i in range(len(headers))]

    def fmt(row: list[str]) -> str:
        cells = [c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in
                 enumerate(zip(row, widths, strict=True))]  # fmt: skip
        return "  ".join(cells).rstrip()

    return [fmt(headers), "  ".join("-" * w for w in widths), *(fmt(r) for r in rows)]


def _text(report: dict[str, Any]) -> str:
    from tarock_logs.report.text import contract_name

    deals = report["deals"]
    if not deals:
        where = f" of {report['event']}" if report["event"] else ""
        return f"no deal{where} was played at more than one table\n"
    out: list[str] = []
    for b in deals:
        game, size = b["game"], b["table_size"]
        out.append(
            f"Deal {b['deal']} · {game} · {b['ruleset']} · {b['tables']} tables · "
            f"key {b['deal_key'][:12]}"
        )
        headers = ["round", "table", "hand", "contract", "declarer", "result"]
        headers += [f"P{p}" for p in range(1, size + 1)]
        rows = []
        for line in b["lines"]:
            scores = {s["position"]: s for s in line["seats"]}
            cells = [
                "—" if line["round"] is None else str(line["round"]),
                line["table"] or line["session_id"],
                str(line["hand_number"]),
                contract_name(line["contract"], game),
                _who(line["declarer"]),
                _result(line["won"]),
            ]
            for p in range(1, size + 1):
                s = scores.get(p)
                if s is None or s["match_points"] is None:
                    cells.append("—" if s is None else _score(s["score"]))
                else:
                    cells.append(
                        f"{_score(s['score'])} ({s['match_points']}/{s['max_match_points']})"
                    )
            rows.append(cells)
        out += _grid(headers, rows, {1, 3, 4, 5})
        best = b["best_line"]
        if best is not None:
            decl = best["declarer"]
            by = f" by {_who(decl)}" if decl else ""
            if decl is None or decl["position"] != best["position"]:
                by += f", {best['name']} (P{best['position']})"
            out.append(
                f"best line: table {best['table'] or best['session_id']}, "
                f"{contract_name(best['contract'], game)}{by}: {_score(best['score'])}"
            )
        out.append("")
    for game in dict.fromkeys(r["game"] for r in report["ranking"]):
        out.append(f"{game}: duplicate ranking (match points)")
        rows = [
            [str(r["rank"]), r["name"], r["player_id"], str(r["hands"]), str(r["match_points"]),
             str(r["max_match_points"]), f"{r['percentage']:.2f}"]
            for r in report["ranking"] if r["game"] == game
        ]  # fmt: skip
        headers = ["rank", "name", "player_id", "hands", "match points", "maximum", "%"]
        out += _grid(headers, rows, {1, 2})
        out.append("2 per score beaten and 1 per tie by the others who held the same cards")
        out.append("")
    return "\n".join(out)


@app.command("duplicate")
def duplicate_command(
    db: Annotated[Path, typer.Option("--db", envvar=DB_ENV, help="DuckDB file to read.")] = Path(
        DEFAULT_DB
    ),
    event: Annotated[
        str | None,
        typer.Option("--event", help="Event name or tournament id (default: the whole store)."),
    ] = None,
    fmt: Annotated[
        DuplicateFormat, typer.Option("--format", help="Output format.")
    ] = DuplicateFormat.text,
) -> None:
    """The deals played at more than one table (the same cards to the same positions round
    the dealer, and the same talon), each table's contract, declarer, result and scores side
    by side with the best-scoring line, and the players' duplicate ranking: each hand's score
    against the others who held the same cards, 2 match points per score beaten and 1 per
    tie, as a percentage of the maximum (docs/duplicate.md)."""
    import duckdb

    from tarock_logs.store import connect_readonly
    from tarock_logs.store.read.duplicate import NoSuchEvent, duplicate_report

    try:
        con = connect_readonly(db)
    except FileNotFoundError:
        raise fail(
            f"no database at {db}: run `tarock ingest PATH --db {db}` first", ExitCode.USAGE
        ) from None
    except duckdb.Error as exc:
        raise fail(f"cannot open {db}: {exc}", ExitCode.DB) from exc
    try:
        report = duplicate_report(con, event)
    except NoSuchEvent:
        raise fail(f"--event {event}: no stored session of that event or tournament") from None
    except duckdb.Error as exc:
        raise fail(f"cannot read {db}: {exc}", ExitCode.DB) from exc
    finally:
        con.close()
    if fmt is DuplicateFormat.json:
        sys.stdout.write(orjson.dumps(report).decode() + "\n")
        return
    sys.stdout.write(_text(report))
