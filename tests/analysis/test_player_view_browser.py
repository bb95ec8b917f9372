"""The replayer's two views of the card values, "all cards visible" and "what the player
knew", in Debian's headless Chromium (never a downloaded browser) at 1280 × 720 and on a phone
(390 × 844), over a database made by ``tarock ingest --analyse --analyse-view both``; the
screenshots go to the test's temporary folder, and the desktop one to
``docs/analysis-player-view.png`` with ``UPDATE_SCREENSHOTS=1``."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tarock_logs.report.i18n import t
from tests.dashboard.browser_helpers import CHROMIUM, chromium, goto, leave, one_page, serve
from tests.dashboard.dash_helpers import TAROCK

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = 4

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, int]]:
    db = tmp_path_factory.mktemp("player_view") / "p.duckdb"
    subprocess.run([str(TAROCK), "ingest", str(ROOT / "sample_logs" / "disputed"), "--db",
                    str(db), "--analyse", "--analyse-tricks", "2", "--analyse-view", "both",
                    "--analyse-samples", str(SAMPLES), "--analyse-seed", "3"], check=True,
                   capture_output=True)  # fmt: skip
    con = duckdb.connect(str(db), read_only=True)
    try:
        # a card whose values differ between the two views (the player did not see it all)
        hand, index = con.execute(
            """SELECT p.hand_id, p.action_index FROM card_analysis_player p
               JOIN card_analysis a USING (hand_id, action_index)
               WHERE p.value <> a.value ORDER BY p.hand_id, p.action_index LIMIT 1"""
        ).fetchall()[0]
    finally:
        con.close()
    with serve(db) as url:
        yield url, hand, index


#: true once the script has finished and the element ``sel`` reads ``text`` (word joiners
#: aside): the run a click started has drawn what it changes
_SHOWN = r"""([sel, text]) => {
  const app = document.querySelector("[data-testid='stApp']");
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const el = document.querySelector(sel);
  return !!el && el.innerText.replace(/\u2060/g, '').includes(text);
}"""


def _shown(page: Any, text: str) -> None:
    """Wait (at each frame) for the card values' box to read ``text`` after a click's run."""
    page.wait_for_function(_SHOWN, arg=[".st-key-card_values", text], timeout=30_000, polling="raf")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def page_at(browser: Any) -> Iterator[Callable[[int, int], Any]]:
    """One page for the module's tests (:func:`tests.dashboard.browser_helpers.one_page`)."""
    with one_page(browser) as page:
        yield page


@pytest.mark.parametrize("size", [(1280, 720), (390, 844)], ids=["desktop", "phone"])
def test_the_replayer_switches_between_all_cards_visible_and_what_the_player_knew(
    served: tuple[str, str, int], page_at: Any, size: tuple[int, int], tmp_path: Path
) -> None:
    url, hand, index = served
    page = page_at(*size)
    try:
        goto(page, f"{url}/replay?hand={hand}&step={index + 1}&seat=all")
        page.wait_for_selector(".tl-value", timeout=30_000)  # the table's values are drawn
        box = page.locator(".st-key-card_values")
        box.scroll_into_view_if_needed()
        said = box.inner_text()
        assert "Every legal card valued (all cards visible)" in said
        assert "all cards visible" in said and "what the player knew" in said  # the switch
        assert "its value with all cards visible" in page.locator(".tl-legend").inner_text()
        before = page.locator(".tl-value").all_inner_texts()
        box.get_by_text("what the player knew", exact=True).click()
        _shown(page, "Every legal card valued (what the player knew)")
        box.scroll_into_view_if_needed()
        said = box.inner_text()
        assert "Every legal card valued (what the player knew)" in said
        assert f"over {SAMPLES} layouts of the hidden cards" in said and "(seed 3)" in said
        assert "ranged from" in said
        after = before
        for _ in range(50):  # the values on the cards change with the view
            after = page.locator(".tl-value").all_inner_texts()
            if after and after != before:
                break
            page.wait_for_timeout(200)
        assert before and after and before != after
        legend = page.locator(".tl-legend").inner_text()
        assert "under a card: its mean value on what the player knew" in legend
        assert page.locator("[data-testid='stException']").count() == 0
        if size[0] >= 1280:
            shot = (ROOT / "docs" / "analysis-player-view.png"
                    if os.environ.get("UPDATE_SCREENSHOTS")
                    else tmp_path / "analysis-player-view.png")  # fmt: skip
        else:
            shot = tmp_path / "analysis-player-view-phone.png"
        page.screenshot(path=str(shot), full_page=False)
        assert shot.stat().st_size > 0
        # and back
        box.get_by_text("all cards visible", exact=True).click()
        _shown(page, "Every legal card valued (all cards visible)")
        assert "Every legal card valued (all cards visible)" in box.inner_text()
    finally:
        leave(page)


def test_the_two_views_are_labelled_in_slovenian_and_german(
    served: tuple[str, str, int], page_at: Any
) -> None:
    url, hand, index = served
    page = page_at(1280, 720)
    try:
        said_in = {"sl": ("vse karte odprte", "kar je igralec vedel"),
                   "de": ("alle Karten offen", "was der Spieler wusste")}  # fmt: skip
        for lang, words in said_in.items():
            goto(page, f"{url}/replay?hand={hand}&step={index + 1}&seat=all&lang={lang}")
            box = page.locator(".st-key-card_values")
            box.get_by_text(words[1], exact=True).click()
            heading = t(
                "Every legal card valued ({view})", lang, view=t("what the player knew", lang)
            )
            _shown(page, heading)
            said = box.inner_text().replace("\u2060", "")
            assert words[0] in said and words[1] in said, lang
            assert "layouts" not in said and "what the player knew" not in said
    finally:
        leave(page)
