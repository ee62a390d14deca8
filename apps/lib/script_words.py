"""Words the site's scripts share, translated on the server and handed to a page as JSON (static/js/i18n.js
reads them): the tiles' names (static/js/tiles.js asks for them by these keys on every page that shows
tiles: the table, the replay, the puzzle trainer) and the plural forms of a phrase.

On the ground floor so that each app's `ui_strings.py` takes them from one place and they stay one msgid,
one translation."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def plural_forms(singular: str, plural: str) -> list[str]:
    """The plural forms of one phrase for counts 1, 2 and 20, which covers English and Romanian (i18n.js
    picks by the count)."""
    return [ngettext(singular, plural, count) for count in (1, 2, 20)]


def tile_words() -> dict[str, str]:
    """The colours, the joker and a tile's name, as tiles.js asks for them."""
    return {
        "red": _("red"),
        "yellow": _("yellow"),
        "blue": _("blue"),
        "black": _("black"),
        "joker": _("joker"),
        # Translators: a tile's name, e.g. "red 5".
        "tile_name": _("%(colour)s %(number)s"),
    }
