"""Reading follows and blocks: what the other apps ask (one query each)."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q

from apps.social.models import Block


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
