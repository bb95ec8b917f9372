"""A new store starts as a copy of an empty one: the schema template.

Creating the schema of a new DuckDB file (every migration of :mod:`tarock_logs.store.schema`
run in turn) costs ≈ 50 ms, and an ingest into a new file pays it every time (``tarock bench``
does, each of its runs; so do tests). Copying a file that holds exactly that schema costs
≈ 2 ms. :func:`copy_template` copies such a file, made once per schema and kept in the user's
cache folder, to where a new store is to be created; :func:`tarock_logs.store.schema.migrate`
then runs as on any store (it finds every migration applied, checks their checksums and stamps
``applied_at``), so a template that does not fit is refused like any other file.

The template's name carries a digest of everything its content depends on (the migrations'
checksums, this program's version and DuckDB's), so a new schema or a new DuckDB makes a new
template and never reuses an old one; older templates are removed when a new one is made.
Where the cache cannot be written (a read-only home, a full disk), nothing is cached and the
caller migrates the new file in place, as before.

The folder: ``$TAROCK_CACHE_DIR``, else ``$XDG_CACHE_HOME/tarock-logs``, else
``~/.cache/tarock-logs``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

import duckdb

from tarock_logs import __version__ as TOOL_VERSION
from tarock_logs.store import schema

PREFIX = "store-template-"


def cache_dir() -> Path:
    """The folder the template is kept in (see the module docstring)."""
    explicit = os.environ.get("TAROCK_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "tarock-logs"


def template_path() -> Path:
    """The template of this program's schema under this DuckDB (it may not exist yet)."""
    h = hashlib.sha256()
    for part in (TOOL_VERSION, duckdb.__version__, *(m.checksum for m in schema.migrations())):
        h.update(part.encode())
        h.update(b"\0")
    return cache_dir() / f"{PREFIX}{h.hexdigest()[:20]}.duckdb"


def _build(path: Path) -> None:
    """Make the template at ``path``: a new file, every migration, checkpointed; written
    beside it and renamed into place, so a reader never sees half a template."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    for p in (tmp, tmp.with_name(tmp.name + ".wal")):
        p.unlink(missing_ok=True)
    try:
        con = duckdb.connect(str(tmp))
        try:
            schema.migrate(con)
            con.execute("CHECKPOINT")
        finally:
            con.close()
        os.replace(tmp, path)
    finally:
        for p in (tmp, tmp.with_name(tmp.name + ".wal")):
            p.unlink(missing_ok=True)
    for old in path.parent.glob(f"{PREFIX}*.duckdb"):  # templates of other schemas
        if old != path:
            old.unlink(missing_ok=True)


def copy_template(dest: str | os.PathLike[str]) -> bool:
    """Create ``dest`` (which must not exist) as a copy of the schema template, making the
    template first if needed. False when no template can be had (``dest`` then does not
    exist: the caller creates the schema itself)."""
    path = template_path()
    try:
        if not path.is_file():
            _build(path)
        shutil.copyfile(path, dest)
    except (OSError, duckdb.Error):
        Path(dest).unlink(missing_ok=True)
        return False
    return True


def forget_template() -> None:
    """Remove the template (after a copy of it was refused), so the next run makes it anew."""
    try:
        template_path().unlink(missing_ok=True)
    except OSError:
        pass
