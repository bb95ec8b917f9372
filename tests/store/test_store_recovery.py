"""An ingest that recovers by itself: the writer lock, killed ingests, full disks, durability.

Regression tests for issue 14's ingest defects: orphaned workers holding the lock after
``kill -9`` (5), a lock file deleted while held (6), no fsync around the publish and disk
errors that left files behind and exited with the usage code (7); and the ``--wait`` option.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import duckdb
import pytest
from typer.testing import CliRunner

from tarock_logs.cli import app
from tarock_logs.store import connect as dbc
from tarock_logs.store.write import ingest as ing
from tarock_logs.store.write import lock as writer_lock
from tarock_logs.tools.simulate import dumps_session, simulate_hands
from tests.support.store_fixtures import stats_dataset, stored_rows, write_json

TAROCK = Path(sys.executable).with_name("tarock")


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four files of 128 simulated hands: a 2-worker ingest of them takes about a second."""
    folder = tmp_path_factory.mktemp("recovery") / "logs"
    folder.mkdir()
    sessions = simulate_hands(512, 14, hands_per_session=16)
    for i in range(4):
        part = sessions[i * 8 : (i + 1) * 8]
        (folder / f"f{i}.jsonl").write_bytes(b"".join(dumps_session(s) for s in part))
    return folder


