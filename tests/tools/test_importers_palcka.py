"""``tarock import palcka``: Palčka's message lists (merged per game) and game logs → sessions.

``sample_logs/palcka`` is exactly what its script builds; importing it then auditing reports
exactly what its README lists (the planted arithmetic error, the one-view game ``partial``, the
bad game-log entry as a located reject); a merged multi-view game replays as a full hand; the
card ids and the schema's field numbers are Palčka's; a few hundred mutated inputs give only
sessions or located rejects."""

from __future__ import annotations

import base64
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tarock_logs.cards import PACKS
from tarock_logs.cli import app
from tarock_logs.log.models import SessionAdapter
from tarock_logs.tools.importers import Reject
from tarock_logs.tools.importers.palcka import (
    CARD_IDS,
    CODES,
    OPTIONS,
    RULESET,
    import_files,
    message_class,
)
from tarock_logs.verdict.replay import replay_hand

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "sample_logs" / "palcka"
GAMELOG = FOLDER / "malformed" / "PalckaGames" / "gamelog-5d1f0c2e-8a4b-4f3e-9c61-2b7d4e9a0f13.json"


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "make_palcka", ROOT / "scripts" / "make_palcka_samples.py"
    )
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _records() -> list[Path]:
    return sorted((FOLDER / "messages").glob("*.msgs")) + [GAMELOG]


def _sessions(paths: list[Path]) -> dict[str, Any]:
    res = import_files(paths)
    return {s["id"]: SessionAdapter.validate_python(s) for s in res.sessions}


# --------------------------------------------------------------------------- the format's facts


def test_every_palcka_card_id_is_one_card_of_the_pack() -> None:
    assert len(CARD_IDS) == 54
    assert sorted(CARD_IDS.values()) == sorted(PACKS["slovenian"])
    assert CARD_IDS["/pik/kralj"] == "SK" and CARD_IDS["/taroki/skis"] == "T22"
    assert CARD_IDS["/taroki/pagat"] == "T1" and CARD_IDS["/taroki/mond"] == "T21"
    assert CARD_IDS["/kara/1"] == "D1" and CARD_IDS["/kriz/10"] == "C10"
    assert CARD_IDS["/src/pob"] == "HJ" and CARD_IDS["/src/kaval"] == "HN"


def test_the_schema_has_palckas_field_numbers() -> None:
    d = message_class().DESCRIPTOR
    assert d.fields_by_name["player_id"].number == 2
    assert d.fields_by_name["licitiranje"].number == 11
    assert d.fields_by_name["card"].number == 12 and d.fields_by_name["results"].number == 19
    assert d.fields_by_name["predictions"].number == 23 and d.fields_by_name["stash"].number == 27
    results_user = d.fields_by_name["results"].message_type.fields_by_name["user"].message_type
    assert results_user.fields_by_name["razlika"].number == 7
    assert results_user.fields_by_name["radelc"].number == 21
    predictions = d.fields_by_name["predictions"].message_type
    assert predictions.fields_by_name["igra_kontra"].number == 14
    assert predictions.fields_by_name["gamemode"].number == 22


# --------------------------------------------------------------------------- the samples


def test_the_folder_is_exactly_what_its_script_builds() -> None:
    mod = _script()
    built = mod.build()
    on_disk = {
        p.relative_to(FOLDER).as_posix(): p.read_bytes()
        for p in FOLDER.rglob("*")
        if p.is_file() and p.name not in ("README.md", "palcka.jsonl")
    }
    assert built == on_disk
    jsonl, rejects = mod.import_folder(FOLDER)
    assert jsonl == (FOLDER / "palcka.jsonl").read_bytes()
    assert len(rejects) == 1


