"""The command line does not pay for Dask: ``import tarock_logs.cli`` and ``tarock --help``
load neither ``dask`` nor ``distributed`` (only ``--dask`` does, in
``tarock_logs.store.scaleout``). Checked in a new process, without timing."""

from __future__ import annotations

import subprocess
import sys

import pytest

_PROBE = """
import sys
{run}
print(sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')))
"""


@pytest.mark.parametrize(
    "run",
    [
        "import tarock_logs.cli",
        "sys.argv = ['tarock', '--help']\nfrom tarock_logs.cli import main\ntry:\n    main()\n"
        "except SystemExit:\n    pass",
        "sys.argv = ['tarock', 'ingest', '--help']\nfrom tarock_logs.cli import main\ntry:\n"
        "    main()\nexcept SystemExit:\n    pass",
    ],
    ids=["import", "help", "ingest-help"],
)
def test_the_command_line_imports_no_dask_until_asked(run: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE.format(run=run)], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1] == "[]"
