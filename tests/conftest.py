"""Suite-wide collection rules.

The tests of one browser module (marker ``browser``) run in one xdist group (``make test``
passes ``--dist loadgroup``): each browser module starts its own dashboard server in a
module-scoped fixture, and with plain ``--dist load`` both workers took tests of the same
module and started them twice. Grouped by module they start once; the modules (and every other
test) still spread over both workers. The browser itself (Chromium) is one per worker, shared
by the browser modules that follow one another (tests/dashboard/browser_helpers.py).

The modules of :data:`MODULE_GROUPS` (tests that share what a module-scoped fixture makes:
simulated games, an ingested store) run in one xdist group each too: as single tests the
module's tests went to both workers, and its long test (scheduled first) apart from the rest,
and each part set the fixture up again (the Royal native-card games were simulated twice).
The tests of :data:`SHARED_GROUPS` (of several modules, sharing a process-wide cache: the
simulated Slovenian sessions, the Dask modules' one cluster) run in one group each for the
same reason; the cluster is closed once the next test is not one of its modules'.

Under xdist the longest work goes first (the longest-first rule of scheduling: what is left
at the end is short, so neither worker waits long for the other): the browser groups by the
time they took on CI, then the long single tests, then the rest in collection order.
xdist's own reordering (groups by their number of tests) is turned off for that.
"""

from __future__ import annotations

import sys

import pytest

#: seconds a browser module's group takes on 2 cores (the profile of 2026-12-07 11:10 and the
#: per-file runs after that day's cuts, docs/performance.md); a browser module not listed
#: counts as :data:`BROWSER_DEFAULT`. The hand entry's group goes first even where a little
#: shorter: it needs no ``dash_db``, so the other worker builds that database (once, for both:
#: tests/dashboard/conftest.py) meanwhile.
BROWSER_GROUPS = {
    "tests.dashboard.test_enter_browser": 160,
    "tests.dashboard.test_phone_browser": 150,
    "tests.dashboard.test_browser": 130,
    "tests.dashboard.test_roles_browser": 100,
    "tests.dashboard.test_accept_disputes": 80,
    "tests.dashboard.test_lockdown_browser": 60,
}
BROWSER_DEFAULT = 40
#: modules whose tests share a module-scoped fixture's costly data: one xdist group each
#: (the fixture made once), scheduled by the seconds the module takes on CI (estimated from
#: the last CI run's figures and per-file runs, docs/performance.md)
MODULE_GROUPS = {
    "tests.store.test_lane": 85,  # simulations made once per process and copied
    "tests.rules.royal.test_native_cards": 35,
    "tests.rules.zwanzigerrufen.test_native_cards": 40,
    "tests.rules.zwanzigerrufen.test_native_hand": 18,  # 600 hands simulated once
    "tests.store.test_facts": 25,  # the samples' store
    "tests.store.test_store_recovery": 15,  # simulated logs and their clean ingest
    "tests.store.test_ratings_stored": 15,  # the samples' store
    "tests.dashboard.test_replay_reads": 8,  # a store
    "tests.dashboard.test_view_model": 8,  # two stores of the samples
    "tests.cli.test_duplicate_cli": 8,  # a simulated duplicate tournament's store per game
    "tests.store.test_session_facts": 8,  # simulated Royal and Slovenian stores
    "tests.analysis.test_player_view_games_app": 6,  # an ingested and analysed store
    "tests.dashboard.test_facts_hands": 6,  # a store of the score sheets
    "tests.store.test_game_stats": 5,  # a store
    "tests.store.test_ratings": 5,  # a store
    "tests.dashboard.test_replay_stored": 5,  # a store whose logs are gone
    "tests.analysis.test_par": 20,  # the made hand's par, exact and tested
    "tests.analysis.test_par_app": 8,  # a store with the par
    "tests.cli.test_lazy_imports": 3,  # the help probes, run in one process
}
#: tests of different modules that share what a process-wide cache makes (node id prefixes):
#: one xdist group each, so that one worker makes it once; scheduled by their seconds on CI
SHARED_GROUPS = {
    # the simulated Slovenian sessions of tests/support/simulated.py
    "slovenian-simulated": (
        40,
        (
            "tests/rules/slovenian/test_native_cards.py::test_simulated_hands_replay_alike",
            "tests/rules/slovenian/test_native_hand.py::test_simulated_sessions_replay_alike",
            "tests/rules/slovenian/test_fastpath.py::test_simulated_sessions_with_radelci",
        ),
    ),
    # the Dask modules' one cluster (tests/support/dask_cluster.py), and the samples' serial
    # and Dask ingests of the store module's fixture; the bench's Dask run on the same cluster
    "dask-cluster": (
        65,
        (
            "tests/store/test_store_dask.py::",
            "tests/cli/test_dask_cli.py::",
            "tests/cli/test_bench.py::test_bench_with_dask_",
        ),
    ),
}
#: single tests (node id prefixes) that took 10 s or more on that run
LONG_TESTS = {
    "tests/dashboard/test_publish_stress.py::": 21,
    "tests/cli/test_bench.py::": 18,
    "tests/dashboard/test_apptest.py::test_players_page_logs_no_per_row": 16,
}
#: any other test marked ``slow``
SLOW_DEFAULT = 8


