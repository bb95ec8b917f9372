"""Issue 33, item 1: one sentence for a finding, in every language, from its structured fields.

The findings here are real: each engine judges constructed hands (dealt by the simulator's
dealer, a deal spoiled on purpose, and at every step random actions of every type, legal or
not, checked against the state, some of them pushed), and every violation it reports becomes
a finding the way the audit makes one (:func:`violation_finding`). Every finding code reached
is worded in English, Slovenian and German by the one renderer; each sentence must name the
player (not a seat), say the card as the game names it, and in Slovenian and German contain
no English word of the English templates. The codes the constructed hands do not reach are
listed in the last test (they still have their meaning translated: tests/report/test_i18n.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from random import Random

import pytest

from tarock_logs.cards import CARDS
from tarock_logs.report import text
from tarock_logs.rules import games, get_engine
from tarock_logs.rules.base import Action, GameEngine, HandState, Ruleset, Violation
from tarock_logs.tools.simulate import deal_pack, deal_royal
from tarock_logs.verdict.findings import Finding, HandPeople, violation_finding

NAMES = ["Ana Kos", "Bojan Zupan", "Cene Novak", "Dušan Horvat", "Eva Lah"]
LANGS = ("en", "sl", "de")
HANDS_PER_GAME = 60
#: words of the English templates and meanings that no Slovenian or German sentence may keep
ENGLISH = re.compile(
    r"\b(the|played|holding|while|must|legal|seat|declarer|defender|followed|scored|would|"
    r"recorded|nobody|called|void|trick|card|hand|bid|kontra on|which|when|with|without|"
    r"after|before|not|only|other|another|ignored|applied|game|normal|on)\b"
)


def _engine(game: str) -> GameEngine:
    engine = get_engine(game)
    assert engine is not None
    return engine


def _deal(
    engine: GameEngine, ruleset: Ruleset, rng: Random
) -> tuple[list[list[str]], list[str], int]:
    size = rng.choice(engine.table_sizes(ruleset))
    dealer = rng.randrange(size)
    if engine.game == "royal":
        hands, talon = deal_royal(engine, ruleset, rng, dealer, size)
    else:
        hands, talon = deal_pack(engine, ruleset, rng, dealer, size)
    return hands, talon, dealer


def _spoil(hands: list[list[str]], talon: list[str], rng: Random) -> None:
    """A deal a dealer got wrong: a card twice, a card missing, a token that is no card, a
    hand too long, or a card moved from the talon."""
    kind = rng.randrange(5)
    a, b = rng.sample(range(len(hands)), 2)
    if kind == 0:
        hands[a][0] = hands[b][0]
    elif kind == 1:
        hands[a].pop()
    elif kind == 2:
        hands[a][0] = "X9"
    elif kind == 3:
        hands[a].append(hands[b].pop())
    elif talon:
        hands[a].append(talon.pop())


def _candidates(engine: GameEngine, st: HandState, rng: Random, n_seats: int) -> list[Action]:
    """Random actions of every type with values from the game's own vocabulary."""
    terms = engine.terms()
    cards = list(engine.pack(engine.ruleset(engine.default_ruleset)))
    contracts = [*terms.contracts, "nonsense"]
    bonuses = [*terms.bonuses, "nonsense"]
    melds = [*terms.melds, "M_NONSENSE"]
    seat = rng.randrange(n_seats)
    mover = st.to_move()
    if mover is not None and rng.random() < 0.6:
        seat = mover
    out = [
        Action("play", seat, card=rng.choice(cards)),
        Action("play", seat, card="X9"),
        Action("bid", seat, contract=rng.choice(contracts)),
        Action("pass", seat),
        Action("call", seat, card=rng.choice(cards)),
        Action("talon", seat, group=rng.randrange(-1, 7)),
        Action("discard", seat, cards=tuple(rng.sample(cards, rng.randrange(1, 4)))),
        Action("announce", seat, bonus=rng.choice(bonuses)),
        Action("announce", seat, bonus=rng.choice(bonuses), side=rng.choice(("dazu", "dagegen"))),
        Action("kontra", seat, target=rng.choice(["game", *bonuses]), level=rng.randrange(1, 6)),
        Action("lezim", seat),
        Action("claim", seat, claim=rng.choice(["rest", "trull", "four_kings", "nonsense"])),
        Action("meld", seat, meld=rng.choice(melds)),
        Action("throw_in", seat),
        Action("no_such_action", seat),
    ]
    return out


