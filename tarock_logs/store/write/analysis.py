"""Per-card analysis in the store: ``tarock ingest --analyse`` (docs/analysis.md).

A focused step after the ingest: the hands of the files just ingested are analysed with all
cards visible (:mod:`tarock_logs.analysis`) and the rows go into ``analysed_hands`` and
``card_analysis`` (migration 0005), replaced per hand, in one transaction on a staging copy
published atomically under the writer lock, like the ingest itself. Hands are matched to the
stored ones by session id and number (their ``hand_id``); analysis rows of hands no longer
stored are dropped.

What the pages read back is in :mod:`tarock_logs.store.read.analysis`.

``view="player"`` (or ``"both"``) stores the analysis on **what the player knew**
(:mod:`tarock_logs.analysis.player`: each card's mean and spread over layouts sampled from the
player's view, with the samples and the seed) into ``analysed_hands_player`` and
``card_analysis_player`` (migration 0010), beside the all-cards-visible rows;
the replayer reads them back.

``par=True`` also stores, for each hand with a talon exchange, the par before the first trick
(:mod:`tarock_logs.analysis.par`: each talon group, each discard after the recorded group and
each contract the declarer could have declared, valued with all cards visible under the par's
budgets) into ``par_hands`` and ``par_options`` (migration 0013).
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path

import duckdb
import orjson
import pyarrow as pa

from tarock_logs.analysis.hand import HandAnalysis, default_hand_budget, iter_analyses
from tarock_logs.analysis.native import BUDGET_NATIVE, default_budget
from tarock_logs.analysis.par import HandPar, iter_pars
from tarock_logs.analysis.player import (
    DEFAULT_SAMPLES,
    DEFAULT_SEED,
    DEFAULT_THRESHOLD,
    PlayerHand,
    iter_player_analyses,
)
from tarock_logs.log import models as m
from tarock_logs.log.reader import read_paths
from tarock_logs.report.text import plural
from tarock_logs.store.connect import begin_staging, connect_writer, discard_staging, publish
from tarock_logs.store.paths import LOCAL_CLUSTER
from tarock_logs.store.schema import migrate
from tarock_logs.store.write.lock import acquire, die_with_parent
from tarock_logs.store.write.plan import usable_cores

__all__ = [
    "DEFAULT_BUDGET",
    "VIEWS",
    "AnalysisSummary",
    "store_analysis",
]

#: cards one search may play before a card is left undecided (a few seconds per search) with
#: the C extension; :data:`~tarock_logs.analysis.native.BUDGET_PYTHON` without it
DEFAULT_BUDGET = BUDGET_NATIVE
#: what ``store_analysis`` stores: all cards visible, what the player knew, or both
VIEWS = ("all", "player", "both")
#: the tricks analysed per hand by default: every trick with all cards visible (a table of
#: three plays 16; the hand budget bounds the cost), the last 8 on what the player knew (each
#: card there costs a search per sample)
ALL_TRICKS = 16
PLAYER_TRICKS = 8


@dataclass(frozen=True, slots=True)
class AnalysisSummary:
    hands: int
    cards: int
    undecided: int
    seconds: float
    #: the player view's hands and cards (``view`` player or both), its samples and seed
    player_hands: int = 0
    player_cards: int = 0
    samples: int = 0
    seed: int = 0
    view: str = "all"
    #: hands whose hand budget left cards undecided (all cards visible)
    hand_budget_hit: int = 0
    #: hands given a par (a talon exchange), and those whose budget left options undecided
    par_hands: int = 0
    par_budget_hit: int = 0

    def line(self) -> str:
        out = []
        if self.view in ("all", "both"):
            counts = f"{plural(self.hands, 'hand')} ({plural(self.cards, 'card')}"
            bit = ""
            if self.hand_budget_hit:
                bit = f"; the hand budget stopped {plural(self.hand_budget_hit, 'hand')}"
            out.append(f"analysed {counts}, {self.undecided} undecided{bit}), all cards visible")
        if self.view in ("player", "both"):
            counts = f"{plural(self.player_hands, 'hand')} ({plural(self.player_cards, 'card')}"
            out.append(f"analysed {counts}) on what the player knew, {self.samples} samples "
                       f"per card, seed {self.seed}")  # fmt: skip
        if self.par_hands or self.par_budget_hit:
            hit = self.par_budget_hit
            out.append(f"par before the first trick of {plural(self.par_hands, 'hand')} "
                       f"({hit} with options the budget left undecided)")  # fmt: skip
        return "; ".join(out) + f" in {self.seconds:.1f} s"


def _rows(hand_id: str, ha: HandAnalysis) -> list[dict[str, object]]:
    return [{
        "hand_id": hand_id, "action_index": c.action_index, "trick": c.trick,
        "tricks_left": c.tricks_left, "seat": c.seat, "role": c.role, "card": c.card,
        "legal": c.legal, "value": c.value, "best_value": c.best_value,
        "best_cards": list(c.best_cards), "loss": c.loss, "changed": list(c.changed),
        "card_values": orjson.dumps(dict(c.values)).decode(),
    } for c in ha.cards]  # fmt: skip


def _player_rows(hand_id: str, ha: PlayerHand) -> list[dict[str, object]]:
    return [{
        "hand_id": hand_id, "action_index": c.action_index, "trick": c.trick,
        "tricks_left": c.tricks_left, "seat": c.seat, "role": c.role, "card": c.card,
        "value": c.value, "best_value": c.best_value, "best_cards": list(c.best_cards),
        "loss": c.loss, "mistake": c.mistake, "samples": c.samples, "seed": c.seed,
        "card_values": orjson.dumps({k: v.to_dict() for k, v in c.values}).decode(),
    } for c in ha.cards]  # fmt: skip


def _par_rows(hp: HandPar) -> tuple[dict[str, object], list[dict[str, object]]]:
    """A hand's par as its ``par_hands`` row and its ``par_options`` rows (no hand id yet)."""
    hand: dict[str, object] = {
        "contract": hp.contract, "declarer": hp.declarer, "backend": hp.backend or "none",
        "budget": hp.budget, "hand_budget": hp.hand_budget,
        "budget_hit": hp.budget_hit or hp.contracts_budget_hit, "nodes": hp.nodes,
        "skipped": hp.skipped, "seconds": hp.seconds,
    }  # fmt: skip
    rows: list[dict[str, object]] = [{
        "kind": o.kind, "talon_group": o.group, "cards": list(o.cards), "contract": o.contract,
        "king": o.king, "value": o.value.value, "low": o.value.low, "high": o.value.high,
        "recorded": o.recorded,
        "equivalent": orjson.dumps([list(e) for e in o.equivalent]).decode(),
        "lines": o.discards, "decided": o.decided, "nodes": o.nodes,
    } for o in [*hp.groups, *hp.discards, *hp.contracts]]  # fmt: skip
    return hand, rows


