"""The throughput benchmark behind ``tarock bench`` (method and results: docs/performance.md).

One run, one set of generated data: ``N`` Slovenian hands are simulated through the engine
(tournament ruleset, sessions of 16 hands at tables of 4) and written to a temporary folder;
then each stage is timed on those same files:

* ``validate``: the streaming reader (JSON parse + pydantic models), hands/s;
* ``replay``: replay + legality + itemised scoring through our engine
  (:func:`tarock_logs.verdict.replay.replay_session` on already parsed sessions, with the engines'
  bulk fast path as audits use it), hands/s and actions/s; ``details`` also gives the
  reference engine alone (``replay_reference_only_hands_per_s``, fast path switched off);
* ``ingest``: the end-to-end ``tarock ingest`` library call into a fresh DuckDB file
  (read, validate, replay, audit, Arrow batches, insert), hands/s, with the CLI's default
  worker count (one per usable core and unit of work, serial below 8 MB with the ingest
  lane, 1 MB without); the single-process figure is
  ``details["ingest_single_process_hands_per_s"]``; ``details["ingest_lane"]`` says how
  many of the sessions the ingest lane took (``store/write/lane.py``: ordinary records from their
  bytes; the others take the careful path);
* ``zwanzigerrufen_ingest_cost_vs_slovenian``: ``N`` Zwanzigerrufen hands simulated the same
  way (``zr-std-2026``, sessions of 16) and ingested in one process, interleaved with the
  Slovenian files' single-process ingest (best of each): the per-hand cost of Zwanzigerrufen
  over Slovenian's (1.0: as cheap; its native engine takes the clean records through the
  ingest lane, ``details["zwanzigerrufen_ingest_lane"]``);
* ``royal_ingest_cost_vs_slovenian``: the same for ``N`` Royal Tarock hands, matches of eight
  games simulated under a known consolation (0) and a club's completed catalogue
  (:data:`ROYAL_BENCH_CATALOGUE`: values and conditions for the items the built-in catalogue
  leaves unknown, invented for measuring: without them every game announcing one is
  unverified and the careful path's); ``details["royal_ingest_lane"]``;
* ``baseline``: the bare minimum a loader must do: ``orjson.loads`` per line, hands and
  actions flattened into Arrow tables, one insert each into a DuckDB file, hands/s;
* ``openspiel`` (when ``pyspiel`` is installed): a second set of 4-player hands is simulated
  under the ``openspiel`` ruleset on OpenSpiel's own seeded deals, so that both programs can
  replay **the same games**; only full-length games (all 12 tricks) are kept. OpenSpiel replays
  each from its deal seed, asking ``legal_actions()`` before every ``apply_action()`` and
  checking the action is in it, then computes ``returns()``; our engine replays the same
  sessions. ``replay_vs_openspiel`` is our hands/s divided by OpenSpiel's on that set.

Peak memory is the process's peak RSS (``ru_maxrss``) at the end of the run.
"""

from __future__ import annotations

import functools
import gc
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

import orjson

from tarock_logs.log.models import Session, SessionAdapter
from tarock_logs.tools.simulate import dumps_session, simulate_hands

SESSIONS_PER_FILE = 32

JSON_KEYS = (
    "hands", "validate_hands_per_s", "replay_hands_per_s", "replay_actions_per_s",
    "ingest_hands_per_s", "baseline_hands_per_s", "openspiel_hands_per_s",
    "replay_vs_openspiel", "ingest_vs_baseline", "peak_rss_mb", "machine", "native",
    "startup_s", "startup_validate_s", "orjson_parse_hands_per_s", "validate_vs_orjson",
    "zwanzigerrufen_ingest_cost_vs_slovenian", "royal_ingest_cost_vs_slovenian",
)  # fmt: skip
#: the keys a run with ``--dask`` adds (:func:`stage_dask`)
DASK_KEYS = ("dask_ingest_hands_per_s", "dask_vs_ingest", "dask_workers")

#: how many times ``tarock --help`` is started for ``startup_s``, and ``tarock validate``
#: of :data:`STARTUP_LOG` for ``startup_validate_s`` (the median is reported)
STARTUP_RUNS = 5
#: the small log (one file, 2 hands) ``tarock validate`` reads for ``startup_validate_s``
STARTUP_LOG = Path(__file__).resolve().parents[1] / "sample_logs" / "slovenian" / "appendix-b.json"


#: at most this many rounds of the OpenSpiel comparison (:attr:`BenchOptions.short_stage_seconds`)
MAX_SHORT_ROUNDS = 60


