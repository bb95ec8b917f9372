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
    """One line per value of ``color`` through (``x``, ``y``), with a tooltip per point.

    ``x`` counts something (sessions, games): its ticks are whole numbers. Every line has its
    entry in the legend (no cut after the first few), in columns under the chart (a phone's
    width stays the chart's), and a colour of its own from
    a 20-colour scheme (the default ten repeat with more players); clicking an entry shows
    that line alone (shift-click adds one), the others faded."""
    pick = "pick"
    spec = {
        "mark": {"type": "line", "point": False, "tooltip": True},
        # the whole chart's height (Streamlit fits the legend into it): the plot's 260 px,
        # the axis title, and a line of the legend per two entries
        "height": 320 + 20 * ((_distinct(data, color) + 1) // 2),
        "params": [{"name": pick, "select": {"type": "point", "fields": [color]},
                    "bind": "legend"}],
        "encoding": {
            "x": {
                "field": _field(x), "type": "quantitative", "title": x,
                "axis": {"format": "d", "tickMinStep": 1},
            },
            "y": {"field": _field(y), "type": "quantitative", "title": y},
            "color": {
                "field": _field(color), "type": "nominal", "title": legend or color,
                "scale": {"scheme": "category20"},
                "legend": {"symbolLimit": 0, "columns": 2, "labelLimit": 140, "orient": "bottom"},
            },
            "opacity": {"condition": {"param": pick, "value": 1}, "value": 0.15},
        },
    }  # fmt: skip
    st.vega_lite_chart(data, spec, width="stretch")


def _distinct(data: Any, column: str) -> int:
    """How many different values ``column`` of ``data`` (a polars or pandas frame) holds."""
    try:
        return int(data[column].n_unique())
    except (AttributeError, KeyError, TypeError):
        try:
            return int(data[column].nunique())
        except (AttributeError, KeyError, TypeError):
            return 10


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
