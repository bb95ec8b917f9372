"""Sessions for the replay/audit/dossier tests, taken from the real sample file
``sample_logs/slovenian/appendix-b.json`` (the spec's Appendix B hands) and varied per test."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import orjson

from tarock_logs.log.models import Session, SessionAdapter

ROOT = Path(__file__).resolve().parents[2]
APPENDIX_B = ROOT / "sample_logs" / "slovenian" / "appendix-b.json"


def appendix_b_docs() -> dict[str, dict[str, Any]]:
    """The Appendix B sessions as JSON dicts, by session id (fresh copies)."""
    return {d["id"]: d for d in orjson.loads(APPENDIX_B.read_bytes())}


def b1_doc() -> dict[str, Any]:
    return copy.deepcopy(appendix_b_docs()["si-appendix-b1"])


def b2_doc() -> dict[str, Any]:
    return copy.deepcopy(appendix_b_docs()["si-appendix-b2"])


def session(doc: dict[str, Any]) -> Session:
    return SessionAdapter.validate_python(doc)


def first_play(doc: dict[str, Any], hand: int = 0) -> int:
    """The index of the hand's first ``play`` action."""
    acts = doc["hands"][hand]["actions"]
    return next(i for i, a in enumerate(acts) if a["type"] == "play")


def plant_b1_illegal_card(doc: dict[str, Any]) -> int:
    """B.1 with one illegal card: in trick 2 (P1 T15 led) P2 plays C7 instead of T7 while
    holding taroks, and plays T7 in trick 10 instead of C7 (legal there, and both tricks keep
    their winners and card points). Returns the index of the illegal action."""
    acts = doc["hands"][0]["actions"]
    fp = first_play(doc)
    trick2_p2 = fp + 5  # trick 2: P1 T15, P2 T7, ...
    trick10_p2 = fp + 9 * 4 + 1  # trick 10: P1 T10, P2 C7, ...
    assert acts[trick2_p2] == {"type": "play", "seat": 1, "card": "T7"}
    assert acts[trick10_p2] == {"type": "play", "seat": 1, "card": "C7"}
    acts[trick2_p2]["card"], acts[trick10_p2]["card"] = "C7", "T7"
    return trick2_p2
