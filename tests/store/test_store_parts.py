"""Reading one JSONL file in parts (``reader.ByteSpan`` / ``sources.split_jsonl``) gives
exactly the records of reading it whole, and an ingest whose workers read files in parts
stores exactly the rows of a serial ingest (line numbers of rejects included)."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest

from tarock_logs.log.reader import ByteSpan, read_file
from tarock_logs.store import sources
from tarock_logs.store.write import ingest as ing
from tarock_logs.store.write import plan
from tests.support.store_fixtures import stored_rows

ROOT = Path(__file__).resolve().parents[2]
JSONL = sorted((ROOT / "sample_logs").rglob("*.jsonl"))


def _records(path: Path, span: ByteSpan | None = None) -> list[tuple]:
    return [
        (
            r.line,
            r.session.model_dump() if r.session else None,
            [e.to_dict() for e in r.all_errors()],
        )
        for r in read_file(path, span=span)
    ]


@pytest.mark.parametrize("path", JSONL, ids=lambda p: f"{p.parent.name}/{p.name}")
@pytest.mark.parametrize("parts", [2, 3, 7])
def test_reading_every_part_in_order_is_reading_the_file(path: Path, parts: int) -> None:
    spans = sources.split_jsonl(path, parts)
    size = path.stat().st_size
    assert spans[0].start == 0 and spans[-1].stop == size
    assert all(a.stop == b.start for a, b in itertools.pairwise(spans))
    data = path.read_bytes()
    for sp in spans:
        assert sp.start == 0 or data[sp.start - 1 : sp.start] == b"\n"  # a line start
        assert sp.first_line == data[: sp.start].count(b"\n") + 1
    got = [rec for sp in spans for rec in _records(path, sp)]
    assert got == _records(path)


def test_a_file_with_a_bom_blank_lines_and_a_cut_off_last_line(tmp_path: Path) -> None:
    lines = [ln for p in sorted((ROOT / "sample_logs" / "tournament").glob("*.jsonl"))
             for ln in p.read_bytes().splitlines()]  # fmt: skip
    f = tmp_path / "odd.jsonl"
    f.write_bytes(b"\xef\xbb\xbf\n\n" + b"\n\n".join(lines[:6]) + b"\n\n" + lines[6][:500])
    spans = sources.split_jsonl(f, 5)
    assert len(spans) > 2
    got = [rec for sp in spans for rec in _records(f, sp)]
    assert got == _records(f)
    codes = [e["code"] for _, _, errs in got for e in errs]
    assert "json.bom" in codes and "file.truncated" in codes


def test_files_that_cannot_be_cut_stay_whole(tmp_path: Path) -> None:
    j = ROOT / "sample_logs" / "royal" / "worked-examples.json"
    assert sources.split_jsonl(j, 4) == [ByteSpan(0, j.stat().st_size, 1)]
    one = tmp_path / "one.jsonl"
    one.write_bytes(JSONL[0].read_bytes().splitlines()[0] + b"\n")
    assert len(sources.split_jsonl(one, 4)) == 1
    with pytest.raises(ValueError):
        list(read_file(j, span=ByteSpan(0, 10, 1)))


def test_an_ingest_in_parts_stores_the_serial_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    logs = tmp_path / "logs"
    logs.mkdir()
    rounds = sorted((ROOT / "sample_logs" / "tournament").glob("*.jsonl"))
    (logs / "all-rounds.jsonl").write_bytes(b"".join(p.read_bytes() for p in rounds))
    for p in [ROOT / "sample_logs" / "disputed" / "round-1.jsonl",
              ROOT / "sample_logs" / "malformed" / "mixed.jsonl",
              ROOT / "sample_logs" / "malformed" / "json.bom.json"]:  # fmt: skip
        shutil.copy(p, logs / p.name)
    monkeypatch.setattr(plan, "UNIT_MIN_BYTES", 20_000)
    units = plan.plan_units(sources.list_files([logs]), 2)
    assert any(u.n >= 2 for u in units) and any(u.n == 1 for u in units)
    serial = ing.ingest([logs], db=tmp_path / "serial.duckdb", jobs=1)
    parts = ing.ingest([logs], db=tmp_path / "parts.duckdb", jobs=2)
    assert parts.to_dict() | {"db": ""} == serial.to_dict() | {"db": ""}
    a, b = stored_rows(tmp_path / "serial.duckdb"), stored_rows(tmp_path / "parts.duckdb")
    assert len(a["hands"]) > 150 and a["rejects"]
    assert a == b
    again = ing.ingest([logs], db=tmp_path / "parts.duckdb", jobs=2)
    assert again.hands_stored == 0 and again.hands_unchanged == serial.hands_stored


def test_one_big_file_is_read_by_several_workers(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # fmt: skip
    src = ROOT / "sample_logs" / "tournament" / "round-2.jsonl"
    monkeypatch.setattr(plan, "UNIT_MIN_BYTES", 10_000)
    assert len(plan.plan_units([src], 2)) == 3  # one part per session line
    serial = ing.ingest([src], db=tmp_path / "serial.duckdb", jobs=1)
    parts = ing.ingest([src], db=tmp_path / "parts.duckdb", jobs=2)
    assert parts.hands_stored == serial.hands_stored > 40
    assert stored_rows(tmp_path / "serial.duckdb") == stored_rows(tmp_path / "parts.duckdb")
