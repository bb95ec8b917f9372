"""The native whole hand (``tarock_logs/_native/slohand.h``) against the reference engine,
position by position: the differential harness of Slovenian tarok's two homes.

``fastpath.fast_replay`` plays a clean hand in one C call: the deal check, the bidding, the
king call, the talon, the discards, the announcement round (announcements and kontras
included), the cards and, under ``openspiel-2.0``, OpenSpiel's returns (else the reference
scores the tricks the C returns). The property: where the C takes a hand, the reference
engine finds nothing wrong with it; at every card the native legal set (``core.legal``, the
``tk_legal`` the C's card loop uses) is the reference's ``legal_actions()``; every trick's
winner (``core.winner``) is the reference's; the score (items, totals, carry) and the tricks
(as views, as columns, as the reference's Trick records) are the reference's; a hand with one
planted illegal action is never taken. Checked on OpenSpiel's own deals (the bench's
comparison set), on random legal games at tables of 3 and 4, on hands of every contract
under ruleset options that change the round, on planted illegal actions and bidding changes,
and on simulated sessions (1,024 hands in the suite; 100,000 with ``TAROCK_LONG_CHECKS=1``).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from tarock_logs import _native
from tarock_logs.log.models import SessionAdapter
from tarock_logs.rules.base import Action
from tarock_logs.rules.slovenian import ENGINE
from tarock_logs.rules.slovenian.contracts import Rules
from tarock_logs.rules.slovenian.fast import fastpath
from tarock_logs.rules.slovenian.fast.cardbits import CID
from tarock_logs.rules.slovenian.hand import SlovenianHand, make_play_rules
from tarock_logs.verdict.convert import to_engine_action
from tests.rules.slovenian.test_fastpath import _mutate, _mutate_bidding, _random_game
from tests.support.native_replay import replays_equal
from tests.support.simulated import simulated_sessions

pytestmark = pytest.mark.skipif(
    not _native.available(), reason=f"the native core is not loaded: {_native.why_not}"
)

LONG = os.environ.get("TAROCK_LONG_CHECKS") == "1"
OPENSPIEL = Rules(ENGINE.ruleset("openspiel"))
TOURNAMENT = Rules(ENGINE.ruleset("tournament"))
RULES = {"openspiel": OPENSPIEL, "tournament": TOURNAMENT}


def _same(a: Action) -> Action:
    return a


def _positions_alike(ref: SlovenianHand, rules: Rules, actions: list[Any], to_action: Any) -> None:
    """Replay ``actions`` on the fresh reference hand ``ref``: at every card, the native legal
    set is the reference's, and every completed trick's winner is the native one's."""
    core = _native.core
    assert core is not None
    for a in actions:
        action = to_action(a)
        if action.type == "play" and ref.phase == "play":
            want = {x.card for x in ref.legal_actions() if x.type == "play"}
            pr = make_play_rules(rules, ref.contract or "klop", ref.colour_valat())
            prot = [CID[x] for x in ref._protected] + [-1, -1]
            ints = (pr.negative, pr.pagat_restricted, pr.pagat_last_tarok, pr.by_rank,
                    pr.emperor_always, pr.colour_valat, prot[0], prot[1],
                    pr.protect_either)  # fmt: skip
            hand = sum(1 << CID[x] for x in ref.hands[action.seat])
            got = core.legal(hand, [CID[c] for _, c in ref.trick], ints)
            assert got == sum(1 << CID[x] for x in want), (ref.trick, sorted(want))
            before = len(ref.tricks)
            assert ref.push(action) == []
            if len(ref.tricks) > before:
                t = ref.tricks[-1]
                ids = [CID[c] for _, c in t.cards]
                assert t.cards[core.winner(ids, pr.colour_valat)][1] == t.winning_card
        else:
            assert ref.push(action) == []


def _native_score_alike(
    rules: Rules,
    n: int,
    dealer: int,
    hands: Any,
    talon: Any,
    actions: list[Any],
    radelci: list[int],
    score: Any,
) -> None:
    """The native home of the score (``sloscore.h``, what the store's ingest lane writes) gives
    the reference's items (item, seat, value, in order), totals, verdict and radelci after;
    under ``openspiel-2.0`` the returns come from ``openspiel.h`` (``fast_replay``'s own)."""
    core = _native.core
    assert core is not None
    cfg = fastpath.native_config(rules, n)
    scoring = fastpath.native_score_config(rules)
    assert cfg is not None and scoring is not None
    got = core.slovenian_score(cfg, scoring, dealer, hands, talon, actions, fastpath._SH_KINDS,
                               fastpath._CONTRACT_INDEX, CID, fastpath.CONTRACT_CODES,
                               list(radelci))  # fmt: skip
    if rules.openspiel_scoring:
        assert got is None
        return
    assert got is not None, "sloscore.h declined a hand the reference scores"
    contract, declarer, partner, won, items, totals, rad_after = got
    assert (contract, declarer, partner, won) == (
        score.contract,
        score.declarer,
        score.partner,
        score.won,
    )
    assert list(items) == [(it.item, it.seat, it.value) for it in score.items]
    assert tuple(totals) == tuple(score.totals)
    assert list(rad_after) == list(score.carry_after["radelci"])


