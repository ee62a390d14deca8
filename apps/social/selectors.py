"""Reading follows and blocks: what the other apps ask (one query each)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q, QuerySet
from django.utils import timezone

from apps.social.models import Block, Challenge, ChallengeInvitee, ChallengePolicy, Follow, SocialSettings


def blocked_pairs(user_ids: Iterable[int]) -> set[frozenset[int]]:
    """The pairs among `user_ids` where one blocked the other (either way): never seated together by
    quick pairing or an arena (SPEC 15-17). One query.

    A pair is a frozenset of the two ids, so the direction does not matter to the caller."""
    ids = {user_id for user_id in user_ids if user_id is not None}
    if len(ids) < 2:
        return set()
    rows = Block.objects.filter(blocker_id__in=ids, blocked_id__in=ids).values_list("blocker_id", "blocked_id")
    return {frozenset(pair) for pair in rows}


def is_blocked_either_way(first_id: int | None, second_id: int | None) -> bool:
    """Whether one of the two blocked the other (one query; False if either is not an account)."""
    if first_id is None or second_id is None or first_id == second_id:
        return False
    return Block.objects.filter(
        Q(blocker_id=first_id, blocked_id=second_id) | Q(blocker_id=second_id, blocked_id=first_id)
    ).exists()


def has_blocked(blocker_id: int | None, blocked_id: int | None) -> bool:
    """Whether `blocker_id` blocked `blocked_id` (one way)."""
    if blocker_id is None or blocked_id is None:
        return False
    return Block.objects.filter(blocker_id=blocker_id, blocked_id=blocked_id).exists()


def blocked_by(blocker_id: int | None) -> set[int]:
    """Whom `blocker_id` blocked (the chat hides their messages from the blocker)."""
    if blocker_id is None:
        return set()
    return set(Block.objects.filter(blocker_id=blocker_id).values_list("blocked_id", flat=True))


def are_friends(first_id: int, second_id: int) -> bool:
    """Each follows the other (one query)."""
    return (
        Follow.objects.filter(
            Q(follower_id=first_id, followed_id=second_id) | Q(follower_id=second_id, followed_id=first_id)
        ).count()
        == 2
    )


def following_ids(user_id: int) -> set[int]:
    return set(Follow.objects.filter(follower_id=user_id).values_list("followed_id", flat=True))


def follower_ids(user_id: int) -> set[int]:
    return set(Follow.objects.filter(followed_id=user_id).values_list("follower_id", flat=True))


def challenge_policy(user_id: int) -> str:
    """Who may challenge the player (ChallengePolicy; no row: registered players)."""
    found = SocialSettings.objects.filter(user_id=user_id).values_list("challenges_from", flat=True).first()
    return found or ChallengePolicy.REGISTERED


def pending_challenges() -> QuerySet[Challenge]:
    """Challenges still waiting for answers: pending and not past their time (expiry on read: the sweep
    may not have run yet)."""
    return Challenge.objects.filter(status=Challenge.Status.PENDING, expires_at__gt=timezone.now())


def challenges_to(user_id: int) -> list[ChallengeInvitee]:
    """The pending challenges `user_id` is named in, newest first, with the challenger and every place."""
    return list(
        ChallengeInvitee.objects.filter(user_id=user_id, challenge__in=pending_challenges())
        .select_related("challenge", "challenge__challenger")
        .prefetch_related("challenge__invitees__user")
        .order_by("-challenge__created_at")
    )


def challenges_from(user_id: int) -> list[Challenge]:
    """The pending challenges `user_id` made, newest first, with their players and answers."""
    return list(
        pending_challenges().filter(challenger_id=user_id).prefetch_related("invitees__user").order_by("-created_at")
    )


def challenge_of(challenge_id: int) -> Challenge | None:
    return (
        Challenge.objects.filter(pk=challenge_id).select_related("challenger").prefetch_related("invitees__user").first()
    )


def takes_part(challenge: Challenge, user_id: int | None) -> bool:
    """The challenger or a player of the challenge (its invitees prefetched or not)."""
    return user_id is not None and (
        challenge.challenger_id == user_id or any(row.user_id == user_id for row in challenge.invitees.all())
    )


def challenge_players(challenge_id: int) -> tuple[int, ...]:
    """Everyone a challenge concerns now: its challenger and each player who was asked or took a place,
    in that order (one query; empty for no such challenge)."""
    challenger = Challenge.objects.filter(pk=challenge_id).values_list("challenger_id", flat=True).first()
    if challenger is None:
        return ()
    invited = ChallengeInvitee.objects.filter(challenge_id=challenge_id).order_by("pk").values_list("user_id", flat=True)
    return (challenger, *invited)
