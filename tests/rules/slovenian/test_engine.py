"""The engine object: rulesets as data with options, sessions carrying radelci, what-if
re-scoring under another ruleset, citations, and the engine's purity (standard library only)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Action, GameEngine, HandState, SessionState
from tarock_logs.rules.slovenian import ENGINE, RULESETS
from tarock_logs.rules.slovenian.rulesets import OPTIONS

from .helpers import bid
from .test_replays import B1_HANDS, B1_TALON, B1_TRICKS, B2_HANDS, B2_TALON, B2_TRICKS, play_tricks


def test_engine_is_registered_and_satisfies_the_protocols():
    assert get_engine("slovenian") is ENGINE and isinstance(ENGINE, GameEngine)
    session = ENGINE.new_session(ENGINE.ruleset("tournament"), 4)
    assert isinstance(session, SessionState)
    hand = session.new_hand(3, [h.split() for h in B1_HANDS], B1_TALON.split())
    assert isinstance(hand, HandState)


def test_rulesets_have_dated_ids_aliases_and_every_switch():
    assert set(RULESETS) == {"si-tournament-2021", "openspiel-2.0"}
    assert ENGINE.ruleset("tournament").id == "si-tournament-2021"
    assert ENGINE.ruleset("openspiel").id == "openspiel-2.0"
    for rs in RULESETS.values():
        assert set(rs.options) == set(OPTIONS)
    t, o = ENGINE.ruleset("tournament").options, ENGINE.ruleset("openspiel").options
    assert (t["valat_contract_value"], o["valat_contract_value"]) == (250, 500)
    assert (t["win_threshold_thirds"], o["win_threshold_thirds"]) == (106, 107)
    assert (t["tarok_discard"], o["tarok_discard"]) == ("allowed_shown", "only_if_forced")


def test_variant_options_and_unknown_options():
    rs = ENGINE.ruleset("si-tournament-2021", {"valat_contract_value": 500})
    assert rs.id == "si-tournament-2021" and rs.options["valat_contract_value"] == 500
    with pytest.raises(KeyError):
        ENGINE.ruleset("tournament", {"no_such_option": 1})
    with pytest.raises(KeyError):
        ENGINE.ruleset("si-tournament-1999")
    with pytest.raises(ValueError):
        ENGINE.ruleset("tournament", {"overtake_rule": "sometimes"})
    with pytest.raises(ValueError):
        ENGINE.ruleset("tournament", {"radelci": "yes"})


def test_session_carries_radelci_from_hand_to_hand():
    session = ENGINE.new_session(ENGINE.ruleset("tournament"), 4)
    session.restore({"radelci": [1, 0, 2, 0]})
    h = session.new_hand(3, [x.split() for x in B2_HANDS], B2_TALON.split())
    for a in [bid(1, "pass"), bid(2, "pass"), bid(3, "pass"), bid(0, "klop")]:
        h.push(a)
    play_tricks(h, B2_TRICKS)
    s = h.score()
    session.end_hand(h, s)
    assert session.carry()["radelci"] == [1, 1, 3, 1]
    h2 = session.new_hand(0, [x.split() for x in B1_HANDS], B1_TALON.split())
    assert h2.radelci_before == (1, 1, 3, 1)


def test_what_if_rescoring_under_another_ruleset():
    """The same B.1 actions (announcements left out) scored under both rulesets."""
    results = {}
    for rid in ("tournament", "openspiel"):
        session = ENGINE.new_session(ENGINE.ruleset(rid), 4)
        h = session.new_hand(3, [x.split() for x in B1_HANDS], B1_TALON.split())
        for a in [
            bid(1, "pass"),
            bid(2, "pass"),
            bid(3, "pass"),
            bid(0, "three"),
            Action("call", 0, card="DK"),
            Action("talon", 0, group=1),
            Action("discard", 0, cards=("DJ", "S9", "H4")),
        ]:
            assert h.push(a) == []
        assert play_tricks(h, B1_TRICKS) == []
        results[rid] = h.score()
    # tournament: 10 + 15 + silent kralji 10 + silent pagat ultimo 25, P4's mondfang
    assert results["tournament"].totals == (60, 60, 0, -20)
    assert not results["openspiel"].unverified, results["openspiel"].unverified
    assert results["openspiel"].totals == (50, 50, 0, -20)


def test_announcements_do_not_exist_under_openspiel():
    session = ENGINE.new_session(ENGINE.ruleset("openspiel"), 4)
    h = session.new_hand(3, [x.split() for x in B1_HANDS], B1_TALON.split())
    for a in [
        bid(1, "pass"),
        bid(2, "pass"),
        bid(3, "pass"),
        bid(0, "three"),
        Action("call", 0, card="DK"),
        Action("talon", 0, group=1),
        Action("discard", 0, cards=("DJ", "S9", "H4")),
    ]:
        h.push(a)
    (v,) = h.push(Action("announce", 0, bonus="pagat_ultimo"))
    assert v.code == "ann.not_allowed_in_contract" and v.rule.startswith("openspiel-2.0 §")
    (v,) = h.push(Action("kontra", 2, target="game"))
    assert v.code == "kontra.not_allowed"


def test_engine_is_pure_standard_library():
    code = (
        "import sys; import tarock_logs.rules.slovenian as s; "
        "bad = [m for m in ('pydantic', 'duckdb', 'polars', 'streamlit', 'pyarrow') "
        "if m in sys.modules]; print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_table_of_five_new_session():
    session = ENGINE.new_session(ENGINE.ruleset("tournament"), 5)
    h = session.new_hand(0, [[], *[x.split() for x in B1_HANDS]], B1_TALON.split())
    assert h.active == (1, 2, 3, 4) and h.p1 == 1 and h.deal_violations == []
    with pytest.raises(ValueError):
        ENGINE.new_session(ENGINE.ruleset("tournament"), 6)
