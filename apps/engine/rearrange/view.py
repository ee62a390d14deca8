"""What one seat, or a spectator (seat None), may see of a Rearrange game (SPEC 5, CONVENTIONS 5).

Never another seat's rack, never the pool's order, never the racks of seats that left. Yes: the start
ceremony's draws, the sets on the table (kind, value, what each joker stands for), tile counts, who has
opened, who passed since the last real turn, whose turn it is, and the result once the game is over.
"""

from __future__ import annotations

from typing import Any

from apps.engine.game import JSON
from apps.engine.rearrange.melds import OPENING_MINIMUM, read_meld
from apps.engine.rearrange.play import faces
from apps.engine.rearrange.scoring import score
from apps.engine.rearrange.state import RearrangeState
from apps.engine.tiles import TileId, tile_of


def meld_view(index: int, tiles: tuple[TileId, ...]) -> JSON:
    meld = read_meld(faces(tiles))
    return {
        "index": index,
        "tiles": [str(tile) for tile in meld.tiles],
        "kind": meld.kind,
        "points": meld.points,
        "jokers": [
            {"at": at, "stands_for": [str(tile) for tile in meld.stands_for[at]]}
            for at, tile in enumerate(meld.tiles)
            if tile.is_joker
        ],
    }


def view_for(state: RearrangeState, seat: int | None, slug: str, actions: list[str]) -> JSON:
    players: list[dict[str, Any]] = [
        {
            "seat": other,
            "tiles": len(state.racks[other]),
            "opened": state.opened[other],
            "left": state.left[other],
            "away": state.away[other],
            "passed": state.passed[other],
        }
        for other in range(state.seats)
    ]
    view: JSON = {
        "game": slug,
        "seats": state.seats,
        "you": seat,
        "starter": state.starter,
        "ceremony": [[{"seat": drawer, "tile": str(tile_of(tile))} for drawer, tile in draws] for draws in state.ceremony],
        "turn": None if state.over else state.turn,
        "turn_no": state.turn_no,
        "pool": len(state.pool),
        "opening_minimum": OPENING_MINIMUM,
        "table": [meld_view(index, meld) for index, meld in enumerate(state.table)],
        "players": players,
        "actions": actions,
        "over": state.over,
        "result": score(state).to_dict() if state.over else None,
    }
    if seat is not None:
        view["rack"] = [str(tile_of(tile)) for tile in state.racks[seat]]
    return view
