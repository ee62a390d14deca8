"""The Glicko-2 module against the worked example of Glickman's paper ("Example of the Glicko-2 system",
section "Example calculation"): a player rated 1500 (RD 200, volatility 0.06) plays 1400/30, 1550/100 and
1700/300, winning the first and losing the others, with tau 0.5."""

from __future__ import annotations

import pytest

from apps.engine.puzzles.glicko2 import Rating, attempt, expected_score, rate


def test_it_reproduces_the_papers_example() -> None:
    player = Rating(1500, 200, 0.06)
    results = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]
    after = rate(player, results, tau=0.5)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.deviation == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = rate(Rating(1500, 200, 0.06), [])
    assert after.rating == 1500
    assert 200 < after.deviation < 201


def test_a_solved_puzzle_raises_the_player_and_lowers_the_puzzle() -> None:
    player, puzzle = attempt(Rating(), Rating(), solved=True)
    assert player.rating > 1500 > puzzle.rating
    assert player.deviation < 350 and puzzle.deviation < 350
    player, puzzle = attempt(Rating(), Rating(), solved=False)
    assert player.rating < 1500 < puzzle.rating


def test_a_stronger_player_is_expected_to_solve_more() -> None:
    assert expected_score(Rating(1700, 60), Rating(1500, 60)) > 0.5 > expected_score(Rating(1300, 60), Rating(1500, 60))