def _both(
    rules: Rules,
    n: int,
    dealer: int,
    hands: Any,
    talon: Any,
    actions: list[Any],
    radelci: list[int],
    to_action: Any = _same,
) -> bool:
    """The native whole hand and the reference on one hand: where the C takes it, assert the
    reference finds it clean, position by position (:func:`_positions_alike`), and scores it
    the same, with the same tricks. Returns whether the C took it."""
    native = fastpath.fast_replay(rules, n, radelci, [], dealer, hands, talon, actions,
                                  to_action)  # fmt: skip
    if native is None:
        return False
    assert native.findings == ()
    ref = SlovenianHand(rules, n, dealer, hands, talon, radelci=list(radelci))
    assert not ref.deal_violations
    _positions_alike(ref, rules, actions, to_action)
    assert not ref.hand_findings()
    assert ref.is_over()
    score = ref.score()
    assert native.score == score
    assert native.score.items == score.items
    assert native.score.totals == score.totals
    assert native.score.carry_after == score.carry_after
    assert callable(native.tricks)
    assert native.tricks() == ref.view()["tricks"]
    assert native.trick_rows is not None
    rows = native.trick_rows()
    assert rows.leaders == [t.leader for t in ref.tricks]
    assert rows.winners == [t.winner for t in ref.tricks]
    assert rows.cards == [tuple(c for _, c in t.cards) for t in ref.tricks]
    # the reference's Trick records, made from the C's tricks on demand
    assert native.tricks.__self__() == ref.tricks  # type: ignore[attr-defined]
    _native_score_alike(rules, n, dealer, hands, talon, actions, radelci, score)
    rebuilt = native.rebuild()
    assert rebuilt.is_over() and rebuilt.score() == native.score
    return True


def test_the_native_whole_hand_covers_tables_of_three_and_four() -> None:
    for rules in (OPENSPIEL, TOURNAMENT):
        assert fastpath.native_whole_hand(rules, 4)
        assert fastpath.native_whole_hand(rules, 3)
        assert not fastpath.native_whole_hand(rules, 5)  # the dealer sits out: the reference's


def test_the_native_whole_hand_is_off_without_the_native_core(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fastpath, "_CORE", None)
    assert not fastpath.native_whole_hand(OPENSPIEL, 4)


def test_openspiel_deals_all_take_the_native_whole_hand() -> None:
    """The bench's comparison set (OpenSpiel's seeded deals, 4 players): every hand is clean,
    and the C takes each one with the reference's result."""
    from tarock_logs import bench

    docs = bench.openspiel_sessions(600, 11)
    hands = taken = 0
    for d in docs:
        s = SessionAdapter.validate_python(d)
        for h in s.hands:
            assert h.deal is not None
            hands += 1
            taken += _both(OPENSPIEL, 4, h.dealer, h.deal.hands, h.deal.talon, h.actions, [0] * 4,
                           to_engine_action)  # fmt: skip
    assert hands >= 590 and taken == hands


@pytest.mark.parametrize("ruleset", ["openspiel", "tournament"])
@pytest.mark.parametrize("n", [3, 4])
def test_random_legal_games_take_the_native_whole_hand_alike(ruleset: str, n: int) -> None:
    """Random legal games (with radelci carried in): the C takes the clean ones without
    announcements and kontras, with the reference's result."""
    taken = plain = 0
    for seed in range(300):
        rng = random.Random(seed)
        radelci = [rng.choice((0, 0, 1, 2)) for _ in range(n)]
        h, actions = _random_game(seed, n, ruleset, radelci)
        quiet = not any(a.type in ("announce", "kontra") for a in actions)
        plain += quiet
        took = _both(RULES[ruleset], n, h.dealer, h.dealt, h.talon, actions, radelci)
        assert took or not quiet or ruleset == "tournament"
        taken += took
    assert taken >= 0.8 * plain  # the quiet hands (nearly) all; the others go to Python


def _declined(n: int, mutate: Any, seed0: int, ruleset: str) -> int:
    """How many of 400 random legal games, each with one change made by ``mutate``, the C
    declined; where it took one, ``_both`` checked it clean and alike."""
    declined = 0
    for seed in range(400):
        rng = random.Random(seed0 + seed)
        h, actions = _random_game(seed0 + 2000 + seed, n, ruleset, [0] * n)
        bad = mutate(rng, h, actions)
        declined += not _both(RULES[ruleset], n, h.dealer, h.dealt, h.talon, bad, [0] * n)
    return declined