@dataclass(frozen=True, slots=True)
class BenchOptions:
    hands: int = 2000
    openspiel_hands: int = 1000
    seed: int = 7
    repeat: int = 3  # best of ``repeat`` for every stage but simulation
    #: also time the ingest on a Dask cluster: a scheduler's address, or ``local`` (a local
    #: cluster of one worker per usable core, started once and reused by the timed runs)
    dask: str | None = None
    #: how many times each start-up figure starts the command line (the median is reported)
    startup_runs: int = STARTUP_RUNS
    #: the OpenSpiel comparison's interleaved rounds go on (past ``repeat``, at most
    #: ``max_short_rounds``) until each side has run this many seconds in all
    short_stage_seconds: float = 1.5
    max_short_rounds: int = MAX_SHORT_ROUNDS


def _rate(n: int, seconds: float) -> float | None:
    return round(n / seconds, 1) if seconds > 0 and n > 0 else None


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 3) if a and b else None


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MiB (Linux reports KiB)."""
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(kb / 1024.0, 1)


def machine_info() -> dict[str, Any]:
    """The machine and the versions the figures were measured with."""
    cpu = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    versions: dict[str, str | None] = {}
    for mod in ("pydantic", "duckdb", "polars", "pyarrow", "orjson"):
        try:
            versions[mod] = __import__(mod).__version__
        except Exception:  # noqa: BLE001
            versions[mod] = None
    try:
        from importlib.metadata import version

        versions["open_spiel"] = version("open_spiel")
    except Exception:  # noqa: BLE001
        versions["open_spiel"] = None
    try:
        load = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        load = None
    return {
        "nproc": os.cpu_count(),
        "loadavg": load,  # 1/5/15-minute load: > nproc means other work shared the CPU
        "cpu": cpu or platform.processor(),
        "ram_gb": ram,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "versions": versions,
    }


# --------------------------------------------------------------------------- data


def write_sessions(sessions: list[dict[str, Any]], path: Path) -> None:
    path.write_bytes(b"".join(dumps_session(s) for s in sessions))


def _openspiel_dealer(
    seed: int,
) -> Callable[[Random, int, int], tuple[list[list[str]], list[str], int | None]]:
    """A deal function giving OpenSpiel's successive seeded deals (game rng_seed ``seed``)."""
    from tarock_logs.tools.importers.openspiel import deal_from_seed, game_deal_seeds

    seeds: Iterator[int] = game_deal_seeds(seed, 4)

    def deal(_rng: Random, dealer: int, n: int) -> tuple[list[list[str]], list[str], int | None]:
        assert n == 4 and dealer == 3, "OpenSpiel deals: 4 players, dealer is player 3"
        s = next(seeds)
        hands, talon = deal_from_seed(s, 4)
        return hands, talon, s

    return deal


def openspiel_sessions(n_hands: int, seed: int) -> list[dict[str, Any]]:
    """4-player hands under the ``openspiel`` ruleset on OpenSpiel's deals (dealer = seat 3,
    so seat p is OpenSpiel player p), keeping only full-length hands (12 tricks)."""
    sessions = simulate_hands(
        n_hands, seed, ruleset="openspiel-2.0", table_size=4, hands_per_session=16,
        dealer_fn=_openspiel_dealer(seed), rotate_dealer=False, first_dealer=3,
    )  # fmt: skip
    out = []
    for s in sessions:
        hands = [h for h in s["hands"] if sum(1 for a in h["actions"] if a["type"] == "play") == 48]
        for i, h in enumerate(hands, 1):
            h["number"] = i
        if hands:
            out.append({**s, "hands": hands, "recorded": None})
    return out


def openspiel_action_ids(session: dict[str, Any]) -> list[tuple[int, list[int]]]:
    """(deal seed, action ids) of every hand of an ``openspiel_sessions`` session."""
    from tarock_logs.tools.importers.openspiel import action_ids_of
    from tarock_logs.verdict.convert import to_engine_action

    model = SessionAdapter.validate_python(session)
    games = []
    for h in model.hands:
        ids: list[int] = []
        for a in h.actions:
            ids += action_ids_of(to_engine_action(a), num_players=4)
        games.append((int(h.deal.seed or 0) if h.deal is not None else 0, ids))
    return games


# --------------------------------------------------------------------------- stages


