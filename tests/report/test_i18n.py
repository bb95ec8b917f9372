"""The translation catalogues (tarock_logs/report/i18n, gettext PO read with Babel): complete
for every label the code uses (extracted from the code), the same fields in every language,
plural forms by the CLDR rules, numbers and dates per locale, the browser's language
negotiated, and the game terms kept in each game's own words."""

from __future__ import annotations

import datetime as dt
import gettext
import string

import pytest

from tarock_logs.report import i18n, text
from tarock_logs.rules.base import Action
from tests.report.i18n_ids import finding_meanings, used_msgids, used_plurals


def _fields(s: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(s) if f}


@pytest.mark.parametrize("lang", ["sl", "de"])
def test_every_label_of_the_dashboard_has_a_translation(lang: str) -> None:
    used = used_msgids()
    cat = i18n.catalogue(lang)
    missing = sorted(set(used) - set(cat))
    assert not missing, f"{lang}: no translation for {missing[:10]} (used in {used[missing[0]]})"
    stale = sorted(set(cat) - set(used))
    assert not stale, f"{lang}: translations nobody uses: {stale[:10]}"


@pytest.mark.parametrize("lang", ["sl", "de"])
def test_translations_keep_every_field_of_their_label(lang: str) -> None:
    for msgid, translated in i18n.catalogue(lang).items():
        assert _fields(msgid) == _fields(translated), (lang, msgid, translated)
        assert translated.strip(), (lang, msgid)
    for one, forms in i18n.plurals(lang).items():
        for form in forms:
            assert _fields(form) == _fields(one), (lang, one, form)


@pytest.mark.parametrize("lang", ["sl", "de"])
def test_every_counted_label_has_every_plural_form_of_the_language(lang: str) -> None:
    used = used_plurals()
    have = i18n.plurals(lang)
    n_forms = {"sl": 4, "de": 2}[lang]
    assert sorted(one for one, _ in used if one not in have) == []
    assert sorted(set(have) - {one for one, _ in used}) == []
    for one, forms in have.items():
        assert len(forms) == n_forms and all(f.strip() for f in forms), (lang, one, forms)


def test_slovenian_has_four_plural_forms_and_german_two() -> None:
    said = [i18n.tn("{n} hand", "{n} hands", n, "sl") for n in (1, 2, 3, 5, 101, 102, 104)]
    assert said == ["1 igra", "2 igri", "3 igre", "5 iger", "101 igra", "102 igri", "104 igre"]
    assert [i18n.tn("{n} hand", "{n} hands", n, "de") for n in (1, 2)] == ["1 Spiel", "2 Spiele"]
    assert [i18n.tn("{n} table", "{n} tables", n, "en") for n in (1, 0, 2)] == [
        "1 table",
        "0 tables",
        "2 tables",
    ]


@pytest.mark.parametrize("lang", ["sl", "de"])
def test_the_catalogues_plural_forms_header_says_what_the_cldr_rules_say(lang: str) -> None:
    """The PO header (what gettext tools read) and Babel's CLDR rules (what :func:`tn` uses)
    pick the same form for every count."""
    header = i18n.po_catalogue(lang).plural_forms
    expr = gettext.c2py(header.split("plural=", 1)[1].rstrip(";"))
    assert all(expr(n) == i18n.plural_index(lang, n) for n in range(0, 1001))


def test_numbers_and_dates_are_written_as_the_locale_writes_them() -> None:
    assert i18n.number(4.5, "en") == "4.5" and i18n.number(4.5, "de") == "4,5"
    assert i18n.number(4.5, "sl") == "4,5" and i18n.number(12345, "de") == "12345"
    assert i18n.number(10, "en", signed=True) == "+10"
    assert i18n.number(-20, "sl", signed=True).endswith("20")
    day = dt.date(2027, 3, 14)
    assert i18n.date(day, "en") == "Mar 14, 2027"
    assert i18n.date(day, "de") == "14.03.2027"
    assert i18n.date(day, "sl").startswith("14. mar")


