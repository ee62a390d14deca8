"""Who a presented token is: one rule for the sockets (apps/bots/asgi.py) and the bot API (http.py).

A token opens nothing if it is unknown or revoked, or if its bot account is disabled or banned. A
refusal carries its wire name, a message for the bot's author, the HTTP status and the socket close code.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.models import User
from apps.bots.models import AccessToken
from apps.bots.selectors import live_token
from apps.bots.services import token_used

#: Close codes of a token socket (docs/bot-api.md): the token opens nothing (unknown, or revoked, also
#: while the socket is open); the bot account may not play (disabled or banned).
CLOSE_BAD_TOKEN = 4401
CLOSE_FORBIDDEN = 4403


class TokenRefused(Exception):
    def __init__(self, code: str, message: str, *, status: int, close_code: int) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.close_code = close_code


def bad_token() -> TokenRefused:
    return TokenRefused(
        "bad_token", _("This token is not valid: it is unknown or was revoked."), status=401, close_code=CLOSE_BAD_TOKEN
    )


def revoked() -> TokenRefused:
    return TokenRefused("token_revoked", _("This token was revoked."), status=401, close_code=CLOSE_BAD_TOKEN)


def account_refusal(user: User) -> TokenRefused | None:
    """Why this bot account may not act now (None: it may)."""
    if not user.is_active:
        return TokenRefused("account_disabled", _("This bot account is disabled."), status=403,
                            close_code=CLOSE_FORBIDDEN)
    if user.is_banned:
        until = timezone.localtime(user.banned_until).strftime("%Y-%m-%d %H:%M")
        return TokenRefused("banned", _("This bot account is banned from playing until %(until)s.") % {"until": until},
                            status=403, close_code=CLOSE_FORBIDDEN)
    return None


def authenticate(secret: str) -> AccessToken:
    """The live token `secret` is, its use recorded (at most once a minute); TokenRefused otherwise."""
    token = live_token(secret) if secret else None
    if token is None:
        raise bad_token()
    refusal = account_refusal(token.bot.user)
    if refusal is not None:
        raise refusal
    token_used(token)
    return token
