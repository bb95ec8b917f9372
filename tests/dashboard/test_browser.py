"""The dashboard served by ``tarock dashboard`` and driven in Debian's headless Chromium.

Never downloads a browser: Playwright's driver (from the wheel) launches /usr/bin/chromium, and
the tests skip cleanly when it is missing.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from tests.dashboard.browser_helpers import (
    CHROMIUM,
    PAGES,
    chromium,
    drawn,
    leave,
    one_page,
    serve,
)
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
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def page_at(browser: Any) -> Iterator[Callable[[int, int], Any]]:
    """One page for the module's tests (:func:`tests.dashboard.browser_helpers.one_page`)."""
    with one_page(browser) as page:
        yield page


def _disputed_hand(db: DashDB) -> str:
    facts = hand_ids(db.path)
    return str(next(h["hand_id"] for h in facts["hands"] if h["session"] == db.disputed_session))


#: pages whose load at 1280 x 720 another test of this module makes anyway, and checks there
#: with :func:`_opens_cleanly` (one load fewer each): the overview (the ingest test, before
#: its ingest) and the Players page (the charts test)
OPENED_ELSEWHERE = ("", "players")


def _opens_cleanly(page: Any, path: str) -> None:
    """The page just loaded is no "Page not found", shows no exception and has a title."""
    body = page.inner_text("body")
    assert "Page not found" not in body, path
    assert page.locator("[data-testid='stException']").count() == 0, path
    assert page.locator("h1").count() >= 1, path


def test_every_page_opens_without_an_exception_or_page_not_found(served, page_at) -> None:  # type: ignore[no-untyped-def]
    url, _ = served
    page = page_at(1280, 720)
    assert set(OPENED_ELSEWHERE) <= set(PAGES)
    for path in PAGES:
        if path in OPENED_ELSEWHERE:
            continue
        _goto(page, f"{url}/{path}")
        _opens_cleanly(page, path)
    leave(page)


#: true once the page at URL path ``path`` has finished the run that draws it: connected,
#: not running, its title (``h1``) ``title`` drawn and no element of the page before left
_ON_PAGE = """([path, title]) => {
  const app = document.querySelector("[data-testid='stApp']");
  if (!app || app.getAttribute('data-test-connection-state') !== 'CONNECTED'
      || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (location.pathname !== '/' + path) return false;
  if (document.querySelector("[data-stale='true']")) return false;
  return [...document.querySelectorAll('h1')].some(h => h.innerText.trim() === title);
}"""


def _on_page(page: Any, path: str, title: str) -> None:
    """Wait until the page at ``path`` is drawn (:data:`_ON_PAGE`), and again after two
    frames, in case its run asked for another."""
    for _ in range(2):
        page.wait_for_function(_ON_PAGE, arg=[path, title], timeout=30_000, polling="raf")
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )


def _nav(page: Any, path: str, title: str) -> None:
    """Go to the page at URL path ``path`` with the sidebar's navigation (in the same app
    session: a run of that page, not a load of the app) and wait until it is drawn."""
    links = page.locator("[data-testid='stSidebarNav'] a")
    paths = links.evaluate_all("links => links.map(a => new URL(a.href).pathname)")
    links.nth(paths.index("/" + path)).click()
    _on_page(page, path, title)


def _step_in_url(page: object) -> int:
    query = parse_qs(urlparse(page.url).query)  # type: ignore[attr-defined]
    return int(query["step"][0])


#: true once the page has finished the run that shows ``step``: connected, not running, the
#: step in the URL and "Step n of" on the page (what :func:`_wait_step` then checks again)
_AT_STEP = """(step) => {
  const app = document.querySelector("[data-testid='stApp']");
  if (!app || app.getAttribute('data-test-connection-state') !== 'CONNECTED'
      || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (new URLSearchParams(location.search).get('step') !== String(step)) return false;
  return document.body.textContent.replace(/\\s+/g, ' ').includes(`Step ${step} of`);
}"""


#: :data:`_AT_STEP` with the step's words in the page's language: ``[step, text]``
_AT_STEP_SAID = """([step, text]) => {
  const app = document.querySelector("[data-testid='stApp']");
  if (!app || app.getAttribute('data-test-connection-state') !== 'CONNECTED'
      || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (new URLSearchParams(location.search).get('step') !== String(step)) return false;
  return document.body.textContent.replace(/\\s+/g, ' ').includes(text);
}"""


