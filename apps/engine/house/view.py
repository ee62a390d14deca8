"""What one seat, or a spectator (seat None), may see of a house game (SPEC 5, CONVENTIONS 5).

Never another seat's rack, never the draw pile's order, never the racks of seats that left. Yes: the
indicator and who was dealt its twin, tile counts, the discards (face up), the points an opening needs,
the melds (kind, value, what each joker stands for) with who laid each tile, the points on the table so
far, whose turn it is, and the result once the game is over.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from apps.engine.common import faces_json, jokers_json, players_view, seat_view, views_from_public
from apps.engine.game import JSON
from apps.engine.house.melds import OPENING_MINIMUM, read_meld
from apps.engine.house.play import drawn_on_rack
from apps.engine.house.scoring import joker_bonuses, score, table_points
from apps.engine.house.state import HouseState, Phase
from apps.engine.tiles import tile_of


def _meld_view(index: int, state: HouseState) -> JSON:
    table_meld = state.melds[index]
    meld = read_meld(table_meld.faces)
    return {
        "index": index,
        "tiles": faces_json(meld.tiles),
        "kind": meld.kind.value,
        "owner": table_meld.owner,
        "placed_by": list(table_meld.placed_by),
        "points": meld.points,
        "jokers": jokers_json(meld.tiles, meld.stands_for),
    }


def view_for(state: HouseState, seat: int | None, slug: str, actions: list[str]) -> JSON:
    over = state.phase is Phase.OVER
    players = players_view(
        state,
        [opened is not None for opened in state.opened_on],
        table_points=table_points(state),
        joker_bonus=joker_bonuses(state),
    )
    view = seat_view(
        state,
        seat,
        slug,
        actions,
        over=over,
        result=score(state) if over else None,
        players=players,
        phase=state.phase.value,
        indicator=str(tile_of(state.indicator)),
        twin_seat=state.twin_seat,
        double=state.is_double,
        pile=len(state.pile),
        discards=faces_json(tile_of(tile) for tile in state.discards),
        discard_open=state.discard_open,
        opening_minimum=OPENING_MINIMUM,
        melds=[_meld_view(index, state) for index in range(len(state.melds))],
    )
    if seat is not None:
        drawn = drawn_on_rack(state, seat)  # by face: the tile the timeout would discard as "the drawn tile"
        view["drawn"] = None if drawn is None else str(drawn)
    return view


def views_for(
    state: HouseState, seats: Iterable[int], slug: str, actions_of: Callable[[int], list[str]], public: JSON | None = None
) -> dict[int | None, JSON]:
    """`view_for` of the spectators and of each of `seats`, the shared part built once (or given: `public`)."""

    def own(seat: int) -> JSON:
        drawn = drawn_on_rack(state, seat) if seat == state.turn else None
        return {"drawn": None if drawn is None else str(drawn)}

    if public is None:
        public = view_for(state, None, slug, [])
    return views_from_public(public, state, seats, actions_of, own)
