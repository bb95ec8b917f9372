"""Replay: log actions → engine actions, per-step views, violations at their action index,
the session carry (radelci), legal alternatives; with the real Slovenian engine."""

from __future__ import annotations

import pytest

from tarock_logs import rules as rules_registry
from tarock_logs.log.models import ActionAdapter
from tarock_logs.rules import get_engine
from tarock_logs.rules.base import Action
from tarock_logs.verdict.replay import (
    legal_alternatives,
    replay_hand,
    replay_session,
    to_engine_action,
)
from tests.support.d1_helpers import b1_doc, b2_doc, plant_b1_illegal_card, session
from tests.support.fake_engine import ENGINE as FAKE

SLOVENIAN = get_engine("slovenian")


def test_to_engine_action_keeps_type_seat_and_named_fields() -> None:
    ann = ActionAdapter.validate_python(
        {"type": "announce", "seat": 2, "bonus": "M_X", "params": {"suit": "H", "count": 3}}
    )
    assert to_engine_action(ann) == Action(
        "announce", 2, bonus="M_X", params=(("count", 3), ("suit", "H"))
    )
    disc = ActionAdapter.validate_python(
        {"type": "discard", "seat": 0, "cards": ["T5", "C7"], "shown": ["T5"]}
    )
    assert to_engine_action(disc) == Action("discard", 0, cards=("T5", "C7"), shown=("T5",))
    k = ActionAdapter.validate_python({"type": "kontra", "seat": 1, "target": "trula"})
    assert to_engine_action(k) == Action("kontra", 1, target="trula", level=1)
    assert to_engine_action(ActionAdapter.validate_python({"type": "pass", "seat": 3})) == Action(
        "pass", 3
    )
    bid = ActionAdapter.validate_python({"type": "bid", "seat": 0, "contract": "solo_two"})
    assert to_engine_action(bid) == Action("bid", 0, contract="solo_two")
    talon = ActionAdapter.validate_python({"type": "talon", "seat": 0, "group": 1})
    assert to_engine_action(talon) == Action("talon", 0, group=1)


def test_game_without_engine_is_unverified_not_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(rules_registry._ENGINES, "royal")  # every game has an engine now
    doc = b1_doc()
    doc["game"] = "royal"
    r = replay_hand(session(doc), 0)
    assert r.score is None and r.ruleset is None
    assert r.legal and not r.verified
    assert any("no rules engine for royal" in u for u in r.unverified)
    assert [x.unverified for x in replay_session(session(doc))] == [r.unverified]


def test_unknown_ruleset_is_unverified_with_the_known_ones() -> None:
    r = replay_hand(session(b1_doc()), 0, ruleset="no-such-rules", engine=FAKE)
    assert r.score is None
    assert "unknown ruleset 'no-such-rules'" in r.unverified[0]


def test_appendix_b1_replays_legal_with_the_spec_result() -> None:
    s = session(b1_doc())
    r = replay_hand(s, 0)
    assert r.ruleset is not None and r.ruleset.id == "si-tournament-2021"
    assert r.complete and r.verified, r.unverified
    assert [v for v in r.violations if v.severity == "error"] == []
    assert r.legal
    assert r.score is not None
    assert list(r.score.totals) == [135, 135, 0, -20]  # W1
    assert (r.score.contract, r.score.declarer, r.score.partner, r.score.won) == (
        "three",
        0,
        1,
        True,
    )


def test_steps_start_with_the_deal_and_follow_every_action() -> None:
    s = session(b1_doc())
    r = replay_hand(s, 0)
    n = len(s.hands[0].actions)
    assert len(r.steps) == n + 1
    assert r.steps[0].action is None and r.steps[0].view is not None
    assert r.steps[0].view["phase"] == "bidding"
    assert sorted(r.steps[0].view["hands"][0]) == sorted(s.hands[0].deal.hands[0])
    assert [st.action_index for st in r.steps[1:]] == list(range(n))
    last = r.steps[-1].view
    assert last is not None and last["phase"] == "done"
    assert len(last["tricks"]) == 12
    assert last["tricks"][1]["winner"] == 2  # trick 2: P3's škis takes P4's mond
    assert all(h == [] for h in last["hands"])


def test_without_views_there_are_no_snapshots_but_the_same_verdict() -> None:
    s = session(b1_doc())
    fast = replay_session(s, with_views=False)[0]
    full = replay_hand(s, 0, with_views=True)
    assert all(st.view is None for st in fast.steps)
    assert fast.score == full.score and fast.violations == full.violations


def test_planted_illegal_card_is_flagged_at_its_action_index_with_seat_and_card() -> None:
    doc = b1_doc()
    idx = plant_b1_illegal_card(doc)
    r = replay_hand(session(doc), 0)
    errors = [v for v in r.violations if v.severity == "error"]
    assert len(errors) == 1
    v = errors[0]
    assert (v.action_index, v.seat, v.card) == (idx, 1, "C7")
    assert v.rule.startswith("si-tournament-2021 §8")
    assert not r.legal
    assert r.steps[idx + 1].violations == [v]
    assert r.first_error() == v


