"""A player's notifications (SPEC 17), kept 30 days, and where their Web Push goes.

A notification names what it is about by ids (a table, a challenge, the other player): its words are
made when it is shown, in the reader's language (apps/notifications/texts.py), never stored.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Kind(models.TextChoices):
    CHALLENGE_RECEIVED = "challenge_received", _("A challenge to you")
    CHALLENGE_ACCEPTED = "challenge_accepted", _("Your challenge accepted")
    CHALLENGE_DECLINED = "challenge_declined", _("Your challenge declined")
    YOUR_TURN = "your_turn", _("Your turn at a table without a timer")
    FRIEND_OPENED = "friend_opened", _("A friend opened a table")
    TOURNAMENT_SOON = "tournament_soon", _("A tournament you joined starts in 5 minutes")
    SEAT_AWAY = "seat_away", _("A player away for a day at your table without a timer")


class Notification(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications")
    kind = models.CharField(_("kind"), max_length=24, choices=Kind.choices)
    #: The other player it is about (the challenger, the one who answered, the friend), if any.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    table_id = models.PositiveIntegerField(_("table"), null=True, blank=True)
    challenge_id = models.PositiveIntegerField(_("challenge"), null=True, blank=True)
    tournament_id = models.PositiveIntegerField(_("tournament"), null=True, blank=True)
    #: A declined challenge's reason, as its code (apps/social).
    reason = models.CharField(_("reason"), max_length=32, blank=True, default="")
    #: What it is about, by name: a tournament's, as its moderator or the calendar gave it (a calendar
    #: arena's name is translated when shown, as on the tournament's page).
    subject = models.CharField(_("subject"), max_length=120, blank=True, default="")
    created_at = models.DateTimeField(_("created"), db_index=True)
    read_at = models.DateTimeField(_("read"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notif_user_recent"),
            models.Index(fields=["user"], condition=models.Q(read_at__isnull=True), name="notif_user_unread"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for {self.user_id}"


class PushSubscription(models.Model):
    """One browser (or installed app) of a player that accepted Web Push: at most
    NOTIFICATIONS_MAX_DEVICES per player, the oldest goes."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=64)
    #: The language of the page that subscribed: the pushes' words (the player's own choice comes first).
    language = models.CharField(_("language"), max_length=10, blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:40]}"


def default_kinds() -> list[str]:
    return list(Kind.values)


class PushSettings(models.Model):
    """What a player wants pushed, and when not (quiet hours in their own time zone)."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_settings")
    kinds = models.JSONField(_("kinds pushed"), default=default_kinds)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    #: Quiet from this hour to that one (local), e.g. 22 to 8; None: never quiet.
    quiet_from = models.PositiveSmallIntegerField(_("quiet from"), null=True, blank=True)
    quiet_to = models.PositiveSmallIntegerField(_("quiet until"), null=True, blank=True)
    #: Opt-in: once a day, an e-mail of the no-timer tables where it is their turn (apps/notifications/digest.py).
    email_digest = models.BooleanField(_("daily e-mail of tables waiting for you"), default=False)
    #: The day (Europe/Bucharest) that e-mail was last sent: claimed by one UPDATE, so never twice a day.
    digest_sent_on = models.DateField(_("daily e-mail last sent on"), null=True, blank=True, editable=False)

    class Meta:
        verbose_name = _("push settings")
        verbose_name_plural = _("push settings")

    def __str__(self) -> str:
        return str(self.user_id)
