"""`{% play_now "tile-rummy" %}`: the one-press Play now buttons of a game, one per bot level (Easy and
Hard), the level the player meets first shown as the main button (Easy for a first game). Used on the
home page, the lobby, the catalog and the rules pages; the form posts to `tables:play_now`."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from apps.catalog.data import CATALOG
from apps.engine.game import is_available
from apps.tables.models import BotLevel
from apps.tables.views import bot_levels_offered, play_now_level

register = template.Library()


@register.inclusion_tag("tables/_play_now.html", takes_context=True)
def play_now(context: template.Context, slug: str, label: str = "", size: str = "") -> dict[str, Any]:
    """`label` is shown before the buttons (the game's name if empty); `size` "large" for the home page."""
    entry = next((entry for entry in CATALOG if entry.slug == slug), None)
    levels = bot_levels_offered(slug) if entry is not None and is_available(slug) else []
    request = context.get("request")
    first = _first_level(request)
    labels: dict[str, str] = {BotLevel.EASY: _("Easy"), BotLevel.HARD: _("Hard")}
    return {
        "csrf_token": context.get("csrf_token"),
        "game": entry,
        "label": label or (entry.name if entry is not None else ""),
        "size": size,
        "levels": [
            {
                "value": level,
                "label": labels.get(level, level),
                "primary": level == first,
                # Translators: the accessible name of a Play now button, e.g. "Play Tile Rummy now against the Easy bot".
                "aria": _("Play %(game)s now against the %(level)s bot") % {"game": entry.name, "level": labels.get(level, level)}
                if entry is not None
                else "",
            }
            for level in levels
        ],
    }


def _first_level(request: Any) -> str:
    """`play_now_level` once per request (a page shows the buttons of every game)."""
    if request is None:
        return play_now_level(None)
    if not hasattr(request, "_play_now_level"):
        request._play_now_level = play_now_level(request.user)
    return str(request._play_now_level)
