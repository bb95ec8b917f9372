"""Scale-out on Dask: ingest and audit with the work spread over a Dask cluster.

The work is cut exactly as the local ingest cuts it for its process pool
(:func:`tarock_logs.store.write.plan.plan_units`: whole files, and big plain JSONL files in byte
spans of whole lines), one Dask task per unit. For an ingest, each task reads, validates and
audits its unit and returns the unit's store tables as Arrow tables, a batch at a time; the
driver loads them, in file order, through the local ingest's writer into its staging copy of
the database and publishes it once at the end. So the idempotency, the rejects, the writer
lock, the atomic publish and the summary are the local ingest's own (the driver alone touches
DuckDB). For an audit, each task audits its unit's sessions and returns the audit records;
the driver settles the tournaments and prints as the local audit does.

``address`` names a running scheduler (``tcp://host:8786``); without one a
:class:`distributed.LocalCluster` of worker processes is started for the run and closed after
it. Workers need the package installed and the input files at the same paths (shared storage).

Dask is imported here only, and only when a command asks for it: the CLI does not pay for it.
"""

from __future__ import annotations

import copyreg
import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from tarock_logs.store import sources
from tarock_logs.store.write import plan, process

if TYPE_CHECKING:
    from tarock_logs.store.write.plan import Unit
    from tarock_logs.verdict.audit import SessionAudit


def _mappingproxy(mapping: dict[Any, Any]) -> MappingProxyType[Any, Any]:
    return MappingProxyType(mapping)


def _reduce_mappingproxy(m: MappingProxyType[Any, Any]) -> tuple[Any, tuple[dict[Any, Any]]]:
    return _mappingproxy, (dict(m),)


# A ruleset keeps its tables in read-only mappings, which pickle cannot send by itself; the
# audit records travel from the workers with their ruleset (its placement points settle the
# tournaments), so mappings travel as their copies.
copyreg.pickle(MappingProxyType, _reduce_mappingproxy)


#: how long to try reaching a scheduler (``--dask ADDRESS``) before giving up: Dask's own
#: setting when it is given in the environment, else 10 s
CONNECT_TIMEOUT = os.environ.get("DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT", "10s")


class SchedulerUnreachable(Exception):
    """No Dask scheduler answers at the address given (``--dask ADDRESS``)."""


@dataclass(slots=True)
class Cluster:
    """A Dask client on a cluster; ``local``: a :class:`~distributed.LocalCluster` started
    for this run (its workers then share this machine's cores with the driver)."""

    client: Any  # distributed.Client
    workers: int
    local: bool


@contextmanager
def cluster(address: str | None, jobs: int | None = None) -> Iterator[Cluster]:
    """A client on the scheduler at ``address``, or on a :class:`~distributed.LocalCluster`
    of ``jobs`` single-threaded worker processes (default: one per usable core) started now
    and closed on exit."""
    import distributed

    # (distributed is untyped: its client and futures are Any here)
    Client: Any = distributed.Client
    LocalCluster: Any = distributed.LocalCluster

    if address:
        try:
            client = Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, ValueError) as exc:  # no scheduler there, or not an address
            raise SchedulerUnreachable(f"no Dask scheduler at {address}: {exc}") from exc
        try:
            n = len(client.scheduler_info(n_workers=-1).get("workers", {})) or 1
            yield Cluster(client, n, local=False)
        finally:
            client.close()
        return

    n = jobs if jobs is not None else plan.usable_cores()
    local = LocalCluster(
        n_workers=n,
        threads_per_worker=1,
        processes=True,
        dashboard_address="127.0.0.1:0",  # (a free port: never a clash)
        scheduler_port=0,
        silence_logs=40,
    )
    try:
        client = Client(local)
        try:
            yield Cluster(client, n, local=True)
        finally:
            client.close()
    finally:
        local.close()


def on_worker(path: Path, local: bool) -> str:
    """How a worker opens ``path``: as the driver names it on a local cluster (its workers
    start in the driver's folder, so every message names the file alike), else by its absolute
    path (on the shared storage)."""
    return str(path) if local else str(path.resolve())


# --------------------------------------------------------------------------- ingest


def ingest_unit(path: str, file: str, batch_hands: int,
                span: Any = None) -> tuple[list[dict[str, pa.Table]], dict[str, int]]:  # fmt: skip
    """Worker task: the store tables of one unit (a file, or its ``span``), batch by batch,
    named ``file`` (the driver's :func:`sources.file_key`), and for a span its counts."""
    from tarock_logs.store.write.gcpause import gc_frozen, gc_paused

    counts: dict[str, int] = {}
    with gc_paused(), gc_frozen():
        batches = list(
            process.iter_batches(path, batch_hands=batch_hands, file=file, span=span, counts=counts)
        )
    return batches, counts


