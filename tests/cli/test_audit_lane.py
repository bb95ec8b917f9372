"""``tarock audit`` through the ingest lane: a record the lane takes is reported as
``audit_session`` reports it.

The local audit offers each record of a JSONL file to
:func:`tarock_logs.store.write.lane.reader_lane` first (``cli.audit.LANE``); the lane takes only
records the careful path would find verified and clean, and its
:class:`~tarock_logs.verdict.audit.SessionAudit` must be the careful one. Each test runs the
command twice, with the lane and without it, and requires the same output (``--format json`` and
``jsonl``: every hand, session and tournament record, the input errors and the summary) and the
same exit code; and that the lane took records at all.
"""

from __future__ import annotations

import copy
import random
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs import _native
from tarock_logs.cli import audit as audit_cli
from tarock_logs.cli import main  # noqa: F401 - registers the commands
from tarock_logs.cli.common import app
from tarock_logs.store.write import lane
from tarock_logs.tools.simulate import TournamentSpec, simulate_hands, simulate_tournament
from tests.store.test_lane import _mutate, _zr_base, _zr_score_off, _zr_thrown_in, royal_docs
from tests.support.audit_once import AUDITED, MADE, audited_once
from tests.support.lane_count import LaneCount

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

pytestmark = pytest.mark.skipif(
    not lane.available(), reason=f"the native core is not loaded: {_native.why_not}"
)


def _audit(args: list[str], on: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    with monkeypatch.context() as mp:
        mp.setattr(audit_cli, "LANE", on)
        mp.setattr(audit_cli, "_audited", audited_once)  # (tests/support/audit_once.py)
        res = runner.invoke(app, ["audit", *args])
    assert res.exit_code in (0, 1, 5), res.output
    return res.exit_code, res.stdout


@pytest.fixture(autouse=True)
def _audits_of_this_test() -> None:
    AUDITED.clear()  # (each test's lane count starts from its own audits)


def _same(paths: list[Path], monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    """The command's output with and without the lane, in both JSON formats; returns how many
    records the lane took in one audit. The input is audited once with the lane and once
    without it (tests/support/audit_once.py: the format does not reach the audit), each audit
    rendered in both formats."""
    count = LaneCount(monkeypatch)
    made = MADE[True]
    for fmt in ("json", "jsonl"):
        args = [*map(str, paths), "--format", fmt, *extra]
        careful = _audit(args, False, monkeypatch)
        fast = _audit(args, True, monkeypatch)
        assert count.taken > 0 or not fast[1]
        assert fast[0] == careful[0]
        if fast[1] != careful[1]:
            a, b = careful[1].splitlines(), fast[1].splitlines()
            first = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), 0)
            pytest.fail(f"--format {fmt}: line {first} differs:\n careful {a[first][:2000]}\n"
                        f" lane    {b[first][:2000]}")  # fmt: skip
    made = MADE[True] - made  # (one, or two where the audit could not be kept)
    assert count.taken % made == 0
    return count.taken // made


def _write(path: Path, docs: list[Any]) -> Path:
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in docs))
    return path


def test_the_sample_logs_are_audited_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sample log (the malformed ones, the disputes and the tournament rounds): the
    lane takes the ordinary tournament tables, the rest is the careful path's."""
    taken = _same([ROOT / "sample_logs"], monkeypatch)
    assert taken >= 3  # (three ordinary tables)


def test_a_simulated_tournament_is_audited_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rounds of tables of 3, 4 and 5 (the placement points settled over the tournament), one
    planted dispute: the standings and the summary are the careful ones."""
    spec = TournamentSpec(seed=11, game="slovenian", tables=(4, 3, 5, 4), rounds=3,
                          games_per_round=8, plant_disputes=2)  # fmt: skip
    folder = tmp_path / "t"
    folder.mkdir()
    for name, docs in simulate_tournament(spec).files.items():
        if name.endswith(".jsonl"):
            _write(folder / Path(name).name, docs)
    assert _same([folder], monkeypatch) >= 5


def test_long_sessions_and_mutants_are_audited_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sessions of 300 hands, and 200 sessions each changed a little (most of them then
    illegal, misscored or unreadable: the careful path's), in one file."""
    rng = random.Random(612)
    pool = simulate_hands(600, 23, hands_per_session=300)
    small = simulate_hands(64, 24, table_size=3)
    docs = list(pool)
    for _ in range(200):
        doc = copy.deepcopy(rng.choice(small))
        doc.pop("recorded", None)
        if rng.random() < 0.8:
            _mutate(rng, doc)
        docs.append(doc)
    assert _same([_write(tmp_path / "mixed.jsonl", docs)], monkeypatch) >= 2


