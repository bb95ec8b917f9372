"""The replayer shows every legal card's value and steps from mistake to mistake, in Debian's
headless Chromium (never a downloaded browser), over a database made by
``tarock ingest --analyse``; the screenshot goes to the test's temporary folder, and to
``docs/analysis-replay.png`` with ``UPDATE_SCREENSHOTS=1``."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import duckdb
import pytest

from tests.dashboard.browser_helpers import ARGS, CHROMIUM, serve
from tests.dashboard.dash_helpers import TAROCK

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    db = tmp_path_factory.mktemp("analysed") / "a.duckdb"
    subprocess.run([str(TAROCK), "ingest", str(ROOT / "sample_logs" / "disputed"), "--db",
                    str(db), "--analyse", "--analyse-tricks", "3"], check=True,
                   capture_output=True)  # fmt: skip
    with serve(db) as url:
        yield url, db


def _settle(page: object) -> None:
    page.wait_for_selector(  # type: ignore[attr-defined]
        "[data-testid='stApp'][data-test-connection-state='CONNECTED']", timeout=30_000
    )
    page.wait_for_timeout(300)  # type: ignore[attr-defined]
    page.wait_for_selector("[data-test-script-state='notRunning']", timeout=60_000)  # type: ignore[attr-defined]


def test_the_replayer_shows_card_values_and_steps_to_the_next_mistake(served, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from playwright.sync_api import sync_playwright

    url, db = served
    con = duckdb.connect(str(db), read_only=True)
    try:
        hand, first, mistake = con.execute(
            """SELECT hand_id, min(action_index), min(action_index) FILTER (WHERE loss > 0)
               FROM card_analysis WHERE legal GROUP BY hand_id
               HAVING count(*) FILTER (WHERE loss > 0) > 0 ORDER BY hand_id LIMIT 1"""
        ).fetchall()[0]
    finally:
        con.close()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            page.goto(f"{url}/replay?hand={hand}&step={first + 1}&seat=all")
            _settle(page)
            body = page.inner_text("body")
            assert "Every legal card valued (all cards visible)" in body
            assert "may have been right on what the player knew" in body
            nxt = page.get_by_role("button", name="Next mistake")
            if first < mistake:
                nxt.click()
                _settle(page)
                page.wait_for_url(f"**step={mistake + 1}**", timeout=10_000)
            body = page.inner_text("body")
            assert " cost " in body and "points against" in body
            assert page.locator("[data-testid='stException']").count() == 0
            page.locator(".st-key-card_values").scroll_into_view_if_needed()
            page.wait_for_timeout(300)
            shot = (
                ROOT / "docs" / "analysis-replay.png"
                if os.environ.get("UPDATE_SCREENSHOTS")
                else tmp_path / "analysis-replay.png"
            )
            page.screenshot(path=str(shot), full_page=False)
            assert shot.stat().st_size > 0
        finally:
            browser.close()


def test_what_a_card_changed_reads_in_the_interface_language(served) -> None:  # type: ignore[no-untyped-def]
    """The stored "what the card changed" phrases (English, from the analysis) are worded in
    Slovenian and German on the replay page, never left in English."""
    from playwright.sync_api import sync_playwright

    url, db = served
    con = duckdb.connect(str(db), read_only=True)
    try:
        hand, index = con.execute(
            """SELECT hand_id, action_index FROM card_analysis
               WHERE list_contains(changed, 'kralj_ultimo for nobody (best: for the declarer side)')
                  OR list_contains(changed, 'kralji for nobody (best: for the declarer side)')
               ORDER BY hand_id, action_index LIMIT 1"""
        ).fetchall()[0]
    finally:
        con.close()
    said = {
        "sl": "za nikogar (najboljša: za igralčevo stran)",
        "de": "für niemanden (beste Karte: für die Spielerseite)",
    }
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1800})
            for lang, words in said.items():
                page.goto(f"{url}/replay?hand={hand}&step={index + 1}&seat=all&lang={lang}")
                _settle(page)
                # md_text puts a word joiner after a colon (no emoji shortcode is read)
                body = page.inner_text("body").replace("\u2060", "")
                assert words in body, lang
                assert "for nobody" not in body and "best:" not in body
        finally:
            browser.close()
