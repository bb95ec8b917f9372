"""The native engine of Zwanzigerrufen (``_native/zrhand.h``, :mod:`~tarock_logs.rules.
zwanzigerrufen.native`) against the reference (``ZRSession``/``ZRHand`` pushing every action),
hand by hand: the two homes of docs/architecture.md.

The properties, on simulated sessions of every contract, played under each option set the
native engine reads (the simulator's players follow the ruleset's options):

* the native engine takes a hand exactly when the reference finds nothing in it (no
  finding of any severity, the deal and the log complete);
* a hand it takes has the reference's contract, declarer, partner, verdict on the game,
  double-round multiplier, tricks (leader, seats, cards, winner, card points, Mondfang), every
  per-seat score line (item, seat, value, in the reference's order) and totals, and leaves the
  session's carry (games, double-round windows) as the reference's session does.

And the codec: the core's fields and the rule tables name the same things (a field added on
one side only fails here).
"""

from __future__ import annotations

import functools
from random import Random
from typing import Any

import orjson
import pytest

from tarock_logs import _native
from tarock_logs.rules.base import Action
from tarock_logs.rules.zwanzigerrufen import ENGINE, native
from tarock_logs.rules.zwanzigerrufen.hand import ZRHand
from tarock_logs.rules.zwanzigerrufen.rulesets import DEFAULT_OPTIONS, OPTION_CHOICES, ZR_STD
from tarock_logs.tools.sim_players import get_policy
from tarock_logs.tools.simulate import PLAYER_NAMES, SessionPlan, simulate_session

pytestmark = pytest.mark.skipif(
    not native.available(), reason=f"the native core is not loaded: {_native.why_not}"
)

GAME = "zwanzigerrufen"


def _options_sets() -> list[dict[str, Any]]:
    """The default options, then every other value of each closed option and each bool
    flipped, and a few integers changed (one option at a time)."""
    out: list[dict[str, Any]] = [{}]
    skip = {"direction", "knocking", "glatzen", "infraction_policy", "auction_model"}
    for name, choices in OPTION_CHOICES.items():
        if name in skip:
            continue
        out += [{name: c} for c in choices if c != DEFAULT_OPTIONS[name]]
    for name, v in DEFAULT_OPTIONS.items():
        if isinstance(v, bool):
            out.append({name: not v})
    out += [
        {"max_kontra_level": 3},
        {"max_kontra_level": "unlimited"},
        {"solo_value": 6, "farbensolo_value": 3, "solo_bonus_factor": 3},
        {"farbensolo_bonus_factor": 2, "trull_value": 2, "four_kings_value": 3},
        {"double_round_length": 2, "double_round_stacking": "extend"},
        {"double_round_length": 0},
        {"farbensolo_min_suit_cards": 3},
        {"card_bonus_claim": "automatic", "mondfang_in_farbensolo": "scored"},
    ]
    return out


OPTION_SETS = _options_sets()


def _simulate(options: dict[str, Any], n_hands: int, seed: int) -> list[dict[str, Any]]:
    rs = ZR_STD.with_options(options)
    policy = get_policy(GAME)
    assert policy is not None
    docs = []
    k = 0
    while n_hands > 0:
        rng = Random(f"zr-native-hand:{seed}:{k}")
        players = [{"id": f"p{i}", "name": PLAYER_NAMES[i]} for i in range(4)]
        plan = SessionPlan(f"zr-{seed}-{k}", players, min(12, n_hands), options=dict(options))
        doc, _ = simulate_session(ENGINE, rs, policy, plan, rng)
        docs.append(doc)
        n_hands -= plan.n_hands
        k += 1
    return docs


@functools.cache
def _default_hands() -> list[dict[str, Any]]:
    """600 hands simulated under the standard rules (seed 1, sessions of 12), once per process:
    the default-rules test takes them all, the option-set judging and the claims tests their
    first 120 and 300 (copies: the simulator seeds each session alone, so they are what
    ``_simulate({}, 120, 1)`` and ``_simulate({}, 300, 1)`` give)."""
    return _simulate({}, 600, 1)


