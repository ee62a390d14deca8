"""Bot accounts at the tables (SPEC 14), through the services: invited into a seat (kept for them until
they accept or decline), never sitting down at a table of people unasked, marked in every frame, making a
table unrated for its humans, and held to the turn clock and autopilot like a person."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.engine.game import get_rules
from apps.tables import rated, services
from apps.tables.models import MoveLog, Seat, Table
from apps.tables.snapshot import invitations_for, lobby_entry
from tests.bots.helpers import make_bot
from tests.tables.helpers import make_user, run_due, state_of

pytestmark = pytest.mark.django_db


def seat(table: Table, index: int) -> Seat:
    return Seat.objects.select_related("user", "invited").get(table=table, index=index)


def test_a_host_invites_a_bot_account_into_a_seat_and_the_seat_is_kept_for_it():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    table = services.table_open(by=host, game="tile-rummy", seat_count=3, invite={1: bot})
    assert seat(table, 1).invited == bot
    table.refresh_from_db()
    assert table.seating[1]["invited"] == "robo" and table.seating[1]["empty"] is True
    [invitation] = invitations_for(bot.pk)
    assert invitation["table"] == table.pk and invitation["seat"] == 1 and invitation["host"] == "ann"
    with pytest.raises(services.NotAllowed):
        services.table_join(table_id=table.pk, by=make_user("bob"), seat_index=1)
    assert services.table_join(table_id=table.pk, by=make_user("cid")).index == 2  # the other seat is free


def test_accepting_seats_the_bot_account_and_marks_it_a_bot_account_in_the_frames():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: bot})
    services.invitation_accept(table_id=table.pk, by=bot)
    table.refresh_from_db()
    assert table.seating[1]["user_id"] == bot.pk and table.seating[1]["bot_account"] is True
    assert table.seating[0]["bot_account"] is False
    assert table.seating[1]["invited"] is None and invitations_for(bot.pk) == []
    assert [player["bot_account"] for player in lobby_entry(table)["players"]] == [False, True]


def test_declining_frees_the_seat_for_anyone():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: bot})
    services.invitation_decline(table_id=table.pk, by=bot)
    assert seat(table, 1).invited is None and invitations_for(bot.pk) == []
    assert services.table_join(table_id=table.pk, by=make_user("bob")).index == 1


def test_a_bot_account_cannot_accept_an_invitation_meant_for_another():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    other, _ = make_bot("droid")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: bot})
    with pytest.raises(services.NotAllowed):
        services.invitation_accept(table_id=table.pk, by=other)
    with pytest.raises(services.NotAllowed):
        services.invitation_decline(table_id=table.pk, by=other)
    with pytest.raises(services.NotAllowed):
        services.table_join(table_id=table.pk, by=other, seat_index=1)
    assert seat(table, 1).invited == bot and seat(table, 1).user is None


def test_the_host_takes_an_invitation_back_by_removing_the_seat():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: bot})
    services.seat_kick(table_id=table.pk, seat_index=1, by=host)
    assert seat(table, 1).invited is None and invitations_for(bot.pk) == []


def test_a_match_waits_for_the_invited_bot_account_to_sit():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: bot})
    with pytest.raises(services.NotAllowed):
        services.table_start(table_id=table.pk, by=host)
    services.invitation_accept(table_id=table.pk, by=bot)
    match = services.table_start(table_id=table.pk, by=host)
    assert match.rated is False


def test_only_bot_accounts_are_invited_each_once_into_an_empty_seat():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    with pytest.raises(services.TableError):
        services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: make_user("bob")})
    with pytest.raises(services.TableError):
        services.table_open(by=host, game="tile-rummy", seat_count=3, invite={1: bot, 2: bot})
    with pytest.raises(services.TableError):
        services.table_open(by=host, game="tile-rummy", seat_count=2, bots=["easy"], invite={1: bot})
    with pytest.raises(services.TableError):
        services.table_open(by=host, game="tile-rummy", seat_count=2, invite={2: bot})
    assert Table.objects.count() == 0


def test_a_bot_account_never_sits_at_a_table_of_people_unasked():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2)
    assert Table.objects.get(pk=table.pk).rated
    with pytest.raises(services.NotAllowed):
        services.table_join(table_id=table.pk, by=bot)
    assert seat(table, 1).user is None


def test_a_bot_account_sits_at_a_private_table_it_has_the_link_of():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, private=True)
    services.table_join(table_id=table.pk, by=bot, invite_token=table.invite_token)
    table.refresh_from_db()
    assert table.seating[1]["bot_account"] is True and not table.rated
    assert table.unrated_reasons == [rated.BOT_ACCOUNT]


def test_bot_accounts_sit_down_among_bot_accounts_and_are_rated_among_themselves():
    host, _ = make_bot("robo")
    guest_bot, _ = make_bot("droid")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2)
    services.table_join(table_id=table.pk, by=guest_bot)
    table.refresh_from_db()
    assert table.rated and table.unrated_reasons == []
    match = services.table_start(table_id=table.pk, by=host)
    assert match.rated is True


def test_an_invitation_between_bot_accounts_of_one_owner_says_it_would_be_unrated():
    owner = make_user("ada")
    host, _ = make_bot("robo", owner)
    invited, _ = make_bot("droid", owner)
    stranger, _ = make_bot("other")
    services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: invited})
    services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: stranger})
    [same] = invitations_for(invited.pk)
    assert same["rated"] is False and same["unrated"] == [rated.SAME_OWNER]
    [other] = invitations_for(stranger.pk)
    assert other["rated"] is True and other["unrated"] == []


def verdict_of(seating):
    return rated.seating_verdict(seating, turn_seconds=60)


@pytest.mark.parametrize(
    ("seating", "rated"),
    [
        ([{"bot": None, "guest": False, "bot_account": False}] * 2, True),
        ([{"bot": None, "guest": False, "bot_account": False}, {"bot": None, "guest": False, "bot_account": True}],
         False),
        ([{"bot": None, "guest": False, "bot_account": True}] * 2, True),
        ([{"bot": None, "guest": False, "bot_account": True}, {"bot": "easy", "guest": False, "bot_account": False}],
         False),
        ([{"bot": None, "guest": False}, {"bot": None, "guest": False}], True),  # seating written before bot accounts
    ],
)
def test_a_bot_account_makes_a_table_unrated_for_its_humans(seating, rated):
    assert verdict_of(seating).rated is rated


def test_closing_a_table_withdraws_its_invitations():
    host = make_user("ann")
    bot, _secret = make_bot("robo")
    table = services.table_open(by=host, game="tile-rummy", seat_count=2, invite={1: bot})
    services.table_close(table_id=table.pk, by=host)
    assert invitations_for(bot.pk) == []


def test_a_bot_accounts_seat_has_a_persons_clock_it_times_out_and_goes_on_autopilot():
    bot, _secret = make_bot("robo")
    table = services.table_open(by=bot, game="tile-rummy", seat_count=2, turn_seconds=30, bots=["easy"])
    services.table_start(table_id=table.pk, by=bot)
    for _ in range(10):  # the site's bot moves until it is the bot account's turn
        table, state = state_of(table.pk)
        if get_rules("tile-rummy").to_move(state) == 0:
            break
        assert run_due(table.pk)
    assert table.due_action == Table.Due.TIMEOUT  # a person's clock, not a site bot's turn
    # The site bot's moves ran on the table's own clock (run_due jumps it to each due time), which may be
    # ahead of the wall's by a few of the bot's delays: the turn's clock is read from the table.
    deadline = Table.objects.get(pk=table.pk).due_at
    assert deadline is not None
    assert not services.table_due(table_id=table.pk, now=min(timezone.now(), deadline - timedelta(seconds=1)))
    assert services.table_due(table_id=table.pk, now=deadline + timedelta(seconds=1))
    assert MoveLog.objects.filter(seat=0, actor="timeout").exists()
    table, state = state_of(table.pk)
    assert get_rules("tile-rummy").is_away(state, 0)
    services.game_back(table_id=table.pk, by=bot)
    table, state = state_of(table.pk)
    assert not get_rules("tile-rummy").is_away(state, 0)


def test_one_owners_bot_accounts_together_host_no_more_unstarted_tables_than_one_account(settings):
    """SPEC 14: the lobby's tables count per owner; ten bot accounts are not thirty tables."""
    settings.TABLE_UNSTARTED_PER_HOST = 3
    owner = make_user("ada")
    robo, droid, other = (make_bot(name, owner)[0] for name in ("robo", "droid", "r2"))
    services.table_open(by=robo, game="tile-rummy", seat_count=2)
    services.table_open(by=droid, game="tile-rummy", seat_count=2)
    services.table_open(by=other, game="tile-rummy", seat_count=2)
    for bot in (robo, droid, other):
        with pytest.raises(services.NotAllowed):
            services.table_open(by=bot, game="tile-rummy", seat_count=2)
    assert Table.objects.count() == 3
    # Another owner's bot account, and the owner in person, host their own.
    services.table_open(by=make_bot("stranger")[0], game="tile-rummy", seat_count=2)
    services.table_open(by=owner, game="tile-rummy", seat_count=2)
    assert Table.objects.count() == 5
