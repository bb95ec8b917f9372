"""``tarock stats``: player, role, contract, bonus, kontra, synergy and over-time statistics."""

from __future__ import annotations

import dataclasses
import datetime as dt
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import orjson
import typer
from rich.console import Console
from rich.table import Table

from tarock_logs.cards import GAMES
from tarock_logs.cli.common import ExitCode, app, fail
from tarock_logs.store.paths import DB_ENV, DEFAULT_DB

if TYPE_CHECKING:
    import polars as pl


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


#: the column types whose JSON polars writes as ``orjson`` does (integers too): text, booleans,
#: 64-bit floats (shortest round-trip form, NaN and infinities as null) and dates (ISO)
_POLARS_JSON = frozenset({"String", "Boolean", "Float64", "Date"})


def _json_rows(df: pl.DataFrame, out: Any) -> None:
    """Write the rows of ``df`` to the binary file ``out`` as a JSON array of objects, byte
    for byte what ``orjson.dumps(df.to_dicts(), default=str)`` gives, without a Python object
    per value: polars writes a frame of the column types in :data:`_POLARS_JSON` (and
    integers), any other goes through ``to_dicts`` (pinned by ``tests/cli/test_stats_cli.py``)."""
    if df.width and all(t.is_integer() or str(t) in _POLARS_JSON for t in df.dtypes):
        df.write_json(out)
    else:
        out.write(orjson.dumps(_jsonable(df), default=str))


def _write_json(filters: dict[str, Any], frames: dict[str, pl.DataFrame]) -> None:
    """The ``--format json`` document, ``{"filters": …, "min_sample": …, SECTION: [rows], …}``
    and a newline, written to stdout a section at a time, each frame dropped once written
    (at a million hands the ``time`` section alone is 250,000 rows: as one Python structure
    it took more time and memory than its queries)."""
    import io

    from tarock_logs.store.read import stats as st

    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    out = buffer if buffer is not None else io.BytesIO()
    out.write(b'{"filters":' + orjson.dumps(filters, default=str))
    out.write(b',"min_sample":' + orjson.dumps(st.MIN_SAMPLE))
    for name in list(frames):
        out.write(b"," + orjson.dumps(name) + b":")
        _json_rows(frames.pop(name), out)
    out.write(b"}\n")
    out.flush()
    if buffer is None:  # a stdout without a byte buffer (a program embedding the command)
        sys.stdout.write(out.getvalue().decode())


#: the columns ``--format table`` shows by default, per section (``--columns`` shows others;
#: json and csv always carry every column): names rather than ids, counts and rates
DEFAULT_COLUMNS: dict[str, tuple[str, ...]] = {
    "players": (
        "name", "hands", "won", "win_rate", "avg_score", "contracts_played", "contracts_won",
        "bonuses_made", "kontras_given", "radelci_earned", "enough",
    ),
    "roles": ("name", "role", "hands", "won", "win_rate", "avg_score", "enough"),
    "contracts": ("contract", "played", "won", "win_rate", "avg_declarer_score", "enough"),
    "bonuses": ("name", "bonus", "announced", "made", "success_rate", "enough"),
    "kontras": ("name", "target", "level", "given", "successful", "success_rate", "enough"),
    "synergy": (
        "name_a", "name_b", "hands", "won", "win_rate", "own_win_rate_a", "own_win_rate_b",
        "enough",
    ),
    "time": ("name", "date", "session_id", "hands", "score", "cumulative"),
}  # fmt: skip


def _columns(name: str, df: pl.DataFrame, asked: list[str]) -> list[str]:
    """The columns to show: ``--columns all``, the ones asked for (comma-separated or
    repeated; unknown names are a usage error), else the section's default set."""
    wanted = [c.strip() for arg in asked for c in arg.split(",") if c.strip()]
    if "all" in wanted:
        return list(df.columns)
    if wanted:
        unknown = [c for c in wanted if c not in df.columns]
        if unknown and len(wanted) == len(unknown):
            cols = ", ".join(df.columns)
            raise fail(f"no column {', '.join(unknown)} in {name} (columns: {cols})")
        return [c for c in wanted if c in df.columns]
    default = [c for c in DEFAULT_COLUMNS.get(name, ()) if c in df.columns]
    return default or list(df.columns)


def _cell(column: str, v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        return f"{100 * v:.1f}%" if column.endswith("rate") else f"{v:.1f}"
    return str(v)


#: the rows ``--format table`` shows per section by default (``--limit``)
TABLE_LIMIT = 50


def _print_table(
    name: str, df: pl.DataFrame, console: Console, columns: list[str], limit: int = 0
) -> None:
    """One section as a table: its first ``limit`` rows (0: all), then how many were left out
    and how to see them (a store of a million hands has a quarter of a million rows of
    scores over time: drawn whole, the table took minutes and a gigabyte)."""
    t = Table(title=name, title_justify="left")
    for c in columns:
        t.add_column(c.replace("_", " "), justify="right" if df[c].dtype.is_numeric() else "left")
    shown = df.head(limit) if limit else df
    for row in shown.select(columns).iter_rows():
        t.add_row(*[_cell(c, v) for c, v in zip(columns, row, strict=True)])
    console.print(t)
    if shown.height < df.height:
        console.print(
            f"{name}: {df.height - shown.height:,} more rows not shown (--limit 0 shows "
            "every row; --format json or csv writes them all)",
            markup=False,
            highlight=False,
        )


def _drill_args(items: list[str]) -> dict[str, Any]:
    """``["won=true", "partner=ana"]`` → ``{"won": True, "partner": "ana"}`` (Drill fields)."""
    from tarock_logs.store.read import stats as st

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
    game: Annotated[str | None, typer.Option("--game", help=", ".join(GAMES))] = None,
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
    columns: Annotated[
        list[str],
        typer.Option(
            "--columns",
            help="With --format table: the columns to show (comma-separated or repeated; "
            "'all' for every one). Default: a readable set per section.",
        ),
    ] = [],  # noqa: B006 - typer needs a literal default
    limit: Annotated[
        int,
        typer.Option(
            "--limit",
            min=0,
            help="With --format table: the rows shown per section (0: every row; json and "
            "csv always write every row).",
        ),
    ] = TABLE_LIMIT,
) -> None:
    """Statistics of the stored hands; every filter also applies to `--hands` (drill-down).
    Rates come with `enough` (at least 10 hands) so thin samples are visible."""
    import duckdb

    from tarock_logs.store import connect_readonly
    from tarock_logs.store.read import stats as st

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
        filters = {
            k: (str(v) if isinstance(v, dt.date) else v) for k, v in dataclasses.asdict(f).items()
        }
        _write_json(filters, frames)
    else:
        # not a terminal: as wide as the table needs (nothing wrapped or cut)
        console = Console(file=sys.stdout, width=None if sys.stdout.isatty() else 100_000)
        for name, df in frames.items():
            _print_table(name, df, console, _columns(name, df, columns), limit)
