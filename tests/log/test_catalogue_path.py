"""A Royal ``catalogue_path`` in a log's options names a regular file of at most 1 MiB in the
log's own folder (issue 14, defect 11): resolved against the log file, never the working
directory; an absolute path, ``..``, a device, a pipe, a folder or a huge file is a located
error, and the engine never waits on such a file."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest

from tarock_logs.log.models import SessionAdapter
from tarock_logs.log.options import (
    CATALOGUE_MAX_BYTES,
    catalogue_file,
    session_options,
    source_dir,
    with_source,
)
from tarock_logs.log.reader import read_file
from tarock_logs.rules.royal.catalogue import MAX_CATALOGUE_BYTES, read_catalogue_file
from tarock_logs.verdict.audit import audit_session

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "royal" / "worked-examples.json"
CLUB = {"extends": "royal-gerots-2023", "catalogue": "club-2024",
        "items": [{"id": "F_SPIEL", "value": 11}]}  # fmt: skip


def _match(catalogue_path: str) -> dict[str, Any]:
    doc = json.loads(SAMPLE.read_text())
    doc["options"]["catalogue_path"] = catalogue_path
    return doc


def _write(path: Path, doc: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    return path


def test_a_catalogue_path_is_resolved_against_the_logs_folder_not_the_working_directory(
    tmp_path, monkeypatch
):
    log = _write(tmp_path / "logs" / "match.json", _match("catalogues/club.json"))
    _write(tmp_path / "logs" / "catalogues" / "club.json", CLUB)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    [rec] = list(read_file(log))
    assert rec.ok, [str(e) for e in rec.all_errors()]
    assert source_dir(rec.session) == log.parent.absolute()
    assert session_options(rec.session)["catalogue_path"] == str(
        (log.parent / "catalogues" / "club.json").absolute()
    )
    first = audit_session(rec.session, file=str(log)).hands[0]
    assert ("F_SPIEL", 0, -10, -11) in {
        (d.item, d.seat, d.recorded, d.recomputed) for d in first.discrepancies
    }


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ("/dev/zero", "absolute path"),
        ("/etc/passwd", "absolute path"),
        ("../club.json", "leaves the log's folder"),
        ("sub/../../club.json", "leaves the log's folder"),
        ("missing.json", "no such file"),
        ("folder", "not a regular file"),
        ("pipe", "not a regular file"),
        ("big.json", "at most"),
    ],
)
def test_a_catalogue_path_outside_the_rules_is_a_located_error(tmp_path, value, why):
    logs = tmp_path / "logs"
    (logs / "folder").mkdir(parents=True)
    os.mkfifo(logs / "pipe")
    (logs / "big.json").write_bytes(b" " * (CATALOGUE_MAX_BYTES + 1))
    log = _write(logs / "match.json", _match(value))
    t0 = time.monotonic()
    [rec] = list(read_file(log))
    assert time.monotonic() - t0 < 5  # nothing waited on (a pipe, /dev/zero)
    assert rec.session is None
    [err] = rec.errors
    assert (err.code, err.path) == ("options.catalogue_path", "$.options.catalogue_path")
    assert why in err.message


def test_text_not_read_from_a_file_has_only_the_form_of_its_path_checked():
    with pytest.raises(ValueError, match="absolute"):
        catalogue_file("/dev/zero", None)
    assert catalogue_file("club.json", None) is None


def test_a_session_built_in_code_keeps_its_catalogue_path_as_its_caller_gave_it(tmp_path):
    club = _write(tmp_path / "club.json", CLUB)
    session = SessionAdapter.validate_python(_match(str(club)))
    assert source_dir(session) is None
    assert session_options(session)["catalogue_path"] == str(club)


def test_a_session_given_its_file_again_resolves_and_checks_its_catalogue(tmp_path):
    log = tmp_path / "logs" / "match.json"
    session = with_source(SessionAdapter.validate_python(_match("club.json")), log)
    with pytest.raises(ValueError, match="no such file"):
        session_options(session)
    _write(tmp_path / "logs" / "club.json", CLUB)
    assert session_options(session)["catalogue_path"] == str(log.parent.absolute() / "club.json")


def test_the_engine_reads_only_regular_files_of_bounded_size(tmp_path):
    assert MAX_CATALOGUE_BYTES == CATALOGUE_MAX_BYTES
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "big.json").write_bytes(b" " * (MAX_CATALOGUE_BYTES + 1))
    for path, why in [("/dev/zero", "not a regular file"), (tmp_path / "pipe", "regular"),
                      (tmp_path, "directory"), (tmp_path / "big.json", "over")]:  # fmt: skip
        t0 = time.monotonic()
        with pytest.raises(ValueError, match=why):
            read_catalogue_file(path)
        assert time.monotonic() - t0 < 5
