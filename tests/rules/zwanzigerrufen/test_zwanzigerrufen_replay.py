"""The engine driven by the game-agnostic replay layer over the sample log of the spec's
full deals (sample_logs/zwanzigerrufen/fd-examples.json): no findings, recorded = recomputed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tarock_logs.log.models import SessionAdapter
from tarock_logs.verdict.replay import replay_session

SAMPLE = Path(__file__).resolve().parents[3] / "sample_logs" / "zwanzigerrufen" / "fd-examples.json"


def _sessions():
    return [SessionAdapter.validate_python(s) for s in json.loads(SAMPLE.read_text())]


def test_sample_full_deals_replay_clean_and_match_the_recorded_scores():
    for session in _sessions():
        (replay,) = replay_session(session)
        assert replay.violations == [], (session.id, replay.violations)
        assert replay.unverified == []
        assert replay.score is not None
        assert list(replay.score.totals) == session.hands[0].result.scores
        assert all(step.view is None or step.view["talon"] == [] for step in replay.steps)


def test_a_planted_revoke_is_flagged_at_its_action_index():
    session = _sessions()[1]  # FD2
    hand = session.hands[0]
    actions = list(hand.actions)
    i = next(k for k, a in enumerate(actions) if a.type == "play" and a.card == "DN")
    j = next(k for k, a in enumerate(actions) if a.type == "play" and a.card == "HJ")
    actions[i], actions[j] = (
        actions[i].model_copy(update={"card": "HJ"}),
        actions[j].model_copy(update={"card": "DN"}),
    )
    bad = session.model_copy(update={"hands": [hand.model_copy(update={"actions": actions})]})
    (replay,) = replay_session(bad)
    first = replay.violations[0]
    assert (first.code, first.action_index, first.seat, first.card) == (
        "play.illegal_card",
        i,
        2,
        "HJ",
    )
    assert first.rule == "zr-std-2026 §6.3"


def test_the_timeline_snapshot_is_the_views_contract_declarer_and_partner_after_every_action():
    from tarock_logs.rules import get_engine
    from tarock_logs.verdict.convert import to_engine_action
    from tarock_logs.verdict.replay import resolve_ruleset

    eng = get_engine("zwanzigerrufen")
    assert eng is not None
    keys = ("contract", "declarer", "partner", "called", "game_level", "phase", "to_move")
    for session in _sessions():
        hand = session.hands[0]
        ss = eng.new_session(resolve_ruleset(eng, session.ruleset, {}), 4)
        state = ss.new_hand(hand.dealer, [list(h) for h in hand.deal.hands], [])
        for a in hand.actions:
            state.push(to_engine_action(a))
            view = state.view()
            for ks in (eng.timeline_keys, keys):
                assert state.timeline_state(ks) == {k: view.get(k) for k in ks}


def test_a_hand_dealt_a_card_not_of_the_pack_fails_its_timeline_snapshot_as_its_view_does():
    from tarock_logs.rules import get_engine
    from tarock_logs.rules.zwanzigerrufen.rulesets import RULESETS

    eng = get_engine("zwanzigerrufen")
    assert eng is not None
    ss = eng.new_session(next(iter(RULESETS.values())), 4)
    hands = [["T1", "T2", "XX"], ["T3"], ["T4"], ["T5"]]
    state = ss.new_hand(0, hands, [])
    with pytest.raises(KeyError):
        state.view()
    with pytest.raises(KeyError):
        state.timeline_state(eng.timeline_keys)
