"""allauth hooks: keep the guest name space for guests; a player's language at sign-up and sign-in, and in
the mail the site sends them (the sender's name too)."""

from __future__ import annotations

from email.utils import parseaddr
from typing import Any

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.translation import gettext as _

from apps.accounts.language import profile_language, remember, supported
from apps.accounts.services import GUEST_PREFIX, is_guest_name


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        # Generated guest names must never clash with a name somebody chose (and nobody should pass
        # for a guest), so the prefix is refused at sign-up and when a guest picks a name.
        if not shallow and is_guest_name(username):
            raise forms.ValidationError(
                _("Names starting with “%(prefix)s” are kept for guest accounts: please choose another.")
                % {"prefix": GUEST_PREFIX}
            )
        cleaned: str = super().clean_username(username, shallow=shallow)
        return cleaned

    def save_user(self, request: HttpRequest, user: Any, form: Any, commit: bool = True) -> Any:
        # A new player keeps the language they signed up in (SPEC 12).
        user.language = supported(translation.get_language()) or ""
        return super().save_user(request, user, form, commit=commit)

    def post_login(self, request: HttpRequest, user: Any, **kwargs: Any) -> HttpResponse:
        # A registered player's language is applied at sign-in, before allauth writes its "signed in"
        # message, and kept in the cookie from then on (SPEC 12).
        language = profile_language(user)
        if language is not None:
            translation.activate(language)
        response: HttpResponse = super().post_login(request, user, **kwargs)
        if language is not None:
            remember(response, language)
        return response

    def send_mail(self, template_prefix: str, email: str, context: dict[str, Any]) -> None:
        # A player's mail is written in their profile's language, whatever page sent it; without a
        # player (an address with no account), in the language of the page (SPEC 12).
        language = profile_language(context.get("user")) or translation.get_language()
        with translation.override(language):
            super().send_mail(template_prefix, email, context)

    def get_from_email(self) -> str:
        # The sender's name is the site's name in the mail's language ("Remi pe tablă" in Romanian), unless
        # DEFAULT_FROM_EMAIL names another sender.
        name, address = parseaddr(settings.DEFAULT_FROM_EMAIL)
        if name == "Tile Rummy" and address:
            return f"{_('Tile Rummy')} <{address}>"
        return settings.DEFAULT_FROM_EMAIL
