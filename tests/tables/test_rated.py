"""Rated matches (SPEC 11): which tables are rated and why not (apps/tables/rated.py), the abort window
(3 turns of its own per person in the first game), and the daily cap on the same opponents. Through the
table services, with the leaderboards' own task at the end."""

from __future__ import annotations

import doctest
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from apps.accounts.models import User
from apps.accounts.services import user_mark_booster
from apps.engine.game import get_rules
from apps.leaderboards.models import AppliedMatch, Rating, RatingChange
from apps.leaderboards.tasks import rate_match
from apps.tables import rated, services
from apps.tables.models import Game, Match, MatchPlayer, MoveLog, Table
from apps.tables.selectors import finished_rated_match_ids
from apps.tables.snapshot import frame_for_user, lobby_entry
from tests.bots.helpers import make_bot
from tests.tables.helpers import human_move, make_user, run_due, state_of, verify_email

pytestmark = pytest.mark.django_db

HOUSE = "tile-rummy"


def table_of(host, *others, **options):
    table = services.table_open(by=host, game=HOUSE, seat_count=1 + len(others), **options)
    for other in others:
        services.table_join(table_id=table.pk, by=other)
    return Table.objects.get(pk=table.pk)


def started(host, *others, **options):
    table = table_of(host, *others, **options)
    services.table_start(table_id=table.pk, by=host)
    return Table.objects.get(pk=table.pk)


def to_move(table_id):
    table, state = state_of(table_id)
    return get_rules(table.game).to_move(state)


def own_turn(table_id, user, rng):
    """The seat to move (`user`'s) plays one whole turn by its own moves."""
    seat = to_move(table_id)
    for _ in range(100):
        services.game_move(table_id=table_id, by=user, move=human_move(table_id, seat, rng))
        if Table.objects.get(pk=table_id).status != Table.Status.PLAYING or to_move(table_id) != seat:
            return
    raise AssertionError("the turn did not end")


def play_until(table_id, users, turns, *, absent=(), seed=1):
    """Every seat in `users` (by seat) plays its own turns until each has made `turns` of them; the seats
    in `absent` never move: the table times them out and plays their autopilot turns."""
    rng = random.Random(seed)
    for _ in range(500):
        game = Game.objects.get(pk=Table.objects.get(pk=table_id).current_game_id)
        counts = list(game.own_turns) + [0] * (len(users) - len(game.own_turns))
        if all(counts[seat] >= turns for seat in range(len(users)) if seat not in absent):
            return counts
        seat = to_move(table_id)
        if seat in absent:
            assert run_due(table_id)  # the turn's clock runs out, then autopilot
        else:
            own_turn(table_id, users[seat], rng)
    raise AssertionError("the seats did not make their turns")


def assert_nothing_for_the_leaderboards(match):
    assert not match.rated
    assert match.id not in finished_rated_match_ids(before=timezone.now() + timezone.timedelta(hours=1))
    assert rate_match(match.pk) is False
    assert not Rating.objects.exists() and not RatingChange.objects.exists() and not AppliedMatch.objects.exists()


# --- the abort window ----------------------------------------------------------------------------------


def test_leaving_at_once_after_the_start_aborts_the_match_and_nobody_is_rated(alice, bob):
    table = started(alice, bob)
    assert table.rated
    services.table_leave(table_id=table.pk, by=bob)
    match = Match.objects.get(table=table)
    assert match.aborted == rated.ABORT_LEFT and match.aborted_seat == 1 and match.finished_at is not None
    assert list(MatchPlayer.objects.order_by("seat").values_list("place", flat=True)) == [None, None]
    assert_nothing_for_the_leaderboards(match)
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED and not table.rated
    frame = frame_for_user(table.pk, alice.pk)
    assert frame["table"]["match"]["aborted"] == {"reason": "left", "seat": 1}
    assert frame["table"]["match"]["over"] is True


def test_leaving_after_two_turns_of_ones_own_still_aborts(alice, bob):
    table = started(alice, bob)
    assert play_until(table.pk, [alice, bob], 2) == [2, 2]
    services.table_leave(table_id=table.pk, by=alice)
    match = Match.objects.get(table=table)
    assert match.aborted == rated.ABORT_LEFT and match.aborted_seat == 0
    assert_nothing_for_the_leaderboards(match)


