"""Shared CLI plumbing: the Typer app, exit codes and output helpers."""

from __future__ import annotations

import inspect
import os
import re
import sys
from enum import IntEnum
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from typer.core import TyperGroup

from tarock_logs.store.paths import LOCAL_CLUSTER

#: the exit codes as ``--help`` and the docs list them (:class:`ExitCode`)
EXIT_CODES_HELP = (
    "Exit codes: 0 ok; 1 findings (an error, a score difference, an input error); 2 usage "
    "(bad option, missing or empty path); 3 internal error; 4 database; 5 no finding, but not "
    "everything could be verified; 6 disk error while writing (nothing published); 130 "
    "interrupted."
)


class QuietHelpGroup(TyperGroup):
    """A command group whose ``--help`` flag defaults to False rather than None.

    Typer coerces a parameter's value through a pydantic ``TypeAdapter`` unless the value is
    already a bool; a group's unset ``--help`` is None, so ``tarock CMD --help`` paid for
    importing pydantic (and building an adapter) for nothing. With the default False the flag
    needs no coercion and the help reads the same."""

    def get_help_option(self, ctx: Any) -> Any:
        option = super().get_help_option(ctx)
        if option is not None and option.default is None:
            option.default = False
        return option


app = typer.Typer(
    cls=QuietHelpGroup,
    name="tarock",
    help="Validate, replay, audit, store and explore recorded tarock games.\n\n" + EXIT_CODES_HELP,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class _ImportGroup(QuietHelpGroup):
    """``tarock import``: its own commands, then (a name it does not have) the plug-in
    importer of that name (:mod:`tarock_logs.cli.import_plugins`; looked up only then)."""

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        cmd = super().get_command(ctx, cmd_name)
        if cmd is None:
            from tarock_logs.cli.import_plugins import plugin_command

            cmd = plugin_command(cmd_name)
        return cmd


import_app = typer.Typer(
    cls=_ImportGroup, help="Convert logs from other programs into the tarock log format."
)
app.add_typer(import_app, name="import")


def _reflow(text: str) -> str:
    """One paragraph per line: docstrings are wrapped at 100 columns in the source, and Typer
    keeps those line breaks inside the terminal's own wrapping (ragged help). A line that starts
    a list item (``- ``, ``* ``) or a line of its own (``\\b``) keeps its break."""
    paragraphs = []
    for para in inspect.cleandoc(text).split("\n\n"):
        lines = para.split("\n")
        if lines[0].startswith("\b"):
            paragraphs.append(para)
            continue
        out: list[str] = []
        for line in lines:
            if out and not line.lstrip().startswith(("- ", "* ")):
                out[-1] = f"{out[-1]} {line.strip()}"
            else:
                out.append(line.strip())
        paragraphs.append("\n".join(out))
    return "\n\n".join(paragraphs)


def reflow_help(typer_app: typer.Typer) -> None:
    """Give every command of ``typer_app`` (and of its sub-apps) its help text reflowed."""
    for info in typer_app.registered_commands:
        doc = info.help or (inspect.getdoc(info.callback) if info.callback else None)
        if doc:
            info.help = _reflow(doc)
    for group in typer_app.registered_groups:
        if group.typer_instance is not None:
            reflow_help(group.typer_instance)


#: Diagnostics go to stderr; data goes to stdout.
err_console = Console(stderr=True, no_color=bool(os.environ.get("NO_COLOR")))


def _print_version(value: bool) -> None:
    if value:
        from tarock_logs import __version__

        typer.echo(f"tarock-logs {__version__}")
        raise typer.Exit(0)


@app.callback()
def _main_options(
    version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print the version and exit.",
    ),
) -> None:
    """Validate, replay, audit, store and explore recorded tarock games."""


class ExitCode(IntEnum):
    """Process exit codes, the same for every command."""

    OK = 0
    FINDINGS = 1  # invalid input, illegal actions or score differences found
    USAGE = 2  # bad option, missing or empty path, unknown ruleset
    INTERNAL = 3
    DB = 4
    #: no finding, but something could not be verified (tarock audit: a hand, session or
    #: tournament is ``partial`` or ``unverified``)
    NOT_VERIFIED = 5
    IO = 6  # the disk: full, read-only or an I/O error while writing; nothing was published
    INTERRUPT = 130


def progress_enabled(quiet: bool, fmt: str) -> bool:
    """A progress bar only for people: stderr is a TTY, not quiet, and a human format."""
    return (not quiet) and fmt in ("table",) and sys.stderr.isatty()


def fail(message: str, code: ExitCode = ExitCode.USAGE) -> typer.Exit:
    """Print ``tarock: message`` on stderr, one line however narrow the terminal (scripts read
    it), and return the Exit to raise."""
    err_console.print(f"tarock: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(int(code))


def write_output(text: str, output: Path | None) -> str:
    """Write ``text`` to ``output`` (a temporary file beside it, then renamed over it: a
    reader never sees half of it) or to stdout for None or ``-``; where it went, as the
    summary line says it."""
    if output is None or str(output) == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return "stdout"
    tmp = output.with_name(output.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(output)
    return str(output)


def checked_paths(args: list[str]) -> list[Path]:
    """The paths of a command line, each an existing file or folder: an empty argument or a
    path that does not exist is a usage error (exit 2) rather than a silent audit of
    nothing (or of the current folder: ``Path("")`` is ``.``)."""
    if any(not a.strip() for a in args):
        raise fail("an empty path was given")
    paths = [Path(a) for a in args]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise fail(f"no such file or folder: {', '.join(missing)}")
    return paths


#: ``--dask`` without an address: a local Dask cluster (its one home: ``store.paths``)
DASK_LOCAL = LOCAL_CLUSTER
#: what a Dask scheduler's address looks like: ``tcp://host:8786``, ``host:8786``
_ADDRESS = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://\S+|[A-Za-z0-9_.\[\]:-]+:\d+")


def optional_dask_address(argv: list[str]) -> list[str]:
    """``argv`` with a bare ``--dask`` made ``--dask=local``.

    ``--dask [ADDRESS]`` takes an optional value, which Typer's options cannot: a ``--dask``
    that is last, or followed by an option or by something that is not a scheduler's address
    (a path), gets the local cluster, so ``tarock ingest --dask logs/`` and ``tarock ingest
    logs/ --dask`` both work; ``--dask tcp://host:8786`` and ``--dask=ADDRESS`` name a
    scheduler. Everything after ``--`` is left alone."""
    out: list[str] = []
    for i, arg in enumerate(argv):
        if arg == "--":
            return out + argv[i:]
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if arg == "--dask" and (nxt is None or nxt.startswith("-") or not _ADDRESS.fullmatch(nxt)):
            out.append(f"--dask={DASK_LOCAL}")
        else:
            out.append(arg)
    return out
