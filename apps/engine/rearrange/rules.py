"""`tile-rummy-rearrange`, the Rearrange game, behind the game-independent interface of `apps.engine.game`."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import Any, ClassVar

from apps.engine.common import seat_actions
from apps.engine.errors import EngineError
from apps.engine.game import JSON, Auto, GameResult, MeldCheck, Move, Randomness, Rules
from apps.engine.rearrange import play
from apps.engine.rearrange.events import play_events
from apps.engine.rearrange.melds import meld_problem, try_read_meld
from apps.engine.rearrange.moves import Play, Timeout, parse_move
from apps.engine.rearrange.scoring import score
from apps.engine.rearrange.state import (
    RearrangeState,
    deal,
    deal_from_dict,
    deal_to_dict,
    state_from_dict,
    state_to_dict,
)
from apps.engine.rearrange.view import view_for, views_for
from apps.engine.tiles import Tile, format_tiles


class RearrangeRules(Rules[RearrangeState]):
    slug: ClassVar[str] = "tile-rummy-rearrange"
    name: ClassVar[str] = "Tile Rummy: Rearrange"
    paces: ClassVar[tuple[int, ...]] = (120, 60, 0)

    def new_game(
        self, seats: int, rng: Randomness, starter: int | None = None, *, absent: Collection[int] = ()
    ) -> RearrangeState:
        return deal(seats, rng, starter, absent)

    def deal_of(self, state: RearrangeState) -> JSON:
        return deal_to_dict(state)

    def from_deal(self, deal: Mapping[str, Any]) -> RearrangeState:
        return deal_from_dict(deal)

    def parse_move(self, data: str | Mapping[str, Any]) -> Move:
        return parse_move(data)

    def apply(self, state: RearrangeState, seat: int, move: Move) -> RearrangeState:
        return play.apply(state, seat, move)

    def timeout(self, state: RearrangeState, seat: int, pending: Move | None = None) -> Move:
        """The clock ran out: a pending play that passes every End-turn check stands (recorded in the
        timeout move); otherwise the table reverts and the player draws 3."""
        if isinstance(pending, Play) and not state.over and seat == state.turn:
            try:
                play.check(state, seat, pending.table)
            except EngineError:
                return Timeout()
            return Timeout(pending.table)
        return Timeout()

    def autopilot(self, state: RearrangeState, seat: int) -> Move:
        return Auto()

    def to_move(self, state: RearrangeState) -> int | None:
        return None if state.over else state.turn

    def legal_actions(self, state: RearrangeState, seat: int) -> frozenset[str]:
        if state.over or not 0 <= seat < state.seats or state.left[seat]:
            return frozenset()
        kinds = {"leave"}
        if state.away[seat]:
            kinds.add("back")
        if seat == state.turn:
            kinds |= {"play", "draw", "timeout", "auto"}
        return frozenset(kinds)

    def is_away(self, state: RearrangeState, seat: int) -> bool:
        return state.away[seat]

    def has_left(self, state: RearrangeState, seat: int) -> bool:
        return state.left[seat]

    def is_over(self, state: RearrangeState) -> bool:
        return state.over

    def result(self, state: RearrangeState) -> GameResult | None:
        return score(state) if state.over else None

    def meld_check(self, tiles: Sequence[Tile]) -> MeldCheck:
        meld = try_read_meld(tiles)
        if meld is None:
            return MeldCheck(False, None, 0, f"{format_tiles(tiles)!r} is not a set: {meld_problem(tiles)}")
        return MeldCheck(True, meld.kind, meld.points)

    def play_events(self, before: JSON, after: JSON) -> list[JSON]:
        return play_events(before, after)

    def view_for(self, state: RearrangeState, seat: int | None) -> JSON:
        return view_for(state, seat, self.slug, seat_actions(self, state, seat))

    def views_for(self, state: RearrangeState, seats: Iterable[int], public: JSON | None = None) -> dict[int | None, JSON]:
        return views_for(state, seats, self.slug, lambda seat: seat_actions(self, state, seat), public)

    def to_dict(self, state: RearrangeState) -> JSON:
        return state_to_dict(state)

    def from_dict(self, data: Mapping[str, Any]) -> RearrangeState:
        return state_from_dict(data)


RULES = RearrangeRules()
