"""Zwanzigerrufen deals recorded as facts (a line of the club's running sheet): the engine's
``score_facts`` gives the items, values and settlement of §7.1–§7.4 and carries the double
rounds of §7.5 on, as a played deal does."""

from __future__ import annotations

import pytest

from tarock_logs.rules.base import BonusOutcome, FactsNotScored, RecordedFacts
from tarock_logs.rules.zwanzigerrufen import ENGINE

A, B, C, D = 0, 1, 2, 3
#: W16 (§7.7): dealer, contract, declarer, partner, declarer side's card points, Mondfang,
#: bonuses; the thrown-in deal after game 5 is no game and no sheet line
W16 = [
    (D, "normal", A, C, 50, ((B, A),), ()),
    (A, "normal", B, D, 40, (), ()),
    (B, "normal", C, A, 50, ((C, A),), ()),
    (C, "normal", D, B, 48, (), ()),
    (D, "solo", A, None, 45, (), ()),
    (A, "normal", B, C, 30, (), (BonusOutcome("absolut", "defenders"),)),
    (B, "normal", C, D, 45, (), ()),
    (C, "normal", D, A, 47, (), ()),
]


def _w16(stacking: str) -> tuple[list[int], list[int]]:
    session = ENGINE.new_session(ENGINE.ruleset("zr-std", {"double_round_stacking": stacking}))
    rs, totals = [], [0, 0, 0, 0]
    for dealer, contract, decl, partner, cp, mf, bonuses in W16:
        rs.append(session.multiplier())
        facts = RecordedFacts(
            contract, declarer=decl, partner=partner, card_points=cp, mondfang=mf, bonuses=bonuses
        )
        score = session.score_facts(dealer, facts)
        assert sum(score.totals) == 0  # §7.6 invariant 1
        totals = [t + s for t, s in zip(totals, score.totals, strict=True)]
    assert session.carry()["totals"] == totals
    return rs, totals


@pytest.mark.parametrize(
    ("stacking", "multipliers", "final"),
    [
        ("multiply", [1, 2, 2, 4, 4, 2, 2, 1], [51, -23, -19, -9]),
        ("cap", [1, 2, 2, 2, 2, 2, 2, 1], [29, -17, -9, -3]),
        ("extend", [1, 2, 2, 2, 2, 2, 2, 2], [30, -18, -10, -2]),
    ],
)
def test_w16_as_a_running_sheet_gives_the_specs_multipliers_and_totals(
    stacking, multipliers, final
):
    """§7.7 W16, "Mondfang and the double round (eight games of one session)", under each
    ``double_round_stacking``: the double rounds come from the recorded Mondfang alone."""
    assert _w16(stacking) == (multipliers, final)


def test_w1_and_w15_items_from_facts():
    """§7.7 W1 (Kontra on the game, Absolut dagegen with Kontra, Pagat dagegen with Kontra:
    P1/P3 −2−4... as the spec's table) and W15a (the game at Resupra, ×16)."""
    s = ENGINE.new_session(ENGINE.ruleset("zr-std"))
    w15a = RecordedFacts("normal", declarer=0, partner=2, card_points=51, kontras=(("game", 4, 1),))
    assert s.score_facts(3, w15a).totals == (16, -16, 16, -16)
    w1 = RecordedFacts(
        "normal", declarer=0, partner=2, card_points=40,
        bonuses=(BonusOutcome("absolut", "defenders", True, False),
                 BonusOutcome("pagat", "defenders", True, True)),
        kontras=(("game", 1, 1), ("absolut", 1, 2), ("pagat", 1, 0)),
    )  # fmt: skip
    items = {(i.item, i.seat): i.value for i in s.score_facts(3, w1).items}
    assert (items[("game", 0)], items[("absolut", 0)], items[("pagat", 0)]) == (-2, 4, -4)


@pytest.mark.parametrize(
    ("facts", "why"),
    [
        (RecordedFacts("normal", partner=2, card_points=50), "declarer"),
        (RecordedFacts("solo", declarer=0, partner=2, won=True), "alone"),
        (RecordedFacts("normal", declarer=0, partner=2), "won"),
        (RecordedFacts("normal", declarer=0, partner=2, card_points=40, won=True), "lose"),
        (RecordedFacts("farbensolo", declarer=0, won=True,
                       bonuses=(BonusOutcome("trull", "declarer"),)), "Farbensolo"),
        (RecordedFacts("normal", declarer=0, partner=2, won=True,
                       kontras=(("trull", 1, None),)), "Kontra"),
    ],
)  # fmt: skip
def test_facts_that_do_not_settle_the_score_are_not_scored_and_say_why(facts, why):
    s = ENGINE.new_session(ENGINE.ruleset("zr-std"))
    with pytest.raises(FactsNotScored, match=why):
        s.score_facts(3, facts)
    assert s.carry()["games"] == 0


def test_the_engine_declares_its_fact_terms_and_that_the_game_is_zero_sum():
    rs = ENGINE.ruleset("zr-std")
    terms = ENGINE.fact_terms(rs)
    assert terms.contracts == ("normal", "farbensolo", "solo")
    assert set(terms.bonuses) == {"valat", "absolut", "pagat", "trull", "four_kings"}
    assert ENGINE.zero_sum(rs)
