"""``tarock audit``: replay every hand, check legality, recompute scores, compare with the log.

Data goes to stdout (``--format table|json|jsonl``), reader errors and progress to stderr.
Every hand, session and tournament is ``verified``, ``partial`` or ``unverified``
(:mod:`tarock_logs.verdict.findings`). Exit codes: 0 everything verified and no finding; 1
findings (an error-severity violation, a score difference, or an input error); 2 usage (bad
option, missing or empty path, unknown ruleset); 3 internal error; 5 no finding, but not
everything could be verified. Record kinds and fields: ``docs/audit.md``.
"""

from __future__ import annotations

import codecs
import contextlib
import dataclasses
import functools
import sys
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from tarock_logs.cards import GAMES
from tarock_logs.cli.common import (
    DASK_LOCAL,
    ExitCode,
    app,
    checked_paths,
    err_console,
    fail,
    progress_enabled,
)
from tarock_logs.log.errors import LogError, canonical_code, printable

if TYPE_CHECKING:
    from tarock_logs.verdict.audit import HandAudit, SessionAudit
    from tarock_logs.verdict.findings import Finding
    from tarock_logs.verdict.tournament import TournamentAudit

    #: one session record's input errors and its audit (None: no readable session)
    _Audited = tuple[list[dict[str, Any]], SessionAudit | None]

FORMATS = ("table", "json", "jsonl")
#: how each severity is marked in the table (the marker also says it without colour)
_MARK = {
    "error": ("✖ error", "bold red"),
    "warning": ("▲ warning", "yellow"),
    "info": ("· info", "cyan"),
}


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


def _input(rec: Any) -> _Input:
    """A record of the project's lenient reader: its session and input errors (with
    warnings)."""
    file = str(rec.file)
    errors = [_error_dict(e, file, rec.line) for e in rec.all_errors()]
    return _Input(file, rec.session, errors)


#: Whether the local audit offers each record of a JSONL file to the store's ingest lane
#: first (:func:`tarock_logs.store.write.lane.reader_lane`: an ordinary record audited from its
#: bytes, the same audit as :func:`~tarock_logs.verdict.audit.audit_session` makes of it:
#: tests/cli/test_audit_lane.py). Never with ``--ruleset`` (a what-if re-scores every hand).
LANE = True


def _audited(paths: list[Path], exclude: list[str], ruleset: str | None, dask: str | None,
             jobs: int | None) -> Iterator[_Audited]:  # fmt: skip
    """Each session record's input errors and audit (None: no readable session), in the
    reader's order: audited here, or on a Dask cluster (``dask``: a scheduler's address or
    ``local``, see :mod:`tarock_logs.store.write.scaleout`), with the same records either way."""
    if dask is None:
        from tarock_logs.log.reader import iter_log_files, read_file
        from tarock_logs.store.write.lane import LaneSession, reader_lane
        from tarock_logs.verdict.audit import audit_session
        from tarock_logs.verdict.bulk import bulk_gc

        with bulk_gc():
            for f in iter_log_files(paths, exclude):
                fast = reader_lane(str(f)) if LANE and ruleset is None else None
                for rec in read_file(f, lane=fast):
                    if isinstance(rec, LaneSession):  # the lane's: verified, nothing to say
                        yield [], rec.record
                        continue
                    item = _input(rec)
                    sa = None
                    if item.session is not None:
                        sa = audit_session(item.session, file=item.file, ruleset=ruleset)
                    yield item.errors, sa
        return
    from tarock_logs.log.reader import iter_log_files
    from tarock_logs.store.write import scaleout

    files = list(iter_log_files(paths, exclude))
    address = None if dask == DASK_LOCAL else dask
    try:
        with scaleout.cluster(address, jobs) as on:
            for rec in scaleout.audit_records(files, on, ruleset):
                yield rec.errors, rec.audit
    except scaleout.SchedulerUnreachable as exc:
        raise fail(str(exc)) from exc


# --------------------------------------------------------------------------- memory


@functools.cache
def _clean_hand() -> HandAudit:
    """A hand verified with nothing to report, standing in for every such hand once its own
    record is no longer needed (:func:`_compacted`)."""
    from tarock_logs.verdict.audit import HandAudit, ScoreSheet

    return HandAudit(file=None, session="", hand=0, hand_id="", game="", ruleset=None,
                     legal=True, violations=[], recorded=None, recomputed=ScoreSheet([], []),
                     discrepancies=[], unverified=[])  # fmt: skip


