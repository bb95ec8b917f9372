"""``tarock validate``: read logs and report every located error.

Output (stdout): ``--format table`` prints each error or warning on one line
(``file:line: session S hand H action A $.path: error: code: message``, ``warning:`` for a
warning) and then a summary table;
``--format json`` prints one object with the keys ``files``, ``sessions``, ``hands_valid``,
``hands_invalid``, ``errors_by_code`` and ``errors`` (a list of error dicts, warnings included
with ``"severity": "warning"``). Exit status: 0 clean (warnings allowed), 1 findings, 2 usage,
3 internal error, 6 the output could not be written (a full disk). The errors are never held
in memory: printed as found, or spooled to a temporary file for ``--format json``.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Annotated, Any

import orjson
import typer
from rich.console import Console
from rich.table import Table

from tarock_logs.cli.common import (
    ExitCode,
    app,
    checked_paths,
    err_console,
    fail,
    progress_enabled,
)
from tarock_logs.log.errors import LogError, severity_of

if TYPE_CHECKING:
    from tarock_logs.log.reader import SessionRecord


def plural(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1: ``1 error``, ``2 errors``, ``0 warnings``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass
class ValidationSummary:
    """Counts over a validation run (the JSON keys of ``tarock validate --format json``, but
    ``errors``). The errors themselves are not kept: they go to the ``on_error`` callback of
    :func:`validate_paths` as they are found, so memory stays flat however many there are."""

    files: int = 0
    sessions: int = 0
    sessions_invalid: int = 0
    hands_valid: int = 0
    hands_invalid: int = 0
    n_errors: int = 0
    n_warnings: int = 0
    by_code: Counter[str] = field(default_factory=Counter)

    def count(self, e: LogError) -> None:
        """Count one error or warning."""
        self.by_code[e.code] += 1
        if e.is_error:
            self.n_errors += 1
        else:
            self.n_warnings += 1

    @property
    def errors_by_code(self) -> dict[str, int]:
        return dict(sorted(self.by_code.items()))

    @property
    def has_findings(self) -> bool:
        return self.n_errors > 0

    def to_dict(self) -> dict[str, Any]:
        """The JSON document's keys, with ``errors`` empty (see :class:`JsonErrors`)."""
        return {
            "files": self.files,
            "sessions": self.sessions,
            "sessions_invalid": self.sessions_invalid,
            "hands_valid": self.hands_valid,
            "hands_invalid": self.hands_invalid,
            "errors_by_code": self.errors_by_code,
            "errors": [],
        }


class JsonErrors:
    """The ``errors`` list of ``--format json``, spooled to a temporary file as the errors
    are found (memory stays flat), then written after the counts, which are known only at the
    end. The document is the same, byte for byte, as ``orjson.dumps(doc, OPT_INDENT_2)``."""

    def __init__(self) -> None:
        self.spool = tempfile.TemporaryFile()
        self.n = 0

    def add(self, e: LogError) -> None:
        """Spool one error (indented as an element of the document's ``errors`` list)."""
        if self.n:
            self.spool.write(b",\n")
        self.n += 1
        item = orjson.dumps(e.to_dict(), option=orjson.OPT_INDENT_2)
        self.spool.write(b"    " + item.replace(b"\n", b"\n    "))

    def write(self, summary: ValidationSummary, out: IO[bytes]) -> None:
        """The whole document, then a newline."""
        head = orjson.dumps(summary.to_dict(), option=orjson.OPT_INDENT_2)
        if not self.n:
            out.write(head + b"\n")
            return
        assert head.endswith(b'"errors": []\n}')
        out.write(head[: -len(b"]\n}")] + b"\n")
        self.spool.seek(0)
        shutil.copyfileobj(self.spool, out)
        out.write(b"\n  ]\n}\n")
        out.flush()

    def close(self) -> None:
        self.spool.close()


def validate_paths(
    paths: list[Path], exclude: list[str], on_error: Any = None, on_file: Any = None,
    duplicates: bool = False,
) -> ValidationSummary:  # fmt: skip
    """Read every log under ``paths`` and count sessions, hands and errors.

    With ``duplicates`` it also warns, across the whole run, about a session id read twice
    (``session.duplicate``) and a hand recorded twice with the same deal, actions and result
    (``hand.duplicate``; the same *deal* alone is normal in pre-dealt tournaments).
    """
    from tarock_logs.log.reader import SessionRecord, iter_log_files, read_file

    summary = ValidationSummary()
    seen = DuplicateTracker() if duplicates else None
    for f in iter_log_files(paths, exclude):
        summary.files += 1
        fast = None if duplicates else _lane(f)
        for rec in read_file(f, lane=fast):
            if not isinstance(rec, SessionRecord):  # the lane's (a LaneSession): valid
                summary.sessions += 1
                summary.hands_valid += len(rec.hands)
                continue
            if rec.session is not None:
                summary.sessions += 1
                summary.hands_valid += len(rec.session.hands)
            elif any(e.is_error for e in rec.errors) and rec.raw.strip():
                summary.sessions_invalid += 1
            summary.hands_invalid += len(rec.rejected_hands)
            for e in rec.all_errors() + (seen.check(rec) if seen is not None else []):
                summary.count(e)
                if on_error is not None:
                    on_error(e)
        if on_file is not None:
            on_file(f)
    return summary


#: Whether :func:`validate_paths` offers the records of a JSONL file of at least
#: :data:`LANE_FROM_BYTES` to the store's ingest lane first (:func:`tarock_logs.store.write.lane.
#: reader_lane`): a record it takes is one the reader finds valid, with no error or warning
#: (tests/cli/test_validate_lane.py), read ≈ 4 times as fast. Not with ``--duplicates``
#: (which reads the hands' models), nor for smaller files (importing the lane, the engines'
#: code, costs ≈ 0.1 s: a one-file validation starts in under 0.5 s).
LANE = True
LANE_FROM_BYTES = 1 << 20