def _wait_step(page: object, step: int, timeout: float = 20) -> bool:
    """Wait until the URL and the page both show ``step``; False if they never do. The page
    is watched by the browser itself (no polling from here)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    deadline = time.monotonic() + timeout
    while (left := deadline - time.monotonic()) > 0:
        try:
            page.wait_for_function(_AT_STEP, arg=step, timeout=left * 1000, polling=50)  # type: ignore[attr-defined]
        except PlaywrightTimeout:
            return False
        shown = page.get_by_text(f"Step {step} of").count()  # type: ignore[attr-defined]
        if _step_in_url(page) == step and shown:
            return True
        page.wait_for_timeout(100)  # type: ignore[attr-defined]
    return False


def _press(page: object, key: str, step: int) -> None:
    """Press ``key`` with the focus outside any widget and wait for ``step``. A key pressed
    while the page is still re-drawing its toolbar can be lost: pressed once more then (the
    exact step is checked, so a key counted twice would fail)."""
    for _attempt in range(2):
        page.locator("h1").first.click()  # type: ignore[attr-defined]
        page.wait_for_timeout(150)  # type: ignore[attr-defined]
        page.keyboard.press(key)  # type: ignore[attr-defined]
        if _wait_step(page, step, timeout=6):
            return
    raise AssertionError(f"{key} did not move the position to step {step}: {page.url}")  # type: ignore[attr-defined]


def _stored(db: DashDB, sql: str, *params: object) -> list[tuple[object, ...]]:
    from tarock_logs.store.read.queries import connect_reader

    con = connect_reader(db.path)
    try:
        return con.execute(sql, list(params)).fetchall()
    finally:
        con.close()


def test_a_deep_link_opens_the_table_at_the_offending_card_with_the_allowed_cards_marked(
    served,
    page_at,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    url, db = served
    hand = _disputed_hand(db)
    step = db.illegal_index + 1
    ((card,),) = _stored(
        db, "SELECT card FROM violations WHERE hand_id = ? AND action_index = ?", hand, step - 1
    )
    page = page_at(1400, 1400)
    _goto(page, f"{url}/replay?hand={hand}&step={step}&seat=all")
    alert = page.locator("[data-testid='stAlert']", has_text="Illegal action").first
    alert.wait_for(timeout=10_000)
    assert "si-tournament-2021 §" in alert.inner_text()
    assert page.get_by_text(f"Step {step} of").count() == 1
    offending = page.locator(f"img[data-mark='illegal'][data-card='{card}']")
    offending.wait_for(timeout=10_000)
    allowed = page.locator("img[data-mark='allowed']")
    assert offending.count() == 1 and allowed.count() >= 1
    allowed_cards = {allowed.nth(i).get_attribute("data-card") for i in range(allowed.count())}
    assert card not in allowed_cards
    assert "The rules allowed:" in page.inner_text("body")
    page.screenshot(path=str(tmp_path / "replay-offending-card.png"), full_page=True)
    leave(page)


def test_keys_and_the_action_list_move_the_position_and_a_reload_keeps_it(served, page_at) -> None:  # type: ignore[no-untyped-def]
    """The keys move one action, one trick and to either end; a position's link survives a
    reload; then (on that reloaded page) clicking a line of the action list moves the
    position there, which survives a reload too."""
    url, db = served
    hand = _disputed_hand(db)
    ((n,),) = _stored(db, "SELECT n_actions FROM hands WHERE hand_id = ?", hand)
    plays = [
        i + 1
        for (i,) in _stored(
            db, "SELECT idx FROM actions WHERE hand_id = ? AND type = 'play' ORDER BY idx", hand
        )
    ]
    seats = 4
    ends = [plays[k] for k in range(seats - 1, len(plays), seats)]  # steps completing a trick
    start = ends[1] + 1  # the first card of trick 3
    page = page_at(1400, 1200)
    _goto(page, f"{url}/replay?hand={hand}&step={start}")
    assert _wait_step(page, start)
    _press(page, "ArrowRight", start + 1)
    _press(page, "ArrowLeft", start)
    _press(page, "ArrowDown", ends[2])
    _press(page, "ArrowUp", ends[1])
    _press(page, "PageDown", ends[2])
    _press(page, "PageUp", ends[1])
    _press(page, "End", int(n))
    _press(page, "Home", 0)
    page.reload()  # a position's link survives a reload
    _settle(page)
    assert _step_in_url(page) == 0
    # the action list, clicked (at step 0, as a link to the deal opens the hand)
    box = page.locator(".st-key-action_list")
    box.get_by_text("7. ", exact=False).first.click()
    assert _wait_step(page, 7)
    assert page.get_by_text("Step 7 of").count() == 1
    page.reload()
    _settle(page)
    assert _step_in_url(page) == 7 and page.get_by_text("Step 7 of").count() == 1
    leave(page)


RAW_FIELDS = re.compile(
    r"\bparams\b|\bvalid (True|False)\b|\braises \[|\btype (call|kontra|announce)\b|"
    r"\bcontract (normal|None)\b|\b[SFMQ]_[A-Z0-9_]+\b|\{|\}|\bseat \d"
)


@pytest.mark.parametrize("game", ["zwanzigerrufen", "royal"])
def test_a_zwanzigerrufen_and_a_royal_hand_show_no_raw_field_names(served, page_at, game) -> None:  # type: ignore[no-untyped-def]
    url, db = served
    ((hand, n),) = _stored(
        db, "SELECT hand_id, n_actions FROM hands WHERE game = ? ORDER BY n_actions DESC LIMIT 1",
        game,
    )  # fmt: skip
    page = page_at(1400, 1400)
    for step in (int(n) // 3, int(n)):  # the auction in the action list, then the end panel
        _goto(page, f"{url}/replay?hand={hand}&step={step}")
        shown = page.locator("[data-testid='stMain']").inner_text()
        raw = RAW_FIELDS.findall(shown)
        assert not raw, (game, step, raw)
    leave(page)


def test_a_phone_sized_screenshot_of_the_replayer_is_saved(
    served,
    browser,
    tmp_path_factory: pytest.TempPathFactory,  # type: ignore[no-untyped-def]
) -> None:
    url, db = served
    hand = _disputed_hand(db)
    step = db.illegal_index + 1
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    _goto(page, f"{url}/replay?hand={hand}&step={step}")
    table = page.locator(".tl-table")
    table.wait_for(timeout=10_000)
    assert table.bounding_box()["width"] <= 390  # the table fits the screen: one column
    toolbar = page.locator(".st-key-toolbar").bounding_box()
    assert toolbar is not None and toolbar["y"] + toolbar["height"] <= 844  # always in reach
    shot = tmp_path_factory.getbasetemp() / "replay-phone-390x844.png"
    page.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    print(f"phone screenshot: {shot}")
    page.close()


def _english_labels(lang: str) -> list[tuple[str, re.Pattern[str], list[str]]]:
    """The English labels whose translation differs, each as a pattern (fields: any text)
    and the pattern's literal parts, longest first (a text that lacks one cannot match: a
    cheap test that spares the regular expressions most of the page's texts)."""
    from tarock_logs.report import i18n

    out = []
    for msgid, translated in i18n.catalogue(lang).items():
        if translated == msgid or not re.search(r"[A-Za-z]{2}", msgid):
            continue
        parts = re.split(r"\{[a-z_]+\}", msgid)
        pattern = re.compile(".+?".join(re.escape(p) for p in parts))
        out.append((msgid, pattern, sorted((p for p in parts if p), key=len, reverse=True)))
    return out


