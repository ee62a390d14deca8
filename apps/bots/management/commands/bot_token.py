"""`manage.py bot_token create NAME` prints a new personal access token of the bot account NAME (shown
this once: only its digest is kept); `bot_token revoke ID` revokes one."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.bots.models import AccessToken
from apps.bots.selectors import bot_account_named
from apps.bots.services import BotAccountError, token_create, token_revoke


class Command(BaseCommand):
    help = "Bot account tokens (SPEC 14): bot_token create NAME [--label LABEL], bot_token revoke ID"

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="print a new token of the bot account NAME")
        create.add_argument("name")
        create.add_argument("--label", default="command line", help="the token's name in its list")
        revoke = sub.add_parser("revoke", help="revoke the token with this id")
        revoke.add_argument("id", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["action"] == "create":
                bot = bot_account_named(options["name"])
                if bot is None:
                    raise CommandError(f"There is no bot account {options['name']!r} that can play now.")
                _token, secret = token_create(bot_id=bot.pk, by=bot.owner, name=options["label"])
                self.stdout.write(secret)
            else:
                token = AccessToken.objects.select_related("bot__owner").filter(pk=options["id"]).first()
                if token is None:
                    raise CommandError(f"There is no token {options['id']}.")
                token_revoke(token_id=token.pk, by=token.bot.owner)
                self.stdout.write(f"revoked {token.pk} ({token.name})")
        except BotAccountError as error:
            raise CommandError(str(error)) from None
