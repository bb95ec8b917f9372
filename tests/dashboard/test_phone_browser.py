"""The replayer on a phone (390 × 844) and a laptop (1280 × 720) in Debian's headless
Chromium (issue 33): every toolbar control inside the screen, in English, Slovenian and
German, and the whole table (every seat, the current trick) above the phone's pinned
toolbar or the laptop's fold; no card of a fanned hand covering the index (a tarok's numeral)
of the card before it; autoplay playing a hand to its end and stopping at its first problem;
the action list keeping the current line in sight. Screenshots go to /tmp/phone-shots/
(look at them).
"""

from __future__ import annotations

import itertools
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dashboard.table import CARD_PX
from tarock_logs.report.cards_svg import CARD_W, INDEX_RIGHT
from tests.dashboard.browser_helpers import (
    CHROMIUM,
    chromium,
    follow,
    goto,
    serve,
    settle,
    settle_loaded,
)
from tests.dashboard.dash_helpers import DashDB

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]
SHOTS = Path("/tmp/phone-shots")
SIZES = {"phone": (390, 844), "laptop": (1280, 720)}


@pytest.fixture(scope="module")
def served(dash_db: DashDB, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    base = tmp_path_factory.mktemp("phone")
    db = base / "served.duckdb"
    shutil.copyfile(dash_db.path, db)
    with serve(db) as url:
        yield url, db


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _rows(db: Path, sql: str, *params: object) -> list[tuple[Any, ...]]:
    from tarock_logs.store.read.queries import connect_reader

    con = connect_reader(db)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def _disputed(db: Path) -> tuple[str, int, int]:
    """A Slovenian hand with an illegal action: its id, its number of actions, the step of its
    first problem (the position right after the first illegal action)."""
    ((hand, n, idx),) = _rows(
        db,
        "SELECT h.hand_id, h.n_actions, min(v.action_index) FROM hands h "
        "JOIN violations v USING (hand_id) WHERE h.game = 'slovenian' "
        "GROUP BY h.hand_id, h.n_actions ORDER BY h.n_actions DESC, h.hand_id LIMIT 1",
    )
    return str(hand), int(n), int(idx) + 1


def _clean(db: Path, table_size: int | None = None) -> tuple[str, int]:
    """The Slovenian hand with the most actions and no finding (at a table of
    ``table_size``): its id and its actions."""
    ((hand, n),) = _rows(
        db,
        "SELECT hand_id, n_actions FROM hands h WHERE game = 'slovenian' AND NOT EXISTS "
        "(SELECT 1 FROM violations v WHERE v.hand_id = h.hand_id) "
        "AND (? IS NULL OR table_size = ?) ORDER BY n_actions DESC, hand_id LIMIT 1",
        table_size,
        table_size,
    )
    return str(hand), int(n)


def _new_page(browser: Any, size: str) -> Any:
    w, h = SIZES[size]
    if size == "phone":
        return browser.new_page(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True)
    return browser.new_page(viewport={"width": w, "height": h})


@pytest.fixture(scope="module")
def pages(browser: Any) -> Iterator[Callable[[str], Any]]:
    """One page per screen size for all the module's tests (each loads its own URLs and
    leaves the page blank, which ends its app session): a new page's first load of the app
    took about twice a later load's time (Chromium compiles the app's scripts again in each
    new context), on 13 tests of a few loads each."""
    made: dict[str, Any] = {}

    def page(size: str) -> Any:
        if size not in made:
            made[size] = _new_page(browser, size)
        return made[size]

    yield page
    for p in made.values():
        p.close()


def _done(page: Any) -> None:
    """Leave the shared page (its app session ends: an autoplay stops with it)."""
    page.goto("about:blank")


def _open(page: Any, url: str) -> None:
    """Load ``url`` and wait for its table and toolbar, and for the page to be idle again.
    (The table is drawn up to 1-2 s after the page's run has finished: the frontend renders
    the run's last elements then. A replay link's load makes one run, so the idle state is
    read again without :func:`settle`'s fixed 200 ms wait for a rerun to start.)"""
    goto(page, url)
    page.locator(".tl-table").wait_for(timeout=20_000)
    page.locator(".st-key-toolbar").wait_for(timeout=20_000)
    settle_loaded(page)


def _follow_table(page: Any, url: str) -> None:
    """Open the replay link ``url`` in the open app session (:func:`follow`) and wait for its
    own card table: the table shown before is marked, and the new position's table is a new
    element (a hand's table is drawn again when its HTML changes)."""
    page.evaluate("() => document.querySelectorAll('.tl-table').forEach(t => t.dataset.old = 1)")
    follow(page, url, ".tl-table:not([data-old])")
    page.wait_for_function("() => !document.querySelector('.tl-table[data-old]')", polling="raf")


def _wait_text(page: Any, needle: str, timeout: float = 60) -> None:
    """Wait until the page's main part shows ``needle`` (watched by the browser itself)."""
    page.wait_for_function(
        """needle => {
          const main = document.querySelector("[data-testid='stMain']");
          return !!main && main.innerText.includes(needle);
        }""",
        arg=needle,
        timeout=timeout * 1000,
        polling=100,
    )


#: each toolbar select's text (value or placeholder), the width it needs in its font, and
#: the room its field has inside its padding
_SELECT_FIT = """() => [...document.querySelectorAll(
    '.st-key-toolbar [data-testid=stSelectbox] input')].map(e => {
  const cs = getComputedStyle(e);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = cs.font;
  const text = e.value || e.placeholder;
  return [text, Math.ceil(ctx.measureText(text).width),
          e.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight)];
})"""


def _at_step(page: Any, step: int, text: str, lang: str | None = None) -> None:
    """Wait until the run that moved the position (or the language) has ended and drawn it:
    the URL's ``step`` (and ``lang``), ``text`` in the page's main part, the script idle;
    read again after two frames, in case that run asked for another."""
    for _ in range(2):
        page.wait_for_function(
            """([step, text, lang]) => {
              const app = document.querySelector("[data-testid='stApp']");
              if (!app || app.getAttribute('data-test-connection-state') !== 'CONNECTED'
                  || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
              const q = new URLSearchParams(location.search);
              if (q.get('step') !== String(step) || (lang && q.get('lang') !== lang)) return false;
              const main = document.querySelector("[data-testid='stMain']");
              return !!main && main.innerText.includes(text);
            }""",
            arg=[step, text, lang],
            timeout=30_000,
            polling="raf",
        )
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )


