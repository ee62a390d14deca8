"""`bench/variants.py` (issue 18): its shipped row is the simulator's figure, its variants are the shipped bot
with weights replaced, and the deals split over processes give the same games."""

from __future__ import annotations

import doctest

import pytest

import bench.variants
from apps.engine.bots.simulate import simulate
from apps.engine.house.bots.hard import HardHouseBot
from bench.variants import compare, hard_bot, main, run


def test_the_shipped_row_is_the_simulators_figure():
    for game, slug, against in (("house", "tile-rummy", "easy"), ("rearrange", "tile-rummy-rearrange", "easy")):
        shares, cpu = run(game, against, 2, 3, 4, {}, 1)
        assert len(shares) == 4 and cpu
        assert sum(shares) == simulate(slug, ["hard", against], 4, 3)["seats"][0]["wins"]


def test_processes_play_the_same_games_in_the_same_order():
    one, _ = run("house", "easy", 2, 5, 6, {"take_margin": 0}, 1)
    two, _ = run("house", "easy", 2, 5, 6, {"take_margin": 0}, 2)
    assert one == two


def test_a_variant_replaces_only_the_weights_it_names():
    bot = hard_bot("house", {"take_factor": 2.0})
    assert isinstance(bot, HardHouseBot)
    assert bot.weights.take_factor == 2.0
    assert bot.weights.take_margin == HardHouseBot().weights.take_margin
    with pytest.raises(ValueError, match="has no weight nope"):
        hard_bot("rearrange", {"nope": 1})


def test_a_misspelt_weight_stops_before_any_game(capsys):
    assert main(["--game", "house", "--games", "2", "--variant", '{"take_fctor": 2}']) == 2
    assert "has no weight take_fctor" in capsys.readouterr().err


def test_changed_games_are_counted_both_ways():
    assert compare([1, 0, 0.5], [1, 0, 0.5]) == (0, 0, 0, 0)
    assert compare([0, 0, 1], [1, 0.5, 0]) == (3, 0.5, 2, 1)


def test_the_docstrings_run_as_doctests():
    result = doctest.testmod(bench.variants)
    assert result.attempted and not result.failed
