"""``tarock stats``: player, role, contract, bonus, kontra, synergy and over-time statistics."""

from __future__ import annotations

import dataclasses
import datetime as dt
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import duckdb
import orjson
import polars as pl
import typer
from rich.console import Console
from rich.table import Table

from tarock_logs.cli.common import ExitCode, app, fail
from tarock_logs.store import connect_readonly
from tarock_logs.store import stats as st
from tarock_logs.store.ingest import DB_ENV, DEFAULT_DB


class StatsFormat(str, Enum):
    table = "table"
    json = "json"
    csv = "csv"


class Section(str, Enum):
    all = "all"
    players = "players"
    roles = "roles"
    contracts = "contracts"
    bonuses = "bonuses"
    kontras = "kontras"
    synergy = "synergy"
    time = "time"


def _date(value: str | None, opt: str) -> dt.date | None:
    if value is None:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        raise fail(f"{opt} expects a date YYYY-MM-DD, not {value!r}", ExitCode.USAGE) from None


def _jsonable(df: pl.DataFrame) -> list[dict[str, Any]]:
    return df.to_dicts()


def _print_table(name: str, df: pl.DataFrame, console: Console) -> None:
    t = Table(title=name, title_justify="left")
    for c in df.columns:
        t.add_column(c, justify="right" if df[c].dtype.is_numeric() else "left")
    for row in df.iter_rows():
        t.add_row(
            *["" if v is None else (f"{v:.3f}" if isinstance(v, float) else str(v)) for v in row]
        )
    console.print(t)


def _drill_args(items: list[str]) -> dict[str, Any]:
    """``["won=true", "partner=ana"]`` → ``{"won": True, "partner": "ana"}`` (Drill fields)."""
    out: dict[str, Any] = {}
    for item in items:
        key, sep, raw = item.partition("=")
        if not sep or key not in st.Drill.__dataclass_fields__ or key == "extra":
            names = ", ".join(k for k in st.Drill.__dataclass_fields__ if k != "extra")
            raise fail(f"--drill expects KEY=VALUE with KEY one of {names}", ExitCode.USAGE)
        low = raw.lower()
        value: Any = raw
        if low in ("true", "yes", "1") and key not in ("kontra_level",):
            value = True
        elif low in ("false", "no", "0") and key not in ("kontra_level",):
            value = False
        elif raw.isdigit():
            value = int(raw)
        out[key] = value
    return out


@app.command()
def stats(
    db: Annotated[Path, typer.Option("--db", envvar=DB_ENV, help="DuckDB file to read.")] = Path(
        DEFAULT_DB
    ),
    player: Annotated[str | None, typer.Option("--player", help="Player id or name.")] = None,
    game: Annotated[
        str | None, typer.Option("--game", help="slovenian, zwanzigerrufen, royal")
    ] = None,
    event: Annotated[
        str | None, typer.Option("--event", help="Event name or tournament id.")
    ] = None,
    date_from: Annotated[
        str | None, typer.Option("--from", help="First date (YYYY-MM-DD).")
    ] = None,
    date_to: Annotated[str | None, typer.Option("--to", help="Last date (YYYY-MM-DD).")] = None,
    role: Annotated[
        str | None, typer.Option("--role", help="declarer, partner, defender, klop")
    ] = None,
    contract: Annotated[str | None, typer.Option("--contract", help="Contract code.")] = None,
    section: Annotated[Section, typer.Option("--section", help="Which figures.")] = Section.all,
    hands: Annotated[
        bool, typer.Option("--hands", help="Drill down: list the hands behind the filters.")
    ] = False,
    drill: Annotated[
        list[str],
        typer.Option(
            "--drill",
            help="With --hands: KEY=VALUE of a figure, e.g. won=true, "
            "partner=ana, bonus=trula, made=true, kontra=true, mond=lost, renons=true, "
            "bid=true, radelc=earned.",
        ),
    ] = [],  # noqa: B006 - typer needs a literal default
    fmt: Annotated[
        StatsFormat, typer.Option("--format", help="Output format.")
    ] = StatsFormat.table,
) -> None:
    """Statistics of the stored hands; every filter also applies to `--hands` (drill-down).
    Rates come with `enough` (at least 10 hands) so thin samples are visible."""
    if role is not None and role not in st.ROLES:
        raise fail(f"--role must be one of {', '.join(st.ROLES)}", ExitCode.USAGE)
    f = st.Filters(
        player=player,
        game=game,
        event=event,
        date_from=_date(date_from, "--from"),
        date_to=_date(date_to, "--to"),
        role=role,
        contract=contract,
    )
    try:
        con = connect_readonly(db)
    except FileNotFoundError:
        raise fail(
            f"no database at {db}: run `tarock ingest PATH --db {db}` first", ExitCode.USAGE
        ) from None
    except duckdb.Error as exc:
        raise fail(f"cannot open {db}: {exc}", ExitCode.DB) from exc
    try:
        if hands:
            frames = {"hands": st.hands_for(con, f, **_drill_args(drill))}
        elif section is Section.all:
            frames = {name: fn(con, f) for name, fn in st.SECTIONS.items()}
        else:
            frames = {section.value: st.SECTIONS[section.value](con, f)}
    finally:
        con.close()
    if fmt is StatsFormat.csv:
        if len(frames) != 1:
            raise fail("--format csv writes one table: choose --section or --hands", ExitCode.USAGE)
        sys.stdout.write(next(iter(frames.values())).write_csv())
    elif fmt is StatsFormat.json:
        doc = {
            "filters": {
                k: (str(v) if isinstance(v, dt.date) else v)
                for k, v in dataclasses.asdict(f).items()
            },
            "min_sample": st.MIN_SAMPLE,
            **{name: _jsonable(df) for name, df in frames.items()},
        }
        sys.stdout.write(orjson.dumps(doc, default=str).decode() + "\n")
    else:
        console = Console(file=sys.stdout, width=200)
        for name, df in frames.items():
            _print_table(name, df, console)
