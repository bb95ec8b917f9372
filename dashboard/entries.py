"""The entry box: hands entered on the dashboard wait apart until a referee accepts them.

The folder of ``tarock dashboard --entry-dir DIR`` holds:

* ``DIR/.pending/``: every saved entry, as a **new file** (``<session>-<time>-<random>.json``,
  created exclusively: a second entry of the same session never replaces the first). The
  folder is hidden, and ``tarock ingest DIR`` skips hidden folders, so nothing pending is
  ever ingested;
* ``DIR/`` itself: the entries a referee **accepted** (moved there, never over another file):
  what ``tarock ingest DIR`` reads;
* ``DIR/.rejected/``: the entries a referee rejected (kept, never deleted).

A **quota** bounds what waits: at most :data:`MAX_PENDING` entries of at most
:data:`MAX_ENTRY_BYTES` each. The page names an entry by its file name only, never by a path
on the server. Streamlit-free (the page calls it; tests call it directly).
"""

from __future__ import annotations

import os
import re
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final

#: at most this many entries wait for acceptance at once
MAX_PENDING: Final = 200
#: an entry's log file is at most this many bytes (a whole hand is a few kilobytes)
MAX_ENTRY_BYTES: Final = 256 * 1024
PENDING: Final = ".pending"
REJECTED: Final = ".rejected"

_SAFE = re.compile(r"[^A-Za-z0-9_.-]+")
_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,200}\.json$")


class EntryRefused(Exception):
    """An entry was not saved or moved; ``code`` is stable (``entry.quota``,
    ``entry.too_large``, ``entry.unknown``)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Pending:
    """An entry waiting for acceptance: its file name and when it was saved (UTC)."""

    name: str
    saved: datetime
    size: int


class EntryBox:
    """The entry folder of one dashboard (see the module's docstring)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.pending_dir = folder / PENDING
        self.rejected_dir = folder / REJECTED

    def pending(self) -> list[Pending]:
        """The entries waiting, oldest first."""
        if not self.pending_dir.is_dir():
            return []
        out = []
        for p in self.pending_dir.iterdir():
            if p.is_file() and _NAME.match(p.name):
                st = p.stat()
                out.append(Pending(p.name, datetime.fromtimestamp(st.st_mtime, UTC), st.st_size))
        out.sort(key=lambda e: (e.saved, e.name))
        return out

    def save(self, session_id: str, text: str) -> str:
        """Save an entry's log ``text`` as a new pending file; its file name. Raises
        :class:`EntryRefused` over the quota or the size limit."""
        data = text.encode("utf-8")
        if len(data) > MAX_ENTRY_BYTES:
            raise EntryRefused("entry.too_large", f"an entry is at most {MAX_ENTRY_BYTES} bytes")
        if len(self.pending()) >= MAX_PENDING:
            raise EntryRefused(
                "entry.quota",
                f"{MAX_PENDING} entries are waiting for acceptance: accept or reject some first",
            )
        self.pending_dir.mkdir(parents=True, exist_ok=True)
        stem = _SAFE.sub("_", session_id)[:80] or "entry"
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
        while True:
            name = f"{stem}-{stamp}-{secrets.token_hex(3)}.json"
            tmp = self.pending_dir / f".{name}.tmp"
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                continue
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            try:  # a hard link never replaces an existing file
                os.link(tmp, self.pending_dir / name)
            except FileExistsError:
                tmp.unlink()
                continue
            tmp.unlink()
            return name

    def _move(self, name: str, dest_dir: Path) -> str:
        if not _NAME.match(name) or not (self.pending_dir / name).is_file():
            raise EntryRefused("entry.unknown", f"no pending entry {name}")
        dest_dir.mkdir(parents=True, exist_ok=True)
        src = self.pending_dir / name
        target = name
        for k in range(1, 1000):
            try:
                os.link(src, dest_dir / target)
                break
            except FileExistsError:
                target = f"{name[:-5]}-{k}.json"
        else:  # pragma: no cover - a thousand same-named files
            raise EntryRefused("entry.unknown", f"cannot move {name}")
        src.unlink()
        return target

    def accept(self, name: str) -> str:
        """Move a pending entry into the folder ``tarock ingest`` reads; its file name there."""
        return self._move(name, self.folder)

    def reject(self, name: str) -> str:
        """Move a pending entry aside (kept in ``.rejected/``); its file name there."""
        return self._move(name, self.rejected_dir)

    def read(self, name: str) -> str:
        """The log text of a pending entry."""
        if not _NAME.match(name):
            raise EntryRefused("entry.unknown", f"no pending entry {name}")
        try:
            return (self.pending_dir / name).read_text(encoding="utf-8")
        except OSError as exc:
            raise EntryRefused("entry.unknown", f"no pending entry {name}") from exc
