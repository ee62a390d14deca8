"""Where each signed-in account comes from (SPEC 11, linked accounts): its network address, as the
site's own proxy saw it (apps.lib.client_address), and its browser, named by a long-lived random
first-party cookie set here. Written at most once a day per account, address and browser (the service
remembers in the cache what it wrote), so a page view costs no query."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from apps.lib.client_address import client_address
from apps.moderation.services import sighting_record

#: The browser cookie: a random name for this browser, nothing else (HttpOnly, first party, Lax).
BROWSER_COOKIE = "rb"
BROWSER_COOKIE_AGE = timedelta(days=730)
_BROWSER_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def new_browser_token() -> str:
    return secrets.token_urlsafe(16)


class SightingMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is None or not user.is_authenticated:
            return response
        browser = request.COOKIES.get(BROWSER_COOKIE, "")
        if not _BROWSER_TOKEN.fullmatch(browser):
            browser = new_browser_token()
            response.set_cookie(
                BROWSER_COOKIE, browser, max_age=int(BROWSER_COOKIE_AGE.total_seconds()), httponly=True,
                samesite="Lax", secure=settings.SESSION_COOKIE_SECURE,
            )
        sighting_record(user_id=user.pk, address=client_address(request), browser=browser)
        return response
