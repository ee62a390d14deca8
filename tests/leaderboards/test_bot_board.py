"""Bot accounts on the leaderboards (SPEC 14): rated only in matches among bot accounts, on their own
board, once per match; never on the people's board, and people's ratings never move at a table with a
bot account."""

from __future__ import annotations

import pytest

from apps.leaderboards.models import Rating, RatingChange
from apps.leaderboards.selectors import leaderboard
from apps.leaderboards.services import rating_apply_match
from apps.tables import services
from apps.tables.models import Match, Table
from tests.bots.helpers import make_bot
from tests.tables.helpers import make_user, play_match

pytestmark = pytest.mark.django_db


def played(table: Table) -> Match:
    play_match(table.pk)
    return Match.objects.get(table=table)


def bot_only_match(game: str = "tile-rummy") -> tuple[Match, list]:
    host, _ = make_bot("robo")
    guest, _ = make_bot("droid")
    table = services.table_open(by=host, game=game, seat_count=2)
    services.table_join(table_id=table.pk, by=guest)
    services.table_start(table_id=table.pk, by=host)
    return played(table), [host, guest]


def test_a_match_among_bot_accounts_rates_them_on_their_own_board_once():
    match, bots = bot_only_match()
    assert match.rated
    assert rating_apply_match(match_id=match.pk) is True
    assert rating_apply_match(match_id=match.pk) is False  # once
    board = list(leaderboard("tile-rummy", bots=True))
    assert sorted(rating.user_id for rating in board) == sorted(bot.pk for bot in bots)
    assert all(rating.matches == 1 for rating in board)
    assert RatingChange.objects.filter(match=match).count() == 2
    assert list(leaderboard("tile-rummy")) == []


def test_peoples_ratings_never_change_at_a_table_with_a_bot_account():
    ann, bob = make_user("ann"), make_user("bob")
    bot, _ = make_bot("robo")
    table = services.table_open(by=ann, game="tile-rummy", seat_count=3, invite={2: bot})
    services.table_join(table_id=table.pk, by=bob)
    services.invitation_accept(table_id=table.pk, by=bot)
    services.table_start(table_id=table.pk, by=ann)
    match = played(table)
    assert match.rated is False
    rating_apply_match(match_id=match.pk)
    Match.objects.filter(pk=match.pk).update(rated=True)  # even a match wrongly marked rated
    rating_apply_match(match_id=match.pk)
    assert Rating.objects.count() == 0 and RatingChange.objects.count() == 0


def test_the_bot_board_page_lists_bot_accounts_and_the_peoples_page_does_not(client):
    match, bots = bot_only_match()
    rating_apply_match(match_id=match.pk)
    people = client.get("/leaderboards/tile-rummy/").content.decode()
    robots = client.get("/leaderboards/tile-rummy/bots/").content.decode()
    assert "robo" not in people and "droid" not in people
    assert "robo" in robots and "droid" in robots and 'class="bot-mark"' in robots


def test_a_bot_accounts_profile_links_its_rating_to_the_bot_board(client):
    match, bots = bot_only_match()
    rating_apply_match(match_id=match.pk)
    page = client.get("/u/robo/").content.decode()
    assert "/leaderboards/tile-rummy/bots/" in page


def test_the_match_page_marks_the_bot_accounts_bot(client):
    match, _bots = bot_only_match()
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert page.count('class="bot-mark"') == 2