def _timed(fn: Callable[[], Any], repeat: int = 1) -> tuple[float, Any]:
    best, out = float("inf"), None
    for _ in range(max(1, repeat)):
        gc.collect()
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _timed_cpu(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """One run of ``fn`` after a collection: (wall seconds, this thread's CPU seconds, result)."""
    gc.collect()
    c0, t0 = time.thread_time(), time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, time.thread_time() - c0, out


def stage_validate(files: list[Path]) -> int:
    """Hands read and validated by the streaming reader."""
    from tarock_logs.log import reader

    n = 0
    for rec in reader.read_paths([str(f) for f in files]):
        session = getattr(rec, "session", None)
        if session is not None:
            n += len(session.hands)
    return n


def stage_orjson_parse(files: list[Path]) -> int:
    """Hands in the files, each line only parsed by ``orjson.loads``: the floor under any
    validation (no framing, no models, no checks)."""
    n = 0
    for f in files:
        with open(f, "rb") as fh:
            for line in fh:
                if line.strip():
                    n += len(orjson.loads(line)["hands"])
    return n


def stage_lane_read(files: list[Path]) -> int:
    """Hands in the files as the ingest lane reads them (:func:`tarock_logs.store.write.lane
    .read_session`: the line's JSON checked, every hand validated, replayed, hashed and
    scored, the session compared and settled; no rows made), 0 for a record it declines."""
    from tarock_logs.store.write import lane

    n = 0
    for f in files:
        name = str(f)
        with open(f, "rb") as fh:
            for i, line in enumerate(fh, start=1):
                ls = lane.read_session(line, name, i)
                if ls is not None:
                    n += len(ls.hands)
    return n


def parse_sessions(files: list[Path]) -> list[Session]:
    out = []
    for f in files:
        with open(f, "rb") as fh:
            for line in fh:
                if line.strip():
                    out.append(SessionAdapter.validate_json(line))
    return out


def stage_replay(sessions: list[Session]) -> tuple[int, int, int]:
    """(hands, actions, hands with an error-severity violation) replayed through the engine,
    with the collector set as the bulk audit sets it (:func:`~tarock_logs.verdict.bulk.bulk_gc`,
    what ``tarock audit`` and the ingest run with; OpenSpiel's stage runs with it too) and the
    native score as the bulk audit asks for it (``native=True``: the game's native engine plays
    and scores the hands it takes whole, :func:`~tarock_logs.verdict.audit.audit_session`)."""
    from tarock_logs.verdict.bulk import bulk_gc
    from tarock_logs.verdict.replay import replay_session

    hands = actions = illegal = 0
    with bulk_gc():
        for s in sessions:
            for r in replay_session(s, with_views=False, native=True):
                hands += 1
                actions += r.actions_applied
                if not r.legal or r.score is None:
                    illegal += 1
    return hands, actions, illegal


def stage_engine(sessions: list[Session]) -> tuple[int, int]:
    """(hands, actions) through the engine alone: actions converted beforehand, no replay
    bookkeeping; push every action, score, carry to the next hand (what the replay layer
    costs on top is the difference to :func:`stage_replay`)."""
    from tarock_logs.rules import get_engine
    from tarock_logs.verdict.convert import to_engine_action

    prepared = []
    for s in sessions:
        eng = get_engine(s.game)
        assert eng is not None
        rs = eng.ruleset(s.ruleset, s.options or None)
        hands = [(h.dealer, h.deal.hands, h.deal.talon, [to_engine_action(a) for a in h.actions])
                 for h in s.hands if h.deal is not None]  # fmt: skip
        prepared.append((eng, rs, len(s.players), hands))
    from tarock_logs.verdict.bulk import bulk_gc

    t0 = time.perf_counter()
    n_hands = n_actions = 0
    with bulk_gc():  # as stage_replay
        for eng, rs, n, hands in prepared:
            ss = eng.new_session(rs, n)
            for dealer, dealt, talon, actions in hands:
                state = ss.new_hand(dealer, dealt, talon)
                for a in actions:
                    state.push(a)
                score = state.score()
                ss.end_hand(state, score)
                n_hands += 1
                n_actions += len(actions)
    _ENGINE_SECONDS[0] = time.perf_counter() - t0
    return n_hands, n_actions


_ENGINE_SECONDS = [0.0]


def stage_ingest(folder: Path, db: Path, jobs: int | None = 1) -> int:
    from tarock_logs.store.write.ingest import ingest

    summary = ingest([str(folder)], db=str(db), jobs=jobs)
    d = summary.to_dict()
    return int(d.get("hands_stored") or d.get("hands") or 0)


def stage_baseline(files: list[Path], db: Path) -> int:
    """orjson + Arrow + one DuckDB insert per table: the floor for any loader."""
    import duckdb
    import pyarrow as pa

    h_cols: dict[str, list[Any]] = {
        k: [] for k in ("session", "number", "dealer", "scores", "items")
    }
    a_cols: dict[str, list[Any]] = {
        k: [] for k in ("session", "hand", "idx", "type", "seat", "card")
    }
    for f in files:
        with open(f, "rb") as fh:
            for line in fh:
                s = orjson.loads(line)
                sid = s["id"]
                for h in s["hands"]:
                    h_cols["session"].append(sid)
                    h_cols["number"].append(h["number"])
                    h_cols["dealer"].append(h["dealer"])
                    res = h.get("result") or {}
                    h_cols["scores"].append(res.get("scores"))
                    h_cols["items"].append(orjson.dumps(res.get("items")).decode())
                    for i, a in enumerate(h["actions"]):
                        a_cols["session"].append(sid)
                        a_cols["hand"].append(h["number"])
                        a_cols["idx"].append(i)
                        a_cols["type"].append(a["type"])
                        a_cols["seat"].append(a["seat"])
                        a_cols["card"].append(a.get("card") or a.get("contract"))
    con = duckdb.connect(str(db))
    try:
        con.register("hands_t", pa.table(h_cols))
        con.register("actions_t", pa.table(a_cols))
        con.execute("CREATE TABLE hands AS SELECT * FROM hands_t")
        con.execute("CREATE TABLE actions AS SELECT * FROM actions_t")
        n = con.execute("SELECT count(*) FROM hands").fetchall()[0][0]
    finally:
        con.close()
    return int(n)


def stage_openspiel(games: list[tuple[int, list[int]]]) -> int:
    """Replay each game in pyspiel, checking ``legal_actions()`` before every action."""
    import pyspiel

    from tarock_logs.verdict.bulk import bulk_gc

    game = pyspiel.load_game("tarok", {"players": 4, "rng_seed": 0})
    with bulk_gc():  # the same collector setting as our replay's
        for seed, ids in games:
            state = game.deserialize_state(str(seed))
            for a in ids:
                if a not in state.legal_actions():
                    raise RuntimeError(f"OpenSpiel refuses action {a} in game with seed {seed}")
                state.apply_action(a)
            if not state.is_terminal():
                raise RuntimeError(f"OpenSpiel game with seed {seed} did not finish")
            state.returns()
    return len(games)


def startup_seconds(runs: int = STARTUP_RUNS, args: Sequence[str] = ("--help",)) -> float:
    """The median wall time of ``tarock ARGS`` (``tarock --help`` by default) started ``runs``
    times as a new process (the command line's start-up: interpreter, imports, the commands'
    declarations, and whatever the command itself does)."""
    cmd = [sys.executable, "-c", "import sys; sys.argv[0] = 'tarock'; "
           "from tarock_logs.cli import main; main()", *args]  # fmt: skip
    times = []
    for _ in range(max(1, runs)):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times), 3)


