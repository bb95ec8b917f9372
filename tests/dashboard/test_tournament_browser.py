"""The Tournament page on a phone (390 × 844) and a laptop (1280 × 720) in Debian's headless
Chromium (issue 33, item 6): the ranking, the cross-table and the printable standings' button
on the screen, without an error. Screenshots go to /tmp/tournament-shots/ (look at them)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dashboard.browser_helpers import CHROMIUM, chromium, goto, serve, settle
from tests.dashboard.dash_helpers import DashDB

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]
SHOTS = Path("/tmp/tournament-shots")
SIZES = {"phone": (390, 844), "laptop": (1280, 720)}
#: the sample tournament (sample_logs/tournament)
TOURNAMENT = "sim-slovenian-2026"


@pytest.fixture(scope="module")
def served(dash_db: DashDB, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    base = tmp_path_factory.mktemp("tournament")
    db = base / "served.duckdb"
    shutil.copyfile(dash_db.path, db)
    with serve(db) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_tournament_page_on_a_phone_and_a_laptop(served, browser, size: str) -> None:  # type: ignore[no-untyped-def]
    w, h = SIZES[size]
    mobile = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    page = browser.new_page(viewport={"width": w, "height": h}, **mobile)
    try:
        goto(page, f"{served}/tournament?tournament={TOURNAMENT}")
        page.get_by_text("Cross-table", exact=True).wait_for(timeout=60_000)
        settle(page)
        main = page.inner_text("[data-testid='stMain']")
        assert "Slovenian tarok" in main and "Final ranking (recomputed)" in main
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"tournament-{size}-{w}x{h}.png"))
        # every table drawn, none wider than the screen (they scroll inside)
        page.mouse.wheel(0, 20_000)
        grids = page.locator("[data-testid='stDataFrame']")
        grids.nth(2).wait_for(state="attached", timeout=10_000)  # (a fixed 0.5 s before)
        assert grids.count() >= 3, grids.count()
        for i in range(grids.count()):
            box = grids.nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5
        button = page.get_by_role("button", name="Download the printable standings (HTML)")
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5
        assert page.locator("[data-testid='stException']").count() == 0
        page.get_by_text("Cross-table", exact=True).evaluate("e => e.scrollIntoView()")
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / f"tournament-{size}-{w}x{h}-cross-table.png"))
    finally:
        page.close()
