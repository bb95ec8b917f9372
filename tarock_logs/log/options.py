"""A session's options as the engines take them: files a log refers to, resolved safely.

One option names a file: Royal Tarock's ``catalogue_path`` (a club's catalogue of premiums,
``docs/royal.md``). Read from a log, it is the log author's word, so it may only name a
**regular file of at most** :data:`CATALOGUE_MAX_BYTES` **in the log's own folder or below
it**, given relative to the log file (``club.json``, ``catalogues/club-2024.json``): never an
absolute path, never a path through ``..``, never a device, a pipe or a folder. The reader
checks it (``options.catalogue_path``, an error that rejects the session) and remembers the
folder the session was read from; :func:`session_options` gives the engines the options with
the path resolved against that folder, whatever the working directory of the run.

A session built in code (not read from a file) keeps its options as they are: the path is its
caller's.
"""

from __future__ import annotations

import stat
from pathlib import Path, PurePath
from typing import Any, Final

from tarock_logs.log.models import Session

#: The option that names a file.
CATALOGUE_OPTION: Final = "catalogue_path"
#: Largest catalogue file a log may refer to (the built-in catalogue is about 17 KB).
CATALOGUE_MAX_BYTES: Final = 1024 * 1024


def catalogue_file(value: str, base: Path | None) -> Path | None:
    """The file ``value`` (a ``catalogue_path`` read from a log) names, resolved against
    ``base``, the log's folder; None when there is no folder to look in (the text was not
    read from a file: only the form of the path is checked). Raises ``ValueError`` saying
    what is wrong."""
    p = PurePath(value)
    if p.is_absolute() or value.startswith(("/", "\\")) or p.drive:
        raise ValueError(
            f"{CATALOGUE_OPTION} {value!r} is an absolute path: a log names its catalogue "
            "relative to its own folder"
        )
    if ".." in p.parts:
        raise ValueError(f"{CATALOGUE_OPTION} {value!r} leaves the log's folder (..)")
    if base is None:
        return None
    target = base / p
    try:
        st = target.stat()
    except OSError as exc:
        raise ValueError(
            f"{CATALOGUE_OPTION} {value!r}: no such file in the log's folder "
            f"({exc.strerror or exc})"
        ) from None
    if not stat.S_ISREG(st.st_mode):
        raise ValueError(f"{CATALOGUE_OPTION} {value!r} is not a regular file")
    if st.st_size > CATALOGUE_MAX_BYTES:
        raise ValueError(
            f"{CATALOGUE_OPTION} {value!r} is {st.st_size} bytes; a catalogue may have at most "
            f"{CATALOGUE_MAX_BYTES}"
        )
    return target.absolute()


def source_dir(session: Session) -> Path | None:
    """The folder the session was read from, when the reader noted it (a session whose
    options name a file), else None."""
    folder = session._source_dir
    return Path(folder) if folder is not None else None


def with_source(session: Session, log_file: str | Path) -> Session:
    """Note that ``session`` was read from ``log_file`` (for :func:`session_options`; a
    session rebuilt from a store can be given its file again). Returns ``session``."""
    session._source_dir = str(Path(log_file).absolute().parent)
    return session


def session_options(session: Session) -> dict[str, Any]:
    """The session's options for ``engine.ruleset(session.ruleset, options)``: a
    ``catalogue_path`` of a session read from a file becomes the checked absolute path of the
    file in the log's folder. Raises ``ValueError`` when the path is not allowed (the reader
    reports the same as ``options.catalogue_path``)."""
    opts = dict(session.options)
    value = opts.get(CATALOGUE_OPTION)
    base = source_dir(session)
    if not isinstance(value, str) or not value or base is None:
        return opts
    target = catalogue_file(value, base)
    opts[CATALOGUE_OPTION] = str(target)
    return opts
