"""The dashboard served by ``tarock dashboard`` and driven in Debian's headless Chromium.

Never downloads a browser: Playwright's driver (from the wheel) launches /usr/bin/chromium, and
the tests skip cleanly when it is missing.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.dashboard.browser_helpers import ARGS, CHROMIUM, PAGES, serve
from tests.dashboard.browser_helpers import goto as _goto
from tests.dashboard.browser_helpers import settle as _settle
from tests.dashboard.dash_helpers import DashDB, hand_ids, ingest

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def served(
    dash_db: DashDB, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, DashDB]]:
    """``tarock dashboard`` on a free port over a private copy of the test database."""
    base = tmp_path_factory.mktemp("served")
    db = base / "served.duckdb"
    shutil.copyfile(dash_db.path, db)
    with serve(db) as url:
        yield url, DashDB(db, dash_db.logs, dash_db.disputed_session, dash_db.illegal_index)


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


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
