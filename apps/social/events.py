"""What happens between players, for the apps that subscribe (notifications): ids and plain values
(apps/lib/events.py). Emitted with the commit of the change."""

from __future__ import annotations

from dataclasses import dataclass

from apps.lib.events import Event


@dataclass(frozen=True, slots=True)
class Followed(Event):
    """`follower_id` now follows `user_id`; `friends`: the follow made them friends (it is mutual)."""

    follower_id: int
    user_id: int
    friends: bool


@dataclass(frozen=True, slots=True)
class ChallengeReceived(Event):
    """`challenger_id` challenged `user_id` (one event per challenged player)."""

    challenge_id: int
    challenger_id: int
    user_id: int


@dataclass(frozen=True, slots=True)
class ChallengeAnswered(Event):
    """`user_id` accepted or declined (with `reason`, a code) `challenger_id`'s challenge."""

    challenge_id: int
    challenger_id: int
    user_id: int
    accepted: bool
    reason: str = ""


@dataclass(frozen=True, slots=True)
class ChallengeStarted(Event):
    """Everyone accepted: the table `table_id` opened with `user_ids` seated and its match started."""

    challenge_id: int
    table_id: int
    user_ids: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChallengeGone(Event):
    """The challenge ended without a table (`reason`): "cancelled" (by its challenger, a moderator, or a
    block between two of its players), "expired", or "declined" (one player declined: the challenger hears
    that as ChallengeAnswered). `user_ids`: the invited players it concerns (for a decline, the others)."""

    challenge_id: int
    challenger_id: int
    user_ids: tuple[int, ...]
    reason: str