def test_import_then_audit_reports_exactly_what_the_readme_lists() -> None:
    runner = CliRunner()
    out = FOLDER / "palcka.jsonl"
    r = runner.invoke(app, ["import", "palcka", *map(str, _records()), "-o", "-"])
    assert r.exit_code == 1  # one record rejected
    assert r.stdout.encode() == out.read_bytes()
    assert r.stderr.splitlines()[0] == (
        f"{GAMELOG}:25: field 'actionType': palcka.record: missing or of the wrong type: "
        "['actionType']"
    )
    assert "palcka: 10 file(s), 4 game(s) imported (1 partial), 1 record(s) rejected" in r.stderr
    a = runner.invoke(app, ["audit", str(out), "--format", "jsonl"])
    assert a.exit_code == 1
    hands = {
        rec["session"]: rec
        for rec in map(json.loads, a.stdout.splitlines())
        if rec.get("record") == "hand"
    }
    gamelog_id = "palcka-5d1f0c2e-8a4b-4f3e-9c61-2b7d4e9a0f13"
    assert set(hands) == {"palcka-game-a", "palcka-game-b", "palcka-game-c", gamelog_id}
    assert all(h["legal"] for h in hands.values())
    findings = {s: [(f["code"], f["severity"]) for f in h["findings"]] for s, h in hands.items()}
    assert findings["palcka-game-a"] == [] and hands["palcka-game-a"]["verification"] == "verified"
    b = hands["palcka-game-b"]
    assert findings["palcka-game-b"] == [("score.total_differs", "error")] * 2
    side = sorted({b["declarer"], b["partner"]})
    assert [
        (d["item"], d["seat"], d["recorded"] - d["recomputed"]) for d in b["discrepancies"]
    ] == [("total", s, 10) for s in side]
    assert findings["palcka-game-c"] == [] and hands["palcka-game-c"]["verification"] == "partial"
    assert findings[gamelog_id] == [] and hands[gamelog_id]["verification"] == "partial"
    assert any("no recorded result" in u for u in hands[gamelog_id]["unverified"])


def test_a_merged_multi_view_game_replays_as_a_full_hand() -> None:
    views = sorted((FOLDER / "messages").glob("game-a.*.msgs"))
    assert len(views) == 4
    session = _sessions(views)["palcka-game-a"]
    hand = session.hands[0]
    assert hand.deal is not None and hand.facts is None and hand.extent == "whole"
    assert sorted([c for h in hand.deal.hands for c in h] + hand.deal.talon) == sorted(
        PACKS["slovenian"]
    )
    replay = replay_hand(session, 0)
    assert replay.legal and replay.verified
    assert sum(1 for a in hand.actions if a.type == "play") == 48
    assert any(a.type == "announce" for a in hand.actions)
    assert session.ruleset == RULESET and session.options == OPTIONS
    assert session.source is not None and session.source.importer == "palcka"
    assert session.source.original_id == "game-a" and "importer 1" in (
        session.source.software or ""
    )
    # any one view alone is not enough: the hand is facts, partial, saying what is unknown
    alone = _sessions(views[:1])["palcka-game-a"].hands[0]
    assert alone.deal is None and alone.facts is not None and alone.extent == "partial"
    assert alone.notes is not None and alone.notes.count("the cards of seat") == 3
    assert alone.result is not None and hand.result is not None
    assert (alone.result.scores, alone.result.items) == (hand.result.scores, hand.result.items)
    assert hand.result.radelci_after == [0, 0, 0, 0]  # every view's own radelci, merged
    assert alone.result.radelci_after is None


def test_one_view_gives_facts_that_score_as_recorded() -> None:
    session = _sessions(sorted((FOLDER / "messages").glob("game-c.*.msgs")))["palcka-game-c"]
    hand = session.hands[0]
    assert hand.facts is not None and hand.extent == "partial" and session.format_version == "1.1"
    assert hand.facts.contract in ("three", "two", "one") and hand.facts.won is not None
    assert hand.facts.declarer is not None and hand.facts.called is not None
    assert hand.notes is not None and "not known from the records" in hand.notes
    assert hand.result is not None and hand.result.radelci_after is None  # one view: one seat's


def test_views_that_disagree_are_left_out_as_located_rejects(tmp_path: Path) -> None:
    src = sorted((FOLDER / "messages").glob("game-a.*.msgs"))
    for p in src:
        (tmp_path / p.name).write_bytes(p.read_bytes())
    other = sorted((FOLDER / "messages").glob("game-b.*.msgs"))[0]
    (tmp_path / ("game-a.intruder" + ".msgs")).write_bytes(other.read_bytes())
    res = import_files(sorted(tmp_path.iterdir()))
    assert [(Path(r.file).name, r.code) for r in res.rejects] == [
        ("game-a.intruder.msgs", "palcka.views_disagree")
    ]
    assert len(res.sessions) == 1 and "deal" in res.sessions[0]["hands"][0]


