"""Acceptance in Chromium (issue 33): the five planted disputes of ``sample_logs/disputed`` as a
player reads them on the Audit page and in the replay, at a phone's and a laptop's size, in
every language of the dashboard; and the dispute dossier downloaded in Slovenian, printed on A4.

What the pages must say comes from the renderer itself (``finding_parts`` on the findings of
``tarock audit``), never from an English sentence written here: the player by name, the
consequence in the page's language, no seat number, none of the engine's raw words.

Screenshots of the pages in sl and de are saved under ``$ACCEPT_SHOTS`` when it is set (to be
looked at by a person).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tarock_logs.report.i18n import t
from tarock_logs.report.text import finding_parts
from tarock_logs.verdict.findings import Finding
from tests.dashboard.browser_helpers import (
    CHROMIUM,
    chromium,
    follow,
    goto,
    serve,
    settle_loaded,
)
from tests.dashboard.dash_helpers import ROOT, TAROCK, DashDB

pytestmark = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's /usr/bin/chromium"),
]

DISPUTED = ROOT / "sample_logs" / "disputed"
SIZES = {"phone": (390, 844), "laptop": (1280, 720)}
LANGS = ("en", "sl", "de")
SHOTS = os.environ.get("ACCEPT_SHOTS")
#: a card said by the engine's token (``played H4``, ``discarded the king DK``) where the page
#: says it as people write it (``♥4``), in the case-folded page text
RAW_CARD = re.compile(
    r"\b(?:played|discarded(?: the king)?|odigral\w*|spielte) [hdsc](?:[1-9]|10|[jnqk])\b"
)
#: 96 CSS px per inch
PX_PER_MM = 96 / 25.4


@dataclass(frozen=True)
class Dispute:
    """One planted dispute and the finding that reports it."""

    session: str
    hand_id: str | None  # None: a session-level dispute
    action_index: int | None
    findings: tuple[Finding, ...]  # the findings a player must read (one per player)
    raw: tuple[str, ...]  # the engine's own words of the hand's violations

    @property
    def audit_path(self) -> str:
        return f"/audit?hand={self.hand_id}" if self.hand_id else f"/audit?session={self.session}"


def _audit_records() -> list[dict[str, Any]]:
    out = subprocess.run(
        [str(TAROCK), "audit", str(DISPUTED), "--format", "jsonl"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert out.stdout, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def _consequence(f: Finding, lang: str) -> str:
    """The finding's consequence for the score in ``lang``, as the renderer says it."""
    said, consequence = finding_parts(f, lang)
    if consequence is None and lang == "en":  # said in the finding's own English sentence
        consequence = f.consequence
        assert consequence is None or consequence in said
    assert consequence, f"{f.code}: no consequence in {lang}"
    return consequence


def _disputes() -> list[Dispute]:
    manifest = json.loads((DISPUTED / "disputes.manifest").read_text(encoding="utf-8"))
    records = _audit_records()
    found: list[Dispute] = []
    for planted in manifest:
        sid, number, ai = planted["session"], planted["hand"], planted["action_index"]
        if number is None:  # session level
            rec = next(r for r in records if r["record"] == "session" and r["session"] == sid)
            fs = tuple(Finding.from_dict(f) for f in rec["findings"] if f["severity"] == "error")
            found.append(Dispute(sid, None, None, fs, ()))
            continue
        rec = next(
            r
            for r in records
            if r["record"] == "hand" and r["session"] == sid and r["hand"] == number
        )
        hand_fs = [Finding.from_dict(f) for f in rec["findings"]]
        if ai is not None:
            chosen = [f for f in hand_fs if f.action_index == ai]
        else:  # a score difference: the finding that says what it does to the score
            chosen = [f for f in hand_fs if finding_parts(f, "sl")[1] is not None]
        assert chosen, f"{sid} hand {number}: the audit does not report the planted dispute"
        raw = tuple(v["message"] for v in rec["violations"])
        found.append(Dispute(sid, rec["hand_id"], ai, (chosen[0],), raw))
    assert len(found) == 5
    return found


def _plain(text: str) -> str:
    """Page text as read: without the invisible word joiners, spaces collapsed, case folded
    (a consequence said as a sentence of its own begins with a capital)."""
    return re.sub(r"\s+", " ", text.replace("\u2060", "")).strip().casefold()


def _engine_words(message: str) -> str:
    """The engine's raw sentence without its leading ``seat N`` (``played H4 while holding
    CK: …``)."""
    return re.sub(r"^seat \d+ ", "", message)


@pytest.fixture(scope="module")
def disputes() -> list[Dispute]:
    return _disputes()


