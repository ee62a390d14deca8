"""The host's choices for a table, per game (SPEC sections 3-5)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: Seconds per turn a host may choose, per game; 0 is "no timer". The first one is the default.
PACES: dict[str, tuple[int, ...]] = {
    "tile-rummy": (60, 30, 0),
    "tile-rummy-rearrange": (120, 60, 0),
}

MATCH_LENGTHS = (1, 3, 5)
SEAT_COUNTS = (2, 3, 4)


def pace_label(seconds: int) -> str:
    if seconds == 0:
        return str(_("No timer"))
    return str(_("%(seconds)s s per turn") % {"seconds": seconds})
