"""The reader's cheaper hand validation (``validate._hand_from_valid_actions``: each action
validated on its own or taken from a cache, the hand without its actions, the two joined)
gives exactly what pydantic's validation of the whole hand gives, and declines whatever that
validation would refuse, so the reader's sessions and errors never change with it.

Differential: every sample log, simulated sessions of the three games and 1,500 mutants of
the fuzz mutator are read with the cheaper path and with it switched off; the records
(sessions, rejected hands, errors) must be equal."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
from pydantic import ValidationError

from tarock_logs import _native
from tarock_logs.log import validate
from tarock_logs.log.models import HandAdapter
from tarock_logs.log.reader import read_bytes, read_paths
from tests.support.log_mutator import Mutator

ROOT = Path(__file__).resolve().parents[2]

HAND: dict[str, Any] = {
    "number": 1,
    "dealer": 0,
    "deal": {"hands": [["T1"], ["T2"], ["T3"]], "talon": []},
    "actions": [
        {"type": "pass", "seat": 1},
        {"type": "bid", "seat": 2, "contract": "three"},
        {"type": "talon", "seat": 2, "group": 0},
        {"type": "discard", "seat": 2, "cards": ["T3"]},
        {"type": "announce", "seat": 2, "bonus": "trula"},
        {"type": "kontra", "seat": 0, "target": "game", "level": 1},
        {"type": "lezim", "seat": 2},
        {"type": "play", "seat": 1, "card": "T2"},
    ],
}


def _records(read: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    """``read()`` with the cheaper path, then with it off (fresh caches both times); with the
    native core loaded, the cheaper path in pure Python must read the same too."""
    validate._ACTIONS.clear()
    fast = read()
    if _native.core is not None:
        with monkeypatch.context() as mp:
            mp.setattr(_native, "core", None)
            validate._ACTIONS.clear()
            assert _shape(read()) == _shape(fast)
    with monkeypatch.context() as mp:
        mp.setattr(validate, "_hand_from_valid_actions", lambda _norm, _todo=None: None)
        mp.setattr(validate, "_prepare_actions", lambda _actions, _pack: None)
        careful = read()
    return fast, careful


def _shape(records: list[Any]) -> list[Any]:
    return [
        (r.line, r.session, [(h.number, h.index, h.errors) for h in r.rejected_hands], r.errors)
        for r in records
    ]


def test_every_sample_log_reads_the_same_with_and_without_it(monkeypatch):
    fast, careful = _records(lambda: list(read_paths([ROOT / "sample_logs"])), monkeypatch)
    assert _shape(fast) == _shape(careful)
    hands = [h for r in fast if r.session for h in r.session.hands]
    assert len(hands) > 200
    assert validate._ACTIONS  # (the cache was used: the path ran)


@pytest.mark.parametrize("game", ["slovenian", "zwanzigerrufen", "royal"])
def test_simulated_sessions_read_the_same_with_and_without_it(game, monkeypatch):
    import orjson

    from tarock_logs.tools.simulate import TournamentSpec, simulate_tournament

    spec = TournamentSpec(seed=11, game=game, tables=(4, 4), rounds=2, games_per_round=8)
    sessions = [s for ss in simulate_tournament(spec).files.values() for s in ss]
    data = b"\n".join(orjson.dumps(s) for s in sessions)
    fast, careful = _records(lambda: read_bytes(data, kind="jsonl"), monkeypatch)
    assert _shape(fast) == _shape(careful)
    assert sum(len(r.session.hands) for r in fast if r.session) >= 16


def test_1500_mutants_read_the_same_with_and_without_it(monkeypatch):
    mutator = Mutator(20261204)
    differ = []
    for i in range(1500):
        m = mutator.mutant()
        fast, careful = _records(lambda m=m: read_bytes(m.data, kind=m.kind), monkeypatch)
        if _shape(fast) != _shape(careful):
            differ.append((i, m.recipe))
    assert not differ


def test_the_joined_model_equals_pydantics_own():
    hand = validate._hand_from_valid_actions(copy.deepcopy(HAND))
    assert hand is not None
    assert hand == HandAdapter.validate_python(copy.deepcopy(HAND))
    assert hand.model_dump() == HandAdapter.validate_python(copy.deepcopy(HAND)).model_dump()
    assert (
        hand.model_fields_set == HandAdapter.validate_python(copy.deepcopy(HAND)).model_fields_set
    )


@pytest.mark.parametrize(
    "change",
    [
        ("seat", True),  # a bool is no seat under strict validation, though True == 1
        ("seat", 1.0),  # nor a float
        ("seat", 9),  # out of range
        ("contract", ""),  # too short
        ("type", "bidding"),  # no such action
    ],
)
def test_an_action_strict_validation_refuses_is_declined(change):
    key, value = change
    doc = copy.deepcopy(HAND)
    doc["actions"][1] = {**doc["actions"][1], key: value}
    # (warm the cache with the valid form first: a cached look-alike must not stand in)
    assert validate._hand_from_valid_actions(copy.deepcopy(HAND)) is not None
    assert validate._hand_from_valid_actions(doc) is None
    with pytest.raises(ValidationError):
        HandAdapter.validate_python(doc)


def test_a_facts_hand_with_actions_and_a_hand_without_actions_are_declined():
    facts = {**copy.deepcopy(HAND), "deal": None, "facts": {"contract": "three", "declarer": 2}}
    assert validate._hand_from_valid_actions(facts) is None
    assert validate._hand_from_valid_actions({**copy.deepcopy(HAND), "actions": []}) is None


def test_a_hand_field_the_schema_refuses_is_declined():
    doc = {**copy.deepcopy(HAND), "dealer": 7}
    assert validate._hand_from_valid_actions(doc) is None
    doc = {**copy.deepcopy(HAND), "extra_field": 1}
    assert validate._hand_from_valid_actions(doc) is None


def _hands_of(doc: Any) -> list[Any]:
    out = []
    for d in doc if isinstance(doc, list) else [doc]:
        hands = d.get("hands") if isinstance(d, dict) else None
        for h in hands if isinstance(hands, list) else []:
            if isinstance(h, dict) and isinstance(h.get("actions"), list):
                out.append(h["actions"])
    return out


def _action_lists() -> list[Any]:
    """Action lists as a reader meets them: of every sample hand, and of 3,000 mutants."""
    import orjson

    lists: list[Any] = []
    for path in sorted((ROOT / "sample_logs").rglob("*")):
        if path.suffix not in (".json", ".jsonl"):
            continue
        data = path.read_bytes()
        for chunk in data.splitlines() if path.suffix == ".jsonl" else [data]:
            try:
                lists += _hands_of(orjson.loads(chunk))
            except orjson.JSONDecodeError:
                continue
    mutator = Mutator(7)
    for _ in range(3000):
        m = mutator.mutant()
        try:
            lists += _hands_of(
                orjson.loads(m.data.splitlines()[0] if m.kind == "jsonl" else m.data)
            )
        except (orjson.JSONDecodeError, IndexError):
            continue
    return lists


@pytest.mark.skipif(_native.core is None, reason=f"native core: {_native.why_not}")
def test_the_c_twin_prepares_every_action_list_as_the_python_definition():
    from tarock_logs.cards import PACKS

    # warm caches, as a reader has them: the validated models of the sample hands' actions
    list(read_paths([ROOT / "sample_logs"]))
    plays, shared, scalar = validate._PLAYS, validate._ACTIONS, validate._SCALAR_ACTIONS
    assert plays and shared
    lists = _action_lists()
    assert len(lists) > 1000
    taken = declined = 0
    odd = [
        {"type": "pass", "seat": True},
        {"type": "talon", "seat": 1, "group": 1.0},
        {"type": "play", "seat": 1, "card": "T1", "x": 1},
        {"type": ["play"], "seat": 1},
        {"type": "play", "seat": 1, "card": ["T1"]},
        {"cards": "T1"},
        {"shown": [1]},
        3,
    ]
    for pack in {frozenset(p) for p in PACKS.values()}:
        for acts in [*lists, odd, odd[:1], odd[1:2], odd[2:3]]:
            py = validate.prepare_actions_py(acts, pack, plays, shared, scalar)
            c = _native.core.prepare_actions(acts, pack, plays, shared, scalar)
            if py is None:
                assert c is None
                declined += 1
                continue
            assert c is not None
            assert c[1] == py[1]
            assert len(c[0]) == len(py[0])
            assert all(x is y for x, y in zip(c[0], py[0], strict=True))
            taken += 1
    assert taken > 500 and declined > 100
