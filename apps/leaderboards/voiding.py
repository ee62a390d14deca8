"""Voiding a rated match (SPEC 11): its rating changes are taken back, exactly once, and the later
ratings of its players (and of everyone who played them since) are recomputed as if it never happened.

The recomputation is exact and touches only what the voided match could have changed: the matches
applied after it, walked in the order they were applied, are replayed from the ratings the players had
just before the voided match; a later match is recomputed as soon as one of its players is already
affected, and then all its players are. Every other rating and history row is left as it was.

Order. Each history row (RatingChange) is written while the rating service holds the row locks of that
match's players, so for any one player the ids of its rows are the order its matches were applied, and
two matches that share a player never interleave their ids: sorting matches by their first row's id is
each player's own order. The replay uses the history rows' places (the places the rating used: leavers
last) and the rating formula of `apps/leaderboards/rating.py`, so it computes what the rating service
would have computed had the voided match never been applied.

Exactly once, like the rating task: the match's ledger row (AppliedMatch) is locked and gets its
`voided_at`; a second void finds it set and changes nothing. A match voided before the rating task ran
gets its ledger row now (voided, nothing rated), so the task then finds the match taken and skips it.

Locks: the ratings of every affected player are locked in user-id order (as the rating service does,
so the two cannot deadlock). Who is affected is only known after reading the later history; if that
reading finds players whose rows were not locked, the transaction is rolled back and tried again with
those locked from the start.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db import IntegrityError, transaction
from django.db.models import Max, QuerySet
from django.utils import timezone

from apps.leaderboards.models import AppliedMatch, Rating, RatingChange
from apps.leaderboards.rating import START_RATING, Standing, rating_changes
from apps.lib.events import Event, emit

#: How often a void is tried again when more players turn out to be affected than were locked.
VOID_ATTEMPTS = 5


@dataclass(frozen=True, slots=True)
class MatchVoided(Event):
    """A moderator voided the match (sent once, after the commit of the first void): the arenas take its
    tournament points back (SPEC 16)."""

    match_id: int


@dataclass(frozen=True)
class VoidedMatch:
    """What voiding one match did: the change taken back from each of its players (empty if the match
    had not been rated yet), and the later matches whose changes were recomputed, in order."""

    match_id: int
    reversed: dict[int, int] = field(default_factory=dict)
    recomputed: list[int] = field(default_factory=list)


@dataclass(slots=True)
class _Row:
    """One history row as the replay needs it (plain values: a long replay reads thousands)."""

    pk: int
    match_id: int
    user_id: int
    place: int
    before: int
    after: int
    delta: int


def _rows(changes: QuerySet[RatingChange]) -> list[_Row]:
    fields = ("pk", "match_id", "user_id", "place", "before", "after", "delta")
    return [_Row(*values) for values in changes.order_by("id").values_list(*fields)]


class _MoreToLock(Exception):
    def __init__(self, users: set[int]) -> None:
        super().__init__(sorted(users))
        self.users = users


def rating_void_match(*, match_id: int) -> VoidedMatch | None:
    """Void the match's rating changes and recompute the later ones. Returns None if it was voided
    already (nothing changes), else what it did. Any match id may be voided: an unrated or unfinished
    match gets a voided ledger row and so is never rated."""
    locked: set[int] = set()
    for _attempt in range(VOID_ATTEMPTS):
        try:
            with transaction.atomic():
                return _void(match_id, locked)
        except _MoreToLock as more:
            locked = locked | more.users
    raise RuntimeError(f"match {match_id}: the players to recompute kept changing; try again")


def _void(match_id: int, locked: set[int]) -> VoidedMatch | None:
    now = timezone.now()
    ledger = AppliedMatch.objects.select_for_update().filter(match_id=match_id).first()
    if ledger is None:
        try:
            with transaction.atomic():
                AppliedMatch.objects.create(match_id=match_id, rated=False, voided_at=now)
        except IntegrityError:
            raise _MoreToLock(set()) from None  # the rating task applied it meanwhile: void what it did
        emit(MatchVoided(match_id))
        return VoidedMatch(match_id)
    if ledger.voided_at is not None:
        return None
    ledger.voided_at = now
    ledger.save(update_fields=["voided_at"])
    emit(MatchVoided(match_id))

    game = RatingChange.objects.filter(match_id=match_id).values_list("game", flat=True).first()
    if game is None:
        return VoidedMatch(match_id)  # nothing was rated (fewer than two players)
    voided = _rows(RatingChange.objects.filter(match_id=match_id))
    players = {row.user_id for row in voided}
    ratings = {
        rating.user_id: rating
        for rating in Rating.objects.select_for_update().filter(game=game, user_id__in=players | locked).order_by("user_id")
    }
    later, chain, affected = _later_matches(game, voided[0].pk, match_id, players)
    if not affected <= ratings.keys():
        raise _MoreToLock(affected)

    # Each affected player's (rating, rated matches) just before their first match to recompute: the
    # rated matches counted now, less those from that one on (all of them are in `later` or voided).
    starts = {row.user_id: row for row in voided}
    for rows in chain:
        for row in rows:
            starts.setdefault(row.user_id, row)
    since: dict[int, int] = dict.fromkeys(starts, 0)
    for row in [*voided, *later]:
        if row.user_id in starts and row.pk >= starts[row.user_id].pk:
            since[row.user_id] += 1
    state = {
        user_id: (row.before, max(0, ratings[user_id].matches - since[user_id])) for user_id, row in starts.items()
    }

    changed: list[_Row] = []
    for rows in chain:
        standings = [
            Standing(key=row.user_id, rating=state[row.user_id][0], matches=state[row.user_id][1], place=row.place)
            for row in rows
        ]
        changes = rating_changes(standings)
        for row in rows:
            before, matches = state[row.user_id]
            new = (before, before + changes[row.user_id], changes[row.user_id])
            if new != (row.before, row.after, row.delta):
                row.before, row.after, row.delta = new
                changed.append(row)
            state[row.user_id] = (row.after, matches + 1)
    for row in changed:  # one short UPDATE each: far cheaper than bulk_update's CASE for a long replay
        RatingChange.objects.filter(pk=row.pk).update(before=row.before, after=row.after, delta=row.delta)
    RatingChange.objects.filter(match_id=match_id).delete()

    peaks = dict(
        RatingChange.objects.filter(game=game, user_id__in=affected).values("user_id").annotate(peak=Max("after"))
        .values_list("user_id", "peak")
    )
    for user_id in sorted(affected):
        rating, matches = state[user_id]
        Rating.objects.filter(pk=ratings[user_id].pk).update(
            rating=rating, matches=matches, peak=max(START_RATING, peaks.get(user_id) or START_RATING), updated_at=now
        )
    return VoidedMatch(
        match_id,
        reversed={row.user_id: row.delta for row in voided},
        recomputed=[rows[0].match_id for rows in chain],
    )


def _later_matches(
    game: str, first_row: int, match_id: int, players: set[int]
) -> tuple[list[_Row], list[list[_Row]], set[int]]:
    """The history rows of `game` applied after the voided match's first (every row of each match that has
    one), the matches among them it affects (each as its rows, in the order they were applied), and every
    player affected (the voided match's and theirs)."""
    after = RatingChange.objects.filter(game=game, pk__gt=first_row).exclude(match_id=match_id).values("match_id")
    later = _rows(RatingChange.objects.filter(match_id__in=after))
    by_match: dict[int, list[_Row]] = {}
    for row in later:
        by_match.setdefault(row.match_id, []).append(row)
    affected = set(players)
    chain = []
    for rows in by_match.values():  # in the order of each match's first row: the order they were applied
        users = {row.user_id for row in rows}
        if users & affected:
            affected |= users
            chain.append(rows)
    return later, chain, affected