def test_after_three_turns_each_the_match_is_rated_and_the_leaver_placed_last(alice, bob):
    table = started(alice, bob)
    assert play_until(table.pk, [alice, bob], 3) == [3, 3]
    services.table_leave(table_id=table.pk, by=bob)
    match = Match.objects.get(table=table)
    assert match.rated and not match.aborted and match.finished_at is not None
    places = dict(MatchPlayer.objects.values_list("user__username", "place"))
    assert places == {"alice": 1, "bob": 2} and MatchPlayer.objects.get(user=bob).left
    assert match.id in finished_rated_match_ids(before=timezone.now() + timezone.timedelta(hours=1))
    assert rate_match(match.pk) is True
    deltas = dict(RatingChange.objects.values_list("user__username", "delta"))
    assert deltas["alice"] > 0 > deltas["bob"]
    assert frame_for_user(table.pk, alice.pk)["table"]["match"]["aborted"] is None


def test_timeout_and_autopilot_turns_are_not_ones_own(alice, bob):
    table = started(alice, bob)
    counts = play_until(table.pk, [alice, bob], 3, absent={0})  # alice never moves
    assert counts[0] == 0 and counts[1] >= 3
    assert MoveLog.objects.filter(seat=0, actor__in=["timeout", "autopilot"]).exists()
    assert not MoveLog.objects.filter(seat=0, actor="player").exists()
    services.table_leave(table_id=table.pk, by=bob)  # bob waited long enough; alice never played
    match = Match.objects.get(table=table)
    assert match.aborted == rated.ABORT_LEFT
    assert_nothing_for_the_leaderboards(match)


def test_a_seat_a_moderator_removes_in_the_window_aborts_the_match_as_removed(alice, bob):
    table = started(alice, bob)
    services.seat_kick(table_id=table.pk, seat_index=1, by=make_user("mod", staff=True))
    match = Match.objects.get(table=table)
    assert match.aborted == rated.ABORT_REMOVED and match.aborted_seat == 1
    assert_nothing_for_the_leaderboards(match)


def test_own_turns_are_counted_in_the_moves_own_statements(alice, bob):
    """The counter rides in the game's UPDATE the move makes anyway: a move of one's own costs no more
    statements than one the table makes."""
    table = started(alice, bob)
    rng = random.Random(4)
    seat = to_move(table.pk)
    user = [alice, bob][seat]
    statements = []
    for _ in range(100):
        with CaptureQueriesContext(connection) as queries:
            services.game_move(table_id=table.pk, by=user, move=human_move(table.pk, seat, rng))
        statements.append(len(queries))
        if to_move(table.pk) != seat:
            break
    assert Game.objects.get(pk=table.current_game_id).own_turns[seat] == 1
    assert len(set(statements)) == 1  # the move that ended the turn (and counted it) made as many as the others


def test_the_rules_own_examples_hold():
    """The docstrings of apps/tables/rated.py (the verdict and the abort window) run as doctests."""
    result = doctest.testmod(rated)
    assert result.attempted > 10 and result.failed == 0


# --- why a table is unrated ------------------------------------------------------------------------------


def test_a_table_without_a_timer_is_unrated_and_says_why_before_the_start(alice, bob):
    table = table_of(alice, bob, turn_seconds=0)
    assert not table.rated and table.unrated_reasons == [rated.NO_TIMER]
    assert lobby_entry(table)["unrated"] == ["no_timer"] and lobby_entry(table)["rated"] is False
    assert frame_for_user(table.pk, bob.pk)["table"]["unrated"] == ["no_timer"]
    services.table_start(table_id=table.pk, by=alice)
    match = Match.objects.get(table=table)
    assert not match.rated and match.unrated_reasons == ["no_timer"]


def test_an_unverified_email_makes_the_table_unrated_and_a_verified_one_rated(alice):
    carol = make_user("carol", verified=False)
    table = table_of(alice, carol)
    assert not table.rated and table.unrated_reasons == [rated.UNVERIFIED_EMAIL]
    assert frame_for_user(table.pk, None)["table"]["unrated"] == ["unverified_email"]
    services.table_leave(table_id=table.pk, by=carol)
    verify_email(carol)
    services.table_join(table_id=table.pk, by=carol)
    table.refresh_from_db()
    assert table.rated and table.unrated_reasons == []
    assert services.table_start(table_id=table.pk, by=alice).rated


