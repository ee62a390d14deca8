"""What one seat, or a spectator (seat None), may see of a house game (SPEC 5, CONVENTIONS 5).

Never another seat's rack, never the draw pile's order, never the racks of seats that left. Yes: the
indicator and who was dealt its twin, tile counts, the discards (face up), the melds with who laid each
tile, the points on the table so far, whose turn it is, and the result once the game is over.
"""

from __future__ import annotations

from typing import Any

from apps.engine.game import JSON
from apps.engine.house.melds import read_meld
from apps.engine.house.scoring import joker_bonuses, score, table_points
from apps.engine.house.state import HouseState, Phase
from apps.engine.tiles import tile_of


def _meld_view(index: int, state: HouseState) -> JSON:
    table_meld = state.melds[index]
    meld = read_meld(table_meld.faces)
    return {
        "index": index,
        "tiles": [str(tile) for tile in meld.tiles],
        "kind": meld.kind.value,
        "owner": table_meld.owner,
        "placed_by": list(table_meld.placed_by),
        "points": meld.points,
        "jokers": [
            {"at": at, "stands_for": [str(tile) for tile in meld.stands_for[at]]} for at in meld.joker_positions
        ],
    }


def view_for(state: HouseState, seat: int | None, slug: str, actions: list[str]) -> JSON:
    over = state.phase is Phase.OVER
    tables = table_points(state)
    jokers = joker_bonuses(state)
    players: list[dict[str, Any]] = [
        {
            "seat": other,
            "tiles": len(state.racks[other]),
            "opened": state.opened_on[other] is not None,
            "left": state.left[other],
            "away": state.away[other],
            "table_points": tables[other],
            "joker_bonus": jokers[other],
        }
        for other in range(state.seats)
    ]
    view: JSON = {
        "game": slug,
        "seats": state.seats,
        "you": seat,
        "starter": state.starter,
        "turn": None if over else state.turn,
        "turn_no": state.turn_no,
        "phase": state.phase.value,
        "indicator": str(tile_of(state.indicator)),
        "twin_seat": state.twin_seat,
        "double": state.is_double,
        "pile": len(state.pile),
        "discards": [str(tile_of(tile)) for tile in state.discards],
        "discard_open": state.discard_open,
        "melds": [_meld_view(index, state) for index in range(len(state.melds))],
        "players": players,
        "actions": actions,
        "over": over,
        "result": score(state).to_dict() if over else None,
    }
    if seat is not None:
        view["rack"] = [str(tile_of(tile)) for tile in state.racks[seat]]
        drawn = state.drawn if seat == state.turn else None
        view["drawn"] = None if drawn is None else str(tile_of(drawn))
    return view
