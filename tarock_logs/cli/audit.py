"""``tarock audit``: replay every hand, check legality, recompute scores, compare with the log.

Data goes to stdout (``--format table|json|jsonl``), reader errors and progress to stderr.
Exit 0 when every hand is legal and agrees with the recomputation, 1 on findings (an
error-severity violation, a discrepancy, or an input error), 2 on usage errors.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import typer
from rich.console import Console
from rich.table import Table

from tarock_logs.cards import GAMES
from tarock_logs.cli.common import ExitCode, app, err_console, fail, progress_enabled
from tarock_logs.log.errors import LogError
from tarock_logs.log.reader import read_paths
from tarock_logs.rules import get_engine
from tarock_logs.verdict.audit import HandAudit, SessionAudit, audit_session
from tarock_logs.verdict.tournament import TournamentAudit, audit_tournaments

FORMATS = ("table", "json", "jsonl")


# --------------------------------------------------------------------------- input


@dataclasses.dataclass(slots=True)
class _Input:
    file: str
    session: Any  # models.Session | None
    errors: list[dict[str, Any]]


def _error_dict(err: LogError, file: str, line: int | None) -> dict[str, Any]:
    d = err.to_dict()
    if d.get("file") is None:
        d["file"] = file
    if d.get("line") is None and line is not None:
        d["line"] = line
    return d


def read_inputs(paths: list[Path], exclude: list[str]) -> Iterator[_Input]:
    """Sessions and input errors (with warnings) from the project's lenient reader."""
    for rec in read_paths(paths, exclude):
        file = str(rec.file)
        line = rec.line
        errors = [_error_dict(e, file, line) for e in rec.all_errors()]
        yield _Input(file, rec.session, errors)


# --------------------------------------------------------------------------- output


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def _summary(
    hands: list[HandAudit],
    sessions: list[SessionAudit],
    input_errors: list[dict[str, Any]],
    ruleset: str | None,
    n_tournaments: int,
) -> dict[str, Any]:
    errors = sum(1 for h in hands for v in h.violations if v.severity == "error")
    warnings = sum(1 for h in hands for v in h.violations if v.severity != "error")
    session_disc = sum(len(s.discrepancies) for s in sessions)
    n_input = sum(1 for e in input_errors if e.get("severity", "error") != "warning")
    findings = any(h.has_findings for h in hands) or session_disc > 0 or n_input > 0
    return {
        "files": len({s.file for s in sessions} | {e.get("file") for e in input_errors}),
        "sessions": len(sessions),
        "tournaments": n_tournaments,
        "hands": len(hands),
        "legal_hands": sum(1 for h in hands if h.legal),
        "illegal_hands": sum(1 for h in hands if not h.legal),
        "hands_with_discrepancies": sum(1 for h in hands if h.discrepancies),
        "unverified_hands": sum(1 for h in hands if h.recomputed is None),
        "violations": errors,
        "warnings": warnings,
        "discrepancies": sum(len(h.discrepancies) for h in hands),
        "session_discrepancies": session_disc,
        "input_errors": n_input,
        "input_warnings": len(input_errors) - n_input,
        "ruleset_override": ruleset,
        "findings": findings,
    }


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _print_table(
    out: Console,
    hands: list[HandAudit],
    sessions: list[SessionAudit],
    tournaments: list[TournamentAudit],
    summary: dict[str, Any],
    only_summary: bool,
) -> None:
    if not only_summary:
        t = Table(title="Findings", show_lines=False, expand=False)
        for col in ("file", "session", "hand", "action", "seat", "finding", "detail", "rule"):
            t.add_column(col, overflow="fold")
        rows = 0
        for h in hands:
            for v in h.violations:
                t.add_row(
                    h.file or "",
                    h.session,
                    str(h.hand),
                    _fmt(v.action_index),
                    _fmt(v.seat),
                    f"{v.severity}: {v.code}",
                    v.message,
                    v.rule,
                )
                rows += 1
            for d in h.discrepancies:
                t.add_row(
                    h.file or "",
                    h.session,
                    str(h.hand),
                    "",
                    _fmt(d.seat),
                    f"score: {d.item}",
                    f"recorded {_fmt(d.recorded)}, recomputed {_fmt(d.recomputed)}",
                    h.ruleset or "",
                )
                rows += 1
            if h.recomputed is None:
                for u in h.unverified:
                    t.add_row(h.file or "", h.session, str(h.hand), "", "", "unverified", u, "")
                    rows += 1
        for s in sessions:
            for d in s.discrepancies:
                t.add_row(
                    s.file or "",
                    s.session,
                    "",
                    "",
                    _fmt(d.seat),
                    f"session: {d.item}",
                    f"recorded {_fmt(d.recorded)}, recomputed {_fmt(d.recomputed)}",
                    s.ruleset or "",
                )
                rows += 1
        if rows:
            out.print(t)
        else:
            out.print("No findings.")
    if not only_summary:
        for ta in tournaments:
            tt = Table(title=f"Tournament {ta.tournament}: standings")
            for col in ("rank", "player", "placement points", "penalties", "total", "deviation"):
                tt.add_column(col, justify="left" if col == "player" else "right")
            for row in ta.standings:
                tt.add_row(
                    str(row.rank),
                    row.player,
                    _fmt(row.placement_points),
                    _fmt(row.penalties),
                    _fmt(row.total),
                    f"{row.deviation:+.1f}",
                )
            out.print(tt)
            for u in ta.unverified:
                out.print(f"  note: {u}", markup=False, highlight=False)
    st = Table(title="Audit summary", show_header=False)
    st.add_column("what")
    st.add_column("count", justify="right")
    for k, v in summary.items():
        st.add_row(k.replace("_", " "), _fmt(v))
    out.print(st)


