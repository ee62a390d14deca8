"""The pools (SPEC 15): each game, seat count (2, 3, 4) and pace (30 s, 60 s; the Rearrange game also
120 s, as far as the game offers that pace), rated or casual. A pool is named by its key,
`game/seats/pace/rated|casual`, in forms, frames and the `Wait` rows."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from apps.catalog.data import CATALOG, game_name
from apps.engine.game import get_rules, is_available

#: The paces pools are offered at, in seconds per turn, where the game has them (SPEC 15).
POOL_PACES = (30, 60, 120)
POOL_SEATS = (2, 3, 4)


def paces_of(game: str) -> tuple[int, ...]:
    """The pool paces of a game: SPEC 15's, those the game's tables offer (house: 30, 60; Rearrange: 60,
    120)."""
    offered = set(get_rules(game).paces)
    return tuple(pace for pace in POOL_PACES if pace in offered)


def seats_of(game: str) -> tuple[int, ...]:
    offered = set(get_rules(game).seat_counts())
    return tuple(seats for seats in POOL_SEATS if seats in offered)


def games() -> list[str]:
    return [entry.slug for entry in CATALOG if is_available(entry.slug)]


@dataclass(frozen=True, slots=True, order=True)
class Pool:
    game: str
    seats: int
    pace: int
    rated: bool

    @property
    def key(self) -> str:
        return f"{self.game}/{self.seats}/{self.pace}/{'rated' if self.rated else 'casual'}"

    @classmethod
    def parse(cls, key: str) -> Pool:
        """The pool a key names, or ValueError (with a message for the player) if there is none."""
        parts = (key or "").split("/")
        try:
            game, seats, pace, kind = parts
            pool = cls(game, int(seats), int(pace), {"rated": True, "casual": False}[kind])
        except (ValueError, KeyError):
            raise ValueError(_("There is no such pool.")) from None
        pool.check()
        return pool

    def check(self) -> None:
        if self.game not in games() or self.seats not in seats_of(self.game) or self.pace not in paces_of(self.game):
            raise ValueError(_("There is no such pool."))

    def label(self) -> str:
        """Said to the player: "Tile Rummy, 2 players, 60 s, rated"."""
        return _("%(game)s, %(seats)s players, %(pace)s s, %(kind)s") % {
            "game": game_name(self.game),
            "seats": self.seats,
            "pace": self.pace,
            "kind": _("rated") if self.rated else _("casual"),
        }


def all_pools() -> list[Pool]:
    return [
        Pool(game, seats, pace, rated)
        for game in games()
        for seats in seats_of(game)
        for pace in paces_of(game)
        for rated in (True, False)
    ]
