"""The new table rebuilt from a search's plans (one a layer), and rack jokers kept in hand added to it at the
end."""

from __future__ import annotations

from apps.engine.rearrange.melds import read_meld, try_read_meld
from apps.engine.rearrange.solver.groups import _SPLITS, Group
from apps.engine.rearrange.solver.model import Faces, R, T, W, _memo
from apps.engine.rearrange.solver.moves import _OPTIONS
from apps.engine.tiles import JOKER, Tile

_FACES = tuple(Tile.from_key(key) for key in range(52))
_ALL_FACES = (*_FACES, JOKER)


def _build(plans: list[int]) -> tuple[tuple[Faces, ...], Faces]:
    """The new table (runs by colour and start, then groups by number) and the rack tiles placed, from the
    plan of every layer (`Found`)."""
    open_runs: list[list[tuple[int, list[Tile]]]] = [[] for _ in range(4)]
    runs: list[tuple[int, int, list[Tile]]] = []  # (colour, start, tiles)
    groups: list[Faces] = []
    placed: list[Tile] = []
    for layer, info in enumerate(plans):
        colour, number = layer % 5, layer // 5 + 1
        if colour == 4:  # the group step
            split = _SPLITS[info]
            for group in split:
                groups.append(_group_faces(group, number))
                placed.extend([JOKER] * sum(kind == W for _, kind in group))
            continue
        _, _, option_placed, _, option_jokers, _, _, extend, starts, order = _OPTIONS[info]
        if not extend and not starts and not option_placed:
            continue
        face = _FACES[colour * 13 + number - 1]
        sources: list[tuple[int, list[Tile]]] = []
        for (first, run), item in zip(open_runs[colour], extend, strict=True):
            if item is None:
                runs.append((colour, first, run))
            else:
                run.append(face if item in (T, R) else JOKER)
            sources.append((first, run))
        for item in starts:
            sources.append((number, [face if item in (T, R) else JOKER]))
        open_runs[colour] = [sources[source] for source in order]
        placed.extend([face] * option_placed + [JOKER] * option_jokers)
    for colour, colour_runs in enumerate(open_runs):
        runs.extend((colour, first, run) for first, run in colour_runs)
    runs.sort(key=lambda run: run[:2])
    table = tuple(tuple(run) for _, _, run in runs) + tuple(groups)
    return table, tuple(sorted(placed, key=lambda tile: tile.key))


def _add_jokers(table: tuple[Faces, ...], jokers: int) -> tuple[Faces, ...] | None:
    """The table with `jokers` more jokers added to its sets (a run's end, else its start; a group of 3),
    or None when they do not fit."""
    sets = [tuple(faces) for faces in table]
    for _ in range(jokers):
        for index, faces in enumerate(sets):
            kind = read_meld(faces).kind
            for candidate in ((*faces, JOKER), (JOKER, *faces)):
                grown = try_read_meld(candidate)
                if grown is not None and grown.kind == kind:  # what the other tiles stand for is unchanged
                    sets[index] = candidate
                    break
            else:
                continue
            break
        else:
            return None
    return tuple(sets)


@_memo
def _group_faces(group: Group, number: int) -> Faces:
    real = sorted(colour for colour, kind in group if kind in (T, R))
    return _group_tiles(tuple(_FACES[colour * 13 + number - 1] for colour in real), len(group) - len(real), number)


def _group_tiles(faces: Faces, jokers: int, number: int) -> Faces:
    """A group of `faces` (one number, colours in order) and `jokers`, in an order that reads as a group.

    >>> from apps.engine.tiles import parse_tiles
    >>> [" ".join(map(str, _group_tiles(tuple(parse_tiles(face)), 2, number))) for face, number in (("r1", 1), ("r2", 2), ("r12", 12))]
    ['J r1 J', 'J J r2', 'r12 J J']
    """
    if len(faces) == 1 and number == 1:
        return (JOKER, faces[0], JOKER)  # `r1 J J` would read as the run 1-2-3
    if len(faces) == 1 and number == 2:
        return (JOKER, JOKER, faces[0])  # `r2 J J` and `J r2 J` would read as runs
    return faces + (JOKER,) * jokers


# --- the public functions ---------------------------------------------------------------------------------


# Colour index by the colour's id (the members of an enum are singletons): cheaper than `Tile.key`, which
