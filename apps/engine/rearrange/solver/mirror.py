"""A problem seen from the other end: every number n becomes 14 - n.

A run read backwards is a run, a group stays a group, and a table joker stands for the mirrored faces at the
mirrored number, so the plays of the mirrored problem, mirrored back, are exactly the plays of the problem,
worth the same when the weights are mirrored too. The search builds the table number by number from 1 up,
and on some positions that costs ten times what the other direction costs, either way round (measured on
`bench/solver.py`'s positions: bench/README.md): `strategy._walked` lets the two place-everything walks
race, and the search goes on in the direction whose walk settles first. Only for a player who has opened:
an opening's points depend on the numbers."""

from __future__ import annotations

from dataclasses import replace

from apps.engine.rearrange.melds import read_meld
from apps.engine.rearrange.solver.build import _FACES, _group_tiles
from apps.engine.rearrange.solver.model import Faces
from apps.engine.rearrange.solver.search import _Problem, _TableJoker
from apps.engine.tiles import Tile


def _flip_key(key: int) -> int:
    """The mirrored face key (colour * 13 + number - 1; 52, the joker, stays).

    >>> _flip_key(0), _flip_key(12), _flip_key(13 + 4), _flip_key(52)
    (12, 0, 21, 52)
    """
    return key if key == 52 else key - key % 13 + 12 - key % 13


def _flip_tile(tile: Tile) -> Tile:
    return tile if tile.is_joker else _FACES[_flip_key(tile.key)]


def _flip_row(row: list[int]) -> list[int]:
    """A [number] row of tile counts, mirrored (index 0 and 14-15 unused).

    >>> _flip_row([0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0])
    [0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0]
    """
    return [row[0], *row[13:0:-1], *row[14:]]


def mirrored(problem: _Problem) -> _Problem:
    """The problem with every number n as 14 - n (for a player who has opened)."""
    return replace(
        problem,
        table=[_flip_row(row) for row in problem.table],
        rack=[_flip_row(row) for row in problem.rack],
        table_jokers=[
            _TableJoker(frozenset(_flip_key(key) for key in joker.faces), 14 - joker.number) for joker in problem.table_jokers
        ],
        weight=[problem.weight[_flip_key(key)] for key in range(53)],
    )


def unmirrored(table: tuple[Faces, ...], placed: Faces) -> tuple[tuple[Faces, ...], Faces]:
    """A play of the mirrored problem (its table and placed tiles) as a play of the problem: runs read
    backwards, groups laid out for their real number; runs by colour and start, then groups by number.

    >>> from apps.engine.tiles import format_melds, format_tiles, parse_melds, parse_tiles
    >>> table, placed = unmirrored(tuple(map(tuple, parse_melds("J J r2 | J r1 J | k12 J J | b3 b4 J | r3 r4 r5"))), tuple(parse_tiles("r2 b4 J")))
    >>> format_melds(table), format_tiles(placed)
    ('r9 r10 r11 | J b10 b11 | J J k2 | r12 J J | r13 J J', 'r12 b10 J')
    """
    runs: list[tuple[int, int, Faces]] = []
    groups: list[tuple[int, Faces]] = []
    for faces in table:
        meld = read_meld(faces)
        tiles = tuple(map(_flip_tile, faces))
        if meld.kind == "run":
            assert meld.colour is not None
            run = tiles[::-1]
            runs.append((meld.colour.index, 15 - meld.start - len(run), run))
        else:
            number = 14 - meld.start
            real = tuple(sorted((tile for tile in tiles if not tile.is_joker), key=lambda tile: tile.key))
            groups.append((number, _group_tiles(real, len(tiles) - len(real), number)))
    runs.sort(key=lambda run: run[:2])
    groups.sort(key=lambda group: group[0])
    return (
        tuple(run for _, _, run in runs) + tuple(group for _, group in groups),
        tuple(sorted(map(_flip_tile, placed), key=lambda tile: tile.key)),
    )
