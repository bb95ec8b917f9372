"""``tarock import openspiel FILE.jsonl -o OUT``: OpenSpiel ``tarok`` games → tarock log sessions.

Each input line is a JSON object ``{"players": 3|4, "serialized": "<state.serialize()>",
"returns": [...]}`` (``returns`` optional: OpenSpiel's final scores, kept as the recorded
result). Each line becomes **one session with one hand** (OpenSpiel has no sessions, dealer
rotation or carried state: every game is a single deal), in input order, session id
``<file stem>-<line>``; ruleset ``openspiel-2.0``, OpenSpiel player p in seat p, dealer seat
n−1, ``deal.seed`` the deal seed, ``source.importer = "openspiel"``.

Action ids are converted, never judged (:mod:`tarock_logs.tools.importers.openspiel`): an illegal
card stays in the log for ``tarock audit`` to flag. A line that cannot be converted is reported
on stderr as ``FILE:LINE: CODE: message`` and skipped; the other lines are still written.
Exit 0 when every line converted, 1 when some line was rejected, 2 on usage errors.
"""

from __future__ import annotations

import gzip
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, cast

import orjson
import typer

from tarock_logs.cli.common import ExitCode, err_console, fail, import_app, progress_enabled
from tarock_logs.log.errors import LogError

if TYPE_CHECKING:
    from tarock_logs.log.models import Session

#: Error codes of this importer (each rejected line gets one).
IMPORT_CODES = {
    "E-OPENSPIEL-JSON": "the line is not a JSON object",
    "E-OPENSPIEL-RECORD": "`players`, `serialized` or `returns` is missing or malformed, or an "
    "action id means nothing in its phase (with the action index)",
    "E-OPENSPIEL-SCHEMA": "the converted session does not validate against the log format",
}


@dataclass
class ImportedLine:
    """The outcome of one input line: a session, or the errors that rejected it."""

    line: int
    session: Session | None
    errors: list[LogError] = field(default_factory=list)


def import_lines(lines: Iterable[bytes | str], *, name: str) -> Iterator[ImportedLine]:
    """Convert importer input lines (blank lines skipped) into validated sessions.

    ``name`` is the file name used in errors and in the session ids (its stem).
    """
    from pydantic import ValidationError

    from tarock_logs.log.models import SessionAdapter
    from tarock_logs.tools.importers.openspiel import OpenSpielFormatError, record_to_session

    stem = Path(name).name.split(".")[0] or "openspiel"
    for lineno, raw in enumerate(lines, start=1):
        text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else raw
        if lineno == 1:
            text = text.lstrip("\ufeff")
        if not text.strip():
            continue
        try:
            record = orjson.loads(text)
        except orjson.JSONDecodeError as exc:
            err = _err("E-OPENSPIEL-JSON", f"not JSON: {exc}", name, lineno)
            yield ImportedLine(lineno, None, [err])
            continue
        session_id = f"{stem}-{lineno}"
        try:
            data = record_to_session(
                record, session_id=session_id, hand_id=f"{Path(name).name}:{lineno}"
            )
        except OpenSpielFormatError as exc:
            msg = exc.message
            path = None
            if exc.action_index is not None:
                where = f"line {exc.serialized_line} of `serialized`"
                msg = f"action {exc.action_index} ({where}): {msg}"
                path = "$.serialized"
            yield ImportedLine(
                lineno, None, [_err("E-OPENSPIEL-RECORD", msg, name, lineno, path, session_id)]
            )
            continue
        try:
            session = SessionAdapter.validate_python(data)
        except ValidationError as exc:
            errs = [
                _err(
                    "E-OPENSPIEL-SCHEMA",
                    f"{e['msg']} at {'.'.join(str(x) for x in e['loc'])}",
                    name,
                    lineno,
                    None,
                    session_id,
                )
                for e in exc.errors(include_url=False)
            ]
            yield ImportedLine(lineno, None, errs)
            continue
        yield ImportedLine(lineno, session)


def _err(
    code: str,
    message: str,
    file: str,
    line: int,
    path: str | None = None,
    session: str | None = None,
) -> LogError:
    return LogError(code=code, message=message, file=file, line=line, path=path, session=session)


def format_error(e: LogError) -> str:
    """``FILE:LINE: CODE: message`` on one line."""
    return f"{e.file}:{e.line}: {e.code}: {' '.join(e.message.split())}"


def dumps_session(session: Session) -> bytes:
    """One session as compact JSON (the project's canonical writer when available)."""
    try:
        from tarock_logs.log.writer import dumps_session as canonical
    except ImportError:
        return orjson.dumps(session.model_dump(mode="json", exclude_defaults=True))
    out = canonical(session)
    return out.encode() if isinstance(out, str) else out


def _open_input(path: Path) -> IO[bytes]:
    if path.suffix == ".gz":
        return cast(IO[bytes], gzip.open(path, "rb"))  # a GzipFile reads as a binary stream
    return path.open("rb")


@import_app.command("openspiel")
def import_openspiel(
    file: Path = typer.Argument(
        ..., help="JSONL: one OpenSpiel game per line ({players, serialized, returns})."
    ),
    output: Path = typer.Option(
        ...,
        "-o",
        "--output",
        help="Output log: .jsonl (one session a line), .json (a list), or - (JSONL on stdout).",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary line on stderr."),
) -> None:
    """Convert OpenSpiel tarok games (deal seed + action ids) into tarock log sessions."""
    if not file.is_file():
        raise fail(f"{file}: no such file")
    if str(output) != "-" and output.suffix not in (".jsonl", ".json"):
        raise fail(f"{output}: the output must end in .jsonl or .json (or be - for stdout)")
    converted = rejected = 0
    sessions: list[bytes] = []
    show_progress = progress_enabled(quiet, "table")
    with _open_input(file) as fh:
        results: Iterable[ImportedLine] = import_lines(fh, name=str(file))
        if show_progress:
            from rich.progress import Progress

            with Progress(console=err_console, transient=True) as progress:
                task = progress.add_task("importing", total=None)
                results = list(_tick(results, progress, task))
        for item in results:
            if item.session is None:
                rejected += 1
                for e in item.errors:
                    err_console.print(
                        format_error(e), markup=False, highlight=False, soft_wrap=True
                    )
                continue
            converted += 1
            sessions.append(dumps_session(item.session))
    _write(output, sessions)
    if not quiet:
        err_console.print(
            f"openspiel: {converted} game(s) converted, {rejected} line(s) rejected → {output}",
            markup=False,
            highlight=False,
            soft_wrap=True,
        )
    if rejected:
        raise typer.Exit(int(ExitCode.FINDINGS))


def _tick(items: Iterable[ImportedLine], progress: Any, task: Any) -> Iterator[ImportedLine]:
    for item in items:
        progress.advance(task)
        yield item


def _write(output: Path, sessions: list[bytes]) -> None:
    if str(output) == "-":
        out = sys.stdout.buffer
        for s in sessions:
            out.write(s + b"\n")
        out.flush()
        return
    tmp = output.with_name(output.name + ".tmp")
    with tmp.open("wb") as fh:
        if output.suffix == ".json":
            fh.write(b"[\n" + b",\n".join(sessions) + b"\n]\n")
        else:
            for s in sessions:
                fh.write(s + b"\n")
    tmp.replace(output)
