"""Bot accounts (SPEC 14) and their personal access tokens.

A bot account is an ordinary `User` row (so seats, matches, records and bans work for it as for anyone)
with a `BotAccount` beside it naming the registered player who made it. It has no usable password: it
signs in only with a token, and only to the bot API and the sockets (apps/bots/asgi.py, http.py).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class BotAccount(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="bot_account"
    )
    # PROTECT: a bot account is answered for by a person; it goes before its owner does.
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_bots")
    description = models.CharField(_("description"), max_length=200, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["user__username"]
        verbose_name = _("bot account")
        verbose_name_plural = _("bot accounts")

    def __str__(self) -> str:
        return f"{self.user_id} (owner {self.owner_id})"


class AccessToken(models.Model):
    """A personal access token of a bot account. Only its SHA-256 digest is kept (apps/bots/tokens.py
    says why a fast hash is right for random tokens); `prefix` is the first characters of the token,
    shown in the list so its owner can tell tokens apart."""

    bot = models.ForeignKey(BotAccount, on_delete=models.CASCADE, related_name="tokens")
    name = models.CharField(_("name"), max_length=60)
    prefix = models.CharField(_("starts with"), max_length=12, editable=False)
    digest = models.CharField(_("SHA-256 digest"), max_length=64, unique=True, editable=False)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["bot"], name="token_bot_live_idx", condition=Q(revoked_at__isnull=True))]
        verbose_name = _("access token")
        verbose_name_plural = _("access tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def revoked(self) -> bool:
        return self.revoked_at is not None
