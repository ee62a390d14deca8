"""`manage.py bot_account create NAME --owner USER`: a new bot account owned by USER (for scripts and
tests; the site's page does the same through the same form and service)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from apps.accounts.models import User
from apps.bots.forms import BotAccountForm
from apps.bots.services import BotAccountError, bot_account_create


class Command(BaseCommand):
    help = "Make a bot account (SPEC 14): bot_account create NAME --owner USER"

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        create = sub.add_parser("create", help="a new bot account")
        create.add_argument("name")
        create.add_argument("--owner", required=True, help="the registered player it belongs to")
        create.add_argument("--description", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        owner = User.objects.filter(username=options["owner"]).first()
        if owner is None:
            raise CommandError(f"There is no user {options['owner']!r}.")
        form = BotAccountForm({"username": options["name"], "description": options["description"]})
        if not form.is_valid():
            raise CommandError("; ".join(str(error) for errors in form.errors.values() for error in errors))
        try:
            user = bot_account_create(by=owner, username=form.cleaned_data["username"],
                                      description=form.cleaned_data["description"])
        except BotAccountError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(user.username)
