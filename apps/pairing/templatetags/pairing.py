"""`{% quick_pools %}`: the small block of pool buttons on the home page and the Play page (SPEC 15):
one press joins a pool. Rated for a player who may play rated, casual otherwise (guests)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _

from apps.catalog.data import game_name
from apps.pairing.pools import Pool, games, paces_of, seats_of
from apps.pairing.rules import PairingError, check_may_join
from apps.pairing.strings import page_strings

register = template.Library()

#: The pace of the one-press buttons, where the game has it.
BUTTON_PACE = 60


def may_rate(user: Any, game: str) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    try:
        check_may_join(user, Pool(game, 2, BUTTON_PACE, True))
    except PairingError:
        return False
    return True


@register.inclusion_tag("pairing/_pools.html", takes_context=True)
def quick_pools(context: dict[str, Any], compact: bool = False, seeks: bool = False) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    rows = []
    for game in games():
        paces = paces_of(game)
        pace = BUTTON_PACE if BUTTON_PACE in paces else paces[0]
        rated = may_rate(user, game)
        rows.append(
            {
                "name": game_name(game),
                "slug": game,
                "rated": rated,
                "pace": pace,
                "buttons": [
                    {
                        "key": Pool(game, seats, pace, rated).key,
                        "seats": seats,
                        "aria": _("Join the pool: %(label)s") % {"label": Pool(game, seats, pace, rated).label()},
                    }
                    for seats in seats_of(game)
                ],
                "pools": [
                    {"key": pool.key, "label": pool.label(), "rated": pool.rated}
                    for pool in (Pool(game, s, p, r) for s in seats_of(game) for p in paces for r in (True, False))
                ],
            }
        )
    return {
        "rows": rows,
        "compact": compact,
        "seeks": seeks,
        "strings": page_strings() if seeks else None,
        "csrf_token": context.get("csrf_token"),
        "next": getattr(request, "path", "/"),
        "signed_in": bool(getattr(user, "is_authenticated", False)),
    }