def _defaults(n_hands: int) -> list[dict[str, Any]]:
    assert n_hands % 12 == 0
    docs: list[dict[str, Any]] = orjson.loads(orjson.dumps(_default_hands()[: n_hands // 12]))
    return docs  # (a deep copy: JSON data)


def _action(a: dict[str, Any]) -> Action:
    fields = {k: v for k, v in a.items() if k not in ("type", "seat", "note")}
    return Action(a["type"], a["seat"], **fields)


def _compare(docs: list[dict[str, Any]], options: dict[str, Any]) -> tuple[int, int, int]:
    """Replay each session through the reference and each hand through the native engine;
    (hands, clean, taken)."""
    rs = ZR_STD.with_options(options)
    cfg = native.config(rs)
    assert cfg is not None
    hands = clean = taken = 0
    for doc in docs:
        ss = ENGINE.new_session(rs, 4)
        for hd in doc["hands"]:
            hands += 1
            dealt = hd["deal"]["hands"]
            actions = [_action(a) for a in hd["actions"]]
            before = (ss.games, tuple(ss.windows), ss.next_dealer)
            h = ss.new_hand(hd["dealer"], dealt, ())
            assert isinstance(h, ZRHand)
            found = []
            for a in actions:
                found += h.push(a)
            found += h.hand_findings()
            score = h.score()
            ss.end_hand(h, score)
            got = native.play_hand(cfg, hd["dealer"], dealt, actions, before)
            is_clean = not found and h.is_over() and h._st.thrown_in is None
            clean += is_clean
            assert (got is not None) == is_clean, (options, hd["number"], found)
            if got is None:
                continue
            taken += 1
            assert (got.contract, got.declarer, got.partner, got.won, got.called) == (
                score.contract, score.declarer, score.partner, score.won, h.auction.called
            )  # fmt: skip
            assert got.multiplier == h.multiplier
            ref_tricks = [
                (t.leader, tuple(s for s, _ in t.cards), tuple(c for _, c in t.cards),
                 t.winner, t.points, t.mondfang[0] if t.mondfang else None)
                for t in h.tricks
            ]  # fmt: skip
            assert list(got.tricks) == ref_tricks
            assert list(got.lines) == [(i.item, i.seat, i.value) for i in score.items]
            assert got.totals == tuple(score.totals)
            assert got.card_points == score.card_points["declarer_side"]
            assert got.mondfang == bool(score.carry_after["mondfang"])
            assert got.carry == (ss.games, tuple(ss.windows), ss.next_dealer)
    return hands, clean, taken


def test_the_codec_names_the_same_fields_on_both_sides() -> None:
    core = _native.core
    assert core is not None
    spec = core.zwanzigerrufen_config_fields()
    assert native.mismatches(spec) == []
    # a field the core would read that no table gives, and an option nobody reads
    broken = dict(spec, config=(*spec["config"], ("no_such_option", "int")))
    assert any("no_such_option" in p for p in native.mismatches(broken))
    fewer = dict(spec, config=tuple(f for f in spec["config"] if f[0] != "trull_value"))
    assert any("trull_value" in p for p in native.mismatches(fewer))
    renumbered = dict(spec, items=tuple(reversed(spec["items"])))
    assert any(p.startswith("items") for p in native.mismatches(renumbered))


def test_the_config_reader_refuses_a_missing_or_unknown_field() -> None:
    core = _native.core
    assert core is not None
    fields = native.config_fields(core, DEFAULT_OPTIONS)
    assert isinstance(core.zwanzigerrufen_config(fields), bytes)
    with pytest.raises(KeyError):
        core.zwanzigerrufen_config({k: v for k, v in fields.items() if k != "throw_in"})
    with pytest.raises(KeyError):
        core.zwanzigerrufen_config({**fields, "tarock_count": 3})


def test_default_rules_the_native_engine_takes_exactly_the_clean_hands_alike() -> None:
    """Zwanzigerrufen standard rules: 600 simulated hands (every contract, announcements
    and Kontras as the players make them): taken exactly when clean, scored alike."""
    hands, clean, taken = _compare(_defaults(600), {})
    assert hands == 600 and taken == clean and taken >= 480


@pytest.mark.parametrize(
    "options", OPTION_SETS[1:], ids=lambda o: "-".join(f"{k}={v}" for k, v in o.items())
)
def test_option_sets_the_native_engine_takes_exactly_the_clean_hands_alike(
    options: dict[str, Any],
) -> None:
    """Each option set the native engine reads, 72 hands played under it."""
    hands, clean, taken = _compare(_simulate(options, 72, 2), options)
    assert hands == 72 and taken == clean and taken >= 30


def test_hands_simulated_under_defaults_judged_under_each_option_set() -> None:
    """The same 120 hands judged under every option set: whatever the option makes of them
    (now a finding, now another score), the native engine agrees with the reference."""
    docs = _defaults(120)
    total = 0
    for options in OPTION_SETS:
        _, clean, taken = _compare(docs, options)
        assert taken == clean
        total += taken
    assert total >= 60 * len(OPTION_SETS)


def test_the_two_phase_auction_is_left_to_the_reference() -> None:
    """auction_model = two_phase is not native: every hand goes to the reference."""
    options = {"auction_model": "two_phase"}
    docs = _simulate(options, 24, 4)
    cfg = native.config(ZR_STD.with_options(options))
    assert cfg is not None
    for doc in docs:
        for hd in doc["hands"]:
            acts = [_action(a) for a in hd["actions"]]
            assert native.play_hand(cfg, hd["dealer"], hd["deal"]["hands"], acts) is None


def test_every_played_sample_hand_is_taken_and_scored_as_recorded() -> None:
    """The worked full deals of zwanzigerrufen.md §7.9 (sample_logs/zwanzigerrufen): clean
    hands, each taken by the native engine with the reference's and the recorded scores."""
    from pathlib import Path

    from tarock_logs.log.reader import read_paths
    from tarock_logs.verdict.convert import to_engine_action

    root = Path(__file__).resolve().parents[3] / "sample_logs" / "zwanzigerrufen"
    taken = 0
    for r in read_paths([root]):
        s = r.session
        assert s is not None
        rs = ENGINE.ruleset(s.ruleset).with_options(dict(s.options))
        cfg = native.config(rs)
        assert cfg is not None
        ss = ENGINE.new_session(rs, 4)
        for hand in s.hands:
            assert hand.deal is not None and hand.result is not None
            acts = [to_engine_action(a) for a in hand.actions]
            before = (ss.games, tuple(ss.windows), ss.next_dealer)
            h = ss.new_hand(hand.dealer, hand.deal.hands, ())
            for a in acts:
                assert h.push(a) == []
            score = h.score()
            ss.end_hand(h, score)
            got = native.play_hand(cfg, hand.dealer, hand.deal.hands, acts, before)
            assert got is not None
            assert got.totals == tuple(score.totals) == tuple(hand.result.scores)
            taken += 1
    assert taken >= 4


def test_claims_after_the_play_are_scored_alike() -> None:
    """Trull and Four Kings claimed after the play by the seats dealt them (and a false claim
    by a seat that was not: the reference reports it, the native engine declines)."""
    from tarock_logs.rules.zwanzigerrufen.tricks import KING_CARDS, TRULL_CARDS

    docs = _defaults(300)
    claims = false = 0
    for doc in docs:
        for hd in doc["hands"]:
            for seat, cards in enumerate(hd["deal"]["hands"]):
                for claim, need in (("trull", TRULL_CARDS), ("four_kings", KING_CARDS)):
                    if need <= set(cards):
                        hd["actions"].append({"type": "claim", "seat": seat, "claim": claim})
                        claims += 1
        hd = doc["hands"][0]
        seat = next(s for s, c in enumerate(hd["deal"]["hands"]) if "HK" not in c)
        hd["actions"].append({"type": "claim", "seat": seat, "claim": "four_kings"})
        false += 1
    _hands, clean, taken = _compare(docs, {})
    assert taken == clean and claims >= 10 and false == len(docs)