@pytest.mark.parametrize(
    "header, lang",
    [
        ("sl-SI,sl;q=0.9,en;q=0.8", "sl"),
        ("de-AT,de;q=0.9", "de"),
        ("hu-HU,hu;q=0.9,de;q=0.7,en;q=0.5", "de"),
        ("fr-FR,en;q=0.5,sl;q=0.9", "sl"),
        ("fr-FR", "en"),
        ("", "en"),
        (None, "en"),
        ("sl;q=0", "en"),
    ],
)
def test_the_browser_language_picks_the_best_of_the_three(header: str | None, lang: str) -> None:
    assert i18n.negotiate(header) == lang


def test_an_unknown_language_falls_back_to_english() -> None:
    assert i18n.normalize("sl_SI") == "sl" and i18n.normalize("xx") == "en"
    assert i18n.t("Replay", "xx") == "Replay"
    assert i18n.t("Step {step} of {last}", "de", step=3, last=9) == "Schritt 3 von 9"


def test_sentences_are_translated_and_the_game_terms_stay_the_games_own() -> None:
    naprej = Action("pass", 1)
    lezim = Action("lezim", 0)
    kontra = Action("kontra", 2, target="game", level=1)
    bid = Action("bid", 0, contract="three")
    names = ["Ana", "Bor", "Cene", "Dani"]
    sl = [
        text.describe_action(a, game="slovenian", players=names, phase="bidding", lang="sl")
        for a in (naprej, bid, lezim, kontra)
    ]
    assert sl == [
        "Bor reče naprej",
        "Ana licitira tri",
        "Ana reče ležim (zalaganje in napovedi končane)",
        "Cene da kontra na igro",
    ]
    de = text.describe_action(kontra, game="zwanzigerrufen", players=names, lang="de")
    assert de == "Cene gibt Kontra auf das Spiel"
    assert text.describe_action(naprej, game="zwanzigerrufen", lang="de") == "Platz 1 sagt weiter"
    # English stays what the CLI and the JSON outputs print
    assert text.describe_action(bid, game="slovenian", players=names) == "Ana bids tri"


@pytest.mark.parametrize("lang", ["sl", "de"])
def test_every_finding_code_of_every_engine_and_of_the_audit_has_its_meaning_translated(
    lang: str,
) -> None:
    """Each code's meaning is a PO entry: context ``<game>:<code>``, message id the code's
    current English meaning (a meaning changed in ``codes.py`` shows as untranslated)."""
    wanted = finding_meanings()
    entries = {
        m.context: m.id for m in i18n.po_catalogue(lang) if m.context and isinstance(m.id, str)
    }
    assert sorted(set(wanted) - set(entries)) == []
    assert sorted(set(entries) - set(wanted)) == []  # no translation of a code nobody reports
    changed = sorted(ctx for ctx, meaning in wanted.items() if entries[ctx] != meaning)
    assert changed == []
    assert all(i18n.findings_catalogue(lang)[ctx].strip() for ctx in wanted)


def test_the_replayers_key_names_are_the_keyboards_of_the_language() -> None:
    """Issue 33: the replayer's help said "Home"/"End" on Slovenian and German pages (German
    keyboards read Pos1/Ende and Bild↑/Bild↓)."""
    import re

    from tarock_logs.report.i18n import t

    home, end = "The deal (Home)", "The last action (End)"
    back, forward = "One trick back (↑ or PageUp)", "One trick forward (↓ or PageDown)"
    assert "(Začetek)" in t(home, "sl") and "(Konec)" in t(end, "sl")
    assert "(Pos1)" in t(home, "de") and "(Ende)" in t(end, "de")
    for lang in ("sl", "de"):
        for msgid in (home, end, back, forward):
            assert not re.search(r"Home|End\b|Page", t(msgid, lang)), t(msgid, lang)