def native_card_loop() -> bool:
    """Whether the replay's card loop runs as native code: the Slovenian bulk path is the
    native engine (``tarock_logs/_native/slohand.h`` with its card loop ``cardloop.h``) when
    the C extension is built and not switched off (``TAROCK_NATIVE=0``;
    ``details.native_core`` says why not; then the reference replays every hand). The bench replays
    Slovenian hands, so this is the Slovenian loop; ``details.native_card_loops`` gives it per
    game (the Zwanzigerrufen and Royal Tarock bulk paths' card loops, ``zrloop.h`` and
    ``royalloop.h``, see :func:`native_card_loops`), and ``details.native_whole_hand`` per
    benched ruleset whether a clean Slovenian hand runs in one native call
    (``slohand.h``: the deal check, the phases before play and the cards)."""
    from tarock_logs.rules.slovenian.fast.fastpath import native_card_loop as slovenian

    return slovenian()


def native_card_loops() -> dict[str, bool]:
    """Per game, whether its replay's card loop runs as native code."""
    from tarock_logs.rules.royal.fast import native_card_loop as royal
    from tarock_logs.rules.zwanzigerrufen.fast import native_card_loop as zwanzigerrufen

    return {"slovenian": native_card_loop(), "zwanzigerrufen": zwanzigerrufen(), "royal": royal()}


def native_whole_hand() -> dict[str, bool]:
    """Per benched Slovenian ruleset (the bench's hands and the OpenSpiel set, 4 players),
    whether a clean hand runs in one native call (``fastpath.native_whole_hand``)."""
    from tarock_logs.rules.slovenian import ENGINE
    from tarock_logs.rules.slovenian.contracts import Rules
    from tarock_logs.rules.slovenian.fast.fastpath import native_whole_hand as whole

    return {
        rs: whole(Rules(ENGINE.ruleset(rs)), 4) for rs in ("si-tournament-2021", "openspiel-2.0")
    }


