"""Which language a visitor reads the site in (SPEC 12), in one place.

The browser's `Accept-Language` decides the first time; the visitor's own choice (the switch in every
page's footer) then wins over it and is kept in the language cookie and, for a registered player, in
their profile, which is applied again when they sign in (on any browser). Django's LocaleMiddleware reads
the cookie, then `Accept-Language`, for every page; apps/live/language.py does the same for WebSockets.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponseBase
from django.utils import translation
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