# --------------------------------------------------------------------------- command


def _check_ruleset(ruleset: str) -> None:
    for game in GAMES:
        eng = get_engine(game)
        if eng is None:
            continue
        try:
            eng.ruleset(ruleset)
            return
        except Exception:  # noqa: BLE001 - try the next game's engine
            continue
    raise fail(f"unknown ruleset {ruleset!r}: no rules engine knows it")


@app.command("audit")
def audit_command(
    paths: list[Path] = typer.Argument(..., help="Log files or folders (searched recursively)."),
    exclude: list[str] = typer.Option(
        [], "--exclude", help="Skip files or folders with this name (repeatable)."
    ),
    ruleset: str | None = typer.Option(
        None, "--ruleset", help="Re-score every hand under this ruleset (what-if)."
    ),
    fmt: str = typer.Option("table", "--format", help="table, json or jsonl."),
    summary: bool = typer.Option(False, "--summary", help="Print only the summary."),
) -> None:
    """Replay every hand: illegal actions with the rule they break, and recorded vs recomputed
    scores item by item. Exit 0 clean, 1 findings, 2 usage."""
    if fmt not in FORMATS:
        raise fail(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise fail(f"no such file or folder: {', '.join(missing)}")
    if ruleset is not None:
        _check_ruleset(ruleset)
    out = Console(
        file=sys.stdout,
        width=None if sys.stdout.isatty() else 160,
        no_color=err_console.no_color,
    )
    hands: list[HandAudit] = []
    sessions: list[SessionAudit] = []
    input_errors: list[dict[str, Any]] = []
    show_progress = progress_enabled(False, fmt) and not summary
    status = err_console.status("auditing…") if show_progress else None
    if status is not None:
        status.start()
    try:
        for item in read_inputs(paths, exclude):
            for e in item.errors:
                input_errors.append(e)
                err_console.print(
                    f"tarock: {LogError(**e)}", markup=False, highlight=False, soft_wrap=True
                )
            if item.session is None:
                continue
            sa = audit_session(item.session, file=item.file, ruleset=ruleset)
            sessions.append(sa)
            hands.extend(sa.hands)
            if fmt == "jsonl" and not summary:
                for h in sa.hands:
                    sys.stdout.write(_dumps(h.to_dict()) + "\n")
            if status is not None:
                status.update(f"auditing… {len(hands)} hands")
    finally:
        if status is not None:
            status.stop()
    tournaments = audit_tournaments(sessions)
    summ = _summary(hands, sessions, input_errors, ruleset, len(tournaments))
    if fmt == "jsonl":
        if summary:
            sys.stdout.write(_dumps({"summary": summ}) + "\n")
    elif fmt == "json":
        doc: dict[str, Any] = {"summary": summ}
        if not summary:
            doc = {
                "hands": [h.to_dict() for h in hands],
                "sessions": [s.to_dict() for s in sessions],
                "tournaments": [t.to_dict() for t in tournaments],
                "input_errors": input_errors,
                "summary": summ,
            }
        sys.stdout.write(_dumps(doc) + "\n")
    else:
        _print_table(out, hands, sessions, tournaments, summ, summary)
    sys.stdout.flush()
    raise typer.Exit(int(ExitCode.FINDINGS if summ["findings"] else ExitCode.OK))