def _is_clean(h: HandAudit) -> bool:
    """Verified, legal, no violation, finding, difference or incomplete seat: a hand that
    the summary, the tables and its session's record only count."""
    return (
        h.legal
        and h.recomputed is not None
        and not (h.unverified or h.violations or h.discrepancies or h.findings)
        and not h.incomplete_seats
        and not h.stopped
    )


def _compacted(sa: SessionAudit) -> SessionAudit:
    """``sa`` with each clean hand (:func:`_is_clean`) replaced by one shared stand-in that
    answers as it does (legal, verified, no finding: what the summary, the findings and
    not-verified tables, the session's record and its placement points read of a hand),
    once the hand records have been written (``jsonl``) or spooled (``json``,
    :class:`_HandSpool`): an audit of a million clean hands keeps a pointer per hand instead
    of its record (≈ 2.5 KB each)."""
    clean = _clean_hand()
    sa.hands = [clean if _is_clean(h) else h for h in sa.hands]
    return sa


class _HandSpool:
    """The ``hands`` list of ``--format json``, spooled to a temporary file as the hands are
    audited (so the records need not stay in memory), then written into the document, which
    is the same, byte for byte, as ``_dumps`` of it whole."""

    #: bytes copied at a time (a character's UTF-8 may straddle two reads)
    CHUNK = 1 << 20

    def __init__(self) -> None:
        self.spool = tempfile.TemporaryFile()
        self.n = 0

    def add(self, h: HandAudit) -> None:
        if self.n:
            self.spool.write(b",")
        self.n += 1
        self.spool.write(orjson.dumps(h.to_dict(), option=orjson.OPT_NON_STR_KEYS))

    def write(self, doc: dict[str, Any]) -> None:
        """``doc`` (its ``hands`` an empty list, the first key) with the spooled hands."""
        text = _dumps(doc)
        head = '{"hands":['
        assert text.startswith(head + "]")
        sys.stdout.write(head)
        self.spool.seek(0)
        decode = codecs.getincrementaldecoder("utf-8")().decode
        while chunk := self.spool.read(self.CHUNK):
            sys.stdout.write(decode(chunk))
        sys.stdout.write(decode(b"", True) + text[len(head) :] + "\n")

    def close(self) -> None:
        self.spool.close()


# --------------------------------------------------------------------------- selection


@dataclasses.dataclass(slots=True)
class _Selection:
    """Which findings ``--code`` keeps (all when no code is given)."""

    codes: frozenset[str] = frozenset()

    def keeps(self, f: Finding) -> bool:
        return not self.codes or f.code in self.codes

    def findings(self, found: Iterable[Finding]) -> list[Finding]:
        return [f for f in found if self.keeps(f)]


def current_code(code: str) -> str:
    """``code`` as it is written now: a code used before the renaming is taken as the one
    that replaced it: the reader's (``E-JSON-DEPTH`` → ``json.depth``,
    :func:`tarock_logs.log.errors.canonical_code`) or an engine's (each engine's
    :attr:`~tarock_logs.rules.base.GameEngine.code_aliases`)."""
    new = canonical_code(code)
    if new != code:
        return new
    from tarock_logs.rules import get_engine

    for game in GAMES:
        eng = get_engine(game)
        if eng is not None and code in eng.code_aliases:
            return eng.code_aliases[code]
    return code


def _select_codes(codes: list[str]) -> frozenset[str]:
    """The codes asked for with ``--code`` (repeatable, or comma-separated), each as it is
    written now (:func:`current_code`)."""
    asked = (c.strip() for arg in codes for c in arg.split(","))
    return frozenset(current_code(c) for c in asked if c)


# --------------------------------------------------------------------------- output


def _dumps(obj: Any) -> str:
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def _counts(states: Iterable[str]) -> dict[str, int]:
    from tarock_logs.verdict.findings import VERIFICATION_STATES

    out: dict[str, int] = dict.fromkeys(VERIFICATION_STATES, 0)
    for s in states:
        out[s] += 1
    return out


