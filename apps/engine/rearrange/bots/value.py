"""A learned value of two-player Rearrange positions (issue 18): how likely the player who just moved is to
win, from what that player sees. The Hard bot plays the candidate whose position it rates best.

The weights (`value.json`, beside this module) are a small network (67 features, 16 tanh units,
a logistic output) fitted by `bench/rearrange_value.py` on whole games of the fast policy (the solver's most
tiles) with random draws and held-back tiles mixed in; bench/README.md says how it was trained and what it
measured. Evaluated in pure Python: a few thousand multiplications a position.

The features of a position, from the side of the player who left it (`features`): its rack's faces (how
many of each of the 53 faces), then the rack's size (counting a tile just drawn), the other rack's size, the
pool, the tiles on the table, whether it drew, who has opened, its jokers and face value, how many of its
tiles the solver could place next turn on the table it left (table jokers kept), its near pairs (same
colour, one or two apart; same number, other colour), and whether either rack is down to 4 tiles. A draw is
rated before the drawn tile is known: the rack without it, one tile larger.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from apps.engine.rearrange.bots.view import Faces
from apps.engine.rearrange.melds import rack_value
from apps.engine.rearrange.solver import solve

Table = tuple[Faces, ...]
FACES = 53  # 52 numbered faces (`Tile.key`) and the joker
WIDTH = FACES + 14
WEIGHTS = Path(__file__).with_name("value.json")


def features(rack: Faces, table: Table, drew: bool, other: int, pool: int, opened: tuple[bool, bool]) -> list[float]:
    """The position a player left, from its side: `rack` as it stands (before a tile it drew), `other` the
    other rack's size, `pool` the tiles left to draw, `opened` its own and the other's.

    >>> from apps.engine.tiles import Tile, parse_tiles
    >>> row = features(tuple(parse_tiles("r5 r6 b6 J")), (tuple(parse_tiles("k1 k2 k3")),), True, 9, 40, (True, False))
    >>> len(row) == WIDTH, row[Tile.parse("r5").key], row[FACES - 1], row[FACES:FACES + 5]
    (True, 1.0, 1.0, [0.35714285714285715, 0.6428571428571429, 0.5, 0.03, 1.0])
    >>> row[FACES + 7:FACES + 12]  # a joker, 47 points, 3 it could place next (r5 r6 J), r5 r6 near, r6 b6 alike
    [1.0, 0.47, 0.6, 0.2, 0.2]
    """
    row = [0.0] * WIDTH
    for tile in rack:
        row[tile.key] += 1
    tiles = sum(len(meld) for meld in table)
    later = solve(table, rack, free_jokers=False) if rack and opened[0] and table else None
    keys = {tile.key for tile in rack if not tile.is_joker}  # colour * 13 + number - 1
    near = sum(1 for key in keys for step in (1, 2) if key % 13 + step < 13 and key + step in keys)
    same = sum(1 for key in keys for twin in keys if key < twin and key % 13 == twin % 13)
    size = len(rack) + drew
    row[FACES:] = [
        size / 14,
        other / 14,
        pool / 80,
        tiles / 100,
        float(drew),
        float(opened[0]),
        float(opened[1]),
        float(sum(1 for tile in rack if tile.is_joker)),
        sum(rack_value(tile) for tile in rack) / 100,
        0.0 if later is None else len(later.placed) / 5,
        near / 5,
        same / 5,
        float(size <= 4),
        float(other <= 4),
    ]
    return row


@dataclass(frozen=True, slots=True)
class PositionValue:
    """The network: standardised features -> tanh units -> a logit."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    hidden: tuple[tuple[float, ...], ...]  # one row of WIDTH weights per unit
    hidden_bias: tuple[float, ...]
    out: tuple[float, ...]
    out_bias: float

    def __call__(self, row: Sequence[float]) -> float:
        """The chance that the player who left this position wins."""
        z = [(value - mean) / scale for value, mean, scale in zip(row, self.mean, self.scale, strict=True)]
        total = self.out_bias
        for weights, bias, out in zip(self.hidden, self.hidden_bias, self.out, strict=True):
            total += out * math.tanh(bias + sum(w * x for w, x in zip(weights, z, strict=True) if x))
        return 1 / (1 + math.exp(-total))

    def as_json(self) -> dict[str, object]:
        return {
            "mean": list(self.mean),
            "scale": list(self.scale),
            "hidden": [list(row) for row in self.hidden],
            "hidden_bias": list(self.hidden_bias),
            "out": list(self.out),
            "out_bias": self.out_bias,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> PositionValue:
        def floats(values: object) -> tuple[float, ...]:
            assert isinstance(values, list)
            return tuple(float(value) for value in values)

        hidden = data["hidden"]
        assert isinstance(hidden, list)
        value = cls(
            floats(data["mean"]),
            floats(data["scale"]),
            tuple(floats(row) for row in hidden),
            floats(data["hidden_bias"]),
            floats(data["out"]),
            float(data["out_bias"]),  # type: ignore[arg-type]  # a JSON value; float() refuses one that is not a number
        )
        if len(value.mean) != WIDTH or len(value.scale) != WIDTH or any(len(row) != WIDTH for row in value.hidden):
            raise ValueError(f"A Rearrange position value reads {WIDTH} features")
        if not len(value.hidden) == len(value.hidden_bias) == len(value.out):
            raise ValueError("A Rearrange position value has as many output weights and biases as hidden units")
        return value


@cache
def shipped_value() -> PositionValue:
    """The weights in the repository (`value.json`), read once."""
    return PositionValue.from_json(json.loads(WEIGHTS.read_text())["value"])
