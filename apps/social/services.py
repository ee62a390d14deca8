"""The one write path of follows, blocks, challenge preferences and challenges (SPEC 17).

Each function takes the acting user as `by`, checks that they may act at all (a signed-up account, not
banned or disabled: guests follow and challenge nobody), opens one transaction and tells the other apps
what became true with `apps.lib.events.emit` (delivered when it commits). Refusals are `SocialError`
with a wire `code` and words for the player.

Race rules (CONVENTIONS 24-25):
- a follow and a block between the same two players hold both players' rows (`_hold_pair`, in id order),
  so a follow can never slip in after the block that removes it, and two follows at once make one row;
- every answer to a challenge, its cancel and its expiry hold the challenge's row and read its invitees
  after the lock: the last accept and a cancel at the same moment, one wins and the other is refused.

This app is on floor 2 and knows no tables: the app above that opens the table when everyone accepted
passes it in as `open_table` (apps/players/challenges.py: `tables.services.table_open_started`), and
the ratings the "within 300" preference compares as `ratings`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.accounts.bans import barred_message, why_barred
from apps.accounts.limits import window_give_back, window_hit
from apps.accounts.models import User
from apps.engine.game import get_rules, is_available
from apps.lib.events import emit
from apps.social import selectors
from apps.social.events import ChallengeAnswered, ChallengeGone, ChallengeReceived, ChallengeStarted, Followed
from apps.social.models import Block, Challenge, ChallengeInvitee, ChallengePolicy, Follow, SocialSettings

Status = Challenge.Status
Answer = ChallengeInvitee.Answer

#: How long a challenge waits for its answers (SPEC 17, as lichess): a direct one 2 weeks, an open one a day.
DIRECT_LIFETIME = timedelta(days=14)
OPEN_LIFETIME = timedelta(days=1)
#: "Rating within 300": the widest gap a player with that preference accepts a challenge across.
RATING_GAP = 300
#: At most this many challenges a player makes in CHALLENGE_WINDOW seconds (reserved before the row).
CHALLENGES_PER_WINDOW = 20
CHALLENGE_WINDOW = 3600
#: The match lengths a table offers (apps/tables/options.py; `table_open_started` checks them again).
MATCH_LENGTHS = (1, 3, 5)

#: Why a challenge ended without a table (ChallengeGone.reason).
GONE_CANCELLED = "cancelled"
GONE_EXPIRED = "expired"
GONE_DECLINED = "declined"

#: Opens the table of a challenge everyone accepted, with these players in seat order (the challenger
#: first), and returns its id. Called inside the transaction that holds the challenge: if it raises, the
#: last acceptance is undone and the challenge stays as it was.
TableOpener = Callable[[Challenge, list[User]], int]


class SocialError(Exception):
    """A refused action: `code` for the wire and tests, the message for the player."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


def _may_act(by: Any) -> None:
    if by is None or not getattr(by, "is_authenticated", False):
        raise SocialError(_("Sign in first."), "signed_out")
    if why_barred(by):
        raise SocialError(barred_message(by), "barred")
    if by.is_guest:
        raise SocialError(_("Sign up to follow, block and challenge players."), "guest")


def _other(by: User, user_id: int) -> User:
    """The player `by` acts on: an active account that is not a guest and not `by`."""
    if user_id == by.pk:
        raise SocialError(_("That is you."), "self")
    other = User.objects.filter(pk=user_id, is_active=True, is_guest=False).first()
    if other is None:
        raise SocialError(_("There is no such player."), "no_player")
    return other


def _hold_pair(first_id: int, second_id: int) -> None:
    """Lock both users' rows in id order (never a deadlock): a follow and a block between them wait for
    each other."""
    list(User.objects.select_for_update().filter(pk__in=(first_id, second_id)).order_by("pk").values_list("pk"))


# --- follows -----------------------------------------------------------------------------------------------


def follow(*, by: User, user_id: int) -> bool:
    """`by` follows the player (again: nothing changes). False if nothing was made: already following,
    or the player blocked `by` (silently: the page shows nothing of it)."""
    _may_act(by)
    other = _other(by, user_id)
    with transaction.atomic():
        _hold_pair(by.pk, other.pk)
        if selectors.has_blocked(by.pk, other.pk):
            raise SocialError(_("You blocked this player: unblock them first."), "blocked")
        if selectors.has_blocked(other.pk, by.pk):
            return False
        _row, made = Follow.objects.get_or_create(follower=by, followed=other)
        if made:
            friends = Follow.objects.filter(follower=other, followed=by).exists()
            emit(Followed(follower_id=by.pk, user_id=other.pk, friends=friends))
    return made


