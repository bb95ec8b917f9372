"""Rules engines, one package per game, and the registry that finds them.

Engines are pure (standard library only). :func:`get_engine` returns the engine of a game, or
``None`` when the game has no engine yet (the audit then reports its hands as unverified).
The generic layers (log, verdict, report, store, dashboard) never name a game: they iterate
over :func:`games` and ask an engine what its game has (:attr:`GameEngine.features`,
:attr:`~GameEngine.stat_sections`, :meth:`~GameEngine.seating`, ...), or
:func:`games_with` a feature.
"""

from __future__ import annotations

import sys
from functools import cache
from importlib import import_module

from tarock_logs.cards import GAMES
from tarock_logs.rules.base import GameEngine

#: each game's package (the games are the card vocabulary's, :data:`tarock_logs.cards.GAMES`)
_ENGINES = {game: f"tarock_logs.rules.{game}" for game in GAMES}


def games() -> tuple[str, ...]:
    """The games that have an engine, in the registry's order."""
    return tuple(_ENGINES)


def get_engine(game: str) -> GameEngine | None:
    """The engine of ``game`` (its package's ``ENGINE`` object), or None if not implemented."""
    mod_name = _ENGINES.get(game)
    if mod_name is None:
        return None
    # (an imported package straight from sys.modules, as import_module finds it: every
    # replayed session asks, and the import machinery's way there costs more than the look-up)
    engine: GameEngine | None = getattr(sys.modules.get(mod_name), "ENGINE", None)
    if engine is not None:
        return engine
    # not imported yet, or being imported right now by another thread (a dashboard's page
    # runs): the package is in sys.modules before its ENGINE is bound, and only the import
    # machinery waits for that import to finish (reading the half-initialised package said
    # "no engine", and a replay of the game came out without steps)
    try:
        mod = import_module(mod_name)
    except ModuleNotFoundError as exc:
        if exc.name == mod_name:
            return None
        raise
    engine = getattr(mod, "ENGINE", None)
    return engine


@cache
def games_with(feature: str) -> tuple[str, ...]:
    """The registered games whose engine declares ``feature`` (:attr:`GameEngine.features`),
    in the registry's order."""
    out = []
    for game in _ENGINES:
        engine = get_engine(game)
        if engine is not None and feature in engine.features:
            out.append(game)
    return tuple(out)


def game_title(game: str) -> str:
    """The game's name in English (its engine's :attr:`~GameEngine.title`; the id for a game
    without an engine)."""
    engine = get_engine(game)
    return engine.title if engine is not None and engine.title else game
