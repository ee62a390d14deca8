"""Move notation of the house game: every move round-trips through its notation, its dict form and its repr."""

from __future__ import annotations

import pytest

from apps.engine import game
from apps.engine.errors import InvalidMove
from apps.engine.house import RULES
from apps.engine.house import moves as house_moves
from apps.engine.house.moves import Discard, Lay, LayOff, TakeDiscard, TakeJoker, parse_move
from apps.engine.tiles import Tile

NOTATIONS = [
    "draw",
    "take r3 r4 r5",
    "lay r1 r2 r3 | k10 y10 b10",
    "lay r9 y9 J",
    "add 2 r8",
    "add 2 r4 ..",
    "add 0 r4 .. r8 r9",
    "joker 2 r6",
    "joker 1 b9 k9",
    "discard r5",
    "discard J",
    "timeout",
    "auto",
    "back",
    "leave",
]


@pytest.mark.parametrize("text", NOTATIONS)
def test_a_move_round_trips_through_its_notation_and_dict_form(text: str) -> None:
    move = parse_move(text)
    assert str(move) == text
    assert parse_move(move.to_dict()) == move
    assert parse_move({"move": text}) == move
    assert RULES.parse_move(text) == move


@pytest.mark.parametrize("text", NOTATIONS)
def test_a_moves_repr_reads_like_the_call_that_makes_it(text: str) -> None:
    move = parse_move(text)
    names = {**vars(house_moves), **vars(game), "Tile": Tile}
    assert eval(repr(move), names) == move  # noqa: S307


def test_the_dict_forms_name_their_fields() -> None:
    assert parse_move("add 2 r4 .. r8").to_dict() == {"type": "add", "meld": 2, "before": ["r4"], "after": ["r8"]}
    assert LayOff(2, (), (Tile.parse("r8"),)) == parse_move({"type": "add", "meld": 2, "after": ["r8"]})
    assert Lay(((Tile.parse("r1"), Tile.parse("r2"), Tile.parse("r3")),)).to_dict() == {"type": "lay", "melds": [["r1", "r2", "r3"]]}
    assert TakeDiscard.from_fields({"meld": ["r3", "r4", "r5"]}) == parse_move("take r3 r4 r5")
    assert TakeJoker(1, (Tile.parse("b9"), Tile.parse("k9"))) == parse_move({"type": "joker", "meld": 1, "tiles": ["b9", "k9"]})
    assert Discard(Tile.parse("k13")).to_dict() == {"type": "discard", "tile": "k13"}


def test_the_notation_is_forgiving_about_case_and_spaces() -> None:
    assert str(parse_move("  DRAW ")) == "draw"
    assert str(parse_move("lay r1 r2 r3|k10 y10 b10")) == "lay r1 r2 r3 | k10 y10 b10"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("jump", "is not a move"),
        ("draw now", "takes nothing after it"),
        ("discard", "exactly one tile"),
        ("discard r5 r6", "exactly one tile"),
        ("lay", "write the melds"),
        ("lay r1 r2 r3 | | r5 r6 r7", "empty meld"),
        ("add x r5", "named by its number"),
        ("add 2", "write the tiles"),
        ("add 2 r4 .. r5 .. r6", "'..' once"),
        ("joker 2", "replaces the joker"),
        ("take r1 r2 | r3 r4 r5", "exactly one meld"),
        ("discard x5", "is not a tile"),
        ({"type": "warp"}, "'type' must be one of"),
        ({"type": "discard"}, "not a well-formed 'discard' move"),
        ({"type": "discard", "tile": 5}, "'tile' is a face"),
        ({"type": "lay", "melds": "r1 r2 r3"}, "'melds' is a list"),
        ({"type": "add", "meld": True, "after": ["r5"]}, "named by its number"),
        (["draw"], "is not a move"),
    ],
)
def test_it_refuses_malformed_moves_with_a_message_quoting_them(data: object, message: str) -> None:
    with pytest.raises(InvalidMove, match=message):
        parse_move(data)  # type: ignore[arg-type]
