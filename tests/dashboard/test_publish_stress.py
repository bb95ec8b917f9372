"""One store version per page run under load (issue 36, item 3): an ingest publishes a new
store every 0.15 s while 8 visitors browse the Audit page of a real ``tarock dashboard``
server (Streamlit's own websocket protocol, :mod:`tests.dashboard.ws_client`).

The page's marker is its caption "N of TOTAL hands match the filters": N and TOTAL come from
two queries (the findings' count and the store's overview), so a page run that read two
versions shows a pair of neither store. The publishes alternate between two stores whose pairs
differ in both numbers; every page must show one store's pair, and once the publishing stops
the server holds no replaced file open (the old versions are closed when no run reads them).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tarock_logs.store.connect import publish
from tests.dashboard.browser_helpers import free_port, wait_healthy
from tests.dashboard.dash_helpers import TAROCK, DashDB
from tests.dashboard.ws_client import Session

pytestmark = pytest.mark.slow  # a server and 8 sessions for up to 15 s

MARKER = re.compile(r"(\d+) of (\d+) hands match the filters")
SESSIONS = 8
PUBLISH_EVERY = 0.15
#: the visitors browse until the ingest has published PUBLISHES times (and they have seen
#: both stores and SESSIONS * 2 pages), or for BROWSE_SECONDS at most: a fixed 15 s spent
#: most of its time after what the test asserts had happened (about 5 s on a quiet host)
PUBLISHES = 30
BROWSE_SECONDS = 15.0


@contextmanager
def _served(db: Path) -> Iterator[tuple[str, int]]:
    """``tarock dashboard`` over ``db`` (the server's URL and process id)."""
    port = free_port()
    proc = subprocess.Popen(
        [str(TAROCK), "dashboard", "--db", str(db), "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TAROCK_DB": ""},
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _replaced_files_open(pid: int, db: Path) -> int:
    """How many replaced (deleted) versions of ``db`` the process ``pid`` still holds open."""
    n = 0
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith(str(db)) and target.endswith("(deleted)"):
            n += 1
    return n


def _marker(text: str) -> tuple[int, int] | None:
    m = MARKER.search(text)
    return (int(m.group(1)), int(m.group(2))) if m else None


async def _audit_pair(url: str) -> tuple[int, int]:
    s = Session(url)
    await s.connect()
    try:
        run = await s.open("audit")
    finally:
        await s.close()
    assert run.ok, (run.status, run.exceptions, run.errors)
    pair = _marker(run.text)
    assert pair is not None, run.text[:500]
    return pair


async def _browse(
    url: str, done: Callable[[], bool], seen: list[tuple[int, int] | None], bad: list[str]
) -> None:
    s = Session(url)
    await s.connect()
    try:
        while not done():
            run = await s.open("audit")
            if not run.ok or run.warnings:
                bad.append(f"{run.status} {run.exceptions} {run.errors} {run.warnings}")
            seen.append(_marker(run.text))
    finally:
        await s.close()


def test_pages_read_one_store_version_while_an_ingest_publishes_every_150_ms(
    dash_db: DashDB, tmp_path: Path
) -> None:
    from tarock_logs.store.write.ingest import ingest

    store_a = tmp_path / "a.duckdb"
    shutil.copyfile(dash_db.path, store_a)
    store_b = tmp_path / "b.duckdb"  # another store: fewer hands, other findings
    ingest([str(dash_db.logs / "slovenian")], db=str(store_b))
    served = tmp_path / "served.duckdb"
    shutil.copyfile(store_a, served)

    def put(src: Path) -> None:  # as the ingest publishes: a staging copy renamed over it
        stage = served.with_name(served.name + ".tmp-test")
        shutil.copyfile(src, stage)
        publish(stage, served)

    with _served(served) as (url, pid):
        pair_a = asyncio.run(_audit_pair(url))
        put(store_b)
        pair_b = asyncio.run(_audit_pair(url))
        # a mixed page would show a pair of neither store
        assert pair_a[0] != pair_b[0] and pair_a[1] != pair_b[1], (pair_a, pair_b)

        stop = threading.Event()
        published = [0]

        def publisher() -> None:
            while not stop.is_set():
                put(store_a if published[0] % 2 == 0 else store_b)
                published[0] += 1
                stop.wait(PUBLISH_EVERY)

        seen: list[tuple[int, int] | None] = []
        bad: list[str] = []

        until = time.monotonic() + BROWSE_SECONDS

        def done() -> bool:
            if time.monotonic() >= until:
                return True
            both = pair_a in seen and pair_b in seen
            return published[0] >= PUBLISHES and both and len(seen) >= SESSIONS * 2

        async def browse_all() -> None:
            await asyncio.gather(*(_browse(url, done, seen, bad) for _ in range(SESSIONS)))

        thread = threading.Thread(target=publisher, daemon=True)
        thread.start()
        try:
            asyncio.run(browse_all())
        finally:
            stop.set()
            thread.join()

        shown = Counter(seen)
        print(f"{len(seen)} pages, {published[0]} publishes: {dict(shown)}")
        assert not bad, bad[:5]
        assert set(shown) <= {pair_a, pair_b}, shown  # no page mixed two versions
        assert shown[pair_a] and shown[pair_b], shown  # and the pages did switch
        assert published[0] >= 20 and len(seen) >= SESSIONS * 2, (published[0], len(seen))

        # publishing over: the next page reads the last file, and nothing older stays open
        last = store_b if published[0] % 2 == 0 else store_a
        assert asyncio.run(_audit_pair(url)) == (pair_a if last == store_a else pair_b)
        assert _replaced_files_open(pid, served) == 0