def _step_text(step: int, last: int, lang: str = "en") -> str:
    from tarock_logs.report.i18n import t

    return t("Step {step} of {last}", lang, step=step, last=last)


def _toolbar_fits(page: Any, size: str, lang: str) -> None:
    """Every control of the toolbar inside the screen, each select's whole value shown."""
    w, h = SIZES[size]
    bar = page.locator(".st-key-toolbar")
    controls = bar.locator(
        "[data-testid='stButton'] button:visible, [data-testid='stSelectbox']:visible, "
        "[data-testid='stCheckbox']:visible"
    )
    # six moves, the first problem, jump to, view, autoplay and its speed (waited for:
    # the toolbar may still be drawn anew after the page's run)
    deadline = time.monotonic() + 20
    while (n := controls.count()) != 11 and time.monotonic() < deadline:
        page.wait_for_timeout(250)
    assert n == 11, [controls.nth(i).inner_text()[:20] for i in range(n)]
    for i in range(n):
        box = controls.nth(i).bounding_box()
        assert box is not None, i
        said = controls.nth(i).inner_text()[:30]
        assert box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5, (size, lang, said, box)
        assert box["y"] >= 0 and box["y"] + box["height"] <= h + 0.5, (size, lang, said, box)
    # each select shows its whole value (or its placeholder), not "alle Karten o…"
    for text, need, room in page.evaluate(_SELECT_FIT):
        assert need <= room, (size, lang, text, need, room)