def test_bad_records_are_located_rejects(tmp_path: Path) -> None:
    view = json.loads(sorted((FOLDER / "messages").glob("game-a.*.msgs"))[0].read_text())
    msg = message_class()
    bad_card = msg(player_id="x")
    bad_card.card.id = "/pik/as"
    bad_card.card.send.SetInParent()
    view[3] = "not base64!"
    view[4] = base64.b64encode(b"\xff\xff\xff").decode()
    view[5] = base64.b64encode(bad_card.SerializeToString()).decode()
    f = tmp_path / "g.p1.msgs"
    f.write_text(json.dumps(view))
    res = import_files([f])
    assert [(r.record, r.field, r.code) for r in res.rejects] == [
        (4, None, "palcka.base64"),
        (5, None, "palcka.protobuf"),
        (6, "card.id", "palcka.card"),
    ]
    (tmp_path / "empty.msgs").write_text("{}")
    (tmp_path / "junk.msgs").write_bytes(b"\x00\x01")
    res = import_files([tmp_path / "empty.msgs", tmp_path / "junk.msgs"])
    assert [(Path(r.file).name, r.record, r.code) for r in res.rejects] == [
        ("empty.msgs", 1, "palcka.file"),
        ("junk.msgs", 1, "palcka.file"),
    ]
    assert res.sessions == []


def test_a_game_log_whose_talon_is_bad_rejects_the_talon_and_keeps_the_game(
    tmp_path: Path,
) -> None:
    log = json.loads(GAMELOG.read_text())
    opened = next(k for k, e in enumerate(log) if e["actionType"] == 6)
    taken = next(k for k, e in enumerate(log) if e["actionType"] == 7)
    log[opened]["action"] = 0  # groups of no cards
    f = tmp_path / GAMELOG.name
    f.write_text(json.dumps(log))
    res = import_files([f])
    assert [(r.record, r.field, r.code) for r in res.rejects] == [
        (opened + 1, "additionalData", "palcka.card"),
        (taken + 1, "card", "palcka.talon"),
        (25, "actionType", "palcka.record"),
    ]
    (session,) = res.sessions
    hand = session["hands"][0]
    assert "deal" not in hand and hand["extent"] == "partial"
    assert hand["notes"] == "not known from the records: the talon's groups or the group taken"


def test_a_bid_or_card_of_nobody_at_the_table_rejects_the_game(tmp_path: Path) -> None:
    msg = message_class()
    src = sorted((FOLDER / "messages").glob("game-a.*.msgs"))[0]
    view = json.loads(src.read_text())
    nobody = msg()  # a bid without player_id
    nobody.licitiranje.type = -1
    at = next(
        k for k, b in enumerate(view) if msg.FromString(base64.b64decode(b)).HasField("licitiranje")
    )
    view.insert(at, base64.b64encode(nobody.SerializeToString()).decode())
    f = tmp_path / "g.p1.msgs"
    f.write_text(json.dumps(view))
    res = import_files([f])
    assert res.sessions == []
    assert [(r.record, r.code) for r in res.rejects] == [(at + 1, "palcka.player")]


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    r = CliRunner().invoke(app, ["import", "palcka", str(tmp_path / "none.msgs")])
    assert r.exit_code == 2
    r = CliRunner().invoke(app, ["import", "palcka", str(GAMELOG), "-o", str(tmp_path / "x.txt")])
    assert r.exit_code == 2


# --------------------------------------------------------------------------- fuzz


def _mutate(rng: random.Random, data: bytes) -> bytes:
    b = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(3)
        i = rng.randrange(len(b)) if b else 0
        if op == 0 and b:
            b[i] = rng.randrange(256)
        elif op == 1 and b:
            del b[i : i + rng.randint(1, 40)]
        else:
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 5)))
    return bytes(b)


def _mutate_record(rng: random.Random, view: list[Any]) -> list[Any]:
    """A message list with one record's protobuf bytes mutated (valid base64 and JSON)."""
    out = list(view)
    k = rng.randrange(len(out))
    raw = base64.b64decode(out[k])
    out[k] = base64.b64encode(_mutate(rng, raw)).decode()
    return out


