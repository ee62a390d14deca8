"""The solver's mirrored direction (issue 18): every number n read as 14 - n, searched, and read back.

The strategy searches the mirrored problem when its place-everything walk settles before the problem's own
(`strategy._walked`); on small positions the first walk settles at once, so these tests force the mirror and
check it against the brute force, and check the race on a big position where the mirror is the one taken."""

from __future__ import annotations

import doctest
from collections.abc import Callable, Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.rearrange.solver import build, mirror, solve, strategy
from apps.engine.rearrange.solver.mirror import mirrored
from apps.engine.rearrange.solver.search import _Problem, _Walk
from apps.engine.tiles import Tile, format_tiles, parse_melds, parse_tiles
from tests.engine.rearrange_brute import best_score
from tests.engine.test_solver import Faces, assert_legal, assert_the_best_under, small_positions
from tests.engine.test_solver_tail import two_joker_positions


def _walked_one_way(mirror: bool) -> Callable[[_Problem], tuple[_Problem, _Walk, bool]]:
    """A stand-in for `strategy._walked` that always takes one direction (the mirror when `mirror`)."""

    def walked(problem: _Problem) -> tuple[_Problem, _Walk, bool]:
        searched = mirrored(problem) if mirror else problem
        walk = _Walk(searched)
        walk.place_all()
        return searched, walk, mirror

    return walked


@pytest.fixture
def mirror_always() -> Iterator[None]:
    """Every solve searches the mirrored problem (a fixture of the function, not `monkeypatch`: Hypothesis
    runs many examples in one call of the test)."""
    shipped = strategy._walked
    strategy._walked = _walked_one_way(True)
    try:
        yield
    finally:
        strategy._walked = shipped


def test_the_mirror_and_the_group_layout_keep_their_examples() -> None:
    for module in (mirror, build):
        result = doctest.testmod(module)
        assert result.attempted >= 1 and result.failed == 0


@pytest.mark.parametrize(
    ("table", "rack", "placed"),
    [
        ("r3 r4 r5", "r6 r2", "r2 r6"),  # a run read backwards and back
        ("r12 y12 b12", "r13 k13 J", "r13 k13 J"),  # the joker makes a group of 13s: `r13 k13 J`
        ("r1 r2 r3 | y2 b2 k2", "J J r12", "r12 J J"),  # one tile and two jokers: a group of 12s
        ("k6 J k8 | b5 b6 b7", "k7 y9 y10 y11", "y9 y10 y11 k7"),  # a table joker freed by k7
    ],
)
def test_a_play_of_the_mirrored_problem_reads_back_as_a_play_of_the_problem(
    table: str, rack: str, placed: str, mirror_always: None
) -> None:
    melds, tiles = parse_melds(table), parse_tiles(rack)
    found = solve(melds, tiles)
    assert found is not None
    assert_legal(melds, tiles, found)
    assert format_tiles(found.placed) == placed
    assert found.score == best_score(melds, tiles)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(position=small_positions(), weights=st.dictionaries(st.sampled_from([Tile.from_key(key) for key in range(53)]), st.integers(-5, 40)))
def test_searched_mirrored_the_play_is_legal_and_the_best(
    position: tuple[list[Faces], list[Tile]], weights: dict[Tile, int], mirror_always: None
) -> None:
    assert_the_best_under(weights, *position)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(position=two_joker_positions())
def test_searched_mirrored_two_table_jokers_place_as_much_as_the_brute_force(
    position: tuple[list[Faces], list[Tile]], mirror_always: None
) -> None:
    table, rack = position
    found = solve(table, rack)
    if found is not None:
        assert_legal(table, rack, found)
    assert (None if found is None else found.score) == best_score(table, rack)


# Seed 323 of `bench/positions.py`: two table jokers at 7. Its own walk neither finds a play that places
# everything nor proves there is none within two rounds; the mirrored walk proves it at once, and the search
# that follows costs a tenth of the other direction's.
BIG_TABLE = (
    "k6 J k8 | y7 J r7 | k6 y6 r6 | r3 r4 r5 | k7 r7 b7 y7 | k10 y10 r10 | b9 r9 k9 | y9 k9 r9 | y10 k10 b10 | "
    "b2 b3 b4 b5 | b5 k5 y5 r5 | b6 b7 b8 b9 | k1 k2 k3 k4 | y6 r6 b6 | r4 k4 y4 b4 | y3 r3 k3 b3 | y12 r12 b12 | "
    "b13 r13 y13 k13"
)
BIG_RACK = "r1 r2 r2 r11 y1 y4 y8 y8 y9 y12 b1 b2 b11 b13 k1 k7"


def test_the_race_of_the_walks_takes_the_mirror_where_it_settles_first(monkeypatch: pytest.MonkeyPatch) -> None:
    melds, tiles = parse_melds(BIG_TABLE), parse_tiles(BIG_RACK)
    taken: list[bool] = []
    race = strategy._walked

    def spy(problem: _Problem) -> tuple[_Problem, _Walk, bool]:
        found = race(problem)
        taken.append(found[2])
        return found

    monkeypatch.setattr(strategy, "_walked", spy)
    found = solve(melds, tiles)
    assert taken == [True]
    assert found is not None
    assert_legal(melds, tiles, found)

    monkeypatch.setattr(strategy, "_walked", _walked_one_way(False))
    ahead = solve(melds, tiles)
    assert ahead is not None
    assert (found.score, len(found.placed)) == (ahead.score, 15)
