"""Tiles and their notation (SPEC section 2)."""

from __future__ import annotations

import pytest

from apps.engine.errors import InvalidMove
from apps.engine.tiles import (
    ALL_TILE_IDS,
    COLOURS,
    JOKER,
    JOKER_IDS,
    Tile,
    copies_problem,
    format_melds,
    full_set,
    ids_of,
    parse_melds,
    parse_tiles,
    tile_of,
    twin_of,
)


def test_there_are_106_tiles_each_face_twice_and_two_jokers() -> None:
    faces = [tile_of(tile) for tile in full_set()]
    assert len(faces) == 106
    assert faces.count(JOKER) == 2
    for colour in COLOURS:
        for number in range(1, 14):
            assert faces.count(Tile(colour, number)) == 2


@pytest.mark.parametrize("text", ["r5", "k13", "y1", "b10", "J"])
def test_a_face_round_trips_through_its_notation(text: str) -> None:
    assert str(Tile.parse(text)) == text


def test_every_face_round_trips_through_notation_key_and_repr() -> None:
    for tile_id in ALL_TILE_IDS:
        face = tile_of(tile_id)
        assert Tile.parse(str(face)) == face
        assert Tile.from_key(face.key) == face
        assert eval(repr(face), {"Tile": Tile}) == face  # noqa: S307 - the repr reads like the call


@pytest.mark.parametrize("text", ["x5", "r0", "r14", "r05", "5", "", "rr5", "JJ"])
def test_it_refuses_a_word_that_is_not_a_tile(text: str) -> None:
    with pytest.raises(InvalidMove, match="is not a tile"):
        Tile.parse(text)


def test_the_two_physical_copies_of_a_face_are_twins() -> None:
    for tile_id in ALL_TILE_IDS:
        twin = twin_of(tile_id)
        assert twin != tile_id
        assert tile_of(twin) == tile_of(tile_id)
        assert twin_of(twin) == tile_id
        assert tile_id in ids_of(tile_of(tile_id))


def test_the_twin_of_a_joker_is_the_other_joker() -> None:
    assert twin_of(JOKER_IDS[0]) == JOKER_IDS[1]
    assert ids_of(JOKER) == JOKER_IDS


def test_physical_ids_follow_the_documented_layout() -> None:
    # docs/record-format.md: colour index * 26 + (number - 1) * 2 + copy; jokers 104 and 105.
    assert tile_of(0) == Tile.parse("r1")
    assert tile_of(24) == Tile.parse("r13")
    assert tile_of(26) == Tile.parse("y1")
    assert tile_of(103) == Tile.parse("k13")
    assert tile_of(104) == JOKER


def test_it_refuses_a_tile_id_outside_0_to_105() -> None:
    with pytest.raises(InvalidMove, match="0-105"):
        tile_of(106)


def test_melds_round_trip_through_the_bar_notation() -> None:
    text = "r12 r13 r1 | r9 y9 J"  # SPEC section 2's examples
    assert format_melds(parse_melds(text)) == text
    assert parse_tiles("r5, k13 J") == [Tile.parse("r5"), Tile.parse("k13"), JOKER]
    assert parse_melds("  ") == []


def test_it_refuses_an_empty_meld_between_bars() -> None:
    with pytest.raises(InvalidMove, match="empty meld"):
        parse_melds("r1 r2 r3 | | k5 y5 b5")


def test_no_more_than_two_jokers_or_two_of_a_face_are_ever_in_play_at_once() -> None:
    # SPEC 2: 106 tiles, each face twice, two jokers.
    assert copies_problem(parse_tiles("J r5 J r5 k1")) is None
    assert copies_problem(parse_tiles("J J r5 J")) == "there are only two jokers in the game, not 3"
    assert copies_problem(parse_tiles("r5 y5 r5 r5")) == "there are only two of each tile in the game, not 3 r5"
