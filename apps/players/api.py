"""The bot's own account over the bot API (docs/bot-api.md): `GET /api/bot/account`. Here, above the bots
and the ratings, because it shows both (the token door and the API's plumbing are apps/bots')."""

from __future__ import annotations

from typing import Any

from django.http import JsonResponse
from django.urls import reverse

from apps.bots.http import BotRequest, bot_api
from apps.bots.selectors import bot_account_of
from apps.leaderboards.selectors import ratings_of


@bot_api()
def account(request: BotRequest, body: dict[str, Any]) -> JsonResponse:
    user = request.user
    user_id = user.pk
    bot = bot_account_of(user_id)
    assert bot is not None  # a token belongs to a bot account
    token = request.bot_token
    return JsonResponse({
        "type": "account",
        "account": {
            "id": user_id,
            "name": user.get_username(),
            "bot_account": True,
            "owner": bot.owner.get_username(),
            "description": bot.description,
            "ratings": ratings_of(user_id),
            "profile": reverse("players:profile", args=[user.get_username()]),
        },
        "token": {"id": token.pk, "name": token.name, "prefix": token.prefix, "created_at": token.created_at.isoformat()},
    })