def unfollow(*, by: User, user_id: int) -> bool:
    _may_act(by)
    with transaction.atomic():
        deleted, _rows = Follow.objects.filter(follower=by, followed_id=user_id).delete()
    return deleted > 0


# --- blocks ------------------------------------------------------------------------------------------------


def block(*, by: User, user_id: int) -> bool:
    """`by` blocks the player, silently: the follows both ways go, and the pending challenges between the
    two end (cancelled). False if already blocked."""
    _may_act(by)
    other = _other(by, user_id)
    with transaction.atomic():
        _hold_pair(by.pk, other.pk)
        _row, made = Block.objects.get_or_create(blocker=by, blocked=other)
        Follow.objects.filter(Q(follower=by, followed=other) | Q(follower=other, followed=by)).delete()
        shared = (
            Challenge.objects.filter(status=Status.PENDING)
            .filter(Q(challenger=by, invitees__user=other) | Q(challenger=other, invitees__user=by))
            .values_list("pk", flat=True)
            .distinct()
        )
        for challenge_id in sorted(shared):
            challenge = _lock(challenge_id)
            if challenge.status == Status.PENDING:
                _end(challenge, Status.CANCELLED, GONE_CANCELLED)
    return made


def unblock(*, by: User, user_id: int) -> bool:
    _may_act(by)
    with transaction.atomic():
        deleted, _rows = Block.objects.filter(blocker=by, blocked_id=user_id).delete()
    return deleted > 0


# --- preferences -------------------------------------------------------------------------------------------


def challenge_policy_set(*, by: User, policy: str) -> SocialSettings:
    _may_act(by)
    if policy not in ChallengePolicy.values:
        raise SocialError(_("Choose who may challenge you from the list."), "bad_policy")
    row, _made = SocialSettings.objects.update_or_create(user=by, defaults={"challenges_from": policy})
    return row


def may_challenge(challenger: User, target: User, *, game: str, ratings: Mapping[int, int | None]) -> bool:
    """Whether `target`'s preference lets `challenger` challenge them (blocks are asked apart). `ratings`:
    each player's rating in `game` (the caller fills in the ratings' start for a player without one); a
    player missing there is not within 300 of anyone. Friends are always within it."""
    policy = selectors.challenge_policy(target.pk)
    if policy == ChallengePolicy.NEVER:
        return False
    if policy == ChallengePolicy.FRIENDS:
        return selectors.are_friends(challenger.pk, target.pk)
    if policy == ChallengePolicy.RATING:
        mine, theirs = ratings.get(challenger.pk), ratings.get(target.pk)
        if mine is not None and theirs is not None and abs(mine - theirs) <= RATING_GAP:
            return True
        return selectors.are_friends(challenger.pk, target.pk)
    if policy == ChallengePolicy.REGISTERED:
        return not challenger.is_guest
    return True


# --- challenges --------------------------------------------------------------------------------------------


def check_table_options(game: str, *, seat_count: int, turn_seconds: int, match_length: int) -> None:
    """The table a challenge asks for must be one the game offers (its engine's seats and paces)."""
    if not is_available(game):
        raise SocialError(_("There is no game called %(game)r.") % {"game": game}, "bad_game")
    rules = get_rules(game)
    if seat_count not in rules.seat_counts():
        raise SocialError(
            _("This game is played by %(low)s to %(high)s players.") % {"low": rules.min_seats, "high": rules.max_seats},
            "bad_seats",
        )
    if turn_seconds not in rules.paces:
        raise SocialError(_("Choose a pace from the list."), "bad_pace")
    if match_length not in MATCH_LENGTHS:
        raise SocialError(_("A match is 1, 3 or 5 games."), "bad_length")


