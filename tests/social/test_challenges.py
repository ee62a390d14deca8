"""Challenges (SPEC 17): who may be challenged, the answers, the table everyone's acceptance opens, the
cancel, the expiry, and the races between them (apps/social/services.py)."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import close_old_connections, connection
from django.utils import timezone

from apps.lib import events
from apps.players.friends import open_challenge_table
from apps.social import selectors, services
from apps.social.events import ChallengeAnswered, ChallengeGone, ChallengeReceived, ChallengeStarted
from apps.social.models import Challenge, ChallengeInvitee, ChallengePolicy
from apps.social.tasks import expire_challenges
from apps.tables.models import Seat, Table
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db

HOUSE = "tile-rummy"
KINDS = (ChallengeReceived, ChallengeAnswered, ChallengeStarted, ChallengeGone)


@pytest.fixture
def heard():
    got: list[object] = []
    for kind in KINDS:
        events.subscribe(kind, got.append)
    yield got
    for kind in KINDS:
        events.unsubscribe(kind, got.append)


def challenge(by, *others, seats=None, **options):
    options = {"game": HOUSE, "turn_seconds": 60, **options}
    return services.challenge_make(
        by=by, user_ids=[other.pk for other in others], seat_count=seats or len(others) + 1, **options
    )


def accept(by, made):
    return services.challenge_accept(by=by, challenge_id=made.pk, open_table=open_challenge_table)


def test_when_everyone_accepts_the_table_opens_with_them_seated_and_the_match_started(
    heard, django_capture_on_commit_callbacks
):
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    with django_capture_on_commit_callbacks(execute=True):
        made = challenge(ana, bogdan, carmen, match_length=3, casual=True)
    assert made.expires_at - made.created_at >= timedelta(days=13, hours=23)  # a direct challenge: 2 weeks
    assert [type(event) for event in heard] == [ChallengeReceived, ChallengeReceived]
    with django_capture_on_commit_callbacks(execute=True):
        assert accept(carmen, made).status == Challenge.Status.PENDING
    assert not Table.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        done = accept(bogdan, made)
    assert done.status == Challenge.Status.STARTED and done.table_id
    table = Table.objects.get(pk=done.table_id)
    assert table.status == Table.Status.PLAYING and table.match_length == 3 and table.casual
    seated = list(Seat.objects.filter(table=table).order_by("index").values_list("user__username", flat=True))
    assert seated == ["ana", "bogdan", "carmen"]  # the challenger hosts; then in the order asked
    started = [event for event in heard if isinstance(event, ChallengeStarted)]
    assert started == [ChallengeStarted(challenge_id=made.pk, table_id=table.pk, user_ids=(ana.pk, bogdan.pk, carmen.pk))]
    # Accepting again changes nothing and opens no second table.
    assert accept(carmen, made).table_id == table.pk and Table.objects.count() == 1


def test_a_decline_ends_the_challenge_with_its_reason_and_the_others_are_told(heard, django_capture_on_commit_callbacks):
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    made = challenge(ana, bogdan, carmen)
    with django_capture_on_commit_callbacks(execute=True):
        services.challenge_decline(by=bogdan, challenge_id=made.pk, reason="too_fast")
    made.refresh_from_db()
    assert made.status == Challenge.Status.DECLINED
    row = ChallengeInvitee.objects.get(challenge=made, user=bogdan)
    assert (row.answer, row.reason, row.get_reason_display()) == ("declined", "too_fast", "Too fast for me")
    assert ChallengeAnswered(made.pk, ana.pk, bogdan.pk, accepted=False, reason="too_fast") in heard
    assert ChallengeGone(made.pk, ana.pk, (carmen.pk,), reason="declined") in heard
    with pytest.raises(services.SocialError) as refused:
        accept(carmen, made)
    assert refused.value.code == "gone"
    with pytest.raises(services.SocialError) as refused:
        services.challenge_decline(by=carmen, challenge_id=made.pk, reason="no reason at all")
    assert refused.value.code == "bad_reason"


def test_the_challenger_cancels_and_nobody_else_may():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    made = challenge(ana, bogdan)
    with pytest.raises(services.SocialError) as refused:
        services.challenge_cancel(by=bogdan, challenge_id=made.pk)
    assert refused.value.code == "no_challenge"
    services.challenge_cancel(by=ana, challenge_id=made.pk)
    made.refresh_from_db()
    assert made.status == Challenge.Status.CANCELLED
    with pytest.raises(services.SocialError) as refused:
        accept(bogdan, made)
    assert refused.value.code == "gone"


def test_preferences_decide_who_may_challenge(heard):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    refusals = {}
    for policy in ChallengePolicy.values:
        services.challenge_policy_set(by=bogdan, policy=policy)
        try:
            challenge(ana, bogdan)
            refusals[policy] = None
        except services.SocialError as error:
            refusals[policy] = error.code
    # Default ratings given by the page are the ratings' start: without them "within 300" cannot tell.
    assert refusals == {"never": "not_allowed", "friends": "not_allowed", "rating": "not_allowed",
                        "registered": None, "anyone": None}
    services.challenge_policy_set(by=bogdan, policy="rating")
    challenge(ana, bogdan, ratings={ana.pk: 1200, bogdan.pk: 1490})
    with pytest.raises(services.SocialError):
        challenge(ana, bogdan, ratings={ana.pk: 1200, bogdan.pk: 1501})
    services.challenge_policy_set(by=bogdan, policy="friends")
    services.follow(by=ana, user_id=bogdan.pk)
    services.follow(by=bogdan, user_id=ana.pk)
    challenge(ana, bogdan)
    assert selectors.challenge_policy(ana.pk) == "registered"  # nobody's choice: the default


def test_blocks_refuse_a_challenge_either_way_with_the_words_of_a_preference():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    services.challenge_policy_set(by=bogdan, policy="anyone")
    services.block(by=bogdan, user_id=ana.pk)
    for by, other in ((ana, bogdan), (bogdan, ana)):
        with pytest.raises(services.SocialError) as refused:
            challenge(by, other)
        assert refused.value.code == "not_allowed"
    assert not Challenge.objects.exists()


def test_a_block_ends_the_pending_challenges_between_the_two():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    shared, other = challenge(ana, bogdan), challenge(ana, carmen)
    services.block(by=bogdan, user_id=ana.pk)
    shared.refresh_from_db()
    other.refresh_from_db()
    assert (shared.status, other.status) == ("cancelled", "pending")


def test_guests_banned_players_bad_options_and_too_many_names_are_refused():
    ana, bogdan, guest = make_user("ana"), make_user("bogdan"), make_user("guest-1", guest=True)
    cases = [
        (dict(by=guest, others=[ana]), "guest"),
        (dict(by=ana, others=[guest]), "no_player"),
        (dict(by=ana, others=[ana]), "self"),
        (dict(by=ana, others=[bogdan], game="chess"), "bad_game"),
        (dict(by=ana, others=[bogdan], seats=5), "bad_seats"),
        (dict(by=ana, others=[bogdan], turn_seconds=45), "bad_pace"),
        (dict(by=ana, others=[bogdan], match_length=2), "bad_length"),
    ]
    for case, code in cases:
        by, others = case.pop("by"), case.pop("others")
        with pytest.raises(services.SocialError) as refused:
            challenge(by, *others, **case)
        assert refused.value.code == code, case
    with pytest.raises(services.SocialError) as refused:
        services.challenge_make(by=ana, user_ids=[bogdan.pk, guest.pk], game=HOUSE, seat_count=2, turn_seconds=60)
    assert refused.value.code == "too_many"
    ana.banned_until = timezone.now() + timedelta(hours=1)
    ana.save()
    with pytest.raises(services.SocialError) as refused:
        challenge(ana, bogdan)
    assert refused.value.code == "barred"
    assert not Challenge.objects.exists()


def test_challenges_are_rate_limited(settings):
    ana, bogdan = make_user("ana"), make_user("bogdan")
    for _ in range(services.CHALLENGES_PER_WINDOW):
        challenge(ana, bogdan)
    with pytest.raises(services.SocialError) as refused:
        challenge(ana, bogdan)
    assert refused.value.code == "rate_limited"
    assert Challenge.objects.count() == services.CHALLENGES_PER_WINDOW


def test_an_open_challenge_fills_its_free_places_from_the_link_and_lasts_a_day():
    ana, bogdan, carmen, dan = make_user("ana"), make_user("bogdan"), make_user("carmen"), make_user("dan")
    made = challenge(ana, bogdan, seats=3)
    assert made.open and made.expires_at - made.created_at <= timedelta(days=1)
    services.block(by=dan, user_id=bogdan.pk)
    with pytest.raises(services.SocialError) as refused:
        accept(dan, made)  # blocked with a player of it: told only that it is full
    assert refused.value.code == "full"
    accept(carmen, made)
    assert not Table.objects.exists()
    done = accept(bogdan, made)
    assert done.status == "started"
    assert set(Seat.objects.filter(table_id=done.table_id).values_list("user__username", flat=True)) == {
        "ana", "bogdan", "carmen"
    }


def test_a_challenge_past_its_time_expires_on_the_next_touch_and_in_the_sweep(heard, django_capture_on_commit_callbacks):
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    first, second = challenge(ana, bogdan), challenge(ana, carmen)
    later = timezone.now() + timedelta(days=15)
    assert selectors.challenges_to(bogdan.pk)  # in time: listed
    with pytest.raises(services.SocialError) as refused:
        services.challenge_accept(by=bogdan, challenge_id=first.pk, open_table=open_challenge_table, now=later)
    assert refused.value.code == "expired"
    first.refresh_from_db()
    assert first.status == "expired"  # kept, though the acceptance was refused
    with django_capture_on_commit_callbacks(execute=True):
        assert services.challenges_expire(now=later) == 1
    second.refresh_from_db()
    assert second.status == "expired"
    assert ChallengeGone(second.pk, ana.pk, (carmen.pk,), reason="expired") in heard
    assert expire_challenges() == 0


def test_a_table_that_cannot_open_leaves_the_challenge_waiting(settings):
    settings.TABLE_SEATS_PER_USER = 1
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    made = challenge(ana, bogdan)
    from apps.tables import services as tables

    tables.table_open(by=bogdan, game=HOUSE, seat_count=2, turn_seconds=60)  # Bogdan's one seat is taken
    with pytest.raises(tables.TableError):
        accept(bogdan, made)
    made.refresh_from_db()
    assert made.status == "pending" and ChallengeInvitee.objects.get(challenge=made).answer == "waiting"
    del carmen


def _race(*acts):
    barrier = threading.Barrier(len(acts))
    outcomes: list[str] = []

    def run(act):
        try:
            barrier.wait()
            act()
            outcomes.append("done")
        except services.SocialError as error:
            outcomes.append(error.code)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(act,)) for act in acts]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_the_last_accept_and_a_cancel_at_the_same_moment_exactly_one_wins():
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    for round_ in range(4):
        ana, bogdan = make_user(f"ana{round_}"), make_user(f"bogdan{round_}")
        made = challenge(ana, bogdan)
        outcomes = _race(
            lambda made=made, bogdan=bogdan: accept(bogdan, made),
            lambda made=made, ana=ana: services.challenge_cancel(by=ana, challenge_id=made.pk),
        )
        made.refresh_from_db()
        assert sorted(outcomes) in (["done", "started"], ["done", "gone"]), outcomes
        if made.status == "started":
            assert Table.objects.filter(pk=made.table_id, status="playing").exists()
        else:
            assert made.status == "cancelled" and made.table_id is None
        assert Table.objects.filter(seats__user=bogdan).count() == (made.status == "started")


@pytest.mark.django_db(transaction=True)
def test_two_last_accepts_at_once_open_one_table():
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    made = challenge(ana, bogdan, carmen)
    assert _race(lambda: accept(bogdan, made), lambda: accept(carmen, made)) == ["done", "done"]
    made.refresh_from_db()
    assert made.status == "started" and Table.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_two_workers_sweeping_at_once_end_each_challenge_once():
    if connection.vendor != "postgresql":
        pytest.skip("the race needs two writers: PostgreSQL")
    ana = make_user("ana")
    others = [make_user(f"p{index}") for index in range(6)]
    for other in others:
        challenge(ana, other)
    gone: list[ChallengeGone] = []
    events.subscribe(ChallengeGone, gone.append)
    later = timezone.now() + timedelta(days=15)
    counts: list[int] = []
    try:
        _race(*(lambda: counts.append(services.challenges_expire(now=later)) for _ in range(2)))
    finally:
        events.unsubscribe(ChallengeGone, gone.append)
    assert sum(counts) == 6 and len(gone) == 6
    assert set(Challenge.objects.values_list("status", flat=True)) == {"expired"}