def _mutate_entry(rng: random.Random, log: list[Any]) -> list[Any]:
    out = [dict(e) for e in log]
    e = out[rng.randrange(len(out))]
    key = rng.choice(list(e))
    e[key] = rng.choice([None, -7, 99, "", "/pik/as", ["/x"], True, "16", e.get("card")])
    return out


def test_a_few_hundred_mutated_inputs_give_sessions_or_located_rejects(tmp_path: Path) -> None:
    rng = random.Random(35)
    views = sorted((FOLDER / "messages").glob("game-a.*.msgs"))
    texts = [p.read_bytes() for p in views]
    lists = [json.loads(t) for t in texts]
    log = json.loads(GAMELOG.read_text())
    outcomes = {"sessions": 0, "rejects": 0}
    for n in range(300):
        d = tmp_path / str(n)
        d.mkdir()
        kind = n % 3
        for k, p in enumerate(views):
            if kind == 0 and k == n % 4:
                data = _mutate(rng, texts[k])
            elif kind == 1 and k == n % 4:
                data = json.dumps(_mutate_record(rng, lists[k])).encode()
            else:
                data = texts[k]
            (d / p.name).write_bytes(data)
        if kind == 2:
            (d / GAMELOG.name).write_text(json.dumps(_mutate_entry(rng, log)))
        res = import_files(sorted(d.iterdir()))
        for s in res.sessions:
            SessionAdapter.validate_python(s)
        for r in res.rejects:
            assert isinstance(r, Reject) and r.code in CODES and r.record >= 1
            assert not r.message.startswith(("not converted", "not read")), r  # no exception
            assert Path(r.file).parent == d
        outcomes["sessions"] += len(res.sessions)
        outcomes["rejects"] += len(res.rejects)
    assert outcomes["sessions"] > 0 and outcomes["rejects"] > 0


# --------------------------------------------------------------------------- mappings


def test_a_three_player_game_merges_and_replays_whole(tmp_path: Path) -> None:
    from tarock_logs.tools.simulate import TournamentSpec, simulate_tournament

    mod = _script()
    for seed in range(1, 200):
        res = simulate_tournament(
            TournamentSpec(seed=seed, tables=(3,), rounds=1, games_per_round=1)
        )
        session = next(iter(res.files.values()))[0]
        hand = session["hands"][0]
        if mod._plain(hand, announced=False):
            break
    else:  # pragma: no cover - the seeds above hold such a hand
        raise AssertionError("no plain three-player hand")
    g = mod._game(session, hand)
    for k, view in enumerate(mod._views(g)):
        (tmp_path / f"g3.{k}.msgs").write_text(json.dumps(view))
    (imported,) = _sessions(sorted(tmp_path.iterdir())).values()
    h = imported.hands[0]
    assert len(imported.players) == 3 and h.deal is not None and h.dealer == hand["dealer"]
    assert [a.model_dump(exclude_defaults=True) for a in h.actions if a.type == "play"] == [
        a for a in hand["actions"] if a["type"] == "play"
    ]
    replay = replay_hand(imported, 0)
    assert replay.legal and replay.verified


def test_announcements_and_kontras_of_a_game_log(tmp_path: Path) -> None:
    log = json.loads(GAMELOG.read_text())
    turns = [k for k, e in enumerate(log) if e["actionType"] == 13]
    declarer = next(e["userId"] for e in log if e["actionType"] == 3)
    defender = next(k for k in turns if log[k]["userId"] != declarer)
    log[defender]["additionalData"] = ["game/kontra1"]
    f = tmp_path / GAMELOG.name
    f.write_text(json.dumps(log))
    (session,) = import_files([f]).sessions
    kontras = [a for a in session["hands"][0]["actions"] if a["type"] == "kontra"]
    players = [p["id"] for p in session["players"]]
    assert kontras == [
        {"type": "kontra", "seat": players.index(log[defender]["userId"]), "target": "game",
         "level": 1}
    ]  # fmt: skip
    log[defender]["additionalData"] = ["game/kontra9", "trula/prediction"]
    f.write_text(json.dumps(log))
    res = import_files([f])
    assert (defender + 1, "additionalData", "palcka.prediction") in [
        (r.record, r.field, r.code) for r in res.rejects
    ]


