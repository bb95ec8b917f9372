"""The dashboard served by ``tarock dashboard`` and driven in Debian's headless Chromium.

Never downloads a browser: Playwright's driver (from the wheel) launches /usr/bin/chromium, and
the tests skip cleanly when it is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dashboard.dash_helpers import TAROCK, DashDB, hand_ids, ingest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
PAGES = ["", "audit", "replay", "players", "tournament"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_healthy(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
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


@pytest.fixture(scope="module")
def served(
    dash_db: DashDB, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, DashDB]]:
    """``tarock dashboard`` on a free port over a private copy of the test database."""
    base = tmp_path_factory.mktemp("served")
    db = base / "served.duckdb"
    shutil.copyfile(dash_db.path, db)
    port = _free_port()
    env = {**os.environ, "TAROCK_DB": ""}
    proc = subprocess.Popen(
        [str(TAROCK), "dashboard", "--db", str(db), "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_healthy(url, proc)
        yield url, DashDB(db, dash_db.logs, dash_db.disputed_session, dash_db.illegal_index)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


def _goto(page: object, url: str) -> None:
    page.goto(url)  # type: ignore[attr-defined]
    _settle(page)


def _settle(page: object) -> None:
    page.wait_for_selector(  # type: ignore[attr-defined]
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=30_000
    )
    page.wait_for_timeout(200)  # type: ignore[attr-defined]  # let a rerun start
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=30_000)  # type: ignore[attr-defined]


def _disputed_hand(db: DashDB) -> str:
    facts = hand_ids(db.path)
    return str(next(h["hand_id"] for h in facts["hands"] if h["session"] == db.disputed_session))


def test_every_page_opens_without_an_exception_or_page_not_found(served, browser) -> None:  # type: ignore[no-untyped-def]
    url, _ = served
    page = browser.new_page()
    for path in PAGES:
        _goto(page, f"{url}/{path}")
        body = page.inner_text("body")
        assert "Page not found" not in body, path
        assert page.locator("[data-testid='stException']").count() == 0, path
        assert page.locator("h1").count() >= 1, path
    page.close()


def test_deep_link_to_the_offending_step_highlights_it_and_steps_back_and_forth(
    served,
    browser,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    url, db = served
    if db.illegal_index is None:
        pytest.skip("no Slovenian engine to plant an illegal card with")
    hand = _disputed_hand(db)
    step = db.illegal_index + 1
    page = browser.new_page(viewport={"width": 1400, "height": 1600})
    _goto(page, f"{url}/replay?hand={hand}&step={step}&seat=all")
    alert = page.locator("[data-testid='stAlert']", has_text="Illegal action").first
    alert.wait_for(timeout=10_000)
    assert "si-tournament-2021 §" in alert.inner_text()
    assert page.get_by_text(f"Step {step} of").count() == 1
    shot = tmp_path / "replay-offending-step.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000

    page.locator(".st-key-forward button").click()
    _settle(page)
    page.get_by_text(f"Step {step + 1} of").wait_for(timeout=10_000)
    assert f"step={step + 1}" in page.url
    page.locator(".st-key-back button").click()
    _settle(page)
    page.get_by_text(f"Step {step} of").wait_for(timeout=10_000)
    assert f"step={step}" in page.url
    page.locator("h1").first.click()  # focus outside any widget, then the shortcut
    page.keyboard.press("ArrowRight")
    _settle(page)
    page.get_by_text(f"Step {step + 1} of").wait_for(timeout=10_000)
    page.close()


def test_an_ingest_rewriting_the_database_while_serving_does_not_break_the_app(
    served,
    browser,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    url, db = served
    page = browser.new_page()
    _goto(page, f"{url}/")
    before = len(hand_ids(db.path)["hands"])
    extra = tmp_path / "more"
    extra.mkdir()
    sess = json.loads((db.logs / "dash-disputed.json").read_text(encoding="utf-8"))
    sess["id"] = "dash-again"
    for i, p in enumerate(sess["players"]):
        p["id"] = f"again-{i}"  # other players: a new hand, not a duplicate
    (extra / "again.json").write_text(json.dumps(sess), encoding="utf-8")
    ino = db.path.stat().st_ino
    ingest(extra, db.path)  # publishes a new file with os.replace while the app holds the old
    assert db.path.stat().st_ino != ino
    after = len(hand_ids(db.path)["hands"])
    page.reload()
    _settle(page)
    assert page.locator("[data-testid='stException']").count() == 0
    metric = page.locator("[data-testid='stMetric']", has_text="Hands").first
    assert metric.inner_text().split()[-1] == str(after)
    assert after == before + 1
    page.close()
