"""The solver's tail work (issue 18): table jokers that may be freed, checked against the brute force.

Two table jokers can share one start (keep the first and free the second, or the other way round, decided
at the first number either stands at). These positions are where that shortcut could go wrong: freeing is
the only optimum, the joker worth freeing is the earlier or the later one, or both share one set."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.rearrange.solver import cells, search, solve, strategy
from apps.engine.rearrange.solver.search import Found, _Problem, _Walk
from apps.engine.rearrange.solver.strategy import _Play
from apps.engine.tiles import JOKER, Tile, format_tiles, parse_melds, parse_tiles
from tests.engine.rearrange_brute import best_score
from tests.engine.test_solver import Faces, assert_legal, corner_position, corner_sets


def best(table: str, rack: str) -> tuple[str, int]:
    melds, tiles = parse_melds(table), parse_tiles(rack)
    found = solve(melds, tiles)
    assert found is not None
    assert_legal(melds, tiles, found)
    assert found.score == best_score(melds, tiles)
    return format_tiles(found.placed), found.score


def test_two_freed_jokers_may_share_one_set_with_two_rack_tiles() -> None:
    for table in ("r4 J r6 | k7 k8 J", "k7 k8 J | r4 J r6"):
        placed, _ = best(table, "r5 k9 y1 y2")  # r4 r5 r6 | k7 k8 k9 | y1 y2 J J
        assert placed == "r5 y1 y2 k9"
        assert solve(parse_melds(table), parse_tiles("r5 k9 y1 y2"), free_jokers=False) is None


def test_two_freed_jokers_may_each_start_a_run_at_the_same_number() -> None:
    # Each joker stands for r1; freed by an r1 each, each goes into r1 r2 r3 J r5, whose rack tiles are
    # r1 and r5: two runs that become the freed jokers' sets at the same cell (found by Hypothesis).
    assert best("J r2 r3 | J r2 r3", "r1 r1 r5 r5")[0] == "r1 r1 r5 r5"
    assert best("J r2 r3 | J r2 r3 | b7 b8 b9", "r1 r1 r5 r5")[0] == "r1 r1 r5 r5"
    assert solve(parse_melds("J r2 r3 | J r2 r3"), parse_tiles("r1 r1 r5 r5"), free_jokers=False) is None


def test_a_freed_joker_s_run_may_start_where_the_other_freed_joker_s_group_is() -> None:
    # r1 and b1 free both jokers; one goes into y5 k5 J, the other into r5 r6 r7 r8 J r10, whose first rack
    # tile r5 is at the number that hosts the group.
    placed, _ = best("J r2 r3 | J b2 b3 | r6 r7 r8", "r1 b1 y5 k5 r5 r10")
    assert placed == "r1 r5 r10 y5 b1 k5"


def test_of_two_table_jokers_it_frees_the_earlier_one_when_only_that_pays() -> None:
    assert best("r4 J r6 | k7 k8 J", "r5 y11 y12 b13")[0] == "r5 y11 y12"
    assert best("r4 J r6 | b7 k7 J", "r5 k9 y1 y3")[0] == "r5 y1 y3"


def test_of_two_table_jokers_it_frees_the_later_one_when_only_that_pays() -> None:
    assert best("r4 J r6 | k7 k8 J", "k9 y11 y12 b1")[0] == "y11 y12 k9"
    assert best("k7 k8 J | r4 J r6", "k9 y11 y12 b1")[0] == "y11 y12 k9"


def test_it_frees_both_jokers_when_each_gets_its_set() -> None:
    placed, _ = best("r4 J r6 | k7 k8 J", "r5 k9 y1 y2 b11 b12")
    assert placed == "r5 y1 y2 b11 b12 k9"


def test_with_a_rack_joker_it_frees_a_table_joker_when_that_is_best() -> None:
    # Kept, the table joker leaves b9 without a place (r10 r11 r12 r13 and J go); freed, b9 J J is a set.
    table, rack = "b6 b7 b8 J | r11 y11 k11 b11", "b9 r10 r12 r13 J"
    placed, score = best(table, rack)
    assert placed == "r10 r12 r13 b9 J"
    kept = solve(parse_melds(table), parse_tiles(rack), free_jokers=False)
    assert kept is not None and len(kept.placed) == 4 and kept.score < score


# Positions where no play places the whole rack and the first play (table jokers kept, rack jokers added at
# the end if they fit) leaves two tiles, and the best play leaves only the lightest: by freeing a table
# joker, or (the fourth) by placing the rack joker in a set (found among small random positions of
# `bench/positions.py`).
LEAVE_LIGHTEST = [
    ("J b10 y10 k10 | k13 r13 y13 | k10 b10 y10 | r1 r2 r3 r4", "r1 r9 r10", "r9 r10"),
    ("J y3 y4 | J k5 r5", "r2 y2 y2 b1 b2", "r2 y2 y2 b2"),
    ("y8 y9 y10 J | r11 b11 k11 | b2 b3 b4 | b13 r13 y13 k13", "r9 y11 y13 k1 k6", "y11 y13"),
    ("b12 J r12 | b9 b10 b11 b12 | b7 b8 b9 b10 b11", "y10 b4 b6 k12 J", "y10 b6 k12 J"),
    ("J b13 y13 | J y1 k1 b1", "r1 b12 k1 k12", "r1 b12 k12"),
    ("y13 k13 J | b9 J b11 b12 | b5 b6 b7 b8", "r13 b6 b9 k2", "r13 b6 b9"),
]


@pytest.mark.parametrize(("table", "rack", "placed"), LEAVE_LIGHTEST)
def test_a_play_leaving_only_the_lightest_tile_is_found_by_a_walk_and_is_the_best(
    table: str, rack: str, placed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    walked: list[bool] = []
    leave_lightest = strategy._leave_lightest

    def spy(problem: _Problem, lightest: int) -> _Play | None:
        found = leave_lightest(problem, lightest)
        walked.append(found is not None)
        return found

    monkeypatch.setattr(strategy, "_leave_lightest", spy)
    found, score = best(table, rack)
    assert found == placed
    assert walked == [True]
    kept = solve(parse_melds(table), parse_tiles(rack), free_jokers=False)
    assert kept is not None and (kept.score == score) == ("J" in rack.split())


@pytest.mark.parametrize(("table", "rack", "placed"), LEAVE_LIGHTEST)
def test_after_a_walk_that_gives_up_the_search_from_two_tiles_finds_the_best(
    table: str, rack: str, placed: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The place-everything walk gives up only on big tables: here it is made to give up at once, so that
    the search without freeing starts at two tiles' budget and the full search decides."""
    firsts: list[int] = []
    search_best = strategy._best

    def spy(problem: _Problem, first: int = 0, walk: _Walk | None = None, known: int | None = None) -> Found | None:
        firsts.append(first)
        return search_best(problem, first, walk, known)

    monkeypatch.setattr(search, "PLACE_ALL_STEPS", 1)
    monkeypatch.setattr(strategy, "_best", spy)
    best(table, rack)  # legal, and as good as the brute force's best
    assert firsts[0] == 2


