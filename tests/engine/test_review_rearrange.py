"""The Rearrange game's best play for the review and hints (apps/engine/rearrange/review.py): Hypothesis
against the brute-force search (tests/engine/rearrange_brute.py) on small positions, from the seat's
view; and the turns the review judges."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from apps.engine.game import get_rules
from apps.engine.rearrange.positions import position
from apps.engine.rearrange.review import JUDGE, TILE_WEIGHT
from apps.engine.review import hint
from apps.engine.review.turns import Turn
from apps.engine.tiles import Tile, format_melds, format_tiles, parse_tiles
from tests.engine.rearrange_brute import best_score
from tests.engine.test_solver import small_positions

Faces = tuple[Tile, ...]
RULES = get_rules("tile-rummy-rearrange")


def judged(table: list[Faces], rack: list[Tile], *, opened: bool) -> tuple[int, int]:
    """(tiles, points) of the best play the review finds for a turn starting from seat 0's view."""
    state = position([format_tiles(rack), ""], table=format_melds(table), opened=[0] if opened else [])
    view = RULES.view_for(state, 0)
    turn = Turn(0, 0, 0, (RULES.parse_move("draw"),), (view,), view)
    best = JUDGE.best(turn)
    assert best is not None
    assert (best.tiles, best.points) == (hint(view).tiles, hint(view).points)  # the hint is the same search
    if best.tiles:
        RULES.apply(state, 0, best.moves[0])  # and it is a legal play
    return best.tiles, best.points


def brute(table: list[Faces], rack: list[Tile], *, opened: bool) -> tuple[int, int]:
    score = best_score(table, rack, opened=opened)
    return (0, 0) if score is None else divmod(score, TILE_WEIGHT)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_the_reviews_best_play_places_as_much_as_a_brute_force_search(position_: tuple[list[Faces], list[Tile]]) -> None:
    table, rack = position_
    assert judged(table, rack, opened=True) == brute(table, rack, opened=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_before_opening_the_reviews_best_play_is_the_best_opening_of_a_brute_force_search(
    position_: tuple[list[Faces], list[Tile]],
) -> None:
    table, rack = position_
    on_table = [tile for meld in table for tile in meld]
    rack = rack + [tile for tile in parse_tiles("k11 k12 k13") if tile not in rack and on_table.count(tile) < 2][: 6 - len(rack)]
    assert judged(table, rack, opened=False) == brute([], rack, opened=False)
