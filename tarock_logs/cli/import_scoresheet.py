"""``tarock import scoresheet FILE.csv [-o OUT.jsonl]`` and ``tarock import --list``.

Each score sheet (the layout: ``docs/importers.md``) becomes one session of hands recorded as
facts (format 1.1), written as JSONL (to ``-o``, or to stdout). Every bad cell is reported on
stderr as ``FILE:LINE: column 'NAME': CODE: message`` and only its row is left out; a summary
line says how many hands were imported and how many rows rejected. Exit 0 when every row was
imported, 1 when a row (or a whole sheet: a game that cannot be scored from facts) was
rejected, 2 on usage errors.
"""

from __future__ import annotations

from pathlib import Path

import typer

from tarock_logs.cli.common import ExitCode, err_console, fail, import_app, write_output


@import_app.callback(invoke_without_command=True)
def _import(
    ctx: typer.Context,
    list_: bool = typer.Option(
        False, "--list", help="List the importers: what each reads and can carry."
    ),
) -> None:
    """Convert records of other programs and of people into the tarock log format."""
    if list_:
        from tarock_logs.tools.importers import discover

        found = discover()  # the built-ins and the plug-ins of the entry-point group
        for imp in found.importers.values():
            typer.echo(f"{imp.name}\n  usage:   {imp.command}\n  reads:   {imp.input}")
            typer.echo(f"  carries: {imp.carries}\n  cannot:  {imp.cannot_carry}")
            typer.echo(f"  formats: {', '.join(imp.formats) or '-'}")
            typer.echo(f"  games:   {', '.join(imp.games) or '-'}")
            typer.echo(f"  version: {imp.version}\n  from:    {found.origin[imp.name]}")
        for problem in found.problems:
            err_console.print(f"plug-in not loaded: {problem}", markup=False, highlight=False)
        raise typer.Exit(0)
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(int(ExitCode.USAGE))


@import_app.command("scoresheet")
def import_scoresheet(
    files: list[Path] = typer.Argument(..., help="Score sheets (CSV), one table's round each."),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Output log (.jsonl); default: JSONL on stdout."
    ),
    game: str | None = typer.Option(None, "--game", help="The game (default: the sheet's)."),
    ruleset: str | None = typer.Option(None, "--ruleset", help="The ruleset id or alias."),
    tournament: str | None = typer.Option(None, "--tournament", help="The tournament id."),
    round_: int | None = typer.Option(None, "--round", min=1, max=99, help="The round."),
    table: str | None = typer.Option(None, "--table", help="The table."),
    session: str | None = typer.Option(None, "--session", help="The session id (one sheet)."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No summary line on stderr."),
) -> None:
    """Convert tournament score sheets (CSV) into sessions of hands recorded as facts."""
    missing = [str(f) for f in files if not f.is_file()]
    if missing:
        raise fail(f"no such file: {', '.join(missing)}")
    if output is not None and str(output) != "-" and output.suffix != ".jsonl":
        raise fail(f"{output}: the output must end in .jsonl (or be - for stdout)")
    if session is not None and len(files) > 1:
        raise fail("--session names one session: give one sheet")
    from tarock_logs.log.writer import dumps_session
    from tarock_logs.tools.importers.scoresheet import import_sheet

    overrides = {
        "game": game,
        "ruleset": ruleset,
        "tournament": tournament,
        "round": str(round_) if round_ is not None else None,
        "table": table,
        "session": session,
    }
    lines: list[str] = []
    hands = rejected = sheets_rejected = 0
    for f in files:
        res = import_sheet(f, {k: v for k, v in overrides.items() if v is not None})
        for e in res.errors:
            err_console.print(str(e), markup=False, highlight=False, soft_wrap=True)
        rejected += len(res.rejected_lines)
        if res.session is None:
            sheets_rejected += 1
            continue
        hands += res.imported
        lines.append(dumps_session(res.session))
    text = "".join(line + "\n" for line in lines)
    where = write_output(text, output)
    if not quiet:
        err_console.print(
            f"scoresheet: {len(lines)} sheet(s), {hands} hand(s) imported, {rejected} row(s) "
            f"rejected" + (f", {sheets_rejected} sheet(s) not imported" if sheets_rejected else "")
            + f" → {where}",
            markup=False, highlight=False, soft_wrap=True,
        )  # fmt: skip
    if rejected or sheets_rejected:
        raise typer.Exit(int(ExitCode.FINDINGS))
