"""Ingest log files into the DuckDB store: idempotent, incremental, atomic for readers.

* **Idempotent.** Hands are keyed by the audit's content hash (``hand_id``) and files by their
  path; ``raw_logs`` keeps each file's sha256. A file whose bytes did not change is skipped (its
  hands count as unchanged), so ingesting the same files twice stores nothing twice.
* **Changed files.** A file whose sha256 changed has all its previous rows (hands and their
  children, sessions, rejects) deleted and its new rows inserted; readers see the old rows
  or the new ones, never a mix (the staging copy is published only at the end).
* **Pruned files** (``prune=True``): the rows of files gone from the ingested paths are
  deleted the same way.
* **Duplicates.** A hand already stored from another file (same content hash) is not stored
  again; it stays with the file it came from first and is counted as ``hands_duplicate``.
  Within a batch the writer de-duplicates itself (it never relies on ``ON CONFLICT`` order).
* **Rejects.** Sessions and hands the reader refuses go to ``rejects`` with their located
  errors; every good hand of the same file is stored. A re-run replaces a changed file's
  rejects and keeps an unchanged file's, so rejects are never duplicated either.
* **Atomic and durable publish.** The writer works on a staging copy (``FILE.duckdb.tmp-<pid>``,
  a copy of the published file for incremental ingest), flushes it to disk and
  ``os.replace()``-s it over the target at the end, then flushes the folder (see
  :mod:`tarock_logs.store.connect`). Readers (the dashboard) keep working throughout. A full
  disk or an I/O error raises :class:`IngestIOError` and leaves nothing behind (no staging
  copy, spill folder or lock file; the published file untouched).
* **One writer, recovered by itself.** The writer lock (:mod:`tarock_logs.store.write.lock`)
  serialises concurrent ingests (``wait`` seconds for a busy one); a killed ingest's lock
  goes with it and its workers die with it, and its leftovers (staging copy, spill folder)
  are removed by the next ingest.
* **Bounded memory.** Files are processed a batch of hands at a time (2,000 by default) and
  loaded as Arrow tables (inserted straight from Arrow, matched by column name); DuckDB runs
  with a memory limit and a spill folder, and the writer commits every
  :data:`COMMIT_EVERY` hands.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import itertools
import multiprocessing
import os
import re
import shutil
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Final

import duckdb
import orjson
import pyarrow as pa
import pyarrow.compute as pc

from tarock_logs.store import connect as dbc
from tarock_logs.store import sources
from tarock_logs.store.paths import DB_ENV as DB_ENV
from tarock_logs.store.paths import DEFAULT_DB as DEFAULT_DB
from tarock_logs.store.paths import LOCAL_CLUSTER as LOCAL_CLUSTER
from tarock_logs.store.schema import SchemaError, migrate
from tarock_logs.store.write import facts, plan, process, ratings, scaleout, template, tournaments
from tarock_logs.store.write import lock as writer_lock
from tarock_logs.store.write.gcpause import gc_frozen, gc_paused
from tarock_logs.store.write.lock import IngestLocked as IngestLocked


def default_db() -> str:
    """``$TAROCK_DB`` or ``tarock.duckdb`` in the working folder."""
    return os.environ.get(DB_ENV) or DEFAULT_DB


@dataclass(slots=True)
class IngestSummary:
    """What one ingest did. ``hands_rejected`` counts reject records (a hand, or a session or
    line the reader could not read at all)."""

    db: str = ""
    files: int = 0
    files_changed: int = 0
    files_unchanged: int = 0
    files_rejected: int = 0
    sessions: int = 0
    hands_stored: int = 0
    hands_unchanged: int = 0
    hands_duplicate: int = 0
    hands_removed: int = 0
    hands_rejected: int = 0
    #: files stored before under the ingested paths that are gone now (``prune=True``)
    files_pruned: int = 0
    rejects: list[dict[str, Any]] = field(default_factory=list)
    dry_run: bool = False

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def line(self) -> str:
        """The one-line summary people read."""
        reasons: dict[str, int] = {}
        for r in self.rejects:
            code = str(r.get("first_code"))
            reasons[code] = reasons.get(code, 0) + 1
        why = ", ".join(f"{c} ×{n}" for c, n in sorted(reasons.items(), key=lambda kv: -kv[1]))
        text = (
            f"{self.files} files ({self.files_unchanged} unchanged, "
            f"{self.files_rejected} rejected), "
            f"{self.sessions} sessions: {self.hands_stored} hands stored, "
            f"{self.hands_unchanged} unchanged, {self.hands_duplicate} duplicates, "
            f"{self.hands_rejected} rejected"
        )
        if why:
            text += f" ({why})"
        if self.hands_removed:
            text += f"; {self.hands_removed} hands of changed or pruned files removed"
        if self.files_pruned:
            text += f"; {self.files_pruned} files no longer there pruned"
        return text + (" [dry run: nothing written]" if self.dry_run else "")


Progress = Callable[[str, int], None]
"""Progress callback: ``(file, hands_in_this_step)``; called once per batch and per file."""


# --------------------------------------------------------------------------- the writer


#: the rows of the files ``{files}`` (a list of parameters: a filter DuckDB pushes into the
#: scans, where ``IN (SELECT unnest(?))`` would join), deleted for changed and pruned files
_CHILD_DELETE = [
    *(
        f"DELETE FROM {t} WHERE hand_key IN (SELECT hand_key FROM hands WHERE file IN ({{files}}))"
        for t in process.HAND_CHILDREN
    ),
    *(
        f"DELETE FROM {t} WHERE session_id IN "
        f"(SELECT session_id FROM sessions WHERE file IN ({{files}}))"
        for t in process.SESSION_CHILDREN
    ),
    "DELETE FROM hands WHERE file IN ({files})",
    "DELETE FROM sessions WHERE file IN ({files})",
    "DELETE FROM rejects WHERE file IN ({files})",
    "DELETE FROM raw_logs WHERE file IN ({files})",
]


#: batch tables the load's queries read even when empty (the others only when they have rows)
_ALWAYS_REGISTERED = frozenset({"hands", "sessions", "session_players", "session_scores",
                                "players", "raw_logs"})  # fmt: skip


#: the writer commits once its open transaction holds this many hands (and at the end). Every
#: commit is a checkpoint (store.connect) that appends new row groups, which DuckDB's vacuum
#: merges with the earlier ones again and again as they double: 20 commits of 1,000 hands
#: cost 38 ms at first and 85 on average (1.7 s CPU), 2 of 10,000 0.5 s, one of 20,000
#: 0.4 s, and the file is smaller (25, 18, 16 MB). A 100,000-hand ingest (2 workers, quiet
#: machine): the writer's CPU 19.9 -> 15.7 s, the ingest 31.6 -> 29.4 s, its peak RSS
#: 491 -> 542 MB (the open transaction's rows are in DuckDB's buffers, under its memory
#: limit); the bench's 2,000 hands alike (one commit instead of two). Switching the vacuum
#: off instead keeps commits cheap but leaves a row group per commit: a file 2.4 times as big.
COMMIT_EVERY: Final = 10_000


#: :meth:`_Writer.finish` commits the loads' last transaction beside the facts, the
#: tournaments and the ratings when it holds this many hands (with fewer, the overlap does not
#: pay for the second commit); ``_FENCE``: the table that tells the second connection that the
#: commit is visible
OVERLAP_HANDS: Final = 250
_FENCE: Final = "_ingest_fence"


#: the writer's DuckDB threads. Its statements are many and small (a load's inserts from
#: Arrow, the facts' joins over a range of keys, a commit's checkpoint, which runs on one
#: thread anyway): a second thread costs more to coordinate than it saves, also with a core to
#: spare (measured, 2,000 bench hands alone on a quiet machine: 294 -> 277 ms wall, 302 ->
#: 270 ms CPU; the loads 82 -> 73 ms, the facts 45 -> 36 ms CPU at the same wall time), and
#: while workers run it competes with them for the cores
WRITER_THREADS: Final = 1


#: the facts are computed once the hands loaded since the last computation span this many
#: keys (and at the end of the run): big enough that the ≈ 40 ms a computation costs is spread
#: thin, small enough that one computation's memory stays well inside the writer's limit
FACTS_EVERY: Final = 50_000


class _Writer:
    """Loads batches of Arrow tables into an open (staging) database."""

    def __init__(
        self,
        con: duckdb.DuckDBPyConnection,
        summary: IngestSummary,
        commit_every: int | None = None,
    ) -> None:
        self.con = con
        self.s = summary
        self.known: set[str] = set()
        #: loads share a transaction until it holds ``commit_every`` hands (default
        #: :data:`COMMIT_EVERY`); transactions inside the staging copy are invisible to
        #: readers anyway
        self.commit_every = COMMIT_EVERY if commit_every is None else commit_every
        self.in_txn = False
        self.pending = 0
        #: whether ``_old_ids`` holds anything (hands of changed or pruned files)
        self.old_ids = False
        #: whether ``_hand_hashes`` is made (:meth:`_hand_hashes`)
        self.hand_hashes = False
        #: the ``hand_key`` the next loaded hand gets (keys are never reused within a run)
        self.next_key = 1
        #: the key range loaded since the facts were last computed (:meth:`_facts`)
        self.facts_from: int | None = None
        self.facts_to = 0
        #: the games of those hands and the types of their actions (:func:`facts.add`)
        self.facts_games: set[str] = set()
        self.facts_types: set[str] = set()
        #: ``players`` as stored: id → name (read at :meth:`begin_run`, kept up to date)
        self.players: dict[str, str | None] = {}
        #: the greatest ``player_key`` and ``session_key`` stored (kept up to date): a load
        #: of new players or sessions gives the next keys itself instead of asking the store
        self.top_player_key = 0
        self.top_session_key = 0
        #: the store's columns of each table loaded, in order (:meth:`_insert`)
        self._columns: dict[str, tuple[str, ...]] = {}
        #: whether the store may hold per-session facts and player summaries (false: a store
        #: without any, as a new one, until :meth:`end_run` computes them; read at
        #: :meth:`begin_run`): then nothing of them is dropped or deleted first
        #: (:func:`facts.add`, :func:`facts.refresh_summaries`)
        self.session_facts = True
        self.summaries = True
        #: whether ``_touched`` (the first connection's) may hold players: :func:`facts.add`
        #: or :func:`facts.remove` ran on it (:meth:`_overlapped` carries them over)
        self.touched = False

    def begin(self) -> None:
        if not self.in_txn:
            self._q("BEGIN TRANSACTION")
            self.in_txn = True

    def commit(self) -> None:
        """Commit the open transaction, if any."""
        if self.in_txn:
            self._q("COMMIT")
            self.in_txn = False
            self.pending = 0

    def _q(self, sql: str, params: Any = None) -> list[tuple[Any, ...]]:
        return self.con.execute(sql, params).fetchall()

    def begin_run(self) -> None:
        """``_old_ids``: the hands of changed files, removed during this run (to tell a hand
        that comes back unchanged from a new one); the next hand key; the facts of a store
        that has hands but none yet (migrated from an older schema version)."""
        self._q("CREATE OR REPLACE TEMP TABLE _old_ids (hand_id VARCHAR)")
        self.hand_hashes = False
        self.players = dict(self._q("SELECT player_id, name FROM players"))
        facts.begin_run(self.con)
        top, n_hands, n_facts, top_player, top_session, some_sessions, some_summaries = self._q(
            "SELECT (SELECT max(hand_key) FROM hands), (SELECT count(*) FROM hands), "
            "(SELECT count(*) FROM seat_facts), (SELECT max(player_key) FROM players), "
            "(SELECT max(session_key) FROM sessions), "
            "EXISTS (SELECT 1 FROM session_player_facts), EXISTS (SELECT 1 FROM player_summary)"
        )[0]
        self.next_key = int(top or 0) + 1
        self.top_player_key = int(top_player or 0)
        self.top_session_key = int(top_session or 0)
        self.session_facts = bool(some_sessions)
        self.summaries = bool(some_summaries)
        self.touched = False
        if n_hands and not n_facts:
            self.begin()
            facts.rebuild_all(self.con)
            self.commit()
            self.session_facts = self.summaries = True

    def end_run(self) -> None:
        """Compute the facts still due and bring the per-player summaries up to date (in the
        open transaction)."""
        self.begin()
        self._facts(force=True)
        facts.refresh_summaries(self.con, stored=self.summaries)
        self.session_facts = self.summaries = True

    def finish(self) -> None:
        """The end of the run: the facts still due, the summaries, the tournaments and the
        ratings (:meth:`end_run`, :func:`tournaments.refresh`, :func:`ratings.refresh`), all
        committed and checkpointed.

        When the open transaction holds at least :data:`OVERLAP_HANDS` hands, it is committed
        first, in a thread, and the rest runs meanwhile in a second transaction on a second
        connection (:meth:`_overlapped`): a DuckDB commit makes its rows visible to new
        transactions part of the way through (≈ 25 ms into the 70 ms commit of the bench's
        2,000 hands, before most of the checkpoint that writes them into the file), and the
        rest of the writing then runs beside the facts and the ratings instead of before
        them."""
        if self.in_txn and self.pending >= OVERLAP_HANDS and plan.usable_cores() > 1:
            self._overlapped()
        else:
            self.end_run()
            tournaments.refresh(self.con)  # placement points and standings need whole rounds
            ratings.refresh(self.con)  # the games whose sessions changed, each recomputed whole
            self.commit()
        self.con.execute("CHECKPOINT").fetchall()

    def _overlapped(self) -> None:
        """:meth:`finish` with the open transaction committed in a thread. The second
        connection starts its transaction once that commit is visible, which it learns from a
        table the committed transaction creates (``_ingest_fence``, holding a token of this
        run) and the second transaction drops again at its end: a catalog entry is visible
        exactly when the transaction's rows are. The players whose summaries are due
        (``_touched``, a temporary table of the first connection) are carried over. Should
        DuckDB make a reader wait for the whole checkpoint, the work is just not overlapped;
        the second transaction never starts before the first is visible. Measured against
        the one-transaction end, 2,000 bench hands, writer alone on an idle machine: 280 ->
        243 ms wall with the bench's three loads, 254 -> 233 with one (≈ 16 ms more CPU: the
        second commit, the thread); the whole ingest, interleaved: median 0.745 -> 0.710 s.
        (The facts run about half as fast beside the checkpoint; computing them first and
        only the ratings beside it, or the ratings on a third connection, was slower.)"""
        con = self.con
        token = f"{os.getpid()}-{id(self)}-{time.monotonic_ns()}"
        touched = (
            [k for (k,) in self._q("SELECT DISTINCT player_key FROM _touched")]
            if self.touched
            else []
        )
        self._q(f"CREATE TABLE {_FENCE} AS SELECT CAST(? AS VARCHAR) AS token", [token])
        failed: list[BaseException] = []

        def commit() -> None:
            try:
                con.execute("COMMIT")
            except BaseException as exc:  # noqa: BLE001 - handed to the main thread
                failed.append(exc)

        second = con.cursor()
        committer = threading.Thread(target=commit, name="tarock-ingest-commit", daemon=True)
        self.in_txn = False
        self.pending = 0
        committer.start()
        self.con = second
        try:
            while not self._fence_visible(token):
                if not committer.is_alive():
                    committer.join()
                    if failed:
                        raise failed[0]
                    if not self._fence_visible(token):  # (cannot be: committed, not visible)
                        raise RuntimeError("the ingest's commit is not visible after it")
                    break
                time.sleep(0.0005)
            facts.begin_run(second)
            self.begin()
            if touched:
                self._q("INSERT INTO _touched SELECT unnest(?::INTEGER[])", [touched])
            self.end_run()
            tournaments.refresh(second)
            ratings.refresh(second)
            committer.join()
            if failed:
                raise failed[0]
            self._q(f"DROP TABLE {_FENCE}")  # (at the end: a change to the catalog waits
            self.commit()  # for the first commit's checkpoint)
        except BaseException:
            if self.in_txn:
                self.in_txn = False
                with contextlib.suppress(duckdb.Error):
                    second.execute("ROLLBACK")
            committer.join()
            raise
        finally:
            self.con = con
            second.close()

    def _fence_visible(self, token: str) -> bool:
        try:
            return bool(self._q(f"SELECT count(*) FROM {_FENCE} WHERE token = ?", [token])[0][0])
        except duckdb.CatalogException:
            return False

    def _facts(self, *, force: bool = False) -> None:
        """The facts (:func:`facts.add`) of the hands loaded since the last call, once they
        span :data:`FACTS_EVERY` keys, or now (``force``). Computing them per range rather
        than per load: each computation costs ≈ 40 ms whatever its size (four statements
        planned and run), and a parallel ingest loads often. In the open transaction, inside
        the run's staging copy: a run that stops before its end publishes nothing."""
        lo = self.facts_from
        if lo is None or not (force or self.facts_to - lo + 1 >= FACTS_EVERY):
            return
        facts.add(self.con, lo, self.facts_to, (frozenset(self.facts_games),
                                                 frozenset(self.facts_types)),
                  session_facts=self.session_facts)  # fmt: skip
        self.touched = True
        self.facts_from = None
        self.facts_games.clear()
        self.facts_types.clear()

    def start_files(self, files: list[str]) -> None:
        """Forget the previous rows of changed (or pruned) files, all at once (the caller
        holds the transaction; the statements cost the same for one file or many: ≈ 20 of
        them, ≈ 18 ms for a changed bench file).

        Only files already in ``raw_logs`` have rows (a file's ``raw_logs`` row is written in
        the same run as its other rows), so new files skip the deletes and their scans.
        """
        files = [f for f in files if f in self.known]
        if not files:
            return
        marks = ", ".join("?" * len(files))
        n = self._q(f"SELECT count(*) FROM hands WHERE file IN ({marks})", files)[0][0]
        if n:
            self._q(
                f"INSERT INTO _old_ids SELECT hand_id FROM hands WHERE file IN ({marks})", files
            )
            self.s.hands_removed += n
            self.old_ids = True
            facts.remove(self.con, f"SELECT hand_key FROM hands WHERE file IN ({marks})", files)
            self.touched = True
        for sql in _CHILD_DELETE:
            self._q(sql.format(files=marks), files)

    def load(self, starts: list[str], tables: dict[str, pa.Table]) -> None:
        """Load one batch in the open transaction (committed once it holds ``commit_every``
        hands; a failure rolls it back and the caller discards the staging copy); ``starts``
        are the files whose first rows are in it (their previous rows are deleted first)."""
        con = self.con
        self.begin()
        registered: list[str] = []

        def register(*names: str) -> None:
            for name in names:
                if name not in registered:
                    con.register(f"_b_{name}", tables[name])
                    registered.append(name)

        tables, lo, hi = _with_hand_keys(tables, self.next_key)
        self.next_key = hi + 1
        try:
            self.start_files(starts)
            # The usual case, checked first with one query: no hand and no session of the
            # batch is stored yet, each is in the batch once, and no changed file's hands are
            # pending; then every row goes in as it is (no temporary tables, no filters),
            # straight from its Arrow table (no view registered: ≈ 0.4 ms a table). The check
            # looks for the hand ids' hashes among those of the hand ids stored (_hand_hashes,
            # kept by this run: 8 bytes an id where the ids themselves are 64 characters; with
            # 100,000 hands stored 1.4 ms a load instead of 7, with 1,000,000 7.6 instead of
            # 67, with 2,000 alike): no equal hash, no equal id; an equal hash (the same id, a
            # collision, or a hand removed in this run with a changed file, which takes the
            # careful path anyway) takes the careful path below, which compares the ids.
            hand_ids = tables["hands"].column("hand_id")
            sess_ids = tables["sessions"].column("session_id")
            n_rows, n_sess = len(hand_ids), len(sess_ids)
            stored_h = stored_s = 0
            if n_rows:
                self._hand_hashes()
            if n_rows or n_sess:
                register(*(["hands"] if n_rows else []), *(["sessions"] if n_sess else []))
                stored_h, stored_s = self._q(
                    "SELECT "
                    + ("(SELECT count(*) FROM _hand_hashes WHERE h IN "
                       "(SELECT hash(hand_id) FROM _b_hands))" if n_rows else "0")
                    + ", "
                    + ("(SELECT count(*) FROM _b_sessions JOIN sessions USING (session_id))"
                       if n_sess else "0")
                )[0]  # fmt: skip
            hands_plain = (
                stored_h == 0
                and not self.old_ids
                and (not n_rows or pc.count_distinct(hand_ids).as_py() == n_rows)
            )
            sessions_plain = stored_s == 0 and (
                not n_sess or pc.count_distinct(sess_ids).as_py() == n_sess
            )
            if not (hands_plain and sessions_plain):  # the queries below read the batch
                register(*(name for name, t in tables.items()
                           if t.num_rows or name in _ALWAYS_REGISTERED))  # fmt: skip
            if hands_plain:
                self.s.hands_stored += n_rows
                for name in ("hands", *process.HAND_CHILDREN):
                    if tables[name].num_rows:
                        self._insert(name, tables[name])
                if n_rows:
                    self._q("INSERT INTO _hand_hashes SELECT hash(hand_id) FROM _b_hands")
            else:
                # de-duplicate the batch ourselves: first occurrence of each key wins
                self._q(
                    "CREATE OR REPLACE TEMP TABLE _new AS SELECT hand_id FROM (SELECT "
                    "DISTINCT hand_id FROM _b_hands) b ANTI JOIN hands USING (hand_id)"
                )
                n_batch = self._q("SELECT count(DISTINCT hand_id) FROM _b_hands")[0][0]
                n_new, n_known = self._q(
                    "SELECT count(*), count(*) FILTER (WHERE hand_id IN "
                    "(SELECT hand_id FROM _old_ids)) FROM _new"
                )[0]
                self.s.hands_stored += n_new - n_known
                self.s.hands_unchanged += n_known
                self.s.hands_removed -= n_known
                self.s.hands_duplicate += n_batch - n_new
                self._q(
                    "INSERT INTO hands BY NAME SELECT * FROM _b_hands "
                    "WHERE hand_id IN (SELECT hand_id FROM _new) "
                    "QUALIFY row_number() OVER (PARTITION BY hand_id ORDER BY hand_key) = 1"
                )
                for child in process.HAND_CHILDREN:
                    if tables[child].num_rows:
                        self._q(
                            f"INSERT INTO {child} BY NAME SELECT {_cols(child)} FROM _b_{child} "
                            "WHERE hand_id IN (SELECT hand_id FROM _new)"
                        )
                self._hand_hashes()
                self._q("INSERT INTO _hand_hashes SELECT hash(hand_id) FROM _new")
            # sessions: the first file that brings a session id keeps it
            if sessions_plain:
                if n_sess:  # keys after the greatest stored, in the batch's order
                    first = self.top_session_key + 1
                    self._insert("sessions", tables["sessions"].append_column(
                        "session_key", pa.array(range(first, first + n_sess), pa.int32())
                    ))  # fmt: skip
                    self.top_session_key += n_sess
                for name in process.SESSION_CHILDREN:
                    if tables[name].num_rows:
                        self._insert(name, tables[name])
            else:
                self._q(
                    "CREATE OR REPLACE TEMP TABLE _new_sessions AS SELECT DISTINCT "
                    "session_id FROM _b_sessions ANTI JOIN sessions USING (session_id)"
                )
                self._q(
                    f"INSERT INTO sessions BY NAME SELECT *, {_NEXT_SESSION_KEY} FROM _b_sessions "
                    "WHERE session_id IN (SELECT session_id FROM _new_sessions) QUALIFY "
                    "row_number() OVER (PARTITION BY session_id ORDER BY file, line) = 1"
                )
                self.top_session_key = int(
                    self._q("SELECT coalesce(max(session_key), 0) FROM sessions")[0][0]
                )
                for child in ("session_players", "session_scores"):
                    self._q(
                        f"INSERT INTO {child} BY NAME SELECT * FROM _b_{child} "
                        "WHERE session_id IN (SELECT session_id FROM _new_sessions) "
                        "QUALIFY row_number() OVER (PARTITION BY session_id, seat) = 1"
                    )
                if tables["session_findings"].num_rows:  # those of the file that kept it
                    self._q(
                        "INSERT INTO session_findings BY NAME SELECT * FROM _b_session_findings "
                        "WHERE (session_id, file) IN (SELECT session_id, file FROM sessions "
                        "WHERE session_id IN (SELECT session_id FROM _new_sessions))"
                    )
            seen = self._batch_players(tables["players"])
            if seen is not None:  # a new player, or a new name: else nothing to write
                new = self._new_players(tables["players"])
                if new is not None:  # none of them stored: no conflict to resolve
                    self._insert("players", new)
                    self.top_player_key += new.num_rows
                else:
                    register("players")
                    self._q(
                        "INSERT INTO players BY NAME "
                        "SELECT player_id, max(name) AS name, (SELECT coalesce(max(player_key), "
                        "0) FROM players) + CAST(row_number() OVER (ORDER BY player_id) AS "
                        "INTEGER) AS player_key FROM _b_players GROUP BY player_id ON CONFLICT "
                        "(player_id) DO UPDATE SET name = coalesce(excluded.name, name)"
                    )
                    self.top_player_key = int(
                        self._q("SELECT coalesce(max(player_key), 0) FROM players")[0][0]
                    )
                self.players.update(seen)
            if tables["rejects"].num_rows:
                self._insert("rejects", tables["rejects"], rejected_at="current_timestamp")
            self._insert("raw_logs", tables["raw_logs"], ingested_at="current_timestamp")
            if lo <= hi:
                if self.facts_from is None:
                    self.facts_from = lo
                self.facts_to = hi
                self.facts_games.update(pc.unique(tables["hands"].column("game")).to_pylist())
                self.facts_types.update(pc.unique(tables["action_rows"].column("type")).to_pylist())
                self._facts()
        except BaseException:
            self._q("ROLLBACK")
            self.in_txn = False
            raise
        finally:
            for name in registered:
                con.unregister(f"_b_{name}")
        self.pending += tables["hands"].num_rows
        if self.pending >= self.commit_every:
            self.commit()
        for r in tables["raw_logs"].to_pylist():
            self.s.sessions += r["n_sessions"]
            if r["n_hands"] == 0 and r["n_rejected"] > 0:
                self.s.files_rejected += 1
        self._collect_rejects(tables["rejects"].to_pylist())

    def _batch_players(self, t: pa.Table) -> dict[str, str | None] | None:
        """What the players upsert of a load would make of the players it names
        (``player_id`` → its name: the batch's greatest, else the stored one), or None when
        that changes nothing in ``players`` (every one stored already, under that name).
        Measured: the upsert is the dearest statement of a small load (≈ 3.5 ms)."""
        names: dict[str, str | None] = {}
        for pid, name in zip(t.column("player_id").to_pylist(),
                             t.column("name").to_pylist(), strict=True):  # fmt: skip
            old = names.get(pid)
            names[pid] = name if old is None or (name is not None and name > old) else old
        known = self.players
        after = {pid: (name if name is not None else known.get(pid)) for pid, name in names.items()}
        if all(pid in known and known[pid] == name for pid, name in after.items()):
            return None
        return after

    def _hand_hashes(self) -> None:
        """``_hand_hashes``: the hashes of the hand ids stored, made at the first load that
        needs them (a run that loads nothing does not scan the store's ids)."""
        if not self.hand_hashes:
            self._q(
                "CREATE OR REPLACE TEMP TABLE _hand_hashes AS SELECT hash(hand_id) AS h FROM hands"
            )
            self.hand_hashes = True

    def _insert(self, table: str, t: pa.Table, **exprs: str) -> None:
        """Append the rows of ``t`` to the store's ``table`` as ``INSERT INTO table BY NAME
        SELECT *, <exprs> FROM t`` does (``exprs``: SQL expressions of store columns the
        batch lacks, e.g. a timestamp), less the batch's ``hand_id`` where the store keys the
        rows by ``hand_key`` alone (:data:`process.KEYED_ONLY`); a column the store lacks is
        an error. When the batch and ``exprs`` give every store column (the writer's tables
        do), the rows go in straight from Arrow, a relation inserted by position with its
        columns in the store's order, instead of through a registered view (≈ 0.2–0.4 ms a
        table); else (a store column left to its default) through ``INSERT … BY NAME``."""
        cols = self._columns.get(table)
        if cols is None:
            cols = self._columns[table] = tuple(self.con.table(table).columns)
        have = set(t.column_names)
        if table in process.KEYED_ONLY:
            have.discard("hand_id")
        extra = have - set(cols) - set(exprs)
        if extra:
            raise duckdb.BinderException(f"table {table} has no columns {sorted(extra)}")
        if all(c in have or c in exprs for c in cols):
            if not exprs:
                rel = self.con.from_arrow(t.select(list(cols)))
            else:
                rel = self.con.from_arrow(t).project(", ".join(
                    f'"{c}"' if c in have else f'{exprs[c]} AS "{c}"' for c in cols
                ))  # fmt: skip
            rel.insert_into(table)
            return
        view = f"_insert_{table}"
        self.con.register(view, t.select([c for c in t.column_names if c in have]))
        try:
            extras = "".join(f', {sql} AS "{c}"' for c, sql in exprs.items())
            self._q(f"INSERT INTO {table} BY NAME SELECT *{extras} FROM {view}")
        finally:
            self.con.unregister(view)

    def _new_players(self, t: pa.Table) -> pa.Table | None:
        """The batch's players as rows of ``players`` when none of them is stored yet (the
        usual load of a new store), else None: each once, with its greatest name and the key
        the upsert would give it (after the greatest stored key, in ``player_id`` order).
        A plain insert of these costs ≈ 0.4 ms, the upsert ≈ 2–5."""
        names: dict[str, str | None] = {}
        for pid, name in zip(t.column("player_id").to_pylist(),
                             t.column("name").to_pylist(), strict=True):  # fmt: skip
            if pid in self.players:
                return None
            old = names.get(pid)
            names[pid] = name if old is None or (name is not None and name > old) else old
        ids = sorted(names)
        first = self.top_player_key + 1
        return pa.table(
            {
                "player_id": pa.array(ids, pa.string()),
                "name": pa.array([names[pid] for pid in ids], pa.string()),
                "player_key": pa.array(range(first, first + len(ids)), pa.int32()),
            }
        )

    def _collect_rejects(self, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            errors = orjson.loads(r["errors"]) if isinstance(r["errors"], str) else r["errors"]
            self.s.hands_rejected += 1
            self.s.rejects.append(
                {
                    "file": r["file"],
                    "line": r["line"],
                    "session": r["session"],
                    "hand": r["hand"],
                    "first_code": r["first_code"],
                    "reason": (errors[0].get("message") if errors else None),
                    "errors": errors,
                }
            )

    def unchanged_files(self, files: list[str]) -> None:
        """Count the files skipped as unchanged into the summary, with their rejects as
        stored: two queries for all of them (three per file before: ≈ 2 ms a file)."""
        if not files:
            return
        marks = ", ".join("?" * len(files))  # (a filter pushed into the scans)
        counts = {
            r[0]: r[1:]
            for r in self._q(
                "SELECT r.file, r.n_sessions, r.n_hands, r.n_rejected, coalesce(h.n, 0) "
                "FROM raw_logs r LEFT JOIN (SELECT file, count(*) AS n FROM hands "
                f"WHERE file IN ({marks}) GROUP BY file) h USING (file) "
                f"WHERE r.file IN ({marks})",
                [*files, *files],
            )
        }
        for file in files:
            n_sessions, n_hands, n_rejected, stored = counts[file]
            self.s.files_unchanged += 1
            self.s.sessions += n_sessions
            self.s.hands_unchanged += stored
            self.s.hands_duplicate += max(0, n_hands - stored)
            if n_hands == 0 and n_rejected > 0:
                self.s.files_rejected += 1
        cur = self.con.execute(
            "SELECT file, line, session, hand, raw, errors, first_code, hand_index, n_errors "
            f"FROM rejects WHERE file IN ({marks})",
            files,
        )
        cols = [d[0] for d in cur.description]
        rows = [dict(zip(cols, row, strict=True)) for row in cur.fetchall()]
        order = {f: i for i, f in enumerate(files)}  # file by file, each by line and hand
        rows.sort(key=lambda r: (order[r["file"]], r["line"] is None, r["line"] or 0,
                                 r["hand_index"] is None, r["hand_index"] or 0))  # fmt: skip
        self._collect_rejects(rows)


def _cols(table: str) -> str:
    """What a batch table's insert selects: every column, less ``hand_id`` where the store
    keys the rows by ``hand_key`` alone (:data:`process.KEYED_ONLY`)."""
    return "* EXCLUDE (hand_id)" if table in process.KEYED_ONLY else "*"


#: the ``session_key`` of the sessions one insert adds: after the store's highest
_NEXT_SESSION_KEY = (
    "(SELECT coalesce(max(session_key), 0) FROM sessions) "
    "+ CAST(row_number() OVER () AS INTEGER) AS session_key"
)


def _with_hand_keys(
    tables: dict[str, pa.Table], first: int
) -> tuple[dict[str, pa.Table], int, int]:
    """The batch with a ``hand_key`` column on its hands (``first``, ``first + 1``, … in
    order) and on every child row (its hand's key); and the keys' range ``(lo, hi)``."""
    hands = tables["hands"]
    n = hands.num_rows
    keys = pa.array(range(first, first + n), type=pa.int32())
    out = dict(tables)
    out["hands"] = hands.append_column("hand_key", keys)
    ids = hands.column("hand_id")
    for child in process.HAND_CHILDREN:
        t = tables[child]
        if t.num_rows:
            col = pc.take(keys, pc.index_in(t.column("hand_id"), value_set=ids))
        else:
            col = pa.array([], type=pa.int32())
        out[child] = t.append_column("hand_key", col)
    return out, first, first + n - 1


class _Buffer:
    """Gathers the batches of small files into one load of about ``batch_hands`` hands.

    A hand already in the buffer (same content hash, from another file) is dropped from the
    later file's tables with all its children, so one load never holds a hand twice.
    """

    def __init__(self, writer: _Writer, batch_hands: int) -> None:
        self.w = writer
        self.limit = batch_hands
        self.parts: list[dict[str, pa.Table]] = []
        self.starts: list[str] = []
        self.ids: set[str] = set()
        self.hands = 0

    def add(self, file: str, tables: dict[str, pa.Table], *, first: bool) -> None:
        ids = tables["hands"].column("hand_id").to_pylist()
        dup = self.ids.intersection(ids)
        if dup:
            mask = pc.invert(pc.is_in(tables["hands"]["hand_id"], pa.array(sorted(dup))))
            tables = dict(tables)
            for name in ("hands", *process.HAND_CHILDREN):
                t = tables[name]
                keep = pc.invert(pc.is_in(t["hand_id"], pa.array(sorted(dup))))
                tables[name] = t.filter(keep if name != "hands" else mask)
            self.w.s.hands_duplicate += len(dup)
        self.ids.update(ids)
        self.parts.append(tables)
        if first:
            self.starts.append(file)
        self.hands += tables["hands"].num_rows
        if self.hands >= self.limit:
            self.flush()

    def flush(self) -> None:
        if not self.parts:
            return
        merged = {name: pa.concat_tables([p[name] for p in self.parts]) for name in process.SCHEMAS}
        self.w.load(self.starts, merged)
        self.parts, self.starts, self.ids, self.hands = [], [], set(), 0


# --------------------------------------------------------------------------- the driver


def _shard_to_ipc(path: str, out_dir: str, batch_hands: int,
                  span: Any = None) -> tuple[list[str], dict[str, int]]:  # fmt: skip
    """Worker entry point: process one file (or its ``span``) in batches, each batch written
    as Arrow IPC files (one per table) in its own folder under ``out_dir``; returns the
    folders in order and, for a span, its counts (:func:`process.iter_batches`).

    Workers never touch DuckDB and never hold more than one batch in memory.
    """
    folders: list[str] = []
    counts: dict[str, int] = {}
    stem = hashlib.sha256(f"{path}:{span.start if span else ''}".encode()).hexdigest()[:16]
    with gc_paused(), gc_frozen():  # as in _process: one full collection per batch instead
        for i, tables in enumerate(process.iter_batches(
                path, batch_hands=batch_hands, span=span, counts=counts)):  # fmt: skip
            folder = Path(out_dir) / f"{stem}-{i:05d}"
            folder.mkdir(parents=True)
            for name, t in tables.items():
                with pa.OSFile(str(folder / f"{name}.arrow"), "wb") as sink:
                    with pa.ipc.new_file(sink, t.schema) as writer:
                        writer.write_table(t)
            folders.append(str(folder))
            del tables
            gc.collect()
    return folders, counts


def _read_ipc(folder: str) -> dict[str, pa.Table]:
    """A batch's tables as a worker wrote them. Each file is read whole, in one read, and the
    tables are views of its bytes (reading it piece by piece through a file object cost
    twice the CPU: 11.2 against 6.4 ms for the 2,000 bench hands' 64 files)."""
    out = {}
    for name in process.SCHEMAS:
        with open(Path(folder) / f"{name}.arrow", "rb") as fh:
            data = fh.read()
        out[name] = pa.ipc.open_file(pa.py_buffer(data)).read_all()
    return out


_Stream = Iterator[tuple[plan.Unit, Iterator[dict[str, pa.Table]], dict[str, int]]]


class _ParallelStream:
    """Units of work (:func:`~tarock_logs.store.write.plan.plan_units`) processed by a pool of
    ``jobs`` workers, at most ``2*jobs`` in flight; iterating gives, in file order, each unit with
    its batches and counts. The workers start on construction (so an ingest into a new database can
    set the database up meanwhile); :meth:`close` stops the pool. Each batch's IPC folder is
    deleted once it has been read."""

    def __init__(
        self,
        files: list[Path],
        jobs: int,
        out_dir: Path,
        batch_hands: int,
        lock_fd: int | None = None,
    ) -> None:
        #: called once every unit is processed (the workers are idle from then on)
        self.on_drain: Callable[[], None] | None = None
        self.out_dir = out_dir
        self.batch_hands = batch_hands
        # forked workers (cheap: the modules are loaded) that close their inherited copy of
        # the writer lock ``lock_fd`` and die with the ingest (lock.worker_init)
        forked = "fork" in multiprocessing.get_all_start_methods()
        self.pool = ProcessPoolExecutor(
            max_workers=jobs,
            mp_context=multiprocessing.get_context("fork" if forked else "spawn"),
            initializer=writer_lock.worker_init,
            initargs=(os.getpid(), lock_fd if forked else None),
        )
        self.units = iter(plan.plan_units(files, jobs))
        self.pending: list[tuple[plan.Unit, Future[tuple[list[str], dict[str, int]]]]] = []
        # The first submit forks every worker. A forked copy must not collect the garbage it
        # inherits from earlier work (in the test suite a worker crashed in its first
        # collection, finalising objects of earlier tests): fork with everything frozen
        # (:func:`gc_frozen`), and the children keep it frozen for good (their own
        # ``gc_frozen`` leaves an inherited freeze alone), so their collector never sees it.
        # (No full collection of the parent first: measured ≈ 45 ms on the critical path of
        # every parallel ingest, more in a big process.)
        with gc_frozen():
            for _ in range(2 * jobs):
                self._submit()

    def _submit(self) -> None:
        nxt = next(self.units, None)
        if nxt is not None:
            self.pending.append(
                (
                    nxt,
                    self.pool.submit(
                        _shard_to_ipc, str(nxt.path), str(self.out_dir), self.batch_hands, nxt.span
                    ),
                )
            )

    @staticmethod
    def _batches(folders: list[str]) -> Iterator[dict[str, pa.Table]]:
        for folder in folders:
            tables = _read_ipc(folder)
            shutil.rmtree(folder, ignore_errors=True)
            yield tables

    def __iter__(self) -> _Stream:
        try:
            while self.pending:
                unit, fut = self.pending.pop(0)
                folders, counts = fut.result()
                self._submit()
                if not self.pending and self.on_drain is not None:
                    self.on_drain()
                yield unit, self._batches(folders), counts
        finally:
            self.close()

    def next_ready(self) -> bool:
        """Whether the next unit's worker has finished (its batches can be had at once)."""
        return bool(self.pending) and self.pending[0][1].done()

    def close(self) -> None:
        self.pool.shutdown(wait=True, cancel_futures=True)


#: a file's batches of tables, as :func:`process.iter_batches` gives them
_Batches = Iterator[dict[str, pa.Table]]


def _process(files: list[Path], buf: _Buffer, jobs: int, parts: Path, batch_hands: int,
             progress: Progress | None, digests: dict[Path, tuple[str, int]] | None = None,
             started: _ParallelStream | scaleout.DaskStream | None = None,
             lock_fd: int | None = None,
             read_ahead: dict[Path, _Batches] | None = None) -> None:  # fmt: skip
    """Process ``files`` (in a pool when ``jobs > 1``) into the buffer, in order.

    The cyclic garbage collector is paused meanwhile and run once per batch's worth of records
    (``batch_hands`` hands and rejects): the parsed logs, replays and column lists of a batch
    are many live objects that the collector would otherwise scan again and again although
    they hold almost no cycles (measured: a quarter of the processing time). One full
    collection per batch keeps memory bounded.
    A file read in parts gets its ``raw_logs`` row after its last part (``digests``: the
    files' ``(sha256, size)`` when the caller has them). ``started``: the workers, already
    started on ``files``; ``lock_fd``: the writer lock's descriptor, which new workers close
    (:class:`_ParallelStream`); ``read_ahead``: the batches of files read already, serially
    (:func:`_read_early`: their first batch read), taken instead of reading those files.
    """
    # one big file is read in parts (plan.plan_units); ``started`` may be a Dask stream of one
    # worker
    parallel = (jobs > 1 or started is not None) and bool(files)
    ready: Callable[[], bool] = lambda: False  # noqa: E731 - whether the next unit is done
    if parallel:
        pool = started or _ParallelStream(files, jobs, parts, batch_hands, lock_fd)
        stream: _Stream = iter(pool)
        ready = pool.next_ready
    else:
        pre = read_ahead or {}
        stream = (
            (plan.Unit(f), pre.pop(f) if f in pre else process.iter_batches(
                f, batch_hands=batch_hands), {})
            for f in files
        )  # fmt: skip
    # With workers, load what has arrived once a unit is complete and the buffer holds a
    # share of a batch: the load then runs while the workers process the next units,
    # instead of after all of them (loads stay big enough that their fixed cost is small).
    early = max(1, batch_hands // (2 * jobs)) if parallel else None
    totals: dict[str, int] = {}
    # one collection per batch's worth of records (a file's batch, or the batches of smaller
    # files together: each collection costs ≈ 1–3 ms whatever the batch's size), of the
    # batches' objects only
    uncollected = 0
    with gc_paused(), gc_frozen():
        for unit, batches, counts in stream:
            key = sources.file_key(unit.path)
            for i, b in enumerate(batches):
                buf.add(key, b, first=unit.index == 0 and i == 0)
                if progress:
                    progress(key, b["hands"].num_rows)
                uncollected += b["hands"].num_rows + b["rejects"].num_rows
                if uncollected >= batch_hands:
                    gc.collect()
                    uncollected = 0
            if unit.n > 1:  # a part: add up its counts; the file's row after the last part
                for k, v in counts.items():
                    totals[k] = totals.get(k, 0) + v
                if unit.index == unit.n - 1:
                    digest, size = (digests or {}).get(unit.path) or sources.sha256_file(unit.path)
                    tables = process.empty_tables()
                    tables["raw_logs"] = process.raw_logs_row(key, digest, size, totals)
                    buf.add(key, tables, first=False)
                    totals = {}
            # ... unless the next unit is done already: then one load takes both (each load
            # has a fixed cost; at the end of a run, when the workers finish together, this
            # saves a load after the last worker is done)
            if early is not None and buf.hands >= early and not ready():
                buf.flush()


def _prune(w: _Writer, known: dict[str, str], files: list[Path],
           paths: Sequence[str | os.PathLike[str]]) -> None:  # fmt: skip
    """Remove the rows of the files stored before under ``paths`` that were not read now.

    Their hands go to ``_old_ids`` like a changed file's (:meth:`_Writer.start_files`), so a
    hand another file still holds is read again from it by the caller.
    """
    listed = {sources.file_key(f) for f in files}
    roots = [Path(p).resolve() for p in paths]
    gone = sorted(k for k in known if k not in listed
                  and any(Path(k) == r or r in Path(k).parents for r in roots))  # fmt: skip
    if not gone:
        return
    w.begin()
    w.start_files(gone)
    w.s.files_pruned += len(gone)
    w.commit()


class IngestIOError(OSError):
    """The database could not be written: a full disk, a read-only one, an I/O error. Nothing
    was published and nothing is left behind."""


#: ``FILE.duckdb.tmp-<pid>`` and what hangs off it (``.wal``, ``.spill``): a writer's staging
_STAGING_PID = re.compile(r"\.tmp-(\d+)(?:\..*)?$")


def _pid_alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, dead but not yet reaped, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    try:
        stat = Path(f"/proc/{pid}/stat").read_text("ascii", errors="replace")
    except OSError:
        return True  # no /proc: it exists
    return stat.rpartition(")")[2].split()[:1] != ["Z"]


def _remove_leftovers(target: Path) -> None:
    """Remove the staging copies, WALs and spill folders of ingests that died (their process
    is gone). Called with the writer lock held; a live process's staging is never touched,
    even if the lock was broken by hand."""
    for stale in target.parent.glob(target.name + ".tmp-*"):
        m = _STAGING_PID.search(stale.name)
        pid = int(m.group(1)) if m else None
        if pid is None or (pid != os.getpid() and _pid_alive(pid)):
            continue
        if stale.is_dir():
            shutil.rmtree(stale, ignore_errors=True)
        else:
            stale.unlink(missing_ok=True)


def ingest(
    paths: Sequence[str | os.PathLike[str]],
    *,
    db: str | os.PathLike[str] | None = None,
    exclude: Sequence[str] = (),
    jobs: int | None = None,
    batch_hands: int = process.DEFAULT_BATCH_HANDS,
    dry_run: bool = False,
    progress: Progress | None = None,
    prune: bool = False,
    wait: float = 0.0,
    dask: str | None = None,
) -> IngestSummary:
    """Ingest the log files under ``paths`` into ``db`` and publish it atomically.

    ``prune`` also removes the rows of every file stored before that lies under one of
    ``paths`` (the path itself, or a folder above it) and is not among the files read now
    (deleted, renamed, or excluded this time); files stored from other paths are never
    touched. A hand that a pruned file held and another file still holds stays stored.

    ``jobs`` worker processes read, validate and audit the files (they never touch DuckDB;
    the rows are the same as a serial ingest's). By default (None) one per core the process
    may use, at most one per task (a file, or a part of a big ``.jsonl`` file), and serial
    below :data:`~tarock_logs.store.write.plan.SERIAL_BELOW_BYTES_LANE` of input
    (:data:`~tarock_logs.store.write.plan.SERIAL_BELOW_BYTES` without the ingest lane;
    :func:`~tarock_logs.store.write.plan.default_jobs`).

    ``wait``: seconds to wait for another ingest of the same database to finish (0: refuse
    at once).

    ``dask``: process the files on a Dask cluster instead (:mod:`tarock_logs.store.write.scaleout`):
    the scheduler's address, or :data:`LOCAL_CLUSTER` for a local cluster of ``jobs`` worker
    processes (default: one per usable core) started for this ingest. The rows, rejects and
    summary are those of a local ingest.

    Raises ``FileNotFoundError`` for a path that does not exist, :class:`IngestLocked` when
    another ingest still holds the database after ``wait`` seconds and :class:`IngestIOError`
    when the database cannot be written (disk full, read-only, I/O error): then nothing is
    published and nothing is left behind.
    """
    target = Path(db if db is not None else default_db())
    for p in paths:
        if not Path(p).exists():
            raise FileNotFoundError(f"no such file or folder: {p}")
    files = sources.list_files(paths, exclude)
    summary = IngestSummary(db=str(target), files=len(files), dry_run=dry_run)
    target.parent.mkdir(parents=True, exist_ok=True)
    lock = writer_lock.acquire(target, wait=wait)
    try:
        _remove_leftovers(target)
        _ingest_locked(target, files, summary, lock, paths, jobs, batch_hands, dry_run, progress,
                       prune, dask)  # fmt: skip
    except (OSError, duckdb.Error) as exc:
        errno = dbc.disk_errno(exc)
        if errno is not None and not isinstance(exc, IngestIOError):
            raise IngestIOError(
                errno, f"{target}: {os.strerror(errno)} ({exc}); nothing was published"
            ) from exc
        raise
    finally:
        lock.release()
    return summary


def _ingest_locked(
    target: Path,
    files: list[Path],
    summary: IngestSummary,
    lock: writer_lock.WriterLock,
    paths: Sequence[str | os.PathLike[str]],
    jobs: int | None,
    batch_hands: int,
    dry_run: bool,
    progress: Progress | None,
    prune: bool,
    dask: str | None = None,
) -> None:
    """The ingest proper, with the writer lock held: stage, migrate, load, publish (see
    :func:`ingest`). On any failure the staging copy and the spill folder are removed."""
    fresh = not target.exists()
    stage = dbc.staging_path(target)
    spill = stage.with_name(stage.name + ".spill")
    on: scaleout.Cluster | None = None
    with contextlib.ExitStack() as cluster_stack:
        if dask is not None:
            on = cluster_stack.enter_context(
                scaleout.cluster(None if dask == LOCAL_CLUSTER else dask, jobs)
            )
        _ingest_staged(target, files, summary, lock, paths, jobs, batch_hands, dry_run,
                       progress, prune, on, fresh, stage, spill)  # fmt: skip


def _open_stage(stage: Path, fresh: bool) -> duckdb.DuckDBPyConnection:
    """The writer's connection to the staging copy, at the latest schema, every commit from
    then on a checkpoint (:func:`connect.checkpoint_every_commit`). A new store starts as a
    copy of the schema template (:mod:`store.template`: ≈ 2 ms instead of ≈ 50 for its
    migrations); a copy that :func:`migrate` refuses, or no template, and the migrations are
    run on a new file instead."""
    if fresh and template.copy_template(stage):
        con = None
        try:
            con = dbc.connect_writer(stage, checkpoint_commits=False)
            migrate(con, restamp=True)
            dbc.checkpoint_every_commit(con)
            return con
        except (duckdb.Error, SchemaError):
            if con is not None:
                con.close()
            dbc.discard_staging(stage)
            template.forget_template()
    con = dbc.connect_writer(stage, checkpoint_commits=False)
    try:
        migrate(con)
        dbc.checkpoint_every_commit(con)
    except BaseException:
        con.close()
        raise
    return con


def _read_early(path: Path, batch_hands: int) -> _Batches:
    """The batches of one file with its first batch read ahead of the writer (as
    :func:`_process` reads it: the collector paused, one collection per batch); the rest is
    read when taken, so a big file is never held whole."""
    batches = process.iter_batches(path, batch_hands=batch_hands)
    with gc_paused(), gc_frozen():
        first = next(batches, None)
        gc.collect()
    if first is None:
        return iter(())
    return itertools.chain((first,), batches)


#: the interpreter's switch interval while a new store is set up beside the reading (s)
_SETUP_SWITCH_INTERVAL: Final = 0.0005


def _start_writer(
    con: duckdb.DuckDBPyConnection, summary: IngestSummary
) -> tuple[_Writer, dict[str, str]]:
    """The writer on the staging copy, its run begun (:meth:`_Writer.begin_run`), and the
    files stored with their sha256."""
    con.execute(f"SET threads = {WRITER_THREADS}")
    w = _Writer(con, summary)
    w.begin_run()
    known = dict(con.execute("SELECT file, sha256 FROM raw_logs").fetchall())
    return w, known


def _open_stage_beside(
    stage: Path, summary: IngestSummary, work: Callable[[], None]
) -> tuple[duckdb.DuckDBPyConnection, _Writer, dict[str, str]]:
    """:func:`_open_stage` of a new store and :func:`_start_writer` in a thread while
    ``work`` runs in this one (the ingest reads its first file meanwhile: copying the
    template, connecting, stamping it and beginning the run are ≈ 35 ms, mostly in DuckDB,
    which lets the reading's Python run). Either's exception is raised once both are done;
    the connection is then closed."""
    opened: list[duckdb.DuckDBPyConnection] = []
    started: list[tuple[_Writer, dict[str, str]]] = []
    failed: list[BaseException] = []

    def run() -> None:
        try:
            opened.append(_open_stage(stage, True))
            started.append(_start_writer(opened[0], summary))
        except BaseException as exc:  # noqa: BLE001 - handed to the calling thread
            failed.append(exc)

    opener = threading.Thread(target=run, name="tarock-ingest-stage", daemon=True)
    # The setting up is some fifteen DuckDB calls, each of which gives the interpreter's lock
    # back to the reading and then waits for it: by default up to 5 ms each, longer than
    # most of the calls take. Meanwhile it is asked back within 0.5 ms.
    interval = sys.getswitchinterval()
    sys.setswitchinterval(min(interval, _SETUP_SWITCH_INTERVAL))
    try:
        opener.start()
        try:
            work()
        except BaseException:
            opener.join()
            for con in opened:
                con.close()
            raise
        opener.join()
    finally:
        sys.setswitchinterval(interval)
    if failed:
        for con in opened:
            con.close()
        raise failed[0]
    return opened[0], *started[0]


def _ingest_staged(
    target: Path,
    files: list[Path],
    summary: IngestSummary,
    lock: writer_lock.WriterLock,
    paths: Sequence[str | os.PathLike[str]],
    jobs: int | None,
    batch_hands: int,
    dry_run: bool,
    progress: Progress | None,
    prune: bool,
    on: scaleout.Cluster | None,
    fresh: bool,
    stage: Path,
    spill: Path,
) -> None:
    """:func:`_ingest_locked`'s work, with the Dask cluster ``on`` (if any) up."""
    started: _ParallelStream | scaleout.DaskStream | None = None
    n_jobs = 1
    try:
        dbc.begin_staging(target)
        if on is not None:
            n_jobs = on.workers
            if fresh:
                started = scaleout.DaskStream(files, on, batch_hands)
        elif fresh:  # nothing is known yet: every file is to do, the workers start now
            n_jobs = (
                jobs if jobs is not None else plan.default_jobs(len(files), plan.file_sizes(files))
            )
            if n_jobs > 1 and files:
                started = _ParallelStream(files, n_jobs, spill / "parts", batch_hands, lock.fd)
        # a new store read serially: its first file is read while the store is set up
        ahead: dict[Path, _Batches] = {}
        if fresh and on is None and started is None and files:
            con, w, known = _open_stage_beside(stage, summary, lambda: ahead.update(
                {files[0]: _read_early(files[0], batch_hands)}))  # fmt: skip
        else:
            con = _open_stage(stage, fresh)
            try:
                w, known = _start_writer(con, summary)
            except BaseException:
                con.close()
                raise
        try:
            buf = _Buffer(w, batch_hands)
            w.known = set(known)
            todo: list[Path] = []
            same: list[Path] = []
            digests: dict[Path, tuple[str, int]] = {}
            for f in files:
                stored = known.get(sources.file_key(f))
                if stored is None:  # new: its digest is the worker's to take (raw_logs)
                    todo.append(f)
                    continue
                digests[f] = sources.sha256_file(f)
                (same if stored == digests[f][0] else todo).append(f)
            summary.files_changed = sum(1 for f in todo if sources.file_key(f) in known)
            if on is not None:
                if started is None and todo:
                    started = scaleout.DaskStream(todo, on, batch_hands)
            elif started is None:
                n_jobs = (
                    jobs
                    if jobs is not None
                    else plan.default_jobs(len(todo), plan.file_sizes(todo))
                )
            else:
                assert todo == files  # a fresh database knows no file
            _process(todo, buf, n_jobs, spill / "parts", batch_hands, progress, digests,
                     started, lock_fd=lock.fd, read_ahead=ahead)  # fmt: skip
            buf.flush()
            if prune:
                _prune(w, known, files, paths)
            # A hand that a changed file dropped may still be in an unchanged file that
            # held a duplicate of it (stored once, under the changed file): read those
            # files again so nothing is lost.
            lost = (
                w.old_ids
                and con.execute(
                    "SELECT count(*) FROM _old_ids WHERE hand_id NOT IN (SELECT hand_id FROM hands)"
                ).fetchall()[0][0]
            )
            again: set[str] = set()
            if lost:
                again = {
                    r[0]
                    for r in con.execute(
                        "SELECT r.file FROM raw_logs r WHERE r.n_hands > "
                        "(SELECT count(*) FROM hands h WHERE h.file = r.file)"
                    ).fetchall()
                }
            reread = [f for f in same if sources.file_key(f) in again]
            unchanged = [sources.file_key(f) for f in same if sources.file_key(f) not in again]
            w.unchanged_files(unchanged)
            if progress:
                for key in unchanged:
                    progress(key, 0)
            summary.files_unchanged += len(reread)
            _process(reread, buf, 1, spill / "parts", batch_hands, progress)
            buf.flush()
            w.finish()
        finally:
            con.close()
        if dry_run:
            dbc.discard_staging(stage)
        elif not lock.still_held():
            raise IngestLocked(
                f"the lock file {lock.path} was removed while this ingest held it: another "
                f"ingest may be writing {target}; nothing was published"
            )
        else:
            dbc.publish(stage, target)
    except BaseException:
        dbc.discard_staging(stage)
        raise
    finally:
        if started is not None:
            started.close()
        shutil.rmtree(spill, ignore_errors=True)
