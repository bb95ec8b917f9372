"""The one wording of actions, phases, kontra levels, cards and seats (report/text.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_paths
from tarock_logs.report import text
from tarock_logs.rules.base import Action

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


class TestActionsInTheGamesOwnWords:
    def test_slovenian_contracts_bonuses_and_kontra_chain(self) -> None:
        assert text.action_phrase(m.Bid(type="bid", seat=0, contract="three"), "slovenian") == (
            "bids tri"
        )
        assert text.contract_name("solo_brez", "slovenian") == "solo brez"
        assert text.contract_name("odprti_berac", "slovenian") == "odprti berač"
        assert text.bonus_name("pagat_ultimo", "slovenian") == "pagat ultimo"
        levels = [text.kontra_name(lvl, "slovenian") for lvl in (1, 2, 3, 4)]
        assert levels == ["kontra", "rekontra", "subkontra", "mordkontra"]

    def test_zwanzigerrufen_sides_and_the_kontra_retour_supra_resupra_chain(self) -> None:
        ann = m.Announce(type="announce", seat=1, bonus="pagat", side="dagegen")
        assert text.action_phrase(ann, "zwanzigerrufen") == "announces Pagat Ultimo dagegen"
        levels = [text.kontra_name(lvl, "zwanzigerrufen") for lvl in (1, 2, 3, 4)]
        assert levels == ["Kontra", "Retour", "Supra", "Resupra"]
        kon = m.Kontra(type="kontra", seat=2, target="absolut", level=2)
        assert text.action_phrase(kon, "zwanzigerrufen") == "gives Retour on Absolut"
        claim = m.Claim(type="claim", seat=0, claim="four_kings")
        assert text.action_phrase(claim, "zwanzigerrufen") == "claims Vier Könige"
        assert text.action_phrase(m.Pass(type="pass", seat=0), "zwanzigerrufen") == (
            "passes (weiter)"
        )

    def test_royal_meldungen_and_schlemme_by_their_catalogue_names(self) -> None:
        meld = Action("meld", 0, meld="M_TAROCKCOUNT", params=(("count", 8),))
        assert text.action_phrase(meld, "royal") == "declares Tarockanzahl (count 8)"
        raise_ = m.Announce(type="announce", seat=2, bonus="S_KOEPFE", raises="S_HONNEUR")
        assert text.action_phrase(raise_, "royal") == "announces Köpfe, raising Honneur"
        kon = Action("kontra", 1, target="F_SPIEL", level=1)
        assert text.action_phrase(kon, "royal") == "gives Kontra on Spiel"

    def test_a_slovenian_pass_is_naprej_in_the_bidding_and_v_redu_in_the_announcements(
        self,
    ) -> None:
        p = m.Pass(type="pass", seat=3)
        assert text.action_phrase(p, "slovenian", phase="bidding") == "passes (naprej)"
        assert text.action_phrase(p, "slovenian", phase="announcements") == "passes (v redu)"

    def test_every_action_type_has_words(self) -> None:
        actions = [
            Action("bid", 0, contract="two"),
            Action("pass", 0),
            Action("call", 0, card="HK"),
            Action("talon", 0, group=1),
            Action("discard", 0, cards=("H1", "C7"), shown=("T3",)),
            Action("announce", 0, bonus="trula"),
            Action("kontra", 0, target="game", level=1),
            Action("lezim", 0),
            Action("play", 0, card="T21"),
            Action("throw_in", 0),
            Action("claim", 0, claim="rest", cards=("HK",)),
            Action("meld", 0, meld="M_VOGERL"),
        ]
        assert {a.type for a in actions} == set(m.ACTION_TYPES)
        phrases = [text.action_phrase(a, "slovenian") for a in actions]
        assert phrases == [
            "bids dva",
            "passes",
            "calls ♥K",
            "takes talon group 1",
            "discards ♥1 ♣7 (shows III)",
            "announces trula",
            "gives kontra on the game",
            "says ležim (discards and announcements complete)",
            "plays mond",
            "throws the deal in",
            "claims the remaining tricks (♥K)",
            "declares Vogerl",
        ]

    @pytest.mark.parametrize("game", ["slovenian", "zwanzigerrufen", "royal"])
    def test_no_action_of_the_sample_logs_is_shown_as_raw_fields(self, game: str) -> None:
        seen = 0
        for rec in read_paths([SAMPLES / game, SAMPLES / "tournament"], []):
            s = rec.session
            if s is None or s.game != game:
                continue
            names = text.player_names(s)
            for hand in s.hands:
                for a in hand.actions:
                    line = text.describe_action(a, game=game, players=names)
                    seen += 1
                    assert line.startswith(names[a.seat] + " ")
                    # no engine ids (S_HONNEUR, pagat_ultimo), no raw card tokens (T21, HK)
                    assert not re.search(r"[A-Z]_[A-Z]|[a-z]_[a-z]|\bT\d|\b[HDSC][KQNJ]\b", line)
        assert seen > 0


class TestSeatsAndCards:
    def test_players_by_name_else_seat_with_the_logs_index(self) -> None:
        players = ["Ana", "Bor"]
        assert text.player_name(players, 1) == "Bor"
        assert text.player_name(players, 3) == "seat 3"
        assert text.player_name(None, 0) == "seat 0"
        assert text.describe_action(Action("play", 1, card="HK"), players=players) == (
            "Bor plays ♥K"
        )
        assert text.describe_action(None) == "the deal"

    def test_player_names_fall_back_to_the_id(self) -> None:
        s = m.Session.model_validate(
            {
                "format": "tarock-log",
                "format_version": 1,
                "id": "s",
                "game": "slovenian",
                "ruleset": "si-tournament-2021",
                "players": [{"id": "p1", "name": "Ana"}, {"id": "p2"}, {"id": "p3"}],
                "hands": [],
            }
        )
        assert text.player_names(s) == ["Ana", "p2", "p3"]

    def test_cards_as_people_write_them(self) -> None:
        assert text.cards_text(["HK", "C10", "T19", "T22", "T1"]) == "♥K ♣10 XIX škis pagat"
        assert text.cards_text(["T22"], "zwanzigerrufen") == "Sküs"
        assert text.cards_text([]) == "none"

    def test_phases_roles_and_plurals(self) -> None:
        assert text.phase_name("king_call") == "king call"
        assert text.phase_name("done") == "end of the hand"
        assert text.role_name("partner") == "the declarer's partner"
        assert text.role_name("sitting_out") == "sitting out"
        assert (text.plural(1, "error"), text.plural(2, "error")) == ("1 error", "2 errors")
        assert text.plural(0, "hand") == "0 hands"


def test_the_wording_names_no_game_the_engines_give_their_terms() -> None:
    """report/ iterates over the engines (``GameEngine.terms()``) instead of naming games."""
    root = Path(__file__).resolve().parents[2] / "tarock_logs" / "report"
    for path in root.rglob("*.py"):
        said = path.read_text(encoding="utf-8")
        for game in ("slovenian", "zwanzigerrufen", "royal"):  # as a literal (a language may
            assert not re.search(rf"[\"'`]{game}[\"'`]", said), (path.name, game)  # be named)
    from tarock_logs.rules import games, get_engine

    for game in games():
        engine = get_engine(game)
        assert engine is not None
        terms = engine.terms()
        assert terms.kontra_levels and terms.trula and terms.pass_words, game
        assert text.kontra_name(1, game) == terms.kontra_levels[0]


@pytest.mark.parametrize("lang", ["en", "sl", "de"])
def test_the_analysis_values_are_worded_by_each_games_objective(lang: str) -> None:
    """docs/analysis.md "Objectives": Slovenian tarok's values are the declarer side's points
    (klop: each player's own), Zwanzigerrufen's the declarer side's, Royal Tarock's the
    attacking pair's points minus the defenders' (a game of fixed pairs); the replayer and the
    dossier say so in the page's language, and no game's caption borrows another's klop."""
    from tarock_logs.report.i18n import t

    slo = text.analysis_values("slovenian", lang=lang)
    zr = text.analysis_values("zwanzigerrufen", lang=lang)
    royal = text.analysis_values("royal", lang=lang)
    side = t("points for the declarer side", lang)
    assert slo.startswith(side) and "klop" in slo.lower()
    assert zr == side and "klop" not in zr.lower()
    assert royal == t("the attacking pair's points minus the defenders'", lang)
    assert len({slo, zr, royal}) == 3
    if lang != "en":
        assert "declarer" not in slo + zr + royal and "attacking" not in royal
