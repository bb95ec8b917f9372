"""Serving the dashboard and driving it in Debian's headless Chromium (never a downloaded
browser: Playwright's driver from the wheel launches /usr/bin/chromium)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.dashboard.dash_helpers import TAROCK

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
#: the dashboard's pages by URL path
PAGES = ["", "audit", "replay", "players", "tournament", "enter"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"tarock dashboard exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.2)
    raise TimeoutError("the dashboard did not become healthy")


@contextmanager
def serve(db: Path, log: Path | None = None) -> Iterator[str]:
    """``tarock dashboard`` over ``db`` on a free 127.0.0.1 port; its URL. With ``log``, the
    server's output goes to that file (else nowhere)."""
    port = free_port()
    env = {**os.environ, "TAROCK_DB": ""}
    out = open(log, "wb") if log is not None else None
    proc = subprocess.Popen(
        [str(TAROCK), "dashboard", "--db", str(db), "--port", str(port), "--host", "127.0.0.1"],
        stdout=out or subprocess.DEVNULL,
        stderr=subprocess.STDOUT if out else subprocess.DEVNULL,
        env=env,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if out is not None:
            out.close()


def settle(page: Any) -> None:
    """Wait until the page is connected and its script has finished running."""
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=30_000
    )
    page.wait_for_timeout(200)  # let a rerun start
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=30_000)


def goto(page: Any, url: str) -> None:
    page.goto(url)
    settle(page)


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright's driver (never a downloaded browser);
    closed at the end."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()
