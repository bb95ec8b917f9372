"""The charts read (issue 33, "Statistics"): sessions counted in whole numbers on the axis, every
player in the legend (under the chart, so a phone keeps the chart's width), 20 colours, a
legend entry that picks its line, and room for the legend in the chart's height."""

from __future__ import annotations

from typing import Any

import polars as pl
import pytest

from dashboard import charts


def test_a_line_chart_of_21_players_names_each_one_and_counts_sessions_in_whole_numbers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn: list[dict[str, Any]] = []
    monkeypatch.setattr(charts.st, "vega_lite_chart", lambda data, spec, **_: drawn.append(spec))
    data = pl.DataFrame(
        {
            "session": [1, 2] * 21,
            "score": list(range(42)),
            "name": [f"p{i // 2}" for i in range(42)],
        }
    )
    charts.line(data, x="session", y="score", color="name", legend="player")
    (spec,) = drawn
    enc = spec["encoding"]
    assert enc["x"]["axis"] == {"format": "d", "tickMinStep": 1}
    assert enc["color"]["legend"]["symbolLimit"] == 0  # no entry cut
    assert enc["color"]["legend"]["orient"] == "bottom"
    assert enc["color"]["scale"]["scheme"] == "category20"
    assert spec["params"][0]["bind"] == "legend"
    assert spec["height"] >= 320 + 20 * 11  # the plot and eleven lines of legend
