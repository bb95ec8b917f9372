"""Opening the store: one writer that publishes atomically, many read-only readers.

DuckDB lets several processes open a file read-only, but a read-write holder blocks them (and a
read-only holder blocks a writer). So the writer never writes the published file in place:

1. :func:`staging_path` names ``FILE.duckdb.tmp-<pid>`` next to the target;
2. :func:`begin_staging` copies the published file there (incremental ingest) or starts empty;
3. the ingest writes the staging copy, checkpoints and closes it;
4. :func:`publish` flushes it to disk (``fsync``), ``os.replace()``-s it over the target and
   flushes the folder, so a reported success survives a power loss (the durability SQLite
   promises: file, rename, folder). Readers that already had the old file open keep reading
   the old inode, new opens see the new file, and nobody ever sees a half written database. A
   failed ingest deletes its staging copy and the target is untouched.

Readers use :func:`connect_readonly`, which retries briefly on lock errors (another program
holding the file read-write). A long-lived reader (the dashboard) should key its cached
connection on :func:`db_fingerprint` so it reopens after a publish.
"""

from __future__ import annotations

import errno as _errno
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import duckdb

#: Writer settings for big loads (engineering guide §2): bounded memory with spill to disk.
#: DuckDB's own memory (its buffers and the primary-key indexes) in the writing process;
#: ``$TAROCK_WRITER_MEMORY`` (e.g. ``512MB``, ``1GB``) sets another. With the default and
#: the two workers a million-hand ingest's whole process tree stays under 1 GB (PSS,
#: docs/performance.md).
WRITER_MEMORY_ENV = "TAROCK_WRITER_MEMORY"
WRITER_MEMORY_LIMIT = "256MB"
_MEMORY = re.compile(r"\d+(?:\.\d+)?\s*(?:[KMGT]i?B)", re.IGNORECASE)


class WriterMemoryError(ValueError):
    """``$TAROCK_WRITER_MEMORY`` is not a size."""


def writer_memory_limit() -> str:
    """:data:`WRITER_MEMORY_LIMIT`, or ``$TAROCK_WRITER_MEMORY`` when it is a size DuckDB
    reads (digits and a unit: ``KB`` ... ``TB``, ``KiB`` ... ``TiB``); anything else is an
    error that says so (never passed into the SQL)."""
    value = os.environ.get(WRITER_MEMORY_ENV, "").strip()
    if not value:
        return WRITER_MEMORY_LIMIT
    if not _MEMORY.fullmatch(value):
        raise WriterMemoryError(
            f"${WRITER_MEMORY_ENV}={value!r} is not a size such as 256MB or 1GB"
        )
    return value


def staging_path(target: str | os.PathLike[str]) -> Path:
    """``FILE.duckdb.tmp-<pid>``: the writer's private copy of ``target``."""
    t = Path(target)
    return t.with_name(f"{t.name}.tmp-{os.getpid()}")


def begin_staging(target: str | os.PathLike[str]) -> Path:
    """Create the staging copy of ``target`` (a copy of it, or nothing if it does not exist)."""
    t = Path(target)
    stage = staging_path(t)
    discard_staging(stage)
    if t.exists():
        shutil.copyfile(t, stage)
        wal = t.with_name(t.name + ".wal")
        if wal.exists():  # a writer that died before its checkpoint
            shutil.copyfile(wal, stage.with_name(stage.name + ".wal"))
    return stage


def discard_staging(stage: str | os.PathLike[str]) -> None:
    """Remove a staging file and its WAL, if present."""
    s = Path(stage)
    for p in (s, s.with_name(s.name + ".wal")):
        try:
            p.unlink()
        except FileNotFoundError:
            pass


def fsync_path(path: str | os.PathLike[str], *, directory: bool = False) -> None:
    """Flush a file's (or a folder's) data and metadata to disk."""
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECTORY if directory else 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def publish(stage: str | os.PathLike[str], target: str | os.PathLike[str]) -> None:
    """Atomically and durably replace ``target`` by the (closed, checkpointed) staging file:
    the file is on disk before it takes the name, and the name (with a stale WAL's removal)
    is on disk before this returns."""
    s, t = Path(stage), Path(target)
    fsync_path(s)
    os.replace(s, t)
    stale_wal = t.with_name(t.name + ".wal")
    if stale_wal.exists():
        stale_wal.unlink()
    fsync_path(t.parent, directory=True)