def test_a_what_if_ruleset_never_takes_the_lane(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--ruleset`` re-scores every hand under another ruleset: the lane (which scores under
    the record's own) is not offered the records."""
    path = _write(tmp_path / "s.jsonl", simulate_hands(32, 5))
    count = LaneCount(monkeypatch)
    code, out = _audit([str(path), "--format", "json", "--ruleset", "openspiel-2.0"], True,
                       monkeypatch)  # fmt: skip
    assert count.taken == 0
    assert orjson.loads(out)["summary"]["hands"] == 32
    assert code in (0, 1, 5)


def test_zwanzigerrufen_sessions_are_audited_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zwanzigerrufen sessions (its native engine, zrhand.h, through the lane): the clean ones
    taken, the rest (an implied Kontra's info line, a planted illegal card) the careful
    path's; the same report either way."""
    docs = simulate_hands(96, 8, game="zwanzigerrufen", hands_per_session=4)
    bad = copy.deepcopy(docs[0])
    plays = [a for a in bad["hands"][0]["actions"] if a["type"] == "play"]
    plays[0]["card"], plays[5]["card"] = plays[5]["card"], plays[0]["card"]
    assert _same([_write(tmp_path / "zr.jsonl", [*docs, bad])], monkeypatch) >= 10


def test_royal_matches_are_audited_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Royal Tarock matches (its native engine, royalhand.h, through the lane) under a club's
    completed catalogue: the clean ones taken, the rest (a swapped card, a wrong score line,
    a match without a known consolation) the careful path's; the same report either way."""
    docs = royal_docs(48, 9, {"consolation": 0}, tmp_path)
    bad = copy.deepcopy(docs[0])
    plays = [a for a in bad["hands"][0]["actions"] if a["type"] == "play"]
    plays[0]["card"], plays[5]["card"] = plays[5]["card"], plays[0]["card"]
    wrong = copy.deepcopy(docs[1])
    wrong["id"] += "-wrong"
    wrong["hands"][2]["result"]["items"][0]["value"] += 3
    unknown = simulate_hands(8, 4, game="royal")
    path = _write(tmp_path / "royal.jsonl", [*docs, bad, wrong, *unknown])
    assert _same([path], monkeypatch) >= 2


def test_zwanzigerrufen_hands_with_findings_are_audited_alike_hand_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sessions of 16 whose hands the lane splits between the native engine and the reference
    (the implied Kontras and voided announcements of the bench's data: info lines, reported on
    their hands), and one with two cards swapped in its fifth hand (the reference's replay
    stops there: the careful path reads that session whole): the lane takes the others, and
    the report is the careful one."""
    docs = simulate_hands(320, 7, game="zwanzigerrufen")
    bad = copy.deepcopy(docs[1])
    bad["id"] += "-bad"
    plays = [a for a in bad["hands"][4]["actions"] if a["type"] == "play"]
    plays[8]["card"], plays[9]["card"] = plays[9]["card"], plays[8]["card"]
    path = _write(tmp_path / "zr.jsonl", [*docs, bad])
    refs = 0
    for i, line in enumerate(path.read_bytes().splitlines(), start=1):
        ls = lane.read_session(line, str(path), i)
        refs += 0 if ls is None else sum(isinstance(h, lane.RefHand) for h in ls.hands)
    assert refs >= 10
    assert _same([path], monkeypatch) == len(docs)


def test_zwanzigerrufen_deals_thrown_in_and_hands_scored_otherwise_are_audited_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deal thrown in (zrhand.h plays none) and a hand whose recorded score is not the
    engine's (in sessions without recorded totals): the lane has the reference audit that hand
    alone and takes the session, and the report (the difference's finding included) is the
    careful one."""
    docs = []
    for k in range(4):
        doc = _zr_base(k + 1)
        doc.pop("recorded", None)
        if k % 2:
            _zr_score_off(doc["hands"][k + 1])
        else:
            _zr_thrown_in(doc, k + 1, seat=k)
        docs.append(doc)
    assert _same([_write(tmp_path / "zr.jsonl", docs)], monkeypatch) == len(docs)


def test_slovenian_hands_the_native_score_cannot_check_are_audited_alike_hand_by_hand(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Slovenian sessions of 16 at tables of 3 and 4 with a score line of an unknown item on
    some hands (the reference notes it there; the radelci carried across): the lane takes them
    hand by hand, and the report is the careful one."""
    docs = [*simulate_hands(32, 5, table_size=3, hands_per_session=16),
            *simulate_hands(32, 6, hands_per_session=16)]  # fmt: skip
    for k, d in enumerate(docs):
        d["hands"][3 + 4 * k]["result"].setdefault("items", []).append(
            {"item": "bogus", "value": 2}
        )
    assert _same([_write(tmp_path / "slo.jsonl", docs)], monkeypatch) == len(docs)


@pytest.mark.parametrize("game", ["slovenian", "zwanzigerrufen", "royal"])
def test_a_first_dealer_the_first_hand_contradicts_is_reported_alike(
    game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reader warns when hand 1 is not dealt by the session's ``first_dealer``
    (``deal.dealer_rotation``); a session the native engine would play whole must say so
    too, with or without the lane (it declined nothing here before: the rotation was checked
    only in sessions with a hand the reference audited)."""
    if game == "royal":
        docs = royal_docs(8, 5, {"consolation": 0}, tmp_path)
    else:
        docs = simulate_hands(32, 5, game=game, hands_per_session=4)
    for d in docs:
        d["first_dealer"] = (d["hands"][0]["dealer"] + 1) % len(d["players"])
    path = _write(tmp_path / f"{game}.jsonl", docs)
    for fmt in ("json", "jsonl"):
        careful = _audit([str(path), "--format", fmt], False, monkeypatch)
        assert _audit([str(path), "--format", fmt], True, monkeypatch) == careful
        if fmt == "json":  # (the session's findings are in the json report)
            assert careful[1].count("deal.dealer_rotation") >= len(docs)
