"""Seeded random positions of the Rearrange game for the solver benchmark (and its tests).

A position is a legal table (20-80 tiles in random runs and groups) and a rack (5-20 tiles) drawn from
the tiles left. Jokers sometimes sit in the table's sets, sometimes on the rack, sometimes both.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from apps.engine.rearrange.melds import try_read_meld
from apps.engine.tiles import COLOURS, JOKER, Tile, format_melds, format_tiles


@dataclass(frozen=True)
class Position:
    seed: int
    table: tuple[tuple[Tile, ...], ...]
    rack: tuple[Tile, ...]

    @property
    def table_jokers(self) -> int:
        return sum(tile.is_joker for meld in self.table for tile in meld)

    @property
    def rack_jokers(self) -> int:
        return sum(tile.is_joker for tile in self.rack)

    def __str__(self) -> str:
        return f"--table {format_melds(self.table)!r} --rack {format_tiles(self.rack)!r}"


def _random_set(rng: random.Random, pool: Counter[Tile]) -> tuple[Tile, ...] | None:
    if rng.random() < 0.55:
        colour = rng.choice(COLOURS)
        length = rng.choice((3, 3, 3, 4, 4, 5, 6))
        start = rng.randint(1, 14 - length)
        tiles = tuple(Tile(colour, number) for number in range(start, start + length))
    else:
        number = rng.randint(1, 13)
        colours = rng.sample(COLOURS, rng.choice((3, 3, 4)))
        tiles = tuple(Tile(colour, number) for colour in colours)
    if any(pool[tile] < count for tile, count in Counter(tiles).items()):
        return None
    return tiles


def random_position(seed: int, table_size: tuple[int, int] = (20, 80), rack_size: tuple[int, int] = (5, 20)) -> Position:
    rng = random.Random(seed)
    pool: Counter[Tile] = Counter({Tile.from_key(key): 2 for key in range(53)})
    joker_mode = rng.random()
    table_joker_count = 0 if joker_mode < 0.65 else rng.choice((1, 1, 2))
    rack_joker_count = 0 if rng.random() < 0.7 else rng.choice((1, 1, 2))
    rack_joker_count = min(rack_joker_count, 2 - table_joker_count)
    target = rng.randint(*table_size)
    table: list[tuple[Tile, ...]] = []
    size = 0
    attempts = 0
    while size < target and attempts < 2000:
        attempts += 1
        tiles = _random_set(rng, pool)
        if tiles is None or size + len(tiles) > table_size[1]:
            continue
        if table_joker_count and pool[JOKER] > 2 - table_joker_count:
            at = rng.randrange(len(tiles))
            with_joker = tiles[:at] + (JOKER,) + tiles[at + 1 :]
            if try_read_meld(with_joker) is not None:
                tiles = with_joker
        pool.subtract(tiles)
        table.append(tiles)
        size += len(tiles)
    pool[JOKER] -= rack_joker_count
    left = [tile for tile in pool.elements() if not tile.is_joker]
    rng.shuffle(left)
    count = rng.randint(*rack_size)
    rack = [JOKER] * rack_joker_count + left[: count - rack_joker_count]
    rack.sort(key=lambda tile: tile.key)
    return Position(seed, tuple(table), tuple(rack))
