"""What is said at a table (SPEC 13), who muted whom, and what was reported (SPEC 11).

These rows are this app's own; the tables' rows are named by foreign key and read through
`apps/tables/selectors.py`. A deleted message stays, marked (`deleted_by`/`deleted_at`): moderators see
what was said.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.chat.phrases import PHRASES, REPORT_REASONS

#: The longest message (SPEC 13).
MAX_LENGTH = 200
#: The longest free text of a report.
MAX_REPORT_LENGTH = 500


class ChatMessage(models.Model):
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="chat_messages")
    match = models.ForeignKey("tables.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="chat_messages")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_messages")
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True, help_text=_("empty: a spectator"))
    text = models.CharField(_("text"), max_length=MAX_LENGTH, blank=True, default="")
    phrase = models.CharField(_("quick phrase"), max_length=12, blank=True, default="",
                              choices=[(code, words) for code, words in PHRASES.items()])
    created_at = models.DateTimeField(_("sent"), auto_now_add=True, db_index=True)
    deleted_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("deleted by"))
    deleted_at = models.DateTimeField(_("deleted"), null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(fields=["table", "-id"], name="chat_table_idx"),
            models.Index(fields=["author", "created_at"], name="chat_author_idx"),
        ]
        verbose_name = _("chat message")
        verbose_name_plural = _("chat messages")

    def __str__(self) -> str:
        return f"#{self.pk} at table {self.table_id}: {self.text or self.phrase}"


class ChatMute(models.Model):
    """`viewer` does not see what `muted` says (at any table), until they unmute."""

    viewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["viewer", "muted"], name="chat_mute_once")]
        verbose_name = _("chat mute")
        verbose_name_plural = _("chat mutes")

    def __str__(self) -> str:
        return f"{self.viewer_id} mutes {self.muted_id}"


class Report(models.Model):
    """A player (and perhaps one of their messages) reported from a table, with what the table looked like
    then: the last chat messages and the match's id and version."""

    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made",
                                 verbose_name=_("reporter"))
    reported = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_received",
                                 verbose_name=_("reported player"))
    message = models.ForeignKey(ChatMessage, on_delete=models.SET_NULL, null=True, blank=True, related_name="reports",
                                verbose_name=_("message"))
    table = models.ForeignKey("tables.Table", on_delete=models.CASCADE, related_name="reports")
    match = models.ForeignKey("tables.Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="reports")
    reason = models.CharField(_("reason"), max_length=12, choices=[(code, words) for code, words in REPORT_REASONS.items()])
    text = models.CharField(_("what happened"), max_length=MAX_REPORT_LENGTH, blank=True, default="")
    context = models.JSONField(_("context"), default=dict, blank=True,
                               help_text=_("the table's last chat messages, the match and its version then"))
    created_at = models.DateTimeField(_("reported"), auto_now_add=True, db_index=True)
    handled = models.BooleanField(_("handled"), default=False, db_index=True)
    handled_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+", verbose_name=_("handled by"))

    class Meta:
        constraints = [
            # One report per reporter and target: a player at a table, or one message.
            models.UniqueConstraint(fields=["reporter", "reported", "table"], condition=Q(message__isnull=True),
                                    name="report_player_once_per_table"),
            models.UniqueConstraint(fields=["reporter", "message"], condition=Q(message__isnull=False),
                                    name="report_message_once"),
        ]
        verbose_name = _("report")
        verbose_name_plural = _("reports")

    def __str__(self) -> str:
        return f"report #{self.pk}: {self.reported_id} at table {self.table_id}"


class ModeratorMute(models.Model):
    """A moderator silenced this account's chat until `until` (SPEC 13), everywhere: what it sends to a
    table is refused with the reason, while it still plays. Made and lifted through apps/moderation
    (logged there); the row is the mute in force, the log is its history."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True,
                                related_name="chat_muted", verbose_name=_("account"))
    until = models.DateTimeField(_("muted until"), db_index=True)
    reason = models.CharField(_("reason"), max_length=500, blank=True, default="")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                           related_name="+", verbose_name=_("moderator"))
    created_at = models.DateTimeField(_("muted"), auto_now=True)

    class Meta:
        verbose_name = _("moderator's chat mute")
        verbose_name_plural = _("moderators' chat mutes")

    def __str__(self) -> str:
        return f"{self.user_id} muted until {self.until:%Y-%m-%d %H:%M}"
