"""The house game's best turn (apps/engine/house/review.py): literal positions in notation, each hint
played through the engine's own `apply`; then Hypothesis against a brute-force search of every sequence
of moves on small positions (tests/engine/house_brute.py)."""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.engine.house import RULES
from apps.engine.house.melds import rack_penalty, try_read_meld
from apps.engine.house.positions import position
from apps.engine.house.review import TILE, Position, best_play
from apps.engine.house.state import HouseState
from apps.engine.review import Suggestion, hint
from apps.engine.tiles import COLOURS, JOKER, Tile, format_tiles, tile_of
from tests.engine.house_brute import best_worth, hand_worth


def state_of(rack: str, melds: Sequence[str] = (), **options: object) -> HouseState:
    """Seat 0 to play, its rack `rack`; the melds were laid by seat 1 (which holds nothing)."""
    options.setdefault("opened", [0, 1])
    return position([rack, ""], melds=[(1, meld) for meld in melds], **options)  # type: ignore[arg-type]


def hinted(state: HouseState) -> Suggestion:
    """The hint for seat 0, checked: its moves are legal one after another, end the turn (or the game)
    unless the hint is to draw, and take off the rack exactly what the hint says they are worth."""
    found = hint(RULES.view_for(state, 0))
    hand = [tile_of(tile) for tile in state.racks[0]]
    after = state
    for move in found.moves:
        after = RULES.apply(after, 0, move)
    if found.notation != "draw":
        assert RULES.to_move(after) != 0 or RULES.is_over(after)
        left = [tile_of(tile) for tile in after.racks[0]] + [tile_of(after.discards[-1])]
        if found.moves[0].kind == "take":
            hand.append(tile_of(state.discards[-1]))
        assert hand_worth(hand) - hand_worth(left) == found.tiles * TILE + found.points
    return found


def test_it_opens_with_every_meld_it_can() -> None:
    found = hinted(state_of("r9 r10 r11 r12 r13 b3 b4 b5 k1 y7", opened=[1]))
    assert found.notation == "lay r9 r10 r11 r12 r13 | b3 b4 b5; discard k1"
    assert (found.tiles, found.points) == (8, 60)


def test_before_opening_it_lays_nothing_short_of_45_with_a_run() -> None:
    # Four 1s make 100 points, but an opening needs a run.
    found = hinted(state_of("r1 y1 b1 k1 y9 b4", opened=[1]))
    assert found.notation == "discard r1" and found.tiles == 0


def test_on_the_turn_it_opens_it_lays_more_melds_but_lays_nothing_off() -> None:
    state = state_of("r8 b3 b4 b5 y2", ["r9 r10 r11 r12 r13"], opened=[1], opened_this_turn=[0])
    assert hinted(state).notation == "lay b3 b4 b5; discard r8"


def test_it_lays_off_at_both_ends_of_a_run_and_a_missing_colour_of_a_set() -> None:
    found = hinted(state_of("r4 r8 r9 r9 k2", ["r5 r6 r7", "k9 y9 b9"]))
    assert found.notation == "add 0 r4 .. r8 r9; add 1 r9; discard k2"
    assert found.tiles == 4


def test_it_takes_a_joker_and_plays_it_again_in_a_new_meld() -> None:
    found = hinted(state_of("r6 b11 b12 y3", ["r5 J r7"]))
    assert [move.kind for move in found.moves] == ["joker", "lay", "discard"]
    assert str(found.moves[0]) == "joker 0 r6" and str(found.moves[-1]) == "discard y3"
    assert (found.tiles, found.points) == (3, 25)  # r6, b11, b12 and the joker, less the joker taken


def test_a_joker_in_a_three_tile_set_is_taken_with_both_missing_colours() -> None:
    found = hinted(state_of("b9 k9 r1 r2 y5", ["r9 y9 J"]))
    assert str(found.moves[0]) == "joker 0 b9 k9" and found.tiles == 4


