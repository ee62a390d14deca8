"""Tables, seats, matches, games and the move log.

Every write goes through `apps/tables/services.py`, which locks the table row, checks its version,
asks the engine, saves, and raises the version by one. The engine state of the game in progress is
kept as the engine's own JSON (`to_dict`), never interpreted here.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from apps.live.guard import CLIENT_ID_LENGTH


def new_invite_token() -> str:
    return secrets.token_urlsafe(16)


class BotLevel(models.TextChoices):
    EASY = "easy", _("Easy")
    HARD = "hard", _("Hard")


class Table(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Waiting for players")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Match over")
        CLOSED = "closed", _("Closed")

    class Due(models.TextChoices):
        """What the table does by itself at `due_at` (a Celery task is queued for it, and a periodic
        sweep runs anything overdue, so a lost task delays it by seconds, never forever)."""

        NOTHING = "", _("nothing")
        TIMEOUT = "timeout", _("turn timeout")
        BOT = "bot", _("bot turn")
        AUTOPILOT = "autopilot", _("autopilot turn")
        NEXT_GAME = "next_game", _("next game")
        DEAL = "deal", _("first deal, once the players' seeds are in")  # SPEC 11: apps/tables/fairness.py

    game = models.CharField(_("game"), max_length=40, db_index=True)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="hosted_tables"
    )
    seat_count = models.PositiveSmallIntegerField(_("seats"))
    match_length = models.PositiveSmallIntegerField(_("games per match"), default=1)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=0, help_text=_("0: no timer"))
    private = models.BooleanField(_("private"), default=False)
    invite_token = models.CharField(_("invite token"), max_length=32, unique=True, default=new_invite_token)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    #: The players asked for an unrated match (a casual pool, challenge or arena: SPEC 15-17).
    casual = models.BooleanField(_("casual"), default=False)
    rated = models.BooleanField(_("rated"), default=False)
    #: Why the table is (or its match was) unrated: reason codes of apps/tables/rated.py, decided there
    #: with `rated` whenever the seats change before a match and when it starts.
    unrated_reasons = models.JSONField(_("why unrated"), default=list, blank=True, editable=False)
    version = models.PositiveIntegerField(_("version"), default=0)
    match = models.ForeignKey("Match", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    current_game = models.ForeignKey("Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    due_at = models.DateTimeField(_("due at"), null=True, blank=True)
    due_action = models.CharField(_("due action"), max_length=12, choices=Due.choices, blank=True, default="")
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)
    closed_reason = models.CharField(_("closed because"), max_length=200, blank=True)
    #: When a socket last watched the table (SPEC 11: an unstarted table nobody looks at closes). Stamped
    #: at most once a minute per table (apps/tables/services/upkeep.py), never by a move.
    watched_at = models.DateTimeField(_("last watched"), null=True, blank=True)
    #: Who sits where, as the table's viewers see it (`services.seating.seating_of`): written with the
    #: seats in the same transaction, so a move reads one row instead of the seats and their users.
    seating = models.JSONField(_("seating"), default=list, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "private", "-created_at"], name="table_lobby_idx"),
            models.Index(fields=["due_at"], name="table_due_idx", condition=Q(due_at__isnull=False)),
        ]
        constraints = [
            models.CheckConstraint(condition=Q(seat_count__gte=2, seat_count__lte=4), name="table_seat_count_2_4"),
            models.CheckConstraint(condition=Q(match_length__in=[1, 3, 5]), name="table_match_length_1_3_5"),
        ]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"#{self.pk} {self.game}"

    @property
    def group_name(self) -> str:
        return f"table.{self.pk}"


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    index = models.PositiveSmallIntegerField(_("seat"))
    # PROTECT: a seat is freed by the table's services, never by deleting its user behind their back
    # (the guest clean-up deletes only guests who hold no seat).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="seats"
    )
    bot_level = models.CharField(_("bot level"), max_length=8, choices=BotLevel.choices, blank=True, default="")
    #: A bot account the host invited into this empty seat (SPEC 14): the seat is kept for it until it
    #: accepts (and sits) or declines.
    invited = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="seat_invitations"
    )
    invited_at = models.DateTimeField(_("invited"), null=True, blank=True)
    joined_at = models.DateTimeField(_("joined"), null=True, blank=True)
    left_match = models.BooleanField(_("left the match"), default=False)
    rematch = models.BooleanField(_("wants a rematch"), default=False)
    #: The player halved their own turn time for this match before its first move (an arena's berserk:
    #: SPEC 16); cleared when a new match starts.
    berserk = models.BooleanField(_("berserk"), default=False)

    class Meta:
        ordering = ["table", "index"]
        constraints = [
            models.UniqueConstraint(fields=["table", "index"], name="seat_unique_index"),
            models.UniqueConstraint(
                fields=["table", "user"], condition=Q(user__isnull=False), name="seat_one_per_user"
            ),
            models.CheckConstraint(
                condition=~(Q(user__isnull=False) & ~Q(bot_level="")), name="seat_user_or_bot_not_both"
            ),
            models.CheckConstraint(
                condition=Q(invited__isnull=True) | (Q(user__isnull=True) & Q(bot_level="")),
                name="seat_invited_only_when_empty",
            ),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return f"{self.table_id}/{self.index}: {self.display_name}"

    @property
    def is_bot(self) -> bool:
        return bool(self.bot_level)

    @property
    def is_empty(self) -> bool:
        return self.user_id is None and not self.bot_level

    @property
    def display_name(self) -> str:
        if self.bot_level:
            return str(_("Bot (%(level)s)") % {"level": BotLevel(self.bot_level).label})
        if self.user is None:
            return str(_("Empty seat"))
        return self.user.get_username()


class AbortReason(models.TextChoices):
    """Why a match was aborted (the codes of apps/tables/rated.py)."""

    NONE = "", _("not aborted")
    LEFT = "left", _("a player left before the abort window closed")
    REMOVED = "removed", _("a player was removed before the abort window closed")
    ABSENT = "absent", _("a player did not make 3 turns of their own in the first game")


class Match(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="matches")
    number = models.PositiveSmallIntegerField(_("match number at the table"), default=1)
    game = models.CharField(_("game"), max_length=40, db_index=True)
    state = models.JSONField(_("engine match state"))
    rated = models.BooleanField(_("rated"), default=False)
    #: Why it was not rated when it started (reason codes of apps/tables/rated.py).
    unrated_reasons = models.JSONField(_("why unrated"), default=list, blank=True, editable=False)
    #: Aborted (SPEC 11): a seat stood up before the abort window closed. No places, no rating.
    aborted = models.CharField(_("aborted"), max_length=10, choices=AbortReason.choices, blank=True, default="")
    aborted_seat = models.PositiveSmallIntegerField(_("seat that ended it"), null=True, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["-started_at"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="match_unique_number")]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game})"


class MatchPlayer(models.Model):
    """Who sat where in a match, and how they finished (kept even if seats change later)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="match_players"
    )
    bot_level = models.CharField(_("bot level"), max_length=8, blank=True, default="")
    name = models.CharField(_("name at the time"), max_length=150)
    points = models.IntegerField(_("points"), null=True, blank=True)
    place = models.PositiveSmallIntegerField(_("place"), null=True, blank=True)
    left = models.BooleanField(_("left"), default=False)

    class Meta:
        ordering = ["match", "seat"]
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="match_player_unique_seat")]
        indexes = [models.Index(fields=["user", "-match"], name="match_player_user_idx")]
        verbose_name = _("match player")
        verbose_name_plural = _("match players")

    def __str__(self) -> str:
        return f"{self.name} in {self.match_id}"


