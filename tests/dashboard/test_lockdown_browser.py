"""The dashboard with a hostile log in the store, in Debian's headless Chromium: no request
leaves the page for any host but the dashboard's, and nothing from the log is interpreted.

Issue 14, defects 8 (Markdown/HTML injection through player names, session ids, event names,
score item names and bid contracts) and 10 (icons fetched from fonts.gstatic.com). The log's
texts carry Markdown images and links, raw HTML, a script, a bare URL, Streamlit's colour and
icon directives and LaTeX, every one pointing at a local trap server that counts what reaches
it. Every page is opened, the replay and audit at the hostile hands.
"""

from __future__ import annotations

import copy
import http.server
import json
import re
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlsplit

import pytest

from tarock_logs.store.read.queries import connect_reader
from tarock_logs.store.write.ingest import ingest
from tests.dashboard.browser_helpers import (
    CHROMIUM,
    PAGES,
    chromium,
    drawn,
    free_port,
    goto,
    in_app,
    leave,
    serve,
)
from tests.dashboard.dash_helpers import APPENDIX_B

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]


def hostile(trap: str, tag: str) -> str:
    """A text that would fetch ``trap`` (or link to it, or run a script) if it were read as
    Markdown or HTML anywhere."""
    return (
        f"![{tag}]({trap}/md-image-{tag}.png) [link]({trap}/md-link-{tag}) "
        f'<img src="{trap}/html-img-{tag}.png"> <script>fetch("{trap}/script-{tag}")</script> '
        f"{trap}/bare-{tag} :red[red] :material/home: $x^2$ **bold**"
    )


class _Trap(http.server.BaseHTTPRequestHandler):
    hits: ClassVar[list[str]] = []

    def do_GET(self) -> None:
        _Trap.hits.append(self.path)
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the hook's name
        pass


@pytest.fixture(scope="module")
def trap() -> Iterator[str]:
    """A local HTTP server that records every request (nothing should reach it)."""
    port = free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), _Trap)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()


def _hostile_session(trap: str) -> dict[str, Any]:
    """Appendix B.1 with every free text of the log hostile: player names, the session id,
    the event, a recorded score item (a score difference) and, in a second hand, a bid's
    contract (an illegal action)."""
    s = copy.deepcopy(json.loads(APPENDIX_B.read_text("utf-8"))[0])
    s["id"] = hostile(trap, "session")[:128]
    s["event"] = {
        "tournament": hostile(trap, "tournament")[:200],
        "name": hostile(trap, "event")[:200],
    }
    for i, p in enumerate(s["players"]):
        p["id"] = f"hostile-{i}"
        p["name"] = hostile(trap, f"name{i}")[:128]
    hand = s["hands"][0]
    hand["result"]["items"].append({"item": hostile(trap, "item")[:48], "value": 5})
    second = copy.deepcopy(hand)
    second["number"] = 2
    second["dealer"] = (hand["dealer"] + 1) % len(s["players"])
    bid = next(a for a in second["actions"] if a["type"] == "bid")
    bid["contract"] = hostile(trap, "contract")[:32]
    s["hands"].append(second)
    return s


