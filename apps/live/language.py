"""The language of a WebSocket's messages, chosen as Django's LocaleMiddleware chooses a page's: the
visitor's language cookie first, then the browser's Accept-Language, then the site's default."""

from __future__ import annotations

from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.utils.translation import get_supported_language_variant
from django.utils.translation.trans_real import parse_accept_lang_header


def _header(scope: dict[str, Any], name: bytes) -> str:
    for key, value in scope.get("headers", ()):
        if key == name:
            return str(value.decode("latin-1"))
    return ""


def language_of(scope: dict[str, Any]) -> str:
    cookies = scope.get("cookies")
    if cookies is None:
        jar = SimpleCookie()
        try:
            jar.load(_header(scope, b"cookie"))
        except Exception:  # a malformed cookie header: as if there were none
            jar = SimpleCookie()
        cookies = {key: morsel.value for key, morsel in jar.items()}
    candidates = [cookies.get(settings.LANGUAGE_COOKIE_NAME) or ""]
    candidates += [code for code, _quality in parse_accept_lang_header(_header(scope, b"accept-language"))]
    for code in candidates:
        if not code or code == "*":
            continue
        try:
            return get_supported_language_variant(code)
        except LookupError:
            continue
    return str(settings.LANGUAGE_CODE)
