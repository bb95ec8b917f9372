"""The command line starts without paying for what it does not run (issue 16: start-up).

Checked in a new process, without timing:

* ``import tarock_logs.cli``, ``tarock --help`` and ``tarock CMD --help`` for every command
  load neither Dask nor any of the heavy libraries (DuckDB, polars, pyarrow, numpy, pydantic,
  Streamlit), nor the engines, verdicts, store, analysis or C extension of the library: a
  command module imports those in its command's body. The one part of ``tarock_logs.store``
  they load is :mod:`tarock_logs.store.paths` (standard library only: the ``--db`` names) with
  its package, whose ``__init__`` imports DuckDB only on first use;
* ``tarock validate FILE`` loads what validation needs (the reader, the models, the engines'
  structural checks) and nothing of the store, the analysis, DuckDB, polars, pyarrow, numpy,
  Streamlit or Dask (only ``--dask`` loads Dask, in ``tarock_logs.store.write.scaleout``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from tarock_logs.cli import app

ROOT = Path(__file__).resolve().parents[2]
#: one small sample log for ``tarock validate FILE``
SMALL_LOG = ROOT / "sample_logs" / "slovenian" / "appendix-b.json"

#: third-party packages (top-level names) nothing but a command's own work may load
HEAVY = ("duckdb", "polars", "pyarrow", "numpy", "pydantic", "streamlit", "dask", "distributed")
#: the library's packages ``--help`` must not load
HEAVY_OURS = (
    "tarock_logs.rules",
    "tarock_logs.verdict",
    "tarock_logs.store",
    "tarock_logs.analysis",
    "tarock_logs._native",
)
#: the light part of the store the command line declares its options with
LIGHT_STORE = {"tarock_logs.store", "tarock_logs.store.paths"}
#: what ``tarock validate FILE`` must not load (it needs pydantic and the engines)
NOT_FOR_VALIDATE = (
    "duckdb", "polars", "pyarrow", "numpy", "streamlit", "dask", "distributed",
    "tarock_logs.store", "tarock_logs.analysis",
)  # fmt: skip

# A new process runs the command line (or only imports it), then prints the exit code and
# the names of every loaded module as its last line.
_PROBE = """
import json, sys
argv = json.loads(sys.argv[1])
code = None
if argv is None:
    import tarock_logs.cli
else:
    sys.argv = ['tarock', *argv]
    from tarock_logs.cli import main
    try:
        main()
    except SystemExit as exc:
        code = exc.code
sys.stdout.flush()
print()
print(json.dumps({'code': code, 'modules': sorted(sys.modules)}))
"""


def _run(argv: list[str] | None) -> tuple[str, object, list[str]]:
    """The output, exit code and loaded modules of the command line run in a new process."""
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(argv)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    result = json.loads(out.strip().splitlines()[-1])
    return out, result["code"], result["modules"]


def _matching(modules: list[str], names: tuple[str, ...]) -> list[str]:
    """The modules that are one of ``names`` or inside one of them."""
    return [m for m in modules if any(m == n or m.startswith(n + ".") for n in names)]


def _commands() -> list[list[str]]:
    """Every command and sub-command of ``tarock`` as it is invoked (``import openspiel``)."""
    group = typer.main.get_command(app)
    out: list[list[str]] = []

    def walk(cmd: object, prefix: list[str]) -> None:
        subs = getattr(cmd, "commands", None) or {}
        for name in sorted(subs):
            out.append([*prefix, name])
            walk(subs[name], [*prefix, name])

    walk(group, [])
    return out


COMMANDS = _commands()


def test_every_command_is_probed() -> None:
    """The list of commands the probes run comes from the app (a new command is covered)."""
    names = {" ".join(c) for c in COMMANDS}
    assert {"validate", "audit", "ingest", "stats", "import", "import openspiel"} <= names
    assert len(COMMANDS) >= 17


@pytest.mark.parametrize(
    "argv",
    [None, ["--help"], *([*c, "--help"] for c in COMMANDS)],
    ids=["import", "help", *(" ".join(c) + " --help" for c in COMMANDS)],
)
def test_the_command_line_and_its_help_load_nothing_heavy(argv: list[str] | None) -> None:
    out, code, modules = _run(argv)
    if argv is not None:
        assert code in (0, None) and "Usage:" in out, out  # the help was printed
    assert _matching(modules, HEAVY) == []
    assert [m for m in _matching(modules, HEAVY_OURS) if m not in LIGHT_STORE] == []


def test_validate_of_one_file_loads_only_what_validation_needs() -> None:
    out, code, modules = _run(["validate", str(SMALL_LOG)])
    assert code in (0, None), out
    assert "0 errors" in out
    loaded = [m for m in _matching(modules, NOT_FOR_VALIDATE) if m not in LIGHT_STORE]
    assert loaded == []
    # (it did read and check the file: the reader, the models and an engine are loaded)
    assert {"tarock_logs.log.reader", "tarock_logs.log.models", "pydantic"} <= set(modules)
