"""Roles in Debian's headless Chromium (issue 36): a public server's visitor cannot unmask
names, open the entry page or download real names; a referee logs in with the referees file
(streamlit-authenticator, the real component) with one press, its run replaced by another
as soon as it has begun (the race that lost logins), and enters a hand; a second entry of the same
session does not replace the first. In en, sl and de, at 390 × 844 and 1280 × 720."""

from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pytest

from tarock_logs.cards import PACKS
from tarock_logs.store.pseudonyms import GENERA
from tarock_logs.store.read.queries import connect_reader
from tests.dashboard.browser_helpers import (
    CHROMIUM,
    chromium,
    free_port,
    goto,
    in_app,
    settle,
    wait_healthy,
)
from tests.dashboard.dash_helpers import TAROCK, DashDB, hand_ids
from tests.dashboard.test_access import PASSWORD, referees_file

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 720}}
SHOTS = Path(os.environ.get("TAROCK_SHOTS", "/tmp/tarock-shots"))


@pytest.fixture(scope="module")
def public_server(dash_db: DashDB, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """``tarock dashboard --host 0.0.0.0`` (public by default) with a referees file and an
    entry folder, bound to a free port."""
    base = tmp_path_factory.mktemp("roles")
    users = referees_file(base / "referees.yaml")
    entries = base / "entries"
    port = free_port()
    proc = subprocess.Popen(
        [str(TAROCK), "dashboard", "--db", str(dash_db.path), "--port", str(port),
         "--host", "0.0.0.0", "--users", str(users), "--entry-dir", str(entries)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "TAROCK_DB": ""},
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url, entries
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


@pytest.fixture(scope="module")
def contexts(browser: Any) -> Iterator[Any]:
    """One browser context per screen size for the module's tests, in the module's order: the
    visitors' tests (which log in nowhere and keep no cookie of their own), then the
    referee's test of that size, the last to use it (its login's cookie stays in it). A new
    context's first load of the app took about twice a later load's time (Chromium compiles
    the app's scripts again in each new context). Each test opens its own page."""
    made: dict[str, Any] = {}

    def context(size: str) -> Any:
        if size not in made:
            ctx = browser.new_context(
                **(PHONE if size == "phone" else DESKTOP), accept_downloads=True
            )
            made[size] = ctx
        return made[size]

    yield context
    for ctx in made.values():
        ctx.close()


@pytest.fixture(scope="module")
def real_names(dash_db: DashDB) -> list[str]:
    con = connect_reader(dash_db.path)  # (the dashboard's settings: one process, one config)
    try:
        rows = con.execute("SELECT DISTINCT name FROM players WHERE name IS NOT NULL").fetchall()
    finally:
        con.close()
    return [r[0] for r in rows if r[0] and len(r[0]) > 3]


def grid_text(page: Any, ready: Any, timeout: float = 30.0) -> str:
    """The text of the page's data grids (drawn on a canvas; their cells are also in an
    accessible table, read here) once ``ready(text)`` holds, or after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        grids = page.locator("[role='grid']")
        text = " ".join(grids.nth(i).text_content() or "" for i in range(grids.count()))
        if ready(text) or time.monotonic() > deadline:
            return text
        page.wait_for_timeout(250)


#: a pseudonym as :mod:`tarock_logs.store.pseudonyms` makes them ("Corvus 207")
PSEUDONYM = re.compile(rf"(?:{'|'.join(GENERA)}) \d{{3}}")  # (cells run together)


def _disputed_hand(db: DashDB) -> str:
    facts = hand_ids(db.path)
    return str(next(h["hand_id"] for h in facts["hands"] if h["session"] == db.disputed_session))


def _settled_at(page: Any, path: str) -> None:
    """Wait until the page at URL path ``path`` has finished the run that draws it (no
    element of the page before left), and again after two frames, in case that run asked
    for another."""
    for _ in range(2):
        page.wait_for_function(
            """path => {
              const app = document.querySelector("[data-testid='stApp']");
              return !!app && app.getAttribute('data-test-connection-state') === 'CONNECTED'
                && app.getAttribute('data-test-script-state') === 'notRunning'
                && location.pathname === '/' + path
                && !document.querySelector("[data-stale='true']");
            }""",
            arg=path,
            timeout=30_000,
            polling="raf",
        )
        page.evaluate(
            "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )


def _nav(page: Any, path: str, visitor: bool = True) -> None:
    """To the page at URL path ``path`` with the sidebar's navigation (the same app session:
    a run of that page, not a load of the app; on a phone the sidebar is unfolded for it).
    A ``visitor`` is offered no entry page."""
    links = page.locator("[data-testid='stSidebarNav'] a")
    if page.locator("[data-testid='stSidebar']").get_attribute("data-collapsed") == "true":
        page.locator("[data-testid='stExpandSidebarButton']").first.click()
        page.locator("[data-testid='stSidebar'][data-collapsed='false']").wait_for(
            state="attached", timeout=10_000
        )
    paths = links.evaluate_all("links => links.map(a => new URL(a.href).pathname)")
    assert ("/enter" in paths) is not visitor, paths  # a visitor is offered no entry page
    links.nth(paths.index("/" + path)).click()
    _settled_at(page, path)
    # folded away again (a phone's sidebar covers the page; the context keeps its state for
    # the pages opened after)
    sidebar = page.locator("[data-testid='stSidebar']")
    fold = page.locator("[data-testid='stSidebarCollapseButton'] button")
    if page.viewport_size["width"] < 700 and sidebar.get_attribute("data-collapsed") != "true":
        fold.first.click()
        page.locator("[data-testid='stSidebar'][data-collapsed='true']").wait_for(
            state="attached", timeout=10_000
        )


#: each language once and each screen size at least once (an English desktop run as well
#: repeated the English phone's and the Slovenian desktop's pages: what a visitor is shown
#: of a name does not depend on the pair)
@pytest.mark.parametrize("lang, size", [("en", "phone"), ("sl", "desktop"), ("de", "phone")])
def test_a_public_visitor_never_sees_a_real_name(
    public_server: Any,
    contexts: Any,
    real_names: list[str],
    lang: str,
    size: str,
    dash_db: DashDB,
) -> None:
    """The dispute dossier downloaded from the Audit page (a link to the disputed hand)
    has pseudonyms only; the entry page's link opens no entry page; in that link's app
    session, the Players page (the navigation, which offers a visitor no entry page) shows
    pseudonyms only and no toggle to unmask them.

    The entry page's link is opened right after the download (the download button's press
    runs no page: ``on_click="ignore"``)."""
    url, _ = public_server
    ctx = contexts(size)
    assert not [c for c in ctx.cookies() if c["name"] == "tarock_referee"]  # a visitor
    page = ctx.new_page()
    try:
        # the dispute dossier downloaded from the Audit page: pseudonyms only
        goto(page, f"{url}/audit?hand={_disputed_hand(dash_db)}&lang={lang}")
        with page.expect_download(timeout=30_000) as dl:
            page.locator("[data-testid='stDownloadButton'] button").first.click()
        html = Path(dl.value.path()).read_text(encoding="utf-8")
        assert PSEUDONYM.search(html)
        for name in real_names:
            assert name not in html, name
        # the entry page is not there for a visitor
        goto(page, f"{url}/enter?lang={lang}")
        assert "cards dealt" not in page.inner_text("body")
        assert page.locator(".st-key-e_save").count() == 0
        # (the app says that there is no such page, in a dialog: closed)
        page.keyboard.press("Escape")
        page.locator("[role='dialog']").wait_for(state="detached", timeout=10_000)
        # the Players page (the same app session)
        _nav(page, "players")
        assert parse_qs(urlparse(page.url).query).get("game") == ["slovenian"], page.url
        page.locator("[data-testid='stDataFrame']").first.wait_for(timeout=30_000)
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"public-players-{lang}-{size}.png"))
        body = page.inner_text("body")
        grid = grid_text(page, PSEUDONYM.search)
        assert PSEUDONYM.search(grid), grid[:300]
        for name in real_names:
            assert name not in body and name not in grid, name
        assert page.locator(".st-key-mask_names").count() == 0  # no toggle to unmask
    finally:
        page.close()


def _deal_by_pasting(page: Any) -> None:
    """Deal a whole pack by pasting each target's tokens (seats 1-4, then the talon): each
    move waited for by what it draws (the target's button chosen, the count of cards dealt),
    not for a fixed time."""
    pack = list(PACKS["slovenian"])
    for target in range(5):
        cards = pack[12 * target : 12 * target + 12] if target < 4 else pack[48:]
        button = page.locator(".st-key-e_target button").nth(target)
        chosen = button.and_(page.locator("[data-testid='stBaseButton-primary']"))
        if not chosen.count():  # (a full target's next one may be chosen already)
            in_app(page, button.click, chosen)
        box = page.locator(".st-key-e_paste input")
        box.fill(" ".join(cards))
        dealt = f"{12 * target + len(cards)} of 54 cards dealt"
        in_app(page, partial(box.press, "Enter"), page.get_by_text(dealt, exact=False))
    page.get_by_text("Deal complete.", exact=True).wait_for(timeout=30_000)


def _session_id(page: Any) -> str:
    page.get_by_text("Table: game, ruleset, players, dealer", exact=False).first.click()
    value: str = page.get_by_label("Session id (the file name)").input_value()
    return value


class _RunReplacingTheSubmit:
    """Forces the race that lost referees' logins (docs/dashboard.md): a run of the page
    asked for just after the run of the login form's submit has begun replaces that run (as
    the run did that streamlit-authenticator's cookie component asked for when it reported
    the browser's cookies).

    Installed on a page before it loads, it routes the page's websocket through the test:
    once the submit's message (a press: a trigger value) has gone to the server and the
    server says that the submit's run has started (its ``new_session`` message), the same
    widget states are sent again without the press, as the app sends them when another
    widget (a component's report) changes."""

    def __init__(self, page: Any) -> None:
        self.sent = False
        self._replacing: bytes | None = None
        self._armed = False
        page.route_web_socket("**/_stcore/stream", self._socket)

    def _socket(self, ws: Any) -> None:
        from streamlit.proto.BackMsg_pb2 import BackMsg
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            server.send(message)
            if self._replacing is not None or not isinstance(message, bytes):
                return
            back = BackMsg.FromString(message)
            if back.WhichOneof("type") != "rerun_script":
                return
            states = back.rerun_script.widget_states.widgets
            pressed = [
                i
                for i, w in enumerate(states)
                if w.WhichOneof("value") == "trigger_value" and w.trigger_value
            ]
            if pressed:
                for i in reversed(pressed):
                    del states[i]
                self._replacing = back.SerializeToString()
                self._armed = True

        def from_server(message: str | bytes) -> None:
            ws.send(message)
            if self._armed and isinstance(message, bytes):
                if ForwardMsg.FromString(message).WhichOneof("type") == "new_session":
                    self._armed = False
                    server.send(self._replacing)  # the submit's run has begun
                    self.sent = True

        ws.on_message(from_page)
        server.on_message(from_server)

    def run(self, page: Any, press: Any) -> None:
        """``press()`` submits the login form; returns once the replacing run's message has
        been sent into the submit's run."""
        press()
        deadline = time.monotonic() + 30
        while not self.sent and time.monotonic() < deadline:
            page.wait_for_timeout(20)
        assert self.sent, "the login form's submit was not seen"


def _log_in(page: Any, race: _RunReplacingTheSubmit, phone: bool) -> None:
    """Log in as a referee with one press of "Log in", its run replaced by another as soon as
    it has begun (:class:`_RunReplacingTheSubmit`)."""
    if phone:  # the sidebar starts folded on a phone
        page.locator("[data-testid='stExpandSidebarButton']").first.click()
    page.get_by_text("Referee login", exact=True).first.click()
    page.get_by_role("textbox", name="User name").fill("ana")
    page.get_by_role("textbox", name="Password").fill(PASSWORD)
    race.run(page, page.get_by_role("button", name="Log in").click)
    page.get_by_text("Referee: Ana Referee", exact=False).wait_for(state="attached", timeout=30_000)
    settle(page)


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_referee_logs_in_and_enters_a_hand_twice_without_replacing_it(
    public_server: Any, contexts: Any, real_names: list[str], size: str
) -> None:
    url, entries = public_server
    ctx = contexts(size)
    page = ctx.new_page()
    race = _RunReplacingTheSubmit(page)
    try:
        # logged in on the Overview page (the runs of a login, the replaced one and the
        # ones the cookie component's reports ask for, are cheaper there than on the
        # Players page, about 0.3 s against 1.5 s each at a load of 7)
        goto(page, url)
        _log_in(page, race, size == "phone")
        # the Players page through the navigation (the same session)
        _nav(page, "players", visitor=False)
        page.locator("[data-testid='stDataFrame']").first.wait_for(timeout=30_000)
        grid = grid_text(page, lambda t: any(n in t for n in real_names))
        assert any(name in grid for name in real_names)  # the referee sees names
        # to the entry page through the navigation (the same session)
        _nav(page, "enter", visitor=False)
        page.get_by_text("0 of 54 cards dealt", exact=False).wait_for(timeout=30_000)
        if size == "phone":  # fold the sidebar away: on a phone it covers the page
            fold = page.locator("[data-testid='stSidebarCollapseButton'] button")
            if fold.count() and fold.first.is_visible():
                fold.first.click()
            page.locator("[data-testid='stSidebar'][data-collapsed='true']").wait_for(
                state="attached", timeout=10_000
            )
        settle(page)
        _deal_by_pasting(page)
        session_id = _session_id(page)
        before = len(list((entries / ".pending").glob("*.json")))
        for k in range(2):  # the same session saved twice: two files
            page.get_by_role("button", name="Save for acceptance").click()
            page.get_by_text("it waits for a referee's acceptance", exact=False).wait_for(
                timeout=30_000
            )
            settle(page)
            assert len(list((entries / ".pending").glob(f"{session_id}-*.json"))) == k + 1
        waiting = list((entries / ".pending").glob(f"{session_id}-*.json"))
        assert len(waiting) == 2 and len(list((entries / ".pending").glob("*.json"))) == before + 2
        assert str(entries) not in page.inner_text("body")
        # the login's signed cookie, for the referee's next visit
        assert [c for c in ctx.cookies() if c["name"] == "tarock_referee"]
        page.screenshot(path=str(SHOTS / f"referee-entry-{size}.png"), full_page=True)
    except Exception:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"referee-failed-{size}.png"))
        raise
    finally:
        page.close()
