"""Translation catalogues: every label people read in the dashboard (and the dossier) in
English, Slovenian and German.

A label is written in the code in English, as its message id (``t("Replay", lang)``; with
fields: ``t("Step {step} of {last}", lang, step=3, last=60)``). The catalogues
``sl.json`` and ``de.json`` beside this module map each English id to its translation; English
needs no catalogue. A missing translation falls back to the English text (and the test suite
fails on it: every id used in the dashboard must be in both catalogues).

The **game terms** stay in each game's own words whatever the language of the sentences
(:mod:`tarock_logs.report.text` names them): Slovenian tarok's *naprej, ležim, kontra, radelc,
renons, tri, berač* …, Zwanzigerrufen's and Royal Tarock's German *Farbensolo, Kontra, Retour,
Sküs, Schlemm* …. Machine outputs (JSON, JSONL, CSV of the CLI) stay English; only what the
dashboard and the dossier show is translated. The **findings** are translated by their code:
``findings.sl.json`` and ``findings.de.json`` give the meaning of every engine's code (keyed
``<game>:<code>``) and of the audit's own (``audit:<code>``); :func:`finding_message` words a
finding with them, and keeps the finding's English message where the code has none.

:func:`negotiate` picks the language from a browser's ``Accept-Language`` header (or a locale
such as ``sl-SI``), English when none of the three is asked for.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "LANGS",
    "LANG_NAMES",
    "catalogue",
    "finding_message",
    "findings_catalogue",
    "negotiate",
    "normalize",
    "t",
]

#: the languages of the interface, English first (the default)
LANGS: tuple[str, ...] = ("en", "sl", "de")
#: each language by its own name (what the language picker shows)
LANG_NAMES: Mapping[str, str] = {"en": "English", "sl": "Slovenščina", "de": "Deutsch"}


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """The catalogue of ``lang``: English id → translation (empty for English)."""
    if lang == "en" or lang not in LANGS:
        return {}
    raw = resources.files(__package__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(raw)
    return data


def normalize(lang: str | None) -> str:
    """``lang`` if it is one of :data:`LANGS` (case and region ignored: ``sl-SI`` → ``sl``),
    else English."""
    if not lang:
        return "en"
    base = lang.strip().lower().replace("_", "-").split("-", 1)[0]
    return base if base in LANGS else "en"


def negotiate(accept_language: str | None) -> str:
    """The best of :data:`LANGS` for an ``Accept-Language`` header
    (``"sl-SI,sl;q=0.9,en;q=0.8"`` → ``sl``), English when none of them is accepted."""
    if not accept_language:
        return "en"
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(accept_language.split(",")):
        tag, _, params = part.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            k, _, v = p.strip().partition("=")
            if k == "q":
                try:
                    q = float(v)
                except ValueError:
                    q = 0.0
        base = tag.strip().lower().split("-", 1)[0]
        if base in LANGS and q > 0:
            ranked.append((-q, i, base))
    return min(ranked)[2] if ranked else "en"


def t(msgid: str, lang: str | None = "en", /, **fields: Any) -> str:
    """The label ``msgid`` (English) in ``lang``, with ``{fields}`` filled in."""
    text = catalogue(normalize(lang)).get(msgid, msgid) if lang and lang != "en" else msgid
    return text.format(**fields) if fields else text


@cache
def findings_catalogue(lang: str) -> Mapping[str, str]:
    """The meanings of the finding codes in ``lang``, keyed ``<game>:<code>`` (an engine's
    code) or ``audit:<code>`` (the audit's own): ``findings.<lang>.json`` beside this module;
    empty for English (the findings' own messages are English)."""
    if lang == "en" or lang not in LANGS:
        return {}
    path = resources.files(__package__).joinpath(f"findings.{lang}.json")
    data: dict[str, str] = json.loads(path.read_text(encoding="utf-8"))
    return data


def finding_message(
    code: str,
    message: str,
    lang: str | None,
    *,
    game: str | None = None,
    player: str | None = None,
    card: str | None = None,
) -> str:
    """A finding as people reading ``lang`` see it. In English: its own ``message`` (the one
    the JSON outputs keep). Otherwise the meaning of its ``code`` in that language, said of
    ``player`` and ``card`` (already worded); the English message when the code has no
    translation."""
    lang = normalize(lang)
    if lang == "en":
        return message
    cat = findings_catalogue(lang)
    meaning = cat.get(f"{game}:{code}") or cat.get(f"audit:{code}")
    if meaning is None:
        return message
    said = f"{player}: {meaning}" if player else meaning[:1].upper() + meaning[1:]
    return said + (f" ({card})" if card else "")
