"""What one seat, or a spectator (seat None), may see of a Rearrange game (SPEC 5, CONVENTIONS 5).

Never another seat's rack, never the pool's order, never the racks of seats that left. Yes: the start
ceremony's draws, the sets on the table (kind, value, what each joker stands for), tile counts, who has
opened, who passed since the last real turn, whose turn it is, and the result once the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from apps.engine.common import faces_json, jokers_json, players_view, seat_view, views_from_public
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
        "tiles": faces_json(meld.tiles),
        "kind": meld.kind,
        "points": meld.points,
        "jokers": jokers_json(meld.tiles, meld.stands_for),
    }


def view_for(state: RearrangeState, seat: int | None, slug: str, actions: list[str]) -> JSON:
    return seat_view(
        state,
        seat,
        slug,
        actions,
        over=state.over,
        result=score(state) if state.over else None,
        players=players_view(state, state.opened, passed=state.passed),
        ceremony=[[{"seat": drawer, "tile": str(tile_of(tile))} for drawer, tile in draws] for draws in state.ceremony],
        pool=len(state.pool),
        opening_minimum=OPENING_MINIMUM,
        table=[meld_view(index, meld) for index, meld in enumerate(state.table)],
    )


def views_for(
    state: RearrangeState, seats: Iterable[int], slug: str, actions_of: Callable[[int], list[str]], public: JSON | None = None
) -> dict[int | None, JSON]:
    """`view_for` of the spectators and of each of `seats`, the shared part built once (or given: `public`)."""
    if public is None:
        public = view_for(state, None, slug, [])
    return views_from_public(public, state, seats, actions_of)
