"""``tarock dashboard --workers 2`` (issue 36: more than one server process): the front door
(``dashboard/front.py``) starts two Streamlit servers behind one address and keeps each
browser on one of them; pages opened through it are served by both, and when one is killed
the other serves every page, its own sessions on undisturbed, and the killed one is started
again. The real component: the command as a club runs it, driven over Streamlit's own
websocket protocol (``ws_client``) with the front door's cookie as a browser sends it."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dashboard.browser_helpers import (
    CHROMIUM,
    chromium,
    free_port,
    goto,
    settle,
    wait_healthy,
)
from tests.dashboard.dash_helpers import TAROCK, DashDB
from tests.dashboard.ws_client import Run, Session


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
            return bool(r.read().strip() == b"ok")
    except OSError:
        return False


def _wait(pred: object, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if pred():  # type: ignore[operator]
            return
        time.sleep(0.2)
    raise TimeoutError(what)


def _worker_pids(front: int) -> dict[int, int]:
    """The front door's workers: port → pid (from /proc)."""
    out: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
            cmd = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if ppid != front:
            continue
        for arg in cmd:
            if arg.startswith(b"--server.port="):
                out[int(arg.split(b"=")[1])] = int(entry.name)
    return out


@pytest.fixture(scope="module")
def front(dash_db: DashDB) -> Iterator[tuple[str, int, subprocess.Popen[bytes]]]:
    port = free_port()
    while any(_healthy(f"http://127.0.0.1:{port + i}") for i in (1, 2)):  # pragma: no cover
        port = free_port()
    proc = subprocess.Popen(
        [str(TAROCK), "dashboard", "--db", str(dash_db.path), "--port", str(port),
         "--host", "127.0.0.1", "--workers", "2"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TAROCK_DB": ""},
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, timeout=90)
        for i in (1, 2):
            _wait(lambda i=i: _healthy(f"http://127.0.0.1:{port + i}"), 90, f"worker {i}")
        time.sleep(1.5)  # the front door's health check has seen both
        yield url, port, proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def _replay_and_step(url: str, worker: int | None) -> tuple[Run, Run, Session]:
    s = Session(
        url, timeout=60, cookies={"tarock_worker": str(worker)} if worker is not None else None
    )
    await s.connect()
    opened = await s.open("replay", "step=0")
    stepped = await s.click("forward") if "forward" in s.widgets else opened
    return opened, stepped, s


def test_two_workers_serve_pages_through_the_front_door_and_one_survives_the_other(
    front: tuple[str, int, subprocess.Popen[bytes]],
) -> None:
    url, port, proc = front
    pids = _worker_pids(proc.pid)
    assert sorted(pids) == [port + 1, port + 2]

    async def scenario() -> None:
        # a browser stuck to each worker: both serve a replay and its step
        runs = [await _replay_and_step(url, w) for w in (0, 1)]
        for opened, stepped, _ in runs:
            assert opened.ok and stepped.ok, (opened, stepped)
            assert "Replay" in opened.text
        # the first page load of a new browser is given the cookie of a worker
        with urllib.request.urlopen(url + "/replay", timeout=10) as r:
            assert "tarock_worker=" in (r.headers.get("Set-Cookie") or "")
            assert r.status == 200
        # worker 0 is killed: the front door answers, a browser stuck to it is served by
        # worker 1, and the session already on worker 1 steps on
        os.kill(pids[port + 1], signal.SIGKILL)
        _wait(lambda: not _healthy(f"http://127.0.0.1:{port + 1}"), 10, "worker 0 gone")
        assert _healthy(url)
        opened, stepped, moved = await _replay_and_step(url, 0)
        assert opened.ok and stepped.ok, (opened, stepped)
        on_worker_1 = runs[1][2]
        again = await on_worker_1.click("forward")
        assert again.ok, again
        for _, _, s in runs:
            await s.close()
        await moved.close()

    asyncio.run(scenario())
    # and the front door starts the killed worker again
    _wait(lambda: _healthy(f"http://127.0.0.1:{port + 1}"), 90, "worker 0 restarted")
    assert _worker_pids(proc.pid)[port + 1] != pids[port + 1]


def test_workers_listen_on_loopback_ports_above_the_front_doors_address() -> None:
    from dashboard.front import workers_of
    from tarock_logs.cli.dashboard import front_argv

    argv = front_argv(Path("/data/t.duckdb"), 8600, "0.0.0.0", 3)
    assert argv[1:3] == ["-m", "dashboard.front"]
    split = argv.index("--")
    assert argv[3:split] == ["--host", "0.0.0.0", "--port", "8600", "--workers", "3"]
    worker = argv[split + 1 :]
    assert "--server.port={port}" in worker and "--server.address=127.0.0.1" in worker
    workers = workers_of(worker, 8600, 3)
    assert [w.port for w in workers] == [8601, 8602, 8603]
    assert "--server.port=8602" in workers[1].argv
    # one cookie secret for all: a form's token and a login hold on any worker
    assert len({w.env["STREAMLIT_SERVER_COOKIE_SECRET"] for w in workers}) == 1


def test_each_worker_reads_with_a_share_of_memory_unless_the_environment_sets_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """N servers each keeping DuckDB's 1 GB buffer pool grow the tree past the 1 GB target at
    50 visitors; each worker's reader gets WORKER_READER_MEMORY_LIMIT, an operator's own
    TAROCK_READER_MEMORY_LIMIT wins, and the reader opens with what its environment says."""
    import duckdb

    from dashboard.front import WORKER_READER_MEMORY_LIMIT, workers_of
    from tarock_logs.store.read.queries import connect_reader

    monkeypatch.delenv("TAROCK_READER_MEMORY_LIMIT", raising=False)
    assert {w.env["TAROCK_READER_MEMORY_LIMIT"] for w in workers_of(["x"], 8600, 2)} == {
        WORKER_READER_MEMORY_LIMIT
    }
    monkeypatch.setenv("TAROCK_READER_MEMORY_LIMIT", "300MB")
    assert {w.env["TAROCK_READER_MEMORY_LIMIT"] for w in workers_of(["x"], 8600, 2)} == {"300MB"}
    db = tmp_path / "s.duckdb"
    duckdb.connect(str(db)).close()
    for value, shown in (("300MB", "286.1 MiB"), (WORKER_READER_MEMORY_LIMIT, "122.0 MiB")):
        monkeypatch.setenv("TAROCK_READER_MEMORY_LIMIT", value)
        con = connect_reader(db)
        try:
            assert con.execute("SELECT current_setting('memory_limit')").fetchall() == [(shown,)]
        finally:
            con.close()


def test_workers_that_would_pass_the_last_port_are_a_usage_error(dash_db: DashDB) -> None:
    from typer.testing import CliRunner

    from tarock_logs.cli import main
    from tarock_logs.cli.common import app

    assert callable(main)  # (the command line's commands are registered on ``app``)
    r = CliRunner().invoke(
        app, ["dashboard", "--db", str(dash_db.path), "--port", "65534", "--workers", "2"]
    )
    assert r.exit_code == 2 and "no room for 2 workers" in r.output


def test_with_no_worker_up_a_visitor_is_told_so_in_their_language() -> None:
    from tornado import httpclient

    from dashboard.front import Pool, Worker, app

    async def ask() -> tuple[int, str, str]:
        pool = Pool([Worker(0, 1, [], {})])  # never started: not up
        port = free_port()
        server = app(pool).listen(port, address="127.0.0.1")
        try:
            client = httpclient.AsyncHTTPClient()
            page = await client.fetch(
                f"http://127.0.0.1:{port}/replay",
                headers={"Accept-Language": "sl-SI,sl;q=0.9"},
                raise_error=False,
            )
            health = await client.fetch(
                f"http://127.0.0.1:{port}/_stcore/health", raise_error=False
            )
            return page.code, page.body.decode(), str(health.code)
        finally:
            server.stop()

    code, body, health = asyncio.run(ask())
    assert code == 503 and health == "503"
    assert (
        body == "Nadzorna plošča se zaganja ali ponovno zaganja. Čez trenutek znova naloži stran."
    )


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium")
def test_in_chromium_an_open_page_is_drawn_again_when_its_worker_is_killed(
    front: tuple[str, int, subprocess.Popen[bytes]],
) -> None:
    """A browser through the front door: the page, its static files and its websocket come
    from the worker of its cookie; that worker killed, the open page reconnects through the
    front door to the other one, which draws it again at its step (the URL keeps it)."""
    url, port, proc = front
    for i in (1, 2):
        _wait(lambda i=i: _healthy(f"http://127.0.0.1:{port + i}"), 90, f"worker {i}")
    time.sleep(1.5)  # the front door's health check has seen both
    with chromium() as b:
        ctx = b.new_context()
        page = ctx.new_page()
        goto(page, url + "/replay?step=3")
        assert page.get_by_text("Step 3 of").count() == 1
        stuck = {c["name"]: c["value"] for c in ctx.cookies()}["tarock_worker"]
        os.kill(_worker_pids(proc.pid)[port + 1 + int(stuck)], signal.SIGKILL)
        # the page reconnects through the front door, which sticks it to the other worker
        # (its cookie changes): waited for (a fixed 1.5 s before)
        deadline = time.monotonic() + 60
        while {c["name"]: c["value"] for c in ctx.cookies()}.get("tarock_worker") == stuck:
            assert time.monotonic() < deadline, "the page never moved to the other worker"
            page.wait_for_timeout(100)
        page.get_by_text("Step 3 of").wait_for(timeout=60_000)
        settle(page)
        assert page.get_by_text("Step 3 of").count() == 1
        assert not page.locator("[data-testid='stException']").count()
        moved = {c["name"]: c["value"] for c in ctx.cookies()}["tarock_worker"]
        assert moved != stuck
        # its step buttons answer once the page is loaded again (the new worker's session
        # has not run the viewer's fragment: Streamlit ignores a fragment's click it does not
        # know; docs/dashboard.md): reloaded, it steps on, on the other worker
        goto(page, page.url)
        assert page.get_by_text("Step 3 of").count() == 1
        page.locator(".st-key-forward button:visible").last.click()
        page.get_by_text("Step 4 of").wait_for(timeout=30_000)
        assert "step=4" in page.url
