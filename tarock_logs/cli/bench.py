"""``tarock bench``: throughput of validation, replay, ingest, a bare baseline and OpenSpiel."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import orjson
import typer
from rich.table import Table

from tarock_logs.cli.common import ExitCode, app, err_console, fail

QUICK_HANDS = 320
DEFAULT_HANDS = 2000


def _table(report: dict[str, Any]) -> Table:
    t = Table(title="tarock bench", show_header=True)
    t.add_column("measure")
    t.add_column("value", justify="right")
    for key, value in report.items():
        if key in ("machine", "details"):
            continue
        t.add_row(
            key,
            "—"
            if value is None
            else f"{value:,}"
            if isinstance(value, int | float)
            else str(value),
        )
    for key, value in (report.get("details") or {}).items():
        t.add_row(f"  {key}", "—" if value is None else str(value))
    m = report.get("machine") or {}
    t.caption = (
        f"{m.get('cpu')}, {m.get('nproc')} cores, Python {m.get('python')}, load {m.get('loadavg')}"
    )
    return t


@app.command()
def bench(
    quick: Annotated[
        bool,
        typer.Option(
            "--quick",
            help=f"{QUICK_HANDS} hands, under a minute "
            "(a smoke test: fixed costs dominate the ratios)",
        ),
    ] = False,
    hands: Annotated[
        int | None, typer.Option("--hands", min=1, help="hands to simulate and time")
    ] = None,
    openspiel_hands: Annotated[
        int | None,
        typer.Option(
            "--openspiel-hands", min=0, help="hands for the OpenSpiel comparison (default: half)"
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="simulation seed")] = 7,
    fmt: Annotated[str, typer.Option("--format", help="table or json")] = "table",
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="[ADDRESS]",
            help="Also time the ingest on a Dask cluster: the scheduler's ADDRESS, or without "
            "one a local cluster of one worker per core (dask_* keys).",
        ),
    ] = None,
    repeat: Annotated[
        int,
        typer.Option(
            "--repeat",
            min=1,
            help="best of N runs for every timed stage but the simulation (the OpenSpiel "
            "comparison's rounds: until each side has run 0.5 s per N)",
        ),
    ] = 3,
    startup_runs: Annotated[
        int | None,
        typer.Option(
            "--startup-runs",
            min=1,
            help="start the command line N times for each start-up figure, the median "
            "reported (default 5)",
        ),
    ] = None,
) -> None:
    """Simulate N hands to a temporary folder, then time validation, replay (legality +
    itemised scoring), ingest into DuckDB, an orjson+Arrow baseline and, when open-spiel is
    installed, OpenSpiel replaying the same games. Prints the figures and ratios."""
    if fmt not in ("table", "json"):
        raise fail(f"--format must be table or json, not {fmt!r}")
    from tarock_logs.bench import BenchOptions, run
    from tarock_logs.store.write.scaleout import SchedulerUnreachable
    from tarock_logs.tools.simulate import SimulationError

    n = hands if hands is not None else (QUICK_HANDS if quick else DEFAULT_HANDS)
    n_os = openspiel_hands if openspiel_hands is not None else max(n // 2, 1)
    verbose = sys.stderr.isatty() and fmt == "table"

    def say(msg: str) -> None:
        if verbose:
            err_console.print(f"[dim]bench:[/dim] {msg}")

    try:
        report = run(
            BenchOptions(
                hands=n,
                openspiel_hands=n_os,
                seed=seed,
                dask=dask,
                repeat=repeat,
                # the OpenSpiel comparison's short stages: 0.5 s a side per repeat (1.5 s at 3)
                short_stage_seconds=0.5 * repeat,
                **({} if startup_runs is None else {"startup_runs": startup_runs}),
            ),
            progress=say,
        )
    except SimulationError as exc:
        raise fail(str(exc), ExitCode.INTERNAL) from exc
    except SchedulerUnreachable as exc:
        raise fail(str(exc)) from exc
    if fmt == "json":
        sys.stdout.write(orjson.dumps(report).decode() + "\n")
    else:
        from rich.console import Console

        Console().print(_table(report))
