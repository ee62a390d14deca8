from __future__ import annotations

from allauth.account.adapter import get_adapter
from django import forms
from django.utils.translation import gettext_lazy as _


class BotAccountForm(forms.Form):
    """A new bot account's name (allauth's own username rules, as at sign-up) and what it is."""

    username = forms.CharField(
        label=_("The bot account's name"), max_length=150,
        help_text=_("A new account, shown at the tables with a BOT mark. It cannot be changed later."),
    )
    description = forms.CharField(
        label=_("What it is (optional)"), max_length=200, required=False,
        help_text=_("One line for the people it plays, such as its author or how it plays."),
    )

    def clean_username(self) -> str:
        return str(get_adapter().clean_username(self.cleaned_data["username"]))


class TokenForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"), max_length=60, help_text=_("Where it is used, so you can tell your tokens apart.")
    )
