"""``tarock schema``: export the JSON Schema files of log format v1."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tarock_logs.cli.common import ExitCode, app, fail


@app.command()
def schema(
    out: Annotated[Path, typer.Option("--out", help="folder to write *.schema.json into")] = Path(
        "schemas"
    ),
) -> None:
    """Write schemas/session.schema.json, hand.schema.json and action.schema.json."""
    from tarock_logs.log.schema import write_schemas

    if out.exists() and not out.is_dir():
        raise fail(f"--out {out} is a file, not a folder")
    for p in write_schemas(out):
        typer.echo(str(p))
    raise typer.Exit(int(ExitCode.OK))
