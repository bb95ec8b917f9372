"""The writer's lock: one ingest at a time per database, recovered by itself when a writer dies.

An ingest holds ``FILE.duckdb.ingest-lock`` with ``flock`` for as long as it writes. The kernel
drops an ``flock`` when the last descriptor of the locked file is closed, which happens when
its process ends however it ends (``kill -9`` included): a lock left by a dead ingest is
never stale, there is nothing to clean up by hand. Two things keep that true:

* **The lock is only ever held by the ingest process itself.** Worker processes are forked
  from it and would inherit the locked descriptor (a forked copy holds the same lock), so
  every worker closes its copy first thing (:func:`worker_init`). A worker also dies with its
  parent (:func:`die_with_parent`), so a killed ingest leaves no process behind.
* **The lock is the file the path names.** The holder removes the lock file before it lets
  go of it (nothing is left behind), so a second ingest that opened the file just before may
  then lock a file that no longer has a name; it checks, after locking, that the path still
  names the file it locked, and tries again otherwise (:func:`acquire`). The holder checks
  the same before it publishes (:meth:`WriterLock.still_held`): if someone deleted the lock
  file meanwhile, another ingest may be running, and nothing is published.

``wait`` (``tarock ingest --wait SECONDS``) waits that long for a busy lock instead of
refusing at once. The lock file holds the holder's process id, for the message a waiting
ingest gives.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import fcntl
import os
import signal
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

#: Seconds between two attempts at a busy lock (``wait``).
POLL_SECONDS = 0.1

#: ``prctl(PR_SET_PDEATHSIG, ...)`` (Linux): a signal the kernel sends when the parent dies.
_PR_SET_PDEATHSIG = 1


class IngestLocked(RuntimeError):
    """Another ingest is writing the same database."""


def lock_path(target: str | os.PathLike[str]) -> Path:
    """``FILE.duckdb.ingest-lock``: the lock file of the database ``target``."""
    t = Path(target)
    return t.with_name(t.name + ".ingest-lock")


@dataclass(slots=True)
class WriterLock:
    """A held writer lock: the lock file's path and the locked descriptor."""

    path: Path
    fd: int

    def still_held(self) -> bool:
        """Whether the lock file's path still names the file this lock holds (False when it
        was deleted or replaced meanwhile: another ingest may then hold a lock of its own)."""
        try:
            named = os.stat(self.path)
        except FileNotFoundError:
            return False
        held = os.fstat(self.fd)
        return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)

    def release(self) -> None:
        """Remove the lock file (while it is still held, so no one else holds it) and let go."""
        try:
            if self.still_held():
                self.path.unlink()
        finally:
            os.close(self.fd)


def _holder(path: Path) -> str:
    """`` (pid N)`` from a busy lock file, or nothing when it names no process."""
    try:
        text = path.read_text("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return f" (pid {text})" if text.isdigit() else ""


def acquire(target: str | os.PathLike[str], *, wait: float = 0.0) -> WriterLock:
    """Take the writer lock of the database ``target``, waiting up to ``wait`` seconds for
    another ingest to finish; raises :class:`IngestLocked` when it is still busy then."""
    path = lock_path(target)
    deadline = time.monotonic() + max(0.0, wait)
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            left = deadline - time.monotonic()
            if left <= 0:
                raise IngestLocked(
                    f"another ingest{_holder(path)} is writing {Path(target)}"
                ) from None
            time.sleep(min(POLL_SECONDS, left))
            continue
        lock = WriterLock(path, fd)
        if lock.still_held():
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
            return lock
        os.close(fd)  # its holder removed it as we opened it: lock the file named now


def die_with_parent(parent: int) -> None:
    """End this (forked worker) process as soon as its parent ``parent`` is gone.

    On Linux the kernel kills it (``PR_SET_PDEATHSIG``); elsewhere a daemon thread looks for a
    new parent twice a second. Either way, a parent that died before this call is caught."""
    libc_name = ctypes.util.find_library("c") if sys.platform.startswith("linux") else None
    armed = False
    if libc_name:
        try:
            libc = ctypes.CDLL(libc_name, use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:
        os._exit(1)
    if not armed:

        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(0.5)
            os._exit(1)

        threading.Thread(target=watch, name="die-with-parent", daemon=True).start()


def worker_init(parent: int, lock_fd: int | None) -> None:
    """First thing in a worker forked by an ingest: close the inherited copy of the writer
    lock (the lock belongs to the ingest alone) and die with the ingest."""
    if lock_fd is not None:
        try:
            os.close(lock_fd)
        except OSError:
            pass
    die_with_parent(parent)
