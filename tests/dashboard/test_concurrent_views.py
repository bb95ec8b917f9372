"""Page runs side by side while a game's engine is still being imported.

The server imports a game's engine package on first use, in whichever page run asks first
(``tarock_logs.rules.get_engine``). A run that asked meanwhile found the package half
initialised in ``sys.modules`` (its ``ENGINE`` not bound yet) and was told the game had no
engine: the replay's stored steps came out empty ("This hand could not be replayed"), cached
for the server's life by ``dashboard.state``'s ``_replay``, and the Players and Tournament
pages named the game by its id (seen in Chromium with four tabs opened at once,
tests/dashboard/test_lockdown_browser.py's pages). Here the import is held at a known point
in a fresh interpreter (this process has the engines imported already) while another thread
asks the dashboard for the game's title and a hand's view.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.dashboard.dash_helpers import DashDB

ROOT = Path(__file__).resolve().parents[2]

#: run in a fresh interpreter with the store's path as argv[1]: the engine's package is
#: imported by a thread that is held inside the import (the package is in sys.modules, its
#: ENGINE not yet bound) for up to HOLD seconds or until the main thread has its answers;
#: the main thread meanwhile reads the game's title and a hand's view the way a page run
#: does (dashboard.state, its caches), then once more after the import has finished
_SCRIPT = r"""
import importlib, importlib.abc, json, os, sys, threading, time

os.environ["TAROCK_DB"] = sys.argv[1]
sys.argv = sys.argv[:1]
import logging
logging.getLogger("streamlit").setLevel(logging.ERROR)
from dashboard import state, view_model as vm
from tarock_logs.store.read.queries import connect_reader

PKG = "tarock_logs.rules.slovenian"
assert PKG not in sys.modules, "the engine was imported already"
HOLD = 3.0
con = connect_reader(sys.argv[1] if len(sys.argv) > 1 else os.environ["TAROCK_DB"])
(hand_id,), *_ = con.execute(  # a played hand (cards dealt, actions), of the most actions
    "SELECT h.hand_id FROM hands h JOIN action_rows r USING (hand_key) "
    "WHERE CAST(h.game AS VARCHAR) = 'slovenian' AND h.timeline IS NOT NULL "
    "GROUP BY h.hand_id ORDER BY count(*) DESC, h.hand_id LIMIT 1"
).fetchall()
con.close()

importing, answered = threading.Event(), threading.Event()


class Hold(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == PKG + ".engine":  # the package's first line: PKG is half initialised
            importing.set()
            answered.wait(HOLD)
        return None


sys.meta_path.insert(0, Hold())
importer = threading.Thread(target=importlib.import_module, args=(PKG,))
importer.start()
assert importing.wait(60), "the import did not start"
assert isinstance(sys.modules.get(PKG), type(sys)) and not hasattr(sys.modules[PKG], "ENGINE")
t0 = time.monotonic()
title = vm.game_name("slovenian")
view = state.hand_view(hand_id)
waited = time.monotonic() - t0
answered.set()
importer.join()
again = state.hand_view(hand_id)
print(json.dumps({
    "title": title,
    "steps": len(view.steps), "actions": len(view.actions),
    "steps_again": len(again.steps), "unverified": view.unverified,
    "waited": round(waited, 2),
    "engine_title": sys.modules[PKG].ENGINE.title,
}))
"""


def test_a_page_run_waits_for_an_engine_another_run_is_importing(dash_db: DashDB) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    env.pop("TAROCK_DB", None)
    out = subprocess.run(
        [sys.executable, "-c", _SCRIPT, str(dash_db.path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    got = json.loads(out.stdout.strip().splitlines()[-1])
    # every action's step and the deal's, not "This hand could not be replayed"
    assert got["actions"] > 0, got
    assert got["steps"] == got["actions"] + 1, got
    # and the view the server keeps for the hand is the whole one
    assert got["steps_again"] == got["actions"] + 1, got
    # the game's own name, not its id, while the engine was being imported
    assert got["title"] == got["engine_title"], got
