"""Which language a visitor reads the site in (SPEC 12), in one place.

The browser's `Accept-Language` decides the first time; the visitor's own choice (the switch in every
page's footer) then wins over it and is kept in the language cookie and, for a registered player, in
their profile, which is applied again when they sign in (on any browser). Django's LocaleMiddleware reads
the cookie, then `Accept-Language`, for every page; `language_for_scope` does the same for WebSockets.
"""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_POST
from django.views.i18n import set_language as django_set_language


def supported(code: str | None) -> str | None:
    """`code` as one of the site's languages ("ro-RO" gives "ro"), or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def remember(response: HttpResponseBase, language: str) -> None:
    """Keep the choice in the language cookie (the one LocaleMiddleware reads)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def save_to_profile(user: Any, language: str) -> None:
    """A registered player's choice follows them to other browsers; a guest's stays in the cookie."""
    if user.is_authenticated and not user.is_guest and user.language != language:
        user.language = language
        user.save(update_fields=["language"])


@require_POST
def set_language(request: HttpRequest) -> HttpResponseBase:
    """The footer's switch: Django's own view (cookie, safe redirect), and the profile too."""
    response = django_set_language(request)
    language = supported(request.POST.get("language"))
    if language is not None:
        save_to_profile(request.user, language)
    return response


def profile_language(user: Any) -> str | None:
    """The language a signed-in player chose for their profile, if any (applied at sign-in)."""
    return supported(getattr(user, "language", ""))


def language_for_scope(scope: dict[str, Any]) -> str:
    """The language of a WebSocket connection, decided like LocaleMiddleware decides a page's: the
    cookie, then `Accept-Language`, then the default. (The page that opened the socket sent the same.)"""
    headers = dict(scope.get("headers") or [])
    cookies = scope.get("cookies")
    if cookies is None:
        jar: SimpleCookie = SimpleCookie()
        jar.load(headers.get(b"cookie", b"").decode("latin-1"))
        cookies = {name: morsel.value for name, morsel in jar.items()}
    language = supported(cookies.get(settings.LANGUAGE_COOKIE_NAME))
    if language is not None:
        return language
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        language = supported(code) if code != "*" else None
        if language is not None:
            return language
    return supported(settings.LANGUAGE_CODE) or settings.LANGUAGE_CODE
