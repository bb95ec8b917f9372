"""The structural checks ask the game's engine (tarock_logs.log.validate.game_rules): table
sizes, deal shapes, the pack and its physical names, who deals next; a game without an engine
keeps the generic checks; the dealer rotation is checked in one pass."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from tarock_logs.log import validate
from tarock_logs.log.reader import read_bytes
from tarock_logs.rules import get_engine

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def _b1() -> dict[str, Any]:
    return copy.deepcopy(json.loads((SAMPLES / "slovenian" / "appendix-b.json").read_text())[0])


def _fd1() -> dict[str, Any]:
    return copy.deepcopy(
        json.loads((SAMPLES / "zwanzigerrufen" / "fd-examples.json").read_text())[0]
    )


def _read(s: dict[str, Any]):
    [rec] = read_bytes(json.dumps(s).encode(), kind="json")
    return rec


def _codes(rec) -> list[tuple[str, str | None]]:
    return [(e.code, e.path) for e in rec.all_errors()]


@pytest.fixture
def fresh_rules():
    validate._RULES_CACHE.clear()
    yield
    validate._RULES_CACHE.clear()


@pytest.mark.parametrize("game", ["slovenian", "zwanzigerrufen", "royal"])
def test_the_reader_knows_each_game_as_its_engine_does(game):
    eng = get_engine(game)
    assert eng is not None
    rs_id = next(iter(eng.rulesets))
    rules = validate.game_rules(game, rs_id, {})
    assert rules.engine is eng and rules.ruleset is not None and rules.ruleset.id == rs_id
    assert rules.table_sizes == eng.table_sizes(None)
    assert rules.pack == eng.pack(rules.ruleset)
    for n in rules.table_sizes:
        for dealer in range(n):
            assert rules.deal_shape(n, dealer) == eng.deal_shape(n, dealer, rules.ruleset)
            for thrown in (False, True):
                assert rules.next_dealer(dealer, n, thrown) == eng.next_dealer(
                    dealer, n, thrown_in=thrown
                )


def test_an_unknown_ruleset_falls_back_to_the_games_own_knowledge():
    rules = validate.game_rules("slovenian", "no-such-ruleset", {"x": 1})
    assert rules.ruleset is None and rules.deal_shape(4, 0) is not None
    s = _b1()
    s["ruleset"] = "no-such-ruleset"
    assert _read(s).ok  # the audit reports the ruleset; the structure is fine


def test_glatzen_are_read_under_the_sessions_glatzen_option():
    """Zwanzigerrufen's Glatze is a physical card chosen by the ``glatzen`` option (red aces
    and black tens by default, red fours under ``red_four``): the engine's card names."""
    s = _fd1()
    hand = s["hands"][0]
    seat, k = next((i, cs.index("DG")) for i, cs in enumerate(hand["deal"]["hands"]) if "DG" in cs)
    hand["deal"]["hands"][seat][k] = "D1"
    assert _read(s).ok  # D1 is the Glatze of diamonds by default
    s["options"] = {"glatzen": "red_four"}
    rec = _read(s)
    assert [c for c, _ in _codes(rec)] == ["card.not_in_pack"]  # not under red_four
    hand["deal"]["hands"][seat][k] = "d4"
    rec = _read(s)
    assert rec.ok, _codes(rec)
    assert "DG" in rec.session.hands[0].deal.hands[seat]


def test_a_game_without_an_engine_keeps_the_generic_checks(monkeypatch, fresh_rules):
    monkeypatch.setattr(validate, "get_engine", lambda game: None)
    s = _b1()
    h = s["hands"][0]
    h["deal"]["hands"][0].append(h["deal"]["talon"].pop())  # 13 cards and a talon of 5
    rec = _read(s)
    assert rec.ok, _codes(rec)  # no engine: no deal sizes, any table
    h["deal"]["hands"][0][0] = h["deal"]["hands"][1][0]  # but each card of the pack once
    assert [c for c, _ in _codes(_read(s))] == ["deal.duplicate_card"]


def test_the_deal_sizes_are_the_engines(monkeypatch, fresh_rules):
    """An engine that deals 13 to the first seat and a talon of 5 is believed."""
    real = get_engine("slovenian")
    assert real is not None

    class Lopsided:
        def __getattr__(self, name: str) -> Any:
            return getattr(real, name)

        def deal_shape(self, table_size: int, dealer: int, ruleset: Any = None) -> Any:
            shape = real.deal_shape(table_size, dealer, ruleset)
            return shape._replace(hands=(13, *shape.hands[1:]), talon=5)

    monkeypatch.setattr(validate, "get_engine", lambda game: Lopsided())
    s = _b1()
    rec = _read(s)
    assert sorted(c for c, _ in _codes(rec)) == ["deal.count", "deal.count"]
    h = s["hands"][0]
    h["deal"]["hands"][0].append(h["deal"]["talon"].pop())
    assert _read(s).ok


def test_a_dealer_out_of_turn_is_reported_once_by_the_reader():
    s = _b1()
    h2 = copy.deepcopy(s["hands"][0])
    h2["number"] = 2
    s["hands"].append(h2)  # dealt again by seat 3; the rotation gives seat 0
    rec = _read(s)
    assert _codes(rec) == [("deal.dealer_rotation", "$.hands[1].dealer")]
    assert rec.ok


class _CountingList(list):
    """A list that counts how often it is walked."""

    walks = 0

    def __iter__(self):
        type(self).walks += 1
        return super().__iter__()


def test_the_rotation_check_is_one_pass_however_many_hands_are_out_of_turn():
    """Every hand dealt by seat 0 gives one warning each, and the hands are walked a fixed
    number of times (each warning once looked its hand up again among all the hands: 20,000
    such hands took 87 s)."""
    s = _b1()
    first = s["hands"][0]
    s["first_dealer"] = 0
    hands = []
    for k in range(200):
        h = copy.deepcopy(first)
        h["number"] = k + 1
        h["dealer"] = 0
        hands.append(h)
    s["hands"] = _CountingList(hands)
    _CountingList.walks = 0
    rec = validate.record_from_obj(s, b"", "<input>", 1, 0, [], [])
    warnings = [e for e in rec.errors if e.code == "deal.dealer_rotation"]
    assert len(warnings) == 199 and len(rec.session.hands) == 200
    assert [e.path for e in warnings[:2]] == ["$.hands[1].dealer", "$.hands[2].dealer"]
    assert _CountingList.walks <= 2
