"""A suggested play: what the review shows beside a turn and what a hint shows the player.

`moves` are the moves of the rest of the turn, in the order to make them (the Rearrange game: one play
or a draw; the house game: a draw or the take of the last discard, jokers taken, new melds, lay-offs,
the discard). `placed` are the tiles of the player's hand that go to the table; `tiles` and `points`
what the play is worth to the review: the tiles it places from the hand, net of jokers it takes back
from the table, and their points (the Rearrange game: face value, a joker 30; the house game: what each
tile would cost on the rack, 2-9: 5, 10-13: 10, 1: 25, a joker 50). `table` is the table the play leaves
(the Rearrange game's target table; the house game's melds after it).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from apps.engine.game import JSON, Move
from apps.engine.tiles import Tile

Faces = tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Suggestion:
    moves: tuple[Move, ...]
    placed: Faces
    tiles: int
    points: int
    table: tuple[Faces, ...] = ()

    @property
    def worth(self) -> tuple[int, int]:
        """How plays compare: more tiles placed first, then more points."""
        return (self.tiles, self.points)

    @property
    def notation(self) -> str:
        """The moves in notation, separated by '; ' (a move's own notation uses '|' between melds)."""
        return notation(self.moves)

    def to_dict(self) -> JSON:
        return {
            "moves": [str(move) for move in self.moves],
            "play": self.notation,
            "placed": [str(tile) for tile in self.placed],
            "tiles": self.tiles,
            "points": self.points,
            "table": [[str(tile) for tile in meld] for meld in self.table],
        }


def notation(moves: Sequence[Move]) -> str:
    return "; ".join(str(move) for move in moves)


class Placed(NamedTuple):
    """What a turn put on the table from the hand: how many tiles (net of jokers taken back), their
    points, and the faces that left the hand (in rack order)."""

    tiles: int
    points: int
    faces: Faces


def gone_from(start: Sequence[Tile], end: Sequence[Tile]) -> Faces:
    """The tiles of a hand that was `start` and is `end` that left it, in the order of `start`."""
    gone = Counter(start) - Counter(end)
    faces = []
    for tile in start:
        if gone[tile]:
            gone[tile] -= 1
            faces.append(tile)
    return tuple(faces)