#: text no label makes: the names of the languages, key caps and icon names of Streamlit's
#: buttons, and the game's own terms that read the same in every language
NOT_LABELS = "kbd, [data-testid='stIconMaterial'], [data-testid='stTooltipIcon'] + *"


#: every text a reader sees in the sidebar and the page's main part, and the placeholders,
#: image texts and ARIA labels there (``skip``: what no label makes)
_SHOWN_TEXTS = """(roots, skip) => {
    const out = [];
    for (const root of roots) {
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
            const el = n.parentElement;
            if (!el || el.closest(skip) || !el.checkVisibility()) continue;
            const s = n.textContent.trim();
            if (s) out.push(s);
        }
        const attrs = '[placeholder], img[alt], [aria-label]';
        for (const el of root.querySelectorAll(attrs)) {
            for (const a of ['placeholder', 'alt', 'aria-label']) {
                const v = el.getAttribute(a);
                if (v && el.checkVisibility() && !el.closest(skip)) out.push(v.trim());
            }
        }
    }
    return out;
}"""


def _no_english_left(page: Any, english: list[Any], lang: str, where: str) -> None:
    texts: list[str] = page.eval_on_selector_all(
        "[data-testid='stSidebar'], [data-testid='stMain']",
        _SHOWN_TEXTS,
        NOT_LABELS + ", [data-testid='stIconMaterial']",
    )
    pieces = {p.strip() for s in texts for p in re.split(r" · |: | — ", s) if p.strip()}
    left = sorted(
        msgid
        for msgid, pattern, literal in english
        for text in pieces | set(texts)
        if literal[0] in text
        and all(p in text for p in literal)
        and (pattern.fullmatch(text) or (len(msgid.split()) >= 3 and pattern.search(text)))
    )
    assert not left, (lang, where, sorted(set(left))[:12])