@dataclass(frozen=True, slots=True)
class _Asked:
    """What one analysis run asks of every session (sent to the workers)."""

    view: str
    last_tricks: int | None
    budget: int | None
    hand_budget: int | None
    samples: int
    seed: int
    threshold: float
    par: bool = False


@dataclass(slots=True)
class _Done:
    """One session's analysis: its hands' and cards' rows keyed by hand number (the driver
    knows the stored hand ids), and its counts."""

    hands: list[tuple[int, dict[str, object]]]
    cards: list[tuple[int, list[dict[str, object]]]]
    phands: list[tuple[int, dict[str, object]]]
    pcards: list[tuple[int, list[dict[str, object]]]]
    seconds: float = 0.0
    #: the par of each hand (``par``): its row and its options' rows, by hand number
    pars: list[tuple[int, dict[str, object], list[dict[str, object]]]] = field(default_factory=list)


def _analyse_session(session: m.Session, asked: _Asked, hands: set[int] | None = None) -> _Done:
    """The analysis of the hands of one session numbered in ``hands`` (None: all; in the
    driver, a worker process or a Dask worker; the session is replayed up to them, so that
    the radelci carried in are the session's)."""
    done = _Done([], [], [], [])
    # the default budgets are the solver's: the pure-Python one for a game without a native
    # solver
    b = default_budget(game=session.game) if asked.budget is None else asked.budget
    if asked.view in ("player", "both"):
        tricks = PLAYER_TRICKS if asked.last_tricks is None else asked.last_tricks
        for ph in iter_player_analyses(session, hands=hands, last_tricks=tricks, budget=b,
                                       samples=asked.samples, seed=asked.seed,
                                       threshold=asked.threshold):  # fmt: skip
            done.pcards.append((ph.hand_number, _player_rows("", ph)))
            done.seconds += ph.seconds
            done.phands.append((ph.hand_number, {
                "last_tricks": tricks, "samples": asked.samples, "seed": asked.seed,
                "threshold": asked.threshold, "backend": ph.backend, "cards": len(ph.cards),
                "undecided": len(ph.undecided), "skipped": ph.skipped,
                "seconds": ph.seconds}))  # fmt: skip
    if asked.par:
        # the par's own budgets (a whole-hand search per option), or the hand budget asked
        for hp in iter_pars(session, hands=hands, budget=asked.budget,
                            hand_budget=asked.hand_budget or None):  # fmt: skip
            done.seconds += hp.seconds
            done.pars.append((hp.hand_number, *_par_rows(hp)))
    if asked.view == "player":
        return done
    tricks = ALL_TRICKS if asked.last_tricks is None else asked.last_tricks
    hb = default_hand_budget(session.game) if asked.hand_budget is None else asked.hand_budget
    for ha in iter_analyses(session, hands=hands, last_tricks=tricks, budget=b, hand_budget=hb):
        done.cards.append((ha.hand_number, _rows("", ha)))
        done.seconds += ha.seconds
        done.hands.append((ha.hand_number, {
            "last_tricks": tricks, "backend": ha.backend, "cards": len(ha.cards),
            "undecided": len(ha.undecided), "skipped": ha.skipped, "seconds": ha.seconds,
            "hand_budget_hit": ha.hand_budget_hit}))  # fmt: skip
    return done


