"""Moderators' records (SPEC 11): what every moderator action did, and where each account was seen from.

`ModerationAction` is the log: one row per action (voiding a match, marking a booster, a ban, a mute of
an account's chat), written
by the services that do them, never edited. `Sighting` is the cheap trace that links accounts: one row
per account and network address, and per account and browser (the long-lived `rb` cookie), with the
first and last day it was seen; two accounts with a row of the same kind and value are linked.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class ModerationAction(models.Model):
    class Kind(models.TextChoices):
        VOID_MATCH = "void_match", _("Voided a rated match")
        MARK_BOOSTER = "mark_booster", _("Marked as booster")
        BAN = "ban", _("Banned")
        UNBAN = "unban", _("Lifted a ban")
        MUTE_CHAT = "mute_chat", _("Muted the chat")
        UNMUTE_CHAT = "unmute_chat", _("Lifted a chat mute")

    at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+",
        verbose_name=_("moderator"),
    )
    action = models.CharField(_("action"), max_length=20, choices=Kind.choices)
    target = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="moderation_actions",
        verbose_name=_("account"),
    )
    # A match is never deleted while its ratings exist; SET_NULL keeps the log if one is.
    match = models.ForeignKey(
        "tables.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+", verbose_name=_("match")
    )
    reason = models.TextField(_("reason"), blank=True)
    details = models.JSONField(_("details"), default=dict, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("moderator action")
        verbose_name_plural = _("moderator actions")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action}"


class Sighting(models.Model):
    class Kind(models.TextChoices):
        ADDRESS = "address", _("network address")
        BROWSER = "browser", _("browser")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sightings")
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    value = models.CharField(_("value"), max_length=64)
    first_seen = models.DateField(_("first seen"))
    last_seen = models.DateField(_("last seen"))

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind", "value"], name="sighting_once_per_user")]
        indexes = [models.Index(fields=["kind", "value"], name="sighting_value_idx")]
        verbose_name = _("sighting")
        verbose_name_plural = _("sightings")

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.value}"
