"""What the UI and the bots need to know about a position of the house game, without trying moves blindly:
the melds a rack can make, the opening value of a selection and what it lacks, where a tile can be laid
off, which jokers can be taken and with what, and in which melds the last discard can be taken.

Every move these functions return is legal in the position they were given (the tests check it by
applying them).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from itertools import combinations

from apps.engine.house.melds import MAX_RUN, Meld, MeldKind, OpeningCheck, opening_check, read_meld, try_read_meld
from apps.engine.house.moves import Lay, LayOff, TakeDiscard, TakeJoker
from apps.engine.house.play import opened_before_this_turn
from apps.engine.house.state import HouseState, Phase
from apps.engine.tiles import COLOURS, JOKER, Tile, tile_of


def rack_faces(state: HouseState, seat: int) -> list[Tile]:
    return [tile_of(tile) for tile in state.racks[seat]]


# Faces built once: the helpers run in the bots' inner loops. _RUN_FACES[colour][rank], rank 1-14 (14: a 1 after 13).
_RUN_FACES: tuple[tuple[Tile, ...], ...] = tuple(
    (JOKER, *(Tile(colour, rank if rank <= 13 else 1) for rank in range(1, 15))) for colour in COLOURS
)
_SET_FACES: tuple[tuple[Tile, ...], ...] = tuple(
    tuple(Tile(colour, number) for colour in COLOURS) if number else () for number in range(14)
)


def _run_face(colour_index: int, rank: int) -> Tile:
    return _RUN_FACES[colour_index][rank]


def melds_from_rack(rack: Iterable[Tile]) -> list[Meld]:
    """Every meld the rack can make on its own, each once: runs (every start and length; a joker fills a
    gap or an end, never replaces a tile the rack holds) and sets (every choice of colours, with a joker for
    one missing colour when the rack has one)."""
    counts = Counter(rack)
    jokers = counts[JOKER]
    found: list[Meld] = []
    for colour_index, colour in enumerate(COLOURS):
        if not any(tile.colour is colour for tile in counts):
            continue
        for start in range(1, 13):
            faces: list[Tile] = []
            used_jokers = 0
            for rank in range(start, min(start + MAX_RUN, 15)):
                face = _run_face(colour_index, rank)
                if counts[face]:
                    faces.append(face)
                elif used_jokers < jokers and not (faces and faces[-1].is_joker):
                    faces.append(JOKER)
                    used_jokers += 1
                else:
                    break
                if len(faces) >= 3:
                    meld = try_read_meld(faces)
                    if meld is not None:
                        found.append(meld)
    for number in range(1, 14):
        present = [face for face in _SET_FACES[number] if counts[face]]
        for size in (3, 4):
            for chosen in combinations(present, size):
                found.append(read_meld(chosen))
        if jokers:
            for size in (2, 3):
                for chosen in combinations(present, size):
                    found.append(read_meld((*chosen, JOKER)))
    return _unique(found)


def _unique(melds: Iterable[Meld]) -> list[Meld]:
    seen: set[tuple[Tile, ...]] = set()
    unique = []
    for meld in melds:
        if meld.tiles not in seen:
            seen.add(meld.tiles)
            unique.append(meld)
    return unique


def opening_of(selection: Sequence[Sequence[Tile]]) -> OpeningCheck:
    """The opening value of the melds a player has assembled, whether it opens and what is missing.
    Raises IllegalMove (naming the rule) if one of them is not a meld."""
    return opening_check(read_meld(meld) for meld in selection)


def find_opening(rack: Sequence[Tile], limit: int = 20000) -> tuple[Meld, ...] | None:
    """Disjoint melds from the rack that open (>= 45 with a run) and keep a tile to discard, or None.
    A depth-first search over `melds_from_rack`, richest melds first, that stops at the first opening found
    (or after `limit` steps)."""
    candidates = sorted(melds_from_rack(rack), key=lambda meld: -meld.points)
    counts = Counter(rack)
    total_tiles = len(rack)
    steps = 0

    def search(at: int, chosen: list[Meld], used: int, points: int, has_run: bool) -> tuple[Meld, ...] | None:
        nonlocal steps
        if points >= 45 and has_run:
            return tuple(chosen)
        for index in range(at, len(candidates)):
            steps += 1
            if steps > limit:
                return None
            meld = candidates[index]
            if used + len(meld.tiles) >= total_tiles:
                continue
            need = Counter(meld.tiles)
            if any(counts[face] < amount for face, amount in need.items()):
                continue
            counts.subtract(need)
            chosen.append(meld)
            result = search(index + 1, chosen, used + len(meld.tiles), points + meld.points, has_run or meld.kind is MeldKind.RUN)
            chosen.pop()
            counts.update(need)
            if result is not None:
                return result
        return None

    return search(0, [], 0, 0, False)


def opening_move(state: HouseState, seat: int) -> Lay | None:
    """An opening the seat can lay now, if it has one (see `find_opening`)."""
    if state.opened_on[seat] is not None or state.phase is not Phase.PLAY or seat != state.turn:
        return None
    melds = find_opening(rack_faces(state, seat))
    return None if melds is None else Lay(tuple(meld.tiles for meld in melds))


def lay_off_spots(table: Sequence[Sequence[Tile]], tile: Tile) -> list[LayOff]:
    """Where `tile` can be laid off on these table melds (index in the list = meld number): each legal
    (meld, end) once; a set's tile goes after it."""
    spots: list[LayOff] = []
    for index, faces in enumerate(table):
        meld = read_meld(faces)
        if meld.kind is MeldKind.SET:
            if try_read_meld((*meld.tiles, tile)) is not None:
                spots.append(LayOff(index, (), (tile,)))
            continue
        assert meld.colour is not None
        colour_index = COLOURS.index(meld.colour)
        if tile.is_joker or (meld.start > 1 and tile == _run_face(colour_index, meld.start - 1)):
            if try_read_meld((tile, *meld.tiles)) is not None:
                spots.append(LayOff(index, (tile,), ()))
        if tile.is_joker or (meld.end < 14 and tile == _run_face(colour_index, meld.end + 1)):
            if try_read_meld((*meld.tiles, tile)) is not None:
                spots.append(LayOff(index, (), (tile,)))
    return spots


