"""The review of each finished game, and the hints players used (SPEC 13).

A `GameReview` is stored once per game (the database refuses a second): the task that computes it finds
it pending, or ready, or failed; only pending ever changes. A `HintUse` is one hint one seat asked for in
one game, numbered 1 to 3: the database refuses a fourth, and two requests at once cannot both be third.
Both rows are this app's own; the tables' rows are read through `apps/tables/selectors.py`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: Hints per game per player at an unrated table (SPEC 13).
HINTS_PER_GAME = 3


class GameReview(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending", _("being prepared")
        READY = "ready", _("ready")
        FAILED = "failed", _("failed")

    game = models.OneToOneField("tables.Game", on_delete=models.CASCADE, related_name="review")
    status = models.CharField(_("status"), max_length=8, choices=Status.choices, default=Status.PENDING)
    data = models.JSONField(_("review"), null=True, blank=True, help_text=_("apps.engine.review's Review.to_dict()"))
    error = models.TextField(_("why it failed"), blank=True, default="")
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    created_at = models.DateTimeField(_("queued"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "created_at"], name="review_status_idx")]
        verbose_name = _("game review")
        verbose_name_plural = _("game reviews")

    def __str__(self) -> str:
        return f"review of game {self.game_id}: {self.status}"


class HintUse(models.Model):
    game = models.ForeignKey("tables.Game", on_delete=models.CASCADE, related_name="hints_used")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    number = models.PositiveSmallIntegerField(_("hint number in the game"))
    move = models.PositiveIntegerField(_("moves made before the hint"))
    version = models.PositiveIntegerField(_("table version the hint was for"))
    created_at = models.DateTimeField(_("asked"), auto_now_add=True)

    class Meta:
        ordering = ["game", "seat", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "number"], name="hint_once_per_number"),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=HINTS_PER_GAME), name="hint_number_1_to_3"),
        ]
        verbose_name = _("hint used")
        verbose_name_plural = _("hints used")

    def __str__(self) -> str:
        return f"hint {self.number} of seat {self.seat} in game {self.game_id}"
