"""The architecture as tests: the import contracts of ``pyproject.toml`` (``[tool.importlinter]``)
hold on the tree. They say, in words:

* the engines are pure (standard library, ``tarock_logs.cards`` and ``rules.base`` only);
* nothing in the library imports Streamlit or the dashboard;
* reading logs never reaches the store, the verdicts or what people read;
* the dashboard's view model is Streamlit-free;
* the Slovenian engine's modules import one way;
* the library's layers follow the data flow (cards, rules, log, wording, verdict, dossier,
  store, tools, bench, cli: a module imports only from the layers below it).

``make lint`` runs the same check (``lint-imports``)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_every_import_contract_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlinter import cli  # the dev extra, which the test command installs

    monkeypatch.chdir(ROOT)
    assert cli.lint_imports(no_cache=True, no_logo=True) == 0, (
        "run `lint-imports` to see the broken contract"
    )


def test_the_layers_contract_names_every_package_of_the_library() -> None:
    """A new top-level package must be placed in the layers (or it escapes every contract)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c for c in contracts if c["type"] == "layers" and "containers" not in c)
    named = {part.strip().split(".")[1] for layer in layers["layers"] for part in layer.split("|")}
    packages = {
        p.stem if p.is_file() else p.name
        for p in (ROOT / "tarock_logs").iterdir()
        if (p.suffix == ".py" and p.stem != "__init__") or (p / "__init__.py").is_file()
    }
    assert packages - named == set(), "place these in the layers contract of pyproject.toml"
