"""Follows, friends and blocks (apps/social/services.py, SPEC 17)."""

from __future__ import annotations

import threading

import pytest
from django.db import close_old_connections, connection

from apps.lib import events
from apps.social import selectors, services
from apps.social.events import Followed
from apps.social.models import Block, Follow
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    got: list[Followed] = []
    events.subscribe(Followed, got.append)
    yield got
    events.unsubscribe(Followed, got.append)


def test_two_follows_make_friends_and_each_is_told_once(heard, django_capture_on_commit_callbacks):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    with django_capture_on_commit_callbacks(execute=True):
        assert services.follow(by=ana, user_id=bogdan.pk)
        assert not services.follow(by=ana, user_id=bogdan.pk)  # again: nothing new
        assert services.follow(by=bogdan, user_id=ana.pk)
    assert heard == [
        Followed(follower_id=ana.pk, user_id=bogdan.pk, friends=False),
        Followed(follower_id=bogdan.pk, user_id=ana.pk, friends=True),
    ]
    assert selectors.are_friends(ana.pk, bogdan.pk)
    assert services.unfollow(by=bogdan, user_id=ana.pk)
    assert not selectors.are_friends(ana.pk, bogdan.pk)
    assert selectors.following_ids(ana.pk) == {bogdan.pk} and selectors.follower_ids(bogdan.pk) == {ana.pk}


def test_nobody_follows_a_guest_themselves_or_as_a_guest():
    ana, guest = make_user("ana"), make_user("guest-1", guest=True)
    with pytest.raises(services.SocialError) as refused:
        services.follow(by=ana, user_id=ana.pk)
    assert refused.value.code == "self"
    with pytest.raises(services.SocialError) as refused:
        services.follow(by=ana, user_id=guest.pk)
    assert refused.value.code == "no_player"
    with pytest.raises(services.SocialError) as refused:
        services.follow(by=guest, user_id=ana.pk)
    assert refused.value.code == "guest"
    assert not Follow.objects.exists()


def test_a_block_removes_the_follows_both_ways_and_the_blocked_cannot_follow_again():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    services.follow(by=ana, user_id=bogdan.pk)
    services.follow(by=bogdan, user_id=ana.pk)
    assert services.block(by=ana, user_id=bogdan.pk)
    assert not Follow.objects.exists()
    # Silent: the blocked player's follow is simply not made, with no word of the block.
    assert services.follow(by=bogdan, user_id=ana.pk) is False
    assert not Follow.objects.exists()
    with pytest.raises(services.SocialError) as refused:
        services.follow(by=ana, user_id=bogdan.pk)
    assert refused.value.code == "blocked"
    assert selectors.blocked_by(ana.pk) == {bogdan.pk}
    assert services.unblock(by=ana, user_id=bogdan.pk)
    assert not Block.objects.exists()
    assert services.follow(by=bogdan, user_id=ana.pk)


def test_a_banned_player_can_neither_follow_nor_block():
    from datetime import timedelta

    from django.utils import timezone

    ana, bogdan = make_user("ana"), make_user("bogdan")
    ana.banned_until = timezone.now() + timedelta(days=1)
    ana.save()
    for act in (services.follow, services.block):
        with pytest.raises(services.SocialError) as refused:
            act(by=ana, user_id=bogdan.pk)
        assert refused.value.code == "barred"
    assert not Follow.objects.exists() and not Block.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_one_follow_from_two_tabs_at_once_makes_one_row():
    """Two follows of the same player at the same moment (two tabs): one row, one event (PostgreSQL)."""
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    ana, bogdan = make_user("ana"), make_user("bogdan")
    barrier = threading.Barrier(2)
    made: list[bool] = []
    heard: list[Followed] = []
    events.subscribe(Followed, heard.append)

    def tab():
        try:
            barrier.wait()
            made.append(services.follow(by=ana, user_id=bogdan.pk))
        finally:
            close_old_connections()

    try:
        threads = [threading.Thread(target=tab) for _ in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        events.unsubscribe(Followed, heard.append)
    assert sorted(made) == [False, True]
    assert Follow.objects.filter(follower=ana, followed=bogdan).count() == 1
    assert len(heard) == 1


@pytest.mark.django_db(transaction=True)
def test_a_follow_racing_a_block_never_survives_it():
    """Bogdan follows Ana while Ana blocks him: whichever goes first, no follow is left (PostgreSQL)."""
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    for round_ in range(5):
        ana, bogdan = make_user(f"ana{round_}"), make_user(f"bogdan{round_}")
        barrier = threading.Barrier(2)

        def run(act, by, other, barrier=barrier):
            try:
                barrier.wait()
                act(by=by, user_id=other.pk)
            finally:
                close_old_connections()

        threads = [
            threading.Thread(target=run, args=(services.follow, bogdan, ana)),
            threading.Thread(target=run, args=(services.block, ana, bogdan)),
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert Block.objects.filter(blocker=ana, blocked=bogdan).exists()
        assert not Follow.objects.filter(follower=bogdan, followed=ana).exists()
