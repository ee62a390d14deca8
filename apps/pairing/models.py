"""Who waits in a pool, the seeks posted in the lobby, and how long recent players waited (SPEC 15).

A player is in at most one pool and has at most one seek (`user` is unique in each; joining a pool takes
back the player's seek and the other way round). A pool is not a row: it is the game, seats, pace and
rated of its entries (`apps/pairing/pools.py`).

An entry lives while the player's waiting page is open (its socket stamps `seen_at` every two seconds;
the sweep removes entries not seen for PAIRING_GONE_SECONDS). When a wave seats it, the entry stays with
`table_id` set until every player of that table has come (`arrived`), or until `paired_until`, when the
absent lose the seat and go to the back of the pool and the others to its front.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class PoolEntry(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="pool_entry")
    game = models.CharField(_("game"), max_length=40)
    seats = models.PositiveSmallIntegerField(_("seats"))
    pace = models.PositiveSmallIntegerField(_("seconds per turn"))
    rated = models.BooleanField(_("rated"))
    #: Casual pools only: a bot may take the other seats after PAIRING_BOT_SECONDS of waiting.
    bot_fill = models.BooleanField(_("fill with a bot"), default=False)
    #: What the grouping needs, read once when the player joins.
    rating = models.FloatField(_("rating"))
    provisional = models.BooleanField(_("provisional rating"), default=False)
    leaver = models.BooleanField(_("frequent leaver"), default=False)
    #: The waves this player has missed (the tolerance widens with each: apps/lib/grouping.py).
    waves = models.PositiveIntegerField(_("waves missed"), default=0)
    #: The place in the pool: the wave favours the longest waiting; "the back" is now, "the front" the
    #: time first joined. `since` is when the player pressed the button (the waited time shown).
    joined_at = models.DateTimeField(_("in the pool since"))
    since = models.DateTimeField(_("waiting since"))
    seen_at = models.DateTimeField(_("page last seen"))
    table_id = models.PositiveIntegerField(_("paired at table"), null=True, blank=True)
    paired_until = models.DateTimeField(_("must come to the table by"), null=True, blank=True)
    arrived = models.BooleanField(_("came to the table"), default=False)

    class Meta:
        ordering = ["joined_at"]
        indexes = [
            models.Index(fields=["game", "seats", "pace", "rated", "joined_at"], name="pool_entry_pool_idx"),
            models.Index(fields=["table_id"], name="pool_entry_table_idx", condition=Q(table_id__isnull=False)),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(seats__gte=2, seats__lte=4), name="pool_entry_seats_2_4"),
            models.CheckConstraint(condition=~Q(rated=True, bot_fill=True), name="pool_entry_no_bot_when_rated"),
        ]
        verbose_name = _("player waiting in a pool")
        verbose_name_plural = _("players waiting in pools")

    def __str__(self) -> str:
        return f"{self.user_id} in {self.game}/{self.seats}/{self.pace}/{'rated' if self.rated else 'casual'}"


class Seek(models.Model):
    """A player's offer in the lobby: this game, seats and pace, rated or casual, with opponents rated
    between `rating_min` and `rating_max`."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seek")
    game = models.CharField(_("game"), max_length=40)
    seats = models.PositiveSmallIntegerField(_("seats"))
    pace = models.PositiveSmallIntegerField(_("seconds per turn"))
    rated = models.BooleanField(_("rated"))
    rating = models.FloatField(_("rating"))
    rating_min = models.PositiveIntegerField(_("lowest rating"))
    rating_max = models.PositiveIntegerField(_("highest rating"))
    created_at = models.DateTimeField(_("posted"))
    seen_at = models.DateTimeField(_("page last seen"))

    class Meta:
        ordering = ["created_at"]
        indexes = [models.Index(fields=["game", "seats", "pace", "rated", "created_at"], name="seek_kind_idx")]
        constraints = [
            models.CheckConstraint(condition=Q(seats__gte=2, seats__lte=4), name="seek_seats_2_4"),
            models.CheckConstraint(condition=Q(rating_min__lte=models.F("rating_max")), name="seek_range_ordered"),
        ]
        verbose_name = _("seek")
        verbose_name_plural = _("seeks")

    def __str__(self) -> str:
        return f"seek of {self.user_id}: {self.game}/{self.seats}/{self.pace} {self.rating_min}-{self.rating_max}"


class Wait(models.Model):
    """How long a player waited in a pool before being seated: the waiting screen's typical wait."""

    pool = models.CharField(_("pool"), max_length=80, db_index=True)
    seconds = models.FloatField(_("seconds waited"))
    at = models.DateTimeField(_("seated at"), db_index=True)

    class Meta:
        ordering = ["-at"]
        verbose_name = _("wait")
        verbose_name_plural = _("waits")

    def __str__(self) -> str:
        return f"{self.pool}: {self.seconds:.0f} s"