class Game(models.Model):
    """One game (deal) of a match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField(_("game number in the match"))
    state = models.JSONField(_("engine state"))
    deal = models.JSONField(_("deal"))
    turn = models.PositiveIntegerField(_("turn counter"), default=0)
    move_count = models.PositiveIntegerField(_("moves so far"), default=0)  # numbers the next MoveLog row
    #: Per seat, the turns it ended by its own move (not autopilot, not a timeout), counted in the first
    #: game of a rated match until the abort window closes (SPEC 11; apps/tables/rated.py).
    own_turns = models.JSONField(_("own turns per seat"), default=list, blank=True)
    deadline = models.DateTimeField(_("turn deadline"), null=True, blank=True)
    draft = models.JSONField(_("prepared play of the seat to move"), null=True, blank=True)
    ready = models.JSONField(_("seats ready for the next game"), default=list, blank=True)
    result = models.JSONField(_("result"), null=True, blank=True)
    # The "What happened" log's last entries, codes and parameters (apps/tables/history.py).
    log = models.JSONField(_("log"), default=list, blank=True)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="game_unique_number")]
        verbose_name = _("game")
        verbose_name_plural = _("games")

    def __str__(self) -> str:
        return f"game {self.number} of match {self.match_id}"


class MoveLog(models.Model):
    class Actor(models.TextChoices):
        PLAYER = "player", _("player")
        TIMEOUT = "timeout", _("turn timeout")
        AUTOPILOT = "autopilot", _("autopilot")
        BOT = "bot", _("bot")
        MODERATOR = "moderator", _("moderator")

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField(_("number in the game"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    move = models.TextField(_("move in notation"))
    actor = models.CharField(_("made by"), max_length=10, choices=Actor.choices, default=Actor.PLAYER)
    at = models.DateTimeField(_("at"))
    offset_ms = models.PositiveIntegerField(_("milliseconds since the deal"))
    client_id = models.CharField(_("client message id"), max_length=CLIENT_ID_LENGTH, blank=True, default="")
    version = models.PositiveIntegerField(_("table version after the move"))

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq")]
        indexes = [models.Index(fields=["game", "seat", "client_id"], name="move_client_idx")]
        verbose_name = _("move")
        verbose_name_plural = _("moves")

    def __str__(self) -> str:
        return f"{self.game_id}#{self.seq} seat {self.seat}: {self.move}"


class FairDeal(models.Model):
    """A match's provably fair deal (SPEC 11, docs/fair-deals.md; apps/tables/fairness.py).

    `server_seed` (32 bytes, hex) is hidden information until the match is over, like the draw pile: only
    `commitment`, its SHA-256, is shown before. `seeds` holds one entry per seat, in seat order: the seat's
    16-byte seed in hex, "" for an empty seed (a bot, or a human seat that sent none in time), or None while
    a human seat's seed is still awaited (until `sealed_at`, when the first game is dealt)."""

    match = models.OneToOneField(Match, on_delete=models.CASCADE, primary_key=True, related_name="fair_deal")
    server_seed = models.CharField(_("server seed"), max_length=64, editable=False)
    commitment = models.CharField(_("commitment"), max_length=64, editable=False)
    seeds = models.JSONField(_("players' seeds"), default=list)
    seeds_until = models.DateTimeField(_("players' seeds taken until"))
    sealed_at = models.DateTimeField(_("seeds sealed"), null=True, blank=True)

    class Meta:
        verbose_name = _("fair deal")
        verbose_name_plural = _("fair deals")

    def __str__(self) -> str:
        return f"fair deal of match {self.match_id}: {self.commitment[:12]}"