def test_an_account_marked_as_a_booster_plays_only_unrated(alice, bob):
    user_mark_booster(user_id=bob.pk)
    bob.refresh_from_db()
    table = table_of(alice, bob)
    assert not table.rated and table.unrated_reasons == [rated.BARRED]
    assert frame_for_user(table.pk, None)["table"]["unrated"] == ["barred"]
    assert not services.table_start(table_id=table.pk, by=alice).rated


def test_every_reason_is_listed(alice):
    guest = make_user("guest-1", guest=True)
    table = services.table_open(by=alice, game=HOUSE, seat_count=3, bots=["easy"], turn_seconds=0)
    services.table_join(table_id=table.pk, by=guest)
    table.refresh_from_db()
    assert table.unrated_reasons == [rated.BOT, rated.GUEST, rated.NO_TIMER]


def test_a_fourth_match_among_the_same_accounts_within_a_day_is_unrated(alice, bob, settings):
    assert settings.RATED_REPEAT_LIMIT == 3 and settings.RATED_REPEAT_HOURS == 24
    settings.TABLE_SEATS_PER_USER = 20  # the four matches are played at once here (SPEC 11 allows 5 seats)
    first = [started(alice, bob) for _ in range(3)]
    assert all(Match.objects.get(table=table).rated for table in first)
    fourth = table_of(alice, bob)
    assert not fourth.rated and fourth.unrated_reasons == [rated.REPEAT_OPPONENTS]  # said before the start
    assert frame_for_user(fourth.pk, alice.pk)["table"]["unrated"] == ["repeat_opponents"]
    match = services.table_start(table_id=fourth.pk, by=alice)
    assert not match.rated and match.unrated_reasons == ["repeat_opponents"]
    # Other opponents are not capped; nor are the same two once the earlier matches are a day old.
    assert services.table_start(table_id=table_of(alice, make_user("carol")).pk, by=alice).rated
    Match.objects.filter(table__in=first).update(started_at=timezone.now() - timezone.timedelta(hours=25))
    assert services.table_start(table_id=table_of(alice, bob).pk, by=alice).rated


def test_bot_accounts_alone_are_rated_on_their_board_without_email_addresses():
    robo, _ = make_bot("robo")
    droid, _ = make_bot("droid")
    table = table_of(robo, droid)
    assert table.rated and table.unrated_reasons == []
    services.table_start(table_id=table.pk, by=robo)
    assert play_until(table.pk, [robo, droid], 3) == [3, 3]
    services.table_leave(table_id=table.pk, by=droid)  # after the abort window: placed last, rated
    match = Match.objects.get(table=table)
    assert match.rated and not match.aborted
    assert rate_match(match.pk) is True
    assert set(Rating.objects.values_list("user__username", "bot")) == {("robo", True), ("droid", True)}


def test_a_bot_account_leaving_in_the_abort_window_aborts_a_match_among_bot_accounts():
    """SPEC 14: bot accounts have the abort window like people (docs/bot-api.md says so)."""
    robo, _ = make_bot("robo")
    droid, _ = make_bot("droid")
    table = started(robo, droid)
    assert table.rated
    assert play_until(table.pk, [robo, droid], 2) == [2, 2]
    services.table_leave(table_id=table.pk, by=droid)
    match = Match.objects.get(table=table)
    assert match.aborted == rated.ABORT_LEFT and match.aborted_seat == 1
    assert_nothing_for_the_leaderboards(match)


def test_bot_accounts_of_one_owner_play_each_other_only_unrated():
    owner = make_user("ada")
    robo, _ = make_bot("robo", owner)
    droid, _ = make_bot("droid", owner)
    table = table_of(robo, droid)
    assert not table.rated and table.unrated_reasons == [rated.SAME_OWNER]
    assert frame_for_user(table.pk, robo.pk)["table"]["unrated"] == ["same_owner"]
    match = services.table_start(table_id=table.pk, by=robo)
    assert not match.rated and match.unrated_reasons == ["same_owner"]
    services.table_leave(table_id=table.pk, by=droid)
    assert_nothing_for_the_leaderboards(Match.objects.get(pk=match.pk))
    # With a third owner's bot account at the table, still one person on two seats: unrated.
    three = table_of(robo, droid, make_bot("other")[0])
    assert not three.rated and three.unrated_reasons == [rated.SAME_OWNER]


