"""Game records written in notation, for the review's tests: racks and the first tiles of the pile (or
pool) as faces, then the moves as (seat, notation). The deal is a real one (`Rules.deal_of`), so the
record replays exactly like one the site stored."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from apps.engine.game import get_rules
from apps.engine.house.positions import position as house_position
from apps.engine.rearrange.positions import position as rearrange_position
from apps.engine.records import GameRecord, start_record


def _moves(record: GameRecord, moves: Sequence[tuple[int, str]]) -> GameRecord:
    for number, (seat, move) in enumerate(moves, start=1):
        record = record.add(seat, move, 1000 * number)
    return record


def house_record(
    racks: Sequence[str], moves: Sequence[tuple[int, str]], *, pile: str = "", indicator: str = "k7", info: Mapping[str, Any] | None = None
) -> GameRecord:
    """A house game dealt with these racks (seat 0 starts: 15 tiles, the others 14)."""
    state = house_position(racks, indicator=indicator, pile=pile, turn_no=0, phase="play")
    get_rules("tile-rummy").from_deal(get_rules("tile-rummy").deal_of(state))  # a real deal, checked
    return _moves(start_record("tile-rummy", state, info), moves)


def rearrange_record(
    racks: Sequence[str], moves: Sequence[tuple[int, str]], *, pool: str = "", info: Mapping[str, Any] | None = None
) -> GameRecord:
    """A Rearrange game dealt with these racks (14 tiles each; seat 0 starts, no start ceremony)."""
    state = rearrange_position(racks, pool=pool, turn_no=0)
    get_rules("tile-rummy-rearrange").from_deal(get_rules("tile-rummy-rearrange").deal_of(state))
    return _moves(start_record("tile-rummy-rearrange", state, info), moves)
