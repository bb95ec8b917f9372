"""The command line starts without paying for what it does not run (issue 16: start-up).

Checked in new processes, without timing (the help probes one after another in one):

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

import functools
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

# One new process imports the command line, then prints the help of each command line in
# turn (the argv lists, one after the other): after each, one JSON line with its output, its
# exit code and the names of every module loaded so far. The modules loaded after a command
# are a superset of what that command loads in a process of its own (nothing is ever
# unloaded), so a heavy module that one command's help loads is seen at that command, or at
# an earlier one that loaded it too: one process instead of one each (≈ 0.7 s of CPU each).
_PROBES = """
import contextlib, io, json, sys
out = sys.stdout
import tarock_logs.cli
print(json.dumps({'out': '', 'code': None, 'modules': sorted(sys.modules)}), file=out)
for argv in json.loads(sys.argv[1]):
    sys.argv = ['tarock', *argv]
    code = None
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        try:
            tarock_logs.cli.main()
        except SystemExit as exc:
            code = exc.code
    print(json.dumps({'out': text.getvalue(), 'code': code, 'modules': sorted(sys.modules)}),
          file=out)
"""


def _python(code: str, arg: object) -> str:
    """What ``python -c code json(arg)`` prints, run in a new process from the repository."""
    return subprocess.run(
        [sys.executable, "-c", code, json.dumps(arg)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout


def _run(argv: list[str] | None) -> tuple[str, object, list[str]]:
    """The output, exit code and loaded modules of the command line run in a new process."""
    out = _python(_PROBE, argv)
    result = json.loads(out.strip().splitlines()[-1])
    return out, result["code"], result["modules"]


@functools.cache
def _helps() -> dict[str, tuple[str, object, list[str]]]:
    """Per probe id (``import``, ``help``, ``CMD --help``): the output, exit code and modules
    loaded so far of :data:`_PROBES`, run once for all of them."""
    argvs = [argv for argv in PROBES if argv is not None]
    out = _python(_PROBES, argvs)
    lines = [json.loads(line) for line in out.splitlines() if line.strip()]
    assert len(lines) == len(PROBES), out[-2000:]
    return {i: (r["out"], r["code"], r["modules"]) for i, r in zip(PROBE_IDS, lines, strict=True)}


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
#: the help probes: the import alone first, then ``--help`` and each command's
PROBES: list[list[str] | None] = [None, ["--help"], *([*c, "--help"] for c in COMMANDS)]
PROBE_IDS = ["import", "help", *(" ".join(c) + " --help" for c in COMMANDS)]


def test_every_command_is_probed() -> None:
    """The list of commands the probes run comes from the app (a new command is covered)."""
    names = {" ".join(c) for c in COMMANDS}
    assert {"validate", "audit", "ingest", "stats", "import", "import openspiel"} <= names
    assert len(COMMANDS) >= 17


@pytest.mark.parametrize("argv", PROBES, ids=PROBE_IDS)
def test_the_command_line_and_its_help_load_nothing_heavy(argv: list[str] | None) -> None:
    out, code, modules = _helps()[PROBE_IDS[PROBES.index(argv)]]
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
