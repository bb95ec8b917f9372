"""The translation catalogues (tarock_logs/report/i18n): complete for every label the
dashboard shows, the same fields in every language, the browser's language negotiated, and
the game terms kept in each game's own words."""

from __future__ import annotations

import string

import pytest

from tarock_logs.report import i18n, text
from tarock_logs.rules.base import Action
from tests.report.i18n_ids import used_msgids


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
    from tarock_logs.rules import get_engine
    from tarock_logs.verdict.findings import AUDIT_CODES

    wanted = {f"audit:{code}" for code in AUDIT_CODES}
    for game in ("slovenian", "zwanzigerrufen", "royal"):
        engine = get_engine(game)
        assert engine is not None
        wanted |= {f"{game}:{code}" for code in engine.codes()}
    cat = i18n.findings_catalogue(lang)
    assert sorted(wanted - set(cat)) == []
    assert sorted(set(cat) - wanted) == []  # no translation of a code nobody reports


def test_a_finding_reads_in_the_language_with_its_player_and_card_english_stays_english() -> None:
    english = "seat 1 played H4 while holding CK: clubs must be followed"
    args = {"game": "slovenian", "player": "Luka", "card": "♥4"}
    assert i18n.finding_message("play.illegal_card", english, "en", **args) == english
    sl = i18n.finding_message("play.illegal_card", english, "sl", **args)
    assert sl.startswith("Luka: karta, ki jo osnovno pravilo prepoveduje") and sl.endswith("(♥4)")
    de = i18n.finding_message("score.item_differs", "the contract differs", "de")
    assert de == "Ein aufgeschriebener Wertungsposten weicht vom nachgerechneten ab"
    assert i18n.finding_message("no.such_code", english, "de", game="royal") == english
