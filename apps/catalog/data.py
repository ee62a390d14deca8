"""The games of the catalog (SPEC section 1). `manage.py load_catalog` writes them to the database."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class CatalogEntry:
    slug: str
    name: Promise
    tagline: Promise
    min_players: int
    max_players: int
    min_minutes: int
    max_minutes: int
    difficulty: Promise
    has_leaderboard: bool
    position: int
    rules_updated: date  # shown on the rules page: change it with the rules text


CATALOG: tuple[CatalogEntry, ...] = (
    CatalogEntry(
        slug="tile-rummy",
        name=_("Tile Rummy"),
        tagline=_(
            "The house game: an indicator tile, a 45-point opening with a run, laying off, taking jokers "
            "and the last discard, and a detailed score at the end of every game."
        ),
        min_players=2,
        max_players=4,
        min_minutes=10,
        max_minutes=60,
        difficulty=_("Strategic"),
        has_leaderboard=True,
        position=1,
        rules_updated=date(2026, 12, 1),
    ),
    CatalogEntry(
        slug="tile-rummy-rearrange",
        name=_("Tile Rummy: Rearrange"),
        tagline=_(
            "Open with 30 points from your own rack; after that the whole table belongs to everyone and "
            "can be taken apart and rebuilt on every turn."
        ),
        min_players=2,
        max_players=4,
        min_minutes=15,
        max_minutes=60,
        difficulty=_("Tactical"),
        has_leaderboard=True,
        position=2,
        rules_updated=date(2026, 12, 1),
    ),
)


def catalog_entry(slug: str) -> CatalogEntry | None:
    """The catalog entry of `slug`, or None if there is no such game."""
    return next((entry for entry in CATALOG if entry.slug == slug), None)


def game_name(slug: str) -> str:
    """The game's name in the active language (the engine's own names are English, for the CLI)."""
    entry = catalog_entry(slug)
    return str(entry.name) if entry is not None else slug


def leaderboard_entries() -> tuple[CatalogEntry, ...]:
    return tuple(entry for entry in CATALOG if entry.has_leaderboard)