def _summary(
    hands: list[HandAudit],
    sessions: list[SessionAudit],
    tournaments: list[TournamentAudit],
    input_errors: list[dict[str, Any]],
    ruleset: str | None,
    sel: _Selection,
) -> dict[str, Any]:
    hand_f = [f for h in hands for f in sel.findings(h.findings)]
    session_f = [f for s in sessions for f in sel.findings(s.findings)]
    tournament_f = [f for t in tournaments for f in sel.findings(t.findings)]
    n_input = sum(1 for e in input_errors if e.get("severity", "error") == "error")
    errors = [f for f in (*hand_f, *session_f, *tournament_f) if f.is_error]
    hand_states = _counts(h.verification for h in hands)
    verification = {
        "hands": hand_states,
        "sessions": _counts(s.verification for s in sessions),
        "tournaments": _counts(t.verification for t in tournaments),
    }
    everything_verified = all(
        st == "verified"
        for st in (
            *(h.verification for h in hands),
            *(s.verification for s in sessions),
            *(t.verification for t in tournaments),
        )
    )
    return {
        "files": len({s.file for s in sessions} | {e.get("file") for e in input_errors}),
        "sessions": len(sessions),
        "tournaments": len(tournaments),
        "hands": len(hands),
        "legal_hands": sum(1 for h in hands if h.legal),
        "illegal_hands": sum(1 for h in hands if not h.legal),
        "hands_with_discrepancies": sum(1 for h in hands if h.discrepancies),
        "unverified_hands": hand_states["unverified"],
        "partial_hands": hand_states["partial"],
        "verified_hands": hand_states["verified"],
        "violations": sum(1 for f in hand_f if f.is_error and f.item is None),
        "warnings": sum(1 for f in hand_f if f.severity == "warning"),
        "infos": sum(1 for f in hand_f if f.severity == "info"),
        "discrepancies": sum(1 for f in hand_f if f.item is not None),
        "session_discrepancies": sum(1 for f in session_f if f.item is not None),
        "session_findings": len(session_f),
        "tournament_findings": len(tournament_f),
        "input_errors": n_input,
        "input_warnings": len(input_errors) - n_input,
        "ruleset_override": ruleset,
        "codes": sorted(sel.codes) or None,
        "verification": verification,
        "everything_verified": everything_verified,
        "findings": bool(errors) or n_input > 0,
    }


def _exit_code(summary: dict[str, Any]) -> ExitCode:
    if summary["findings"]:
        return ExitCode.FINDINGS
    return ExitCode.OK if summary["everything_verified"] else ExitCode.NOT_VERIFIED


def _fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _where(f: Finding) -> str:
    if f.level == "tournament":
        return f"tournament {f.tournament}"
    if f.level == "session":
        return "session"
    if f.action_index is not None:
        return f"hand {f.hand}, action {f.action_index}"
    return f"hand {f.hand}"


def _cell(value: Any) -> Text:
    """A table cell: text from a log shown as it is (no Rich markup, every control character
    escaped: :func:`~tarock_logs.log.errors.printable`), so a name can never forge output."""
    return Text(printable("" if value is None else str(value)))


def _severity(sev: str) -> Text:
    label, style = _MARK.get(sev, (sev, ""))
    return Text(label, style=style)


def _findings_table(
    hands: list[HandAudit],
    sessions: list[SessionAudit],
    tournaments: list[TournamentAudit],
    sel: _Selection,
) -> Table | None:
    t = Table(title="Findings", show_lines=False, expand=False)
    for col in ("severity", "file", "session", "where", "player", "code", "finding", "rule"):
        t.add_column(col, overflow="fold")
    rows = 0

    def add(f: Finding, file: str | None, session: str | None) -> None:
        nonlocal rows
        who = ", ".join(p.name for p in f.players) or "—"
        t.add_row(
            _severity(f.severity),
            *map(_cell, (file, session, _where(f), who, f.code, f.message, f.rule)),
        )
        rows += 1

    by_session: dict[str, list[HandAudit]] = {}
    for h in hands:
        by_session.setdefault(f"{h.file}\0{h.session}", []).append(h)
    for s in sessions:
        for h in by_session.get(f"{s.file}\0{s.session}", []):
            for f in sel.findings(h.findings):
                add(f, h.file, h.session)
        for f in sel.findings(s.findings):
            add(f, s.file, s.session)
    for ta in tournaments:
        for f in sel.findings(ta.findings):
            add(f, None, None)
    return t if rows else None


def _not_verified_table(hands: list[HandAudit], sessions: list[SessionAudit]) -> Table | None:
    """Every hand and session that is not ``verified``, with what could not be checked."""
    t = Table(title="Not fully verified", expand=False)
    for col in ("state", "file", "session", "hand", "not checked"):
        t.add_column(col, overflow="fold")
    rows = 0
    for h in hands:
        if h.verification != "verified":
            t.add_row(*map(_cell, (h.verification, h.file, h.session, h.hand)),
                      _cell("; ".join(h.unverified)))  # fmt: skip
            rows += 1
    for s in sessions:
        if s.verification != "verified" and s.unverified:
            t.add_row(*map(_cell, (s.verification, s.file, s.session, "")),
                      _cell("; ".join(s.unverified)))  # fmt: skip
            rows += 1
    return t if rows else None


