"""The OpenSpiel comparison of ``tarock bench`` (``tarock_logs.bench.openspiel_comparison``):
its rounds go on until each side has run long enough, and it runs in a process of its own."""

from __future__ import annotations

import dataclasses

from tarock_logs.bench import BenchOptions, openspiel_comparison, openspiel_comparison_in_child

KEYS = {
    "openspiel_hands_per_s", "replay_vs_openspiel", "openspiel_full_length_hands",
    "openspiel_comparison_rounds", "our_replay_on_openspiel_set_hands_per_s",
    "openspiel_set_hands_not_clean", "replay_vs_openspiel_cpu",
    "engine_only_on_openspiel_set_hands_per_s", "engine_only_vs_openspiel",
}  # fmt: skip


def test_the_comparison_runs_rounds_until_each_side_has_run_long_enough() -> None:
    # a floor no side reaches: the rounds go on past ``repeat`` to the cap (in a new process,
    # as the bench runs it: a collection before each stage is cheap there)
    options = BenchOptions(
        openspiel_hands=4, repeat=2, short_stage_seconds=1000.0, max_short_rounds=5
    )
    found = openspiel_comparison_in_child(options)
    assert set(found) == KEYS
    assert found["openspiel_set_hands_not_clean"] == 0
    assert found["openspiel_full_length_hands"] > 0
    assert found["openspiel_comparison_rounds"] == 5
    assert found["replay_vs_openspiel"] > 0 and found["replay_vs_openspiel_cpu"] > 0
    # without a floor, exactly ``repeat`` rounds
    once = openspiel_comparison_in_child(dataclasses.replace(options, short_stage_seconds=0.0))
    assert once["openspiel_comparison_rounds"] == 2


def test_the_comparison_in_a_process_of_its_own_gives_the_same_games() -> None:
    options = BenchOptions(openspiel_hands=4, repeat=1, short_stage_seconds=0.0)
    child = openspiel_comparison_in_child(options)
    here = openspiel_comparison(options)
    assert set(child) == KEYS == set(here)
    for key in ("openspiel_full_length_hands", "openspiel_set_hands_not_clean",
                "openspiel_comparison_rounds"):  # fmt: skip
        assert child[key] == here[key]
