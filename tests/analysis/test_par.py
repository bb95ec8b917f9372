"""Before the first trick (issue 34 item 3): the par of the talon exchange, all cards visible.

Each discard is the whole hand's value from its first card with the recorded announcements
(docs/analysis.md, "Before the first trick (par)"); a talon group is the best of its discards;
equivalent discards are valued once; a search the budget stops is undecided (or a bound), never
a number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tarock_logs.analysis.games import analysis_for
from tarock_logs.analysis.native import make_solver
from tarock_logs.analysis.par import Choice, HandPar, ParValue, iter_pars
from tarock_logs.analysis.slovenian_par import equivalence_classes
from tarock_logs.cli import app
from tarock_logs.log.reader import read_paths
from tarock_logs.rules.slovenian.hand import SlovenianHand
from tarock_logs.verdict.replay import replay_session
from tests.analysis.par_support import par_log

DISPUTED = Path("sample_logs/disputed/round-1.jsonl")


def _pars(path: Path, **kw: object) -> list[HandPar]:
    """The par of the first session of ``path``."""
    for rec in read_paths([path], []):
        if rec.session is not None:
            return iter_pars(rec.session, **kw)  # type: ignore[arg-type]
    return []


def _first_card_value(path: Path, hand: int) -> int:
    """The all-cards-visible value of the recorded hand's first card position."""
    g = analysis_for("slovenian")
    assert g is not None
    for rec in read_paths([path], []):
        s = rec.session
        assert s is not None
        rp = replay_session(s)[hand - 1]
        state = rp.state
        assert isinstance(state, SlovenianHand)
        h = state.copy()
        while h.phase != "play" or h.tricks or h.trick:
            h.pop()
        pos, setting = g.read_position(h)
        return make_solver(setting).value(pos)
    raise AssertionError("no session")


