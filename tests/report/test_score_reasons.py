"""Issue 33 (item 4): every score item with its reason, names not seats, in English,
Slovenian and German, worded by one renderer (:mod:`tarock_logs.report.reasons`).

Two sources: every line the engines recompute for the sample logs and for simulated hands of
each game (real items, real facts), and constructed lines for each item kind of the three
games in each of its variants (announced and won or lost, silent, claimed, declared, full,
empty, a renons, a penalty, ...), so that a kind the samples do not reach is worded too.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

from tarock_logs.log import models as m
from tarock_logs.log.reader import read_sessions
from tarock_logs.report import text
from tarock_logs.report.reasons import HandFacts, ScoreLine, record_facts, score_reason
from tarock_logs.rules import games, get_engine
from tarock_logs.rules.base import Action
from tarock_logs.tools.simulate import simulate_hands
from tarock_logs.verdict.replay import replay_session

LANGS = ("en", "sl", "de")
SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
NAMES = ["Ana Kos", "Bojan Zupan", "Cene Novak", "Dušan Horvat", "Eva Lah"]
#: the words of the English reasons that no Slovenian or German reason may keep
ENGLISH = re.compile(
    r"\b(announced|won|lost|by|not|for|with|card|points|difference|holds|result|doubled|"
    r"caught|trick|tricks|another|player|full|empty|side|never|writes|less|than|score|"
    r"limited|before|trophies|starting|each|misdeal|penalty|referee|adjustment|paid|the|of|"
    r"declared|claimed|silent|game|contract|seat)\b"
)
SEAT = re.compile(r"\bseat \d|\bsedež \d|\bPlatz \d")
#: Zwanzigerrufen's items (its engine does not list them: ``score_items`` is empty)
ZR_ITEMS = ("game", "valat", "absolut", "pagat", "trull", "four_kings", "mondfang")


def _check(said: str, lang: str, where: str) -> None:
    assert said and said == said.strip(), where
    assert "{" not in said and "}" not in said, where  # no field left unfilled
    assert not SEAT.search(said), where  # names, not seats
    if lang != "en":
        english = ENGLISH.findall(said)
        assert not english, f"{where}: English {english}"


# ------------------------------------------------------------------ real lines


def _sessions() -> Iterator[m.Session]:
    yield from read_sessions([SAMPLES], exclude=["malformed"])
    for game in games():
        size = get_engine(game).table_sizes()[0]  # type: ignore[union-attr]
        for raw in simulate_hands(24, 7, game=game, table_size=size, hands_per_session=12):
            yield m.Session.model_validate(raw)


@cache
def real_lines() -> list[tuple[str, HandFacts, ScoreLine]]:
    out = []
    for session in _sessions():
        for hand, rep in zip(session.hands, replay_session(session), strict=True):
            if rep.score is None:
                continue
            view = rep.steps[-1].view if rep.steps and rep.steps[-1].view else {}
            tricks = rep.tricks or view.get("tricks") or ()
            facts = record_facts(session, hand, rep.score, tricks)
            out += [(session.game, facts, line) for line in facts.lines]
    return out


def test_the_samples_and_simulated_hands_reach_every_game() -> None:
    reached = {g for g, _, _ in real_lines()}
    assert reached == set(games())


@pytest.mark.parametrize("lang", LANGS)
def test_every_recomputed_line_has_a_reason_in_every_language(lang: str) -> None:
    for game, facts, line in real_lines():
        said = score_reason(line, facts, lang)
        _check(said, lang, f"{game} {line} [{lang}]: {said}")
        if lang != "en":
            assert said != score_reason(line, facts, "en") or not re.search("[a-z]{4}", said)


def test_a_players_line_names_the_player_or_the_side() -> None:
    """A reason about a player (a radelc, a mond, a renons) says the name, never a seat."""
    for game, facts, line in real_lines():
        said = score_reason(line, facts, "en")
        if line.item in ("radelc", "renons") and line.seat is not None:
            assert facts.players[line.seat] in said, said
        if line.item in ("contract", "game") and facts.declarer is not None:
            assert facts.players[facts.declarer] in said, (game, said)


# ------------------------------------------------------------------ constructed lines


def _facts(game: str, *, actions: tuple[Action, ...] = (), **kw: object) -> HandFacts:
    base: dict[str, object] = {
        "game": game,
        "players": NAMES[:4],
        "contract": "three" if game == "slovenian" else ("normal" if game != "royal" else None),
        "declarer": 0,
        "partner": 1,
        "won": True,
        "card_points": {"declarer_side_thirds": 149} if game == "slovenian" else {},
        "actions": actions,
    }
    if game == "royal":
        base.update(declarer=None, partner=None, won=None, pairs=[0, 1, 0, 1])
    base.update(kw)
    return HandFacts(**base)  # type: ignore[arg-type]


def _tricks(mond_owner: int, taker: int) -> list[dict[str, object]]:
    cards = [[mond_owner, "T21"], *[[s, "T22" if s == taker else f"H{7 + s}"] for s in
             range(4) if s != mond_owner]]  # fmt: skip
    return [{"cards": cards, "winner": taker, "points": 5}]


def _cases(game: str) -> Iterator[tuple[str, HandFacts, ScoreLine, tuple[str, ...]]]:
    """(what, facts, line, words the English reason must contain) per item kind and
    variant."""
    kontra = Action("kontra", 2, target="game", level=1)
    lines_game = [ScoreLine("contract", None, 20), ScoreLine("difference", None, 30)]
    if game == "slovenian":
        f = _facts(game, actions=(kontra,), lines=lines_game)
        yield "difference", f, ScoreLine("difference", None, 30), ("difference 15 × 2 (kontra)",)
        yield "contract", f, ScoreLine("contract", None, 20), ("tri won by Ana Kos + Bojan",)
        yield "contract lost", f, ScoreLine("contract", None, -20), ("lost by Ana Kos",)
        pagat = Action("announce", 0, bonus="pagat_ultimo")
        f = _facts(game, actions=(pagat,))
        yield (
            "announced won",
            f,
            ScoreLine("pagat_ultimo", None, 50),
            ("pagat ultimo announced and won by Ana Kos",),
        )
        yield "announced lost", f, ScoreLine("pagat_ultimo", None, -50), ("and lost",)
        for bonus in ("trula", "kralji", "kralj_ultimo", "valat", "barvni_valat"):
            yield (
                f"silent {bonus}",
                _facts(game),
                ScoreLine(bonus, None, -10),
                ("not announced, for Cene Novak + Dušan Horvat",),
            )
        ann = _facts(game, actions=(Action("announce", 0, bonus="barvni_valat"),))
        yield "barvni valat", ann, ScoreLine("barvni_valat", None, 125), ("announced and won",)
        f = _facts(game, tricks=_tricks(2, 0))
        yield (
            "mondfang",
            f,
            ScoreLine("mondfang", 2, -20),
            ("mond of Cene Novak caught by Ana Kos in trick 1",),
        )
        yield (
            "mondfang (facts)",
            _facts(game),
            ScoreLine("mondfang", 3, -20),
            ("Dušan Horvat lost the mond",),
        )
        yield "radelc", _facts(game), ScoreLine("radelc", None, 30), ("Ana Kos holds a radelc",)
        klop = [ScoreLine("klop", s, v) for s, v in enumerate((70, -70, 0, 0))]
        f = _facts(game, contract="klop", declarer=None, partner=None, lines=klop)
        yield "klop empty", f, klop[0], ("empty",)
        yield "klop full", f, klop[1], ("full",)
        yield "klop zero", f, klop[2], ("another player",)
        klop = [ScoreLine("klop", s, v) for s, v in enumerate((-12, -20, -30, -8))]
        f = _facts(game, contract="klop", declarer=None, partner=None, lines=klop)
        yield "klop points", f, klop[1], ("20 card points",)
        ren = _facts(game, irregularities=[("renons", 2, "revoke")])
        yield "renons", ren, ScoreLine("renons", 2, -70), ("renons by Cene Novak",)
        yield "renons paid", ren, ScoreLine("renons", 0, 10), ("Ana Kos is paid the game",)
        for kind, words in (("misdeal", "misdeal by"), ("penalty", "penalty for"),
                            ("arbiter", "adjustment for")):  # fmt: skip
            f = _facts(game, irregularities=[(kind, 3, None)])
            yield f"penalty {kind}", f, ScoreLine("penalty", 3, -20), (f"{words} Dušan Horvat",)
    elif game == "zwanzigerrufen":
        f = _facts(game, card_points={"declarer_side": 52}, actions=(kontra,))
        yield (
            "game",
            f,
            ScoreLine("game", 0, 2),
            ("game won by Ana Kos + Bojan Zupan with 52 card points × 2 (Kontra)",),
        )
        yield "game lost", f, ScoreLine("game", 2, 2), ("game lost by",)
        pagat = Action("announce", 3, bonus="pagat", side="dagegen")
        f = _facts(game, actions=(pagat,))
        yield (
            "pagat dagegen",
            f,
            ScoreLine("pagat", 0, -4),
            ("Pagat Ultimo announced and won by Dušan Horvat",),
        )
        for item in ("valat", "absolut", "pagat", "trull", "four_kings"):
            yield f"silent {item}", _facts(game), ScoreLine(item, 0, 1), ("not announced",)
        f = _facts(game, actions=(Action("claim", 2, claim="four_kings"),))
        yield "claimed", f, ScoreLine("four_kings", 0, -2), ("claimed by Cene Novak",)
        f = _facts(game, tricks=_tricks(1, 3))
        yield "mondfang", f, ScoreLine("mondfang", 0, -1), ("Mond of Bojan Zupan caught",)
    else:
        spiel = Action("announce", 1, bonus="F_SPIEL")
        kon = Action("kontra", 0, target="F_SPIEL")
        f = _facts(game, actions=(spiel, kon, Action("meld", 2, meld="M_FLUSH")))
        yield "announced lost", f, ScoreLine("F_SPIEL", 1, -10), ("Spiel announced by Bojan",)
        yield "announced won", f, ScoreLine("F_SPIEL", 3, 10), ("announced and won by Bojan",)
        yield "kontra", f, ScoreLine("kontra", 0, 10), ("Kontra by Ana Kos on Spiel",)
        yield "meld", f, ScoreLine("M_FLUSH", 2, 10), ("Flush declared by Cene Novak",)
        yield "silent", f, ScoreLine("Q_LAUER", 0, 15), ("Lauer not announced, for Ana Kos",)
        yield "consolation", f, ScoreLine("consolation", 0, 0), ("starting score",)
        yield "floor", f, ScoreLine("cap", 0, 10), ("less than 0",)
        yield "cap", f, ScoreLine("cap", 0, -10), ("limited",)


def _kinds(game: str) -> set[str]:
    listed = get_engine(game).score_items  # type: ignore[union-attr]
    return set(listed) if listed else set(ZR_ITEMS)


@pytest.mark.parametrize("game", list(games()))
def test_every_item_kind_of_every_game_is_worded_in_every_language(game: str) -> None:
    worded: set[str] = set()
    for what, facts, line, words in _cases(game):
        en = score_reason(line, facts, "en")
        for w in words:
            assert w in en, f"{game} {what}: {en!r} lacks {w!r}"
        for lang in LANGS:
            said = score_reason(line, facts, lang)
            _check(said, lang, f"{game} {what} [{lang}]: {said}")
            if lang != "en":
                assert said != en, f"{game} {what} [{lang}]: not translated: {said}"
        worded.add(line.item)
    # the kinds without a case of their own (Royal's catalogue items: one wording for each
    # of announced, declared and silent, taken by the cases above) as a silent line
    for item in sorted(_kinds(game) - worded):
        line = ScoreLine(item, 0, 1)
        for lang in LANGS:
            said = score_reason(line, _facts(game), lang)
            _check(said, lang, f"{game} {item} [{lang}]: {said}")
        assert text.score_item_name(item, game) in score_reason(line, _facts(game), "en")


def test_the_issues_examples() -> None:
    """The brief's two examples, in three languages."""
    kontra = Action("kontra", 2, target="game", level=1)
    f = _facts("slovenian", actions=(kontra, Action("announce", 0, bonus="pagat_ultimo")))
    diff = ScoreLine("difference", None, 30)
    pagat = ScoreLine("pagat_ultimo", None, 200)
    assert score_reason(diff, f, "en") == "difference 15 × 2 (kontra)"
    assert score_reason(diff, f, "sl") == "razlika 15 × 2 (kontra)"
    assert score_reason(diff, f, "de") == "Differenz 15 × 2 (kontra)"
    assert score_reason(pagat, f, "en") == "pagat ultimo announced and won by Ana Kos"
    assert score_reason(pagat, f, "sl") == "pagat ultimo: napoved (Ana Kos) je uspela"
    assert score_reason(pagat, f, "de") == "pagat ultimo von Ana Kos angesagt und gewonnen"