def _verdict_line(summary: dict[str, Any]) -> str:
    """The audit in one sentence, with the counts in words and correct plurals."""
    from tarock_logs.report.text import plural

    hs = summary["verification"]["hands"]
    parts = [
        plural(summary["violations"], "illegal action"),
        plural(summary["warnings"], "warning"),
        plural(summary["discrepancies"] + summary["session_discrepancies"], "score difference"),
    ]
    if summary["tournament_findings"]:
        parts.append(plural(summary["tournament_findings"], "tournament finding"))
    if summary["input_errors"]:
        parts.append(plural(summary["input_errors"], "input error"))
    states = ", ".join(f"{n} {st}" for st, n in hs.items() if n)
    line = f"{plural(summary['hands'], 'hand')} ({states or 'none'}): " + ", ".join(parts) + "."
    if summary["findings"]:
        return "Findings: " + line
    if not summary["everything_verified"]:
        return "No findings, but not everything could be verified: " + line
    return "No findings; everything verified: " + line


def _print_table(
    out: Console,
    hands: list[HandAudit],
    sessions: list[SessionAudit],
    tournaments: list[TournamentAudit],
    summary: dict[str, Any],
    only_summary: bool,
    sel: _Selection,
) -> None:
    if not only_summary:
        table = _findings_table(hands, sessions, tournaments, sel)
        if table is not None:
            out.print(table)
        elif summary["everything_verified"]:
            out.print("No findings.")
        else:
            out.print("No findings so far, but not everything could be verified: see below.")
        pending = _not_verified_table(hands, sessions)
        if pending is not None:
            out.print(pending)
        for ta in tournaments:
            title = printable(f"Tournament {ta.tournament}: standings ({ta.verification})")
            tt = Table(title=Text(title))
            for col in ("rank", "player", "placement points", "penalties", "total", "deviation"):
                tt.add_column(col, justify="left" if col == "player" else "right")
            for row in ta.standings:
                tt.add_row(
                    str(row.rank),
                    _cell(row.name or row.player),
                    _fmt(row.placement_points),
                    _fmt(row.penalties),
                    _fmt(row.total),
                    f"{row.deviation:+.1f}",
                )
            out.print(tt)
            for u in ta.unverified:
                out.print(f"  note: {printable(u)}", markup=False, highlight=False)
    st = Table(title="Audit summary", show_header=False)
    st.add_column("what")
    st.add_column("count", justify="right")
    for k, v in summary.items():
        if k == "verification":
            continue
        st.add_row(k.replace("_", " "), _cell(_fmt(v)))
    for level in ("sessions", "tournaments"):  # (the hands' states have their own keys)
        for state, n in summary["verification"][level].items():
            st.add_row(f"{state} {level}", str(n))
    out.print(st)
    out.print(_verdict_line(summary), markup=False, highlight=False)


def _session_records(
    sa: SessionAudit, sel: _Selection, with_hands: bool = True
) -> Iterator[dict[str, Any]]:
    """The jsonl records of one session: its hands, then the session record (with ``--code``
    only the records holding a selected finding)."""
    for h in sa.hands if with_hands else ():
        if not sel.codes or sel.findings(h.findings):
            yield h.to_dict()
    if not sel.codes or sel.findings(sa.findings):
        yield sa.to_dict()


# --------------------------------------------------------------------------- command


def check_ruleset(ruleset: str) -> None:
    from tarock_logs.rules import get_engine

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


def _console() -> Console:
    """Stdout for people: wrapped to the terminal; written out in full (no wrapping) when
    stdout is not a terminal, so that a finding stays on its own line."""
    tty = sys.stdout.isatty()
    return Console(
        file=sys.stdout,
        width=None if tty else 100_000,
        no_color=err_console.no_color,
        soft_wrap=not tty,
    )


