"""allauth hooks: keep the guest name space for guests."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from django import forms
from django.utils.translation import gettext as _

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
        return super().clean_username(username, shallow=shallow)
