"""The label ids the interface uses: every string literal passed as the first argument of
``tr(...)`` / ``t(...)`` in the dashboard and the wording modules, and the phrases
``report/text.py`` translates from its tables (roles, phases) and the Players page from its
own (game names, roles)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from tarock_logs.rules import games, get_engine

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    *sorted((ROOT / "dashboard").rglob("*.py")),
    ROOT / "tarock_logs" / "report" / "text.py",
    ROOT / "tarock_logs" / "report" / "reasons.py",
    ROOT / "tarock_logs" / "report" / "dossier.py",
    ROOT / "tarock_logs" / "report" / "standings.py",
]
#: module-level tables whose values are label ids (file name, variable)
TABLES = {
    ("text.py", "_ROLES"),
    ("text.py", "_PHASES"),
    ("text.py", "_SCORE_ITEMS"),
    ("view_model.py", "ROLE_LABELS"),
    ("text.py", "_SUITS"),
    ("dossier.py", "_CARD_POINT_WORDS"),
    ("tournament.py", "HEADERS"),
    ("enter.py", "SUITS"),
    ("enter.py", "MODES"),
    ("enter.py", "PLACES"),
    ("entry_model.py", "SENTENCES"),
    ("entry_model.py", "COUNT_SENTENCES"),
    ("audit.py", "STATE_WORDS"),
    ("audit.py", "ORDER_WORDS"),
    ("audit.py", "KIND_LABEL"),
}
#: label ids translated by value: a finding's severity (``page.t(f.severity)``)
BY_VALUE = ("error", "warning", "info")
#: the kinds of a Players table column ``(column, label, kind)``: its label is an id
KINDS = {"name", "term", "role", "pct", "num", "int", "rank", "text", "list"}


def _literal_dict_values(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Dict):
        return [
            v.value for v in node.values if isinstance(v, ast.Constant) and isinstance(v.value, str)
        ]
    return []


def _strings(node: ast.AST) -> list[str]:
    """The elements of a list or tuple of string literals (empty otherwise)."""
    if isinstance(node, (ast.List, ast.Tuple)) and all(
        isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts
    ):
        return [e.value for e in node.elts]  # type: ignore[attr-defined]
    return []


def _dossier_ids(tree: ast.AST) -> list[str]:
    """The dossier's labels given as data: table headers (``headers = [...]``, ``page.t(h)
    for h in (...)``), the signature lines (``for label in (...)``) and the event facts
    (``facts = [("Session", ...), ...]``)."""
    out: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "headers" for t in node.targets
        ):
            out += [h for h in _strings(node.value) if h != "#"]
        elif isinstance(node, ast.comprehension):
            out += _strings(node.iter)
        elif isinstance(node, ast.For):
            out += _strings(node.iter)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            if node.target.id == "facts" and isinstance(node.value, ast.List):
                for elt in node.value.elts:
                    if isinstance(elt, ast.Tuple) and isinstance(elt.elts[0], ast.Constant):
                        out.append(elt.elts[0].value)
    return out


def used_msgids() -> dict[str, list[str]]:
    """Each label id with the files using it."""
    out: dict[str, list[str]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        if path.name == "dossier.py":
            for i in _dossier_ids(tree):
                out.setdefault(i, []).append(str(path.relative_to(ROOT)))
        for node in ast.walk(tree):
            ids: list[str] = []
            if isinstance(node, ast.Call):
                fn = node.func
                name = (
                    fn.id
                    if isinstance(fn, ast.Name)
                    else (fn.attr if isinstance(fn, ast.Attribute) else None)
                )
                if (
                    name in ("tn", "trn", "Counted") and len(node.args) >= 2
                ):  # tn(one, many, n, …): a plural
                    pass
                elif name in ("tr", "t") and node.args:
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
    for i in BY_VALUE:
        out.setdefault(i, []).append("tarock_logs/report/dossier.py")
    # the games' titles are the engines' (the game plug-ins declare them;
    # dashboard/view_model.py translates them)
    for game in games():
        engine = get_engine(game)
        assert engine is not None
        out.setdefault(engine.title, []).append(f"tarock_logs/rules/{game}/engine.py")
    # the consequences of findings, kept with the rulesets' quotations (a finding's
    # ``consequence`` is said with ``t``)
    for path in sorted((ROOT / "tarock_logs" / "rules").glob("*/quotations.json")):
        doc = json.loads(path.read_text(encoding="utf-8"))
        for rs in doc.get("rulesets", {}).values():
            for said in rs.get("consequences", {}).values():
                out.setdefault(said, []).append(str(path.relative_to(ROOT)))
    return out


def used_plurals() -> dict[tuple[str, str], list[str]]:
    """Each counted label (``tn(one, many, n, lang)``: its two English forms) with the files
    using it."""
    out: dict[tuple[str, str], list[str]] = {}
    for path in SOURCES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            fn = node.func
            name = fn.id if isinstance(fn, ast.Name) else getattr(fn, "attr", None)
            pair = None
            if name in ("tn", "trn", "Counted") and len(node.args) >= 2:  # tn(one, many, n, …)
                pair = node.args[0], node.args[1]
            elif name == "count" and len(node.args) == 3:  # page.count(n, one, many)
                pair = node.args[1], node.args[2]
            if pair is not None:
                one, many = pair
                if isinstance(one, ast.Constant) and isinstance(many, ast.Constant):
                    key = (str(one.value), str(many.value))
                    out.setdefault(key, []).append(str(path.relative_to(ROOT)))
    return out


def finding_meanings() -> dict[str, str]:
    """Every finding code's English meaning by its context: ``<game>:<code>`` for each
    engine's codes, ``audit:<code>`` for the audit's own."""
    from tarock_logs.rules import games, get_engine
    from tarock_logs.verdict.findings import AUDIT_CODES

    out = {f"audit:{code}": meaning for code, meaning in AUDIT_CODES.items()}
    for game in games():
        engine = get_engine(game)
        if engine is not None:
            out |= {f"{game}:{c}": code.meaning for c, code in engine.codes().items()}
    return out
