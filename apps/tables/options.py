"""The host's choices for a table (SPEC sections 3-5). A game's paces and seat range are its own
(`Rules.paces`, `Rules.seat_counts`): they are read here from the engine, for every available game."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from apps.engine.game import game_slugs, get_rules, is_available

_AVAILABLE = tuple(slug for slug in game_slugs() if is_available(slug))

#: Seconds per turn a host may choose, per game; 0 is "no timer". The first one is the default.
PACES: dict[str, tuple[int, ...]] = {slug: get_rules(slug).paces for slug in _AVAILABLE}

#: How many seats a table may have, per game, and every count some game allows (the form's choices).
SEATS: dict[str, tuple[int, ...]] = {slug: get_rules(slug).seat_counts() for slug in _AVAILABLE}
SEAT_COUNTS: tuple[int, ...] = tuple(sorted({count for counts in SEATS.values() for count in counts}))

MATCH_LENGTHS = (1, 3, 5)


def pace_label(seconds: int) -> str:
    if seconds == 0:
        return str(_("No timer"))
    return str(_("%(seconds)s s per turn") % {"seconds": seconds})
