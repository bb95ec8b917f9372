"""``tarock ingest``: read, audit and store log files in a DuckDB database."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import orjson
import typer

from tarock_logs.cli.common import ExitCode, app, err_console, fail, progress_enabled
from tarock_logs.store.paths import DB_ENV, DEFAULT_DB

if TYPE_CHECKING:
    from rich.progress import Progress


class IngestFormat(str, Enum):
    table = "table"
    json = "json"


@app.command()
def ingest(
    paths: Annotated[list[Path], typer.Argument(help="Log files or folders (walked recursively).")],
    db: Annotated[
        Path, typer.Option("--db", envvar=DB_ENV, help="DuckDB file to write (created if missing).")
    ] = Path(DEFAULT_DB),
    exclude: Annotated[
        list[str], typer.Option("--exclude", help="Skip files or folders with this name.")
    ] = [],  # noqa: B006 - typer needs a literal default
    jobs: Annotated[
        int | None,
        typer.Option(
            "--jobs",
            "-j",
            min=1,
            help="Worker processes (default: one per usable core, at most one per file "
            "or part of a big .jsonl file; serial below 8 MB of input (1 MB without the "
            "native core); 1 = serial). "
            "With N > 1 a big .jsonl file is read in parts by several workers.",
        ),
    ] = None,
    fmt: Annotated[
        IngestFormat, typer.Option("--format", help="Summary format.")
    ] = IngestFormat.table,
    dry_run: Annotated[
        bool, typer.Option("--dry-run", help="Do everything but publish the database.")
    ] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Exit 1 when anything was rejected.")
    ] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    prune: Annotated[
        bool,
        typer.Option(
            "--prune",
            help="Also remove the stored rows of files under PATHS "
            "that are no longer there (deleted, renamed or excluded).",
        ),
    ] = False,
    analyse: Annotated[
        bool,
        typer.Option(
            "--analyse",
            help="Also value every card of each hand (Slovenian tarok, Zwanzigerrufen, Royal "
            "Tarock) with all cards visible, into card_analysis (docs/analysis.md). The cost "
            "is bounded per hand: the cards are valued from the last one back, all the hand's "
            "searches together play at most --analyse-hand-budget cards, each card's search at "
            "most --analyse-budget, and --analyse-tricks limits the tricks; a card not reached "
            "or past its budget is not valued (analysed_hands counts it as undecided; the "
            "summary counts the hands the hand budget stopped). An illegal card is always "
            "analysed.",
        ),
    ] = False,
    analyse_tricks: Annotated[
        int | None,
        typer.Option(
            "--analyse-tricks",
            min=1,
            max=16,
            help="Tricks to analyse per hand, counted from its end (default: every trick with "
            "all cards visible, the hand budget bounding the cost; the last 8 on what the "
            "player knew).",
            show_default=False,
        ),
    ] = None,
    analyse_hand_budget: Annotated[
        int | None,
        typer.Option(
            "--analyse-hand-budget",
            min=0,
            help="Cards all the searches of one hand may play together, all cards visible "
            "(default: 40,000,000 with the C extension, several seconds of one core; 400,000 "
            "without and for the games without a native solver; 0: no limit).",
            show_default=False,
        ),
    ] = None,
    analyse_budget: Annotated[
        int | None,
        typer.Option(
            "--analyse-budget",
            min=1,
            help="Cards one card's search may play before that card is left undecided "
            "(default: 4,000,000 with the C extension, 100,000 without and for the games "
            "without a native solver: a few seconds per search either way).",
            show_default=False,
        ),
    ] = None,
    analyse_view: Annotated[
        str,
        typer.Option(
            "--analyse-view",
            help="all: all cards visible (card_analysis) | player: what the player knew "
            "(card_analysis_player: each card's mean over --analyse-samples layouts sampled "
            "from the player's view) | both.",
        ),
    ] = "all",
    analyse_samples: Annotated[
        int,
        typer.Option(
            "--analyse-samples",
            min=1,
            max=10_000,
            help="--analyse-view player/both: layouts sampled per card.",
        ),
    ] = 20,
    analyse_seed: Annotated[
        int,
        typer.Option("--analyse-seed", help="--analyse-view player/both: the samples' seed."),
    ] = 1,
    analyse_par: Annotated[
        bool,
        typer.Option(
            "--analyse-par/--no-analyse-par",
            help="--analyse: also the par before the first trick of each hand with a talon "
            "exchange (par_hands, par_options: each talon group, each discard after the "
            "recorded group, each contract the declarer could have declared, all cards "
            "visible), each option a whole-hand search: tens of seconds of one core a hand "
            "with the C extension, so off by default. --analyse-budget and "
            "--analyse-hand-budget bound it (default: 40,000,000 cards a search, 120,000,000 "
            "a hand, for the groups and discards and again for the contracts); an option past "
            "them is stored undecided or as a bound.",
        ),
    ] = False,
    wait: Annotated[
        float,
        typer.Option(
            "--wait",
            min=0,
            metavar="SECONDS",
            help="Wait up to SECONDS for another ingest of the same database to finish "
            "(default 0: exit 4 at once).",
        ),
    ] = 0.0,
    dask: Annotated[
        str | None,
        typer.Option(
            "--dask",
            metavar="[ADDRESS]",
            help="Process the files on a Dask cluster: the scheduler's ADDRESS "
            "(tcp://host:8786; workers need the package and the files at the same paths), or "
            "without one a local cluster of --jobs worker processes (default: one per core). "
            "Same rows, rejects and summary as without it. --analyse then analyses the "
            "sessions on the same cluster.",
        ),
    ] = None,
) -> None:
    """Store every good hand of PATHS in the database; rejected sessions and hands are kept in
    `rejects` with their located errors. Re-ingesting unchanged files stores nothing twice; a
    changed file's hands are replaced. Readers of the database keep working meanwhile (the new
    database is published atomically at the end)."""
    if analyse_view not in ("all", "player", "both"):
        raise fail("--analyse-view must be one of all, player, both", ExitCode.USAGE)
    import duckdb

    from tarock_logs.store.connect import WriterMemoryError
    from tarock_logs.store.schema import SchemaError
    from tarock_logs.store.write.ingest import IngestIOError, IngestLocked
    from tarock_logs.store.write.ingest import ingest as run_ingest
    from tarock_logs.store.write.scaleout import SchedulerUnreachable

    show = progress_enabled(quiet, fmt.value)
    progress = None
    bar: Progress | None = None
    if show:
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        from tarock_logs.store.sources import list_files

        bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[hands]} hands"),
            TimeElapsedColumn(),
            console=err_console,
            transient=True,
        )
        try:
            total: int | None = len(list_files(paths, exclude))
        except OSError:
            total = None
        task = bar.add_task("ingest", total=total, hands=0)
        seen: set[str] = set()
        hands = 0

        def progress(file: str, n: int) -> None:
            nonlocal hands
            hands += n
            if file not in seen:
                seen.add(file)
                bar.update(task, advance=1, description=Path(file).name[:40])
            bar.update(task, hands=hands)

    try:
        if bar is not None:
            bar.start()
        try:
            summary = run_ingest(
                paths,
                db=db,
                exclude=exclude,
                jobs=jobs,
                dry_run=dry_run,
                progress=progress,
                prune=prune,
                wait=wait,
                dask=dask,
            )
        finally:
            if bar is not None:
                bar.stop()
    except FileNotFoundError as exc:
        raise fail(str(exc), ExitCode.USAGE) from exc
    except SchedulerUnreachable as exc:
        raise fail(str(exc), ExitCode.USAGE) from exc
    except WriterMemoryError as exc:
        raise fail(str(exc), ExitCode.USAGE) from exc
    except IngestIOError as exc:  # a full or read-only disk, an I/O error: nothing published
        raise fail(str(exc.strerror), ExitCode.IO) from exc
    except OSError as exc:  # an unreadable input, an unwritable database folder
        raise fail(f"{exc.filename or db}: {exc.strerror or exc}", ExitCode.USAGE) from exc
    except IngestLocked as exc:
        raise fail(str(exc), ExitCode.DB) from exc
    except SchemaError as exc:
        raise fail(f"{db}: {exc}", ExitCode.DB) from exc
    except duckdb.Error as exc:
        raise fail(f"{db}: not a usable DuckDB database ({exc})", ExitCode.DB) from exc
    analysis = None
    if analyse and not dry_run:
        from tarock_logs.store.write.analysis import store_analysis

        try:
            analysis = store_analysis(paths, db=db, exclude=exclude, last_tricks=analyse_tricks,
                                      budget=analyse_budget, wait=wait, view=analyse_view,
                                      samples=analyse_samples, seed=analyse_seed,
                                      hand_budget=analyse_hand_budget, jobs=jobs,
                                      dask=dask, par=analyse_par)  # fmt: skip
        except IngestLocked as exc:
            raise fail(str(exc), ExitCode.DB) from exc
    if fmt is IngestFormat.json:
        doc = summary.to_dict()
        if analysis is not None:
            doc["analysis"] = {"hands": analysis.hands, "cards": analysis.cards,
                               "undecided": analysis.undecided,
                               "hand_budget_hit": analysis.hand_budget_hit,
                               "seconds": round(analysis.seconds, 3),
                               "label": "all cards visible"}  # fmt: skip
            if analyse_par:
                doc["analysis"]["par"] = {"hands": analysis.par_hands,
                                          "budget_hit": analysis.par_budget_hit}  # fmt: skip
            if analysis.view != "all":
                doc["analysis_player"] = {
                    "hands": analysis.player_hands, "cards": analysis.player_cards,
                    "samples": analysis.samples, "seed": analysis.seed,
                    "label": "what the player knew",
                }  # fmt: skip
        sys.stdout.write(orjson.dumps(doc).decode() + "\n")
    else:
        for r in summary.rejects:
            where = r["file"] + (f":{r['line']}" if r.get("line") else "")
            what = f" hand {r['hand']}" if r.get("hand") is not None else ""
            sys.stdout.write(f"rejected {where}{what}: {r['first_code']}: {r['reason']}\n")
        sys.stdout.write(summary.line() + "\n")
        if analysis is not None:
            sys.stdout.write(analysis.line() + "\n")
    if strict and summary.hands_rejected:
        raise typer.Exit(int(ExitCode.FINDINGS))