def _judged(engine: GameEngine, seed: int) -> Iterator[tuple[Violation, list[str]]]:
    """Every violation the engine reports on one constructed hand, with the roles of that
    hand's seats."""
    rng = Random(f"{engine.game}-{seed}")
    ids = sorted(engine.rulesets)  # every ruleset in turn (their options reach other codes)
    ruleset = engine.ruleset(ids[seed % len(ids)])
    hands, talon, dealer = _deal(engine, ruleset, rng)
    if seed % 5 == 0:
        _spoil(hands, talon, rng)
    session = engine.new_session(ruleset, len(hands))
    try:
        st = session.new_hand(dealer, hands, talon)
    except (ValueError, KeyError):
        return
    n = len(hands)
    for _ in range(400):
        if st.is_over():
            break
        for a in _candidates(engine, st, rng, n):
            try:
                found = st.check(a)
            except (ValueError, KeyError, IndexError, TypeError):
                continue
            for v in found:
                yield v, _roles(st, n)
            if found and rng.random() < 0.05:  # an illegal action recorded and applied
                try:
                    for v in st.push(a):
                        yield v, _roles(st, n)
                except (ValueError, KeyError, IndexError, TypeError):
                    pass
                break
        else:
            legal = st.legal_actions()
            if not legal:
                break
            st.push(rng.choice(legal))
        if rng.random() < 0.01:  # the log stops here
            break
    for v in st.hand_findings():
        yield v, _roles(st, n)
    if st.is_over():  # something recorded after the end of the hand
        for a in _candidates(engine, st, rng, n):
            try:
                for v in st.check(a):
                    yield v, _roles(st, n)
            except (ValueError, KeyError, IndexError, TypeError):
                continue


def _roles(st: HandState, n: int) -> list[str]:
    try:
        view = st.view()
    except KeyError:  # Zwanzigerrufen's view cannot sort a dealt token that is no card
        view = {}
    declarer, partner = view.get("declarer"), view.get("partner")
    roles = ["player"] * n
    if isinstance(declarer, int) and 0 <= declarer < n:
        roles = ["defender"] * n
        roles[declarer] = "declarer"
        if isinstance(partner, int) and partner != declarer and 0 <= partner < n:
            roles[partner] = "partner"
    return roles


@cache
def findings_by_code(game: str) -> dict[str, list[Finding]]:
    """A few real findings of every code the constructed hands reach (under each ruleset)."""
    engine = _engine(game)
    out: dict[str, list[Finding]] = {}
    for seed in range(HANDS_PER_GAME):
        for v, roles in _judged(engine, seed):
            got = out.setdefault(v.code, [])
            if sum(1 for f in got if f.rule == v.rule) >= 2:
                continue
            n = len(roles)
            people = HandPeople(game, [f"p{s}" for s in range(n)], NAMES[:n], roles, 0)
            v = v if v.action_index is not None or v.seat is None else v.at(seed)
            got.append(
                violation_finding(
                    v, people, file=None, session="s", hand=1, hand_id="h",
                    ruleset=engine.default_ruleset,
                )
            )  # fmt: skip
    return out


def _all() -> list[tuple[str, str]]:
    return [(g, c) for g in games() for c in sorted(_engine(g).codes())]


def _card_words(token: str, game: str) -> set[str]:
    return {text.card_text(token, game), token}


@pytest.mark.parametrize("game", list(games()))
def test_constructed_hands_reach_most_codes_of_every_engine(game: str) -> None:
    reached = set(findings_by_code(game))
    codes = set(_engine(game).codes())
    assert reached <= codes
    assert len(reached) >= len(codes) // 3, sorted(codes - reached)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", list(games()))
def test_every_finding_reads_in_every_language_with_its_facts(game: str, lang: str) -> None:
    for code, found in sorted(findings_by_code(game).items()):
        for f in found:
            said = f.text(lang)
            where = f"{game} {code} [{lang}]: {said}"
            assert said and said.strip() == said and said.endswith("."), where
            assert "{" not in said and "}" not in said, where  # no field left unfilled
            # names, not seats
            assert not re.search(r"\bseat \d|\bsedež \d|\bPlatz \d", said), where
            if f.players:
                assert f.players[0].name in said, where
            if f.card and f.card in CARDS:  # the card as the game names it
                assert text.card_text(f.card, game) in said, where
            held = f.params.get("held")
            if f.code.endswith("illegal_card") and isinstance(held, list):
                for c in held:
                    assert text.card_text(c, game) in said, where
            if f.rule:
                assert f.rule in said, where
            if f.consequence:
                assert text.t(f.consequence, lang) in said, where
            if lang != "en":
                plain = re.sub(r"\([^()]*§[^()]*\)", "", said)  # the rule id is no word
                english = ENGLISH.findall(plain)
                assert not english, f"{where}: English {english}"
                assert said != f.text("en"), where


def test_the_issues_example_in_three_languages() -> None:
    """The illegal card of issue 33: in every language the player with the role, the card
    played, the card held, the suit, the rule and the consequence."""
    found = [
        f
        for f in findings_by_code("slovenian").get("play.illegal_card", [])
        if f.params.get("need") == "follow" and f.players and (f.rule or "").startswith("si-t")
    ]
    assert found, "no illegal card that does not follow suit"
    f = found[0]
    name, card = f.players[0].name, text.card_text(f.card or "", "slovenian")
    held = text.cards_text(f.params["held"], "slovenian")
    suit = f.params["led"]
    en, sl, de = (f.text(lang) for lang in LANGS)
    assert f.message == en
    assert en.startswith(name) and f"played {card} while holding {held}" in en
    assert en.endswith("(si-tournament-2021 §8.3). The card is scored as played.")
    assert f"odigrana karta {card}, čeprav je v roki {held}" in sl
    assert text.suit_name(suit, lang="sl") in sl and sl.endswith("kot je bila odigrana.")
    assert f"spielte {card}, obwohl {held} in der Hand war" in de
    assert de.endswith("Die Karte wird gewertet, wie sie gespielt wurde.")


