"""The simulator: dealing, reproducibility, hands that replay clean, planted disputes, CLI."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.cards import PACKS
from tarock_logs.cli import app
from tarock_logs.log.models import SessionAdapter
from tarock_logs.rules import get_engine
from tarock_logs.tools.simulate import (
    DISPUTE_KINDS,
    SimulationError,
    TournamentSpec,
    deal_pack,
    simulate_tournament,
    write_result,
)
from tarock_logs.verdict.audit import audit_session
from tarock_logs.verdict.tournament import audit_tournaments

needs_engine = pytest.mark.skipif(
    get_engine("slovenian") is None, reason="the Slovenian engine has not landed yet"
)
ENGINE = get_engine("slovenian")


def _sessions(folder: Path) -> list[tuple[str, object]]:
    out = []
    for f in sorted(folder.glob("*.jsonl")):
        for line in f.read_bytes().splitlines():
            out.append((f.name, SessionAdapter.validate_json(line)))
    return out


@pytest.mark.parametrize(("size", "dealer"), [(3, 2), (4, 1), (5, 3)])
def test_deal_gives_talon_of_six_and_packets_to_the_active_players(size: int, dealer: int) -> None:
    from random import Random

    hands, talon = deal_pack(
        ENGINE, ENGINE.ruleset(ENGINE.default_ruleset), Random(1), dealer, size
    )
    assert len(talon) == 6
    active = 3 if size == 3 else 4
    sizes = [len(h) for h in hands]
    assert sum(sizes) + 6 == 54
    assert sorted(set(sizes) - {0}) == [48 // active]
    if size == 5:
        assert hands[dealer] == []  # the dealer sits out at a table of 5
    assert sorted([c for h in hands for c in h] + talon) == sorted(PACKS["slovenian"])


def test_deal_follows_section_3_4_packet_order() -> None:
    """Talon first, then packets of 6 to P1, P2, P3, P4 and a second round."""
    from random import Random

    deck = list(PACKS["slovenian"])
    Random(9).shuffle(deck)
    rs = ENGINE.ruleset(ENGINE.default_ruleset)
    hands, talon = deal_pack(ENGINE, rs, Random(9), 3, 4)  # dealer 3: P1 is seat 0
    assert talon == deck[:6]
    assert set(hands[0]) == set(deck[6:12] + deck[30:36])
    assert set(hands[3]) == set(deck[24:30] + deck[48:54])


def test_a_game_without_engine_or_players_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    result = CliRunner().invoke(app, ["simulate", "--game", "chess", "-o", "unused"])
    assert result.exit_code == 2 and "no rules engine for 'chess'" in result.output
    import tarock_logs.tools.simulate as sim

    monkeypatch.setattr(sim, "get_engine", lambda game: None)
    with pytest.raises(SimulationError, match="no rules engine for 'royal' yet"):
        simulate_tournament(TournamentSpec(seed=1, game="royal", tables=(4,), rounds=1))
    monkeypatch.undo()
    monkeypatch.setattr(sim, "get_policy", lambda game: None)
    if get_engine("royal") is not None:
        with pytest.raises(SimulationError, match="no simulated players for 'royal' yet"):
            simulate_tournament(TournamentSpec(seed=1, game="royal", tables=(4,), rounds=1))


@pytest.mark.parametrize("game", ["slovenian", "zwanzigerrufen", "royal"])
def test_every_game_simulates_with_the_default_tables(tmp_path: Path, game: str) -> None:
    """``tarock simulate --game G`` without ``--tables``: three tables a round, each at a size
    the game is played at (4,4,5 for tarok; fours for the games of four)."""
    result = CliRunner().invoke(
        app, ["simulate", "--game", game, "--rounds", "1", "--games-per-round", "2",
              "-o", str(tmp_path)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "round-1.jsonl").read_bytes().splitlines()
    sizes = sorted(len(orjson.loads(line)["players"]) for line in lines)
    assert sizes == ([4, 4, 5] if game == "slovenian" else [4, 4, 4])


def test_more_disputes_than_sessions_is_a_usage_error(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app, ["simulate", "--tables", "4", "--rounds", "1", "--plant-disputes", "2",
              "-o", str(tmp_path)],
    )  # fmt: skip
    assert result.exit_code == 2


@needs_engine
def test_same_seed_gives_byte_identical_files(tmp_path: Path) -> None:
    args = ["simulate", "--seed", "42", "--tables", "4,5", "--rounds", "1",
            "--games-per-round", "4", "--plant-disputes", "2"]  # fmt: skip
    for out in ("a", "b"):
        result = CliRunner().invoke(app, [*args, "-o", str(tmp_path / out)])
        assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["README.md", "disputes.manifest", "round-1.jsonl"]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    other = CliRunner().invoke(app, [*args[:2], "43", *args[3:], "-o", str(tmp_path / "c")])
    assert other.exit_code == 0
    assert (tmp_path / "c" / "round-1.jsonl").read_bytes() != (
        tmp_path / "a" / "round-1.jsonl"
    ).read_bytes()


@needs_engine
def test_tournament_structure_rounds_tables_and_metadata(tmp_path: Path) -> None:
    result = simulate_tournament(TournamentSpec(seed=3, tables=(4, 5), rounds=2, games_per_round=4))
    write_result(result, tmp_path)
    sessions = _sessions(tmp_path)
    assert [f for f, _ in sessions] == ["round-1.jsonl"] * 2 + ["round-2.jsonl"] * 2
    for _, s in sessions:
        n = len(s.players)
        assert len(s.hands) == (5 if n == 5 else 4)
        assert s.event.tournament == "sim-slovenian-3" and s.event.round in (1, 2)
        assert [h.dealer for h in s.hands] == [(h.number - 1) % n for h in s.hands]
        totals = [sum(h.result.scores[i] for h in s.hands) for i in range(n)]
        assert s.recorded.totals == totals
        assert sorted(s.recorded.placement_points, reverse=True)[0] == 5
    # every player plays once per round
    for rnd in (1, 2):
        ids = [p.id for _, s in sessions if s.event.round == rnd for p in s.players]
        assert len(ids) == len(set(ids)) == 9


@needs_engine
def test_every_simulated_hand_replays_legal_with_recorded_equal_to_recomputed(
    tmp_path: Path,
) -> None:
    result = simulate_tournament(
        TournamentSpec(seed=5, tables=(4, 4, 5), rounds=1, games_per_round=8)
    )
    write_result(result, tmp_path)
    audits = [audit_session(s, file=f) for f, s in _sessions(tmp_path)]
    audit_tournaments(audits)
    contracts: Counter[str | None] = Counter()
    for sa in audits:
        assert not sa.discrepancies, sa.discrepancies
        for ha in sa.hands:
            assert ha.legal, [v.code for v in ha.violations]
            assert not ha.unverified, ha.unverified
            assert ha.discrepancies == [], (ha.session, ha.hand, ha.discrepancies)
            contracts[ha.contract] += 1
    assert sum(contracts.values()) == 8 + 8 + 10


@needs_engine
def test_planted_disputes_are_each_found_by_the_audit(tmp_path: Path) -> None:
    result = simulate_tournament(
        TournamentSpec(
            seed=8, tables=(4, 4, 4, 4, 5), rounds=1, games_per_round=8, plant_disputes=5
        )
    )
    write_result(result, tmp_path)
    manifest = orjson.loads((tmp_path / "disputes.manifest").read_bytes())
    assert sorted(p["kind"] for p in manifest) == sorted(DISPUTE_KINDS)
    audits = {sa.session: sa for sa in (audit_session(s, file=f) for f, s in _sessions(tmp_path))}
    audit_tournaments(list(audits.values()))
    for p in manifest:
        sa = audits[p["session"]]
        expect = p["expect"]
        if "violations" in expect:
            ha = next(h for h in sa.hands if h.hand == p["hand"])
            found = {(v.action_index, v.code) for v in ha.violations if v.severity == "error"}
            for code in expect["violations"]:
                assert (p["action_index"], code) in found
        elif "item" in expect:
            ha = next(h for h in sa.hands if h.hand == p["hand"])
            items = {(d.item, d.seat, d.recorded, d.recomputed) for d in ha.discrepancies}
            for seat in expect["seats"]:
                assert (expect["item"], seat, expect["recorded"], expect["recomputed"]) in items
        else:
            pp = expect["placement_points"]
            found = {d.seat for d in sa.discrepancies if d.item == "placement_points"}
            assert found == set(pp["seats"])
        # the other hands of the session are clean
        for ha in sa.hands:
            if ha.hand != p["hand"]:
                assert ha.legal and not ha.discrepancies, (ha.session, ha.hand)


@pytest.mark.skipif(get_engine("zwanzigerrufen") is None, reason="no Zwanzigerrufen engine yet")
def test_zwanzigerrufen_sessions_replay_clean_with_the_generic_players(tmp_path: Path) -> None:
    result = simulate_tournament(
        TournamentSpec(seed=4, game="zwanzigerrufen", tables=(4, 4), rounds=1, games_per_round=6,
                       plant_disputes=2)
    )  # fmt: skip
    write_result(result, tmp_path)
    planted = {p.session: p for p in result.planted}
    assert sorted(p.kind for p in planted.values()) == ["illegal_card", "wrong_score_item"]
    audits = [audit_session(s, file=f) for f, s in _sessions(tmp_path)]
    for sa in audits:
        assert sa.game == "zwanzigerrufen"
        p = planted[sa.session]
        for ha in sa.hands:
            if ha.hand == p.hand:
                assert (not ha.legal) or ha.discrepancies
            else:
                assert ha.legal and not ha.discrepancies and not ha.unverified, ha.hand


def test_a_table_the_engine_cannot_seat_is_a_clear_error() -> None:
    with pytest.raises(SimulationError, match="table of 5"):
        simulate_tournament(TournamentSpec(seed=1, game="zwanzigerrufen", tables=(5,), rounds=1))


@pytest.mark.skipif(get_engine("royal") is None, reason="no Royal Tarock engine yet")
def test_royal_matches_seat_two_pairs_alternate_dealers_and_replay_clean(tmp_path: Path) -> None:
    """Royal Tarock: seats are Abfänger/Eintreiber of pair A then pair B, the defending
    Eintreiber deals (seats 1 and 3 alternate), XIX and XX go to the attackers."""
    result = simulate_tournament(
        TournamentSpec(seed=6, game="royal", tables=(4,), rounds=1, games_per_round=8)
    )
    write_result(result, tmp_path)
    ((_, session),) = _sessions(tmp_path)
    assert [(p.pair, p.role) for p in session.players] == [
        ("A", "abfaenger"),
        ("A", "eintreiber"),
        ("B", "abfaenger"),
        ("B", "eintreiber"),
    ]
    assert [h.dealer for h in session.hands] == [1, 3] * 4
    for h in session.hands:
        assert "T19" in h.deal.hands[(h.dealer + 1) % 4]
        assert "T20" in h.deal.hands[(h.dealer + 2) % 4]
    sa = audit_session(session)
    assert not sa.discrepancies
    for ha in sa.hands:
        assert ha.legal and not ha.discrepancies, (ha.hand, ha.violations, ha.discrepancies)


def test_a_partner_kontra_is_never_planted_at_a_table_of_three() -> None:
    from tarock_logs.tools.simulate import _assign_plants

    kinds = ["illegal_card", "bad_kontra", "wrong_score_item"]
    out = _assign_plants([0, 1, 2], kinds, (4, 3, 4))
    assert out[1] != "bad_kontra" and sorted(out.values()) == sorted(kinds)
    assert "bad_kontra" not in _assign_plants([0, 1], ["bad_kontra", "bad_kontra"], (3,)).values()


@needs_engine
def test_disputes_plant_at_tables_of_three(tmp_path: Path) -> None:
    result = simulate_tournament(
        TournamentSpec(seed=12, tables=(3,), rounds=4, games_per_round=16, plant_disputes=4)
    )
    assert sorted(p.kind for p in result.planted) == [
        "bad_discard",
        "illegal_card",
        "illegal_card",
        "wrong_score_item",
    ]


def test_the_duplicate_movement_keeps_seats_and_never_meets_twice_in_a_prime_cycle() -> None:
    """Five tables of four (5 is prime and more than 4 − 1): the seat-s player moves s tables
    up each round, so over five rounds no two players sit at one table twice."""
    from itertools import combinations

    from tarock_logs.tools.simulate import duplicate_seating

    start = [f"p{i:02d}" for i in range(20)]
    met: Counter[tuple[str, str]] = Counter()
    for rnd in range(1, 6):
        seating = duplicate_seating(start, 4, rnd)
        assert sorted(seating) == start
        for i, p in enumerate(seating):
            assert i % 4 == start.index(p) % 4  # everyone keeps their seat
        for t in range(5):
            met.update(combinations(sorted(seating[4 * t : 4 * t + 4]), 2))
    assert max(met.values()) == 1
    assert duplicate_seating(start, 4, 2)[5] == start[1]  # table A's seat 1 moved to B


def test_a_duplicate_tournament_deals_each_round_the_same_cards_at_every_table() -> None:
    spec = TournamentSpec(seed=3, tables=(4, 4), rounds=2, games_per_round=3, duplicate=True)
    result = simulate_tournament(spec)
    assert spec.command().endswith("--duplicate -o <this folder>")
    for sessions in result.files.values():
        a, b = sessions
        assert a["event"]["tournament"] == "sim-slovenian-3-duplicate"
        for ha, hb in zip(a["hands"], b["hands"], strict=True):
            assert ha["dealer"] == hb["dealer"] and ha["deal"] == hb["deal"]
        assert len({orjson.dumps(h["deal"]) for h in a["hands"]}) == 3  # three deals
    first, second = (s[0]["hands"][0]["deal"] for s in result.files.values())
    assert first != second  # a new round, new deals
    again = simulate_tournament(spec)
    assert again.files == result.files
    with pytest.raises(SimulationError, match="all of one size"):
        simulate_tournament(TournamentSpec(seed=3, tables=(4, 5), duplicate=True))
    with pytest.raises(SimulationError, match="at least two tables"):
        simulate_tournament(TournamentSpec(seed=3, tables=(4,), duplicate=True))


def test_a_thrown_in_deal_is_dealt_again_by_the_same_dealer(tmp_path: Path) -> None:
    """Zwanzigerrufen: when everybody passes the deal is thrown in and the same dealer deals
    again (the engine's ``next_dealer(thrown_in=True)``); the simulator rotated the deal on,
    so the hand after it broke the dealer order (``deal.dealer_order``) and its session went
    the careful way in the bench. Seed 24 has a throw-in inside a session."""
    from tarock_logs.tools.simulate import simulate_hands

    docs = simulate_hands(64, 24, game="zwanzigerrufen", hands_per_session=8)
    seen = 0
    for d in docs:
        for a, b in itertools.pairwise(d["hands"]):
            if any(x["type"] == "throw_in" for x in a["actions"]):
                seen += 1
                assert b["dealer"] == a["dealer"]
            else:
                assert b["dealer"] == (a["dealer"] + 1) % len(d["players"])
    assert seen
    path = tmp_path / "zr.jsonl"
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in docs))
    res = CliRunner().invoke(app, ["audit", str(path), "--format", "json"])
    assert "deal.dealer" not in res.stdout
