"""Per-game statistics of the Players page (store/read/stats.py, section "per game") against the
sample logs: games never mixed, Royal Tarock's roles, Schlemme and match standings as the
engine counts them, thrown-in deals on their own."""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import duckdb
import polars as pl
import pytest

from tarock_logs.log.reader import read_sessions
from tarock_logs.store.read import stats as S
from tarock_logs.store.write.ingest import ingest
from tarock_logs.verdict.replay import replay_hand

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_logs"
ROYAL = SAMPLES / "royal" / "worked-examples.json"
ZR = SAMPLES / "zwanzigerrufen" / "fd-examples.json"


def _thrown_in_session(dest: Path) -> Path:
    """Zwanzigerrufen's first worked example followed by a deal thrown in by forehand."""
    sess = copy.deepcopy(json.loads(ZR.read_text(encoding="utf-8"))[0])
    first = sess["hands"][0]
    again = copy.deepcopy(first)
    again.update(number=2, dealer=(first["dealer"] + 1) % 4, result={"scores": [0, 0, 0, 0]})
    again["actions"] = [{"type": "throw_in", "seat": (again["dealer"] + 1) % 4}]
    again.pop("notes", None)
    sess.update(id="zr-thrown-in", hands=[first, again])
    out = dest / "thrown-in.json"
    out.write_text(json.dumps([sess]), encoding="utf-8")
    return out


@pytest.fixture(scope="module")
def con(tmp_path_factory: pytest.TempPathFactory) -> Iterator[duckdb.DuckDBPyConnection]:
    base = tmp_path_factory.mktemp("gamestats")
    db = base / "t.duckdb"
    ingest(
        [str(SAMPLES / g) for g in ("slovenian", "zwanzigerrufen", "royal", "tournament")]
        + [str(_thrown_in_session(base))],
        db=str(db),
    )
    c = duckdb.connect(str(db), read_only=True)
    try:
        yield c
    finally:
        c.close()


def _games(con: duckdb.DuckDBPyConnection) -> dict[str, set[str]]:
    rows = con.execute(
        "SELECT CAST(game AS VARCHAR), contract FROM hands WHERE contract IS NOT NULL"
    ).fetchall()
    out: dict[str, set[str]] = {}
    for game, contract in rows:
        out.setdefault(game, set()).add(contract)
    return out


def test_contract_tables_never_mix_games(con) -> None:
    by_game = _games(con)
    assert len(by_game) >= 2
    for game, contracts in by_game.items():
        table = S.game_contracts(con, S.Filters(game=game))
        assert set(table["contract"]) == contracts
        others = set().union(*(c for g, c in by_game.items() if g != game)) - contracts
        assert not set(table["contract"]) & others
    with pytest.raises(ValueError, match="never mixed"):
        S.game_contracts(con, S.Filters())


def test_royal_roles_are_the_pairs_parts_and_the_dealers_pair_defends(con) -> None:
    roles = S.game_roles(con, S.Filters(game="royal"))
    assert set(roles["role"]) == {"attacker", "defender"}
    rows = con.execute(
        """SELECT h.hand_id, h.dealer, sp.seat, sp.pair FROM hands h
           JOIN session_players sp USING (session_id) WHERE h.game = 'royal'"""
    ).fetchall()
    pair_of = {(h, seat): pair for h, _, seat, pair in rows}
    dealer_of = {h: d for h, d, _, _ in rows}
    hands = S.game_hands_for(con, S.Filters(game="royal"))
    for r in hands.iter_rows(named=True):
        defends = (
            pair_of[(r["hand_id"], r["seat"])] == pair_of[(r["hand_id"], dealer_of[r["hand_id"]])]
        )
        assert r["role"] == ("defender" if defends else "attacker")


def test_schlemme_made_counts_match_the_sample_match(con) -> None:
    (session,) = read_sessions([ROYAL])
    names = {i: p.id for i, p in enumerate(session.players)}
    made: Counter[tuple[str, str]] = Counter()
    announced: Counter[tuple[str, str]] = Counter()
    for index, hand in enumerate(session.hands):
        score = replay_hand(session, index, with_views=False).score
        assert score is not None
        for a in hand.actions:
            if a.type != "announce" or not (a.bonus.startswith("S_") or a.bonus == "F_SPIEL"):
                continue
            announced[(names[a.seat], a.bonus)] += 1
            value = sum(i.value for i in score.items if i.item == a.bonus and i.seat == a.seat)
            if value > 0:
                made[(names[a.seat], a.bonus)] += 1
    table = S.schlemme(con, S.Filters(game="royal"))
    got_made = {(r["player_id"], r["bonus"]): r["made"] for r in table.iter_rows(named=True)}
    got_announced = {
        (r["player_id"], r["bonus"]): r["announced"] for r in table.iter_rows(named=True)
    }
    assert sum(made.values()) > 0
    assert got_announced == dict(announced)
    assert {k: v for k, v in got_made.items() if v} == dict(made)
    for r in table.iter_rows(named=True):
        assert r["made"] + r["failed"] + r["raised"] + r["unknown"] == r["announced"]


def test_royal_match_standing_is_the_match_result_of_the_rules(con) -> None:
    matches = S.pair_matches(con, S.Filters(game="royal"))
    assert sorted(matches["match_points"]) == [11, 21]  # docs/royal.md: the match ends 11 : 21
    assert sorted(matches["result"]) == ["lost", "won"]
    pairs = S.pair_standings(con, S.Filters(game="royal"))
    assert sorted(zip(pairs["won"], pairs["lost"], strict=True)) == [(0, 1), (1, 0)]
    assert sorted(pairs["points_for"]) == sorted(pairs["points_against"]) == [11, 21]


def test_thrown_in_deals_are_counted_on_their_own_and_left_out_of_averages(con) -> None:
    f = S.Filters(game="zwanzigerrufen", event=None)
    assert S.thrown_in(con, f) == 1
    players = S.game_players(con, f).filter(pl.col("thrown_in") > 0)
    assert players.height == 4
    for r in players.iter_rows(named=True):
        assert r["played"] == r["hands"] - r["thrown_in"]
        assert r["avg_score"] == pytest.approx(r["total_score"] / r["played"])
    thrown = S.game_hands_for(con, f, thrown_in=True)
    assert thrown["hand_id"].n_unique() == 1 and thrown["won"].is_null().all()


def test_head_to_head_counts_each_hand_once_from_each_side(con) -> None:
    h2h = S.head_to_head(con, S.Filters(game="slovenian"))
    rows = {(r["player_a"], r["player_b"]): r for r in h2h.iter_rows(named=True)}
    assert rows
    for (a, b), r in rows.items():
        back = rows[(b, a)]
        assert r["hands"] == back["hands"]
        assert r["won"] + back["won"] == r["hands"]  # opposite sides: one of them won
        listed = S.game_hands_for(con, S.Filters(game="slovenian", player=a), opponent=b)
        assert listed["hand_id"].n_unique() == r["hands"]


def test_partners_are_on_the_same_side(con) -> None:
    partners = S.partners(con, S.Filters(game="royal"))
    pairs = {frozenset((r["player_a"], r["player_b"])) for r in partners.iter_rows(named=True)}
    sides = con.execute(
        """SELECT list(player_id ORDER BY player_id) FROM session_players sp
           JOIN sessions s USING (session_id) WHERE s.game = 'royal' GROUP BY session_id, pair"""
    ).fetchall()
    assert pairs == {frozenset(p) for (p,) in sides}
