"""``tarock dossier``: the self-contained HTML dispute dossier of one hand."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from tarock_logs.cli.common import ExitCode, app, err_console, fail
from tarock_logs.log.reader import read_file
from tarock_logs.report.dossier import DossierError, build_dossier, find_hand


@app.command("dossier")
def dossier_command(
    file: Path = typer.Argument(..., help="The log file holding the hand."),
    hand: int = typer.Option(..., "--hand", help="The hand's number (Hand.number)."),
    session: str | None = typer.Option(
        None, "--session", help="The session id (needed when the file holds several)."
    ),
    ruleset: str | None = typer.Option(
        None, "--ruleset", help="Re-score under this ruleset (what-if)."
    ),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Write the HTML here (default: stdout)."
    ),
) -> None:
    """Write one hand's dispute dossier: deal, every action with its verdict and rule, tricks,
    recorded vs recomputed score, ruleset, content hash and a referee signature line.
    Exit 0 when the hand is legal and agrees, 1 when the dossier shows findings, 2 usage."""
    if not file.is_file():
        raise fail(f"no such file: {file}")
    sessions = []
    for rec in read_file(file):
        for e in rec.all_errors():
            if e.is_error:
                err_console.print(f"tarock: {e}", markup=False, highlight=False, soft_wrap=True)
        if rec.session is not None:
            sessions.append(rec.session)
    if session is not None:
        sessions = [s for s in sessions if s.id == session]
        if not sessions:
            raise fail(f"{file} holds no readable session {session!r}")
    if not sessions:
        raise fail(f"{file} holds no readable session")
    if len(sessions) > 1:
        ids = ", ".join(s.id for s in sessions)
        raise fail(f"{file} holds {len(sessions)} sessions; pick one with --session ({ids})")
    sess = sessions[0]
    try:
        find_hand(sess, hand)
    except DossierError as exc:
        raise fail(str(exc)) from None
    if ruleset is not None:
        from tarock_logs.cli.audit import _check_ruleset

        _check_ruleset(ruleset)
    dossier = build_dossier(sess, hand, ruleset=ruleset, file=str(file))
    html = dossier.html
    has_findings = dossier.audit.has_findings
    if output is None or str(output) == "-":
        sys.stdout.write(html)
    else:
        output.write_text(html, encoding="utf-8")
        err_console.print(f"tarock: dossier written to {output}", markup=False, highlight=False)
    raise typer.Exit(int(ExitCode.FINDINGS if has_findings else ExitCode.OK))
