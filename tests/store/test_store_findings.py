"""The findings model in the store (migration 0002): every finding of a hand, of a session and
of a tournament, and the verification states; placement points and standings settled for the
whole tournament at the end of the ingest (tarock_logs/store/write/tournaments.py)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from tarock_logs.store.write.ingest import ingest

ROOT = Path(__file__).resolve().parents[2]
DISPUTED = ROOT / "sample_logs" / "disputed"
ROYAL = ROOT / "sample_logs" / "royal" / "worked-examples.json"

pytestmark = pytest.mark.skipif(not (DISPUTED / "disputes.manifest").exists(), reason="samples")


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("findings") / "f.duckdb"
    ingest([DISPUTED], db=db, jobs=1)
    return db


def _rows(db: Path, sql: str) -> list[tuple[object, ...]]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def test_every_hand_finding_is_stored_with_its_players_and_the_rules_words(store: Path) -> None:
    planted = json.loads((DISPUTED / "disputes.manifest").read_bytes())
    for p in planted:
        if p["hand"] is None or p["action_index"] is None:
            continue
        rows = _rows(
            store,
            "SELECT f.code, f.action_index, f.seats, f.message, f.rule_text FROM findings f "
            "JOIN hands h USING (hand_id) WHERE h.session_id = '" + p["session"] + "' AND "
            f"h.number = {p['hand']} AND f.severity = 'error'",
        )
        (code, ai, seats, message, rule_text) = rows[0]
        assert (code, ai, seats) == (p["expect"]["violations"][0], p["action_index"], [p["seat"]])
        assert "seat " not in message  # players by name
        assert rule_text and json.loads(str(rule_text))["sl"]
    assert _rows(store, "SELECT DISTINCT verification FROM hands") == [("verified",)]
    # the illegal actions are the errors: the renons.unclaimed warnings are not counted
    assert _rows(store, "SELECT sum(n_errors), sum(n_violations) FROM hands") == [(3, 5)]


def test_session_and_tournament_findings_are_settled_for_the_whole_tournament(
    store: Path,
) -> None:
    """Session E is the round's only table of five: its placement points use the mixed
    column (its fifth gets 2, not 1), so only the two swapped seats differ, and the swap
    moves three players in the standings."""
    rows = _rows(store, "SELECT session_id, code, seats FROM session_findings ORDER BY 1, 3")
    assert rows == [
        ("sim-slovenian-2027-r1-B", "session.total_differs", [0]),
        ("sim-slovenian-2027-r1-E", "session.placement_points_differ", [1]),
        ("sim-slovenian-2027-r1-E", "session.placement_points_differ", [3]),
    ]
    assert _rows(store, "SELECT count(*), min(code) FROM tournament_findings") == [
        (3, "tournament.standing_differs")
    ]
    assert _rows(store, "SELECT tournament, verification, n_sessions FROM tournaments") == [
        ("sim-slovenian-2027", "verified", 5)
    ]
    e = _rows(
        store,
        "SELECT list(placement_points_recomputed ORDER BY seat) FROM session_scores "
        "WHERE session_id = 'sim-slovenian-2027-r1-E'",
    )
    assert e == [([2.0, 5.0, 3.0, 4.0, 2.0],)]


def test_a_changed_file_refreshes_its_tournament_and_a_removed_one_drops_it(
    tmp_path: Path,
) -> None:
    logs = tmp_path / "logs"
    shutil.copytree(DISPUTED, logs)
    db = tmp_path / "t.duckdb"
    ingest([logs], db=db, jobs=1)
    assert _rows(db, "SELECT count(*) FROM tournament_findings") == [(3,)]
    # the scorer's sheet corrected: session E's placement points as recomputed
    lines = (logs / "round-1.jsonl").read_text(encoding="utf-8").splitlines()
    fixed = []
    for line in lines:
        doc = json.loads(line)
        if doc["id"].endswith("-E"):
            doc["recorded"]["placement_points"] = [2, 5, 3, 4, 2]
        fixed.append(json.dumps(doc))
    (logs / "round-1.jsonl").write_text("\n".join(fixed) + "\n", encoding="utf-8")
    ingest([logs], db=db, jobs=1)
    assert _rows(db, "SELECT count(*) FROM tournament_findings") == [(0,)]
    assert _rows(db, "SELECT count(*) FROM session_findings WHERE code LIKE '%placement%'") == [
        (0,)
    ]
    (logs / "round-1.jsonl").unlink()
    ingest([logs], db=db, jobs=1, prune=True)
    assert _rows(db, "SELECT count(*) FROM tournaments") == [(0,)]


def test_a_royal_match_with_an_unknown_consolation_is_stored_as_partial(tmp_path: Path) -> None:
    raw = json.loads(ROYAL.read_text(encoding="utf-8"))
    raw = raw[0] if isinstance(raw, list) else raw
    raw["options"] = {k: v for k, v in raw["options"].items() if k != "consolation"}
    f = tmp_path / "royal.jsonl"
    f.write_text(json.dumps(raw) + "\n", encoding="utf-8")
    db = tmp_path / "r.duckdb"
    ingest([f], db=db, jobs=1)
    assert _rows(db, "SELECT DISTINCT verification FROM hands") == [("partial",)]
    assert _rows(db, "SELECT verification FROM sessions") == [("partial",)]