class DaskStream:
    """The units of ``files`` processed on a Dask cluster, at most ``2*workers`` in flight;
    iterating gives, in file order, each unit with its batches and counts (the interface of
    the local pool, :class:`tarock_logs.store.write.ingest._ParallelStream`)."""

    def __init__(self, files: list[Path], on: Cluster, batch_hands: int) -> None:

        #: called once every unit is processed (the workers are idle from then on)
        self.on_drain: Callable[[], None] | None = None
        self.client = on.client
        self.batch_hands = batch_hands
        self.in_flight = 2 * on.workers
        self.local = on.local
        self.units = iter(plan.plan_units(files, on.workers))
        self.pending: list[tuple[Unit, Any]] = []
        for _ in range(self.in_flight):
            self._submit()

    def _submit(self) -> None:
        nxt = next(self.units, None)
        if nxt is not None:
            fut = self.client.submit(
                ingest_unit,
                on_worker(nxt.path, self.local),
                sources.file_key(nxt.path),
                self.batch_hands,
                nxt.span,
                pure=False,
            )
            self.pending.append((nxt, fut))

    def __iter__(self) -> Iterator[tuple[Unit, Iterator[dict[str, pa.Table]], dict[str, int]]]:
        try:
            while self.pending:
                unit, fut = self.pending.pop(0)
                batches, counts = fut.result()
                fut.release()
                self._submit()
                if not self.pending and self.on_drain is not None:
                    self.on_drain()
                yield unit, iter(batches), counts
        finally:
            self.close()

    def next_ready(self) -> bool:
        """Whether the next unit's task has finished (its batches can be had at once)."""
        return bool(self.pending) and self.pending[0][1].done()

    def close(self) -> None:
        """Cancel what has not run yet (the cluster itself belongs to the caller)."""
        if self.pending:
            self.client.cancel([f for _, f in self.pending])
            self.pending = []


# --------------------------------------------------------------------------- audit


@dataclass(slots=True)
class AuditedRecord:
    """One session record of the reader, audited: its input errors (as the local audit
    reports them) and its audit (None when the record held no readable session)."""

    file: str
    errors: list[dict[str, Any]]
    audit: SessionAudit | None


def audit_unit(path: str, file: str, ruleset: str | None,
               span: Any = None) -> list[AuditedRecord]:  # fmt: skip
    """Worker task: every session record of one unit, audited as the local audit does.

    ``path`` is where the worker reads the file (its absolute path), ``file`` the name the
    driver's audit gives it (as it was listed), so that the records name it alike."""
    from tarock_logs.log.reader import read_file
    from tarock_logs.store.write.lane import LaneSession, reader_lane
    from tarock_logs.verdict.audit import audit_session

    out: list[AuditedRecord] = []
    # (the local audit's lane: a record it takes is audited from its bytes, cli/audit.py)
    fast = reader_lane(file) if ruleset is None else None
    for rec in read_file(path, span=span, lane=fast):
        if isinstance(rec, LaneSession):
            out.append(AuditedRecord(file, [], replace(rec.record, _engine=None)))
            continue
        errors = []
        for e in rec.all_errors():
            d = e.to_dict()
            if d.get("file") in (None, path):
                d["file"] = file
            if d.get("line") is None and rec.line is not None:
                d["line"] = rec.line
            errors.append(d)
        sa = None
        if rec.session is not None:
            sa = replace(audit_session(rec.session, file=file, ruleset=ruleset), _engine=None)
        out.append(AuditedRecord(file, errors, sa))
    return out


def audit_records(files: list[Path], on: Cluster, ruleset: str | None) -> Iterator[AuditedRecord]:
    """The audited session records of ``files`` in the order the local audit reads them
    (file by file, a big JSONL file's spans in order), computed on the cluster."""
    from tarock_logs.rules import get_engine

    units = plan.plan_units(files, on.workers)
    futures = [
        on.client.submit(
            audit_unit, on_worker(u.path, on.local), str(u.path), ruleset, u.span, pure=False
        )
        for u in units
    ]
    try:
        for fut in futures:
            records: list[AuditedRecord] = fut.result()
            fut.release()
            for r in records:
                if r.audit is not None:
                    r.audit._engine = get_engine(r.audit.game)
                yield r
    finally:
        on.client.cancel(futures)