def _lane(f: Path) -> Any:
    """The ingest lane for the records of ``f`` (None: the reader reads every record)."""
    if not LANE or not str(f).endswith(".jsonl"):
        return None
    try:
        if f.stat().st_size < LANE_FROM_BYTES:
            return None
    except OSError:
        return None  # (the reader says what is wrong with the file)
    from tarock_logs.store.write.lane import reader_lane

    return reader_lane(str(f))


class DuplicateTracker:
    """Remembers session ids and hand digests seen so far in one run."""

    def __init__(self) -> None:
        self.sessions: dict[str, str] = {}
        self.hands: dict[bytes, str] = {}

    def check(self, rec: SessionRecord) -> list[LogError]:
        s = rec.session
        if s is None:
            return []
        out = []
        here = f"{rec.file}:{rec.line}"
        first = self.sessions.setdefault(s.id, here)
        if first != here:
            out.append(LogError("session.duplicate", f"session id {s.id!r} was already read at "
                                f"{first}", rec.file, rec.line, s.id, path="$.id",
                                severity=severity_of("session.duplicate")))  # fmt: skip
        for i, h in enumerate(s.hands):
            digest = hashlib.blake2b(
                orjson.dumps(h.model_dump(mode="json", exclude={"number", "id", "notes"})),
                digest_size=16,
            ).digest()
            where = f"{here} session {s.id} hand {h.number}"
            first_hand = self.hands.setdefault(digest, where)
            if first_hand != where:
                out.append(LogError("hand.duplicate", "the same hand (deal, actions and "
                                    f"result) was already read at {first_hand}", rec.file,
                                    rec.line, s.id, h.number, path=f"$.hands[{i}]",
                                    severity=severity_of("hand.duplicate")))  # fmt: skip
        return out


@app.command()
def validate(
    args: Annotated[
        list[str],
        typer.Argument(metavar="PATHS...", help="log files or folders (walked recursively)"),
    ],
    exclude: Annotated[
        list[str], typer.Option("--exclude", help="folder or file name to skip (repeatable)")
    ] = [],  # noqa: B006
    fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="summary only, no progress")] = False,
    duplicates: Annotated[
        bool, typer.Option("--duplicates", help="also warn about sessions and hands read twice")
    ] = False,
) -> None:
    """Check log files against log format v1 and report every located error."""
    if fmt not in ("table", "json"):
        raise fail(f"unknown --format {fmt!r} (use table or json)")
    paths = checked_paths(args)  # an empty or missing path: exit 2
    from tarock_logs.log.reader import iter_log_files

    if next(iter(iter_log_files(paths, exclude)), None) is None:
        raise fail(f"no log files found in {', '.join(str(p) for p in paths)}")
    out = Console(soft_wrap=True, highlight=False, markup=False, emoji=False)
    if not out.is_terminal:
        out = Console(soft_wrap=True, highlight=False, markup=False, emoji=False, width=120)

    def print_error(e: LogError) -> None:
        if not quiet:
            out.print(str(e))

    spool = JsonErrors() if fmt == "json" else None
    on_error = print_error if spool is None else spool.add
    try:
        if progress_enabled(quiet, fmt):
            from rich.progress import Progress

            files = list(iter_log_files(paths, exclude))
            with Progress(console=err_console, transient=True) as progress:
                task = progress.add_task("validating", total=len(files))
                summary = validate_paths(
                    files,
                    [],
                    on_error,
                    on_file=lambda _f: progress.advance(task),
                    duplicates=duplicates,
                )
        else:
            summary = validate_paths(paths, exclude, on_error, duplicates=duplicates)

        _report(summary, out, spool)
    except OSError as exc:  # a full disk under the output or the spool: not a usage error
        raise fail(f"cannot write the output: {exc.strerror or exc}", ExitCode.IO) from None
    finally:
        if spool is not None:
            spool.close()
    raise typer.Exit(int(ExitCode.FINDINGS if summary.has_findings else ExitCode.OK))


def _report(summary: ValidationSummary, out: Console, spool: JsonErrors | None) -> None:
    """The summary: the JSON document (with the spooled errors), or the tables and one line."""
    if spool is not None:
        sys.stdout.flush()
        spool.write(summary, sys.stdout.buffer)
    else:
        table = Table(title="tarock validate", show_header=True)
        table.add_column("files", justify="right")
        table.add_column("sessions", justify="right")
        table.add_column("sessions invalid", justify="right")
        table.add_column("hands valid", justify="right")
        table.add_column("hands invalid", justify="right")
        table.add_column("errors", justify="right")
        table.add_column("warnings", justify="right")
        n_err, n_warn = summary.n_errors, summary.n_warnings
        table.add_row(
            str(summary.files), str(summary.sessions), str(summary.sessions_invalid),
            str(summary.hands_valid), str(summary.hands_invalid), str(n_err),
            str(n_warn),
        )  # fmt: skip
        out.print(table)
        if summary.by_code:
            codes = Table(show_header=True)
            codes.add_column("code")
            codes.add_column("count", justify="right")
            for code, count in summary.errors_by_code.items():
                codes.add_row(code, str(count))
            out.print(codes)
        out.print(
            f"{plural(summary.files, 'file')}, {plural(summary.sessions, 'session')} read "
            f"({summary.sessions_invalid} unreadable), {plural(summary.hands_valid, 'hand')} "
            f"valid, {summary.hands_invalid} invalid; {plural(n_err, 'error')}, "
            f"{plural(n_warn, 'warning')}"
        )
