"""The ``tarock`` command line. Each command lives in its own module and registers on ``app``."""

from __future__ import annotations

import sys

from tarock_logs.cli import analyse as _analyse  # noqa: F401
from tarock_logs.cli import audit as _audit  # noqa: F401
from tarock_logs.cli import bench as _bench  # noqa: F401
from tarock_logs.cli import dashboard as _dashboard  # noqa: F401
from tarock_logs.cli import dossier as _dossier  # noqa: F401
from tarock_logs.cli import duplicate as _duplicate  # noqa: F401
from tarock_logs.cli import export as _export  # noqa: F401
from tarock_logs.cli import fmt as _fmt  # noqa: F401
from tarock_logs.cli import import_openspiel as _import_openspiel  # noqa: F401
from tarock_logs.cli import import_palcka as _import_palcka  # noqa: F401
from tarock_logs.cli import import_scoresheet as _import_scoresheet  # noqa: F401
from tarock_logs.cli import ingest as _ingest  # noqa: F401
from tarock_logs.cli import ratings as _ratings  # noqa: F401
from tarock_logs.cli import referees as _referees  # noqa: F401
from tarock_logs.cli import rulesets as _rulesets  # noqa: F401
from tarock_logs.cli import schema as _schema  # noqa: F401
from tarock_logs.cli import simulate as _simulate  # noqa: F401
from tarock_logs.cli import stats as _stats  # noqa: F401

# Command modules (importing them registers their commands).
from tarock_logs.cli import validate as _validate  # noqa: F401
from tarock_logs.cli.common import ExitCode, app, err_console, optional_dask_address, reflow_help


def main() -> None:
    """Entry point: run the app, turning unexpected exceptions into exit code 3."""
    reflow_help(app)
    try:
        app(args=optional_dask_address(sys.argv[1:]))
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(int(ExitCode.INTERRUPT))
    except Exception as exc:  # noqa: BLE001 - last line of defence: never a traceback
        err_console.print(f"tarock: internal error: {type(exc).__name__}: {exc}", markup=False)
        sys.exit(int(ExitCode.INTERNAL))
