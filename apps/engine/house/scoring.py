"""Scoring of the house game (SPEC 3 "Scoring"), line by line in the SPEC's order of calculation:

    base = table points + joker bonuses + rack penalties (or -100 never opened) + 100 if out + 50 twin
    then x2 if out by discarding a joker, then x2 for a double game.

A seat that left keeps its table points, joker bonuses and twin, with no rack term (SPEC 3 decisions).
"""

from __future__ import annotations

from apps.engine.common import tiles_text
from apps.engine.game import GameResult, ScoreLine, SeatScore
from apps.engine.house.melds import rack_penalty, read_meld
from apps.engine.house.state import HouseState
from apps.engine.tiles import tile_of

JOKER_BONUS = 50
OUT_BONUS = 100
TWIN_BONUS = 50
NEVER_OPENED = -100


def table_points(state: HouseState) -> tuple[int, ...]:
    """Each seat's points for the real tiles it put on the table: their opening value where they lie."""
    points = [0] * state.seats
    for table_meld in state.melds:
        meld = read_meld(table_meld.faces)
        for position, seat in enumerate(table_meld.placed_by):
            if not meld.tiles[position].is_joker:
                points[seat] += meld.values[position]
    return tuple(points)


def joker_bonuses(state: HouseState) -> tuple[int, ...]:
    """+50 per joker to the seat that first put it on the table."""
    bonuses = [0] * state.seats
    for seat in state.joker_by:
        if seat is not None:
            bonuses[seat] += JOKER_BONUS
    return tuple(bonuses)


def seat_score(state: HouseState, seat: int, tables: tuple[int, ...], jokers: tuple[int, ...]) -> SeatScore:
    left = state.left[seat]
    rack = [tile_of(tile) for tile in state.racks[seat]]
    lines = [
        ScoreLine("table", "Tiles put on the table", tables[seat]),
        ScoreLine(
            "jokers",
            "Jokers first put on the table (+50 each)",
            jokers[seat],
            f"{jokers[seat] // JOKER_BONUS} x 50",
            params=(("jokers", jokers[seat] // JOKER_BONUS),),
        ),
    ]
    if left:
        lines.append(ScoreLine("rack", "Left the game: no rack term", 0))
    elif state.opened_on[seat] is None:
        lines.append(ScoreLine("unopened", "Never opened (instead of the rack)", NEVER_OPENED, tiles_text(len(rack)), params=(("tiles", len(rack)),)))
    else:
        penalty = -sum(rack_penalty(tile) for tile in rack)
        lines.append(ScoreLine("rack", "Tiles left on the rack", penalty, tiles_text(len(rack)), params=(("tiles", len(rack)),)))
    went_out = state.out == seat
    lines.append(ScoreLine("out", "Went out", OUT_BONUS if went_out else 0))
    lines.append(ScoreLine("twin", "Dealt the indicator's twin", TWIN_BONUS if state.twin_seat == seat else 0))
    total = sum(line.points for line in lines)
    by_joker = went_out and state.out_by_joker
    lines.append(ScoreLine("joker_out", "Went out by discarding a joker (x2)", total if by_joker else 0, "x2" if by_joker else "", 2 if by_joker else 1))
    total *= 2 if by_joker else 1
    double = state.is_double
    lines.append(ScoreLine("double", "Double game (x2)", total if double else 0, "x2" if double else "", 2 if double else 1))
    total *= 2 if double else 1
    return SeatScore(seat, tuple(lines), total, left)


def score(state: HouseState) -> GameResult:
    """Every seat's score (the game need not be over: mid-game it is the score so far, with racks as they are)."""
    tables = table_points(state)
    jokers = joker_bonuses(state)
    seats = tuple(seat_score(state, seat, tables, jokers) for seat in range(state.seats))
    return GameResult(state.end or "", state.out, seats)
