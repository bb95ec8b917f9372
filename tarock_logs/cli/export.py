"""``tarock export``: every table of the store to Parquet (partitioned by game) or CSV."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Annotated

import orjson
import typer

from tarock_logs.cli.common import ExitCode, app, fail
from tarock_logs.store.paths import DB_ENV, DEFAULT_DB


class ExportTo(str, Enum):
    parquet = "parquet"
    csv = "csv"


@app.command()
def export(
    out_dir: Annotated[Path, typer.Argument(help="Folder to write (created; must be empty).")],
    to: Annotated[ExportTo, typer.Option("--to", help="parquet (partitioned by game) or csv.")],
    db: Annotated[Path, typer.Option("--db", envvar=DB_ENV, help="DuckDB file to read.")] = Path(
        DEFAULT_DB
    ),
    overwrite: Annotated[
        bool, typer.Option("--overwrite", help="Write into a non-empty folder.")
    ] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the row counts as JSON.")] = False,
) -> None:
    """Export every table of the database (read-only) to OUT_DIR."""
    from tarock_logs.store.read.export import ExportError
    from tarock_logs.store.read.export import export as run_export

    try:
        rows = run_export(db, to.value, out_dir, overwrite=overwrite)
    except ExportError as exc:
        raise fail(str(exc), ExitCode.USAGE) from exc
    if json_out:
        sys.stdout.write(
            orjson.dumps({"to": to.value, "dir": str(out_dir), "rows": rows}).decode() + "\n"
        )
    else:
        total = sum(rows.values())
        sys.stdout.write(f"exported {len(rows)} tables ({total} rows) to {out_dir} as {to.value}\n")