@pytest.fixture(scope="module")
def clean(logs: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple]]:
    """The rows of a clean serial ingest of :func:`logs`."""
    db = tmp_path_factory.mktemp("clean") / "clean.duckdb"
    ing.ingest([logs], db=db, jobs=1)
    return stored_rows(db)


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rpartition(")")[2].split()
            if len(fields) > 1 and int(fields[1]) == pid and fields[0] != "Z":
                out.append(int(entry.name))
    return out


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def _start_ingest(logs: Path, db: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [str(TAROCK), "ingest", str(logs), "--db", str(db), "--jobs", "2", "-q"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _kill_while_workers_run(proc: subprocess.Popen[bytes], after: float) -> list[int]:
    """``kill -9`` the ingest ``after`` seconds into its workers' run; the workers' pids."""
    # generous: on a loaded machine the CLI's imports alone took 20 s (issue 18's benchmark run)
    deadline = time.monotonic() + 180
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < deadline and proc.poll() is None:
        workers = _children(proc.pid)
        time.sleep(0.02)
    assert len(workers) >= 2, "the ingest started no workers"
    time.sleep(after)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return workers


def _leftovers(folder: Path, db: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(db.name + "."))


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_the_workers_of_a_killed_ingest_die_with_it_and_hold_no_lock(
    logs: Path, tmp_path: Path
) -> None:
    """Defect 5: the pool workers inherited the locked descriptor and outlived ``kill -9``, so
    every re-run exited 4 until someone killed them."""
    db = tmp_path / "t.duckdb"
    workers = _kill_while_workers_run(_start_ingest(logs, db), 0.2)
    deadline = time.monotonic() + 5
    while any(_running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [w for w in workers if _running(w)], "workers outlived the killed ingest"
    lock = writer_lock.acquire(db)  # no wait: nobody holds it
    lock.release()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")
def test_killed_two_worker_ingests_are_recovered_by_a_plain_rerun(
    logs: Path, clean: dict[str, list[tuple]], tmp_path: Path
) -> None:
    """kill -9 at different moments of a 2-worker ingest (fresh, then on top of a published
    store), then a plain re-run: exit 0, the store equals a clean ingest (no hand lost or
    duplicated), nothing left behind, no manual step. ``benchmarks/kill_restart.py`` runs 20
    such trials."""
    rng = random.Random(14)
    for trial in range(3):
        db = tmp_path / f"t{trial}.duckdb"
        if trial == 2:  # the killed ingest works on a copy of a published store
            ing.ingest([logs / "f0.jsonl"], db=db, jobs=1)
        _kill_while_workers_run(_start_ingest(logs, db), rng.uniform(0.0, 0.8))
        # the plain re-run in this process (a command of its own cost a start-up a trial)
        rerun = CliRunner().invoke(app, ["ingest", str(logs), "--db", str(db), "-q"])
        assert rerun.exit_code == 0, rerun.output
        assert stored_rows(db) == clean, f"trial {trial}"
        assert _leftovers(tmp_path, db) == [], f"trial {trial}"


def test_a_lock_file_removed_by_its_last_holder_is_not_taken_as_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defect 6: an ingest that opened the lock file just before its holder removed it locked
    a file without a name, and a third ingest then locked the new file too. ``acquire``
    checks that the path still names the file it locked and tries again."""
    db = tmp_path / "t.duckdb"
    path = writer_lock.lock_path(db)
    real_flock = writer_lock.fcntl.flock
    calls = []

    def flock_after_the_holder_left(fd: int, op: int) -> None:
        calls.append(fd)
        if len(calls) == 1:  # the previous holder removes the file we just opened
            path.unlink()
        real_flock(fd, op)

    monkeypatch.setattr(writer_lock.fcntl, "flock", flock_after_the_holder_left)
    lock = writer_lock.acquire(db)
    try:
        assert len(calls) == 2 and lock.still_held()
        assert os.fstat(lock.fd).st_ino == path.stat().st_ino
        assert path.read_text().strip() == str(os.getpid())
    finally:
        lock.release()
    assert not path.exists()  # nothing left behind


def test_an_ingest_whose_lock_file_is_deleted_while_it_runs_publishes_nothing(
    tmp_path: Path,
) -> None:
    """Defect 6: with the lock file deleted while held, a second ingest can take a lock of its
    own; the first then refuses to publish over it."""
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    second: list[writer_lock.WriterLock] = []

    def break_the_lock(_file: str, _n: int) -> None:
        if not second:
            writer_lock.lock_path(db).unlink()
            second.append(writer_lock.acquire(db))  # another ingest gets in

    with pytest.raises(ing.IngestLocked, match="removed while this ingest held it"):
        ing.ingest([logs], db=db, progress=break_the_lock)
    assert not db.exists()
    second[0].release()
    assert _leftovers(tmp_path, db) == []


def test_leftovers_of_a_live_ingest_are_never_removed(tmp_path: Path) -> None:
    """Defect 6 (its damage): an ingest deleted another's live staging copy. Leftovers are
    removed only when their process is gone."""
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    try:
        (tmp_path / f"t.duckdb.tmp-{alive.pid}").write_bytes(b"someone's staging copy")
        (tmp_path / f"t.duckdb.tmp-{dead.pid}").write_bytes(b"a dead ingest's copy")
        (tmp_path / f"t.duckdb.tmp-{dead.pid}.spill").mkdir()
        assert ing.ingest([logs], db=db).hands_stored == 6
        assert _leftovers(tmp_path, db) == [f"t.duckdb.tmp-{alive.pid}"]
    finally:
        alive.kill()
        alive.wait()


def test_wait_waits_for_a_busy_lock_then_ingests(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    held = writer_lock.acquire(db)
    timer = threading.Timer(0.5, held.release)
    timer.start()
    try:
        started = time.monotonic()
        with pytest.raises(ing.IngestLocked, match=rf"another ingest \(pid {os.getpid()}\)"):
            ing.ingest([logs], db=db, wait=0.1)
        assert ing.ingest([logs], db=db, wait=10).hands_stored == 6
        assert time.monotonic() - started >= 0.4
    finally:
        timer.join()


def test_the_cli_waits_with_wait_and_exits_4_when_the_lock_stays_busy(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    write_json(logs / "s.json", stats_dataset())
    db = tmp_path / "t.duckdb"
    held = writer_lock.acquire(db)
    try:
        res = CliRunner().invoke(app, ["ingest", str(logs), "--db", str(db), "--wait", "0.3"])
        assert res.exit_code == 4
        assert "another ingest" in res.output
    finally:
        held.release()
    res = CliRunner().invoke(app, ["ingest", str(logs), "--db", str(db), "--wait", "0.3"])
    assert res.exit_code == 0, res.output


def test_publish_flushes_the_file_before_the_rename_and_the_folder_after(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Defect 7: without an fsync of the file before and of the folder after the rename, a
    power loss could bring the old database back after a reported success."""
    stage, target = tmp_path / "t.duckdb.tmp-1", tmp_path / "t.duckdb"
    stage.write_bytes(b"new")
    target.write_bytes(b"old")
    events: list[tuple[str, ...]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        st = os.fstat(fd)
        what = "folder" if os.path.isdir(f"/proc/self/fd/{fd}") else "file"
        events.append(("fsync", what, str(st.st_ino)))
        real_fsync(fd)

    def replace(src: str, dst: str) -> None:
        events.append(("replace",))
        real_replace(src, dst)

    ino = str(stage.stat().st_ino)
    monkeypatch.setattr(dbc.os, "fsync", fsync)
    monkeypatch.setattr(dbc.os, "replace", replace)
    dbc.publish(stage, target)
    assert events == [
        ("fsync", "file", ino),
        ("replace",),
        ("fsync", "folder", str(tmp_path.stat().st_ino)),
    ]
    assert target.read_bytes() == b"new" and not stage.exists()


_LIMITED = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))
from tarock_logs.cli import main
sys.argv = ["tarock", "ingest", {logs!r}, "--db", {db!r}, "-q"]
main()
"""


def _ingest_with_file_limit(logs: Path, db: Path, limit: int) -> subprocess.CompletedProcess[str]:
    """``tarock ingest`` where no file may grow beyond ``limit`` bytes (writes fail with
    EFBIG, as they fail with ENOSPC on a full disk)."""
    code = _LIMITED.format(limit=limit, logs=str(logs), db=str(db))
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def test_a_full_disk_exits_6_and_leaves_nothing_behind(logs: Path, tmp_path: Path) -> None:
    """Defect 7: a full disk left a partial staging copy and the lock file behind, and exited
    2 (the usage code). Now: its own exit code, and only what was there before."""
    db = tmp_path / "t.duckdb"
    res = _ingest_with_file_limit(logs, db, 300_000)
    assert res.returncode == 6, res.stderr
    assert "nothing was published" in res.stderr
    assert _leftovers(tmp_path, db) == [] and not db.exists()
    # on top of a published store: the staging copy cannot even be made
    ing.ingest([logs / "f0.jsonl"], db=db, jobs=1)
    before = db.read_bytes()
    res = _ingest_with_file_limit(logs, db, db.stat().st_size // 2)
    assert res.returncode == 6, res.stderr
    assert db.read_bytes() == before
    assert _leftovers(tmp_path, db) == []


def test_disk_errors_are_told_from_other_errors() -> None:
    assert dbc.disk_errno(OSError(28, "No space left on device")) == 28
    assert dbc.disk_errno(OSError(2, "No such file or directory")) is None
    full = duckdb.IOException("Could not write file: No space left on device")
    assert dbc.disk_errno(full) == 28
    assert dbc.disk_errno(duckdb.IOException("Could not set lock on file")) is None