def _weight(item: pytest.Item) -> float:
    if item.get_closest_marker("browser") is not None:
        return 1000 + BROWSER_GROUPS.get(item.module.__name__, BROWSER_DEFAULT)
    if item.module.__name__ in MODULE_GROUPS:
        return MODULE_GROUPS[item.module.__name__]
    shared = _shared_group(item)
    if shared is not None:
        return SHARED_GROUPS[shared][0]
    for prefix, seconds in LONG_TESTS.items():
        if item.nodeid.startswith(prefix):
            return seconds
    return SLOW_DEFAULT if item.get_closest_marker("slow") is not None else 0


def _shared_group(item: pytest.Item) -> str | None:
    for name, (_, prefixes) in SHARED_GROUPS.items():
        if item.nodeid.startswith(prefixes):
            return name
    return None


def pytest_configure(config: pytest.Config) -> None:
    if getattr(config.option, "dist", "no") != "no" and hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False  # the order set below is the schedule's


def _group(item: pytest.Item, name: str) -> None:
    """Put ``item`` in the xdist group ``name``: its mark, and the ``@name`` suffix of its node
    id that ``--dist loadgroup`` schedules by. xdist 3.8 writes that suffix to ``_nodeid``,
    which pytest 9 no longer reads (a node's id is its ``_id``): without this the groups were
    silently ignored and a browser module's tests ran on both workers, each starting the
    module's server."""
    item.add_marker(pytest.mark.xdist_group(name))
    if getattr(item.config.option, "loadgroup", False) and "@" not in item.nodeid:
        from _pytest.nodeid import NodeId

        item._id = NodeId.parse(f"{item.nodeid}@{name}")  # type: ignore[attr-defined]


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("browser") is not None:
            _group(item, f"browser-{item.module.__name__}")
        elif item.module.__name__ in MODULE_GROUPS:
            _group(item, f"module-{item.module.__name__}")
        elif (shared := _shared_group(item)) is not None:
            _group(item, f"shared-{shared}")
    # only in an xdist worker (its collection is the schedule's): a plain run keeps the
    # modules in their order, each module's fixtures set up once
    if hasattr(config, "workerinput"):
        order = {id(item): k for k, item in enumerate(items)}
        items.sort(key=lambda item: (-_weight(item), order[id(item)]))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """The shared browser lives while browser tests that use it follow one another: it is
    closed before any other test (the rest of the suite runs without Playwright's driver and
    its event loop, as it did when each module closed its own browser), and before a browser
    module that starts Playwright itself (one Playwright a thread)."""
    helpers = sys.modules.get("tests.dashboard.browser_helpers")
    if helpers is None:
        return
    shares = getattr(item.module, "chromium", None) is helpers.chromium
    if item.get_closest_marker("browser") is None or not shares:
        helpers.close_chromium()


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """The Dask modules' shared cluster lives while their tests follow one another."""
    dask = sys.modules.get("tests.support.dask_cluster")
    if dask is not None and (nextitem is None or not nextitem.nodeid.startswith(dask.MODULES)):
        dask.close_shared_cluster()


def pytest_sessionfinish(session: pytest.Session) -> None:
    dask = sys.modules.get("tests.support.dask_cluster")
    if dask is not None:
        dask.close_shared_cluster()
    helpers = sys.modules.get("tests.dashboard.browser_helpers")
    if helpers is not None:
        helpers.close_chromium()
