"""``tarock simulate``: seeded, reproducible sessions and tournaments played through the engine."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from tarock_logs.cards import GAMES
from tarock_logs.cli.common import ExitCode, app, err_console, fail
from tarock_logs.tools.disputes import DISPUTE_KINDS


def _parse_tables(text: str) -> tuple[int, ...]:
    try:
        sizes = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError as exc:
        raise fail(f"--tables: expected sizes like 4,4,5, got {text!r}") from exc
    if not sizes or any(s not in (3, 4, 5) for s in sizes):
        raise fail(f"--tables: every table has 3, 4 or 5 seats, got {text!r}")
    return sizes


#: the tables of a round when ``--tables`` is not given (for a game played at these sizes)
DEFAULT_TABLES = (4, 4, 5)


def _default_tables(game: str) -> tuple[int, ...]:
    """:data:`DEFAULT_TABLES`, each size the game is not played at replaced by 4 (or by the
    game's first table size): Slovenian tarok 4,4,5; Zwanzigerrufen and Royal Tarock 4,4,4."""
    from tarock_logs.rules import get_engine

    engine = get_engine(game)
    if engine is None:
        return DEFAULT_TABLES  # the simulator says why it cannot play the game
    sizes = engine.table_sizes(engine.ruleset(engine.default_ruleset))
    other = 4 if 4 in sizes else sizes[0]
    return tuple(s if s in sizes else other for s in DEFAULT_TABLES)


@app.command()
def simulate(
    out: Annotated[Path, typer.Option("-o", "--out", help="output directory")],
    game: Annotated[str, typer.Option(help=f"one of {', '.join(GAMES)}")] = GAMES[0],
    seed: Annotated[
        int, typer.Option(help="the seed: same seed and options, byte-identical files")
    ] = 1,
    tables: Annotated[
        str | None,
        typer.Option(
            help="table sizes of each round, e.g. 4,4,5 (default: 4,4,5, a size the game is "
            "not played at replaced by 4)"
        ),
    ] = None,
    rounds: Annotated[int, typer.Option(min=1, max=99)] = 3,
    games_per_round: Annotated[
        int,
        typer.Option(
            min=1, max=1000, help="games per table per round (a table of 5 plays 5/4 as many)"
        ),
    ] = 16,
    plant_disputes: Annotated[
        int,
        typer.Option(
            min=0,
            help="plant K irregularities, one per session, cycling "
            f"{', '.join(DISPUTE_KINDS)} (fewer kinds for the other games)",
        ),
    ] = 0,
    ruleset: Annotated[
        str | None, typer.Option(help="ruleset id (default: the game's default)")
    ] = None,
    duplicate: Annotated[
        bool,
        typer.Option(
            "--duplicate",
            help="a duplicate tournament: every table of a round plays the same deals, "
            "players keep their seat and move tables (docs/duplicate.md); tables of one size",
        ),
    ] = False,
) -> None:
    """Simulate a tournament (rounds x tables, one session per table and round) through the
    rules engine with heuristic players, and write one .jsonl per round (one session per
    line) to OUT, plus disputes.manifest when disputes were planted. With --duplicate the
    k-th hand of every table of a round is the same deal (compare them with `tarock
    duplicate`)."""
    from tarock_logs.tools.simulate import (
        SimulationError,
        TournamentSpec,
        simulate_tournament,
        write_result,
    )

    spec = TournamentSpec(
        seed=seed, game=game, tables=_parse_tables(tables) if tables else _default_tables(game),
        rounds=rounds,
        games_per_round=games_per_round, plant_disputes=plant_disputes, ruleset=ruleset,
        duplicate=duplicate,
    )  # fmt: skip
    try:
        result = simulate_tournament(spec)
    except SimulationError as exc:
        raise fail(str(exc), ExitCode.USAGE) from exc
    paths = write_result(result, out)
    sessions = sum(len(s) for s in result.files.values())
    err_console.print(
        f"tarock: simulated {result.hands} hands in {sessions} sessions "
        f"({len(result.planted)} planted disputes) -> {', '.join(str(p) for p in paths)}",
        markup=False, highlight=False,
    )  # fmt: skip
