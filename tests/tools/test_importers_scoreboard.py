"""``tarock import scoreboard``: games of the tarok scoreboard app → sessions of facts-only hands.

``sample_logs/scoreboard``: importing the game then auditing reports exactly the planted
mistakes of ``planted.manifest`` (and the app's pagat fang, a located reject); the bad rounds of
``malformed/bad-rounds.json`` (the database's snake_case rows) are located rejects and the rest
is imported; the app's codes map to the log's contracts; a few hundred mutated inputs give
only sessions or located rejects, never an exception."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.log.models import SessionAdapter
from tarock_logs.rules import get_engine
from tarock_logs.tools.importers import BUILTINS
from tarock_logs.tools.importers.scoreboard import CODES, CONTRA_LEVELS, CONTRACTS, convert

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "sample_logs" / "scoreboard"
GAME = FOLDER / "evening.scoreboard"
BAD = FOLDER / "malformed" / "bad-rounds.json"


def _game() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GAME.read_text(encoding="utf-8"))
    return data


def _convert_doc(tmp_path: Path, doc: Any, name: str = "g.json") -> Any:
    f = tmp_path / name
    f.write_text(json.dumps(doc), encoding="utf-8")
    return convert([f])


def test_the_apps_game_types_are_the_slovenian_contracts_of_the_same_value() -> None:
    engine = get_engine("slovenian")
    assert engine is not None
    terms = engine.fact_terms(engine.ruleset(engine.default_ruleset))
    assert terms is not None
    assert set(CONTRACTS.values()) <= set(terms.contracts)
    assert CONTRACTS[10] == "three" and CONTRACTS[60] == "solo_one"
    assert CONTRACTS[70] == "berac" and CONTRACTS[90] == "odprti_berac"
    assert CONTRA_LEVELS == {1: 0, 2: 1, 4: 2, 8: 3, 16: 4}


def test_import_then_audit_reports_exactly_the_planted_mistakes() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["import", "scoreboard", str(GAME), "-o", "-"])
    assert r.exit_code == 1  # the pagat fang is a located reject
    assert r.stdout.encode() == (FOLDER / "evening.jsonl").read_bytes()
    assert r.stderr.splitlines()[0].startswith(
        f"{GAME}:9: field 'rounds[8].pagatFangPlayerId': scoreboard.pagat_fang: "
    )
    assert "scoreboard: 1 file(s), 1 session(s) imported, 1 record(s) rejected" in r.stderr
    a = runner.invoke(app, ["audit", str(FOLDER / "evening.jsonl"), "--format", "jsonl"])
    assert a.exit_code == 1, a.output
    records = [json.loads(line) for line in a.stdout.splitlines()]
    hands = {x["hand"]: x for x in records if x["record"] == "hand"}
    assert sorted(hands) == list(range(1, 10))  # round 10 is the app's end of game: no hand
    found = sorted(
        (h["hand"], f["code"], f["players"][0]["seat"])
        for h in hands.values()
        for f in h["findings"]
    )
    planted = json.loads((FOLDER / "planted.manifest").read_text(encoding="utf-8"))
    assert found == sorted((p["hand"], p["code"], s) for p in planted for s in p["seats"])
    assert hands[4]["verification"] == "unverified"  # klop: the app keeps no card points
    assert any("points_by_seat" in u for u in hands[4]["unverified"])
    assert {h["verification"] for n, h in hands.items() if n != 4} == {"partial"}
    assert not [x for x in records if x["record"] == "session" and x["findings"]]


def test_the_session_says_where_it_came_from_and_what_is_not_a_fact() -> None:
    (s,) = convert([GAME]).sessions
    session = SessionAdapter.validate_python(s)
    assert session.source is not None and session.source.importer == "scoreboard"
    assert session.source.original_id == "5c2b7e90-0000-4000-8000-00000000cafe"
    assert (
        session.source.software
        == f"tarok-scoreboard (tarock-logs importer {BUILTINS['scoreboard'].version})"
    )
    assert [p.name for p in session.players] == [
        "Ana Kos",
        "Bor Zupan",
        "Cene Novak",
        "Dani Horvat",
    ]
    assert session.notes is not None and "records no dealer" in session.notes
    assert "end of the game" in session.notes  # the −100 per radelc left: a note, not checked
    h2 = session.hands[1]
    assert h2.facts is not None and h2.facts.contract == "two" and h2.facts.won is False
    assert [(k.target, k.level) for k in h2.facts.kontras] == [("game", 1)]
    h8 = session.hands[7]
    assert h8.facts is not None
    assert [(b.bonus, b.side, b.announced) for b in h8.facts.bonuses] == [
        ("kralji", "defenders", False), ("pagat_ultimo", "defenders", True),
    ]  # fmt: skip
    assert [(k.target, k.level) for k in h8.facts.kontras] == [("pagat_ultimo", 1)]
    assert session.hands[4].facts is not None and session.hands[4].facts.mondfang[0].seat == 2
    assert session.hands[4].radelci_before == [2, 2, 2, 2]  # after the klop: the app's


def test_without_score_changes_the_scores_are_the_running_totals_differences(
    tmp_path: Path,
) -> None:
    doc = _game()
    for rnd in doc["rounds"]["data"]:
        for res in rnd["roundResults"]:
            del res["roundScoreChange"]
    res = _convert_doc(tmp_path, doc)
    (base,) = convert([GAME]).sessions
    (s,) = res.sessions
    got = [h["result"]["scores"] for h in s["hands"]]
    want = [h["result"]["scores"] for h in base["hands"]]
    assert got[1] == want[1] == [0, 0, -60, -50]  # the app's total went on from its slip
    want[5][2] += 10  # Cene's running total 10 too high: from the totals alone, his score
    assert got == want


def test_database_rows_with_bad_rounds_are_located_rejects_and_the_rest_imports() -> None:
    res = convert([BAD])
    assert [(r.record, r.field, r.code) for r in res.rejects] == [
        (2, "round[1].game_type", "scoreboard.game_type"),
        (3, "round[2].lead_player_id", "scoreboard.player"),
        (4, "round[3].contra_factor", "scoreboard.contra"),
        (5, "round[4].round_modifier[0].modifier_type", "scoreboard.modifier"),
        (6, "round[5].round_result", "scoreboard.result"),
        (7, "round[6]", "scoreboard.round"),
        (8, "round[7].won", "scoreboard.round"),
    ]
    assert all(r.file == str(BAD) for r in res.rejects)
    (s,) = res.sessions
    assert [h["number"] for h in s["hands"]] == [1, 9]
    assert [p["name"] for p in s["players"]] == ["Mojca Vidmar", "Tomaž Kralj", "Urban Petek"]


def test_a_file_that_is_no_game_is_one_located_reject(tmp_path: Path) -> None:
    for doc, code in (
        ([1, 2], "scoreboard.file"),
        ({"rounds": []}, "scoreboard.players"),
        ({"game": {"players": [{"playerId": "a"}, {"playerId": "b"}]}, "rounds": []},
         "scoreboard.players"),
    ):  # fmt: skip
        res = _convert_doc(tmp_path, doc)
        assert res.sessions == [] and [r.code for r in res.rejects] == [code]
    (tmp_path / "x.json").write_bytes(b"\xff{")
    assert [r.code for r in convert([tmp_path / "x.json"]).rejects] == ["scoreboard.file"]


_JUNK: list[Any] = [None, True, -1, 0, 7, 75, 3.5, "", "x", [], {}, [1], {"a": 1}, "3f1c2a10"]


def _mutate(rng: random.Random, node: Any) -> Any:
    """``node`` with one value somewhere replaced by junk or one key dropped."""
    node = copy.deepcopy(node)
    path: list[Any] = []
    cur = node
    while isinstance(cur, (dict, list)) and cur and rng.random() < 0.8:
        key = rng.choice(list(cur)) if isinstance(cur, dict) else rng.randrange(len(cur))
        path.append((cur, key))
        cur = cur[key]
    if not path:
        return rng.choice(_JUNK)
    parent, key = path[-1]
    if isinstance(parent, dict) and rng.random() < 0.3:
        del parent[key]
    else:
        parent[key] = rng.choice(_JUNK)
    return node


def test_mutated_games_give_sessions_or_located_rejects_never_an_exception(
    tmp_path: Path,
) -> None:
    rng = random.Random(35)
    docs = [_game(), json.loads(BAD.read_text(encoding="utf-8"))]
    for i in range(300):
        doc = _mutate(rng, rng.choice(docs))
        res = _convert_doc(tmp_path, doc, f"m{i}.json")
        for s in res.sessions:
            SessionAdapter.validate_python(s)
            assert s["source"]["importer"] == "scoreboard"
        for r in res.rejects:
            assert r.code in CODES and r.record >= 1 and r.file.endswith(f"m{i}.json")
        assert res.sessions or res.rejects


def test_the_readme_lists_each_planted_mistake() -> None:
    readme = (FOLDER / "README.md").read_text(encoding="utf-8")
    planted = json.loads((FOLDER / "planted.manifest").read_text(encoding="utf-8"))
    for i, p in enumerate(planted, start=1):
        assert f"| {i} | `{p['file']}` | {p['hand']} | `{p['code']}` | {p['players']} |" in readme
    for r in convert([BAD]).rejects:
        shown = str(r).replace(str(FOLDER) + "/", "")
        assert shown.split(": ")[0] + ": " + shown.split(": ")[1] in readme, shown