def test_it_always_keeps_a_tile_to_discard_and_goes_out_with_it() -> None:
    state = state_of("r8 r9", ["r5 r6 r7"])
    assert hinted(state).notation == "add 0 r8; discard r9"
    after = state
    for move in hint(RULES.view_for(state, 0)).moves:
        after = RULES.apply(after, 0, move)
    assert after.out == 0


def test_it_suggests_taking_the_last_discard_when_that_places_more_than_drawing() -> None:
    state = state_of("y5 y6 k2 b11", ["r5 r6 r7"], phase="draw", discards="y7", discard_open=True)
    found = hinted(state)
    assert found.notation == "take y5 y6 y7; discard b11" and found.tiles == 3


def test_it_suggests_drawing_when_the_last_discard_goes_into_no_meld() -> None:
    state = state_of("y5 k2 b11", ["r5 r6 r7"], phase="draw", discards="y7", discard_open=True)
    assert hinted(state).notation == "draw"


def test_an_unopened_seat_in_the_draw_phase_is_told_to_draw() -> None:
    state = state_of("y5 y6 k2 b11", ["r5 r6 r7"], opened=[1], phase="draw", discards="y7", discard_open=True)
    assert hinted(state).notation == "draw"


# --- Hypothesis: small positions against the brute force ---------------------------------------------------------


@st.composite
def small_positions(draw: st.DrawFn) -> HouseState:
    """Seat 0 has opened on an earlier turn: a table of up to two melds (runs of 3-4, sets of 3, a joker
    in some) and a rack of 2-5 tiles, in a corner of 4 numbers and 2 colours, so that the tiles meet."""
    low = draw(st.integers(1, 10))
    colours = draw(st.lists(st.sampled_from(COLOURS), min_size=2, max_size=2, unique=True))
    faces = [Tile(colour, number) for colour in colours for number in range(low, low + 4)]
    left = {face: 2 for face in faces}
    left[JOKER] = 2
    melds: list[str] = []
    for _ in range(draw(st.integers(0, 2))):
        if draw(st.booleans()):
            colour, start = draw(st.sampled_from(colours)), draw(st.integers(low, low + 1))
            tiles = [Tile(colour, number) for number in range(start, start + draw(st.integers(3, 4)) ) if number <= 13]
        else:
            number = draw(st.integers(low, low + 3))
            tiles = [Tile(colour, number) for colour in COLOURS[:3]]
        if draw(st.booleans()):
            tiles[draw(st.integers(0, len(tiles) - 1))] = JOKER
        if try_read_meld(tiles) is None or any(left.get(tile, 0) < tiles.count(tile) for tile in tiles):
            continue
        for tile in tiles:
            left[tile] -= 1
        melds.append(format_tiles(tiles))
    rack: list[Tile] = []
    for tile in draw(st.lists(st.sampled_from([*faces, JOKER]), min_size=2, max_size=5)):
        if left.get(tile, 0):
            left[tile] -= 1
            rack.append(tile)
    if len(rack) < 2:
        rack += [Tile(colours[0], 13 if low < 9 else 2)] * (2 - len(rack))
    other = next(colour for colour in COLOURS if colour not in colours)
    return state_of(format_tiles(rack), melds, indicator=f"{other.value}7")


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_positions())
def test_the_search_places_as_much_as_a_brute_force_search(state: HouseState) -> None:
    found = best_play(Position(tuple(tile_of(tile) for tile in state.racks[0]), tuple(meld.faces for meld in state.melds), True, True))
    assert found.tiles * TILE + found.points == best_worth(state, 0)
    hinted(state)  # and the hint (the same search) is legal and worth what it says


def test_rack_points_are_what_a_tile_would_cost_on_the_rack() -> None:
    assert [rack_penalty(Tile.parse(face)) for face in ("r5", "k12", "y1", "J")] == [5, 10, 25, 50]
