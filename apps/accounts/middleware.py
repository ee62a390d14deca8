"""Keeps `User.last_seen` roughly current (moderators read it, and the guest cleanup relies on it)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from apps.accounts.services import user_seen


class LastSeenMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            user_seen(user)  # writes at most once every few minutes per user
        return response
