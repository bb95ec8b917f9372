"""The replayer shows every legal card's value and steps from mistake to mistake, in Debian's
headless Chromium (never a downloaded browser), over a database made by
``tarock ingest --analyse``; the screenshot goes to the test's temporary folder, and to
``docs/analysis-replay.png`` with ``UPDATE_SCREENSHOTS=1``."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tests.dashboard.browser_helpers import CHROMIUM, chromium, goto, serve, settle_loaded
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


@pytest.fixture(scope="module")
def page(served: tuple[str, Path]) -> Iterator[Any]:
    """One page of the process's shared Chromium for the module's tests (launching a browser
    for each test took longer than its checks)."""
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1800})
        try:
            yield page
        finally:
            page.close()


def test_the_replayer_shows_card_values_and_steps_to_the_next_mistake(
    served, page, tmp_path
) -> None:  # type: ignore[no-untyped-def]
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
    goto(page, f"{url}/replay?hand={hand}&step={first + 1}&seat=all")
    body = page.inner_text("body")
    assert "Every legal card valued (all cards visible)" in body
    assert "may have been right on what the player knew" in body
    nxt = page.get_by_role("button", name="Next mistake")
    if first < mistake:
        nxt.click()
        page.wait_for_url(f"**step={mistake + 1}**", timeout=10_000)
        settle_loaded(page)
    body = page.inner_text("body")
    assert " cost " in body and "points against" in body
    assert page.locator("[data-testid='stException']").count() == 0
    page.locator(".st-key-card_values").scroll_into_view_if_needed()
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    shot = (
        ROOT / "docs" / "analysis-replay.png"
        if os.environ.get("UPDATE_SCREENSHOTS")
        else tmp_path / "analysis-replay.png"
    )
    page.screenshot(path=str(shot), full_page=False)
    assert shot.stat().st_size > 0


def test_what_a_card_changed_reads_in_the_interface_language(served, page) -> None:  # type: ignore[no-untyped-def]
    """The stored "what the card changed" phrases (English, from the analysis) are worded in
    Slovenian and German on the replay page, never left in English."""
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
    for lang, words in said.items():
        goto(page, f"{url}/replay?hand={hand}&step={index + 1}&seat=all&lang={lang}")
        # md_text puts a word joiner after a colon (no emoji shortcode is read)
        body = page.inner_text("body").replace("\u2060", "")
        assert words in body, lang
        assert "for nobody" not in body and "best:" not in body
