"""`tile-rummy`, the house game, behind the game-independent interface of `apps.engine.game`."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from apps.engine.common import seat_actions
from apps.engine.game import JSON, Auto, GameResult, MeldCheck, Move, Randomness, Rules, Timeout
from apps.engine.house import play
from apps.engine.house.events import play_events
from apps.engine.house.melds import meld_problem, try_read_meld
from apps.engine.house.moves import parse_move
from apps.engine.house.scoring import score
from apps.engine.house.state import (
    HouseState,
    Phase,
    deal,
    deal_from_dict,
    deal_to_dict,
    state_from_dict,
    state_to_dict,
)
from apps.engine.house.view import view_for, views_for
from apps.engine.tiles import Tile, format_tiles


class HouseRules(Rules[HouseState]):
    slug: ClassVar[str] = "tile-rummy"
    name: ClassVar[str] = "Tile Rummy"
    paces: ClassVar[tuple[int, ...]] = (60, 30, 0)

    def new_game(
        self, seats: int, rng: Randomness, starter: int | None = None, *, absent: Collection[int] = ()
    ) -> HouseState:
        return deal(seats, rng, starter, absent)

    def deal_of(self, state: HouseState) -> JSON:
        return deal_to_dict(state)

    def from_deal(self, deal: Mapping[str, Any]) -> HouseState:
        return deal_from_dict(deal)

    def parse_move(self, data: str | Mapping[str, Any]) -> Move:
        return parse_move(data)

    def apply(self, state: HouseState, seat: int, move: Move) -> HouseState:
        return play.apply(state, seat, move)

    def timeout(self, state: HouseState, seat: int, pending: Move | None = None) -> Move:
        return Timeout()

    def autopilot(self, state: HouseState, seat: int) -> Move:
        return Auto()

    def to_move(self, state: HouseState) -> int | None:
        return None if state.phase is Phase.OVER else state.turn

    def legal_actions(self, state: HouseState, seat: int) -> frozenset[str]:
        if state.phase is Phase.OVER or not 0 <= seat < state.seats or state.left[seat]:
            return frozenset()
        kinds = {"leave"}
        if state.away[seat]:
            kinds.add("back")
        if seat != state.turn:
            return frozenset(kinds)
        kinds |= {"timeout", "auto"}
        opened_before = play.opened_before_this_turn(state, seat)
        if state.phase is Phase.DRAW:
            kinds.add("draw")
            if opened_before and state.discard_open and state.discards:
                kinds.add("take")
        else:
            kinds |= {"discard", "lay"}
            if opened_before and state.melds:
                kinds.add("add")
                if any(any(tile.is_joker for tile in meld.faces) for meld in state.melds):
                    kinds.add("joker")
        return frozenset(kinds)

    def is_away(self, state: HouseState, seat: int) -> bool:
        return state.away[seat]

    def has_left(self, state: HouseState, seat: int) -> bool:
        return state.left[seat]

    def is_over(self, state: HouseState) -> bool:
        return state.phase is Phase.OVER

    def result(self, state: HouseState) -> GameResult | None:
        return score(state) if state.phase is Phase.OVER else None

    def meld_check(self, tiles: Sequence[Tile]) -> MeldCheck:
        meld = try_read_meld(tiles)
        if meld is None:
            return MeldCheck(False, None, 0, f"{format_tiles(tiles)!r} is not a meld: {meld_problem(tiles)}")
        return MeldCheck(True, meld.kind.value, meld.points)

    def play_events(self, before: JSON, after: JSON) -> list[JSON]:
        return play_events(before, after)

    def view_for(self, state: HouseState, seat: int | None) -> JSON:
        return view_for(state, seat, self.slug, seat_actions(self, state, seat))

    def views_for(self, state: HouseState, seats: Iterable[int], public: JSON | None = None) -> dict[int | None, JSON]:
        return views_for(state, seats, self.slug, lambda seat: seat_actions(self, state, seat), public)

    def to_dict(self, state: HouseState) -> JSON:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> HouseState:
        return state_from_dict(data)


RULES = HouseRules()
