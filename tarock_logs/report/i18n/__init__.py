"""Translation catalogues: every label people read (the dashboard, the dossier, the findings)
in English, Slovenian and German, on gettext catalogues read with Babel.

A label is written in the code in English, as its message id (``t("Replay", lang)``; with
fields: ``t("Step {step} of {last}", lang, step=3, last=60)``); a label that counts is
written with both English forms (``tn("{n} game", "{n} games", n, lang)``) and takes the
language's plural form by the CLDR rules (Slovenian has four: *1 igra, 2 igri, 3 igre, 5
iger*; German two). The catalogues ``sl.po`` and ``de.po`` beside this module (gettext PO,
``Plural-Forms`` included) map each English id to its translation; English needs none.
``scripts/extract_messages.py`` extracts the ids from the code into ``messages.pot`` and
merges them into the catalogues; the test suite fails on an id without a translation or a
translation nobody uses. A missing translation falls back to the English text.

Numbers and dates are written the way the reader's locale writes them (:func:`number`,
:func:`date`: ``4.5`` / ``4,5``; ``14.03.2027``).

The **game terms** stay in each game's own words whatever the language of the sentences
(:mod:`tarock_logs.report.text` asks each engine for them). Machine outputs (JSON, JSONL, CSV
of the CLI) stay English. The meanings of the **finding codes** are PO entries whose context
is ``<game>:<code>`` (an engine's code) or ``audit:<code>`` (the audit's own) and whose
message id is the code's English meaning (:func:`findings_catalogue`).

:func:`negotiate` picks the language from a browser's ``Accept-Language`` header (or a locale
such as ``sl-SI``), English when none of the three is asked for.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # (Babel is imported where it is used: the command line's help needs none)
    from babel import Locale
    from babel.messages.catalog import Catalog

__all__ = [
    "LANGS",
    "LANG_NAMES",
    "catalogue",
    "date",
    "findings_catalogue",
    "negotiate",
    "normalize",
    "number",
    "plural_index",
    "plurals",
    "po_catalogue",
    "t",
    "tn",
]

#: the languages of the interface, English first (the default)
LANGS: tuple[str, ...] = ("en", "sl", "de")
#: each language by its own name (what the language picker shows)
LANG_NAMES: Mapping[str, str] = {"en": "English", "sl": "Slovenščina", "de": "Deutsch"}


@cache
def po_catalogue(lang: str) -> Catalog:
    """The gettext catalogue of ``lang`` (``<lang>.po`` beside this module), read by Babel."""
    with resources.files(__package__).joinpath(f"{lang}.po").open("rb") as fh:
        from babel.messages.pofile import read_po

        return read_po(fh, locale=lang)


@cache
def catalogue(lang: str) -> Mapping[str, str]:
    """The labels of ``lang``: English id → translation (empty for English); the plural
    entries and the findings' meanings are :func:`plurals` and :func:`findings_catalogue`."""
    if lang == "en" or lang not in LANGS:
        return {}
    return {
        m.id: m.string
        for m in po_catalogue(lang)
        if m.id and isinstance(m.id, str) and not m.context and isinstance(m.string, str)
    }


@cache
def plurals(lang: str) -> Mapping[str, tuple[str, ...]]:
    """The plural entries of ``lang``: the English singular id → the forms, in the order of
    the language's plural categories (:func:`plural_index`)."""
    if lang == "en" or lang not in LANGS:
        return {}
    return {
        m.id[0]: tuple(m.string)
        for m in po_catalogue(lang)
        if isinstance(m.id, tuple) and isinstance(m.string, tuple)
    }


#: the CLDR plural categories in the order gettext numbers the forms
_CATEGORIES = ("zero", "one", "two", "few", "many", "other")


@cache
def _locale(lang: str) -> Locale:
    from babel import Locale

    return Locale.parse(normalize(lang))


def plural_index(lang: str, n: float) -> int:
    """Which plural form of ``lang`` a count ``n`` takes, by the CLDR rules (Slovenian: 1 →
    0 *igra*, 2 → 1 *igri*, 3 → 2 *igre*, 5 → 3 *iger*; German and English: 1 → 0, else 1)."""
    loc = _locale(lang)
    tags = [c for c in _CATEGORIES if c in loc.plural_form.tags or c == "other"]
    return tags.index(loc.plural_form(n))


def number(value: float, lang: str | None = "en", *, signed: bool = False) -> str:
    """A number as the reader's locale writes it (``4.5``, ``4,5``; a sign in front of a
    score when ``signed``: ``+10``, ``-20``, ``0``)."""
    loc = _locale(lang or "en")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    from babel.numbers import format_decimal

    said = format_decimal(value, locale=loc, group_separator=False)
    if signed and value > 0:
        said = loc.number_symbols["latn"]["plusSign"] + said
    return said


def date(value: _dt.date, lang: str | None = "en") -> str:
    """A date as the reader's locale writes it (``Mar 14, 2027``, ``14. mar. 2027``,
    ``14.03.2027``)."""
    from babel.dates import format_date

    return format_date(value, format="medium", locale=_locale(lang or "en"))


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


def tn(one: str, many: str, n: float, lang: str | None = "en", /, **fields: Any) -> str:
    """A label that counts ``n`` (gettext's ``ngettext``): ``one`` and ``many`` are the
    English forms (``"{n} game"``, ``"{n} games"``); in ``lang`` the form of ``n``'s plural
    category. ``{n}`` is filled with ``n`` as the locale writes it."""
    code = normalize(lang)
    forms = plurals(code).get(one) if code != "en" else None
    i = plural_index(code, n)
    if forms and i < len(forms) and forms[i]:
        text = forms[i]
    else:
        text = one if i == 0 and n == 1 else many
    return text.format(n=number(n, code), **fields)


@cache
def findings_catalogue(lang: str) -> Mapping[str, str]:
    """The meanings of the finding codes in ``lang``, keyed ``<game>:<code>`` (an engine's
    code) or ``audit:<code>`` (the audit's own): the PO entries with that context; empty for
    English (the English meaning is the code's own, in its ``codes.py``)."""
    if lang == "en" or lang not in LANGS:
        return {}
    return {
        m.context: m.string
        for m in po_catalogue(lang)
        if m.context and isinstance(m.string, str) and m.string
    }
