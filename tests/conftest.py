"""Suite-wide collection rules.

The tests of one browser module (marker ``browser``) run in one xdist group (``make test``
passes ``--dist loadgroup``): each browser module starts its own dashboard server and Chromium
in a module-scoped fixture, and with plain ``--dist load`` both workers took tests of the same
module and started them twice. Grouped by module they start once; the modules (and every other
test) still spread over both workers.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.xdist_group(f"browser-{item.module.__name__}"))
