"""Shared CLI plumbing: the Typer app, exit codes and output helpers."""

from __future__ import annotations

import os
import sys
from enum import IntEnum

import typer
from rich.console import Console

app = typer.Typer(
    name="tarock",
    help="Validate, replay, audit, store and explore recorded tarock games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
import_app = typer.Typer(help="Convert logs from other programs into the tarock log format.")
app.add_typer(import_app, name="import")

#: Diagnostics go to stderr; data goes to stdout.
err_console = Console(stderr=True, no_color=bool(os.environ.get("NO_COLOR")))


class ExitCode(IntEnum):
    """Process exit codes, the same for every command."""

    OK = 0
    FINDINGS = 1  # invalid input, illegal actions or score differences found
    USAGE = 2
    INTERNAL = 3
    DB = 4
    INTERRUPT = 130


def progress_enabled(quiet: bool, fmt: str) -> bool:
    """A progress bar only for people: stderr is a TTY, not quiet, and a human format."""
    return (not quiet) and fmt in ("table",) and sys.stderr.isatty()


def fail(message: str, code: ExitCode = ExitCode.USAGE) -> typer.Exit:
    """Print ``tarock: message`` on stderr and return the Exit to raise."""
    err_console.print(f"tarock: {message}", markup=False, highlight=False)
    return typer.Exit(int(code))