@pytest.mark.parametrize("ruleset", ["openspiel", "tournament"])
@pytest.mark.parametrize("n", [3, 4])
def test_the_native_whole_hand_never_takes_a_planted_illegal_action(ruleset: str, n: int) -> None:
    """One action of a legal hand replaced (another card, held or not; a card out of turn; a
    bid, discard, call or talon pick changed; an action dropped): where the C takes the hand,
    the reference finds nothing wrong with it (``_both``); most are declined."""
    assert _declined(n, _mutate, 5000, ruleset) >= 300


@pytest.mark.parametrize("ruleset", ["openspiel", "tournament"])
@pytest.mark.parametrize("n", [3, 4])
def test_the_native_bidding_stops_at_the_first_doubt(ruleset: str, n: int) -> None:
    """The bidding changed (out of turn, after a pass, too low, klop or three bid, unknown,
    not at this table, twice, dropped): the C takes only what the reference finds clean."""
    assert _declined(n, _mutate_bidding, 9000, ruleset) >= 150


def test_an_unusual_deal_is_left_to_the_reference() -> None:
    """A card twice, a short hand, a card outside the pack: the C declines (the deal check's
    findings are the reference's to report)."""
    h, actions = _random_game(3, 4, "openspiel", [0] * 4)
    cfg = fastpath._native_config(OPENSPIEL, 4)
    assert cfg is not None

    def run(hands: Any, talon: Any) -> Any:
        inputs = fastpath.HandInputs(OPENSPIEL, 4, [0] * 4, [], h.dealer, hands, talon, actions,
                                     _same)  # fmt: skip
        return fastpath._native_hand(cfg, inputs)

    assert run(h.dealt, h.talon) is not None
    dealt = [list(x) for x in h.dealt]
    assert run([dealt[0], dealt[1], dealt[2], dealt[3][:-1]], h.talon) is None
    assert run([dealt[0], dealt[1], dealt[2], [*dealt[3][:-1], dealt[0][0]]], h.talon) is None
    assert run([dealt[0], dealt[1], dealt[2], [*dealt[3][:-1], "X9"]], h.talon) is None
    assert run(dealt[:3], h.talon) is None
    assert run(dealt, list(h.talon)[:5]) is None