def _table_in_sight(page: Any, size: str, lang: str, step: int) -> None:
    """Every seat and the current trick in sight without scrolling (on a phone: above the
    toolbar pinned to the bottom); a screenshot of it."""
    w, h = SIZES[size]
    bar = page.locator(".st-key-toolbar")
    fold = bar.bounding_box()["y"] if size == "phone" else h  # type: ignore[index]
    parts = page.locator(".tl-seat, .tl-centre")
    assert parts.count() >= 5
    for i in range(parts.count()):
        box = parts.nth(i).bounding_box()
        assert box is not None, i
        bottom = box["y"] + box["height"]
        assert box["y"] >= 0 and bottom <= fold + 0.5, (size, lang, step, i, box, fold)
        assert box["x"] >= 0 and box["x"] + box["width"] <= w + 0.5, (size, lang, box)
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"replay-{size}-{w}x{h}-{lang}-step{step}.png"))
    assert page.locator("[data-testid='stException']").count() == 0


@pytest.mark.parametrize("lang", ["en", "sl", "de"])
@pytest.mark.parametrize("size", sorted(SIZES))
def test_every_toolbar_control_is_on_the_screen(served, pages, size: str, lang: str) -> None:  # type: ignore[no-untyped-def]
    """Every toolbar control inside the screen, and the whole table in sight without
    scrolling: every seat and the current trick (on a phone: above the toolbar pinned to the
    bottom), at the problem and in the middle of a trick of the play with the hands still
    full (the tallest table), and at a table of five (the dealer, dealt no cards, on one
    line beside the talon). In English, the position moves from the problem to the deal
    (the toolbar's first button, in the same app session: no load of the app) for the
    fanned hands' check (:func:`_no_card_covers_an_index`)."""
    url, db = served
    hand, n_hand, problem = _disputed(db)
    page = pages(size)
    try:
        _open(page, f"{url}/replay?hand={hand}&step={problem}&seat=all&lang={lang}")
        _toolbar_fits(page, size, lang)
        _table_in_sight(page, size, lang, problem)
        if lang == "en":
            page.locator(".st-key-home button:visible").first.click()
            _at_step(page, 0, _step_text(0, n_hand))
            _no_card_covers_an_index(page, size)
        in_play = _clean(db, table_size=4)
        five = _clean(db, table_size=5)
        for at, step in ((in_play[0], max(1, in_play[1] - 40)), (five[0], max(1, five[1] - 40))):
            # the other hands' deep links in the same app session (the address read as on
            # Back and Forward: one run, not a new frontend), checked on their own table
            _follow_table(page, f"{url}/replay?hand={at}&step={step}&seat=all&lang={lang}")
            _table_in_sight(page, size, lang, step)
    finally:
        _done(page)


#: per ``.tl-cards`` row, each card image's ``data-card`` and its box in the viewport (None
#: for an image not drawn, as Playwright's ``bounding_box`` says)
_CARD_BOXES = """rows => rows.map(row => Array.from(row.querySelectorAll('img')).map(img => {
  const r = img.getBoundingClientRect();
  const drawn = img.isConnected && img.getClientRects().length > 0;
  return [img.getAttribute('data-card'),
          drawn ? {x: r.x, y: r.y, width: r.width, height: r.height} : null];
}))"""


def _no_card_covers_an_index(page: Any, size: str) -> None:
    """No card of a fanned hand covers the index of the card before it: the index (a tarok's
    numeral: XVIII, XIII, XVI …) lies in the left INDEX_RIGHT of CARD_W units of a card; the
    next card of the row may start only after it (or on a row below)."""
    # every row's cards and their boxes, read in one call
    rows: list[list[tuple[str | None, dict[str, float] | None]]] = page.eval_on_selector_all(
        ".tl-cards", _CARD_BOXES
    )
    checked = taroks = 0
    for boxes in rows:
        for (card, a), (_, b) in itertools.pairwise(boxes):
            assert a is not None and b is not None
            strip = a["width"] * INDEX_RIGHT / CARD_W
            if abs(b["y"] - a["y"]) < 2:  # the same row: the next card starts after
                assert b["x"] >= a["x"] + strip - 0.5, (size, card, a, b)
            else:  # wrapped: a row below, not over it
                assert b["y"] >= a["y"] + a["height"] - 0.5, (size, card, a, b)
            checked += 1
            taroks += bool(card and card.startswith("T"))
    assert checked >= 40 and taroks >= 15, (checked, taroks)
    if size == "phone":  # the phone's smaller cards still fan within the table's width
        img = page.locator(".tl-seat .tl-cards img").first.bounding_box()
        assert img is not None and round(img["width"]) == CARD_PX["phone_hand"]


