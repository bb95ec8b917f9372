"""Rules engines, one package per game, and the registry that finds them.

Engines are pure (standard library only). :func:`get_engine` returns the engine of a game, or
``None`` when the game has no engine yet (the audit then reports its hands as unverified).
"""

from __future__ import annotations

from importlib import import_module

from tarock_logs.rules.base import GameEngine

_ENGINES = {
    "slovenian": "tarock_logs.rules.slovenian",
    "zwanzigerrufen": "tarock_logs.rules.zwanzigerrufen",
    "royal": "tarock_logs.rules.royal",
}


def games() -> tuple[str, ...]:
    """The games that have an engine, in the registry's order."""
    return tuple(_ENGINES)


def get_engine(game: str) -> GameEngine | None:
    """The engine of ``game`` (its package's ``ENGINE`` object), or None if not implemented."""
    mod_name = _ENGINES.get(game)
    if mod_name is None:
        return None
    try:
        mod = import_module(mod_name)
    except ModuleNotFoundError as exc:
        if exc.name == mod_name:
            return None
        raise
    engine: GameEngine | None = getattr(mod, "ENGINE", None)
    return engine
