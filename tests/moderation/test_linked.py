"""Linked accounts (apps/moderation/middleware.py, services.py, selectors.py): each signed-in account's
network address and browser cookie, written at most once a day; accounts sharing either are linked.
And the leaver rate and per-opponent history moderators read."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.http import HttpResponse
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from apps.leaderboards.models import RatingChange
from apps.leaderboards.selectors import opponent_history
from apps.leaderboards.services import rating_apply_match
from apps.moderation.middleware import BROWSER_COOKIE, SightingMiddleware
from apps.moderation.models import Sighting
from apps.moderation.selectors import linked_accounts
from apps.moderation.services import sighting_record
from apps.tables.selectors import leaver_record
from tests.leaderboards.factories import finished_match, make_user

pytestmark = pytest.mark.django_db

BROWSER_A = "a" * 22
BROWSER_B = "b" * 22


def visit(user, *, address, browser=None):
    """One request of `user` through the middleware alone; returns the response."""
    request = RequestFactory().get("/", REMOTE_ADDR=address)
    if browser:
        request.COOKIES[BROWSER_COOKIE] = browser
    request.user = user
    return SightingMiddleware(lambda request: HttpResponse("ok"))(request)


def test_accounts_sharing_an_address_or_a_browser_are_linked_and_others_are_not():
    ana, ben, cat, dan = (make_user(name) for name in ("ana", "ben", "cat", "dan"))
    visit(ana, address="203.0.113.5", browser=BROWSER_A)
    visit(ben, address="203.0.113.5", browser=BROWSER_B)  # same address, another browser
    visit(cat, address="198.51.100.7", browser=BROWSER_A)  # same browser, another address
    visit(dan, address="192.0.2.9", browser="d" * 22)  # nothing shared

    links = {(link.username, link.kind, link.value) for link in linked_accounts(ana.pk)}
    assert links == {("ben", "address", "203.0.113.5"), ("cat", "browser", BROWSER_A)}
    assert {link.username for link in linked_accounts(ben.pk)} == {"ana"}
    assert linked_accounts(dan.pk) == []
    assert linked_accounts(ana.pk)[0].last_seen == timezone.localdate()


def test_a_new_browser_gets_a_long_lived_http_only_cookie_that_then_links_its_accounts():
    ana, ben = make_user("ana"), make_user("ben")
    response = visit(ana, address="203.0.113.5")
    cookie = response.cookies[BROWSER_COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and int(cookie["max-age"]) >= 365 * 86400
    assert len(cookie.value) >= 16

    again = visit(ana, address="203.0.113.5", browser=cookie.value)
    assert BROWSER_COOKIE not in again.cookies  # kept, not renewed
    visit(ben, address="198.51.100.7", browser=cookie.value)  # another account in the same browser
    assert [(link.username, link.kind) for link in linked_accounts(ana.pk)] == [("ben", "browser")]


def test_a_made_up_cookie_value_is_replaced():
    ana = make_user("ana")
    response = visit(ana, address="203.0.113.5", browser="x;y")
    assert response.cookies[BROWSER_COOKIE].value != "x;y"
    assert not Sighting.objects.filter(value="x;y").exists()


def test_the_middleware_writes_once_a_day_per_account_address_and_browser(django_assert_num_queries):
    ana = make_user("ana")
    with django_assert_num_queries(1):  # one upsert of both rows
        visit(ana, address="203.0.113.5", browser=BROWSER_A)
    for _ in range(3):
        with django_assert_num_queries(0):  # remembered: no query at all
            visit(ana, address="203.0.113.5", browser=BROWSER_A)
    with django_assert_num_queries(1):  # a new address is news
        visit(ana, address="203.0.113.6", browser=BROWSER_A)
    assert Sighting.objects.filter(user=ana).count() == 3

    tomorrow = timezone.localdate() + timedelta(days=1)
    assert sighting_record(user_id=ana.pk, address="203.0.113.5", browser=BROWSER_A, today=tomorrow)
    assert not sighting_record(user_id=ana.pk, address="203.0.113.5", browser=BROWSER_A, today=tomorrow)
    row = Sighting.objects.get(user=ana, kind="address", value="203.0.113.5")
    assert (row.first_seen, row.last_seen) == (timezone.localdate(), tomorrow)
    assert Sighting.objects.filter(user=ana).count() == 3


def test_a_signed_in_page_view_records_the_address_the_site_saw_and_anonymous_ones_nothing(client, settings):
    settings.TRUSTED_PROXIES = []
    ana = make_user("ana")
    client.get("/", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert not Sighting.objects.exists()

    client.force_login(ana)
    with CaptureQueriesContext(connection) as first:
        response = client.get("/", HTTP_X_FORWARDED_FOR="10.9.9.9")  # spoofed: not from a trusted proxy
    with CaptureQueriesContext(connection) as second:
        client.get("/", HTTP_X_FORWARDED_FOR="10.9.9.9")
    assert BROWSER_COOKIE in response.cookies
    assert set(Sighting.objects.filter(user=ana).values_list("kind", "value")) == {
        ("address", "127.0.0.1"), ("browser", response.cookies[BROWSER_COOKIE].value)
    }
    sightings = [query for query in first.captured_queries if "moderation_sighting" in query["sql"]]
    assert len(sightings) == 1
    assert not [query for query in second.captured_queries if "moderation_sighting" in query["sql"]]


def test_the_leaver_rate_counts_finished_matches_left():
    ana, ben = make_user("ana"), make_user("ben")
    finished_match([(ana, 1), (ben, 2)])
    finished_match([(ana, 2), (ben, 1)], left=[ana])
    finished_match([(ana, 2), (ben, 1)], left=[ana], rated=False)
    finished_match([(ana, 1), (ben, 2)], left=[ben])
    finished_match([(ana, 1), (ben, 2)], finished=False)  # still running: not counted

    ana_record, ben_record = leaver_record(ana.pk), leaver_record(ben.pk)
    assert (ana_record.played, ana_record.left, ana_record.rate) == (4, 2, 0.5)
    assert (ben_record.left, ben_record.rate) == (1, 0.25)
    assert leaver_record(make_user("new").pk).rate is None


def test_the_rating_history_per_opponent_sums_the_matches_played_together(django_assert_max_num_queries):
    ana, ben, cat = make_user("ana"), make_user("ben"), make_user("cat")
    for players in ([(ana, 1), (ben, 2)], [(ana, 2), (ben, 1)], [(ana, 1), (ben, 2)], [(ana, 1), (cat, 2), (ben, 3)]):
        rating_apply_match(match_id=finished_match(players).pk)
    finished_match([(ana, 1), (cat, 2)], rated=False)  # unrated: not part of the history

    with django_assert_max_num_queries(2):
        records = {record.username: record for record in opponent_history(ana.pk)}

    deltas = list(RatingChange.objects.filter(user=ana).order_by("id").values_list("delta", flat=True))
    ben_deltas = list(RatingChange.objects.filter(user=ben).order_by("id").values_list("delta", flat=True))
    assert (records["ben"].matches, records["ben"].change, records["ben"].opponent_change) == (4, sum(deltas), sum(ben_deltas))
    # By hand, K = 64: even at 1000 (+32); ana at 1032 loses to 968 (-38); ana at 994 beats 1006 (+33).
    assert deltas[:3] == [32, -38, 33]
    last = RatingChange.objects.filter(user=ana).order_by("id").last()
    cat_delta = RatingChange.objects.get(user=cat).delta
    assert (records["cat"].matches, records["cat"].change, records["cat"].opponent_change) == (1, last.delta, cat_delta)
    assert records["ben"].last == records["cat"].last == last.created_at
    assert list(records) == ["ben", "cat"]  # most matches first