@pytest.mark.parametrize("lang", ["sl", "de"])
def test_every_page_in_slovenian_and_german_has_no_english_label_left(  # type: ignore[no-untyped-def]
    served, page_at, lang
) -> None:
    """The Audit page of the disputed hand (a link's load), the replay at its step 23 (the
    Audit page's link into the replay, then that line of the action list), the Players and
    Tournament pages and the Overview (the sidebar's navigation): one app session, loaded
    once, every page of it checked."""
    from tarock_logs.report.i18n import t

    url, db = served
    hand = _disputed_hand(db)
    ((n,),) = _stored(db, "SELECT n_actions FROM hands WHERE hand_id = ?", hand)
    english = _english_labels(lang)
    page = page_at(1400, 1400)
    _goto(page, f"{url}/audit?hand={hand}&lang={lang}")
    # the page links' code is fetched after the first run: drawn by then only on a slow run
    drawn(page)
    _no_english_left(page, english, lang, "audit")
    links = page.locator("[data-testid='stPageLink'] a")
    to_replay = links.evaluate_all("links => links.map(a => new URL(a.href).pathname)")
    links.nth(to_replay.index("/replay")).click()  # the hand's first problem (or its action)
    _on_page(page, "replay", t("Replay", lang))
    assert parse_qs(urlparse(page.url).query)["hand"] == [hand]
    if _step_in_url(page) != 23:
        page.locator(".st-key-action_list").get_by_text("23. ", exact=False).first.click()
    page.wait_for_function(
        _AT_STEP_SAID,
        arg=[23, t("Step {step} of {last}", lang, step=23, last=n)],
        timeout=30_000,
        polling="raf",
    )
    _no_english_left(page, english, lang, "replay")
    for path, title in (("players", t("Players", lang)), ("tournament", t("Tournament", lang))):
        _nav(page, path, title)
        _no_english_left(page, english, lang, path)
    _nav(page, "", "tarock-logs")
    _no_english_left(page, english, lang, "overview")
    leave(page)


