"""Is a play legal? The server's check of a proposed final table against the turn's start (SPEC 4).

A play is the whole table as the player leaves it. It is legal when, in this order of checks (the first
failing one is the error the player reads under the table):

1. every set on the table is legal (the message quotes the set and names its rule), and the table names
   no face more often than the game has it (two jokers, two of each tile: SPEC 2);
2. every tile that was on the table is still on it (none went to the rack), and every new tile is on the
   player's rack;
3. at least one tile left the rack;
4. on the opening turn: the sets already on the table are as they were (the same tiles in each; a group's
   tiles in any order, a run's in the order of its numbers), and the new sets, made of rack tiles only, are
   worth at least 30 (the message gives the running total);
5. after opening, every joker that was on the table either still stands for what it stood for (in a
   group: still a colour it could stand for), or it was *freed*: a tile it stood for came from the rack
   this turn (its replacement), and it now sits in a set holding at least two other tiles from the rack.

Copies of a face are interchangeable, and so are the two jokers: a play is legal if some way of telling
which tile came from where satisfies the rules (with at most two jokers this is a small search).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, permutations, product

from apps.engine.errors import IllegalMove, Phrase
from apps.engine.rearrange.melds import OPENING_MINIMUM, Meld, read_meld
from apps.engine.tiles import JOKER, Tile, copies_problem, format_melds, format_tiles

Faces = tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class PlayCheck:
    """A legal play: its sets read, the tiles it took from the rack, and on an opening its value."""

    melds: tuple[Meld, ...]
    placed: Faces
    opening_points: int | None


def _sorted(tiles: Iterable[Tile]) -> Faces:
    return tuple(sorted(tiles, key=lambda tile: tile.key))


def _count_text(counts: Counter[Tile]) -> str:
    return format_tiles(_sorted(counts.elements()))


def check_play(
    start: Sequence[Sequence[Tile]], rack: Sequence[Tile], table: Sequence[Sequence[Tile]], *, opened: bool
) -> PlayCheck:
    """Check the final `table` a player proposes, against the table `start` of the turn and the `rack` of
    the turn's start; `opened` says whether the player opened on an earlier turn. Raises IllegalMove with
    the first rule broken."""
    melds = tuple(read_meld(faces) for faces in table)
    after = Counter(tile for meld in melds for tile in meld.tiles)
    too_many = copies_problem(after.elements())
    if too_many is not None:
        raise IllegalMove(
            f"{format_melds(table)!r} is not a table: {too_many}", "not_a_table", melds=format_melds(table), rule=too_many
        )
    before = Counter(tile for meld in start for tile in meld)
    gone = before - after
    if gone:
        if JOKER in gone:
            raise IllegalMove(
                "A joker from the table went to your rack: a freed joker must be played again this turn, "
                "in a set with at least two tiles from your rack",
                "joker_to_rack",
            )
        raise IllegalMove(
            f"A table tile went to your rack ({_count_text(gone)}): tiles on the table stay on the table", "table_tile_to_rack", tiles=_count_text(gone)
        )
    placed = after - before
    missing = placed - Counter(rack)
    if missing:
        raise IllegalMove(
            f"{_count_text(missing)}: not on your rack (and not on the table at the start of the turn)", "not_on_rack_or_table", tiles=_count_text(missing)
        )
    if not placed:
        raise IllegalMove("Nothing left your rack: play at least one tile, or draw", "nothing_placed")
    if not opened:
        return PlayCheck(melds, _sorted(placed.elements()), _check_opening(start, melds))
    problem = joker_problem(start, melds, placed)
    if problem is not None:
        raise IllegalMove(problem, problem.message_code, **problem.params)
    return PlayCheck(melds, _sorted(placed.elements()), None)


def same_set_key(meld: Meld) -> tuple[str, Faces]:
    """What "the same set" means on an opening turn (SPEC 4, decisions): the same tiles, where a group's
    order does not matter and a run's order is its numbers. (A group re-read as a run is another set.)"""
    return (meld.kind, _sorted(meld.tiles) if meld.kind == "set" else meld.tiles)


def _check_opening(start: Sequence[Sequence[Tile]], melds: Sequence[Meld]) -> int:
    """The opening's value: every set of the turn's start is still on the table (`same_set_key`), and the
    rest are the new sets, worth at least 30."""
    new = Counter(same_set_key(meld) for meld in melds)
    points = sum(meld.points for meld in melds)
    for faces in start:
        old = read_meld(faces)
        key = same_set_key(old)
        if new[key] == 0:
            raise IllegalMove(
                f"On your opening turn the sets already on the table stay as they were: {format_tiles(old.tiles)!r} was changed",
                "opening_changed_table",
                tiles=format_tiles(old.tiles),
            )
        new[key] -= 1
        points -= old.points
    if points < OPENING_MINIMUM:
        raise IllegalMove(
            f"Your opening is worth {points}: it needs at least {OPENING_MINIMUM} in new sets of tiles from your rack",
            "opening_short",
            points=points,
            needed=OPENING_MINIMUM,
        )
    return points


