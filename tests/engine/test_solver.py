"""The exact table solver of the Rearrange game (issue 4, SPEC 9 `solve`): literal positions, then
Hypothesis against a brute-force search on small random positions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.rearrange.melds import read_meld
from apps.engine.rearrange.solver import TILE_WEIGHT, Solution, default_weight, solve, solve_opening
from apps.engine.rearrange.validate import check_play
from apps.engine.tiles import COLOURS, JOKER, Tile, format_tiles, parse_melds, parse_tiles
from tests.engine.rearrange_brute import best_score, every_set

Faces = tuple[Tile, ...]


def solved(table: str, rack: str, **options: object) -> Solution | None:
    found = solve(parse_melds(table), parse_tiles(rack), **options)  # type: ignore[arg-type]
    if found is not None:
        assert_legal(parse_melds(table), parse_tiles(rack), found)
    return found


def assert_legal(table: Sequence[Sequence[Tile]], rack: Sequence[Tile], found: Solution) -> None:
    """The play passes the game's own check, and the new table is the old one plus the placed tiles."""
    check = check_play(table, rack, found.table, opened=True)
    assert check.placed == found.placed
    before = Counter(tile for meld in table for tile in meld)
    assert Counter(tile for meld in found.table for tile in meld) == before + Counter(found.placed)


def text(tiles: Sequence[Tile]) -> str:
    return format_tiles(tiles)


# --- literal positions --------------------------------------------------------------------------------------------


def test_it_places_nothing_when_no_tile_fits() -> None:
    assert solved("r5 r6 r7", "k1 y9") is None


def test_it_extends_a_run_at_both_ends() -> None:
    found = solved("r5 r6 r7", "r4 r8 k1")
    assert found is not None and text(found.placed) == "r4 r8"


def test_it_rebuilds_the_table_to_place_a_tile() -> None:
    # Seed 004 "Combined split": the rack's r1 with y1 from a run and k1 from a group of four.
    found = solved("y1 y2 y3 y4 | k1 b1 y1 r1", "r1")
    assert found is not None and text(found.placed) == "r1"


def test_it_places_the_whole_rack_when_the_table_allows() -> None:
    found = solved("r1 r2 r3 r4 r5 r6 | y4 y5 y6 | b4 b5 b6", "r4 k4 k5 k6")
    assert found is not None and len(found.placed) == 4


def test_it_prefers_more_tiles_then_more_face_value() -> None:
    # One joker: r1 r2 J or J r12 r13 (three tiles either way); the 12 and 13 are worth more.
    found = solved("", "r1 r2 r12 r13 J")
    assert found is not None and text(found.placed) == "r12 r13 J"
    assert found.score == 3 * TILE_WEIGHT + 12 + 13 + 30 and found.value == 55


def test_it_keeps_back_the_tiles_it_is_told_to_keep() -> None:
    found = solved("", "r1 r2 r12 r13 J", keep=parse_tiles("r13"))
    assert found is not None and text(found.placed) == "r1 r2 J"


def test_it_follows_the_weights_it_is_given() -> None:
    weights = {Tile.parse("r12"): 1, Tile.parse("r13"): 1}
    found = solved("", "r1 r2 r12 r13 J", weights=weights)
    assert found is not None and text(found.placed) == "r1 r2 J"


def test_a_negative_weight_keeps_a_tile_unless_it_pays_for_itself() -> None:
    found = solved("r5 r6 r7", "r8 J", weights={JOKER: -1})
    assert found is not None and text(found.placed) == "r8"


def test_it_frees_a_joker_with_the_tile_it_stands_for_and_two_rack_tiles() -> None:
    found = solved("r4 J r6", "r5 k7 k8")
    assert found is not None and text(found.placed) == "r5 k7 k8"


def test_it_does_not_free_a_joker_with_a_tile_from_the_table() -> None:
    # Moving the table's r5 into the joker's place would free it for k7 k8: the rules forbid it.
    assert solved("r4 J r6 | r5 y5 b5 k5", "k7 k8") is None


def test_it_does_not_play_a_freed_joker_without_two_rack_tiles() -> None:
    # r4 r5 r6 | k7 k8 k9 k10 J would place r5 too, but the freed joker's set holds one rack tile only.
    found = solved("r4 J r6 | k7 k8 k9", "r5 k10")
    assert found is not None and text(found.placed) == "k10"


def test_it_uses_a_freed_joker_to_place_more_tiles() -> None:
    # Kept, the joker leaves b9 and r10 r12 r13 without a place; freed, it joins them.
    found = solved("b6 b7 b8 J | r11 y11 k11 b11", "b9 r10 r12 r13")
    assert found is not None and text(found.placed) == "r10 r12 r13 b9"


def test_it_handles_two_jokers_on_the_table() -> None:
    found = solved("r4 J r6 | k1 k2 J", "r5 y9 b9")
    assert found is not None and len(found.placed) == 3


def test_of_two_jokers_at_one_number_it_frees_either_one() -> None:
    # Both jokers stand at one number (a run's and a group's, or two groups'): keeping one and freeing the
    # other can be the same play as the other way round, which the solver then tries only once.
    for table, rack in (
        ("k6 J k8 | y7 J r7", "k7 b5 b6"),
        ("k6 J k8 | y7 J r7", "k7 k9 k10"),
        ("y5 J b5 | k5 J r5", "r5 y6 y7"),
        ("r4 J r6 | y5 J b5", "r5 k5 k6 k7"),
    ):
        found = solved(table, rack)
        assert found is not None and found.score == best_score(parse_melds(table), parse_tiles(rack))


