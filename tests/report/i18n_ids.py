"""The label ids the interface uses: every string literal passed as the first argument of
``tr(...)`` / ``t(...)`` in the dashboard and the wording modules, and the phrases
``report/text.py`` translates from its tables (roles, phases) and the Players page from its
own (game names, roles)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *sorted((ROOT / "dashboard").rglob("*.py")),
    ROOT / "tarock_logs" / "report" / "text.py",
]
#: module-level tables whose values are label ids (file name, variable)
TABLES = {
    ("text.py", "_ROLES"),
    ("text.py", "_PHASES"),
    ("view_model.py", "GAME_NAMES"),
    ("view_model.py", "SCORE_ITEMS"),
    ("tournament.py", "HEADERS"),
}
#: the kinds of a Players table column ``(column, label, kind)``: its label is an id
KINDS = {"name", "term", "role", "pct", "num", "int", "text", "list"}


def _literal_dict_values(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Dict):
        return [
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        ]
    return []


def used_msgids() -> dict[str, list[str]]:
    """Each label id with the files using it."""
    out: dict[str, list[str]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            ids: list[str] = []
            if isinstance(node, ast.Call):
                fn = node.func
                name = (
                    fn.id
                    if isinstance(fn, ast.Name)
                    else (fn.attr if isinstance(fn, ast.Attribute) else None)
                )
                if name in ("tr", "t") and node.args:
                    first = node.args[0]
                    if isinstance(first, ast.Constant) and isinstance(first.value, str):
                        ids.append(first.value)
                    # tr({...}.get(x, x)): the dict's values are ids
                    if isinstance(first, ast.Call) and isinstance(first.func, ast.Attribute):
                        ids += _literal_dict_values(first.func.value)
            elif (
                isinstance(node, ast.Tuple)
                and len(node.elts) == 3
                and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
                and node.elts[2].value in KINDS  # type: ignore[attr-defined]
            ):
                ids.append(node.elts[1].value)  # type: ignore[attr-defined]
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for tgt in targets:
                    if isinstance(tgt, ast.Name) and (path.name, tgt.id) in TABLES and node.value:
                        ids += _literal_dict_values(node.value)
            for i in ids:
                out.setdefault(i, []).append(str(path.relative_to(ROOT)))
    return out
