"""The guest account pages: play now without an account, and keep it (a player's profile page is
apps/players', above the apps it shows)."""

from __future__ import annotations

from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.accounts import services
from apps.accounts.forms import GuestConvertForm
from apps.accounts.requests import SignedInRequest
from apps.accounts.sockets import other_sessions_ended


def _next_url(request: HttpRequest, default: str) -> str:
    target = request.POST.get("next") or request.GET.get("next") or ""
    safe = url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return target if safe else default


@require_POST
def guest_start(request: HttpRequest) -> HttpResponse:
    """"Play now, no account needed": a guest account for a visitor (the signed-in keep theirs)."""
    was_signed_in = request.user.is_authenticated
    user = services.guest_login(request)
    if not was_signed_in:
        messages.success(
            request,
            _("You are playing as %(name)s. Keep this account any time from your profile: your games come with you.")
            % {"name": user.username},
        )
    return redirect(_next_url(request, "tables:lobby"))


@login_required
def guest_convert(request: SignedInRequest) -> HttpResponse:
    """A guest picks a name, an email and a password and keeps the same account (and its history). The
    answer is the same whether or not the address already has an account (SPEC 11, as allauth's sign-up
    does it): a new address is sent its confirmation; one already in use is not taken, and its owner is
    sent allauth's "you already have an account" mail instead."""
    user = request.user
    if not user.is_guest:
        return redirect("players:profile", user.username)
    form = GuestConvertForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        user = services.guest_convert(
            user_id=user.pk, username=data["username"], email="" if form.email_taken else data["email"],
            password=data["password1"],
        )
        update_session_auth_hash(request, user)  # the new password must not sign them out
        other_sessions_ended(request, user)  # but it does the guest's other sessions, sockets included
        if form.email_taken:
            get_adapter(request).send_account_already_exists_mail(data["email"])
        else:
            EmailAddress.objects.get(user=user, primary=True).send_confirmation(request)
        messages.success(
            request,
            _("Welcome, %(name)s: this account is yours now. Check your email: we sent a message to %(email)s.")
            % {"name": user.username, "email": data["email"]},
        )
        return redirect("players:profile", user.username)
    return render(request, "accounts/guest_convert.html", {"form": form})