def lane_sessions(files: list[Path]) -> dict[str, int]:
    """How many of the files' session records the store's ingest lane takes
    (:mod:`tarock_logs.store.write.lane`: an ordinary record from its bytes to its rows), of all:
    what the ingest's speed rests on (the rest take the careful path)."""
    from tarock_logs.store.write import lane

    taken = total = 0
    for f in files:
        with open(f, "rb") as fh:
            for i, line in enumerate(fh, start=1):
                if line.strip():
                    total += 1
                    taken += lane.read_session(line, str(f), i) is not None
    return {"taken": taken, "sessions": total}


#: a club's completion of the Royal Tarock catalogue for the bench (docs/royal.md §3): the
#: items the built-in catalogue leaves unknown, given values and conditions invented for
#: measuring (not rules)
ROYAL_BENCH_CATALOGUE: dict[str, Any] = {
    "extends": "royal-gerots-2023",
    "catalogue": "bench-club",
    "items": [
        {"id": "TR_VALAT", "value": 40},
        {"id": "S_MONDFANG", "value": 25},
        {"id": "TR_LEGION", "value": 30, "condition": {"tricks_at_least": 9}},
        *({"id": t, "value": 10 + 5 * k, "condition": {"first_n_tricks": 1 + k % 4}}
          for k, t in enumerate(("TR_TRIUMF", "TR_COURT", "TR_FULL", "TR_SPECTRUM", "TR_PIRAMIS",
                                 "TR_HARPIA", "TR_QUART", "TR_SZFINX", "TR_GOLGOTA",
                                 "TR_SPADILLE"))),
    ],
}  # fmt: skip