@pytest.fixture(scope="module")
def hostile_store(trap: str, tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("hostile")
    logs = base / "logs"
    logs.mkdir()
    (logs / "hostile.json").write_text(json.dumps(_hostile_session(trap)), "utf-8")
    db = base / "hostile.duckdb"
    ingest([logs, APPENDIX_B], db=db)
    return db


#: the page's ``src``, ``href``, ``srcset`` and ``xlink:href`` values of the elements that load
#: or link something, as ``[attribute, value]`` pairs
_ADDRESSES = """() => Array.from(
    document.querySelectorAll('img, a, script, iframe, source, link, image')
).flatMap(el => ['src', 'href', 'srcset', 'xlink:href'].map(a => [a, el.getAttribute(a) || '']))"""


@pytest.fixture(scope="module")
def served(hostile_store: Path) -> Iterator[str]:
    """One ``tarock dashboard`` over the hostile store for both tests."""
    with serve(hostile_store) as url:
        yield url


@pytest.fixture(scope="module")
def page() -> Iterator[Any]:
    """One page for both tests (each leaves it blank, which ends its app session): a new
    context's first load of the app costs Chromium ≈ 3 s of CPU more than a load in a page
    that has loaded the same server's app before (docs/performance.md)."""
    with chromium() as browser:
        made = browser.new_page(viewport={"width": 1400, "height": 2000})
        try:
            yield made
        finally:
            made.context.close()


#: true once every image of the page has loaded (or failed) and the fonts are ready: what a
#: render would fetch has been asked for by then
_FETCHED = """() => document.fonts.status === 'loaded'
    && Array.from(document.images).every(img => img.complete)"""


def _hands(db: Path) -> list[str]:
    con = connect_reader(db)
    try:
        rows = con.execute(
            "SELECT hand_id FROM hands WHERE session_id LIKE '![session]%' ORDER BY number"
        ).fetchall()
    finally:
        con.close()
    return [r[0] for r in rows]


#: the pages' titles (their ``h1``), which show that a page is drawn
TITLES = {
    "": "tarock-logs",
    "audit": "Audit",
    "replay": "Replay",
    "players": "Players",
    "tournament": "Tournament",
    "enter": "Enter a hand",
}


def _check(page: Any, trap: str, where: str) -> None:
    """The page as drawn now fetches nothing from the trap and interprets nothing."""
    # the images and fonts a render would ask for, and the elements drawn whole (no
    # placeholder of one whose code is still being fetched)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => r()))")
    page.wait_for_function(_FETCHED, timeout=10_000)
    drawn(page)
    if where.startswith("/replay?"):  # the table (st.html) drawn after the run
        page.wait_for_selector(".tl-seat", timeout=30_000)
    assert page.locator("[data-testid='stException']").count() == 0, where
    html = page.content()
    # every address-bearing attribute of the page, read in one call (one round trip per
    # element and attribute made this test take minutes)
    for attr, value in page.evaluate(_ADDRESSES):
        assert urlsplit(trap).netloc not in value.replace("#", " #"), (where, attr, value)
    assert "<script>fetch" not in html.replace("&lt;script&gt;", ""), where
    assert page.locator("[data-testid='stMarkdown'] strong", has_text="bold").count() == 0, where


def _at_step(page: Any, hand: str, step: int) -> list[Any]:
    """What shows that the replay is drawn at ``hand``'s ``step``: the step's own line and
    the URL that says it."""
    return [
        page.locator("[data-testid='stMarkdown'] strong", has_text=f"Step {step} of "),
        re.compile(rf"/replay\?(?=.*\bhand={hand}\b)(?=.*\bstep={step}\b)"),
    ]


def _replay_steps(page: Any, trap: str, hand: str, seen: list[str]) -> None:
    """From the hand's deal, steps 1, 5 and 20 by the replayer's own controls: the → key,
    then two lines of its action list."""
    line, at = _at_step(page, hand, 1)
    in_app(page, lambda: page.keyboard.press("ArrowRight"), line, url=at)
    seen.append(f"/replay?hand={hand}&step=1")
    _check(page, trap, seen[-1])
    for k in (5, 20):
        line, at = _at_step(page, hand, k)
        entry = page.locator(".st-key-action_list label:has(input[type=radio])").nth(k)
        in_app(page, entry.click, line, url=at)
        seen.append(f"/replay?hand={hand}&step={k}")
        _check(page, trap, seen[-1])


def _audit_hand(page: Any, trap: str, hand: str, number: int, seen: list[str]) -> None:
    """The Audit page (by the sidebar's navigation) at ``hand``, picked in its hand picker."""
    nav = page.locator("[data-testid='stSidebarNav'] a[href$='/audit']")
    in_app(page, nav.click, page.locator("h1", has_text="Audit"), url=re.compile(r"/audit"))
    page.locator(".st-key-audit_hand input[role='combobox']").click()
    option = page.get_by_role("option").filter(has_text=re.compile(rf" · hand {number}$"))
    in_app(
        page,
        option.click,
        page.get_by_text(f"hand id {hand}", exact=False),
        url=re.compile(rf"/audit\?(?=.*\bhand={hand}\b)"),
    )
    seen.append(f"/audit?hand={hand}")
    _check(page, trap, seen[-1])


def test_a_hostile_log_fetches_nothing_and_is_shown_as_text_on_every_page(
    trap: str, hostile_store: Path, served: str, page: Any
) -> None:
    """Every page, and each hostile hand on the Audit page and in the replay at steps 0, 1,
    5 and 20, checked as drawn. One page load: the rest is reached inside the app session,
    as a visitor moves (the sidebar's navigation, the audit's hand picker and its link to
    the replay, the replayer's keys, action list and next-hand button), each position
    checked once its run has drawn it."""
    hands = _hands(hostile_store)
    assert len(hands) == 2, "the hostile session was not stored"
    _Trap.hits.clear()
    url = served
    seen: list[str] = []
    requested: list[str] = []

    def record(r: Any) -> None:
        requested.append(r.url)

    page.on("request", record)
    try:
        goto(page, url + "/")
        seen.append("/")
        _check(page, trap, "/")
        for p in PAGES[1:]:  # the other pages by the sidebar's navigation
            nav = page.locator(f"[data-testid='stSidebarNav'] a[href$='/{p}']")
            title = page.locator("h1", has_text=TITLES[p])
            in_app(page, nav.click, title, url=re.compile(rf"/{p}(\?|$)"))
            seen.append(f"/{p}")
            _check(page, trap, seen[-1])
        # the first hand: its audit, its replay by the audit's link, at the deal
        _audit_hand(page, trap, hands[0], 1, seen)
        link = page.locator("a[data-testid='stPageLink-NavLink'][href*='replay?']").first
        in_app(page, link.click, ".tl-seat", url=re.compile(rf"/replay\?.*\b{hands[0]}\b"))
        if "step=0" not in page.url:  # the link opens the first problem: Home, the deal
            line, at = _at_step(page, hands[0], 0)
            in_app(page, lambda: page.keyboard.press("Home"), line, url=at)
        line, at = _at_step(page, hands[0], 0)
        line.wait_for(timeout=1_000)
        seen.append(f"/replay?hand={hands[0]}&step=0")
        _check(page, trap, seen[-1])
        _replay_steps(page, trap, hands[0], seen)
        # the second hand: the replay's next hand (at its deal), then its audit
        page.locator("[data-testid='stExpander'] summary", has_text="Other hands").click()
        line, at = _at_step(page, hands[1], 0)
        next_hand = page.locator(".st-key-next_hand button")
        in_app(page, next_hand.click, line, url=at)
        seen.append(f"/replay?hand={hands[1]}&step=0")
        _check(page, trap, seen[-1])
        _replay_steps(page, trap, hands[1], seen)
        _audit_hand(page, trap, hands[1], 2, seen)
    finally:
        page.remove_listener("request", record)
        leave(page)
    expected = [f"/{p}" for p in PAGES]
    for h in hands:
        expected += [f"/replay?hand={h}&step={k}" for k in (0, 1, 5, 20)] + [f"/audit?hand={h}"]
    assert sorted(seen) == sorted(expected)
    dashboard = urlsplit(url).netloc
    outside = sorted({u for u in requested if urlsplit(u).netloc not in (dashboard, "")})
    assert [u for u in outside if not u.startswith(("data:", "blob:"))] == []
    assert _Trap.hits == []


def test_the_hostile_texts_read_literally_where_they_are_shown(
    trap: str, hostile_store: Path, served: str, page: Any
) -> None:
    """Nothing is interpreted and nothing is lost: the replay's header shows a player's
    hostile name character for character."""
    hands = _hands(hostile_store)
    try:
        goto(page, f"{served}/replay?hand={hands[0]}&step=0&seat=all")
        # the table's drawing (st.html) can come in after the script has finished: the
        # seats, which show the names, are what this test reads
        page.wait_for_selector(".tl-seat", timeout=30_000)
        body = page.inner_text("body").replace("\u2060", "")  # md_text's word joiners
        name = hostile(trap, "name0")[:128].strip()
        assert name in body
    finally:
        leave(page)
