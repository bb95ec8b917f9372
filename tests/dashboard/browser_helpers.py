"""Serving the dashboard and driving it in Debian's headless Chromium (never a downloaded
browser: Playwright's driver from the wheel launches /usr/bin/chromium)."""

from __future__ import annotations

import os
import socket
import subprocess
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.dashboard.dash_helpers import TAROCK

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
# Measured and not added (2026-12-08, Chromium CPU a load and a click, A/B by turns;
# docs/performance.md, "The test suite's time"): --disable-site-isolation-trials,
# --renderer-process-limit=1, --js-flags=--no-opt/--no-maglev (no margin), --js-flags=--lite-mode
# (a click 0.5-0.7 -> 0.9-1.1 s), CSS animations and transitions switched off by an init script
# (no margin), one context shared by the pages (each new page is a new renderer: no gain), a
# persistent profile with its disk and code caches (the Audit page's load -15-25 %, the
# replay's none, a click +25 %). What pays is the page itself: a load in a page that has
# loaded the same server's app before costs 1.8-3.0 s against 4.0-7.2 for a new page's first.
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


_SETTLED = """() => {
  const app = document.querySelector("[data-testid='stApp']");
  return !!app && app.getAttribute('data-test-connection-state') === 'CONNECTED'
    && app.getAttribute('data-test-script-state') === 'notRunning';
}"""


def settle(page: Any) -> None:
    """Wait until the page is connected and its script has finished running."""
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=30_000
    )
    page.wait_for_timeout(200)  # let a rerun start
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=30_000)


def settle_loaded(page: Any) -> None:
    """:func:`settle` for a page just loaded: its first run needs no time to start, since
    until it has begun the app's script state is ``initial``, not ``notRunning``; the state
    is read again after two frames, in case that run asked for another."""
    page.wait_for_function(_SETTLED, timeout=30_000, polling="raf")
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function(_SETTLED, timeout=30_000, polling="raf")


def goto(page: Any, url: str) -> None:
    page.goto(url)
    settle_loaded(page)


#: true once no lazily loaded element of the page is still a placeholder (Streamlit draws a
#: skeleton where an element's code, such as a page link's or a download button's, is still
#: being fetched: a fresh page load shows them for a while after its run has finished)
_NO_SKELETON = "() => !document.querySelector(\"[data-testid='stSkeleton']\")"


def drawn(page: Any, timeout: float = 30_000) -> None:
    """Wait until no element of the page is a placeholder still (see :data:`_NO_SKELETON`)."""
    page.wait_for_function(_NO_SKELETON, timeout=timeout, polling="raf")


def in_app(
    page: Any,
    move: Callable[[], None],
    *shows: Any,
    url: Any = None,
    timeout: float = 30_000,
) -> None:
    """Make a move inside the open app session (a click on a page link or on the sidebar's
    navigation, a key, a widget's change: one run of the page, no new frontend) and wait
    until its run has drawn and finished.

    A run starts some time after the move (until then the page still says ``notRunning``),
    so what proves that it has drawn is asked for: ``url`` (a pattern the page's URL then
    matches) and ``shows`` (selectors or locators of content that only the new position
    draws: a step's text, a page's title, a hand's id); then the script state must read
    ``notRunning``, read again after two frames (:func:`settle_loaded`)."""
    move()
    if url is not None:
        page.wait_for_url(url, timeout=timeout)
    for what in shows:
        (page.locator(what) if isinstance(what, str) else what).first.wait_for(timeout=timeout)
    settle_loaded(page)


@contextmanager
def one_page(browser: Any) -> Iterator[Callable[[int, int], Any]]:
    """One page for a module's tests: ``page(width, height)`` gives it at that viewport (each
    test loads its own URLs and leaves the page with :func:`leave`). A new page's first load
    of the app costs Chromium about twice a later load's CPU: its renderer fetches and compiles
    the app's scripts again (a new page in the same context is a new renderer too, and a
    renderer that loaded another server's app keeps little: the caches go by address)."""
    made: list[Any] = []

    def page(width: int, height: int) -> Any:
        if not made:
            made.append(browser.new_page(viewport={"width": width, "height": height}))
        made[0].set_viewport_size({"width": width, "height": height})
        return made[0]

    try:
        yield page
    finally:
        for p in made:
            p.close()


def leave(page: Any) -> None:
    """Leave a shared page (its app session ends)."""
    page.goto("about:blank")


_SHARED: dict[str, Any] = {}


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright's driver (never a downloaded browser).

    One browser per test process, launched by the first caller and shared by the browser
    modules that run after it (each test opens its own context or page and closes it);
    :func:`close_chromium` closes it (tests/conftest.py: before any other test, and at the
    session's end)."""
    if "browser" not in _SHARED or not _SHARED["browser"].is_connected():
        from playwright.sync_api import sync_playwright

        if "playwright" not in _SHARED:
            _SHARED["playwright"] = sync_playwright().start()
        _SHARED["browser"] = _SHARED["playwright"].chromium.launch(
            executable_path=str(CHROMIUM), args=ARGS
        )
    yield _SHARED["browser"]


def close_chromium() -> None:
    """Close the shared browser and Playwright's driver, if they were started."""
    browser = _SHARED.pop("browser", None)
    if browser is not None and browser.is_connected():
        browser.close()
    playwright = _SHARED.pop("playwright", None)
    if playwright is not None:
        playwright.stop()


#: the browser's history navigation to the address ``url`` of the same app: the address is
#: put in the history and the app is told, as the Back and Forward buttons tell it
_FOLLOW = """url => {
  history.pushState(null, '', url);
  window.dispatchEvent(new PopStateEvent('popstate', {state: null}));
}"""


def follow(page: Any, url: str, *shows: Any, timeout: float = 30_000) -> None:
    """Open ``url`` (a page of the app the page shows, with its query parameters: a deep
    link) in the open app session, as the browser's Back and Forward buttons do: the app
    reads the address and runs that page with those parameters (one run, no new frontend;
    the session's state, such as a picker's choice that the address does not set, is kept).
    ``shows``: content only that page draws, waited for as :func:`in_app` does."""
    assert shows, "follow() needs content that shows the new page is drawn"
    in_app(page, lambda: page.evaluate(_FOLLOW, url), *shows, timeout=timeout)
