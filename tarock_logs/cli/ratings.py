"""``tarock ratings``: each player's rating per game, recomputed from the store
(:mod:`tarock_logs.store.read.ratings`: openskill's Plackett-Luce model over table sessions by
placement)."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import orjson
import typer
from rich.console import Console
from rich.table import Table

from tarock_logs.cards import GAMES
from tarock_logs.cli.common import ExitCode, app, fail
from tarock_logs.store.paths import DB_ENV, DEFAULT_DB


class RatingsFormat(str, Enum):
    table = "table"
    json = "json"


@app.command("ratings")
def ratings_command(
    db: Annotated[Path, typer.Option("--db", envvar=DB_ENV, help="DuckDB file to read.")] = Path(
        DEFAULT_DB
    ),
    game: Annotated[
        str | None,
        typer.Option("--game", help=f"{', '.join(GAMES)} (default: each)"),
    ] = None,
    fmt: Annotated[
        RatingsFormat, typer.Option("--format", help="Output format.")
    ] = RatingsFormat.table,
    history: Annotated[
        bool, typer.Option("--history", help="JSON: add every rating after every session.")
    ] = False,
) -> None:
    """Each player's rating per game from table sessions by placement (openskill
    Plackett-Luce; rating = mu - 3 sigma), recomputed from the store: the same store gives
    the same ratings."""
    if game is not None and game not in GAMES:
        raise fail(f"--game must be one of {', '.join(GAMES)}", ExitCode.USAGE)
    import duckdb

    from tarock_logs.store import connect_readonly
    from tarock_logs.store.read.ratings import METHOD, read_ratings

    try:
        con = connect_readonly(db)
    except FileNotFoundError:
        raise fail(
            f"no database at {db}: run `tarock ingest PATH --db {db}` first", ExitCode.USAGE
        ) from None
    except duckdb.Error as exc:
        raise fail(f"cannot open {db}: {exc}", ExitCode.DB) from exc
    try:
        result = read_ratings(con, game)  # as stored at ingest (else recomputed)
    finally:
        con.close()
    if fmt is RatingsFormat.json:
        doc: dict[str, object] = {
            "game": game,
            "method": METHOD,
            "ratings": result.current.to_dicts(),
        }
        if history:
            doc["history"] = result.history.to_dicts()
        sys.stdout.write(orjson.dumps(doc, default=str).decode() + "\n")
        return
    console = Console(file=sys.stdout, width=160)
    for (g,), part in result.current.group_by(["game"], maintain_order=True):
        table = Table(title=f"{g}: ratings", title_justify="left", caption=METHOD)
        for col in ("rank", "name", "player_id", "rating", "mu", "sigma", "sessions"):
            table.add_column(col, justify="left" if col in ("name", "player_id") else "right")
        for r in part.iter_rows(named=True):
            table.add_row(
                str(r["rank"]), r["name"], r["player_id"], f"{r['rating']:.2f}",
                f"{r['mu']:.2f}", f"{r['sigma']:.2f}", str(r["sessions"]),
            )  # fmt: skip
        console.print(table)
    if result.current.is_empty():
        console.print("no rated sessions" + (f" of {game}" if game else ""))
