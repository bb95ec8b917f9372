"""Fixed deals compared across tables (store/read/duplicate.py): the deal key, the lines side by
side, the best-scoring line and the match-point ranking, on a store built row by row."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import duckdb
import pytest

from tarock_logs.store.read.duplicate import NoSuchEvent, deal_key, duplicate_report, position_of
from tarock_logs.store.schema import migrate

#: deal X by position (P1, P2, P3; P3 is the dealer) and its talon
X = (["T1", "HK"], ["T2", "DK"], ["T3", "SK"])
X_TALON = ["CK", "CQ"]
#: deal Y by position, and Z (played once: never compared)
Y = (["T4", "HQ"], ["T5", "DQ"], ["T6", "SQ"])
Z = (["T7", "HN"], ["T8", "DN"], ["T9", "SN"])
TALON = ["CN", "CJ"]


def _by_seat(by_position: tuple[list[str], ...], dealer: int) -> list[list[str]]:
    """The hands by seat of a deal given by position, dealt by ``dealer``."""
    n = len(by_position)
    seats: list[list[str]] = [[] for _ in range(n)]
    for k, cards in enumerate(by_position, 1):
        seats[(dealer + k) % n] = list(cards)
    return seats


#: per table: its players by seat, and its hands as (dealer, deal by position, talon,
#: declarer seat, contract, won, scores by position)
TABLES: dict[str, tuple[list[str], list[tuple[Any, ...]]]] = {
    "A": (["a1", "a2", "a3"], [
        (2, X, X_TALON, 0, "three", True, (30, -10, -10)),
        (0, Y, TALON, 1, "two", True, (40, -20, -20)),
    ]),
    "B": (["b1", "b2", "b3"], [
        (0, X, X_TALON, 1, "three", True, (30, 0, 0)),
        (0, Y, TALON, 1, "two", True, (40, 0, 0)),
    ]),
    "C": (["c1", "c2", "c3"], [
        (1, X, X_TALON, 2, "three", False, (-20, -5, -10)),
        (0, Z, TALON, 1, "two", True, (40, 0, 0)),
    ]),
    # X's cards with the talon in another order, and X's hands moved round one position:
    # neither is the same deal
    "D": (["d1", "d2", "d3"], [
        (2, X, X_TALON[::-1], 0, "three", True, (30, 0, 0)),
        (2, (X[1], X[2], X[0]), X_TALON, 0, "three", True, (30, 0, 0)),
    ]),
}  # fmt: skip


def _store(path: Path) -> Path:
    """A store holding :data:`TABLES` as four sessions of one tournament (round 1)."""
    con = duckdb.connect(str(path))
    migrate(con)
    key = 0
    for table, (players, hands) in TABLES.items():
        sid = f"cup-r1-{table}"
        con.execute(
            "INSERT INTO sessions (session_id, game, ruleset, table_size, event_name, "
            "tournament, round, table_name, date, n_hands, file) VALUES "
            "(?, 'slovenian', 'si-tournament-2021', 3, 'Cup', 'cup', 1, ?, DATE '2026-12-01', "
            "?, 'cup.jsonl')",
            [sid, table, len(hands)],
        )
        for p in players:
            con.execute("INSERT INTO players (player_id, name) VALUES (?, ?)", [p, p.upper()])
        for number, (dealer, deal, talon, declarer, contract, won, scores) in enumerate(hands, 1):
            key += 1
            con.execute(
                "INSERT INTO hands (hand_id, hand_key, session_id, game, ruleset, number, "
                "dealer, table_size, contract, declarer, won, verified, n_actions, "
                "n_violations, n_discrepancies, deal, file) VALUES (?, ?, ?, 'slovenian', "
                "'si-tournament-2021', ?, ?, 3, ?, ?, ?, true, 0, 0, 0, ?, 'cup.jsonl')",
                [f"h{key}", key, sid, number, dealer, contract, declarer, won,
                 json.dumps({"hands": _by_seat(deal, dealer), "talon": talon})],
            )  # fmt: skip
            for seat, pid in enumerate(players):
                score = scores[position_of(seat, dealer, 3) - 1]
                role = "declarer" if seat == declarer else "defender"
                con.execute(
                    "INSERT INTO hand_scores (hand_id, hand_key, seat, player_id, role, "
                    "recorded_total, recomputed_total) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [f"h{key}", key, seat, pid, role, score + 5, score],
                )
    con.close()
    return path


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    con = duckdb.connect(str(_store(tmp_path_factory.mktemp("dup") / "cup.duckdb")))
    try:
        return duplicate_report(con, "cup")
    finally:
        con.close()


def test_positions_count_from_the_dealer_in_playing_order() -> None:
    assert [position_of(s, 2, 3) for s in range(3)] == [1, 2, 3]
    assert [position_of(s, 0, 3) for s in range(3)] == [3, 1, 2]
    assert [position_of(s, 0, 5) for s in range(5)] == [5, 1, 2, 3, 4]  # dealer sits out: P5


def test_the_same_cards_round_the_dealer_are_the_same_deal_whoever_dealt() -> None:
    same = {deal_key("slovenian", d, _by_seat(X, d), X_TALON) for d in range(3)}
    assert len(same) == 1
    assert deal_key("slovenian", 2, _by_seat(X, 2), X_TALON[::-1]) not in same  # talon order
    moved = _by_seat((X[1], X[2], X[0]), 2)
    assert deal_key("slovenian", 2, moved, X_TALON) not in same  # hands moved round
    assert deal_key("royal", 2, _by_seat(X, 2), X_TALON) not in same  # another game


def test_only_deals_played_at_two_tables_are_compared_each_line_side_by_side(
    report: dict[str, Any],
) -> None:
    deals = report["deals"]
    assert [d["deal"] for d in deals] == [1, 2]
    x, y = deals
    assert x["deal_key"] == deal_key("slovenian", 2, _by_seat(X, 2), X_TALON)
    assert [line["table"] for line in x["lines"]] == ["A", "B", "C"]  # D's variants: not X
    assert [line["table"] for line in y["lines"]] == ["A", "B"]  # Z was played once
    assert x["tables"] == 3 and y["tables"] == 2
    a = x["lines"][0]
    assert a["contract"] == "three" and a["won"] is True
    assert a["declarer"] == {"position": 1, "player_id": "a1", "name": "A1"}
    assert a["declarer_score"] == 30  # the recomputed score, not the recorded 35
    assert [s["player_id"] for s in x["lines"][1]["seats"]] == ["b2", "b3", "b1"]  # P1..P3


def test_match_points_and_ranking_as_computed_by_hand(report: dict[str, Any]) -> None:
    """Deal X (tables A, B, C), by position, scores and match points (2 per score beaten,
    1 per tie, of 2 × (3 − 1) = 4):

    * P1: A +30, B +30, C −20 → A 2+1 = 3, B 3, C 0;
    * P2: A −10, B 0, C −5 → A 0, B 4, C 2;
    * P3: A −10, B 0, C −10 → A 1, B 4, C 1.

    Deal Y (tables A, B; of 2): P1 A +40, B +40 → 1, 1; P2 A −20, B 0 → 0, 2; P3 the same.

    Who held what: X at A (dealt by seat 2) a1 P1, a2 P2, a3 P3; at B (seat 0) b2 P1, b3 P2,
    b1 P3; at C (seat 1) c3 P1, c1 P2, c2 P3. Y at A and B (seat 0): a2/b2 P1, a3/b3 P2,
    a1/b1 P3. Totals: b1 4+2 = 6/6, b3 4+2 = 6/6, b2 3+1 = 4/6, a1 3+0 = 3/6, c1 2/4,
    c2 1/4, a2 0+1 = 1/6, a3 1+0 = 1/6, c3 0/4.

    Ranked by percentage, then match points, then id: b1, b3 (100 %: the id decides), b2
    (66.67), a1 before c1 (both 50 %: 3 match points beat 2), c2 (25), a2, a3 (16.67: the id
    decides), c3 (0)."""
    ranking = report["ranking"]
    got = [(r["rank"], r["player_id"], r["match_points"], r["max_match_points"],
            r["percentage"]) for r in ranking]  # fmt: skip
    assert got == [
        (1, "b1", 6, 6, 100.0), (2, "b3", 6, 6, 100.0), (3, "b2", 4, 6, 66.67),
        (4, "a1", 3, 6, 50.0), (5, "c1", 2, 4, 50.0), (6, "c2", 1, 4, 25.0),
        (7, "a2", 1, 6, 16.67), (8, "a3", 1, 6, 16.67), (9, "c3", 0, 4, 0.0),
    ]  # fmt: skip
    assert {r["game"] for r in ranking} == {"slovenian"}
    assert {r["player_id"]: r["hands"] for r in ranking if r["hands"] == 1} == {
        "c1": 1,
        "c2": 1,
        "c3": 1,
    }  # C's second deal was played nowhere else
    x = report["deals"][0]
    mp = {(line["table"], s["position"]): s["match_points"] for line in x["lines"]
          for s in line["seats"]}  # fmt: skip
    assert mp == {("A", 1): 3, ("B", 1): 3, ("C", 1): 0, ("A", 2): 0, ("B", 2): 4,
                  ("C", 2): 2, ("A", 3): 1, ("B", 3): 4, ("C", 3): 1}  # fmt: skip


def test_the_best_scoring_line_is_the_best_declarer_score_first_table_on_a_tie(
    report: dict[str, Any],
) -> None:
    x, y = report["deals"]
    assert x["best_line"]["table"] == "A" and x["best_line"]["score"] == 30
    assert x["best_line"]["declarer"]["player_id"] == "a1"
    assert y["best_line"]["table"] == "A" and y["best_line"]["contract"] == "two"
    best = {p["position"]: (p["best_table"], p["best_score"]) for p in x["positions"]}
    assert best == {1: ("A", 30), 2: ("B", 0), 3: ("B", 0)}


def test_the_report_is_reproducible_and_an_unknown_event_is_refused(
    report: dict[str, Any], tmp_path: Path
) -> None:
    con = duckdb.connect(str(_store(tmp_path / "again.duckdb")))
    try:
        assert duplicate_report(con, "cup") == report
        assert duplicate_report(con, "Cup") == {**report, "event": "Cup"}  # the event's name
        with pytest.raises(NoSuchEvent):
            duplicate_report(con, "no such cup")
    finally:
        con.close()
