"""Keeps `User.last_seen` roughly current (moderators read it, and the guest cleanup relies on it); and
answers a visitor over the new-guests limit (from any view that makes a guest) with a page that says so."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from apps.accounts.services import GuestsLimited, user_seen


class LastSeenMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            user_seen(user)  # writes at most once every few minutes per user
        return response


class GuestsLimitedMiddleware:
    """Any view that makes a guest (Play now, a seat from the lobby, "play as a guest") may meet the limit
    of new guests per address: the answer is one page, 429, with the reason."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if isinstance(exception, GuestsLimited):
            return render(request, "429.html", {"message": str(exception), "offer_signup": True}, status=429)
        return None