def test_kontras_and_announcements_of_message_lists() -> None:
    msg = message_class()
    views = sorted((FOLDER / "messages").glob("game-b.*.msgs"))
    lists = [json.loads(p.read_text()) for p in views]
    decoded = [msg.FromString(base64.b64decode(b)) for b in lists[0]]
    players = [u.id for u in sorted(decoded[0].game_start.user, key=lambda u: u.position)]
    turns = [k for k, m in enumerate(decoded) if m.HasField("predictions")]
    declarer_row = next(m for m in decoded if m.HasField("results")).results.user[0]
    side = {u.id for u in declarer_row.user}
    k = next(k for k in turns if decoded[k].player_id not in side)
    giver = decoded[k].player_id
    for view in lists:  # every view gets the same broadcast
        changed = msg.FromString(base64.b64decode(view[k]))
        changed.predictions.igra_kontra = 1
        changed.predictions.igra_kontra_dal.id = giver
        changed.predictions.pagat_ultimo.id = giver
        view[k] = base64.b64encode(changed.SerializeToString()).decode()
    with_kontra = [json.dumps(v) for v in lists]
    res = _convert_texts(with_kontra)
    actions = res["hands"][0]["actions"]
    seat = players.index(giver)
    assert {"type": "kontra", "seat": seat, "target": "game", "level": 1} in actions
    assert {"type": "announce", "seat": seat, "bonus": "pagat_ultimo"} in actions


def _convert_texts(texts: list[str]) -> dict[str, Any]:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        paths = []
        for k, t in enumerate(texts):
            p = Path(d) / f"g.{k}.msgs"
            p.write_text(t)
            paths.append(p)
        (session,) = import_files(paths).sessions
    return session


def test_an_announced_mondfang_is_kept_for_the_audit_to_flag() -> None:
    """Palčka lets a player announce mondfang; the ruleset has no such announcement: the
    action is written as recorded and the replay flags it (docs/importers.md, "Ruleset")."""
    msg = message_class()
    lists = [json.loads(p.read_text()) for p in sorted((FOLDER / "messages").glob("game-a.*"))]
    decoded = [msg.FromString(base64.b64decode(b)) for b in lists[0]]
    k = [i for i, m in enumerate(decoded) if m.HasField("predictions")][1]
    for view in lists:
        changed = msg.FromString(base64.b64decode(view[k]))
        changed.predictions.mondfang.id = changed.player_id
        view[k] = base64.b64encode(changed.SerializeToString()).decode()
    session = SessionAdapter.validate_python(_convert_texts([json.dumps(v) for v in lists]))
    assert any(a.type == "announce" and a.bonus == "mondfang" for a in session.hands[0].actions)
    replay = replay_hand(session, 0)
    error = replay.first_error()
    assert not replay.legal and error is not None and error.code == "ann.unknown_bonus"


def test_radelci_before_the_game_follow_from_the_radelci_after_it() -> None:
    from tarock_logs.tools.importers.palcka import _radelci_before

    def row(**kw: Any) -> dict[str, Any]:
        base = {"playing": False, "radelc": False, "mondfang": False, "igra": 0}
        return base | kw

    after = {"scores": [0, 40, 40, 0], "radelci_after": [1, 2, 1, 1]}
    # a tri: nobody draws one; the declarer (seat 1) had none to cross out
    assert _radelci_before([row(playing=True, igra=10)], after, "three", 1) == [1, 2, 1, 1]
    # won with a radelc: the declarer's was crossed out, so he had one more before
    won = [row(playing=True, radelc=True, igra=10)]
    assert _radelci_before(won, after, "three", 1) == [1, 3, 1, 1]
    # a berač: everyone drew one
    assert _radelci_before([row(playing=True, igra=70)], after, "berac", 1) == [0, 1, 0, 0]
    assert _radelci_before([row(playing=True, igra=-70)], after, "berac", 1) == [0, 1, 0, 0]
    # not told: one view only, or a mondfang (its radelc is a game option), or it goes negative
    assert _radelci_before([row(playing=True)], {"scores": [0] * 4}, "three", 1) is None
    assert _radelci_before([row(mondfang=True)], after, "three", 1) is None
    zero = {"scores": [0] * 4, "radelci_after": [0, 0, 0, 0]}
    assert _radelci_before([row(playing=True, igra=70)], zero, "berac", 1) is None