#: a run analyses in several processes (one per usable core) from this much work on: hands
#: times the tricks asked (every trick counts 12); below it the processes' start costs more
PARALLEL_WORK = 200


def _units(sessions: list[m.Session]) -> list[tuple[m.Session, set[int] | None]]:
    """The work of several processes: each hand on its own (a hand's analysis costs seconds,
    replaying its session up to it milliseconds), so that a few long sessions spread over
    every process."""
    return [(s, {h.number}) for s in sessions for h in s.hands]


def _analysed(
    sessions: list[m.Session], asked: _Asked, jobs: int | None, dask: str | None
) -> Iterator[tuple[m.Session, _Done]]:
    """Each session with its analysis, in order: in this process, in a pool of ``jobs``
    processes (None: one per usable core when the work is worth it, :data:`PARALLEL_WORK`) or
    on the Dask cluster ``dask`` (:func:`~tarock_logs.store.write.scaleout.cluster`)."""
    if dask is not None:
        from tarock_logs.store.write import scaleout

        with scaleout.cluster(None if dask == LOCAL_CLUSTER else dask, jobs) as on:
            units = _units(sessions)
            futures = [on.client.submit(_analyse_session, s, asked, hands, pure=False)
                       for s, hands in units]  # fmt: skip
            try:
                for (s, _), fut in zip(units, futures, strict=True):
                    yield s, fut.result()
            finally:
                on.client.cancel(futures)
        return
    if jobs is None:
        tricks = 12 if asked.last_tricks is None else min(12, asked.last_tricks)
        work = sum(len(s.hands) for s in sessions) * tricks
        jobs = usable_cores() if work >= PARALLEL_WORK else 1
    if jobs <= 1 or sum(len(s.hands) for s in sessions) <= 1:
        for s in sessions:
            yield s, _analyse_session(s, asked)
        return
    # spawned workers (the driver holds a DuckDB connection, with its threads, while they
    # run), each ending with the driver (a killed ingest leaves no worker computing)
    with ProcessPoolExecutor(max_workers=jobs, mp_context=get_context("spawn"),
                             initializer=die_with_parent,
                             initargs=(os.getpid(),)) as pool:  # fmt: skip
        units = _units(sessions)
        futures = [pool.submit(_analyse_session, s, asked, hands) for s, hands in units]
        try:
            for (s, _), fut in zip(units, futures, strict=True):
                yield s, fut.result()
        finally:
            for fut in futures:
                fut.cancel()


