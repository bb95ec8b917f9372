"""``tarock validate`` through the ingest lane: a record the lane takes is one the reader finds
valid, with no error and no warning, so the report is the same either way.

``validate_paths`` offers the records of a big JSONL file (``cli.validate.LANE_FROM_BYTES``;
0 here, so every file) to :func:`tarock_logs.store.write.lane.reader_lane` and only counts a
record it takes. Each test requires the same ``--format json`` report and exit code with
and without the lane, and that the lane took records at all.
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
from tarock_logs.cli import main  # noqa: F401 - registers the commands
from tarock_logs.cli import validate as validate_cli
from tarock_logs.cli.common import app
from tarock_logs.log.reader import read_file
from tarock_logs.store.write import lane
from tarock_logs.tools.simulate import simulate_hands
from tests.store.test_lane import _mutate
from tests.support.lane_count import LaneCount

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()

pytestmark = pytest.mark.skipif(
    not lane.available(), reason=f"the native core is not loaded: {_native.why_not}"
)


def _validate(args: list[str], on: bool, monkeypatch: pytest.MonkeyPatch) -> tuple[int, Any]:
    with monkeypatch.context() as mp:
        mp.setattr(validate_cli, "LANE", on)
        mp.setattr(validate_cli, "LANE_FROM_BYTES", 0)
        res = runner.invoke(app, ["validate", *args, "--format", "json"])
    assert res.exit_code in (0, 1), res.output
    return res.exit_code, orjson.loads(res.stdout)


def _same(paths: list[Path], monkeypatch: pytest.MonkeyPatch, *extra: str) -> int:
    count = LaneCount(monkeypatch)
    args = [*map(str, paths), *extra]
    careful = _validate(args, False, monkeypatch)
    assert count.taken == 0
    assert _validate(args, True, monkeypatch) == careful
    return count.taken


def _mutants(tmp_path: Path, seed: int, n: int) -> Path:
    rng = random.Random(seed)
    pool = simulate_hands(64, seed, table_size=3) + simulate_hands(64, seed + 1)
    docs = []
    for _ in range(n):
        doc = copy.deepcopy(rng.choice(pool))
        if rng.random() < 0.8:
            for _ in range(rng.choice((1, 1, 2))):
                _mutate(rng, doc)
        docs.append(doc)
    path = tmp_path / "mutants.jsonl"
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in docs))
    return path


def test_the_sample_logs_are_validated_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _same([ROOT / "sample_logs"], monkeypatch) >= 3


def test_mutants_are_validated_alike(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _same([_mutants(tmp_path, 41, 300)], monkeypatch) >= 30


def test_with_duplicates_the_lane_is_not_offered_the_records(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--duplicates`` reads every hand's model (a hand recorded twice, a session id read
    twice): the lane is not used, and the warnings are found."""
    docs = simulate_hands(32, 9)
    path = tmp_path / "twice.jsonl"
    path.write_bytes(b"".join(orjson.dumps(d) + b"\n" for d in (*docs, docs[0])))
    assert _same([path], monkeypatch, "--duplicates") == 0
    _, doc = _validate([str(path), "--duplicates"], True, monkeypatch)
    assert doc["errors_by_code"]["session.duplicate"] == 1


def test_every_record_the_lane_takes_the_reader_finds_valid_without_a_word(
    tmp_path: Path,
) -> None:
    """The property the report rests on, record by record, over mutants."""
    path = _mutants(tmp_path, 43, 400)
    lines = path.read_bytes().splitlines()
    taken = 0
    for i, (line, rec) in enumerate(zip(lines, read_file(path), strict=True), start=1):
        ls = lane.read_session(line, str(path), i)
        if ls is None:
            continue
        taken += 1
        assert rec.session is not None and not rec.all_errors() and not rec.rejected_hands
        assert len(rec.session.hands) == len(ls.hands)
    assert taken >= 40
