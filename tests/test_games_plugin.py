"""Games are plug-ins: the generic layers never name one, and no module reaches into another's
private names.

A game brings its engine (``tarock_logs/rules/<game>/``) and declares there what it has beyond
the common ground (:attr:`~tarock_logs.rules.base.GameEngine.features`, ``stat_sections``,
``seating``, ``title``, ...). ``log/``, ``verdict/``, ``report/``, ``store/``, ``cli/`` and the
dashboard iterate over :func:`tarock_logs.rules.games` and ask: a game's id in their code (a
string, an identifier, an import of ``tarock_logs.rules.<game>``) is the special case the
registry is there to replace. The card vocabulary (``tarock_logs/cards.py``) is where the games
are listed, with their packs.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tarock_logs.rules import games, games_with, get_engine
from tarock_logs.rules.base import STAT_SECTIONS

ROOT = Path(__file__).resolve().parents[1]
#: the generic layers: they never name a game
GENERIC = [
    ROOT / "tarock_logs" / "log",
    ROOT / "tarock_logs" / "verdict",
    ROOT / "tarock_logs" / "report",
    ROOT / "tarock_logs" / "store",
    ROOT / "tarock_logs" / "cli",
    ROOT / "dashboard",
]
#: a game's id in an identifier (``royal_matches``, ``_slovenian``) ...
_NAME = re.compile(r"(?<![A-Za-z])(" + "|".join(games()) + r")(?![a-z])")
#: ... and as a word of a string (``'royal'``, ``"game = 'royal'"``; not the code
#: ``table.royal_pairs``)
_WORD = re.compile(r"\b(" + "|".join(games()) + r")\b")


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of a module, its classes and functions (prose may name
    a game)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and node.body
        ):
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                out.add(id(first.value))
    return out


def _game_names_in(path: Path) -> list[str]:
    """Where the module at ``path`` names a game in code: string literals (not docstrings),
    identifiers and attribute names, imports of a game's package."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    out: list[str] = []
    rel = _rel(path)  # (once a file: per node it was most of the test's time)
    for node in ast.walk(tree):
        where = f"{rel}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docs and _WORD.search(node.value):
                out.append(f"{where} string {node.value[:60]!r}")
        elif isinstance(node, ast.Name) and _NAME.search(node.id):
            out.append(f"{where} name {node.id}")
        elif isinstance(node, ast.Attribute) and _NAME.search(node.attr):
            out.append(f"{where} attribute {node.attr}")
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)) and _NAME.search(node.name):
            out.append(f"{where} definition {node.name}")
        elif isinstance(node, ast.ImportFrom) and node.module and _NAME.search(node.module):
            out.append(f"{where} import {node.module}")
        elif isinstance(node, ast.Import):
            out += [f"{where} import {a.name}" for a in node.names if _NAME.search(a.name)]
    return out


def test_the_generic_layers_never_name_a_game() -> None:
    found = [hit for top in GENERIC for p in sorted(top.rglob("*.py")) for hit in _game_names_in(p)]
    assert found == [], (
        "ask the registry (rules.games, an engine's features) instead:\n" + "\n".join(found)
    )


def test_the_check_sees_a_game_name_in_code(tmp_path: Path) -> None:
    """The check itself: a game's id in a string, a name or an import is found; in a
    docstring or as part of a longer word (``table.royal_pairs`` is a code) it is not."""
    first = games()[0]
    bad = tmp_path / "bad.py"
    bad.write_text(
        f'"""Docs may say {first}."""\n'
        f"import tarock_logs.rules.{first}\n"
        f"x = 'a' if g == '{first}' else 'b'\n"
        f"{first}_table = 1\n",
        encoding="utf-8",
    )
    hits = _game_names_in(bad)
    assert sorted(h.split(" ", 1)[1].split(" ")[0] for h in hits) == ["import", "name", "string"]
    code = tmp_path / "code.py"
    code.write_text("err('table.royal_pairs')\nTAROCK_WORDS = 'slovenianish'\n", encoding="utf-8")
    assert _game_names_in(code) == []


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def _private_imports(path: Path) -> list[str]:
    """``from module import _name`` where ``_name`` is a private name of another module
    (a module or package imported under a private alias is not one)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or node.module is None:
            continue
        for alias in node.names:
            name = alias.name
            if not name.startswith("_") or name.startswith("__"):
                continue
            if _is_module(f"{node.module}.{name}"):
                continue
            out.append(f"{_rel(path)}:{node.lineno} from {node.module} import {name}")
    return out


def _is_module(dotted: str) -> bool:
    parts = dotted.split(".")
    base = ROOT.joinpath(*parts)
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def test_no_module_imports_another_modules_private_names() -> None:
    found = [
        hit
        for top in (ROOT / "tarock_logs", ROOT / "dashboard")
        for p in sorted(top.rglob("*.py"))
        for hit in _private_imports(p)
    ]
    assert found == [], "make the name public where it is shared:\n" + "\n".join(found)


@pytest.mark.parametrize("game", games())
def test_every_game_declares_what_the_generic_layers_ask(game: str) -> None:
    engine = get_engine(game)
    assert engine is not None and engine.game == game
    assert engine.title, "the title the dashboard shows (a label id)"
    assert engine.stat_sections, "the Players page's own sections of the game"
    assert set(engine.stat_sections) <= set(STAT_SECTIONS)


def test_features_are_asked_for_not_games() -> None:
    """``fixed_pairs`` and ``schlemm`` are declared by the game that has them; a game of
    fixed pairs requires a seating."""
    for game in games_with("fixed_pairs"):
        engine = get_engine(game)
        assert engine is not None
        seating = engine.seating(4)
        assert seating is not None and len(seating) == 4
        assert {pair for pair, _ in seating} == {"A", "B"}
    for game in set(games()) - set(games_with("fixed_pairs")):
        engine = get_engine(game)
        assert engine is not None and engine.seating(4) is None
