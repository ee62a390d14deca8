"""Bots (SPEC 7): computer players for both games, behind one small interface.

A bot is given exactly what its seat may see (`get_rules(slug).view_for(state, seat)`) and a seeded
generator, and returns ONE move of that game; the caller applies it and calls again while it is still the
bot's turn (house game: draw, lay, lay off, discard: one call each). A bot keeps no state between calls:
whatever it plans, it derives again from the view, so the service may restart between two calls.

    bot = get_bot("tile-rummy", "hard")
    move = bot.next_move(rules.view_for(state, seat), rng)

`BOT_LEVELS` are the levels offered to players; "greedy" (rearrange game) is a benchmark baseline only.
"""

from __future__ import annotations

import importlib
import random
from typing import Protocol

from apps.engine.errors import InvalidMove
from apps.engine.game import JSON, Move, game_package, game_slugs

BOT_LEVELS: tuple[str, ...] = ("easy", "hard")


def own_seat(view: JSON) -> int:
    """The seat whose view a bot was given; a spectator's view (no seat, no rack) is refused: a bot
    plays only from what its own seat may see."""
    seat = view["you"]
    if seat is None or "rack" not in view:
        raise ValueError("A bot needs the view of its own seat, not a spectator's")
    return int(seat)


class Bot(Protocol):
    """A computer player of one game at one level."""

    level: str

    def next_move(self, view: JSON, rng: random.Random) -> Move:
        """The next move for the seat whose view this is (it must be that seat's turn). Always legal."""
        ...


def _bots_of(slug: str) -> dict[str, str]:
    """The bots of game `slug`, level -> "module:class", as its own package lists them (`BOTS` in
    `<game package>.bots`; see `apps.engine.game.game_package`), or nothing for an unknown game or one
    without bots. Only that list is imported here: a bot's module is imported when it is asked for."""
    package = game_package(slug)
    if package is None:
        return {}
    name = f"{package}.bots"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name not in (package, name):
            raise
        return {}
    bots: dict[str, str] = getattr(module, "BOTS", {})
    return bots


def bot_levels(slug: str) -> tuple[str, ...]:
    """Every level with a bot for `slug`, benchmark-only levels included."""
    return tuple(_bots_of(slug))


def get_bot(slug: str, level: str) -> Bot:
    """The bot of game `slug` at `level`. Raises InvalidMove for an unknown game or level."""
    target = _bots_of(slug).get(level)
    if target is None:
        games = sorted(game for game in game_slugs() if _bots_of(game))
        if slug not in games:
            raise InvalidMove(f"There are no bots for the game {slug!r}: bots play {', '.join(games)}", "no_bots", game=slug, games=", ".join(games))
        raise InvalidMove(
            f"There is no {level!r} bot for {slug!r}: the levels are {', '.join(bot_levels(slug))}",
            "no_bot_level",
            level=level,
            game=slug,
            levels=", ".join(bot_levels(slug)),
        )
    module_name, _, class_name = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if not (error.name or "").startswith("apps.engine"):
            raise
        raise InvalidMove(f"The {level!r} bot for {slug!r} is not available yet", "bot_not_available", level=level, game=slug) from None
    bot: Bot = getattr(module, class_name)()
    return bot


__all__ = ["BOT_LEVELS", "Bot", "bot_levels", "get_bot"]
