"""``tarock import NAME FILE ... [-o OUT.jsonl]`` for an importer plug-in (docs/importers.md,
"Writing an importer"): a name that is no built-in command is looked up in the entry-point
group ``tarock_logs.importers``; a plug-in with a ``convert`` runs as a command. Its sessions
are validated against the log format (one that does not validate is a reject, ``import.schema``)
and carry ``source.importer``; its rejects are printed as ``FILE:RECORD: field 'NAME': CODE:
message``. Exit 0 when everything converted, 1 when a record was rejected, 2 on usage errors,
3 when the plug-in itself fails."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import typer
import typer.main

from tarock_logs.cli.common import ExitCode, err_console, fail, write_output


def plugin_command(name: str) -> Any:
    """The (click) command of the plug-in importer ``name``, or None when there is none."""
    from tarock_logs.tools.importers import discover

    found = discover()
    imp = found.importers.get(name)
    if imp is None or found.origin.get(name) == "builtin" or imp.convert is None:
        return None
    sub = typer.Typer()

    @sub.command(name=name, help=f"{imp.input} (plug-in {found.origin[name]}, {imp.version}).")
    def run(
        files: list[Path] = typer.Argument(..., help="The files to convert."),
        output: Path | None = typer.Option(
            None, "-o", "--output", help="Output log (.jsonl); default: JSONL on stdout."
        ),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary line on stderr."),
    ) -> None:
        run_importer(name, files, output, quiet)

    return typer.main.get_command(sub)


def run_importer(name: str, files: Sequence[Path], output: Path | None, quiet: bool) -> None:
    """Run the importer `name` (its `convert`) on `files`: validate, print the rejects, write
    the sessions (to `output`, or stdout), exit 1 when a record was rejected."""
    from pydantic import ValidationError

    from tarock_logs.log.models import SessionAdapter
    from tarock_logs.log.writer import dumps_session
    from tarock_logs.tools.importers import Reject, discover

    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise fail(f"no such file: {', '.join(missing)}")
    if output is not None and str(output) != "-" and output.suffix != ".jsonl":
        raise fail(f"{output}: the output must end in .jsonl (or be - for stdout)")
    imp = discover().importers[name]
    assert imp.convert is not None
    try:
        result = imp.convert(list(files))
    except Exception as exc:  # a plug-in's failure is not ours: say whose
        raise fail(
            f"importer {name} failed: {type(exc).__name__}: {exc}", ExitCode.INTERNAL
        ) from exc
    rejects: list[Reject] = list(result.rejects)
    lines: list[str] = []
    for k, data in enumerate(result.sessions, start=1):
        where = str(files[0]) if len(files) == 1 else f"{name} output"
        src: Any = data.get("source") if isinstance(data, dict) else None
        if isinstance(data, dict) and src is None:
            data = {**data, "source": {"importer": name}}
        elif isinstance(src, dict) and src.get("importer") != name:
            data = {**data, "source": {**src, "importer": name}}
        try:
            session = SessionAdapter.validate_python(data)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            loc = ".".join(str(x) for x in first["loc"])
            rejects.append(Reject(where, k, loc or None, "import.schema", first["msg"]))
            continue
        lines.append(dumps_session(session))
    for r in rejects:
        err_console.print(str(r), markup=False, highlight=False, soft_wrap=True)
    text = "".join(line + "\n" for line in lines)
    where = write_output(text, output)
    if not quiet:
        err_console.print(
            f"{name}: {len(files)} file(s), {len(lines)} session(s) imported, {len(rejects)} "
            f"record(s) rejected → {where}",
            markup=False, highlight=False, soft_wrap=True,
        )  # fmt: skip
    if rejects:
        raise typer.Exit(int(ExitCode.FINDINGS))