@pytest.fixture(scope="module")
def served(dash_db: DashDB, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One ``tarock dashboard`` over a private copy of the sample store (which holds
    ``sample_logs/disputed``)."""
    db = tmp_path_factory.mktemp("accept") / "served.duckdb"
    shutil.copyfile(dash_db.path, db)
    with serve(db) as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with chromium() as b:
        yield b


def _new_page(browser: Any, size: str, **kw: Any) -> Any:
    w, h = SIZES[size]
    mobile = {"is_mobile": True, "has_touch": True} if size == "phone" else {}
    context = browser.new_context(viewport={"width": w, "height": h}, **mobile, **kw)
    return context.new_page()


@pytest.fixture(scope="module")
def laptop_page(browser: Any) -> Iterator[Any]:
    """One page (at the laptop's size when a test begins) for the module's tests: a new
    context's first load of the app took about twice a later load's time (Chromium compiles
    the app's scripts again in each new context)."""
    page = _new_page(browser, "laptop", accept_downloads=True)
    try:
        yield page
    finally:
        page.context.close()


def _at_laptop_size(page: Any) -> Any:
    page.set_viewport_size(dict(zip(("width", "height"), SIZES["laptop"], strict=True)))
    return page


def _alerts(page: Any) -> list[str]:
    return [_plain(a) for a in page.locator("[data-testid='stAlert']").all_inner_texts()]


def _shot(page: Any, d: Dispute, name: str) -> None:
    """A screenshot of the screen a player sees with the dispute's banner in the middle (the
    page scrolls inside its main block, so not a full-page shot)."""
    if not SHOTS:
        return
    who = d.findings[0].players[0].name or ""
    banner = page.locator("[data-testid='stAlert']").filter(has_text=who).first
    banner.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    Path(SHOTS).mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def _check_page(page: Any, d: Dispute, lang: str, where: str) -> None:
    """The verdict banner names the player and says the consequence in ``lang``; the page
    has no seat number, none of the engine's raw words and (in sl, de) no English finding."""
    main = _plain(page.inner_text("[data-testid='stMain']"))
    alerts = _alerts(page)
    for f in d.findings:
        name = _plain(f.players[0].name or "")
        assert name, f"{d.session}: a finding without the player's name"
        consequence = _plain(_consequence(f, lang))
        assert any(name in a and consequence in a for a in alerts), (
            f"{where}: no banner names {name!r} with {consequence!r}; banners: {alerts}"
        )
        if lang != "en":
            english = _plain(_consequence(f, "en"))
            assert english not in main, f"{where}: English left: {english!r}"
            assert _plain(f.message) not in main, f"{where}: the English finding is shown"
    for n in range(6):
        seat = t("seat {seat}", lang, seat=n)
        assert not re.search(rf"\b{re.escape(_plain(seat))}\b", main), f"{where}: {seat!r} shown"
        assert not re.search(rf"\bseat {n}\b", main), f"{where}: 'seat {n}' shown"
    for raw in d.raw:
        assert _plain(_engine_words(raw)) not in main, f"{where}: the engine's words {raw!r}"
    assert not RAW_CARD.search(main), f"{where}: a raw card token"


#: resolves after two animation frames
_TWO_FRAMES = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _at_both_sizes(page: Any, d: Dispute, lang: str, where: str, shot: str) -> None:
    """Check the page at the laptop's size, then at the phone's (Streamlit lays the same run
    out again; the page's CSS switches at 700 px), with a screenshot of each in sl and de."""
    for size in ("laptop", "phone"):
        w, h = SIZES[size]
        page.set_viewport_size({"width": w, "height": h})
        # the layout follows the new width: React's resize handlers run before the next
        # frames are drawn
        page.evaluate(_TWO_FRAMES)
        page.wait_for_selector("[data-test-script-state='notRunning']", timeout=20_000)
        _check_page(page, d, lang, f"{where} ({size}, {lang})")
        if lang != "en":
            _shot(page, d, f"{shot}-{lang}-{size}")


def _audit_drawn(page: Any, d: Dispute) -> Any:
    """What only the Audit page at ``d`` draws: the hand's id in its caption, or (a session's
    dispute) the session picked in the score sheet's picker."""
    if d.hand_id is not None:
        return page.locator("[data-testid='stCaptionContainer']", has_text=d.hand_id)
    return page.locator(f".st-key-audit_session input[value='{d.session}']")


def _open_audit(page: Any, served: str, d: Dispute, lang: str, first: bool) -> None:
    """The Audit page at ``d`` in ``lang`` (its deep link): loaded for a test's first
    dispute, then opened in the same app session (the browser's history navigation: one run
    of the page, not a new frontend)."""
    url = f"{served}{d.audit_path}&lang={lang}"
    if first:
        goto(page, url)
    else:
        follow(page, url, _audit_drawn(page, d))
    page.locator("[data-testid='stAlert']").first.wait_for(timeout=20_000)


def _session_last(disputes: list[Dispute]) -> list[tuple[int, Dispute]]:
    """The disputes numbered in the manifest's order, the session-level ones visited last: in
    one app session the Audit page keeps the hand picked before, so a hand's page opened
    after a session's would show that session's score sheet too (a session's page opened
    last shows the hand before it as well: more of the page checked, nothing less)."""
    return sorted(enumerate(disputes, start=1), key=lambda kd: kd[1].hand_id is None)


@pytest.mark.parametrize("lang", LANGS)
def test_every_planted_dispute_names_the_player_and_the_consequence(  # type: ignore[no-untyped-def]
    served, laptop_page, disputes, lang: str
) -> None:
    """Each dispute's Audit page (one page load for the first, the others opened in the same
    app session) and its replay reached by the verdict's link to it; checked at 1280 × 720
    and 390 × 844."""
    page = _at_laptop_size(laptop_page)
    try:
        for n, (k, d) in enumerate(_session_last(disputes)):
            page.set_viewport_size(dict(zip(("width", "height"), SIZES["laptop"], strict=True)))
            _open_audit(page, served, d, lang, first=n == 0)
            _at_both_sizes(page, d, lang, f"audit {d.session}", f"audit-{k}")
            if d.hand_id is None or d.action_index is None:
                continue
            step = d.action_index + 1  # the replay's step n is reached by action n
            page.set_viewport_size(dict(zip(("width", "height"), SIZES["laptop"], strict=True)))
            # the verdict's own link to the replay: the app switches pages in the same session
            # (its language kept), without loading the app again
            label = t("Replay at action {n}", lang, n=step)
            page.locator("a[data-testid='stPageLink-NavLink']").filter(
                has_text=re.compile(rf"{re.escape(label)}\s*$")
            ).first.click()
            page.wait_for_url(re.compile(rf"/replay\?.*\bstep={step}\b"), timeout=20_000)
            page.locator(".tl-table").wait_for(timeout=20_000)
            settle_loaded(page)
            assert f"hand={d.hand_id}" in page.url
            _at_both_sizes(page, d, lang, f"replay {d.session} step {step}", f"replay-{k}")
    finally:
        page.goto("about:blank")  # (the app session ends)


#: every element's right edge and the widest ones, in the page's current media
_RIGHT_EDGES = """() => {
  const out = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    out.push([r.right, el.tagName.toLowerCase() + (el.className ? '.' + el.className : ''),
              (el.textContent || '').trim().slice(0, 60)]);
  }
  out.sort((a, b) => b[0] - a[0]);
  return {widest: out.slice(0, 5), scroll: document.documentElement.scrollWidth};
}"""


def _printable_width(html: str) -> float:
    """A4's width less the left and right page margins the dossier's CSS sets, in CSS px."""
    m = re.search(r"@page\s*\{[^}]*margin:\s*([\d.]+)mm(?:\s+([\d.]+)mm)?", html)
    assert m, "the dossier sets no page margins"
    side = float(m.group(2) or m.group(1))
    return (210 - 2 * side) * PX_PER_MM


def test_the_dossier_downloaded_in_sl_fits_a4_portrait(  # type: ignore[no-untyped-def]
    served, browser, laptop_page, disputes, tmp_path: Path
) -> None:
    page = _at_laptop_size(laptop_page)
    printed = browser.new_page()
    try:
        for n, d in enumerate(d for d in disputes if d.hand_id is not None):
            _open_audit(page, served, d, "sl", first=n == 0)
            button = page.locator("[data-testid='stDownloadButton'] button")
            button.wait_for(timeout=20_000)
            with page.expect_download() as dl:
                button.click()
            path = tmp_path / f"{d.session}.html"
            dl.value.save_as(path)
            html = path.read_text(encoding="utf-8")
            assert re.search(r"<html[^>]*\blang=\"sl\"", html), "the dossier is not lang=sl"
            assert _plain(d.findings[0].players[0].name or "-") in _plain(html)
            assert _plain(_consequence(d.findings[0], "sl")) in _plain(
                re.sub(r"<[^>]+>", " ", html)
            ), f"{d.session}: the dossier does not say the consequence in sl"

            width = _printable_width(html)
            # Chromium lays a printed page out at the page box's width: the same viewport
            printed.set_viewport_size({"width": int(width), "height": 1123})
            printed.emulate_media(media="print")
            printed.set_content(html)
            pdf = printed.pdf(format="A4")
            assert pdf.startswith(b"%PDF")
            got = printed.evaluate(_RIGHT_EDGES)
            widest = got["widest"]
            assert widest[0][0] <= width + 0.5 and got["scroll"] <= width + 0.5, (
                f"{d.session}: wider than A4's printable width {width:.1f}px: {widest}"
            )
            if SHOTS:
                Path(SHOTS).mkdir(parents=True, exist_ok=True)
                (Path(SHOTS) / f"dossier-{d.session}-sl.pdf").write_bytes(pdf)
    finally:
        page.goto("about:blank")
        printed.close()