def lay_off_moves(state: HouseState, seat: int) -> list[LayOff]:
    """Every single-tile lay off the seat can make now (none before the turn after its opening, none that
    would leave it without a tile to discard)."""
    if not _may_use_table(state, seat) or len(state.racks[seat]) < 2:
        return []
    table = [meld.faces for meld in state.melds]
    moves: list[LayOff] = []
    for tile in sorted(set(rack_faces(state, seat)), key=lambda face: face.key):
        moves.extend(lay_off_spots(table, tile))
    return moves


def joker_takes(state: HouseState, seat: int) -> list[TakeJoker]:
    """Every joker on the table, with the tiles that take it (what it stands for; both missing colours in a
    three-tile set), that the seat can take now with tiles from its rack."""
    if not _may_use_table(state, seat):
        return []
    rack = Counter(rack_faces(state, seat))
    moves: list[TakeJoker] = []
    for index, table_meld in enumerate(state.melds):
        meld = read_meld(table_meld.faces)
        for at in meld.joker_positions:
            needed = meld.stands_for[at] if meld.kind is MeldKind.SET else meld.stands_for[at][:1]
            if all(rack[face] >= amount for face, amount in Counter(needed).items()):
                moves.append(TakeJoker(index, needed))
    return moves


def jokers_on_table(state: HouseState) -> list[TakeJoker]:
    """Every joker on the table and what takes it, whoever holds the tiles (for the UI's hints)."""
    moves = []
    for index, table_meld in enumerate(state.melds):
        meld = read_meld(table_meld.faces)
        for at in meld.joker_positions:
            needed = meld.stands_for[at] if meld.kind is MeldKind.SET else meld.stands_for[at][:1]
            moves.append(TakeJoker(index, needed))
    return moves


def take_discard_moves(state: HouseState, seat: int) -> list[TakeDiscard]:
    """The new melds the seat can make now with the last discard and tiles of its rack."""
    if (
        state.phase is not Phase.DRAW
        or seat != state.turn
        or not state.discard_open
        or not state.discards
        or not opened_before_this_turn(state, seat)
    ):
        return []
    top = tile_of(state.discards[-1])
    rack = rack_faces(state, seat)
    moves = []
    for meld in melds_from_rack([*rack, top]):
        if top not in meld.tiles:
            continue
        rest = list(meld.tiles)
        rest.remove(top)
        if len(rack) - len(rest) >= 1 and not Counter(rest) - Counter(rack):
            moves.append(TakeDiscard(meld.tiles))
    return moves


def _may_use_table(state: HouseState, seat: int) -> bool:
    return state.phase is Phase.PLAY and seat == state.turn and opened_before_this_turn(state, seat)
