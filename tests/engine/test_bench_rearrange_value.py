"""`bench/rearrange_value.py` (issue 18): the games the Rearrange Hard bot's position value is learned from,
the fit, and the engine reading the same network the fit made."""

from __future__ import annotations

import doctest

import numpy as np

import bench.rearrange_value
from apps.engine.rearrange.bots.value import FACES, WIDTH
from bench.rearrange_value import COLUMNS, READ, SIZES, fit, log_loss, one_game, recipe


def test_the_docstrings_run_as_doctests() -> None:
    result = doctest.testmod(bench.rearrange_value)
    assert result.attempted and not result.failed


def test_every_position_of_a_game_is_labelled_by_whether_its_mover_won() -> None:
    for game in range(3):
        rows, results = one_game(7, game, explore=0.3)
        assert len(rows) == len(results) > 20
        assert all(row.shape == (COLUMNS,) for row in rows)
        # The last move went out: the rack it left is empty, and that mover won.
        assert rows[-1][2 * FACES] == 0.0 and results[-1] == 1.0
        # Two players move in turn: every other position is the winner's.
        assert results[::-1][::2] == [1.0] * len(results[::-1][::2])
        assert results[::-1][1::2] == [0.0] * len(results[::-1][1::2])
        # The table's faces sit between the rack's and the sizes, and count the table's tiles.
        assert rows[-1][FACES : 2 * FACES].sum() == round(rows[-1][2 * FACES + 3] * 100)
        assert one_game(7, game, explore=0.3)[1] == results  # seeded


def test_the_fit_finds_a_signal_and_not_noise() -> None:
    rng = np.random.default_rng(3)
    x = rng.normal(size=(6000, COLUMNS)).astype(np.float32)
    y = (rng.random(6000) < 1 / (1 + np.exp(-2 * x[:, 5]))).astype(np.float32)
    model = fit(x[:4000], y[:4000], hidden=8, epochs=40, seed=0)
    assert log_loss(model, x[4000:], y[4000:]) < 0.55 < np.log(2)
    low, high = np.zeros((1, COLUMNS), np.float32), np.zeros((1, COLUMNS), np.float32)
    high[0, 5] = 2.0
    assert model(high)[0] > model(low)[0] + 0.2
    # Fitted on the sizes alone, it cannot see the signal.
    blind = fit(x[:4000], y[:4000], hidden=8, epochs=10, seed=0, columns=SIZES)
    assert abs(float(blind(high)[0]) - float(blind(low)[0])) < 0.05


def test_the_engine_reads_the_network_the_recipe_fits() -> None:
    rows: list[np.ndarray] = []
    results: list[float] = []
    games: list[int] = []
    for game in range(12):
        game_rows, game_results = one_game(11, game, explore=0.2)
        rows += game_rows
        results += game_results
        games += [game] * len(game_rows)
    x, y, g = np.array(rows), np.array(results, np.float32), np.array(games)
    _, value = recipe(x, y, g, hidden=4, steps=3)
    shipped = value.shipped()
    assert len(shipped.mean) == WIDTH == len(READ)
    mine = value(x[:50])
    engine = [shipped([float(v) for v in row[READ]]) for row in x[:50]]
    assert np.allclose(mine, engine, atol=1e-4)
    assert not np.allclose(mine, mine[0])  # positions differ in value
