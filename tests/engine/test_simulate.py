"""The simulator (SPEC 9 `simulate`): mirror-paired bot-only games summarised in one JSON object."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from apps.engine.bots.simulate import percentile, simulate, winners_share
from apps.engine.cli import main
from apps.engine.errors import InvalidMove

TIMES = ("seconds_per_game", "games_per_second", "move_ms", "move_cpu_ms")


def without_times(summary: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in summary.items() if key not in TIMES}


def test_a_shared_first_place_counts_as_a_fraction_of_a_win() -> None:
    assert winners_share([10, 10]) == [0.5, 0.5]
    assert winners_share([5, 30, -10, 30]) == [0.0, 0.5, 0.0, 0.5]
    assert winners_share([-100, 40]) == [0.0, 1.0]


def test_percentiles_are_nearest_rank() -> None:
    values = [float(value) for value in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0


def test_each_deal_is_played_once_per_rotation_so_identical_bots_tie_exactly() -> None:
    summary = simulate("tile-rummy", ["easy", "easy"], 6, seed=4)
    assert summary["games"] == 6 and summary["deals"] == 3
    seats = summary["seats"]
    assert isinstance(seats, list)
    assert [seat["wins"] for seat in seats] == [3.0, 3.0]
    assert seats[0]["mean_score"] == seats[1]["mean_score"]


def test_games_are_rounded_up_to_whole_mirrored_deals_and_every_game_has_a_winner() -> None:
    summary = simulate("tile-rummy", ["easy", "easy", "easy"], 4, seed=1)
    assert summary["games"] == 6
    seats = summary["seats"]
    assert isinstance(seats, list)
    assert sum(seat["wins"] for seat in seats) == pytest.approx(6)


def test_the_same_seed_gives_the_same_figures() -> None:
    first = simulate("tile-rummy", ["easy", "easy"], 4, seed=9)
    assert without_times(first) == without_times(simulate("tile-rummy", ["easy", "easy"], 4, seed=9))
    assert without_times(first) != without_times(simulate("tile-rummy", ["easy", "easy"], 4, seed=10))


@pytest.mark.parametrize("game", ["tile-rummy", "tile-rummy-rearrange"])
def test_the_same_seed_gives_the_same_figures_in_another_process(game: str) -> None:
    # Another process hashes strings (and so tiles) differently: no bot decision may follow set order.
    def run(hash_seed: str) -> dict[str, object]:
        command = [sys.executable, "-m", "apps.engine", "simulate", "--game", game, "--bots", "hard,easy", "--games", "6", "--seed", "4"]
        root = Path(__file__).resolve().parents[2]
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(command, cwd=root, env=env, capture_output=True, text=True, check=True, timeout=120)
        return without_times(json.loads(done.stdout))

    assert run("1") == run("2")


def test_it_refuses_a_table_of_one_bot_or_an_unknown_level() -> None:
    with pytest.raises(InvalidMove, match="2-4 players"):
        simulate("tile-rummy", ["easy"], 2, seed=0)
    with pytest.raises(InvalidMove, match="no 'expert' bot"):
        simulate("tile-rummy", ["easy", "expert"], 2, seed=0)


def test_the_command_line_prints_one_json_object(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--game", "tile-rummy", "--bots", "easy,easy", "--games", "2", "--seed", "3"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["bots"] == ["easy", "easy"]
    assert set(summary) >= {"seats", "mean_turns", "seconds_per_game", "move_ms"}
    assert set(summary["move_ms"]["easy"]) == {"moves", "p50", "p99", "max"}
    assert main(["simulate", "--game", "tile-rummy", "--bots", "easy,nobody", "--games", "2"]) == 1
