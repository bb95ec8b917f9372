"""The hand entry (``/enter``) in Debian's headless Chromium, on a desktop and on a phone:
Appendix B.1 of the Slovenian rules entered by clicks (on the desktop the first seat's and the
talon's cards card by card and the two seats between pasted as tokens, on the phone the whole
deal pasted) gives a log whose audit is the bundled hand's; an illegal card shows its
violation at once; the log is downloaded, saved into the entry box and accepted (the
dashboard runs without a database: it never writes one).

One run per screen size; each click waits for the page's own count of cards dealt or actions
entered and for its run to end (one check in the page at each frame), not for a fixed time,
so the runs stay fast; two seats' card clicks (22 runs of the page, the same clicks as the
first seat's) are pasted instead. What the screen size decides (the deal by clicks or by
pasted tokens, the first choices on the first screen, the warning style of a forbidden card)
is checked on both; the rest of the hand (its 47 other cards, the score, the download, its
audit, saving and accepting: the same clicks on the same page, whatever its width) only on
the desktop: the phone stops after Bojan's forbidden card (a whole hand more took it about
40 s). The pasted deal's tokens are B.1's deal (tests/dashboard/test_enter_model.py).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tarock_logs.log.reader import read_paths
from tarock_logs.report import text
from tarock_logs.verdict.audit import audit_session
from tarock_logs.verdict.convert import to_engine_action
from tests.dashboard.browser_helpers import CHROMIUM, chromium, free_port, wait_healthy
from tests.dashboard.dash_helpers import APPENDIX_B, TAROCK

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]
NAMES = ["Ana Kos", "Bojan Zupan", "Cene Novak", "Dušan Horvat"]
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True,
              "device_scale_factor": 2},
}  # fmt: skip


def _b1() -> Any:
    (s,) = [r.session for r in read_paths([APPENDIX_B]) if r.session.id == "si-appendix-b1"]
    return s


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """``tarock dashboard --entry-dir DIR`` with no database at all."""
    base = tmp_path_factory.mktemp("enter")
    folder = base / "entered"
    port = free_port()
    env = {**os.environ, "TAROCK_DB": ""}
    proc = subprocess.Popen(
        [str(TAROCK), "dashboard", "--db", str(base / "none.duckdb"), "--entry-dir",
         str(folder), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc)
        yield url, folder
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


#: true once a caption reads exactly the status line ``arg`` and the script is not running
_RUN_DONE = r"""status => {
  const app = document.querySelector("[data-testid='stApp']");
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  return Array.from(document.querySelectorAll("[data-testid='stCaptionContainer']"))
    .some(el => el.textContent.replace(/\s+/g, ' ').trim() === status);
}"""


#: resolves once the page's title has kept its place for two frames (a scroll has ended)
_SCROLLED = """() => new Promise(done => {
  let last = null, same = 0;
  const tick = () => {
    const y = document.querySelector('h1').getBoundingClientRect().top;
    same = y === last ? same + 1 : 0;
    last = y;
    if (same >= 2) done(); else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


class Clicker:
    """Clicks on the entry page, each followed by a wait for the page's status line."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.dealt = 0
        self.actions = 0

    def status(self) -> str:
        return f"{self.dealt} of 54 cards dealt · actions entered: {self.actions}"

    def wait(self) -> None:
        """Wait for the status line of the click's run and for that run to have finished
        (until it has, buttons of the run before may still be on the page): both read in the
        page at each animation frame, in one call."""
        self.page.wait_for_function(_RUN_DONE, arg=self.status(), timeout=20_000, polling="raf")

    def pill(self, row: str, label: str) -> None:
        """Click the button ``label`` of the page's button row ``row`` (its key)."""
        # a talon group's label goes on with its cards ("takes talon group 0: ♦K …")
        exact = self.page.locator("p", has_text=re.compile(f"^{re.escape(label)}(: .+)?$"))
        self.page.locator(f".st-key-{row} button").filter(has=exact).first.click()

    def card(self, card: str) -> None:
        self.pill(f"e_pack_{card[0]}", text.card_text(card, "slovenian"))
        self.dealt += 1
        self.wait()

    def paste(self, cards: list[str]) -> None:
        """Paste ``cards``' tokens into the field of the current target."""
        box = self.page.locator(".st-key-e_paste input")
        box.fill(" ".join(cards))
        box.press("Enter")
        self.dealt += len(cards)
        self.wait()

    def action(self, label: str, row: str = "e_choice") -> None:
        self.pill(row, label)
        self.actions += 1
        self.wait()


def _enter_b1(page: Any, url: str, by_clicks: bool = True) -> Clicker:
    """Seat the players and deal Appendix B.1's hand: the first seat's and the talon's cards
    card by card and the other two seats' tokens pasted (``by_clicks``), or, as a referee
    with the written deal at hand would, each seat's and the talon's tokens pasted."""
    page.goto(f"{url}/enter")
    page.get_by_text("0 of 54 cards dealt", exact=False).wait_for(timeout=30_000)
    c = Clicker(page)
    for s, name in enumerate(NAMES):
        box = page.get_by_label(f"Seat {s + 1} (in playing order)")
        box.fill(name)
        box.press("Enter")
        page.get_by_text(f"{name} 0/12", exact=False).first.wait_for(timeout=20_000)
    hand = _b1().hands[0]
    if not by_clicks:
        for seat in range(3):
            c.paste(hand.deal.hands[seat])
        c.pill("e_target", "the talon (0/6)")
        page.get_by_text("paste tokens for the talon", exact=False).wait_for(timeout=20_000)
        c.paste(hand.deal.talon)
    else:  # the first seat's cards and the talon clicked in, the two seats between pasted
        for card in hand.deal.hands[0]:
            c.card(card)
        for seat in (1, 2):
            c.paste(hand.deal.hands[seat])
        c.pill("e_target", "the talon (0/6)")
        page.get_by_text("paste tokens for the talon", exact=False).wait_for(timeout=20_000)
        for card in hand.deal.talon:
            c.card(card)
    page.get_by_role("button", name="The remaining 12 cards to Dušan Horvat").click()
    c.dealt = 54
    c.wait()
    return c


@pytest.mark.parametrize("size", sorted(SIZES))
def test_entering_appendix_b1_by_clicks_gives_the_bundled_audit(
    served: tuple[str, Path], browser: Any, size: str, tmp_path: Path
) -> None:
    url, folder = served
    context = browser.new_context(**SIZES[size], accept_downloads=True)
    page = context.new_page()
    try:
        # the desktop clicks in a seat's and the talon's cards, the phone pastes every seat's
        c = _enter_b1(page, url, by_clicks=size == "desktop")
        # the complete deal folds away: the first choices are on the first screen
        assert page.locator("[class*='st-key-e_pack_']").count() == 0
        page.locator("h1").first.scroll_into_view_if_needed()
        page.evaluate(_SCROLLED)
        first = page.locator(".st-key-e_choice button").first.bounding_box()
        height = SIZES[size]["viewport"]["height"]
        assert first is not None and first["y"] + first["height"] <= height, first
        s = _b1()
        actions = s.hands[0].actions
        first_play = next(i for i, a in enumerate(actions) if a.type == "play")
        for i, a in enumerate(actions):
            if a.type == "discard":
                chosen: list[str] = []
                for card in a.cards:
                    c.pill("e_discard_pick", text.card_text(card, "slovenian"))
                    chosen.append(text.card_text(card, "slovenian"))
                    page.get_by_text("Chosen: " + " ".join(chosen), exact=True).wait_for(
                        timeout=20_000
                    )
                page.get_by_role("button", name="Discard 3 card(s)").click()
                c.actions += 1
                c.wait()
                continue
            c.action(text.action_phrase(to_engine_action(a), "slovenian"))
            if i == first_play:  # Ana led ♠K; Bojan holds ♠J: pagat would not follow suit
                # a card the rules forbid: the first tap only asks, in a warning style
                bad = page.locator(".st-key-e_choice_bad button").first
                colour = bad.evaluate("b => getComputedStyle(b).borderTopColor")
                legal = page.locator(".st-key-e_choice button").first
                assert colour != legal.evaluate("b => getComputedStyle(b).borderTopColor")
                c.pill("e_choice_bad", "plays II")
                page.get_by_text("although the rules forbid it here", exact=False).wait_for(
                    timeout=20_000
                )
                page.wait_for_selector("[data-test-script-state='notRunning']")
                assert page.get_by_text(c.status(), exact=True).count() == 1  # nothing yet
                page.get_by_role("button", name="Yes, record it").click()
                c.actions += 1
                c.wait()
                alert = page.get_by_text("ILLEGAL", exact=False).first
                alert.wait_for(timeout=20_000)
                shown = page.inner_text("body")
                assert "play.illegal_card" in shown and "Bojan Zupan" in shown
                page.get_by_role("button", name="Undo the last action").click()
                c.actions -= 1
                c.wait()
                if size == "phone":  # the rest of the hand is the desktop's (docstring)
                    assert page.locator("[data-testid='stException']").count() == 0
                    return
        page.get_by_text("The hand is over.", exact=True).wait_for(timeout=20_000)
        page.get_by_text("The scorer wrote a score for this hand", exact=True).click()
        for name, score in zip(NAMES, [135, 135, 0, -20], strict=True):
            field = page.get_by_label(name, exact=True)
            field.wait_for(timeout=20_000)
            field.fill(str(score))
            field.press("Enter")
        page.get_by_text("The written score agrees with the engine's", exact=False).wait_for(
            timeout=20_000
        )
        with page.expect_download() as dl:
            page.get_by_role("button", name="Download the log").click()
        got = tmp_path / "entered.json"
        dl.value.save_as(got)
        (rec,) = list(read_paths([got]))
        assert rec.ok, [str(e) for e in rec.all_errors()]
        ours = audit_session(rec.session).hands[0]
        theirs = audit_session(s).hands[0]
        for key in ("legal", "recomputed", "discrepancies", "verification", "contract",
                    "declarer", "partner", "won"):  # fmt: skip
            assert getattr(ours, key) == getattr(theirs, key), key
        assert ours.verification == "verified"
        page.get_by_role("button", name="Save for acceptance").click()
        page.get_by_text("it waits for a referee's acceptance", exact=False).wait_for(
            timeout=20_000
        )
        assert str(folder) not in page.inner_text("body")  # never a path on the server
        page.wait_for_selector("[data-test-script-state='notRunning']", timeout=20_000)
        assert len(list((folder / ".pending").glob("*.json"))) == 1  # one click, one file
        page.get_by_role("button", name="Accept", exact=True).first.click()
        page.get_by_text("reads it now", exact=False).wait_for(timeout=20_000)
        saved = list(folder.glob("*.json"))
        assert saved and any(json.loads(p.read_text())["id"] == rec.session.id for p in saved)
        assert page.locator("[data-testid='stException']").count() == 0
    except Exception:
        page.screenshot(path=f"/tmp/enter-{size}.png", full_page=True)
        Path(f"/tmp/enter-{size}.txt").write_text(page.inner_text("body"))
        raise
    finally:
        context.close()
