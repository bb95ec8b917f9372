"""``tarock audit`` keeps a pointer per clean hand, not its record (``cli.audit._compacted``),
and ``--format json`` spools the hand records to a file as they come (``cli.audit._HandSpool``).

The stand-in must answer as every hand it replaces does, and the spooled document must be the
one made whole at the end from the hands themselves: so each output is the same as the old way
(every hand kept, the json document dumped whole): on the samples (malformed logs, disputes,
tournament rounds, three games, players' names beyond ASCII), a simulated tournament with
planted disputes and tables of five, and mutants.
"""

from __future__ import annotations

import copy
import random
import sys
from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from tarock_logs.cli import audit as audit_cli
from tarock_logs.cli import main  # noqa: F401 - registers the commands
from tarock_logs.cli.common import app
from tarock_logs.tools.simulate import TournamentSpec, simulate_hands, simulate_tournament
from tarock_logs.verdict.audit import HandAudit
from tests.store.test_lane import _mutate
from tests.support.audit_once import audited_once

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

OUTPUTS = [
    ["--format", "json"],
    ["--format", "json", "--code", "score.total_differs,renons.unclaimed"],
    ["--format", "table"],
    ["--format", "jsonl"],
    ["--format", "table", "--summary"],
    ["--format", "json", "--summary"],
    ["--format", "table", "--code", "score.total_differs,renons.unclaimed"],
]


class _Whole:
    """The old way of ``--format json``: the hands kept, the document dumped whole at the end."""

    def __init__(self) -> None:
        self.hands: list[HandAudit] = []

    def add(self, h: HandAudit) -> None:
        self.hands.append(h)

    def write(self, doc: dict[str, Any]) -> None:
        doc["hands"] = [h.to_dict() for h in self.hands]
        sys.stdout.write(audit_cli._dumps(doc) + "\n")

    def close(self) -> None:
        pass


def _run(args: list[str], compact: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    with monkeypatch.context() as mp:
        mp.setattr(audit_cli, "_audited", audited_once)  # (tests/support/audit_once.py)
        if compact:
            mp.setattr(audit_cli._HandSpool, "CHUNK", 7)  # (characters straddle the reads)
        else:
            mp.setattr(audit_cli, "_compacted", lambda sa: sa)
            mp.setattr(audit_cli, "_HandSpool", _Whole)
        res = runner.invoke(app, ["audit", *args], env={"COLUMNS": "200"})
    assert res.exit_code in (0, 1, 5), res.output
    return res.exit_code, res.stdout


def _same(paths: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    for out in OUTPUTS:
        args = [*map(str, paths), *out]
        assert _run(args, True, monkeypatch) == _run(args, False, monkeypatch), out


def test_the_sample_logs_print_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    _same([ROOT / "sample_logs"], monkeypatch)


def test_a_tournament_with_disputes_and_mutants_print_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = TournamentSpec(seed=13, game="slovenian", tables=(4, 5, 3), rounds=2,
                          games_per_round=8, plant_disputes=3)  # fmt: skip
    for name, docs in simulate_tournament(spec).files.items():
        if name.endswith(".jsonl"):
            (tmp_path / Path(name).name).write_bytes(
                b"".join(orjson.dumps(d) + b"\n" for d in docs)
            )
    rng = random.Random(7)
    pool = simulate_hands(48, 8)
    mutants: list[Any] = []
    for _ in range(40):  # 640 hands, audited once and reported 14 ways
        doc = copy.deepcopy(rng.choice(pool))
        doc.pop("recorded", None)
        _mutate(rng, doc)
        mutants.append(doc)
    (tmp_path / "mutants.jsonl").write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in mutants))
    _same([tmp_path], monkeypatch)


def test_clean_hands_share_one_stand_in_and_the_others_keep_their_records(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kept: list[list[HandAudit]] = []
    compacted = audit_cli._compacted

    def spy(sa: Any) -> Any:
        out = compacted(sa)
        kept.append(out.hands)
        return out

    monkeypatch.setattr(audit_cli, "_compacted", spy)
    res = runner.invoke(app, ["audit", str(ROOT / "sample_logs"), "--summary"])
    assert res.exit_code == 1
    hands = [h for hs in kept for h in hs]
    clean = [h for h in hands if audit_cli._is_clean(h)]
    others = [h for h in hands if not audit_cli._is_clean(h)]
    assert len({id(h) for h in clean}) == 1 and len(clean) > 100
    assert others and all(h.hand_id for h in others)  # (their own records)
