"""``tarock duplicate``: the deals played at several tables side by side, and the players'
duplicate ranking by match points (:mod:`tarock_logs.store.duplicate`, docs/duplicate.md)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import orjson
import typer
from rich.console import Console
from rich.table import Table

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


def _print_text(report: dict[str, Any], console: Console) -> None:
    from tarock_logs.report.text import contract_name

    deals = report["deals"]
    if not deals:
        where = f" of {report['event']}" if report["event"] else ""
        console.print(f"no deal{where} was played at more than one table", markup=False)
        return
    for b in deals:
        game = b["game"]
        table = Table(
            title=(
                f"Deal {b['deal']} · {game} · {b['ruleset']} · {b['tables']} tables · "
                f"key {b['deal_key'][:12]}"
            ),
            title_justify="left",
        )
        for col in ("round", "table", "hand", "contract", "declarer", "result"):
            table.add_column(col, justify="right" if col in ("round", "hand") else "left")
        for p in range(1, b["table_size"] + 1):
            table.add_column(f"P{p}", justify="right")
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
            for p in range(1, b["table_size"] + 1):
                s = scores.get(p)
                if s is None or s["match_points"] is None:
                    cells.append("—" if s is None else _score(s["score"]))
                else:
                    cells.append(
                        f"{_score(s['score'])} ({s['match_points']}/{s['max_match_points']})"
                    )
            table.add_row(*cells)
        best = b["best_line"]
        if best is not None:
            decl = best["declarer"]
            by = f" by {_who(decl)}" if decl else ""
            if decl is None or decl["position"] != best["position"]:
                by += f", {best['name']} (P{best['position']})"
            table.caption = (
                f"best line: table {best['table'] or best['session_id']}, "
                f"{contract_name(best['contract'], game)}{by}: {_score(best['score'])}"
            )
            table.caption_justify = "left"
        console.print(table)
    games = list(dict.fromkeys(r["game"] for r in report["ranking"]))
    for game in games:
        table = Table(
            title=f"{game}: duplicate ranking (match points)",
            title_justify="left",
            caption="2 per score beaten and 1 per tie by the others who held the same cards",
            caption_justify="left",
        )
        for col in ("rank", "name", "player_id", "hands", "match points", "maximum", "%"):
            table.add_column(col, justify="left" if col in ("name", "player_id") else "right")
        for r in report["ranking"]:
            if r["game"] != game:
                continue
            table.add_row(
                str(r["rank"]), r["name"], r["player_id"], str(r["hands"]),
                str(r["match_points"]), str(r["max_match_points"]), f"{r['percentage']:.2f}",
            )  # fmt: skip
        console.print(table)


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
    from tarock_logs.store.duplicate import NoSuchEvent, duplicate_report

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
    _print_text(report, Console(file=sys.stdout, width=None if sys.stdout.isatty() else 200))
