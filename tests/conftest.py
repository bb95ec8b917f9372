"""Suite-wide collection rules.

The browser tests (marker ``browser``) run in one xdist group (``make test`` passes
``--dist loadgroup``): each browser module starts its own dashboard server and Chromium in a
module-scoped fixture, and with plain ``--dist load`` both workers took tests of the same
module and started them twice. In one group they start once, on one worker, while the other
worker takes the rest of the suite.
"""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser") is not None:
            item.add_marker(pytest.mark.xdist_group("browser"))
