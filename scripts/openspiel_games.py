#!/usr/bin/env python3
"""Generate seeded OpenSpiel ``tarok`` games in the input format of ``tarock import openspiel``.

    .venv/bin/python scripts/openspiel_games.py --players 4 --games 1000 --seed 7 -o games.jsonl

Needs pyspiel (``pip install -e '.[oracle]'``). The bidding policy cycles through every
contract of the table so all of them are reached (see
``tarock_logs/tools/importers/openspiel_games.py``); the same arguments always give the same file.
A summary (games per contract) goes to stderr.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tarock_logs.tools.importers.openspiel import decode_game
from tarock_logs.tools.importers.openspiel_games import generate_games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=(3, 4), default=4)
    parser.add_argument("--games", type=int, required=True, help="number of games")
    parser.add_argument(
        "--seed",
        type=int,
        default=0,
        help="rng_seed of the pyspiel game and the policy (0..2^31-1)",
    )
    parser.add_argument("-o", "--output", required=True, help="output .jsonl, or - for stdout")
    args = parser.parse_args(argv)
    if args.games < 0 or not 0 <= args.seed < 2**31:
        parser.error("--games must be >= 0 and --seed in 0..2^31-1")
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        print("openspiel_games: pyspiel is missing (pip install -e '.[oracle]')", file=sys.stderr)
        return 2
    out = sys.stdout.buffer if args.output == "-" else open(args.output, "wb")
    counts: collections.Counter[str] = collections.Counter()
    try:
        for g in generate_games(args.players, args.games, args.seed):
            out.write(orjson.dumps(g.record()) + b"\n")
            counts[decode_game(g.seed, g.players, g.actions).contract or "?"] += 1
    except BrokenPipeError:  # e.g. piped into head: stop quietly
        sys.stderr.close()
        return 0
    finally:
        if out is not sys.stdout.buffer:
            out.close()
    summary = ", ".join(f"{c} {k}" for c, k in sorted(counts.items()))
    print(
        f"openspiel_games: {args.games} games, {args.players} players: {summary}", file=sys.stderr
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