def test_an_ingest_rewriting_the_database_while_serving_does_not_break_the_app(
    served,
    page_at,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    url, db = served
    page = page_at(1280, 720)
    _goto(page, f"{url}/")
    _opens_cleanly(page, "")  # (for the every-page test: OPENED_ELSEWHERE)
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
    leave(page)


def _grid_text(page: object) -> str:
    """The text of every data grid on the page (the grids draw on a canvas; their cells are
    also in an accessible table, which is what is read here)."""
    grids = page.locator("[role='grid']")  # type: ignore[attr-defined]
    return " ".join(grids.nth(i).text_content() or "" for i in range(grids.count()))


def _grid_text_with(page: object, needles: list[str], timeout: float = 30.0) -> str:
    """:func:`_grid_text` once every one of ``needles`` is in it, or after ``timeout``
    seconds (the page draws its grids one after another: the hands' first, the sessions'
    and the tournaments' after, later on a loaded machine)."""
    deadline = time.monotonic() + timeout
    while True:
        text = _grid_text(page)
        if all(n in text for n in needles) or time.monotonic() > deadline:
            return text
        page.wait_for_timeout(250)  # type: ignore[attr-defined]


def test_every_planted_dispute_is_on_the_audit_page_and_in_the_overview_counts(
    served,
    page_at,
    tmp_path: Path,  # type: ignore[no-untyped-def]
) -> None:
    """Issue 11's acceptance in Chromium: the five planted disputes of sample_logs/disputed
    (four hands, and the placement points of session E with the standings they move) are on
    the Audit page, dispute 2's session total beside them, and the Overview counts them."""
    manifest = Path(__file__).resolve().parents[2] / "sample_logs/disputed/disputes.manifest"
    planted = json.loads(manifest.read_text(encoding="utf-8"))
    url, _ = served
    page = page_at(1600, 2400)
    _goto(page, f"{url}/audit")
    page.locator("[role='grid']").first.wait_for(state="attached", timeout=15_000)
    needles = ["session.placement_points_differ", "session.total_differs",
               "tournament.standing_differs"]  # fmt: skip
    needles += [
        f"{p['session']} · hand {p['hand']}" if p["hand"] is not None else p["session"]
        for p in planted
    ]
    grids = _grid_text_with(page, needles)
    for p in planted:
        if p["hand"] is not None:
            assert f"{p['session']} · hand {p['hand']}" in grids, p["description"]
        else:
            assert p["session"] in grids and "session.placement_points_differ" in grids
    assert "session.total_differs" in grids and "tournament.standing_differs" in grids
    assert page.locator("[data-testid='stException']").count() == 0
    page.screenshot(path=str(tmp_path / "audit-findings.png"), full_page=True)
    _nav(page, "", "tarock-logs")  # (the same app session)
    metric = page.locator("[data-testid='stMetric']", has_text="Sessions with score differences")
    assert int(metric.first.inner_text().split()[-1]) >= 2
    metric = page.locator("[data-testid='stMetric']", has_text="Tournament findings")
    assert int(metric.first.inner_text().split()[-1]) >= 3
    leave(page)


def test_the_players_charts_are_drawn_from_their_vega_lite_specs(served, page_at) -> None:  # type: ignore[no-untyped-def]
    """The score over time (its own tab: the first tab opens without a chart) and the
    contracts' win rates (Contracts tab) are plain Vega-Lite specifications
    (dashboard/charts.py): the browser draws them."""
    url, _ = served
    page = page_at(1280, 720)
    try:
        _goto(page, f"{url}/players")
        _opens_cleanly(page, "players")  # (for the every-page test: OPENED_ELSEWHERE)
        page.locator("[data-testid='stDataFrame']").first.wait_for(timeout=30_000)
        assert page.locator("[data-testid='stVegaLiteChart']").count() == 0
        for tab in ("Score over time", "Contracts"):  # clicked: the same app session
            page.get_by_role("tab", name=tab, exact=True).click()
            page.wait_for_function(
                """tab => new URLSearchParams(location.search).get('tab') === tab""",
                arg=tab,
                timeout=30_000,
            )
            _on_page(page, "players", "Players")
            chart = page.locator("[data-testid='stVegaLiteChart']:visible").first
            chart.wait_for(timeout=30_000)
            chart.locator("canvas, svg").first.wait_for(timeout=30_000)
            assert page.locator("[data-testid='stException']").count() == 0, tab
    finally:
        leave(page)


#: the replayer's toolbar select boxes' shown values (the hand's seat, the autoplay speed)
_TOOLBAR_VALUES = """() => [...document.querySelectorAll(
    '.st-key-toolbar [data-testid=stSelectbox] input')].map(e => e.value || e.placeholder)"""


def test_switching_the_language_in_the_sidebar_keeps_the_replayers_choices_in_the_new_words(
    served, page_at
) -> None:  # type: ignore[no-untyped-def]
    """The sidebar's language switch on an open replay (the same app session): the toolbar's
    choices (all hands open, 1 s per step) are shown in the new language, and the page goes
    on working. Streamlit keeps a choice as the label it showed: the speed once read
    "1 s pro Schritt" after a switch from German, and the next run stopped with an error
    (``dashboard.state.keep_choices``)."""
    from tarock_logs.report.i18n import LANG_NAMES, t

    url, db = served
    hand = _disputed_hand(db)
    page = page_at(1280, 720)
    try:
        _goto(page, f"{url}/replay?hand={hand}&step=5&lang=de")
        for lang in ("de", "sl", "en"):
            if lang != "de":  # picked in the sidebar, as a reader does
                page.locator(".st-key-lang [data-testid='stSelectbox']").click()
                page.get_by_role("option", name=LANG_NAMES[lang], exact=True).click()
            shown = [t("all hands open", lang), t("{s} s per step", lang, s="1")]
            page.wait_for_function(
                f"want => {{ const v = ({_TOOLBAR_VALUES})(); "
                "return want.every(w => v.includes(w)); }",
                arg=shown,
                timeout=30_000,
            )
            _settle(page)
            assert page.locator("[data-testid='stException']").count() == 0, lang
            assert parse_qs(urlparse(page.url).query)["lang"] == [lang]
        _press(page, "ArrowRight", 6)  # the next run reads the kept choices
        assert page.locator("[data-testid='stException']").count() == 0
        assert set(page.evaluate(_TOOLBAR_VALUES)) >= {"all hands open", "1 s per step"}
    finally:
        leave(page)
