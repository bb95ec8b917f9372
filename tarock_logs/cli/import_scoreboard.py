"""``tarock import scoreboard FILE.json [...] [-o OUT.jsonl]`` and ``tarock import cup FILE.tsv
[...] [-o OUT.jsonl]``: the built-in importers that run through the plug-in interface (their
``convert``; docs/importers.md). Every record that cannot be converted is reported on stderr as
``FILE:RECORD: field 'NAME': CODE: message``. Exit 0 when every record converted, 1 when one
was rejected, 2 on usage errors."""

from __future__ import annotations

from pathlib import Path

import typer

from tarock_logs.cli.common import import_app
from tarock_logs.cli.import_plugins import run_importer

_FILES = typer.Argument(..., help="The files to convert.")
_OUTPUT = typer.Option(
    None, "-o", "--output", help="Output log (.jsonl); default: JSONL on stdout."
)
_QUIET = typer.Option(False, "--quiet", "-q", help="No summary line on stderr.")


@import_app.command("scoreboard")
def import_scoreboard(
    files: list[Path] = _FILES, output: Path | None = _OUTPUT, quiet: bool = _QUIET
) -> None:
    """Convert games of the tarok scoreboard app (JSON) into sessions of facts-only hands."""
    run_importer("scoreboard", files, output, quiet)


@import_app.command("cup")
def import_cup(
    files: list[Path] = _FILES, output: Path | None = _OUTPUT, quiet: bool = _QUIET
) -> None:
    """Convert tarock cup results (TSV) into sessions of recorded round totals."""
    run_importer("cup", files, output, quiet)