#: errno values that mean the disk, not the input: full, over quota, a file too large for it,
#: read-only, an I/O error
DISK_ERRNOS = frozenset({_errno.ENOSPC, _errno.EDQUOT, _errno.EFBIG, _errno.EROFS, _errno.EIO})
_DISK_ERRNO_TEXT = re.compile(r"\[errno (\d+)\]", re.IGNORECASE)


def disk_errno(exc: BaseException) -> int | None:
    """The errno of ``exc`` when it is a disk error (:data:`DISK_ERRNOS`), else None; DuckDB's
    errors carry it in their text (``[errno 28]``, or the system's wording)."""
    code = getattr(exc, "errno", None)
    if isinstance(code, int):
        return code if code in DISK_ERRNOS else None
    if isinstance(exc, duckdb.Error):
        text = str(exc)
        m = _DISK_ERRNO_TEXT.search(text)
        if m and int(m.group(1)) in DISK_ERRNOS:
            return int(m.group(1))
        for code in DISK_ERRNOS:
            if os.strerror(code).lower() in text.lower():
                return code
    return None


def connect_writer(
    path: str | os.PathLike[str], *, checkpoint_commits: bool = True
) -> duckdb.DuckDBPyConnection:
    """A read-write connection with the writer's memory settings; every commit a checkpoint
    (:func:`checkpoint_commits`) unless ``checkpoint_commits`` is false."""
    con = duckdb.connect(str(path))
    tmp = Path(path).with_name(Path(path).name + ".spill")
    con.execute(f"SET memory_limit = '{writer_memory_limit()}'")
    con.execute("SET temp_directory = ?", [str(tmp)])
    con.execute("SET preserve_insertion_order = false")
    if checkpoint_commits:
        checkpoint_every_commit(con)
    return con


def checkpoint_every_commit(con: duckdb.DuckDBPyConnection) -> None:
    """Make every commit write its rows straight into the database file (a checkpoint)
    instead of into the WAL first: the staging copy needs no WAL (a failed ingest discards
    it), the rows are written once instead of twice, and the writing happens as the loads
    commit instead of all in the final CHECKPOINT (measured on 2 cores, 2,000 hands: the
    ingest ≈ 4 % faster). (The ingest switches it on after the schema's migration, whose few
    rows then wait in the WAL for the first checkpoint: 3 ms less.)"""
    con.execute("SET checkpoint_threshold = '1KB'")


def _is_lock_error(exc: BaseException) -> bool:
    text = str(exc).lower()
    return "lock" in text or "conflicting" in text


def connect_readonly(
    path: str | os.PathLike[str],
    *,
    retries: int = 20,
    delay: float = 0.1,
    config: dict[str, Any] | None = None,
) -> duckdb.DuckDBPyConnection:
    """Open ``path`` read-only, retrying up to ``retries`` times on lock errors; ``config``
    is DuckDB's configuration of the connection (e.g. :data:`LOCKED_DOWN`).

    Raises ``FileNotFoundError`` when the database does not exist (DuckDB would otherwise
    refuse with a less helpful message) and the last ``duckdb.Error`` when it stays locked.
    """
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(f"no database at {p}")
    attempt = 0
    while True:
        try:
            return duckdb.connect(str(p), read_only=True, config=config or {})
        except (duckdb.IOException, duckdb.ConnectionException) as exc:
            attempt += 1
            if attempt > retries or not _is_lock_error(exc):
                raise
            time.sleep(delay * min(attempt, 5))


#: The configuration of a reader that runs queries on behalf of people it does not trust (the
#: dashboard): no file, network or extension access beyond its own database (``COPY … TO``,
#: ``read_text``, ``ATTACH``, ``INSTALL``/``LOAD`` and URLs are refused), no extension loaded
#: by itself, and the configuration locked so no statement can undo any of it.
LOCKED_DOWN: dict[str, Any] = {
    "enable_external_access": False,
    "autoload_known_extensions": False,
    "autoinstall_known_extensions": False,
    "lock_configuration": True,
}


def db_fingerprint(path: str | os.PathLike[str]) -> tuple[int, int]:
    """``(st_ino, st_mtime_ns)`` of the database: changes whenever a writer publishes."""
    st = os.stat(path)
    return (st.st_ino, st.st_mtime_ns)
