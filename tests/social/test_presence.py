"""Who is online for the friends list (apps/players/friends.py): a user with a socket open on any web
process, read from the socket counts the limits keep (apps/live/quota.py) without counting anything."""

from __future__ import annotations

import os

import pytest
from django.conf import settings

from apps.live import quota
from apps.players.friends import online_ids
from tests.live.helpers import in_own_loop


@pytest.fixture
def counts_of(monkeypatch):
    def use(counts):
        monkeypatch.setattr(quota, "_counts", counts)
        return counts

    return use


def test_this_processs_sockets_make_their_users_online(counts_of):
    counts = counts_of(quota.Counts())
    in_own_loop(lambda: counts.acquire(("u:7", "a:203.0.113.9"), (20, 50)))
    assert online_ids([7, 8]) == {7}
    counts.release(("u:7", "a:203.0.113.9"))
    assert online_ids([7, 8]) == set()


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs Redis (REDIS_URL)")
def test_a_socket_on_another_process_counts_and_reading_counts_nothing(counts_of):
    prefix = f"{settings.LIVE_BUS_CHANNEL}:test-social-online"
    here = quota.RedisCounts(os.environ["REDIS_URL"], prefix, process="here")
    there = quota.RedisCounts(os.environ["REDIS_URL"], prefix, process="there")
    here.client.delete(here.processes_key, here.hash_of("here"), here.hash_of("there"))
    try:
        counts_of(here)
        in_own_loop(lambda: there.acquire(("u:41",), (20,)))
        assert online_ids([41, 42]) == {41}
        assert online_ids([41, 42]) == {41}
        assert int(here.client.hget(here.hash_of("there"), "u:41") or 0) == 1  # read, never counted
        here.client.zadd(here.processes_key, {"there": 0})  # that process stopped beating long ago
        assert online_ids([41]) == set()
    finally:
        here.client.delete(here.processes_key, here.hash_of("here"), here.hash_of("there"))
