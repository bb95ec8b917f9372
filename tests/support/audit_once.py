"""``tarock audit``'s audit made once per input for the tests that run the command several
times on it to compare its outputs (tests/cli/test_audit_compact.py, test_audit_lane.py).

:func:`audited_once` stands in for ``cli.audit._audited`` (the records read and audited, in
the reader's order): the first run with a given input, options and lane setting audits it and
keeps a pickled copy; a later run gets a fresh copy of the same records (``_compacted`` changes
the session audits it is given), and what the tests compare (the compaction, the spool, the
rendering of each output format) runs each time. The output options (``--format``, ``--code``,
``--summary``) never reach ``_audited``.
"""

from __future__ import annotations

import copyreg
import io
import pickle
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tarock_logs.cli import audit as audit_cli


def _proxy(d: dict[Any, Any]) -> types.MappingProxyType[Any, Any]:
    return types.MappingProxyType(d)


def _dumps(records: list[Any]) -> bytes:
    """``records`` pickled, a read-only mapping (a ruleset's tables) as a new one like it."""
    buf = io.BytesIO()
    pickler = pickle.Pickler(buf)
    pickler.dispatch_table = copyreg.dispatch_table.copy()
    pickler.dispatch_table[types.MappingProxyType] = lambda m: (_proxy, (dict(m),))
    pickler.dump(records)
    return buf.getvalue()


AUDITED: dict[tuple[Any, ...], bytes | None] = {}
#: the audits made (not copied), by the lane setting they were made with
MADE = {False: 0, True: 0}
_real_audited = audit_cli._audited


def audited_once(paths: list[Path], exclude: list[str], ruleset: str | None, dask: str | None,
                 jobs: int | None) -> Iterator[Any]:  # fmt: skip
    """(An audit that still cannot be pickled is made again each time, as without this.)"""
    key = (tuple(map(str, paths)), tuple(exclude), ruleset, dask, jobs, audit_cli.LANE)
    if key not in AUDITED or AUDITED[key] is None:
        MADE[bool(audit_cli.LANE)] += 1
    if key in AUDITED and AUDITED[key] is None:
        yield from _real_audited(paths, exclude, ruleset, dask, jobs)
        return
    if key not in AUDITED:
        records = list(_real_audited(paths, exclude, ruleset, dask, jobs))
        try:
            AUDITED[key] = _dumps(records)
        except (TypeError, pickle.PicklingError):
            AUDITED[key] = None
            yield from records
            return
    data = AUDITED[key]
    assert data is not None
    yield from pickle.loads(data)