# --- jokers ----------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _OldJoker:
    could_be: frozenset[Tile]
    meld: Faces


@dataclass(frozen=True, slots=True)
class _Spot:
    meld: int
    at: int
    stands_for: frozenset[Tile]


def _old_jokers(start: Sequence[Sequence[Tile]]) -> list[_OldJoker]:
    jokers = []
    for faces in start:
        meld = read_meld(faces)
        for at, tile in enumerate(meld.tiles):
            if tile.is_joker:
                jokers.append(_OldJoker(frozenset(meld.stands_for[at]), meld.tiles))
    return jokers


def joker_problem(start: Sequence[Sequence[Tile]], melds: Sequence[Meld], placed: Counter[Tile]) -> Phrase | None:
    """Why the jokers of the turn's start are not all kept or properly freed in `melds` (None if they are).

    `placed` are the rack tiles the play added. Tries every way of matching the start's jokers to the jokers
    on the new table (the rest came from the rack) and reports the problem of the most lenient match."""
    old = _old_jokers(start)
    if not old:
        return None
    spots = [
        _Spot(index, at, frozenset(meld.stands_for[at]))
        for index, meld in enumerate(melds)
        for at, tile in enumerate(meld.tiles)
        if tile.is_joker
    ]
    problems: list[tuple[int, Phrase]] = []
    for chosen in permutations(range(len(spots)), len(old)):
        matched = list(zip(old, (spots[spot] for spot in chosen), strict=True))
        rack_jokers = [spots[i] for i in range(len(spots)) if i not in chosen]
        for kept in product((True, False), repeat=len(matched)):
            if not _keepable([pair for pair, keep in zip(matched, kept, strict=True) if keep]):
                continue
            freed = [pair for pair, keep in zip(matched, kept, strict=True) if not keep]
            problem = _freed_problem(freed, melds, placed, rack_jokers)
            if problem is None:
                return None
            problems.append((len(freed), problem))
    return min(problems, key=lambda item: item[0])[1]


def _keepable(kept: list[tuple[_OldJoker, _Spot]]) -> bool:
    """Can these jokers all still stand for a tile they stood for? Jokers in one group stand for different
    missing colours, so two of them need two different tiles."""
    choices = [sorted(joker.could_be & spot.stands_for, key=lambda tile: tile.key) for joker, spot in kept]
    for picks in product(*choices):
        taken = [(spot.meld, tile) for (_, spot), tile in zip(kept, picks, strict=True)]
        if len(set(taken)) == len(taken):
            return True
    return False


def _freed_problem(
    freed: list[tuple[_OldJoker, _Spot]], melds: Sequence[Meld], placed: Counter[Tile], rack_jokers: list[_Spot]
) -> Phrase | None:
    if not freed:
        return None
    # The replacement: a tile each freed joker stood for, from the rack (one tile per joker).
    for choice in product(*(sorted(joker.could_be & set(placed), key=lambda tile: tile.key) for joker, _ in freed)):
        if not Counter(choice) - placed:
            break
    else:
        joker, _ = next(
            ((joker, spot) for joker, spot in freed if not joker.could_be & set(placed)), freed[-1]
        )
        stood = " or ".join(str(tile) for tile in _sorted(joker.could_be))
        return Phrase(
            f"A joker is freed from {format_tiles(joker.meld)!r} only by putting the tile it stands for, "
            f"{stood}, from your rack in its place",
            "joker_free_with",
            meld=format_tiles(joker.meld),
            stands=" ".join(str(tile) for tile in _sorted(joker.could_be)),
        )
    # Its new set: at least two other tiles from the rack (numbered tiles, or jokers that came from the rack).
    rack_joker_spots = {(spot.meld, spot.at) for spot in rack_jokers}
    options = []
    for _, spot in freed:
        meld = melds[spot.meld]
        candidates = [
            (spot.meld, at)
            for at, tile in enumerate(meld.tiles)
            if at != spot.at and ((not tile.is_joker and placed[tile]) or (spot.meld, at) in rack_joker_spots)
        ]
        options.append(list(combinations(candidates, 2)))
    for picks in product(*options):
        positions = {position for pair in picks for position in pair}
        need = Counter(melds[index].tiles[at] for index, at in positions)
        if not need - placed:
            return None
    _, spot = freed[0]
    return Phrase(
        f"A freed joker must be played again in a set with at least two tiles from your rack: "
        f"{format_tiles(melds[spot.meld].tiles)!r} does not have them",
        "freed_joker_set",
        meld=format_tiles(melds[spot.meld].tiles),
    )