@app.command("audit")
def audit_command(
    args: list[str] = typer.Argument(
        ..., metavar="PATHS...", help="Log files or folders (searched recursively)."
    ),
    exclude: list[str] = typer.Option(
        [], "--exclude", help="Skip files or folders with this name (repeatable)."
    ),
    ruleset: str | None = typer.Option(
        None, "--ruleset", help="Re-score every hand under this ruleset (what-if)."
    ),
    fmt: str = typer.Option("table", "--format", help="table, json or jsonl."),
    summary: bool = typer.Option(False, "--summary", help="Print only the summary."),
    code: list[str] = typer.Option(
        [],
        "--code",
        help="Report only findings with this code (repeatable or comma-separated; the codes "
        "used before the renaming are accepted too).",
    ),
    dask: str | None = typer.Option(
        None,
        "--dask",
        metavar="[ADDRESS]",
        help="Audit on a Dask cluster: the scheduler's ADDRESS (tcp://host:8786; workers need "
        "the package and the files at the same paths), or without one a local cluster of "
        "--jobs worker processes (default: one per core). Same findings and exit code.",
    ),
    jobs: int | None = typer.Option(
        None, "--jobs", "-j", min=1, help="Worker processes of the local cluster (with --dask)."
    ),
) -> None:
    """Replay every hand: illegal actions with the rule they break, recorded vs recomputed
    scores item by item, session totals, placement points and standings, and whether each
    hand, session and tournament could be verified (verified, partial, unverified).

    Exit codes: 0 everything verified, no finding; 1 findings (an error, a score difference
    or an input error); 2 usage (bad option, missing or empty path, unknown ruleset);
    3 internal error; 5 no finding, but not everything could be verified."""
    if fmt not in FORMATS:
        raise fail(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    paths = checked_paths(args)
    if jobs is not None and dask is None:
        raise fail("--jobs sizes the local Dask cluster: give it with --dask")
    if ruleset is not None:
        check_ruleset(ruleset)
    sel = _Selection(_select_codes(code))
    out = _console()
    hands: list[HandAudit] = []
    sessions: list[SessionAudit] = []
    input_errors: list[dict[str, Any]] = []
    n_inputs = 0
    # (--format json without --summary prints every hand record at the end: from a spool)
    spool = _HandSpool() if fmt == "json" and not summary else None
    show_progress = progress_enabled(False, fmt) and not summary
    status = err_console.status("auditing…") if show_progress else None
    if status is not None:
        status.start()
    try:
        for item_errors, sa in _audited(paths, exclude, ruleset, dask, jobs):
            n_inputs += 1
            for e in item_errors:
                if sel.codes and current_code(str(e.get("code"))) not in sel.codes:
                    continue
                input_errors.append(e)
                if fmt == "jsonl" and not summary:  # (a reader's error or warning: its record)
                    sys.stdout.write(_dumps({"record": "input_error", **e}) + "\n")
                err_console.print(
                    f"tarock: {printable(str(LogError(**e)))}",
                    markup=False,
                    highlight=False,
                    soft_wrap=True,
                )
            if sa is None:
                continue
            if (fmt == "jsonl" and not summary) or spool is not None:
                for h in sa.hands:
                    if not sel.codes or sel.findings(h.findings):
                        if spool is not None:
                            spool.add(h)
                        else:
                            sys.stdout.write(_dumps(h.to_dict()) + "\n")
            sa = _compacted(sa)
            sessions.append(sa)
            hands.extend(sa.hands)
            if status is not None:
                status.update(f"auditing… {len(hands)} hands")
    except BaseException:
        if spool is not None:
            spool.close()
        raise
    finally:
        if status is not None:
            status.stop()
    if n_inputs == 0:
        if spool is not None:
            spool.close()
        raise fail(f"no log files found in {', '.join(str(p) for p in paths)}")
    from tarock_logs.verdict.tournament import audit_tournaments

    tournaments = audit_tournaments(sessions)
    summ = _summary(hands, sessions, tournaments, input_errors, ruleset, sel)
    if fmt == "jsonl":
        if not summary:
            # session records after all hands: a tournament settles their placement points
            for sa in sessions:
                for rec in _session_records(sa, sel, with_hands=False):
                    sys.stdout.write(_dumps(rec) + "\n")
            for ta in tournaments:
                if not sel.codes or sel.findings(ta.findings):
                    sys.stdout.write(_dumps(ta.to_dict()) + "\n")
        sys.stdout.write(_dumps({"record": "summary", "summary": summ}) + "\n")
    elif fmt == "json" and spool is None:  # (--summary)
        sys.stdout.write(_dumps({"summary": summ}) + "\n")
    elif spool is not None:
        with contextlib.closing(spool):
            spool.write(
                {
                    "hands": [],  # (the spooled records)
                    "sessions": [s.to_dict() for s in sessions],
                    "tournaments": [t.to_dict() for t in tournaments],
                    "input_errors": input_errors,
                    "summary": summ,
                }
            )
    else:
        _print_table(out, hands, sessions, tournaments, summ, summary, sel)
    sys.stdout.flush()
    raise typer.Exit(int(_exit_code(summ)))