def test_a_fourth_match_between_the_same_two_bot_accounts_within_a_day_is_unrated(settings):
    robo, _ = make_bot("robo")
    droid, _ = make_bot("droid")
    first = [started(robo, droid) for _ in range(3)]
    assert all(Match.objects.get(table=table).rated for table in first)
    fourth = table_of(robo, droid)
    assert not fourth.rated and fourth.unrated_reasons == [rated.REPEAT_OPPONENTS]
    assert not services.table_start(table_id=fourth.pk, by=robo).rated
    Match.objects.filter(table__in=first).update(started_at=timezone.now() - timezone.timedelta(hours=25))
    assert services.table_start(table_id=table_of(robo, droid).pk, by=robo).rated


def test_an_owners_bot_accounts_count_as_one_opponent_for_the_daily_cap(settings):
    """Two people with several bot accounts each cannot play more rated matches a day than two people:
    whichever of their bot accounts play, the cap counts the owners."""
    settings.TABLE_SEATS_PER_USER = 20
    ada, bea = make_user("ada"), make_user("bea")
    a1, a2, a3 = (make_bot(name, ada)[0] for name in ("a1", "a2", "a3"))
    b1, b2 = (make_bot(name, bea)[0] for name in ("b1", "b2"))
    assert all(started(*pair).rated for pair in ((a1, b1), (a2, b1), (a1, b2)))
    fourth = table_of(a3, b2)  # two bot accounts that never met, of owners who used their day
    assert not fourth.rated and fourth.unrated_reasons == [rated.REPEAT_OPPONENTS]
    assert not services.table_start(table_id=fourth.pk, by=a3).rated
    # Another owner's bot account is another opponent.
    assert started(a3, make_bot("c1")[0]).rated


# --- what the pages say -------------------------------------------------------------------------------------


def test_the_match_page_and_the_admin_show_an_aborted_match_as_such(alice, bob, client):
    table = started(alice, bob)
    services.table_leave(table_id=table.pk, by=bob)
    match = Match.objects.get(table=table)
    page = client.get(reverse("tables:match", args=[match.pk])).content.decode()
    assert "Match aborted" in page and "bob left before the abort window closed: no places, no rating." in page
    client.force_login(make_user("root", staff=True))
    User.objects.filter(username="root").update(is_superuser=True)
    listing = client.get(reverse("admin:tables_match_changelist") + "?aborted=left").content.decode()
    assert f">{match.pk}<" in listing


def test_the_match_page_says_why_a_match_was_unrated(alice, bob, client):
    match = services.table_start(table_id=table_of(alice, bob, turn_seconds=0).pk, by=alice)
    page = client.get(reverse("tables:match", args=[match.pk])).content.decode()
    assert "Unrated: there is no turn timer" in page


def test_the_create_table_form_knows_why_its_table_would_be_unrated(client):
    carol = make_user("carol", verified=False)
    client.force_login(carol)
    page = client.get(reverse("tables:lobby"))
    previews = page.context["rated_previews"]
    assert previews["000"] == ["unverified_email"]
    assert reverse("account_email") in page.content.decode()  # where to verify it
    assert previews["101"] == ["bot", "unverified_email", "no_timer"]
    verify_email(carol)
    page = client.get(reverse("tables:lobby"))
    previews = page.context["rated_previews"]
    assert previews["000"] == [] and previews["010"] == ["bot_account"]
    assert not page.context["verify_email"]
    client.logout()
    assert client.get(reverse("tables:lobby")).context["rated_previews"]["000"] == ["guest"]


def test_a_players_profile_lists_an_aborted_match_as_aborted(alice, bob, client):
    services.table_leave(table_id=started(alice, bob).pk, by=bob)
    [row] = client.get(reverse("players:profile", args=["alice"])).context["matches"]
    assert row.player.aborted
    assert "aborted" in client.get(reverse("players:profile", args=["bob"])).content.decode()