@pytest.mark.parametrize("ruleset", ["openspiel-2.0", "si-tournament-2021"])
def test_simulated_sessions_replay_alike_with_and_without_the_native_core(
    ruleset: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The whole replay (verdicts, scores, carries, tricks) of simulated sessions at tables
    of 3 and 4, with the native core and without it: 1,024 hands per ruleset in the suite,
    100,000 with TAROCK_LONG_CHECKS=1. The simulated sessions are shared with the other
    native-replay differentials (tests/support/simulated.py): the first 512 hands of each."""
    n = 50_000 if LONG else 512
    for table in (3, 4):
        sessions = simulated_sessions(ruleset, table, n)
        hands, fast = replays_equal(sessions, fastpath, monkeypatch, python_fast_path=False)
        assert hands == n and fast >= 0.95 * n


def test_only_frozen_classes_of_one_type_are_read_by_class() -> None:
    """The C takes an action's kind from its class only for a class whose every instance has
    the same ``type`` (frozen, a ``Literal`` of one kind): the log format's ``Play`` and
    ``Bid``; a mutable class, one of two types or of another kind is read field by field."""
    from typing import Literal

    from pydantic import BaseModel, ConfigDict

    from tarock_logs.log import models as m

    class Mutable(BaseModel):
        type: Literal["play"]

    class TwoTypes(BaseModel):
        model_config = ConfigDict(frozen=True)
        type: Literal["play", "bid"]

    class OtherKind(BaseModel):
        model_config = ConfigDict(frozen=True)
        type: Literal["claim"]

    for cls in (m.Play, m.Bid, Mutable, TwoTypes, OtherKind, int):
        fastpath._learn_action_class(cls)
    kinds = fastpath._SH_KINDS
    assert kinds[m.Play] == kinds["play"] and kinds[m.Bid] == kinds["bid"]
    assert not {Mutable, TwoTypes, OtherKind, int} & set(kinds)


#: ruleset options that change the announcement round or the play after it
ROUND_OPTIONS = (
    {},
    {"kontra_levels": 4},
    {"kontra_levels": 2, "announced_card_protection": False},
    {"announced_valat_declarer_leads": False, "solo_brez_bonuses": False},
    {"lezim_without_bonuses": "none", "klop_kontra": False},
    {"announcements": False, "kontra_levels": 3},
    {"kontra_levels": 0},
)
#: ruleset options that change the score (what sloscore.h reads of the ruleset)
SCORE_OPTIONS = (
    {"radelci": False, "difference_rounding": "nearest_5", "klop_points_rounding": "nearest_5"},
    {"silent_ultimo_failure_counts": True, "trula_kralji_count_talon_remainder": False},
    {"mondfang_when_valat": True, "valat_contract_value": 500, "solo_brez_difference": False,
     "klop_kontra_full_and_empty_doubled": True, "radelci_from_silent_valat": True},
)  # fmt: skip


@pytest.mark.parametrize(
    "options", ROUND_OPTIONS + SCORE_OPTIONS, ids=lambda o: ",".join(map(str, o)) or "tournament"
)
def test_announcements_and_kontras_take_the_native_whole_hand_alike(
    options: dict[str, Any],
) -> None:
    """Spec 7 (the announcement round): random legal hands of every contract, at tables of 3
    and 4, under ruleset options that change the round (kontra levels up to mord, no
    protection of announced cards, no ležim, no kontra on klop, no announcements, ...): where
    the C takes a hand with announcements or kontras, the reference finds it clean,
    position by position (``_both``); the C takes most of them."""
    from tarock_logs.rules.slovenian.contracts import CONTRACTS
    from tests.rules.slovenian.randomgame import contract_game

    rules = Rules(ENGINE.ruleset("tournament", options or None))
    announced = taken = 0
    for n in (3, 4):
        for contract in CONTRACTS:
            for seed in range(12):
                game = contract_game(seed, n, "tournament", contract, [seed % 2] * n, options)
                if game is None:
                    continue
                h, actions = game
                loud = any(a.type in ("announce", "kontra") for a in actions)
                took = _both(rules, n, h.dealer, h.dealt, h.talon, actions, [seed % 2] * n)
                announced += loud
                taken += took and loud
    if rules.announcements or rules.kontra_levels:
        assert announced >= 40
        assert taken >= 0.75 * announced


def _mutate_round(rng: random.Random, h0: Any, actions: list[Action]) -> list[Action]:
    """One change in the announcement round: an announcement of another bonus or by another
    seat, a kontra on another target, at another level or by another seat, a pass or ležim by
    another seat, an action of the round dropped or said twice."""
    first = next((i for i, a in enumerate(actions) if a.type == "play"), len(actions))
    start = max((i + 1 for i, a in enumerate(actions[:first])
                 if a.type in ("bid", "call", "talon", "discard")), default=0)  # fmt: skip
    i = rng.randrange(start, first + 1) if first > start else first
    out = list(actions)
    seat = rng.randrange(h0.table_size)
    bonus = rng.choice(("trula", "kralji", "pagat_ultimo", "kralj_ultimo", "valat",
                        "barvni_valat", "bogus"))  # fmt: skip
    kind = rng.randrange(6)
    if kind == 0:
        out.insert(i, Action("announce", seat, bonus=bonus))
    elif kind == 1:
        target = rng.choice(("game", "game", bonus))
        out.insert(i, Action("kontra", seat, target=target, level=rng.choice((1, 1, 2, 3))))
    elif kind == 2:
        out.insert(i, Action(rng.choice(("pass", "lezim")), seat))
    elif kind == 3 and i < first:
        del out[i]
    elif kind == 4 and i < first:
        out.insert(i, out[i])
    else:
        out.insert(i, Action("kontra", seat, target="game", level=None))
    return out


@pytest.mark.parametrize("n", [3, 4])
@pytest.mark.parametrize(
    "options", ROUND_OPTIONS[:3], ids=lambda o: ",".join(map(str, o)) or "tournament"
)
def test_a_changed_announcement_round_is_taken_only_when_clean(
    n: int, options: dict[str, Any]
) -> None:
    """Spec 7.2-7.5: one change in the announcement round (a bonus that may not be announced,
    by a seat whose turn it is not or on the wrong side, a kontra that may not be given or
    at the wrong level, a pass out of turn, an action dropped or repeated): where the C takes
    the hand, the reference finds nothing wrong with it; most are declined."""
    from tests.rules.slovenian.randomgame import contract_game

    rules = Rules(ENGINE.ruleset("tournament", options or None))
    declined = tried = 0
    for seed in range(300):
        rng = random.Random(7000 + seed)
        contract = rng.choice(
            ("three", "two", "one", "solo_three", "solo_one", "solo_brez", "klop")
        )
        game = contract_game(seed, n, "tournament", contract, None, options)
        if game is None:
            continue
        h, actions = game
        bad = _mutate_round(rng, h, actions)
        tried += 1
        declined += not _both(rules, n, h.dealer, h.dealt, h.talon, bad, [0] * n)
    assert tried >= 200 and declined >= 0.5 * tried
