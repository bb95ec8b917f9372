"""The entry box (issue 36, "entry kept apart"): new files only, a quota, nothing ingested
until a referee accepts it, nothing lost when one is rejected."""

from __future__ import annotations

from pathlib import Path

import pytest

from dashboard import entries
from dashboard.entries import EntryBox, EntryRefused
from tarock_logs.log.reader import iter_log_files as iter_paths


def test_a_second_entry_of_the_same_session_does_not_replace_the_first(tmp_path: Path) -> None:
    box = EntryBox(tmp_path)
    a = box.save("club-7", '{"first": 1}')
    b = box.save("club-7", '{"second": 2}')
    assert a != b
    assert {p.name for p in box.pending()} == {a, b}
    assert box.read(a) == '{"first": 1}' and box.read(b) == '{"second": 2}'


def test_pending_entries_are_not_read_by_ingest_until_accepted(tmp_path: Path) -> None:
    box = EntryBox(tmp_path)
    name = box.save("club-7", "{}")
    assert list(iter_paths([tmp_path])) == []  # .pending is a hidden folder: skipped
    accepted = box.accept(name)
    assert [p.name for p in iter_paths([tmp_path])] == [accepted]
    assert box.pending() == []


def test_accepting_never_overwrites_an_accepted_file(tmp_path: Path) -> None:
    box = EntryBox(tmp_path)
    name = box.save("club-7", "new")
    (tmp_path / name).write_text("old")  # already there under the same name
    moved = box.accept(name)
    assert moved != name and (tmp_path / name).read_text() == "old"
    assert (tmp_path / moved).read_text() == "new"


def test_a_rejected_entry_is_kept_aside(tmp_path: Path) -> None:
    box = EntryBox(tmp_path)
    name = box.save("club-7", "{}")
    kept = box.reject(name)
    assert (tmp_path / ".rejected" / kept).read_text() == "{}"
    assert list(iter_paths([tmp_path])) == []


def test_the_quota_bounds_what_waits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(entries, "MAX_PENDING", 2)
    box = EntryBox(tmp_path)
    box.save("a", "{}")
    box.save("b", "{}")
    with pytest.raises(EntryRefused) as exc:
        box.save("c", "{}")
    assert exc.value.code == "entry.quota"
    with pytest.raises(EntryRefused) as big:
        EntryBox(tmp_path / "other").save("d", "x" * (entries.MAX_ENTRY_BYTES + 1))
    assert big.value.code == "entry.too_large"


@pytest.mark.parametrize("name", ["../escape.json", "/etc/passwd", "a/b.json", "x.txt"])
def test_only_pending_entries_by_their_own_names_can_be_moved(tmp_path: Path, name: str) -> None:
    with pytest.raises(EntryRefused) as exc:
        EntryBox(tmp_path).accept(name)
    assert exc.value.code == "entry.unknown"


def test_a_session_id_cannot_steer_the_file_name(tmp_path: Path) -> None:
    name = EntryBox(tmp_path).save("../../etc/x y", "{}")
    assert "/" not in name and (tmp_path / ".pending" / name).is_file()