def test_one_tile_and_two_jokers_stay_a_group_of_2s() -> None:
    # Found by the brute-force comparison: `J J y2` is a group (no run reads it), so r2 may leave the group.
    found = solved("r2 y2 J J", "r1 r3")
    assert found is not None and text(found.placed) == "r1 r3"


def test_it_adds_a_rack_joker_where_it_fits() -> None:
    found = solved("r5 r6 r7", "J")
    assert found is not None and text(found.placed) == "J"


# --- the opening ------------------------------------------------------------------------------------------------


def test_the_opening_needs_30_from_the_rack() -> None:
    assert solve_opening(parse_tiles("r9 y9 b9 k1")) is None
    found = solve_opening(parse_tiles("r10 y10 b10 k1"))
    assert found is not None and found.opening_points == 30 and text(found.placed) == "r10 y10 b10"


def test_the_opening_counts_jokers_as_what_they_stand_for() -> None:
    found = solve_opening(parse_tiles("r11 y11 J k2"))
    assert found is not None and found.opening_points == 33


def test_the_opening_leaves_the_table_as_it_was() -> None:
    table = parse_melds("r5 r6 r7 | y2 b2 k2")
    found = solve_opening(parse_tiles("r8 k11 k12 k13"), table)
    assert found is not None and text(found.placed) == "k11 k12 k13"  # r8 would touch a set on the table
    assert [list(meld) for meld in found.table[:2]] == [list(meld) for meld in table]
    assert check_play(table, parse_tiles("r8 k11 k12 k13"), found.table, opened=False).opening_points == 36


def test_the_opening_places_as_many_tiles_as_it_can() -> None:
    found = solve_opening(parse_tiles("r1 r2 r3 r4 y13 b13 k13 J"))
    assert found is not None and len(found.placed) == 8


# --- Hypothesis: small random positions against the brute force --------------------------------------------------


def corner_sets(draw: st.DrawFn) -> tuple[list[Faces], Counter[Tile]]:
    """A corner of 5 numbers and 2-3 colours (so that the tiles meet): its sets of up to 4 tiles, and its
    tiles (two of each face, two jokers)."""
    low = draw(st.integers(1, 9))
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=2, max_size=3, unique=True))
    numbers = range(low, low + 5)

    def inside(meld: Faces) -> bool:
        return len(meld) <= 4 and all(tile.is_joker or (tile.number in numbers and tile.colour in colours) for tile in meld)

    tiles: Counter[Tile] = Counter({Tile(colour, number): 2 for colour in colours for number in numbers})
    tiles[JOKER] = 2
    return [meld for meld in every_set() if inside(meld)], tiles


def corner_position(
    draw: st.DrawFn, melds: list[Faces], left: Counter[Tile], *, min_rack: int
) -> tuple[list[Faces], list[Tile]]:
    """The table of those of `melds` the corner's tiles (`left`) still hold, and a rack of `min_rack`-4
    tiles from what is left."""
    table: list[Faces] = []
    for meld in melds:
        if not Counter(meld) - left:
            left -= Counter(meld)
            table.append(meld)
    faces = sorted(left, key=lambda tile: tile.key)
    rack: list[Tile] = []
    for tile in draw(st.lists(st.sampled_from(faces), min_size=min_rack, max_size=4)):
        if left[tile]:
            left[tile] -= 1
            rack.append(tile)
    return table, rack


@st.composite
def small_positions(draw: st.DrawFn) -> tuple[list[Faces], list[Tile]]:
    """A legal table of up to 3 sets and a rack of 1-4 tiles, in a corner of 5 numbers and 2-3 colours
    (so that the tiles meet), jokers sometimes on either side."""
    corner, left = corner_sets(draw)
    return corner_position(draw, draw(st.lists(st.sampled_from(corner), max_size=3)), left, min_rack=1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_the_solver_places_as_much_as_a_brute_force_search(position: tuple[list[Faces], list[Tile]]) -> None:
    table, rack = position
    found = solve(table, rack)
    if found is not None:
        assert_legal(table, rack, found)
    assert (None if found is None else found.score) == best_score(table, rack)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_the_best_opening_matches_a_brute_force_search(position: tuple[list[Faces], list[Tile]]) -> None:
    _, rack = position
    rack = rack + [tile for tile in parse_tiles("k11 k12 k13") if tile not in rack][: 6 - len(rack)]
    found = solve_opening(rack)
    if found is not None:
        assert found.opening_points is not None and found.opening_points >= 30
        assert sum(read_meld(meld).points for meld in found.table) == found.opening_points
        assert sorted(tile.key for meld in found.table for tile in meld) == sorted(tile.key for tile in found.placed)
    assert (None if found is None else found.score) == best_score([], rack, opened=False)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions(), st.dictionaries(st.sampled_from([Tile.from_key(key) for key in range(53)]), st.integers(-5, 40)))
def test_whatever_the_weights_the_play_is_legal_and_the_best(
    position: tuple[list[Faces], list[Tile]], weights: dict[Tile, int]
) -> None:
    assert_the_best_under(weights, *position)


def assert_the_best_under(weights: dict[Tile, int], table: list[Faces], rack: list[Tile]) -> None:
    """The solver's play under these weights is legal, worth what it says, and the brute force's best."""
    found = solve(table, rack, weights=weights)
    if found is not None:
        assert_legal(table, rack, found)
        assert found.score == sum(weights.get(tile, default_weight(tile)) for tile in found.placed) > 0
    assert (None if found is None else found.score) == best_score(table, rack, weights=weights)