def store_analysis(paths: Sequence[str | os.PathLike[str]], *, db: str | os.PathLike[str],
                   exclude: Sequence[str] = (), last_tricks: int | None = None,
                   budget: int | None = None, wait: float = 0.0, view: str = "all",
                   samples: int = DEFAULT_SAMPLES, seed: int = DEFAULT_SEED,
                   threshold: float = DEFAULT_THRESHOLD, hand_budget: int | None = None,
                   jobs: int | None = None, dask: str | None = None,
                   par: bool = False) -> AnalysisSummary:  # fmt: skip
    """Analyse the stored hands of the files under ``paths`` and store the rows in ``db``.

    The cost is bounded per hand: the last ``last_tricks`` tricks (None: every trick with all
    cards visible, :data:`PLAYER_TRICKS` on what the player knew) and any illegal card, each
    card's search at most ``budget`` cards played (None: the solver's
    :func:`~tarock_logs.analysis.native.default_budget`), a card past it left undecided; with
    all cards visible the cards are valued last first and all the hand's searches together
    play at most ``hand_budget`` cards (None: :func:`~tarock_logs.analysis.hand.
    default_hand_budget`; 0: no limit), the earlier cards it does not reach left undecided
    (an illegal card is always analysed).
    ``view``: ``all`` (all cards visible), ``player`` (what the player knew: ``samples``
    layouts per card from ``seed``, each searched under the same budget) or ``both``.
    The sessions are analysed in ``jobs`` processes (None: one per usable core when the work
    is worth it) or on the Dask cluster ``dask`` (an address, or ``local``); the results are
    the same either way. ``par``: also the par before the first trick of each hand with a talon
    exchange (each a whole-hand search per option: tens of seconds a hand with the native
    solver; ``budget`` and ``hand_budget`` bound it as they bound the cards, None: the par's
    defaults, :func:`~tarock_logs.analysis.par.default_par_budget`)."""
    if view not in VIEWS:
        raise ValueError(f"view must be one of {', '.join(VIEWS)}")
    if not Path(db).exists():
        raise FileNotFoundError(f"no database {db}: ingest first")
    asked = _Asked(view, last_tricks, budget, hand_budget, samples, seed, threshold, par)
    lock = acquire(db, wait=wait)
    stage = begin_staging(db)
    try:
        con = connect_writer(stage)
        try:
            migrate(con)
            got = con.execute("SELECT hand_id, session_id, number FROM hands").fetchall()
            stored = {(s, int(n)): h for h, s, n in got}
            cards: list[dict[str, object]] = []
            hands: list[dict[str, object]] = []
            pcards: list[dict[str, object]] = []
            phands: list[dict[str, object]] = []
            seconds = 0.0
            undecided = budget_hit = 0
            par_hands: list[dict[str, object]] = []
            par_rows: list[dict[str, object]] = []
            sessions = [r.session for r in read_paths([Path(p) for p in paths], exclude)
                        if r.session is not None]  # fmt: skip
            for s, done in _analysed(sessions, asked, jobs, dask):
                seconds += done.seconds
                for (number, row), (_, rows) in zip(done.phands, done.pcards, strict=True):
                    hid = stored.get((s.id, number))
                    if hid is not None:
                        phands.append({"hand_id": hid, **row})
                        pcards += [{**r, "hand_id": hid} for r in rows]
                for (number, row), (_, rows) in zip(done.hands, done.cards, strict=True):
                    hid = stored.get((s.id, number))
                    if hid is not None:
                        budget_hit += bool(row.pop("hand_budget_hit"))
                        undecided += int(row["undecided"])  # type: ignore[call-overload]
                        hands.append({"hand_id": hid, **row})
                        cards += [{**r, "hand_id": hid} for r in rows]
                for number, row, rows in done.pars:
                    hid = stored.get((s.id, number))
                    if hid is not None:
                        par_hands.append({"hand_id": hid, **row})
                        par_rows += [{**r, "hand_id": hid} for r in rows]
            if par:
                _replace(con, ("par_hands", "par_options"), (_PAR_HANDS, _PAR_OPTIONS),
                         par_hands, par_rows)  # fmt: skip
            if view in ("all", "both"):
                _write(con, hands, cards)
            if view in ("player", "both"):
                _write_player(con, phands, pcards)
        finally:
            con.close()
        publish(stage, db)
    except BaseException:
        discard_staging(stage)
        raise
    finally:
        lock.release()
    return AnalysisSummary(len(hands), len(cards), undecided, seconds, len(phands),
                           len(pcards), samples, seed, view, budget_hit,
                           sum(1 for h in par_hands if not h["skipped"]),
                           sum(1 for h in par_hands if h["budget_hit"]))  # fmt: skip


#: the rows of one hand's analysis (``analysed_hands``) and of one card's (``card_analysis``),
#: all cards visible, as Arrow schemas: the order of the tables' columns before the time stamp
_HANDS = pa.schema([
    ("hand_id", pa.string()), ("last_tricks", pa.int64()), ("backend", pa.string()),
    ("cards", pa.int64()), ("undecided", pa.int64()), ("skipped", pa.string()),
    ("seconds", pa.float64())])  # fmt: skip
_CARDS = pa.schema([
    ("hand_id", pa.string()), ("action_index", pa.int64()), ("trick", pa.int64()),
    ("tricks_left", pa.int64()), ("seat", pa.int64()), ("role", pa.string()),
    ("card", pa.string()), ("legal", pa.bool_()), ("value", pa.int64()),
    ("best_value", pa.int64()), ("best_cards", pa.list_(pa.string())),
    ("loss", pa.int64()), ("changed", pa.list_(pa.string())),
    ("card_values", pa.string())])  # fmt: skip
