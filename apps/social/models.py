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


class ChallengePolicy(models.TextChoices):
    """Who may challenge a player (SPEC 17, as lichess' `challenge` preference)."""

    NEVER = "never", _("Nobody")
    FRIENDS = "friends", _("Friends only")
    RATING = "rating", _("Players within 300 rating points")
    REGISTERED = "registered", _("Registered players")
    ANYONE = "anyone", _("Anyone")


class SocialSettings(models.Model):
    """A player's choices about the others: who may challenge them. No row: the defaults."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="social_settings")
    challenges_from = models.CharField(
        _("who may challenge you"), max_length=12, choices=ChallengePolicy.choices, default=ChallengePolicy.REGISTERED
    )

    class Meta:
        verbose_name = _("challenge preference")
        verbose_name_plural = _("challenge preferences")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.challenges_from}"


class Challenge(models.Model):
    """An invitation of one or more players to a table that does not exist yet (SPEC 17).

    Why not the tables' seat invitations (`Seat.invited`, apps/tables/services/seating.py): those keep a
    seat of a table that is already open, so the challenger would host an unstarted table for up to two
    weeks (against the limit of 3 unstarted tables and the 10-minute close of unwatched tables), each
    acceptance would be a sit-down, and the match would still need a separate start. A challenge is the
    agreement before any table: nothing is held while the players answer, and when the last one accepts
    the table opens with everyone seated and its match started in the same transaction
    (`tables.services.table_open_started`, called by the app above through `open_table`). It also keeps
    what a seat invitation has no room for: a decline's reason, the pace and match length asked for, and
    an expiry of days. This app is on floor 2 and does not know tables; `table_id` is a plain number.

    A direct challenge names a player for every seat but the challenger's and lives 2 weeks; an open one
    names fewer (perhaps none) and anyone signed up who has its link may take a free place; it lives a
    day."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for answers")
        STARTED = "started", _("Started")
        DECLINED = "declined", _("Declined")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Expired")

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_made")
    game = models.CharField(_("game"), max_length=40)
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    turn_seconds = models.PositiveIntegerField(_("seconds per turn"))
    match_length = models.PositiveSmallIntegerField(_("games in the match"), default=1)
    casual = models.BooleanField(_("casual"), default=False)
    open = models.BooleanField(_("open to anyone with the link"), default=False)
    status = models.CharField(_("status"), max_length=12, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(_("made"), auto_now_add=True)
    expires_at = models.DateTimeField(_("expires"), db_index=True)
    ended_at = models.DateTimeField(_("ended"), null=True, blank=True)
    table_id = models.PositiveIntegerField(_("table"), null=True, blank=True)

    class Meta:
        verbose_name = _("challenge")
        verbose_name_plural = _("challenges")
        indexes = [models.Index(fields=["status", "expires_at"], name="social_challenge_due")]

    def __str__(self) -> str:
        return f"challenge {self.pk} by {self.challenger_id} ({self.status})"

    @property
    def free_places(self) -> int:
        """Places no player has taken yet (an open challenge's; its invitees prefetched or not)."""
        return max(0, self.seat_count - 1 - len(self.invitees.all()))


class ChallengeInvitee(models.Model):
    """A player asked to (or, for an open challenge, who chose to) take a place in a challenge, and their
    answer."""

    class Answer(models.TextChoices):
        WAITING = "waiting", _("Not answered yet")
        ACCEPTED = "accepted", _("Accepted")
        DECLINED = "declined", _("Declined")

    class Reason(models.TextChoices):
        """Why a challenge is declined (SPEC 17; a subset of lichess' reasons that fit tables)."""

        NOT_NOW = "not_now", _("Not now")
        LATER = "later", _("Later, please")
        TOO_FAST = "too_fast", _("Too fast for me")
        TOO_SLOW = "too_slow", _("Too slow for me")
        CASUAL_ONLY = "casual_only", _("Casual games only")
        RATED_ONLY = "rated_only", _("Rated games only")
        NOT_THIS_GAME = "not_this_game", _("Not this game")

    challenge = models.ForeignKey(Challenge, on_delete=models.CASCADE, related_name="invitees")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_received")
    answer = models.CharField(_("answer"), max_length=10, choices=Answer.choices, default=Answer.WAITING)
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices, blank=True)
    answered_at = models.DateTimeField(_("answered"), null=True, blank=True)

    class Meta:
        verbose_name = _("challenged player")
        verbose_name_plural = _("challenged players")
        constraints = [models.UniqueConstraint(fields=["challenge", "user"], name="social_invitee_once")]
        indexes = [models.Index(fields=["user", "answer"], name="social_invitee_user")]

    def __str__(self) -> str:
        return f"{self.user_id} in challenge {self.challenge_id}: {self.answer}"