@pytest.fixture(scope="module")
def cheap(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return par_log(tmp_path_factory.mktemp("par") / "par.jsonl")


@pytest.fixture(scope="module")
def cheap_par(cheap: Path) -> HandPar:
    (hp,) = _pars(cheap, budget=5_000_000, hand_budget=0, contracts=False)
    return hp


def test_the_recorded_discard_is_marked_and_worth_the_first_card_position(
    cheap: Path, cheap_par: HandPar
) -> None:
    rec = [d for d in cheap_par.discards if d.recorded]
    assert len(rec) == 1 and rec[0].cards == ("H1",)
    assert [g.group for g in cheap_par.groups if g.recorded] == [2]
    assert cheap_par.recorded_value == ParValue(_first_card_value(cheap, 1))


@pytest.fixture(scope="module")
def cheap_exact(cheap: Path) -> HandPar:
    (hp,) = _pars(cheap, budget=5_000_000, hand_budget=0, contracts=False, exact=True)
    return hp


def test_a_group_is_worth_the_best_of_its_discards(cheap_exact: HandPar) -> None:
    (mine,) = [g for g in cheap_exact.groups if g.recorded]
    values = [d.value.value for d in cheap_exact.discards]
    assert None not in values and mine.decided == mine.discards == len(values)
    assert mine.value.value == max(v for v in values if v is not None)
    assert all(g.value.decided for g in cheap_exact.groups) and not cheap_exact.budget_hit


def test_a_discard_no_better_than_the_best_is_settled_by_a_bound_that_holds(
    cheap_par: HandPar, cheap_exact: HandPar
) -> None:
    # the default par tests each discard against the best so far: one that is no better gets
    # the test's bound (at most it, the declarer side maximising), which holds its exact value
    exact = {d.cards: d.value.value for d in cheap_exact.discards}
    for d in cheap_par.discards:
        v = exact[d.cards]
        assert v is not None
        if d.value.decided:
            assert d.value.value == v
        else:
            assert d.value.low is None and d.value.high is not None and v <= d.value.high
            assert d.value.text() == f"≤ {d.value.high}"
    # every group's value is the exact par's, and costs fewer searched cards
    assert [g.value for g in cheap_par.groups] == [g.value for g in cheap_exact.groups]
    assert all(g.decided == g.discards for g in cheap_par.groups)
    assert cheap_par.nodes <= cheap_exact.nodes


def test_equivalent_discards_are_valued_once_and_listed_together(cheap_par: HandPar) -> None:
    # the declarer holds T12 … T22 after his group: the plain taroks T12 … T20 are one class
    # (nobody else holds a tarok between them), the heart pip another; kings and trula never
    assert sorted(d.equivalent for d in cheap_par.discards) == [
        (("H1",),), tuple((f"T{n}",) for n in range(12, 21))]  # fmt: skip
    cls = equivalence_classes({"T5", "T6", "T8", "H1", "H2", "HJ"}, {"T7", "H3"})
    assert cls["T5"] == cls["T6"] != cls["T8"]  # T7 held by another player between them
    assert cls["H1"] == cls["H2"] != cls["HJ"]  # same suit and points; the jack has more


def test_a_search_the_budget_stops_is_undecided_never_a_number(cheap: Path) -> None:
    (hp,) = _pars(cheap, budget=1_000, hand_budget=0, contracts=False)
    assert hp.budget_hit
    assert all(o.value == ParValue() for o in [*hp.groups, *hp.discards])
    assert all(o.value.text() == "undecided" for o in hp.groups)


def test_a_choice_with_some_options_undecided_gets_a_bound() -> None:
    up, down = Choice(True), Choice(False)
    for v in (3, None, 7):
        up.take(v)
        down.take(v)
    assert up.value() == ParValue(low=7) and down.value() == ParValue(high=3)
    both = Choice(True)
    both.take(3), both.take(7)
    assert both.value() == ParValue(7)
    none = Choice(True)
    none.take(None), none.take(None)
    assert none.value() == ParValue()
    assert ParValue(low=7).text() == "≥ 7" and ParValue(high=5).text() == "≤ 5"


def test_the_disputed_hand_8_discards_differ_and_the_group_bounds_them() -> None:
    # hand 8: tri, group 1 taken; its first card is worth -16 (10 M cards); the other
    # discards are tested against the best so far until the hand budget stops them: those
    # settled are no better (a bound), the group is at least the best valued
    (hp,) = _pars(DISPUTED, hands={8}, budget=12_000_000, hand_budget=20_000_000,
                  contracts=False)  # fmt: skip
    assert hp.recorded_value == ParValue(-16)
    decided = [d.value.value for d in hp.discards if d.value.value is not None]
    (mine,) = [g for g in hp.groups if g.recorded]
    # (a discard shown better than the best whose exact value the budget stopped raises it)
    assert hp.budget_hit and mine.value.value is None and mine.value.high is None
    assert mine.value.low is not None and mine.value.low >= max(decided)
    bounded = [d.value.high for d in hp.discards if d.value.high is not None]
    assert bounded and all(b <= max(decided) for b in bounded)
    assert mine.decided == len(decided) + len(bounded) < mine.discards
    assert all(not g.value.decided for g in hp.groups if not g.recorded)


def test_games_without_a_talon_have_no_par() -> None:
    for game in ("zwanzigerrufen", "royal"):
        g = analysis_for(game)
        assert g is not None and not g.has_exchange
    hps = _pars(Path("sample_logs/royal"), hands={1})
    assert hps and all("no talon exchange" in (h.skipped or "") and not h.groups for h in hps)


def test_analyse_par_json_keeps_every_key_and_adds_par(cheap: Path) -> None:
    res = CliRunner().invoke(app, ["analyse", str(cheap), "--par", "--format", "json",
                                   "--last-tricks", "1", "--budget", "5000000",
                                   "--hand-budget", "12000000"])  # fmt: skip
    assert res.exit_code == 0, res.output
    doc = json.loads(res.stdout)
    (hand,) = doc["hands"]
    assert {"label", "cards", "undecided", "hand_budget", "illegal_cards"} <= set(hand)
    par = hand["par"]
    assert par["label"] == "all cards visible" and par["budget"] == 5_000_000
    assert par["hand_budget"] == 12_000_000 and "announcements and kontras" in par["note"]
    assert {c["contract"] for c in par["contracts"]} >= {"solo_one", "berac", "valat"}
    assert {"lines", "lines_decided", "king", "decided"} <= set(par["contracts"][0])
    assert {g["group"] for g in par["groups"]} == set(range(6))
    rec = [d for d in par["discards"] if d["recorded"]]
    assert rec and rec[0]["cards"] == ["H1"] and rec[0]["decided"] is True
    assert set(rec[0]) >= {"value", "low", "high", "equivalent", "nodes"}


def test_analyse_par_table_in_slovenian(cheap: Path) -> None:
    res = CliRunner().invoke(app, ["analyse", str(cheap), "--par", "--last-tricks", "1",
                                   "--budget", "1000", "--lang", "sl"])  # fmt: skip
    assert res.exit_code == 0, res.output
    assert "pred prvim vzetkom (par), vse karte odprte" in res.stdout
    assert "neodločeno" in res.stdout


def test_each_contract_the_declarer_could_declare_is_valued_by_its_best_line(cheap: Path) -> None:
    # seat 1 (forehand) won the bidding after three passes: he could declare three or any
    # higher contract (spec 4.4; klop has no declarer and is left out); a contract's lines are
    # searched in turns, so the hand budget leaves each a value or a bound
    (hp,) = _pars(cheap, budget=3_000_000, hand_budget=12_000_000)
    by = {c.contract: c for c in hp.contracts}
    assert list(by) == ["three", "two", "one", "solo_three", "solo_two", "solo_one", "berac",
                        "solo_brez", "odprti_berac", "barvni_valat", "valat"]  # fmt: skip
    assert [c.contract for c in hp.contracts if c.recorded] == ["solo_one"]
    assert by["berac"].value == ParValue(-70)  # he takes a trick: berač lost
    # ena: 4 kings × 6 groups; after a tarok group one class of discards, after a heart two
    assert by["one"].discards == 4 * (2 * 1 + 4 * 2) and by["one"].king in ("HK", "DK", "SK", "CK")
    assert all(c.decided >= 1 for c in hp.contracts)
    for c in hp.contracts:  # a contract with lines left undecided is only bounded
        assert c.value.decided == (c.decided == c.discards)
    # nothing was announced: the recorded contract is worth what its best group is (or at
    # least the bound its decided lines give)
    best_group = max(g.value.value for g in hp.groups if g.value.value is not None)
    solo = by["solo_one"].value
    assert solo.value == best_group or (solo.low is not None and solo.low <= best_group)
