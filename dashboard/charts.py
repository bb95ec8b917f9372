"""The dashboard's charts as Vega-Lite specifications: a line per group, bars per category.

``st.line_chart`` and ``st.bar_chart`` build an Altair chart on every run and validate it
against the Vega-Lite JSON schema: ≈ 0.5 s of the server's CPU on the Players page's first
run (issue 18, docs/performance.md), more than its score-over-time query. The browser draws
the same thing from a plain specification, which :func:`line` and :func:`bar` hand to
``st.vega_lite_chart`` with the data (sent as Arrow, as the built-in charts do).
"""

from __future__ import annotations

from typing import Any

import streamlit as st


def _field(name: str) -> str:
    """A column name as a Vega-Lite field (a dot or bracket would otherwise nest)."""
    return name.replace("\\", "\\\\").replace(".", "\\.").replace("[", "\\[").replace("]", "\\]")


def line(data: Any, x: str, y: str, color: str, *, legend: str | None = None) -> None:
    """One line per value of ``color`` through (``x``, ``y``), with a tooltip per point."""
    spec = {
        "mark": {"type": "line", "point": False, "tooltip": True},
        "encoding": {
            "x": {"field": _field(x), "type": "quantitative", "title": x},
            "y": {"field": _field(y), "type": "quantitative", "title": y},
            "color": {"field": _field(color), "type": "nominal", "title": legend or color},
        },
    }
    st.vega_lite_chart(data, spec, width="stretch")


def bar(data: Any, x: str, y: str, *, x_label: str | None = None) -> None:
    """One bar per value of ``x`` (in the data's order), of height ``y``."""
    spec = {
        "mark": {"type": "bar", "tooltip": True},
        "encoding": {
            "x": {"field": _field(x), "type": "nominal", "sort": None, "title": x_label or x},
            "y": {"field": _field(y), "type": "quantitative", "title": y},
        },
    }
    st.vega_lite_chart(data, spec, width="stretch")