def _autoplay_on(page: Any, speed: str = "0.5 s per step") -> None:
    bar = page.locator(".st-key-toolbar")
    bar.locator("[data-testid='stSelectbox']").last.click()
    page.get_by_role("option", name=speed).click()
    settle(page)
    bar.get_by_text("Autoplay", exact=True).click()


def _autoplay_is_on(page: Any) -> bool:
    box = page.locator(".st-key-toolbar input[type='checkbox']").first
    return bool(box.is_checked())


def _autoplay_switched_off(page: Any) -> None:
    """Wait until autoplay's switch is off (as it turns itself off at the end or at a
    problem) and the run that turned it off has finished: a fixed wait of 2-2.5 s before."""
    page.wait_for_function(
        """() => {
          const box = document.querySelector(".st-key-toolbar input[type='checkbox']");
          return !!box && !box.checked;
        }""",
        timeout=30_000,
        polling=100,
    )
    settle(page)


@pytest.mark.parametrize("size", sorted(SIZES))
def test_autoplay_plays_a_hand_to_its_end_and_stops_there(served, pages, size: str) -> None:  # type: ignore[no-untyped-def]
    url, db = served
    hand, n = _clean(db)
    page = pages(size)
    try:
        start = n - 6
        _open(page, f"{url}/replay?hand={hand}&step={start}&seat=all")
        _autoplay_on(page)
        _wait_text(page, f"Step {n} of {n}", timeout=90)
        _autoplay_switched_off(page)  # it stays at the end, autoplay switched off
        assert f"Step {n} of {n}" in page.inner_text("[data-testid='stMain']")
        assert not _autoplay_is_on(page)
        assert page.locator("[data-testid='stException']").count() == 0
    finally:
        _done(page)


def test_autoplay_stops_on_the_first_problem(served, pages) -> None:  # type: ignore[no-untyped-def]
    url, db = served
    hand, n, problem = _disputed(db)
    page = pages("laptop")
    try:
        _open(page, f"{url}/replay?hand={hand}&step={max(0, problem - 4)}&seat=all")
        _autoplay_on(page)
        _wait_text(page, f"Step {problem} of {n}", timeout=90)
        _autoplay_switched_off(page)
        shown = page.inner_text("[data-testid='stMain']")
        assert f"Step {problem} of {n}" in shown and "Autoplay stopped at a problem." in shown
        assert not _autoplay_is_on(page)
    finally:
        _done(page)


#: the index of the action list's checked line (-1: none)
_CHECKED = """() => [...document.querySelectorAll(
    ".st-key-action_list_box input[type='radio']")].findIndex(e => e.checked)"""


@pytest.mark.parametrize("size", sorted(SIZES))
def test_the_action_list_keeps_the_current_line_in_sight(served, pages, size: str) -> None:  # type: ignore[no-untyped-def]
    """In the middle of the hand (as a link opens it), then at its end and at the deal (moved
    to with the toolbar's buttons in the same app session): the current line of the action
    list is in sight in its box."""
    url, db = served
    hand, n = _clean(db)
    page = pages(size)
    try:
        for step in (n // 2, n, 0):
            if step == n // 2:
                _open(page, f"{url}/replay?hand={hand}&step={step}&seat=all")
            else:
                page.locator(
                    f".st-key-{'end' if step == n else 'home'} button:visible"
                ).first.click()
                _at_step(page, step, _step_text(step, n))
            box = page.locator(".st-key-action_list_box")
            box.scroll_into_view_if_needed()
            deadline = time.monotonic() + 15
            while True:
                line = box.locator("label:has(input:checked)").bounding_box()
                frame = box.bounding_box()
                assert frame is not None
                if (
                    line is not None
                    and page.evaluate(_CHECKED) == step
                    and line["y"] >= frame["y"] - 1
                    and line["y"] + line["height"] <= frame["y"] + frame["height"] + 1
                ):
                    break
                assert time.monotonic() < deadline, (size, step, line, frame)
                page.wait_for_timeout(200)
    finally:
        _done(page)