def test_the_order_of_work_keeps_its_examples() -> None:
    result = doctest.testmod(strategy)
    assert result.attempted >= 1 and result.failed == 0


def test_the_cells_keep_their_examples() -> None:
    result = doctest.testmod(cells)
    assert result.attempted >= 1 and result.failed == 0


@st.composite
def two_joker_positions(draw: st.DrawFn) -> tuple[list[Faces], list[Tile]]:
    """A table of two sets holding a joker each, maybe one more set, and a rack of 2-4 tiles, in a corner of
    5 numbers and 2-3 colours; often the tiles the jokers stand for are on the rack."""
    corner, left = corner_sets(draw)
    with_joker = [meld for meld in corner if meld.count(JOKER) == 1]
    plain = [meld for meld in corner if JOKER not in meld]
    melds = [draw(st.sampled_from(with_joker)), draw(st.sampled_from(with_joker)), *draw(st.lists(st.sampled_from(plain), max_size=1))]
    return corner_position(draw, melds, left, min_rack=2)


@pytest.mark.parametrize("steps", [search.PLACE_ALL_STEPS, 1], ids=["as shipped", "a walk that gives up at once"])
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=two_joker_positions())
def test_with_two_table_jokers_the_solver_places_as_much_as_a_brute_force_search(
    steps: int, position: tuple[list[Faces], list[Tile]]
) -> None:
    """Also with the place-everything walk giving up at once (it does only on big tables), so that the
    searches from two tiles' budget decide."""
    table, rack = position
    shipped = search.PLACE_ALL_STEPS
    search.PLACE_ALL_STEPS = steps
    try:
        found = solve(table, rack)
    finally:
        search.PLACE_ALL_STEPS = shipped
    if found is not None:
        assert_legal(table, rack, found)
    assert (None if found is None else found.score) == best_score(table, rack)
