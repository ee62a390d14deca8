"""What the friends list and challenges compose from the apps below (SPEC 17): follows and challenges
(apps/social), who has a page of the site open (the sockets counted per user across processes:
apps/live/quota.py), who is playing where (apps/tables/selectors.py), ratings (apps/leaderboards), and
the table a challenge everyone accepted opens (`tables.services.table_open_started`)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.urls import reverse

from apps.accounts.models import User
from apps.leaderboards.rating import START_RATING
from apps.leaderboards.selectors import ratings_of
from apps.live import quota
from apps.social import selectors as social
from apps.social.models import Challenge
from apps.tables import selectors as tables
from apps.tables import services as table_services


def online_ids(user_ids: Iterable[int]) -> set[int]:
    """Which of these users have a socket open on any page of the site (the home page's counts), on any
    web process: the counts the socket limits keep per user (`u:<id>`), read without counting."""
    ids = list(dict.fromkeys(user_ids))
    if not ids:
        return set()
    totals = quota.counter().peek([quota.user_key(user_id) for user_id in ids])
    return {user_id for user_id, total in zip(ids, totals, strict=True) if total > 0}


@dataclass
class Person:
    """One player on the friends page."""

    user: User
    state: str  # "playing", "online" or "away"
    watch_url: str = ""
    i_follow: bool = False
    follows_me: bool = False

    @property
    def friend(self) -> bool:
        return self.i_follow and self.follows_me


def people(viewer: User, user_ids: Iterable[int]) -> list[Person]:
    """The players with where they are now and how they and `viewer` follow each other: playing first,
    then online, then away, by name. A private table is shown as playing, without a link to it."""
    ids = list(dict.fromkeys(user_ids))
    users = {user.pk: user for user in User.objects.filter(pk__in=ids, is_active=True)}
    playing = tables.playing_at(list(users))
    online = online_ids(users)
    following = social.following_ids(viewer.pk)
    followers = social.follower_ids(viewer.pk)
    found = []
    for user_id, user in users.items():
        at = playing.get(user_id)
        state = "playing" if at is not None else "online" if user_id in online else "away"
        url = reverse("tables:table", args=[at.table_id]) if at is not None and not at.private else ""
        found.append(Person(user, state, url, user_id in following, user_id in followers))
    order = {"playing": 0, "online": 1, "away": 2}
    found.sort(key=lambda person: (order[person.state], person.user.get_username().lower()))
    return found


def ratings_in(game: str, user_ids: Iterable[int]) -> dict[int, int | None]:
    """Each player's rating in `game`, the ratings' start for one who has none yet (the "within 300"
    preference compares these)."""
    found: dict[int, int | None] = {}
    for user_id in user_ids:
        rating = ratings_of(user_id).get(game, {}).get("rating")
        found[user_id] = int(rating) if isinstance(rating, int) else START_RATING
    return found


def open_challenge_table(challenge: Challenge, players: list[User]) -> int:
    """The table of a challenge everyone accepted: all its players seated (the challenger hosts) and the
    match started (social.services.TableOpener)."""
    table = table_services.table_open_started(
        players=players,
        game=challenge.game,
        seat_count=challenge.seat_count,
        turn_seconds=challenge.turn_seconds,
        match_length=challenge.match_length,
        casual=challenge.casual,
    )
    return table.pk


def challenge_url(challenge_id: int) -> str:
    return reverse("players:challenge", args=[challenge_id])


def takes_part(challenge: Challenge, user_id: int | None) -> bool:
    return social.takes_part(challenge, user_id)
