"""The bot API's answer for a path it does not have (docs/bot-api.md). The endpoints are the tables'
(apps/tables/api.py) and the bot's own account (apps/players/api.py)."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _

from apps.bots.http import error_response


def not_found(request: HttpRequest, rest: str) -> JsonResponse:
    """Any other path under /api/bot/: a JSON answer too, not the site's HTML page."""
    return error_response("not_found", _("There is no endpoint /api/bot/%(path)s: see docs/bot-api.md.") % {"path": rest[:80]}, 404)
