"""A player's profile page, `/u/<username>/`: who they are (apps/accounts), whether they are a bot
account and online (apps/bots), their ratings (apps/leaderboards) and their latest matches (apps/tables,
profile.py)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from apps.accounts.models import User
from apps.bots import presence
from apps.bots.selectors import bot_account_of
from apps.catalog.data import CATALOG
from apps.engine.game import is_available
from apps.leaderboards.selectors import profile_ratings
from apps.players.friends import people
from apps.players.profile import recent_matches
from apps.social import selectors as social


def profile(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(User, username=username, is_active=True)
    is_self = request.user.is_authenticated and request.user.pk == player.pk
    bot = bot_account_of(player.pk)
    context = {
        "player": player,
        "is_self": is_self,
        "bot_account": bot,  # SPEC 14: marked BOT, with its owner, and a challenge for everyone else
        "bot_online": bot is not None and player.pk in presence.online([player.pk]),
        "challenge_games": [(entry.slug, entry.name) for entry in CATALOG if is_available(entry.slug)]
        if bot is not None and not is_self
        else [],
        "ratings": profile_ratings(player.pk),
        "matches": recent_matches(player.pk, include_private=is_self or request.user.is_staff),
        # SPEC 17: follow, block and challenge a registered person (not a guest, a bot account or oneself)
        "social": bot is None and not is_self and not player.is_guest and request.user.is_authenticated
        and not getattr(request.user, "is_guest", True),
    }
    if context["social"]:
        viewer_id = int(request.user.pk or 0)
        context["i_follow"] = player.pk in social.following_ids(viewer_id)
        context["follows_me"] = player.pk in social.follower_ids(viewer_id)
        context["i_blocked"] = social.has_blocked(viewer_id, player.pk)
        found = people(request.user, [player.pk])  # type: ignore[arg-type]  # signed in: a User
        context["presence"] = found[0] if found else None
    return render(request, "players/profile.html", context)
