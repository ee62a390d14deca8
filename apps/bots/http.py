"""The HTTP side of the bot API (SPEC 14, docs/bot-api.md): token authentication, JSON in and out, one
shape of error, and a rate per bot account (all its tokens together: SPEC 14).

    @bot_api(methods=("POST",))
    def open_table(request, body): ...      # request.user is the bot account; body the decoded JSON

Only a request with `Authorization: Bearer TOKEN` gets in: a session cookie opens nothing here, which is
why these views need no CSRF check (CSRF is a browser riding a cookie; a token is never sent by a browser
on its own) and why they are exempt only because of that. Every refusal is JSON:
`{"type": "error", "code": "...", "message": "..."}` with its HTTP status, and changes nothing.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt

from apps.accounts.requests import SignedInRequest
from apps.bots import tokens
from apps.bots.auth import TokenRefused, authenticate
from apps.bots.models import AccessToken

#: The largest request body the API reads (a table's options are a few hundred bytes).
MAX_BODY = 8 * 1024

View = Callable[..., HttpResponse]


class BotRequest(SignedInRequest):
    """The request a `bot_api` view is given (in types only: it is the HttpRequest Django made): its user
    is the token's bot account, never anonymous, and `bot_token` is the token."""

    bot_token: AccessToken


class ApiError(Exception):
    """A refusal of the API: its wire name, a message for the bot's author, and the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.extra = extra


def error_response(code: str, message: str, status: int, **extra: Any) -> JsonResponse:
    return JsonResponse({"type": "error", "code": code, "message": message, **extra}, status=status)


def requests_per_minute() -> int:
    return int(getattr(settings, "BOT_API_REQUESTS_PER_MINUTE", 120))


#: The rate's span, in seconds.
WINDOW = 60


def over_rate(bot_id: int, *, now: float | None = None) -> int | None:
    """Count a request of the bot account (whichever of its tokens made it: more tokens are no more
    requests); the seconds to wait if it is one too many. The count is reserved first (`add` then
    `incr`, both atomic in the cache), so requests at the same moment each get their own number and never
    all pass one check (CONVENTIONS 25); a refused request counts too (coming back before `Retry-After`
    only pushes it further).

    What is checked is the usual sliding-window estimate of the last 60 seconds: this minute's count plus
    the previous minute's, weighted by the part of it the last 60 seconds still cover. Fixed minutes alone
    let a bot make twice the rate in a moment across a minute's boundary (the rate's count at 0:59.9, and
    as many again at 1:00.0)."""
    now = time.time() if now is None else now
    window = int(now // WINDOW)
    elapsed = now - window * WINDOW
    key = f"bots:api-rate:{bot_id}:{window}"
    cache.add(key, 0, timeout=2 * WINDOW + 10)  # kept through the next minute, which weighs it
    try:
        count = cache.incr(key)
    except ValueError:  # evicted between the two calls: start the window again, atomically too
        count = 1 if cache.add(key, 1, timeout=2 * WINDOW + 10) else cache.incr(key)
    before = int(cache.get(f"bots:api-rate:{bot_id}:{window - 1}") or 0)
    limit = requests_per_minute()
    if before * (WINDOW - elapsed) / WINDOW + count <= limit:
        return None
    return max(1, math.ceil(_wait(before=before, count=count, elapsed=elapsed, limit=limit)))


def _wait(*, before: int, count: int, elapsed: float, limit: int) -> float:
    """The seconds until one more request fits under the estimate, if none is made meanwhile.

    >>> round(_wait(before=0, count=121, elapsed=59.0, limit=120), 2)  # next minute, once this one weighs less
    1.99
    >>> round(_wait(before=120, count=1, elapsed=0.0, limit=120), 2)  # this minute, as the last one's fades
    1.0
    """
    if before and count + 1 <= limit:
        fits_at = WINDOW * (1 - (limit - count - 1) / before)  # the previous minute has faded enough
        if fits_at < WINDOW:
            return max(0.0, fits_at - elapsed)
    fits_next = WINDOW * (1 - (limit - 1) / count) if count else 0.0
    return WINDOW - elapsed + max(0.0, fits_next)


def read_body(request: HttpRequest) -> dict[str, Any]:
    if not request.body:
        return {}
    if len(request.body) > MAX_BODY:
        raise ApiError("too_big", _("A request body may be at most %(size)s bytes.") % {"size": MAX_BODY}, 413)
    try:
        body = json.loads(request.body)
    except (ValueError, RecursionError):
        raise ApiError("bad_json", _("The request body must be a JSON object.")) from None
    if not isinstance(body, dict):
        raise ApiError("bad_json", _("The request body must be a JSON object."))
    return body


def bot_api(methods: Sequence[str] = ("GET",)) -> Callable[[View], View]:
    """A view of the bot API: `view(request, body, **kwargs)` with `request.user` the bot account of the
    token and `request.bot_token` the token; it returns a response or raises ApiError."""

    def decorate(view: View) -> View:
        @csrf_exempt  # only token requests ever get past the first lines below: see the module's docstring
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            secret = tokens.bearer(request.headers.get("Authorization"))
            if secret is None:
                return error_response(
                    "no_token", _("The bot API needs an Authorization: Bearer TOKEN header."), 401
                )
            try:
                token = authenticate(secret)
            except TokenRefused as refusal:
                return error_response(refusal.code, str(refusal), refusal.status)
            wait = over_rate(token.bot.user_id)
            if wait is not None:
                response = error_response(
                    "rate_limited",
                    _("Too many requests: at most %(count)s a minute per bot account.") % {"count": requests_per_minute()},
                    429,
                )
                response["Retry-After"] = str(wait)
                return response
            if request.method not in methods:
                response = error_response(
                    "method_not_allowed", _("Use %(methods)s here.") % {"methods": " or ".join(methods)}, 405
                )
                response["Allow"] = ", ".join(methods)
                return response
            request.user = token.bot.user
            request.bot_token = token  # type: ignore[attr-defined]  # what BotRequest declares for the view
            try:
                return view(request, read_body(request) if request.method == "POST" else {}, *args, **kwargs)
            except ApiError as error:
                return error_response(error.code, str(error), error.status, **error.extra)

        return wrapped

    return decorate