def royal_matches(n_hands: int, seed: int, folder: Path) -> list[dict[str, Any]]:
    """``n_hands`` Royal Tarock games in matches of eight, simulated under the consolation 0
    and :data:`ROYAL_BENCH_CATALOGUE` (written to ``folder`` as ``club.json``, each match's
    ``catalogue_path``)."""
    from tarock_logs.tools.simulate import PLAYER_NAMES, SessionPlan, resolve, simulate_session

    (folder / "club.json").write_bytes(orjson.dumps(ROYAL_BENCH_CATALOGUE))
    engine, rs, policy = resolve("royal", None)
    rs = engine.ruleset(rs.id, {"consolation": 0, "catalogue": ROYAL_BENCH_CATALOGUE})
    out = []
    for k in range((n_hands + 7) // 8):
        rng = Random(f"tarock-bench-royal:{seed}:{k}")
        players = [{"id": f"p{i + 1:02d}", "name": PLAYER_NAMES[i]}
                   for i in rng.sample(range(len(PLAYER_NAMES)), 4)]  # fmt: skip
        plan = SessionPlan(session_id=f"bench-royal-{seed}-{k + 1:05d}", players=players,
                           n_hands=8, first_dealer=1, source_seed=seed,
                           options={"consolation": 0, "catalogue_path": "club.json"})  # fmt: skip
        out.append(simulate_session(engine, rs, policy, plan, rng)[0])
    return out


def game_ingest(
    game: str, slovenian: Path, tmp: Path, n_hands: int, seed: int, repeat: int
) -> dict[str, Any]:
    """``n_hands`` hands of ``game`` simulated (sessions of 16 at a table of 4; Royal Tarock:
    :func:`royal_matches`) and ingested in one process, interleaved with single-process
    ingests of the ``slovenian`` folder (best of ``repeat`` each, so both see the same
    background load): ``cost_vs_slovenian`` (the game's seconds per hand over Slovenian's),
    its hands/s and its lane's count."""
    folder = tmp / f"logs-{game}"
    folder.mkdir()
    if game == "royal":
        sessions = royal_matches(n_hands, seed, folder)
    else:
        sessions = simulate_hands(n_hands, seed, game=game)
    files = []
    for k in range(0, len(sessions), SESSIONS_PER_FILE):
        files.append(folder / f"bench-{k // SESSIONS_PER_FILE:04d}.jsonl")
        write_sessions(sessions[k : k + SESSIONS_PER_FILE], files[-1])
    n_game = sum(len(s["hands"]) for s in sessions)
    n_slo = 0
    counter = iter(range(1_000_000))
    best_game = best_slo = float("inf")
    for _ in range(max(1, repeat)):
        t, _n = _timed(lambda: stage_ingest(folder, tmp / f"{game}{next(counter)}.duckdb", 1))
        best_game = min(best_game, t)
        t, n_slo = _timed(  # (a database of its own per game: a second game_ingest's names)
            lambda: stage_ingest(slovenian, tmp / f"slo-{game}{next(counter)}.duckdb", 1)
        )
        best_slo = min(best_slo, t)
    game_rate = _rate(n_game, best_game)
    slo_rate = _rate(n_slo, best_slo)
    return {
        "cost_vs_slovenian": _ratio(slo_rate, game_rate),
        f"{game}_ingest_single_process_hands_per_s": game_rate,
        f"{game}_ingest_lane": lane_sessions(files),
    }


def stage_dask(folder: Path, tmp: Path, address: str | None, repeat: int) -> dict[str, Any]:
    """Best of ``repeat`` ingests of ``folder`` on a Dask cluster, each into a new database:
    the scheduler at ``address``, or a local cluster (one worker per usable core) started
    once for all of them (its start-up is not timed); the figures of :data:`DASK_KEYS` but
    ``dask_vs_ingest``."""
    from tarock_logs.store.write import scaleout
    from tarock_logs.store.write.ingest import ingest

    best = float("inf")
    hands = 0
    with scaleout.cluster(address) as on:
        scheduler = str(on.client.scheduler.address)
        for k in range(max(1, repeat)):
            t, summary = _timed(
                functools.partial(ingest, [folder], db=tmp / f"dask{k}.duckdb", dask=scheduler)
            )
            best = min(best, t)
            hands = summary.hands_stored
        workers = on.workers
    return {"dask_ingest_hands_per_s": _rate(hands, best), "dask_workers": workers}


def openspiel_comparison(options: BenchOptions) -> dict[str, Any]:
    """OpenSpiel and our replay on the same ``options.openspiel_hands`` simulated games
    (:func:`openspiel_sessions`): the report's ``openspiel_hands_per_s`` and
    ``replay_vs_openspiel`` and the details' figures, one dict."""
    os_sessions = openspiel_sessions(options.openspiel_hands, options.seed)
    os_models = [SessionAdapter.validate_python(s) for s in os_sessions]
    games = [g for s in os_sessions for g in openspiel_action_ids(s)]
    del os_sessions
    # interleaved, best of each: both sides see the same background load. Each stage takes
    # tens of milliseconds, as long as a scheduler's slice on a busy host, so the rounds go on
    # until each side has run ``options.short_stage_seconds`` in all
    t_os = t_our = t_eng = cpu_os = cpu_our = float("inf")
    n_os = h = bad = rounds = 0
    sum_os = sum_our = 0.0
    while rounds < max(1, options.repeat) or (
        min(sum_os, sum_our) < options.short_stage_seconds and rounds < options.max_short_rounds
    ):
        rounds += 1
        t, c, n_os = _timed_cpu(lambda: stage_openspiel(games))
        t_os, cpu_os, sum_os = min(t_os, t), min(cpu_os, c), sum_os + t
        t, c, (h, _a, bad) = _timed_cpu(lambda: stage_replay(os_models))
        t_our, cpu_our, sum_our = min(t_our, t), min(cpu_our, c), sum_our + t
        stage_engine(os_models)
        t_eng = min(t_eng, _ENGINE_SECONDS[0])
    os_rate = _rate(n_os, t_os)
    return {
        "openspiel_hands_per_s": os_rate,
        "replay_vs_openspiel": _ratio(_rate(h, t_our), os_rate),
        "openspiel_full_length_hands": len(games),
        "openspiel_comparison_rounds": rounds,
        "our_replay_on_openspiel_set_hands_per_s": _rate(h, t_our),
        "openspiel_set_hands_not_clean": bad,
        # the same comparison in CPU seconds of the thread (each stage runs on one): what a
        # loaded host's scheduling does to the wall figures left out
        "replay_vs_openspiel_cpu": _ratio(_rate(h, cpu_our), _rate(n_os, cpu_os)),
        "engine_only_on_openspiel_set_hands_per_s": _rate(h, t_eng),
        "engine_only_vs_openspiel": _ratio(_rate(h, t_eng), os_rate),
    }


def openspiel_comparison_in_child(options: BenchOptions) -> dict[str, Any]:
    """:func:`openspiel_comparison` in a new Python process of its own, as ``tarock audit``
    replays in its own: the stages before it leave this process a heap of some 400 MB and the
    store's thread pools, which slowed our replay by 15-30 % (by CPU) and OpenSpiel's not at
    all (docs/performance.md)."""
    args = {
        "openspiel_hands": options.openspiel_hands,
        "seed": options.seed,
        "repeat": options.repeat,
        "short_stage_seconds": options.short_stage_seconds,
        "max_short_rounds": options.max_short_rounds,
    }
    code = (
        "import sys, orjson; from tarock_logs import bench; "
        "o = bench.BenchOptions(**orjson.loads(sys.argv[1])); "
        "sys.stdout.buffer.write(orjson.dumps(bench.openspiel_comparison(o)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, orjson.dumps(args).decode()],
        stdout=subprocess.PIPE,
        check=True,
    )
    found: dict[str, Any] = orjson.loads(out.stdout)
    return found


def have_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


# --------------------------------------------------------------------------- the run


def run(options: BenchOptions, progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Run every stage once on freshly simulated data; returns the JSON report."""
    say = progress or (lambda _msg: None)
    report: dict[str, Any] = dict.fromkeys(JSON_KEYS)
    details: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="tarock-bench-") as tmp:
        folder = Path(tmp) / "logs"
        folder.mkdir()
        say(f"simulating {options.hands} hands")
        t_sim, sessions = _timed(lambda: simulate_hands(options.hands, options.seed))
        details["simulate_hands_per_s"] = _rate(options.hands, t_sim)
        files = []
        for k in range(0, len(sessions), SESSIONS_PER_FILE):  # ~500 hands a file
            files.append(folder / f"bench-{k // SESSIONS_PER_FILE:04d}.jsonl")
            write_sessions(sessions[k : k + SESSIONS_PER_FILE], files[-1])
        path = files[0]
        n_hands = sum(len(s["hands"]) for s in sessions)
        report["hands"] = n_hands
        details["files"] = len(files)
        details["data_mb"] = round(sum(f.stat().st_size for f in files) / 1e6, 2)
        del sessions

        say("validate (reader)")
        try:
            from tarock_logs.log import reader as _reader  # noqa: F401 - import not timed

            t, n = _timed(lambda: stage_validate(files), options.repeat)
            report["validate_hands_per_s"] = _rate(n, t)
            t, n = _timed(lambda: stage_orjson_parse(files), options.repeat)
            report["orjson_parse_hands_per_s"] = _rate(n, t)
            # how much of bare parsing speed the validation keeps (models, checks, errors)
            report["validate_vs_orjson"] = round(
                report["validate_hands_per_s"] / report["orjson_parse_hands_per_s"], 3
            )
            # the ingest lane's reading (validation, replay, hash and score in one pass) of
            # the same files, against the bare parse (None without the native core)
            from tarock_logs.store.write import lane

            if lane.available():
                t, n = _timed(lambda: stage_lane_read(files), options.repeat)
                details["lane_read_hands_per_s"] = _rate(n, t)
                details["lane_read_vs_orjson"] = _ratio(
                    details["lane_read_hands_per_s"], report["orjson_parse_hands_per_s"]
                )
        except ImportError as exc:
            details["validate_error"] = f"reader not available: {exc}"

        say("replay (engine)")
        import tarock_logs.verdict.replay  # noqa: F401 - import not timed

        replay_models = parse_sessions(files)
        t, (h, a, bad) = _timed(functools.partial(stage_replay, replay_models), options.repeat)
        report["replay_hands_per_s"] = _rate(h, t)
        report["replay_actions_per_s"] = _rate(a, t)
        details["replay_actions_per_hand"] = round(a / h, 1) if h else None
        details["replay_hands_not_clean"] = bad
        # the same replay with the engines' bulk fast path switched off (reference engine only)
        import tarock_logs.verdict.replay as _rp

        _rp.FAST_PATH = False
        try:
            t, (h, a, _bad) = _timed(functools.partial(stage_replay, replay_models), options.repeat)
        finally:
            _rp.FAST_PATH = True
        details["replay_reference_only_hands_per_s"] = _rate(h, t)
        del replay_models

        say("replay (engine alone)")
        engine_models = parse_sessions(files)
        best = float("inf")
        for _ in range(max(1, options.repeat)):
            h, a = stage_engine(engine_models)
            best = min(best, _ENGINE_SECONDS[0])
        details["engine_only_hands_per_s"] = _rate(h, best)
        details["engine_only_actions_per_s"] = _rate(a, best)
        del engine_models

        say("ingest (DuckDB)")
        try:
            # warm-up on a copy of one session: imports and first connection are not timed
            warm = Path(tmp) / "warm"
            warm.mkdir()
            with open(path, "rb") as fh:
                (warm / "w.jsonl").write_bytes(fh.readline())
            stage_ingest(warm, Path(tmp) / "warm.duckdb")
            # the headline uses the CLI's default (jobs=None: one worker per usable core when
            # there are several files); the single-process figure stays in details
            from tarock_logs.store.write.plan import default_jobs, file_sizes

            # ingest (CLI default jobs) and the baseline run interleaved, best of ``repeat``
            # each, so both see the same background load (as the OpenSpiel comparison)
            say(
                f"ingest with the default jobs ({default_jobs(len(files), file_sizes(files))}) "
                "and the baseline (orjson + Arrow + DuckDB), interleaved"
            )
            counter = iter(range(1_000_000))
            t_ing = t_base = float("inf")
            stored = n = 0
            for _ in range(max(1, options.repeat)):
                t, stored = _timed(
                    lambda: stage_ingest(folder, Path(tmp) / f"ingest{next(counter)}.duckdb", None)
                )
                t_ing = min(t_ing, t)
                t, n = _timed(
                    lambda: stage_baseline(files, Path(tmp) / f"base{next(counter)}.duckdb")
                )
                t_base = min(t_base, t)
            report["ingest_hands_per_s"] = _rate(n_hands, t_ing)
            report["baseline_hands_per_s"] = _rate(n, t_base)
            details["ingest_hands_stored"] = stored
            details["ingest_default_jobs"] = default_jobs(len(files), file_sizes(files))
            say("ingest in one process")
            t, _ = _timed(
                lambda: stage_ingest(folder, Path(tmp) / f"ingest{next(counter)}.duckdb", 1),
                options.repeat,
            )
            details["ingest_single_process_hands_per_s"] = _rate(n_hands, t)
            details["ingest_lane"] = lane_sessions(files)
            say(f"Zwanzigerrufen ingest in one process ({options.hands} hands simulated)")
            zr = game_ingest(
                "zwanzigerrufen", folder, Path(tmp), options.hands, options.seed, options.repeat
            )
            report["zwanzigerrufen_ingest_cost_vs_slovenian"] = zr.pop("cost_vs_slovenian")
            details.update(zr)
            say(f"Royal Tarock ingest in one process ({options.hands} hands simulated)")
            rt = game_ingest(
                "royal", folder, Path(tmp), options.hands, options.seed, options.repeat
            )
            report["royal_ingest_cost_vs_slovenian"] = rt.pop("cost_vs_slovenian")
            details.update(rt)
        except ImportError as exc:
            details["ingest_error"] = f"store not available: {exc}"
            say("baseline (orjson + Arrow + DuckDB)")
            counter = iter(range(1_000_000))
            t, n = _timed(
                lambda: stage_baseline(files, Path(tmp) / f"base{next(counter)}.duckdb"),
                options.repeat,
            )
            report["baseline_hands_per_s"] = _rate(n, t)
        report["ingest_vs_baseline"] = _ratio(
            report["ingest_hands_per_s"], report["baseline_hands_per_s"]
        )
        details["ingest_single_process_vs_baseline"] = _ratio(
            details.get("ingest_single_process_hands_per_s"), report["baseline_hands_per_s"]
        )

        if options.dask is not None:
            say(f"ingest on Dask ({options.dask})")
            address = None if options.dask == "local" else options.dask
            report.update(stage_dask(folder, Path(tmp), address, options.repeat))
            report["dask_vs_ingest"] = _ratio(
                report["dask_ingest_hands_per_s"], report["ingest_hands_per_s"]
            )

        if have_openspiel() and options.openspiel_hands > 0:
            say(f"OpenSpiel comparison ({options.openspiel_hands} hands simulated)")
            found = openspiel_comparison_in_child(options)
            for key, value in found.items():
                (report if key in JSON_KEYS else details)[key] = value
        else:
            details["openspiel"] = "pyspiel not installed" if not have_openspiel() else "skipped"
    say("start-up (tarock --help)")
    report["startup_s"] = startup_seconds(options.startup_runs)
    if STARTUP_LOG.is_file():
        say(f"start-up (tarock validate {STARTUP_LOG.name})")
        report["startup_validate_s"] = startup_seconds(
            options.startup_runs, args=("validate", str(STARTUP_LOG))
        )
    else:  # (an installed package without the repository's sample logs)
        report["startup_validate_s"] = None
        details["startup_validate"] = f"no sample log at {STARTUP_LOG}"
    report["native"] = native_card_loop()
    from tarock_logs import _native

    details["native_core"] = _native.available() or _native.why_not
    details["native_card_loops"] = native_card_loops()
    details["native_whole_hand"] = native_whole_hand()
    report["peak_rss_mb"] = peak_rss_mb()
    report["machine"] = machine_info()
    report["details"] = details
    return report


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - convenience
    args = argv if argv is not None else sys.argv[1:]
    n = int(args[0]) if args else 2000
    print(
        orjson.dumps(
            run(BenchOptions(hands=n, openspiel_hands=n // 2)), option=orjson.OPT_INDENT_2
        ).decode()
    )


if __name__ == "__main__":  # pragma: no cover
    main()
