"""What becomes a notification (SPEC 17): the events of the social app and of the tables that the
notifications subscribe to (apps/lib/events.py), connected once by `NotificationsConfig.ready()`.

- a challenge to you, your challenge accepted or declined (apps/social/events.py); a challenge that is
  gone (cancelled, expired) leaves its "challenge to you" read;
- your turn at a no-timer table (apps/tables/events.py `TurnPassed`, sent only by no-timer tables);
- a friend (two follows) opened a table that is not private (`TableOpened`);
- a tournament the player joined starts in 5 minutes (apps/tournaments/events.py `TournamentStartsSoon`).

Each handler runs after the commit of the change, in the thread that made it; a notification is one
INSERT and one publish (its push is a task: apps/notifications/tasks.py).
"""

from __future__ import annotations

from apps.accounts.models import User
from apps.lib.events import subscribe
from apps.notifications.models import Kind, Notification
from apps.notifications.services import mark_read, notify
from apps.social.events import ChallengeAnswered, ChallengeGone, ChallengeReceived
from apps.social.selectors import follower_ids, following_ids
from apps.tables.events import TableOpened, TurnPassed
from apps.tournaments.events import TournamentStartsSoon


def name_of(user_id: int) -> str:
    return User.objects.filter(pk=user_id).values_list("username", flat=True).first() or ""


def challenge_received(event: ChallengeReceived) -> None:
    notify(
        user_id=event.user_id,
        kind=Kind.CHALLENGE_RECEIVED,
        actor_id=event.challenger_id,
        actor_name=name_of(event.challenger_id),
        challenge_id=event.challenge_id,
    )


def challenge_answered(event: ChallengeAnswered) -> None:
    notify(
        user_id=event.challenger_id,
        kind=Kind.CHALLENGE_ACCEPTED if event.accepted else Kind.CHALLENGE_DECLINED,
        actor_id=event.user_id,
        actor_name=name_of(event.user_id),
        challenge_id=event.challenge_id,
        reason="" if event.accepted else event.reason,
    )


def challenge_gone(event: ChallengeGone) -> None:
    """A challenge cancelled or expired is nothing to answer any more: its unread "challenge to you" are
    read now (each player's open pages hear their new count)."""
    unread = Notification.objects.filter(
        challenge_id=event.challenge_id, kind=Kind.CHALLENGE_RECEIVED, read_at__isnull=True
    ).values_list("user_id", "pk")
    by_user: dict[int, list[int]] = {}
    for user_id, pk in unread:
        by_user.setdefault(user_id, []).append(pk)
    for user_id, ids in sorted(by_user.items()):
        mark_read(user_id=user_id, ids=ids)


def turn_passed(event: TurnPassed) -> None:
    notify(user_id=event.user_id, kind=Kind.YOUR_TURN, table_id=event.table_id)


def table_opened(event: TableOpened) -> None:
    """The host's friends hear of a table anyone may join (a private one is the host's to share)."""
    if event.private:
        return
    friends = following_ids(event.host_id) & follower_ids(event.host_id)
    if not friends:
        return
    name = name_of(event.host_id)
    for friend_id in sorted(friends):
        notify(
            user_id=friend_id, kind=Kind.FRIEND_OPENED, actor_id=event.host_id, actor_name=name, table_id=event.table_id
        )


def tournament_starts_soon(event: TournamentStartsSoon) -> None:
    for user_id in sorted(set(event.user_ids)):
        notify(user_id=user_id, kind=Kind.TOURNAMENT_SOON, tournament_id=event.tournament_id)


def connect() -> None:
    subscribe(ChallengeReceived, challenge_received)
    subscribe(ChallengeAnswered, challenge_answered)
    subscribe(ChallengeGone, challenge_gone)
    subscribe(TurnPassed, turn_passed)
    subscribe(TableOpened, table_opened)
    subscribe(TournamentStartsSoon, tournament_starts_soon)
