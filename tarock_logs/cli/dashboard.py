"""``tarock dashboard``: serve the Streamlit dashboard over a DuckDB file (opened read-only)."""

from __future__ import annotations

import ipaddress
import os
import sys
from pathlib import Path
from typing import Annotated

import typer

from tarock_logs.cli.common import ExitCode, app, fail

#: The Streamlit entry script (``dashboard/app.py`` next to the package).
APP_SCRIPT = Path(__file__).resolve().parents[2] / "dashboard" / "app.py"


def streamlit_argv(
    db: Path, port: int | str, host: str, entry_dir: Path | None = None
) -> list[str]:
    """The command line that serves the dashboard (headless, no file watcher, no telemetry, no
    full garbage collection after every run of a page: with a large store's views in memory
    it took longer than a replay step's own work; Python's own collector still runs):
    Streamlit's ``run`` through ``dashboard.serve``, which imports what the pages need before
    the server starts."""
    extra = ["--entry-dir", str(entry_dir)] if entry_dir is not None else []
    return [
        sys.executable, "-m", "dashboard.serve", "run", str(APP_SCRIPT),
        f"--server.port={port}",
        f"--server.address={host}",
        "--server.headless=true",
        "--server.fileWatcherType=none",
        "--server.maxUploadSize=16",
        "--browser.gatherUsageStats=false",
        "--client.toolbarMode=viewer",
        "--runner.postScriptGC=false",
        "--client.showErrorDetails=none",
        "--", "--db", str(db), *extra,
    ]  # fmt: skip


def front_argv(
    db: Path, port: int, host: str, workers: int, entry_dir: Path | None = None
) -> list[str]:
    """The command line of ``--workers N``: the front door (``dashboard/front.py``) on
    ``host:port``, which starts N servers (:func:`streamlit_argv`) on 127.0.0.1, ports
    ``port + 1`` … ``port + N``, and sticks each browser to one of them."""
    return [
        sys.executable, "-m", "dashboard.front", "--host", host, "--port", str(port),
        "--workers", str(workers), "--", *streamlit_argv(db, "{port}", "127.0.0.1", entry_dir),
    ]  # fmt: skip


#: the access modes of a server (dashboard/access.py reads them from ``TAROCK_ACCESS``)
ACCESS_MODES = ("local", "public")


def default_access(host: str) -> str:
    """``local`` on a loopback address (only this machine can connect: everything is shown),
    else ``public`` (names masked on the server, no hand entry, referees log in)."""
    if host == "localhost":
        return "local"
    try:
        return "local" if ipaddress.ip_address(host).is_loopback else "public"
    except ValueError:  # a host name, or an address of every interface: others may reach it
        return "public"


@app.command()
def dashboard(
    db: Annotated[
        Path,
        typer.Option("--db", envvar="TAROCK_DB", help="DuckDB file written by `tarock ingest`."),
    ] = Path("tarock.duckdb"),
    port: Annotated[int, typer.Option("--port", min=1, max=65535)] = 8501,
    host: Annotated[str, typer.Option("--host", help="Address to listen on.")] = "127.0.0.1",
    entry_dir: Annotated[
        Path | None,
        typer.Option(
            "--entry-dir",
            envvar="TAROCK_ENTRY_DIR",
            help="Folder the hand entry (page /enter) saves logs into, for `tarock ingest`. "
            "With it the dashboard starts without a database (only the entry works then).",
        ),
    ] = None,
    access: Annotated[
        str | None,
        typer.Option(
            "--access",
            help="`local`: everything for the person at this machine (the default on a "
            "loopback --host); `public`: names masked on the server, no hand entry, referees "
            "log in (the default on any other --host).",
        ),
    ] = None,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            min=1,
            max=32,
            help="Server processes (one Streamlit process serves page runs on about one "
            "core): more than 1 starts them on 127.0.0.1, ports PORT+1…PORT+N, behind a front "
            "door on --host:--port that keeps each browser on one of them.",
        ),
    ] = 1,
    users: Annotated[
        Path | None,
        typer.Option(
            "--users",
            envvar="TAROCK_USERS",
            help="Referees file (`tarock referees add`): a public server's referees log in "
            "with it (or through the identity provider of the app's secrets `[auth]`).",
        ),
    ] = None,
) -> None:
    """Serve the dashboard (audit, replay, players, tournament, hand entry) for a database,
    read-only: it never writes the database (the hand entry writes log files)."""
    db = db.expanduser().resolve()
    mode = access or default_access(host)
    if mode not in ACCESS_MODES:
        raise fail(f"--access must be one of {', '.join(ACCESS_MODES)}", ExitCode.USAGE)
    if users is not None:
        users = users.expanduser().resolve()
        if not users.is_file():
            raise fail(f"--users {users}: no such file (make it with `tarock referees add`)")
    if entry_dir is not None:
        entry_dir = entry_dir.expanduser().resolve()
        if entry_dir.exists() and not entry_dir.is_dir():
            raise fail(f"--entry-dir {entry_dir} is not a folder", ExitCode.USAGE)
    if not db.is_file() and entry_dir is None:
        raise fail(f"no database at {db}: run `tarock ingest PATH --db {db}` first", ExitCode.USAGE)
    if db.is_file():
        from tarock_logs.store.read.queries import store_problem

        problem = store_problem(db)
        if problem is not None:
            raise fail(f"cannot serve {db}: {problem}", ExitCode.DB)
    if not APP_SCRIPT.is_file():
        raise fail(f"dashboard script missing: {APP_SCRIPT}", ExitCode.INTERNAL)
    env = {**os.environ, "TAROCK_DB": str(db), "TAROCK_ACCESS": mode}
    if users is not None:
        env["TAROCK_USERS"] = str(users)
    if entry_dir is not None:
        env["TAROCK_ENTRY_DIR"] = str(entry_dir)
    if port + workers > 65535:
        raise fail(f"--port {port} leaves no room for {workers} workers above it", ExitCode.USAGE)
    argv = (
        streamlit_argv(db, port, host, entry_dir)
        if workers == 1
        else front_argv(db, port, host, workers, entry_dir)
    )
    sys.stdout.flush()
    sys.stderr.flush()
    # Replace this process, so that stopping `tarock dashboard` stops the server.
    os.execve(argv[0], argv, env)
