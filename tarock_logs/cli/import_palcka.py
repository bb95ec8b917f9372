"""``tarock import palcka FILE [FILE ...] [-o OUT.jsonl]``: Palčka's records → tarock log sessions.

Every file is one view of one game: a player's message list (a JSON list of base64 protobuf
``Message``s, named ``<game>.<player>.<suffix>``: views with the same ``<game>`` are merged) or
an app game log (``gamelog-<uuid>.json``). Each game becomes one session of one hand
(``tarock_logs.tools.importers.palcka``; the format: ``docs/importers.md``). Every record that
cannot be converted is reported on stderr as ``FILE:RECORD: field 'NAME': CODE: message``; a
summary line says how many games were imported. Exit 0 when every record converted, 1 when a
record or a view was rejected, 2 on usage errors.
"""

from __future__ import annotations

from pathlib import Path

import typer

from tarock_logs.cli.common import ExitCode, err_console, fail, import_app, write_output


@import_app.command("palcka")
def import_palcka(
    files: list[Path] = typer.Argument(
        ..., help="Palčka records: message lists (<game>.<player>.msgs) and game logs."
    ),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Output log (.jsonl); default: JSONL on stdout."
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary line on stderr."),
) -> None:
    """Convert Palčka's message lists and game logs into sessions (one per game)."""
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise fail(f"no such file: {', '.join(missing)}")
    if output is not None and str(output) != "-" and output.suffix != ".jsonl":
        raise fail(f"{output}: the output must end in .jsonl (or be - for stdout)")
    from tarock_logs.log.models import SessionAdapter
    from tarock_logs.log.writer import dumps_session
    from tarock_logs.tools.importers.palcka import import_files

    res = import_files(files)
    for r in res.rejects:
        err_console.print(str(r), markup=False, highlight=False, soft_wrap=True)
    text = "".join(dumps_session(SessionAdapter.validate_python(s)) + "\n" for s in res.sessions)
    where = write_output(text, output)
    if not quiet:
        partial = sum(1 for s in res.sessions if "facts" in s["hands"][0])
        err_console.print(
            f"palcka: {res.files} file(s), {len(res.sessions)} game(s) imported ({partial} "
            f"partial), {len(res.rejects)} record(s) rejected → {where}",
            markup=False, highlight=False, soft_wrap=True,
        )  # fmt: skip
    if res.rejects:
        raise typer.Exit(int(ExitCode.FINDINGS))
