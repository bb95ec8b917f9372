"""``tarock fmt``: rewrite logs in canonical form (see :mod:`tarock_logs.log.writer`).

The canonical text goes to stdout (each file's in turn; a ``.gz`` file's uncompressed), unless
``--in-place`` rewrites the files themselves or ``-o OUT`` writes to OUT: a file name when one
file is given, otherwise a folder that mirrors the input folders (``-o -`` is stdout). A file
is written only when every record in it was read without errors (a byte-order mark is the one
error ``fmt`` repairs); otherwise its errors are printed on stderr and nothing is written for
it. ``--check`` writes nothing and exits 1 if some file is not canonical. File names and errors
are printed as :func:`~tarock_logs.log.errors.printable` text (a name cannot forge a line).

A file is replaced whole (written to a temporary file beside it, synced, renamed over it); when
it cannot be written (a full or read-only disk) it is left as it was, nothing is left behind and
the exit status is 6 (``ExitCode.IO``), not 2 (usage).
"""

from __future__ import annotations

import gzip
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from tarock_logs.cli.common import ExitCode, app, err_console, fail
from tarock_logs.log.errors import printable

_REPAIRABLE = frozenset({"json.bom"})


def canonical_text(path: Path) -> tuple[bytes | None, list[str]]:
    """The canonical bytes of a log file, or None with the reasons it cannot be formatted."""
    from tarock_logs.log.reader import log_kind, read_file
    from tarock_logs.log.writer import dumps_sessions

    records = list(read_file(path))
    problems = [
        str(e) for r in records for e in r.all_errors()
        if e.is_error and e.code not in _REPAIRABLE
    ]  # fmt: skip
    if problems:
        return None, problems
    sessions = [r.session for r in records if r.session is not None]
    kind = log_kind(path) or "json"
    raw = _read_bytes(path)
    as_list = raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"["
    text = dumps_sessions(sessions, kind=kind, as_list=as_list if kind == "json" else None)
    data = text.encode()
    if str(path).lower().endswith(".gz"):
        data = gzip.compress(data, mtime=0)
    return data, []


def _read_bytes(path: Path) -> bytes:
    if str(path).lower().endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return f.read()
    return path.read_bytes()


def _same(path: Path, data: bytes) -> bool:
    if str(path).lower().endswith(".gz"):
        return _read_bytes(path) == gzip.decompress(data)
    return path.read_bytes() == data


def _targets(paths: list[Path], exclude: list[str], out: Path | None) -> list[tuple[Path, Path]]:
    from tarock_logs.log.reader import iter_log_files

    pairs = []
    single = len(paths) == 1 and paths[0].is_file()
    for root in paths:
        for f in iter_log_files([root], exclude):
            if out is None:
                dest = f
            elif single and not out.is_dir():
                dest = out
            else:
                rel = f.relative_to(root) if root.is_dir() else Path(f.name)
                dest = out / rel
            pairs.append((f, dest))
    return pairs


@app.command()
def fmt(
    paths: Annotated[list[Path], typer.Argument(help="log files or folders")],
    out: Annotated[
        Path | None,
        typer.Option("-o", "--out", help="write here (a file, or a folder); - for stdout"),
    ] = None,
    in_place: Annotated[
        bool, typer.Option("--in-place", "-i", help="rewrite the files themselves")
    ] = False,
    check: Annotated[bool, typer.Option("--check", help="only report files not canonical")] = False,
    exclude: Annotated[
        list[str], typer.Option("--exclude", help="folder or file name to skip (repeatable)")
    ] = [],  # noqa: B006
) -> None:
    """Logs in canonical form (card tokens, key order, indentation), on stdout unless
    --in-place or -o OUT."""
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise fail(f"no such file or folder: {', '.join(missing)}")
    if in_place and out is not None:
        raise fail("give either --in-place or -o OUT, not both")
    to_stdout = not check and not in_place and (out is None or str(out) == "-")
    findings = False
    io_failed = False
    targets = _targets(paths, exclude, None if to_stdout else out)
    for src, dest in targets:
        try:
            data, problems = canonical_text(src)
        except OSError as exc:  # (the file went away or became unreadable while read)
            data, problems = None, [f"cannot read the file: {exc.strerror or exc}"]
        if data is None:
            findings = True
            err_console.print(
                f"tarock fmt: {printable(str(src))}: not formatted, it has errors:", markup=False
            )
            for p in problems:
                err_console.print("  " + p, markup=False, highlight=False)
            continue
        if check:
            if not _same(src, data):
                findings = True
                typer.echo(f"would reformat {printable(str(src))}")
            continue
        if to_stdout:
            text = gzip.decompress(data) if str(src).lower().endswith(".gz") else data
            try:
                sys.stdout.buffer.write(text)
                sys.stdout.flush()
            except OSError as exc:
                msg = f"fmt: cannot write the output: {exc.strerror or exc}"
                raise fail(msg, ExitCode.IO) from None
            continue
        shown = printable(str(dest))
        try:
            if dest.exists() and _same(dest, data):
                typer.echo(f"unchanged {shown}")
                continue
            _write_atomically(dest, data)
        except OSError as exc:
            io_failed = True
            err_console.print(
                f"tarock fmt: cannot write {shown}: {exc.strerror or exc} (left as it was)",
                markup=False,
                highlight=False,
                soft_wrap=True,
            )
            continue
        typer.echo(f"reformatted {shown}" if dest == src else f"wrote {shown}")
    if io_failed:
        raise typer.Exit(int(ExitCode.IO))
    raise typer.Exit(int(ExitCode.FINDINGS if findings else ExitCode.OK))


def _write_atomically(dest: Path, data: bytes) -> None:
    """``data`` into ``dest`` through a temporary file in the same folder, synced, then
    renamed over it: ``dest`` is the old file or the whole new one, never a part; on an error
    (disk full, read-only) the temporary file is removed and ``dest`` is left as it was."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + f".tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, dest)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
