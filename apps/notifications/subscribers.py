"""What becomes a notification (SPEC 17): the events of the social app and of the tables that the
notifications subscribe to (apps/lib/events.py), connected once by `NotificationsConfig.ready()`.

- a challenge to you, your challenge accepted or declined (apps/social/events.py); a challenge that is
  gone (cancelled, expired) leaves its "challenge to you" read;
- your turn at a no-timer table (apps/tables/events.py `TurnPassed`, sent only by no-timer tables);
- a friend (two follows) opened a table that is not private (`TableOpened`);
- a tournament the player joined starts in 5 minutes (apps/tournaments/events.py `TournamentStartsSoon`);
- at a no-timer table a player was away for a day and the autopilot plays their seat: the others hear
  it (`SlowSeatAway`).

Apart from the notifications, every change of a challenge (received, answered, started, gone) is told
to the open pages of each player it concerns, on their own topic (the bell's socket, which each page
already has): a challenge's page follows it live (static/js/challenge.js) and moves to the table when
the match starts. These frames are not notifications: nothing is stored, nothing is pushed.

Each handler runs after the commit of the change, in the thread that made it; a notification is one
INSERT and one publish (its push is a task: apps/notifications/tasks.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from apps.accounts.models import User
from apps.lib.events import subscribe
from apps.live.bus import bus
from apps.live.compact import dumps
from apps.notifications.models import Kind, Notification
from apps.notifications.services import mark_read, notify, user_topic
from apps.social.events import ChallengeAnswered, ChallengeGone, ChallengeReceived, ChallengeStarted
from apps.social.selectors import challenge_players, follower_ids, following_ids
from apps.tables.events import SlowSeatAway, TableOpened, TurnPassed
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


def slow_seat_away(event: SlowSeatAway) -> None:
    """The other people at a slow table hear that a player was away a day and the autopilot plays for
    them (the table's log says it too)."""
    others = sorted(set(event.others) - {event.user_id})
    if not others:
        return
    name = name_of(event.user_id)
    for user_id in others:
        notify(user_id=user_id, kind=Kind.SEAT_AWAY, actor_id=event.user_id, actor_name=name, table_id=event.table_id)


# --- a challenge's pages, live -------------------------------------------------------------------------------

#: What a challenge is after each change its pages hear of.
CHALLENGE_STATUS = {
    "received": "pending",
    "accepted": "pending",
    "declined": "declined",
    "cancelled": "cancelled",
    "expired": "expired",
    "started": "started",
}


def tell_challenge(user_ids: Iterable[int], challenge_id: int, change: str, *, actor_id: int | None = None,
                   reason: str = "", table_id: int | None = None) -> None:
    """Tell each player's open pages that the challenge changed (`change`, a key of CHALLENGE_STATUS), on
    their own topic. Ids, a name and a code, no words: each socket says them in its own language."""
    frame = dumps({
        "type": "challenge",
        "challenge": challenge_id,
        "change": change,
        "status": CHALLENGE_STATUS[change],
        "actor": name_of(actor_id) if actor_id is not None else "",
        "reason": reason,
        "table": table_id,
    })
    live = bus()
    for user_id in dict.fromkeys(user_ids):
        live.publish(user_topic(user_id), frame)


def challenge_received_live(event: ChallengeReceived) -> None:
    tell_challenge([event.user_id], event.challenge_id, "received", actor_id=event.challenger_id)


def challenge_answered_live(event: ChallengeAnswered) -> None:
    """An answer changes the page of everyone in the challenge (the challenger hears a decline's reason)."""
    tell_challenge(
        challenge_players(event.challenge_id),
        event.challenge_id,
        "accepted" if event.accepted else "declined",
        actor_id=event.user_id,
        reason="" if event.accepted else event.reason,
    )


def challenge_started_live(event: ChallengeStarted) -> None:
    """Everyone accepted: each player's page goes to the table by itself."""
    tell_challenge(event.user_ids, event.challenge_id, "started", table_id=event.table_id)


def challenge_gone_live(event: ChallengeGone) -> None:
    change = event.reason if event.reason in CHALLENGE_STATUS else "cancelled"
    tell_challenge(
        (event.challenger_id, *event.user_ids, *challenge_players(event.challenge_id)), event.challenge_id, change
    )


def tournament_starts_soon(event: TournamentStartsSoon) -> None:
    for user_id in sorted(set(event.user_ids)):
        notify(user_id=user_id, kind=Kind.TOURNAMENT_SOON, tournament_id=event.tournament_id, subject=event.name)


def connect() -> None:
    subscribe(ChallengeReceived, challenge_received)
    subscribe(ChallengeAnswered, challenge_answered)
    subscribe(ChallengeGone, challenge_gone)
    subscribe(TurnPassed, turn_passed)
    subscribe(TableOpened, table_opened)
    subscribe(TournamentStartsSoon, tournament_starts_soon)
    subscribe(SlowSeatAway, slow_seat_away)
    subscribe(ChallengeReceived, challenge_received_live)
    subscribe(ChallengeAnswered, challenge_answered_live)
    subscribe(ChallengeStarted, challenge_started_live)
    subscribe(ChallengeGone, challenge_gone_live)
