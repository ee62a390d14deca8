"""Who follows whom (two follows make friends) and who blocked whom (SPEC 17)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Follow(models.Model):
    """`follower` follows `followed`; a follow both ways makes them friends."""

    follower = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    followed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("follow")
        verbose_name_plural = _("follows")
        constraints = [
            models.UniqueConstraint(fields=["follower", "followed"], name="social_follow_once"),
            models.CheckConstraint(condition=~models.Q(follower=models.F("followed")), name="social_follow_not_self"),
        ]

    def __str__(self) -> str:
        return f"{self.follower_id} -> {self.followed_id}"


class Block(models.Model):
    """`blocker` blocked `blocked`: silently, they no longer challenge, chat to, follow, sit at a table
    hosted by, or are paired with the blocker (SPEC 17)."""

    blocker = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks")
    blocked = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocked_by")
    created_at = models.DateTimeField(_("since"), auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="social_block_once"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="social_block_not_self"),
        ]
        indexes = [models.Index(fields=["blocked", "blocker"], name="social_block_reverse")]

    def __str__(self) -> str:
        return f"{self.blocker_id} x {self.blocked_id}"
