"""What a house-game bot reads: its seat's view (never the state), in typed form.

`SeatView.of(view)` reads the JSON view once. `public_state(view)` rebuilds a `HouseState` that holds only
what the view shows (the other racks are empty and the pile is made of arbitrary tiles), so that bots can
use the engine's own helpers and `apply` to list and check their moves: everything those read (the bot's
rack, the table, the top discard, the phase, who opened when) is exactly as in the real game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from apps.engine.bots import own_seat
from apps.engine.game import JSON
from apps.engine.house.positions import position
from apps.engine.house.state import HouseState, Phase
from apps.engine.tiles import Tile, format_tiles

Faces = tuple[Tile, ...]


def _faces(words: Sequence[Any]) -> Faces:
    return tuple(Tile.parse(str(word)) for word in words)


@dataclass(frozen=True, slots=True)
class SeatView:
    """The bot's seat's view of a house game, read once."""

    seat: int
    seats: int
    phase: Phase
    turn_no: int
    actions: frozenset[str]
    rack: Faces
    drawn: Tile | None
    table: tuple[Faces, ...]
    owners: tuple[int, ...]
    discards: Faces
    discard_open: bool
    pile: int
    opened: tuple[bool, ...]
    tiles: tuple[int, ...]  # rack sizes
    left: tuple[bool, ...]
    indicator: Tile

    @classmethod
    def of(cls, view: JSON) -> SeatView:
        seat = own_seat(view)
        players = view["players"]
        drawn = view.get("drawn")
        return cls(
            seat=seat,
            seats=int(view["seats"]),
            phase=Phase(view["phase"]),
            turn_no=int(view["turn_no"]),
            actions=frozenset(view["actions"]),
            rack=_faces(view["rack"]),
            drawn=None if drawn is None else Tile.parse(drawn),
            table=tuple(_faces(meld["tiles"]) for meld in view["melds"]),
            owners=tuple(int(meld["owner"]) for meld in view["melds"]),
            discards=_faces(view["discards"]),
            discard_open=bool(view["discard_open"]),
            pile=int(view["pile"]),
            opened=tuple(bool(player["opened"]) for player in players),
            tiles=tuple(int(player["tiles"]) for player in players),
            left=tuple(bool(player["left"]) for player in players),
            indicator=Tile.parse(view["indicator"]),
        )

    @property
    def has_opened(self) -> bool:
        return self.opened[self.seat]

    @property
    def opened_before(self) -> bool:
        """Opened on an earlier turn: may lay off, take jokers and take the last discard."""
        if not self.has_opened:
            return False
        return self.phase is Phase.DRAW or "add" in self.actions

    @property
    def top_discard(self) -> Tile | None:
        return self.discards[-1] if self.discard_open and self.discards else None

    def next_seats(self) -> tuple[int, ...]:
        """The other seats still in, in turn order from the one after this seat."""
        order = [(self.seat + step) % self.seats for step in range(1, self.seats)]
        return tuple(seat for seat in order if not self.left[seat])


def public_state(view: SeatView) -> HouseState:
    """A house-game state holding only what `view` shows (see the module's note)."""
    racks = ["" for _ in range(view.seats)]
    racks[view.seat] = format_tiles(view.rack)
    opened = [seat for seat in range(view.seats) if view.opened[seat] and (seat != view.seat or view.opened_before)]
    this_turn = [view.seat] if view.has_opened and not view.opened_before else []
    return position(
        racks,
        melds=[(owner, format_tiles(meld)) for owner, meld in zip(view.owners, view.table, strict=True)],
        indicator=str(view.indicator),
        discards=format_tiles(view.discards),
        discard_open=view.discard_open,
        pile_size=view.pile,
        turn=view.seat,
        phase=view.phase,
        opened=opened,
        opened_this_turn=this_turn,
        turn_no=max(view.turn_no, 1),
        left=[seat for seat in range(view.seats) if view.left[seat]],
    )