def challenge_make(
    *,
    by: User,
    user_ids: Sequence[int],
    game: str,
    seat_count: int,
    turn_seconds: int,
    match_length: int = 1,
    casual: bool = False,
    ratings: Mapping[int, int | None] | None = None,
    now: datetime | None = None,
) -> Challenge:
    """`by` challenges the players `user_ids` to a table of `seat_count` seats. Naming a player for every
    other seat makes a direct challenge (2 weeks to answer); naming fewer an open one (a day; anyone signed
    up with its link fills the free places). Each named player must allow it (`may_challenge`, with their
    and `by`'s `ratings` in `game`) and neither of the two may have blocked the other: the refusal of a
    blocked challenge is the same as that of a player's preference (blocking is silent)."""
    _may_act(by)
    check_table_options(game, seat_count=seat_count, turn_seconds=turn_seconds, match_length=match_length)
    wanted = list(dict.fromkeys(user_ids))
    if len(wanted) > seat_count - 1:
        raise SocialError(_("You named more players than the table has seats."), "too_many")
    targets = [_other(by, user_id) for user_id in wanted]
    known = ratings or {}
    blocked = selectors.blocked_pairs([by.pk, *wanted])
    for target in targets:
        if frozenset((by.pk, target.pk)) in blocked or why_barred(target) or not may_challenge(
            by, target, game=game, ratings=known
        ):
            raise SocialError(
                _("%(name)s does not take challenges from you now.") % {"name": target.get_username()}, "not_allowed"
            )
    key = f"social:challenges:{by.pk}"
    if window_hit(key, seconds=CHALLENGE_WINDOW) > CHALLENGES_PER_WINDOW:
        window_give_back(key)
        raise SocialError(
            _("You made %(n)s challenges in the last hour: wait a little.") % {"n": CHALLENGES_PER_WINDOW}, "rate_limited"
        )
    now = now or timezone.now()
    is_open = len(targets) < seat_count - 1
    try:
        with transaction.atomic():
            challenge = Challenge.objects.create(
                challenger=by,
                game=game,
                seat_count=seat_count,
                turn_seconds=turn_seconds,
                match_length=match_length,
                casual=casual,
                open=is_open,
                expires_at=now + (OPEN_LIFETIME if is_open else DIRECT_LIFETIME),
            )
            ChallengeInvitee.objects.bulk_create([ChallengeInvitee(challenge=challenge, user=target) for target in targets])
            emit(*(ChallengeReceived(challenge_id=challenge.pk, challenger_id=by.pk, user_id=target.pk) for target in targets))
    except BaseException:
        window_give_back(key)
        raise
    return challenge


def _lock(challenge_id: int) -> Challenge:
    challenge = Challenge.objects.select_for_update().filter(pk=challenge_id).first()
    if challenge is None:
        raise SocialError(_("There is no such challenge."), "no_challenge")
    return challenge


def _invitees(challenge: Challenge) -> list[ChallengeInvitee]:
    """Read after the challenge's lock: the answers as they are now."""
    return list(ChallengeInvitee.objects.filter(challenge=challenge).select_related("user").order_by("pk"))


def _end(challenge: Challenge, status: str, reason: str, *, told: Iterable[int] | None = None,
         now: datetime | None = None) -> None:
    """End the locked pending challenge without a table, and tell whom it concerns."""
    challenge.status = status
    challenge.ended_at = now or timezone.now()
    challenge.save(update_fields=["status", "ended_at"])
    user_ids = tuple(told) if told is not None else tuple(
        ChallengeInvitee.objects.filter(challenge=challenge).order_by("pk").values_list("user_id", flat=True)
    )
    emit(ChallengeGone(challenge_id=challenge.pk, challenger_id=challenge.challenger_id, user_ids=user_ids, reason=reason))


def _still_pending(challenge: Challenge, now: datetime) -> bool:
    """Whether the locked challenge still waits for answers; one past its time is expired here and now
    (expiry on read: the sweep is only the tidying of those nobody looks at)."""
    if challenge.status == Status.PENDING and challenge.expires_at <= now:
        _end(challenge, Status.EXPIRED, GONE_EXPIRED, now=now)
    return challenge.status == Status.PENDING


def _gone_error(challenge: Challenge) -> SocialError:
    if challenge.status == Status.STARTED:
        return SocialError(_("This challenge has started already."), "started")
    if challenge.status == Status.EXPIRED:
        return SocialError(_("This challenge has expired."), "expired")
    return SocialError(_("This challenge is no longer open."), "gone")


