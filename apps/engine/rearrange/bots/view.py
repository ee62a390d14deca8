"""What a Rearrange-game bot reads: its seat's view (never the state), in typed form."""

from __future__ import annotations

from dataclasses import dataclass

from apps.engine.bots import own_seat
from apps.engine.game import JSON
from apps.engine.tiles import Tile

Faces = tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class RearrangeSeatView:
    seat: int
    seats: int
    turn_no: int
    rack: Faces
    table: tuple[Faces, ...]
    pool: int
    opened: tuple[bool, ...]
    tiles: tuple[int, ...]  # rack sizes
    left: tuple[bool, ...]
    passed: tuple[bool, ...] = ()  # passed (drew on an empty pool) since the last turn that was not a pass

    @classmethod
    def of(cls, view: JSON) -> RearrangeSeatView:
        seat = own_seat(view)
        players = view["players"]
        return cls(
            seat=seat,
            seats=int(view["seats"]),
            turn_no=int(view["turn_no"]),
            rack=tuple(Tile.parse(face) for face in view["rack"]),
            table=tuple(tuple(Tile.parse(face) for face in meld["tiles"]) for meld in view["table"]),
            pool=int(view["pool"]),
            opened=tuple(bool(player["opened"]) for player in players),
            tiles=tuple(int(player["tiles"]) for player in players),
            left=tuple(bool(player["left"]) for player in players),
            passed=tuple(bool(player.get("passed", False)) for player in players),
        )

    @property
    def has_opened(self) -> bool:
        return self.opened[self.seat]

    def others(self) -> tuple[int, ...]:
        """The other seats still in, in turn order from the next one."""
        order = [(self.seat + step) % self.seats for step in range(1, self.seats)]
        return tuple(seat for seat in order if not self.left[seat])
