"""Arenas (SPEC 16): a tournament, its entrants with their running score, and the tables it formed.

A tournament's tables are the tables app's own tables (opened by `apps.tables.services.table_open_started`);
here each is one `ArenaTable` (the table's id, never a foreign key into the tables app: other apps read
tables through its selectors) with one `ArenaSeat` per player. `ScoredMatch` is the once-only ledger of
scoring: a finished match is scored by whoever inserts its row first.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _

from apps.engine.game import get_rules, is_available

#: Pairing stops this long before the end at least (SPEC 16: max(60 s, a tenth of the length)).
PAIRING_STOP_MIN_SECONDS = 60


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Starting soon")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        CANCELLED = "cancelled", _("Cancelled")

    class Seats(models.TextChoices):
        TWO = "2", _("2 players a table")
        THREE = "3", _("3 players a table")
        FOUR = "4", _("4 players a table")
        THREE_FOUR = "3-4", _("3 or 4 players a table")

    name = models.CharField(_("name"), max_length=120)
    game = models.CharField(_("game"), max_length=40)
    seats = models.CharField(_("seats"), max_length=3, choices=Seats.choices, default=Seats.TWO)
    turn_seconds = models.PositiveSmallIntegerField(_("seconds per turn"), default=60)
    minutes = models.PositiveSmallIntegerField(_("length in minutes"), default=60)
    rated = models.BooleanField(_("rated"), default=True)
    # Entry conditions (SPEC 16): all optional.
    require_registered = models.BooleanField(_("registered players only"), default=False)
    require_verified = models.BooleanField(_("verified email address required"), default=False)
    rating_below = models.PositiveSmallIntegerField(_("rating below"), null=True, blank=True)
    min_rated_matches = models.PositiveSmallIntegerField(_("minimum rated matches"), default=0)

    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PLANNED)
    starts_at = models.DateTimeField(_("starts at"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    #: The calendar's slot of a planned arena ("hourly:2026-12-07T15:00"): unique, so planning twice at
    #: once makes it once. Empty for an arena a moderator made.
    calendar_key = models.CharField(_("calendar slot"), max_length=80, null=True, blank=True, unique=True)
    #: "Starts in five minutes" was told (TournamentStartsSoon), once.
    reminded = models.BooleanField(_("reminder sent"), default=False)
    #: The standings' version: raised by every change the viewers see (their frames carry it).
    version = models.PositiveIntegerField(_("version"), default=0)
    winner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+", verbose_name=_("winner")
    )
    #: The first three at the end: [{"user_id", "name", "points", "rank"}] (kept with the tournament).
    podium = models.JSONField(_("podium"), default=list, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        indexes = [models.Index(fields=["status", "starts_at"])]
        ordering = ["-starts_at"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """What a moderator's arena must be (the admin shows these errors; nothing is saved)."""
        errors: dict[str, str] = {}
        if not is_available(self.game):
            errors["game"] = str(_("There is no game called %(game)s.")) % {"game": self.game}
        else:
            rules = get_rules(self.game)
            paces = [pace for pace in rules.paces if pace]
            if self.turn_seconds not in paces:
                errors["turn_seconds"] = str(_("An arena's pace must be one of %(paces)s seconds.")) % {
                    "paces": ", ".join(str(pace) for pace in paces)
                }
            if any(size not in rules.seat_counts() for size in self.table_sizes):
                errors["seats"] = str(_("This game is not played at tables of that size."))
        if not 30 <= self.minutes <= 120:
            errors["minutes"] = str(_("An arena lasts 30 to 120 minutes."))
        if errors:
            raise ValidationError(errors)

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)

    @property
    def pairing_ends_at(self) -> datetime:
        """Pairing stops max(60 s, a tenth of the length) before the end (SPEC 16)."""
        return self.ends_at - timedelta(seconds=max(PAIRING_STOP_MIN_SECONDS, self.minutes * 6))

    @property
    def table_sizes(self) -> tuple[int, ...]:
        return (4, 3) if self.seats == self.Seats.THREE_FOUR else (int(self.seats),)


class Entry(models.Model):
    """One player in one arena, with their running score."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    points = models.IntegerField(_("points"), default=0)
    #: First places in a row (a shared first counts): from the third on, points are doubled.
    streak = models.PositiveSmallIntegerField(_("first places in a row"), default=0)
    matches = models.PositiveIntegerField(_("matches"), default=0)
    wins = models.PositiveIntegerField(_("first places"), default=0)
    #: The sum and count of per-opponent performances (opponent's rating, +400 placed above, -400 below).
    perf_sum = models.IntegerField(default=0)
    perf_count = models.PositiveIntegerField(default=0)
    #: When the player reached their score (the last tie-break: the earlier ranks higher).
    reached_at = models.DateTimeField(_("reached the score at"), null=True, blank=True)
    #: Recent scores, newest last, for the streak marks: [[points, doubled], ...] (the last 12 kept).
    marks = models.JSONField(default=list, blank=True)
    #: A paused player is not paired until they press "Play on", and not before `paused_until`.
    paused = models.BooleanField(_("paused"), default=False)
    paused_until = models.DateTimeField(_("may come back at"), null=True, blank=True)
    last_pause_at = models.DateTimeField(null=True, blank=True)
    pause_wait = models.PositiveSmallIntegerField(default=0)  # seconds the last pause made them wait
    #: Removed by a moderator: never paired again, not in the standings.
    removed = models.BooleanField(_("removed"), default=False)
    #: The players of their last table, sorted ("3,7,12"): never the same table twice in a row.
    last_table = models.CharField(max_length=200, blank=True, default="")
    joined_at = models.DateTimeField(_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("entrant")
        verbose_name_plural = _("entrants")
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]
        indexes = [models.Index(fields=["tournament", "-points"])]

    def __str__(self) -> str:
        return f"{self.tournament_id}:{self.user_id}"

    @property
    def performance(self) -> int:
        return round(self.perf_sum / self.perf_count) if self.perf_count else 0


class ArenaTable(models.Model):
    """One table an arena formed: one match of one game."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    table_id = models.PositiveIntegerField(_("table"), unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    match_id = models.PositiveIntegerField(null=True, blank=True)
    #: Voided by a moderator: its points were taken back.
    voided = models.BooleanField(default=False)

    class Meta:
        indexes = [models.Index(fields=["tournament", "finished_at"])]

    def __str__(self) -> str:
        return f"{self.tournament_id}:table {self.table_id}"


class ArenaSeat(models.Model):
    arena_table = models.ForeignKey(ArenaTable, on_delete=models.CASCADE, related_name="seats")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="seats")
    user_id = models.PositiveIntegerField()
    berserk = models.BooleanField(default=False)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    points = models.IntegerField(null=True, blank=True)
    #: What this match did to the entry, to take it back if the match is voided.
    streak_before = models.PositiveSmallIntegerField(default=0)
    perf_added = models.IntegerField(default=0)
    perf_counted = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["arena_table", "entry"], name="one_arena_seat_per_entry")]

    def __str__(self) -> str:
        return f"{self.arena_table_id}:{self.user_id}"


class ScoredMatch(models.Model):
    """The once-only ledger: a match is scored by the transaction that inserts its row."""

    match_id = models.PositiveIntegerField(primary_key=True)
    scored_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return str(self.match_id)
