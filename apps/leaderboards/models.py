"""Ratings per player and game, and the change each rated match made to them.

Only registered players ever get a row here (the rating service skips site bots and guests). Bot
accounts (SPEC 14) are rated too, only in matches among bot accounts, on a board of their own: `bot`
says which board a row is on (a bot account's rows are all on the bots' board, a person's on the
people's). Both boards share one rating service, one ledger (AppliedMatch) and one history
(RatingChange, the profile's chart): a separate table for bots would have copied all three. Each
leaderboard reads this table alone, through the (game, bot, -rating, id) index, without joining users.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.leaderboards.rating import START_RATING, is_provisional


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(_("game"), max_length=40)
    rating = models.IntegerField(_("rating"), default=START_RATING)
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    peak = models.IntegerField(_("highest rating"), default=START_RATING)
    bot = models.BooleanField(_("bot accounts' board"), default=False)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="rating_one_per_user_and_game")]
        indexes = [models.Index(fields=["game", "bot", "-rating", "id"], name="rating_board_idx")]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")

    def __str__(self) -> str:
        return f"{self.user_id} {self.game}: {self.rating}"

    @property
    def provisional(self) -> bool:
        return is_provisional(self.matches)


class RatingChange(models.Model):
    """What one rated match did to one player's rating. Unique per (match, user): the database itself
    refuses to apply a match twice, whatever happens to the task queue."""

    # PROTECT: deleting a rated match would leave ratings that no history explains.
    match = models.ForeignKey("tables.Match", on_delete=models.PROTECT, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(_("game"), max_length=40)
    place = models.PositiveSmallIntegerField(_("place used for the rating"))
    before = models.IntegerField(_("before"))
    after = models.IntegerField(_("after"))
    delta = models.IntegerField(_("change"))
    created_at = models.DateTimeField(_("applied"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="rating_change_once_per_match")]
        indexes = [models.Index(fields=["user", "game", "created_at"], name="rating_change_history_idx")]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")

    def __str__(self) -> str:
        return f"{self.user_id} in match {self.match_id}: {self.delta:+d}"


class AppliedMatch(models.Model):
    """The ratings' own once-only ledger: one row per rated match applied (or found to have nothing to
    rate, or voided). Its unique match is what makes applying a match happen exactly once, whatever the task queue
    does; the tables app's rows are only read."""

    match = models.OneToOneField("tables.Match", on_delete=models.PROTECT, related_name="+")
    applied_at = models.DateTimeField(_("applied"), auto_now_add=True)
    rated = models.BooleanField(_("ratings changed"), default=True, help_text=_("False: nothing to rate"))
    # Voided by a moderator (SPEC 11): its rating changes were taken back and later ones recomputed. A
    # match voided before the rating task ran gets its ledger row then, so the task finds it taken.
    voided_at = models.DateTimeField(_("voided"), null=True, blank=True)

    class Meta:
        verbose_name = _("applied match")
        verbose_name_plural = _("applied matches")

    def __str__(self) -> str:
        return f"match {self.match_id} applied {self.applied_at:%Y-%m-%d %H:%M}"