def test_a_renons_settlement_is_said_with_names_not_a_list() -> None:
    from pathlib import Path

    from tarock_logs.log.reader import read_paths
    from tarock_logs.verdict.audit import audit_session

    root = Path(__file__).resolve().parents[2] / "sample_logs" / "disputed" / "round-1.jsonl"
    (rec,) = [r for r in read_paths([root]) if r.session and r.session.id.endswith("-A")]
    assert rec.session is not None
    sa = audit_session(rec.session)
    (f,) = [f for h in sa.hands for f in h.findings if f.code == "renons.unclaimed"]
    names = [p.name or p.id for p in rec.session.players]
    for lang in LANGS:
        said = f.text(lang)
        assert "[" not in said and all(n in said for n in names), said
    assert "Luka Kralj -70" in f.text("en")
    assert "če bi bil prijavljen, bi se obračunal" in f.text("sl")


@pytest.mark.parametrize("game", list(games()))
def test_the_codes_the_constructed_hands_do_not_reach_are_worded_too(game: str) -> None:
    """The codes no constructed hand above reaches (a Royal Tarock cutter, a Zwanzigerrufen
    knock, ...) are not judged here; each is made by the engine's own code table (the one
    home of a code's section and severity: ``Code.violation``) about a player and a card,
    and must read in Slovenian and German with the player, the card and the rule, and
    without an English word."""
    engine = _engine(game)
    ruleset = engine.ruleset(engine.default_ruleset)
    missed = sorted(set(engine.codes()) - set(findings_by_code(game)))
    assert len(missed) < len(engine.codes()) // 3, missed
    card = engine.pack(ruleset)[5]
    people = HandPeople(game, ["p0", "p1", "p2", "p3"], NAMES[:4], ["declarer", "defender",
                        "defender", "defender"], 0)  # fmt: skip
    for code in missed:
        v = engine.codes()[code].violation(ruleset, "seat 1 did it", seat=1, card=card)
        f = violation_finding(v.at(3), people, file=None, session="s", hand=1, hand_id="h",
                              ruleset=ruleset.id)  # fmt: skip
        for lang in ("sl", "de"):
            said = f.text(lang)
            where = f"{game} {code} [{lang}]: {said}"
            assert NAMES[1] in said and text.card_text(card, game) in said, where
            assert v.rule in said and "{" not in said, where
            english = ENGLISH.findall(re.sub(r"\([^()]*§[^()]*\)", "", said))
            assert not english, f"{where}: English {english}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_audit_code_reads_in_every_language(lang: str) -> None:
    """The audit's own findings (each score item it compares, the session totals, the
    placement points, a standing), made by the audit's own constructors."""
    from tarock_logs.verdict.findings import (
        _ITEM_CODES,
        AUDIT_CODES,
        PlayerRef,
        score_finding,
        session_finding,
        standing_finding,
    )

    roles = ["declarer", "partner", "defender", "defender"]
    people = HandPeople("slovenian", ["p0", "p1", "p2", "p3"], NAMES[:4], roles, 0, called="SK")
    where = {"file": None, "session": "s", "ruleset": "si-tournament-2021"}
    made: dict[str, Finding] = {}
    for item, code in {**_ITEM_CODES, "contract": "score.item_differs"}.items():
        if code.startswith("score."):
            seat = None if item == "zero_sum" else 1  # the sum of every seat's line
            f = score_finding(item, seat, 30, 20, people, hand=4, hand_id="h", **where)
        else:
            ref = PlayerRef("p1", NAMES[1], 1, "player")
            f = session_finding(item, 1, 30, 20, player=ref, tournament="t", knock_on=[(4, 10)],
                                game="slovenian", **where)  # fmt: skip
        made[f.code] = f
    made["tournament.standing_differs"] = standing_finding(
        "p1", NAMES[1], 2, 3, tournament="t", ruleset="si-tournament-2021", sessions=["s"]
    )
    from tarock_logs.rules.base import Violation
    from tarock_logs.verdict.replay import COUNT_NOT_SUPPORTED

    unsupported = Violation(COUNT_NOT_SUPPORTED, "this game's engine cannot count", "",
                            severity="warning")  # fmt: skip
    made[COUNT_NOT_SUPPORTED] = violation_finding(
        unsupported, people, file=None, session="s", hand=4, hand_id="h", ruleset=None
    )
    assert set(made) == set(AUDIT_CODES)
    for code, f in made.items():
        said = f.text(lang)
        assert said and said.endswith(".") and "{" not in said, (code, said)
        if f.players:
            assert NAMES[1] in said, (code, said)
        if lang != "en":
            english = ENGLISH.findall(re.sub(r"\([^()]*§[^()]*\)", "", said))
            assert not english, (code, said, english)
