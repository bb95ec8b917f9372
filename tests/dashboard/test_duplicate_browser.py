"""The Tournament page's Duplicate tab on a phone (390 × 844) and a laptop (1280 × 720) in
Debian's headless Chromium (issue 35, item 5): the ranking, a deal's tables side by side and
the best line on the screen, every table inside the screen's width, without an error.
Screenshots go to /tmp/duplicate-shots/ (look at them)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.dashboard.browser_helpers import CHROMIUM, chromium, goto, serve, settle
from tests.dashboard.test_duplicate_tab import TID, make_duplicate_db

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]
SHOTS = Path("/tmp/duplicate-shots")
SIZES = {"phone": (390, 844), "laptop": (1280, 720)}


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = make_duplicate_db(tmp_path_factory.mktemp("duplicate-browser"))
    with serve(db) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_duplicate_tab_on_a_phone_and_a_laptop(served, browser, size: str) -> None:  # type: ignore[no-untyped-def]
    w, h = SIZES[size]
    mobile = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    page = browser.new_page(viewport={"width": w, "height": h}, **mobile)
    try:
        goto(page, f"{served}/tournament?tournament={TID}&lang=en")
        page.get_by_role("tab", name="Duplicate").click()
        page.get_by_text("Duplicate ranking", exact=True).wait_for(timeout=60_000)
        settle(page)
        main = page.inner_text("[data-testid='stMain']")
        assert "Deals played at several tables" in main and "Best line:" in main
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"duplicate-{size}-{w}x{h}.png"))
        grids = page.locator("[data-testid='stDataFrame']:visible")
        assert grids.count() >= 2, grids.count()  # the ranking and the deal's tables
        for i in range(grids.count()):
            box = grids.nth(i).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5
        assert page.locator("[data-testid='stException']").count() == 0
        page.get_by_text("Deals played at several tables", exact=True).evaluate(
            "e => e.scrollIntoView()"
        )
        page.wait_for_timeout(300)
        page.screenshot(path=str(SHOTS / f"duplicate-{size}-{w}x{h}-deal.png"))
    finally:
        page.close()