#: the same for what the player knew (``analysed_hands_player``, ``card_analysis_player``)
_PLAYER_HANDS = pa.schema([
    ("hand_id", pa.string()), ("last_tricks", pa.int64()), ("samples", pa.int64()),
    ("seed", pa.int64()), ("threshold", pa.float64()), ("backend", pa.string()),
    ("cards", pa.int64()), ("undecided", pa.int64()), ("skipped", pa.string()),
    ("seconds", pa.float64())])  # fmt: skip
_PLAYER_CARDS = pa.schema([
    ("hand_id", pa.string()), ("action_index", pa.int64()), ("trick", pa.int64()),
    ("tricks_left", pa.int64()), ("seat", pa.int64()), ("role", pa.string()),
    ("card", pa.string()), ("value", pa.float64()), ("best_value", pa.float64()),
    ("best_cards", pa.list_(pa.string())), ("loss", pa.float64()),
    ("mistake", pa.bool_()), ("samples", pa.int64()), ("seed", pa.string()),
    ("card_values", pa.string())])  # fmt: skip


#: the par's rows (``par_hands``, ``par_options``, migration 0013)
_PAR_HANDS = pa.schema([
    ("hand_id", pa.string()), ("contract", pa.string()), ("declarer", pa.int64()),
    ("backend", pa.string()), ("budget", pa.int64()), ("hand_budget", pa.int64()),
    ("budget_hit", pa.bool_()), ("nodes", pa.int64()), ("skipped", pa.string()),
    ("seconds", pa.float64())])  # fmt: skip
_PAR_OPTIONS = pa.schema([
    ("hand_id", pa.string()), ("kind", pa.string()), ("talon_group", pa.int64()),
    ("cards", pa.list_(pa.string())), ("contract", pa.string()), ("king", pa.string()),
    ("value", pa.int64()), ("low", pa.int64()), ("high", pa.int64()),
    ("recorded", pa.bool_()), ("equivalent", pa.string()), ("lines", pa.int64()),
    ("decided", pa.int64()), ("nodes", pa.int64())])  # fmt: skip


def _replace(con: duckdb.DuckDBPyConnection, tables: tuple[str, str],
             schemas: tuple[pa.Schema, pa.Schema],
             hands: list[dict[str, object]], cards: list[dict[str, object]]) -> None:  # fmt: skip
    """Put ``hands`` and ``cards`` into the two ``tables`` (a hand's table, its cards' table)
    in one transaction, replacing what they held for these hands and dropping the rows of
    hands no longer stored; each table's columns are its schema's, then the time stamp of the
    hand's table (``card_values`` is JSON)."""
    ids = pa.table({"hand_id": pa.array([h["hand_id"] for h in hands], pa.string())})
    con.register("new_ids", ids)
    con.register("new_hands", pa.Table.from_pylist(hands, schema=schemas[0]))
    con.register("new_cards", pa.Table.from_pylist(cards, schema=schemas[1]))
    hand_cols = ", ".join(schemas[0].names)
    card_cols = ", ".join(f"{c}::JSON" if c in ("card_values", "equivalent") else c
                          for c in schemas[1].names)  # fmt: skip
    con.execute("BEGIN")
    for table in tables:
        con.execute(f"DELETE FROM {table} WHERE hand_id IN (SELECT hand_id FROM new_ids) "
                    f"OR hand_id NOT IN (SELECT hand_id FROM hands)")  # fmt: skip
    con.execute(f"INSERT INTO {tables[0]} SELECT {hand_cols}, current_timestamp FROM new_hands")
    con.execute(f"INSERT INTO {tables[1]} SELECT {card_cols} FROM new_cards")
    con.execute("COMMIT")
    for name in ("new_ids", "new_hands", "new_cards"):
        con.unregister(name)


def _write(con: duckdb.DuckDBPyConnection, hands: list[dict[str, object]],
           cards: list[dict[str, object]]) -> None:  # fmt: skip
    _replace(con, ("analysed_hands", "card_analysis"), (_HANDS, _CARDS), hands, cards)


def _write_player(con: duckdb.DuckDBPyConnection, hands: list[dict[str, object]],
                  cards: list[dict[str, object]]) -> None:  # fmt: skip
    _replace(con, ("analysed_hands_player", "card_analysis_player"),
             (_PLAYER_HANDS, _PLAYER_CARDS), hands, cards)  # fmt: skip
