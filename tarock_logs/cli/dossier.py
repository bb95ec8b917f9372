"""``tarock dossier``: the self-contained HTML dispute dossier of one hand."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from tarock_logs.cli.common import ExitCode, app, checked_paths, err_console, fail
from tarock_logs.report.i18n import LANGS

if TYPE_CHECKING:
    from tarock_logs.log import models as m


def _find_by_id(sessions: list[tuple[str, m.Session]], hand_id: str) -> tuple[str, m.Session, int]:
    """The (file, session, hand number) of the hand whose content hash (or source id, or a
    unique prefix of the hash of at least 8 characters) is ``hand_id``."""
    from tarock_logs.verdict.audit import hand_content_hash

    found: list[tuple[str, m.Session, int]] = []
    for file, s in sessions:
        for h in s.hands:
            if h.id == hand_id:
                found.append((file, s, h.number))
                continue
            digest = hand_content_hash(s, h)
            if digest == hand_id or (len(hand_id) >= 8 and digest.startswith(hand_id)):
                found.append((file, s, h.number))
    if not found:
        raise fail(f"no hand with id {hand_id!r} in the given files")
    if len({(f, s.id, n) for f, s, n in found}) > 1:
        where = ", ".join(f"{s.id} hand {n}" for _, s, n in found[:5])
        raise fail(f"hand id {hand_id!r} is not unique ({where}): give more of it or --session")
    return found[0]


@app.command("dossier")
def dossier_command(
    args: list[str] = typer.Argument(
        ..., metavar="FILES...", help="The log file(s) holding the hand."
    ),
    hand: int | None = typer.Option(None, "--hand", help="The hand's number (Hand.number)."),
    hand_id: str | None = typer.Option(
        None,
        "--hand-id",
        help="The hand's id as tarock audit and the dashboard print it (its content hash, a "
        "unique prefix of it, or the log's own hand id); no --session needed.",
    ),
    session: str | None = typer.Option(
        None, "--session", help="The session id (needed with --hand when a file holds several)."
    ),
    ruleset: str | None = typer.Option(
        None, "--ruleset", help="Re-score under this ruleset (what-if)."
    ),
    output: Path | None = typer.Option(
        None, "-o", "--output", help="Write the HTML here (default, or -: stdout)."
    ),
    lang: str = typer.Option(
        "en", "--lang", help="The language of the labels: en, sl or de (game terms stay)."
    ),
) -> None:
    """Write one hand's dispute dossier: the verdict with every finding in the players' words,
    the deal, every action and trick, recorded vs recomputed score, the ruleset, content hash
    and a referee signature line. Exit as the audit of that hand (0 verified and clean,
    1 findings, 5 not fully verified), 2 usage."""
    paths = checked_paths(args)
    if (hand is None) == (hand_id is None):
        raise fail("give the hand with --hand NUMBER (and --session) or with --hand-id ID")
    from tarock_logs.log.reader import read_paths
    from tarock_logs.report.dossier import DossierError, build_dossier, find_hand

    sessions: list[tuple[str, m.Session]] = []
    for rec in read_paths(paths):
        for e in rec.all_errors():
            if e.is_error:
                err_console.print(f"tarock: {e}", markup=False, highlight=False, soft_wrap=True)
        if rec.session is not None:
            sessions.append((str(rec.file), rec.session))
    if session is not None:
        sessions = [(f, s) for f, s in sessions if s.id == session]
        if not sessions:
            raise fail(f"{', '.join(args)} holds no readable session {session!r}")
    if not sessions:
        raise fail(f"{', '.join(args)} holds no readable session")
    if hand_id is not None:
        file, sess, number = _find_by_id(sessions, hand_id)
    else:
        if len(sessions) > 1:
            ids = ", ".join(s.id for _, s in sessions)
            raise fail(
                f"{len(sessions)} sessions; pick one with --session ({ids}) or use --hand-id"
            )
        (file, sess), number = sessions[0], int(hand or 0)
        try:
            find_hand(sess, number)
        except DossierError as exc:
            raise fail(str(exc)) from None
    if ruleset is not None:
        from tarock_logs.cli.audit import check_ruleset

        check_ruleset(ruleset)
    if lang not in LANGS:
        raise fail(f"--lang must be one of {', '.join(LANGS)}")
    dossier = build_dossier(sess, number, ruleset=ruleset, file=file, lang=lang)
    if output is None or str(output) == "-":
        sys.stdout.write(dossier.html)
    else:
        output.write_text(dossier.html, encoding="utf-8")
        err_console.print(f"tarock: dossier written to {output}", markup=False, highlight=False)
    audit = dossier.audit
    if audit.has_findings:
        raise typer.Exit(int(ExitCode.FINDINGS))
    ok = audit.verification == "verified"
    raise typer.Exit(int(ExitCode.OK if ok else ExitCode.NOT_VERIFIED))
