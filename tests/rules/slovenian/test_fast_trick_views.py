"""The native engine's trick views and columns (what the store keeps for each trick), made
straight from its trick records, equal the reference's ``view()["tricks"]``: every contract
(klop with its talon gifts, berač and valat ending early, the talon contracts) at tables of
3 and 4 under both rulesets (a table of 5 is the reference's)."""

from __future__ import annotations

import pytest

from tarock_logs import _native
from tarock_logs.rules.slovenian.contracts import CONTRACTS
from tarock_logs.rules.slovenian.fast.fastpath import HandTricks
from tests.rules.slovenian.randomgame import contract_game
from tests.rules.slovenian.test_fastpath import _same, _session

GAMES_PER_CONTRACT = 6


@pytest.mark.skipif(not _native.available(), reason=f"native core: {_native.why_not}")
@pytest.mark.parametrize("ruleset", ["tournament", "openspiel"])
@pytest.mark.parametrize("n", [3, 4])
def test_views_from_the_records_equal_the_views_of_the_trick_objects(ruleset: str, n: int) -> None:
    taken = 0
    contracts: set[str] = set()
    gifts = early = 0
    for contract in CONTRACTS:
        for seed in range(GAMES_PER_CONTRACT):
            game = contract_game(seed, n, ruleset, contract)
            if game is None:
                continue
            h, actions = game
            s = _session(ruleset, n, [0] * n)
            got = s.fast_replay(h.dealer, [list(x) for x in h.dealt], list(h.talon), actions, _same)
            if got is None:
                continue
            assert callable(got.tricks) and got.trick_rows is not None
            tricks = got.tricks.__self__  # type: ignore[attr-defined]
            assert isinstance(tricks, HandTricks)
            fresh = got.tricks()  # before the Trick objects exist
            rows = got.trick_rows()
            assert fresh == h.view()["tricks"]
            assert tricks() == h.tricks  # the reference's Trick records
            # the same tricks as columns (what the store takes)
            assert rows.leaders == [t["leader"] for t in fresh]
            assert rows.winners == [t["winner"] for t in fresh]
            assert [
                list(zip(s_, c_, strict=True))
                for s_, c_ in zip(rows.seats, rows.cards, strict=True)
            ] == [[tuple(p) for p in t["cards"]] for t in fresh]
            assert rows.points == [t["points"] for t in fresh]
            taken += 1
            contracts.add(contract)
            gifts += sum(1 for t in fresh if t["gift"])
            early += len(fresh) < h.tricks_total
    assert taken >= 20
    assert gifts > 0 and early > 0  # klop gifts and hands that end early were seen
    assert {"klop", "three", "berac"} <= contracts