def test_legal_alternatives_are_the_engine_moves_in_that_position() -> None:
    doc = b1_doc()
    idx = plant_b1_illegal_card(doc)
    r = replay_hand(session(doc), 0)
    alts = legal_alternatives(r, idx)  # before P2's illegal C7 in trick 2 (T15 led)
    cards = {a.card for a in alts}
    assert alts and all(a.type == "play" and a.seat == 1 for a in alts)
    assert cards == {"T14", "T7", "T4", "T2"}  # P2 must follow taroks
    first = legal_alternatives(r, 0)  # P2 speaks first in the bidding
    assert first and {a.seat for a in first} == {1}
    assert legal_alternatives(r, len(r.steps) + 5) == []
    # the replay itself is untouched
    assert r.steps[-1].view is not None and r.steps[-1].view["phase"] == "done"


def test_session_carries_radelci_from_hand_to_hand() -> None:
    """Two klop hands (B.2's deal and play) from zero radelci: section 9.8/9.10 give P1 +70
    and radelci 1,1,1,1 after the first; P1's radelc doubles the second to +140, P1 erases
    one and everyone gains one: 1,2,2,2."""
    doc = b2_doc()
    h = doc["hands"][0]
    h.pop("radelci_before", None)
    h.pop("result", None)
    second = {**h, "number": h["number"] + 1}
    doc["hands"] = [h, second]
    r1, r2 = replay_session(session(doc))
    assert r1.score is not None and r2.score is not None
    assert list(r1.score.totals) == [70, 0, 0, 0]
    assert list(r1.score.carry_after["radelci"]) == [1, 1, 1, 1]
    assert list(r2.score.totals) == [140, 0, 0, 0]
    assert list(r2.score.carry_after["radelci"]) == [1, 2, 2, 2]


def test_appendix_b2_klop_with_recorded_radelci_before() -> None:
    r = replay_session(session(b2_doc()))[0]
    assert r.legal and r.verified, (r.violations, r.unverified)
    assert r.score is not None
    assert list(r.score.totals) == [140, 0, 0, 0]  # W9
    assert list(r.score.carry_after["radelci"]) == [1, 1, 3, 1]


def test_fake_engine_plugs_in_unchanged() -> None:
    """The replay is game-agnostic: any engine subclassing the base contract works, with the
    declared defaults for the hooks it does not override."""
    doc = b1_doc()
    doc["game"], doc["ruleset"] = "zwanzigerrufen", "fake"
    h = doc["hands"][0]
    h["actions"] = [a for a in h["actions"] if a["type"] == "play"][:4]
    h["deal"] = {"hands": [["SK"], ["SJ"], ["S8"], ["SQ"]], "talon": []}
    r = replay_hand(session(doc), 0, engine=FAKE)
    assert r.verified and r.legal and r.ruleset_id == "fake-1"
    assert len(r.steps) == 5 and r.steps[-1].view["tricks"][0]["winner"] == 3


def test_a_dealer_out_of_turn_is_reported_once_by_the_reader_not_by_the_engine() -> None:
    """Spec 3.2: the deal passes to the next seat. Who dealt is judged by the reader, which sees
    the whole session (the warning ``deal.dealer_rotation``, formerly ``E-DEALER-ROTATION``);
    the engine, hand by hand, reports nothing about it, on the fast path and on the reference
    path (with views)."""
    from pathlib import Path

    from tarock_logs.log.reader import read_file

    path = Path(__file__).resolve().parents[2] / "sample_logs/malformed/deal.dealer_rotation.jsonl"
    (rec,) = list(read_file(path))
    assert [e.code for e in rec.errors] == ["deal.dealer_rotation"]
    assert rec.session is not None
    for with_views in (False, True):
        replays = replay_session(rec.session, with_views=with_views)
        found = [v.code for r in replays for v in r.violations]
        assert len(replays) == 2 and not any("dealer" in c for c in found), found


def _alternatives_by_copy(r: object) -> dict[int, list[Action]]:
    """The reference: a copy of the final state taken back one action at a time to the deal,
    the legal actions of each position it passes (``legal_alternatives`` records them on its
    way forward again). One copy for all steps: a copy per step, each taken back from the end,
    undid ``n²/2`` actions a hand, and a Royal ``pop`` replays the hand up to it (the Royal
    samples took 20 s)."""
    state = r.state.copy()  # type: ignore[attr-defined]
    step = r.actions_applied  # type: ignore[attr-defined]
    out = {step: list(state.legal_actions())}
    for k in range(step - 1, -1, -1):
        state.pop()
        out[k] = list(state.legal_actions())
    return out


@pytest.mark.parametrize("game", ["slovenian", "zwanzigerrufen", "royal"])
def test_every_steps_alternatives_found_in_one_pass_equal_a_copy_per_step(game: str) -> None:
    """legal_alternatives finds every position's legal actions in one pass back to the deal
    and forward again; they are those of a copy of the state taken back through each step, and
    the replay's own state is left as it was (the last step is still the end of the hand)."""
    from pathlib import Path

    from tarock_logs.log.reader import read_sessions

    root = Path(__file__).resolve().parents[2] / "sample_logs" / game
    sessions = read_sessions([root])
    checked = 0
    for s in sessions[:3]:
        for r in replay_session(s):
            if r.state is None:
                continue
            before = r.state.view()
            reference = _alternatives_by_copy(r)
            for step in range(r.actions_applied + 1):
                assert legal_alternatives(r, step) == reference[step], step
                checked += 1
            assert r.state.view() == before
            assert legal_alternatives(r, r.actions_applied + 1) == []
    assert checked > 100
