from __future__ import annotations

from typing import Any

from allauth.account import app_settings as allauth_settings
from allauth.account.adapter import get_adapter
from allauth.account.forms import SignupForm as AllauthSignupForm
from allauth.account.internal.flows.login import perform_login
from allauth.account.internal.flows.signup import complete_signup
from allauth.account.models import EmailAddress, Login
from django import forms
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext_lazy as _

from apps.accounts.models import User


def email_in_use(email: str) -> bool:
    return EmailAddress.objects.filter(email__iexact=email).exists() or User.objects.filter(email__iexact=email).exists()


class SignupForm(AllauthSignupForm):
    """allauth's sign-up, answering a taken address exactly as a new one (SPEC 11), while signing in
    stays open to unverified addresses (ACCOUNT_EMAIL_VERIFICATION "optional": moderators and older
    accounts sign in as before). allauth prevents enumeration at sign-up only with mandatory
    verification, so the sign-up itself is run as mandatory: a new account is mailed its confirmation
    and not signed in, and a taken address gets no account while its owner is mailed allauth's "you
    already have an account"; both then see the same "check your email" page."""

    def validate_unique_email(self, value: str) -> str:
        self.account_already_exists = email_in_use(value)
        return value

    def try_save(self, request: HttpRequest) -> tuple[Any, HttpResponse | None]:
        mandatory = allauth_settings.EmailVerificationMethod.MANDATORY
        if self.account_already_exists:
            login = Login(user=None, email=self.cleaned_data.get("email"), signup=True, email_verification=mandatory)
            return None, perform_login(request, login)
        user = self.save(request)
        return user, complete_signup(request, user=user, email_verification=mandatory)


class GuestConvertForm(forms.Form):
    """Name, email and password for a guest who keeps their account. Validation is allauth's own
    (the same rules as the sign-up form), so the two ways of getting an account cannot drift apart."""

    username = forms.CharField(
        label=_("Username"), max_length=150, help_text=_("Shown at the tables and on the leaderboards.")
    )
    email = forms.EmailField(label=_("Email"), help_text=_("For signing in and resetting the password; never shown."))
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}))
    password2 = forms.CharField(
        label=_("Password (again)"), widget=forms.PasswordInput(attrs={"autocomplete": "new-password"})
    )

    def __init__(self, *args: Any, user: User, **kwargs: Any) -> None:
        self.user = user
        super().__init__(*args, **kwargs)
        self.fields["username"].widget.attrs.update(autocomplete="username")
        self.fields["email"].widget.attrs.update(autocomplete="email")

    def clean_username(self) -> str:
        username: str = get_adapter().clean_username(self.cleaned_data["username"])
        return username

    #: Whether the address already belongs to an account. The form never says so (SPEC 11: allauth's
    #: enumeration prevention): the view keeps the guest's account without it and mails the owner instead.
    email_taken = False

    def clean_email(self) -> str:
        email: str = get_adapter().clean_email(self.cleaned_data["email"])
        self.email_taken = email_in_use(email)
        return email

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords are not the same."))
        elif first:
            try:
                get_adapter().clean_password(first, user=self.user)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return data