def challenge_accept(*, by: User, challenge_id: int, open_table: TableOpener, now: datetime | None = None) -> Challenge:
    """`by` accepts (again: nothing changes). For an open challenge, a player not named takes a free
    place by accepting. When every place is taken and accepted, `open_table` opens the table with the
    challenger and the players in the order they were asked (or came), and the challenge is STARTED."""
    _may_act(by)
    now = now or timezone.now()
    refusal: SocialError | None = None
    with transaction.atomic():
        challenge = _lock(challenge_id)
        if not _still_pending(challenge, now):
            if challenge.status == Status.STARTED and ChallengeInvitee.objects.filter(
                challenge=challenge, user=by, answer=Answer.ACCEPTED
            ).exists():
                return challenge  # a second press of Accept: the table it opened
            refusal = _gone_error(challenge)
        else:
            rows = _invitees(challenge)
            mine = next((row for row in rows if row.user_id == by.pk), None)
            if mine is None:
                if not challenge.open or by.pk == challenge.challenger_id:
                    raise SocialError(_("There is no such challenge."), "no_challenge")
                if len(rows) >= challenge.seat_count - 1:
                    raise SocialError(_("This challenge is full."), "full")
                if selectors.blocked_pairs([challenge.challenger_id, *(row.user_id for row in rows), by.pk]) & {
                    frozenset((by.pk, other)) for other in (challenge.challenger_id, *(row.user_id for row in rows))
                }:
                    raise SocialError(_("This challenge is full."), "full")  # silent: as if it were full
                mine = ChallengeInvitee.objects.create(challenge=challenge, user=by)
                rows.append(mine)
            if mine.answer == Answer.DECLINED:
                raise SocialError(_("You declined this challenge."), "declined")
            if mine.answer == Answer.WAITING:
                mine.answer = Answer.ACCEPTED
                mine.answered_at = now
                mine.reason = ""
                mine.save(update_fields=["answer", "answered_at", "reason"])
                emit(ChallengeAnswered(challenge_id=challenge.pk, challenger_id=challenge.challenger_id, user_id=by.pk,
                                       accepted=True))
            if len(rows) == challenge.seat_count - 1 and all(row.answer == Answer.ACCEPTED for row in rows):
                players = [User.objects.get(pk=challenge.challenger_id), *(row.user for row in rows)]
                challenge.table_id = open_table(challenge, players)
                challenge.status = Status.STARTED
                challenge.ended_at = now
                challenge.save(update_fields=["table_id", "status", "ended_at"])
                emit(ChallengeStarted(challenge_id=challenge.pk, table_id=challenge.table_id,
                                      user_ids=tuple(player.pk for player in players)))
    if refusal is not None:
        raise refusal
    return challenge


def challenge_decline(*, by: User, challenge_id: int, reason: str, now: datetime | None = None) -> Challenge:
    """`by` declines with a reason (ChallengeInvitee.Reason): the table cannot be made without them, so
    the challenge ends (DECLINED); the challenger hears the answer and reason, the other players that it
    is gone."""
    _may_act(by)
    if reason not in ChallengeInvitee.Reason.values:
        raise SocialError(_("Choose a reason from the list."), "bad_reason")
    now = now or timezone.now()
    refusal: SocialError | None = None
    with transaction.atomic():
        challenge = _lock(challenge_id)
        rows = _invitees(challenge)
        mine = next((row for row in rows if row.user_id == by.pk), None)
        if mine is None:
            raise SocialError(_("There is no such challenge."), "no_challenge")
        if not _still_pending(challenge, now):
            refusal = _gone_error(challenge)
        else:
            mine.answer = Answer.DECLINED
            mine.reason = reason
            mine.answered_at = now
            mine.save(update_fields=["answer", "reason", "answered_at"])
            emit(ChallengeAnswered(challenge_id=challenge.pk, challenger_id=challenge.challenger_id, user_id=by.pk,
                                   accepted=False, reason=reason))
            _end(challenge, Status.DECLINED, GONE_DECLINED, told=[row.user_id for row in rows if row.user_id != by.pk],
                 now=now)
    if refusal is not None:
        raise refusal
    return challenge


def challenge_cancel(*, by: User, challenge_id: int, now: datetime | None = None) -> Challenge:
    """The challenger takes the challenge back (a moderator may too)."""
    if by is None or not getattr(by, "is_authenticated", False):
        raise SocialError(_("Sign in first."), "signed_out")
    now = now or timezone.now()
    refusal: SocialError | None = None
    with transaction.atomic():
        challenge = _lock(challenge_id)
        if challenge.challenger_id != by.pk and not by.is_staff:
            raise SocialError(_("There is no such challenge."), "no_challenge")
        if not _still_pending(challenge, now):
            refusal = _gone_error(challenge)
        else:
            _end(challenge, Status.CANCELLED, GONE_CANCELLED, now=now)
    if refusal is not None:
        raise refusal
    return challenge


def challenges_expire(*, now: datetime | None = None, limit: int = 500) -> int:
    """End the pending challenges past their time (the periodic tidy-up; every action expires the one it
    touches itself). Rows another worker holds are skipped (it is ending or answering them): two workers
    sweeping at once end each challenge once. Returns how many ended."""
    now = now or timezone.now()
    ended = 0
    with transaction.atomic():
        due = list(
            Challenge.objects.select_for_update(skip_locked=True)
            .filter(status=Status.PENDING, expires_at__lte=now)
            .order_by("expires_at")[:limit]
        )
        for challenge in due:
            _end(challenge, Status.EXPIRED, GONE_EXPIRED, now=now)
            ended += 1
    return ended
