"""Voiding a rated match (apps/leaderboards/voiding.py through apps/moderation/services.py): its rating
changes reversed exactly once, later ratings recomputed exactly; a booster's gains voided."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from apps.accounts.selectors import booster_ids, is_booster
from apps.leaderboards.models import AppliedMatch, Rating, RatingChange
from apps.leaderboards.rating import START_RATING, Standing, rating_changes
from apps.leaderboards.services import matches_waiting_for_ratings, rating_apply_match
from apps.leaderboards.tasks import rate_match
from apps.moderation.models import ModerationAction
from apps.moderation.services import account_mark_booster, match_void
from tests.leaderboards.factories import finished_match, make_user

pytestmark = pytest.mark.django_db


def board():
    """Every rating of the game: {username: (rating, matches, peak)}."""
    return {r.user.username: (r.rating, r.matches, r.peak) for r in Rating.objects.select_related("user")}


def history():
    """Every history row: {(match id, username): (before, after, delta)}."""
    return {
        (c.match_id, c.user.username): (c.before, c.after, c.delta)
        for c in RatingChange.objects.select_related("user")
    }


def replay(matches):
    """The board a recomputation from scratch gives: matches as [(match id, [(name, place), ...])], in order,
    through the rating formula alone (no database)."""
    ratings: dict[str, tuple[int, int, int]] = {}
    rows = {}
    for match_id, players in matches:
        standings = [
            Standing(key=name, rating=ratings.get(name, (START_RATING, 0, START_RATING))[0],
                     matches=ratings.get(name, (START_RATING, 0, START_RATING))[1], place=place)
            for name, place in players
        ]
        changes = rating_changes(standings)
        for standing in standings:
            rating, count, peak = ratings.get(standing.key, (START_RATING, 0, START_RATING))
            after = rating + changes[standing.key]
            ratings[standing.key] = (after, count + 1, max(peak, after))
            rows[(match_id, standing.key)] = (rating, after, changes[standing.key])
    return ratings, rows


@pytest.fixture
def season():
    """Five rated matches, applied in order: ana beats ben (the one to void), then ben-cat, ana-cat,
    a three-player one (cat, dan, ben) and an unrelated dan-eve before any of it touches dan."""
    ana, ben, cat, dan, eve = (make_user(name) for name in ("ana", "ben", "cat", "dan", "eve"))
    plan = [
        ("dan-eve", [(dan, 1), (eve, 2)]),
        ("ana-ben", [(ana, 1), (ben, 2)]),
        ("ben-cat", [(ben, 1), (cat, 2)]),
        ("ana-cat", [(ana, 2), (cat, 1)]),
        ("cat-dan-ben", [(cat, 1), (dan, 2), (ben, 3)]),
        ("eve-dan", [(eve, 1), (dan, 2)]),
    ]
    matches = {}
    for name, players in plan:
        matches[name] = finished_match(players)
        assert rating_apply_match(match_id=matches[name].pk)
    names = [(name, [(user.username, place) for user, place in players]) for name, players in plan]
    return matches, names


def test_voiding_a_match_twice_reverses_it_once_and_recomputes_the_later_ratings_exactly(season):
    matches, plan = season
    before_void = history()
    voided = matches["ana-ben"]

    result = match_void(match_id=voided.pk, by=None, reason="farmed")
    assert result is not None and result.reversed == {
        voided.players.get(seat=0).user_id: before_void[(voided.pk, "ana")][2],
        voided.players.get(seat=1).user_id: before_void[(voided.pk, "ben")][2],
    }
    after_first = (board(), history())
    assert match_void(match_id=voided.pk, by=None, reason="farmed again") is None
    assert (board(), history()) == after_first  # the second void changed nothing

    # Exactly what a recomputation from scratch without that match gives, row by row.
    expected_board, expected_rows = replay([(matches[name].pk, players) for name, players in plan if name != "ana-ben"])
    assert board() == expected_board
    assert history() == expected_rows
    assert not RatingChange.objects.filter(match=voided).exists()
    # By hand: without ana-ben, ben (1000) beats cat (1000): cat 968. Then ana meets cat at 1000 with no
    # match behind her (not at 1032 with one) and loses: 1000 + 64 * (0 - E(1000 vs 968)) = 965.
    assert board()["ana"] == (965, 1, 1000)
    assert history()[(matches["ana-cat"].pk, "ana")] == (1000, 965, -35)
    # The later matches changed; the first one (before the voided) and dan-eve's inputs did not.
    assert set(result.recomputed) == {matches[n].pk for n in ("ben-cat", "ana-cat", "cat-dan-ben", "eve-dan")}
    assert history()[(matches["dan-eve"].pk, "dan")] == before_void[(matches["dan-eve"].pk, "dan")]
    assert history()[(matches["ben-cat"].pk, "ben")] != before_void[(matches["ben-cat"].pk, "ben")]

    assert AppliedMatch.objects.get(match=voided).voided_at is not None
    assert_board_is_its_history_replayed()
    log = ModerationAction.objects.get()
    assert (log.action, log.match_id, log.reason) == ("void_match", voided.pk, "farmed")


def test_voiding_the_last_match_changes_only_its_players():
    ana, ben, cat = make_user("ana"), make_user("ben"), make_user("cat")
    rating_apply_match(match_id=finished_match([(ana, 1), (cat, 2)]).pk)
    last = finished_match([(ana, 1), (ben, 2)])
    rating_apply_match(match_id=last.pk)
    cat_before = board()["cat"]

    match_void(match_id=last.pk, by=None, reason="test")

    assert board() == {"ana": (1032, 1, 1032), "ben": (1000, 0, 1000), "cat": cat_before}


def test_a_match_voided_before_its_rating_task_ran_is_then_skipped_by_the_task():
    ana, ben = make_user("ana"), make_user("ben")
    match = finished_match([(ana, 1), (ben, 2)])

    result = match_void(match_id=match.pk, by=None, reason="reported before the end")
    assert result is not None and result.reversed == {}

    assert rate_match(match.pk) is False
    assert rating_apply_match(match_id=match.pk) is False
    assert not Rating.objects.exists() and not RatingChange.objects.exists()
    assert match.pk not in matches_waiting_for_ratings()  # the sweep does not pick it up either
    assert ModerationAction.objects.filter(action="void_match", match_id=match.pk).count() == 1


def test_marking_a_booster_voids_its_gains_bars_it_from_rated_play_and_is_logged():
    booster, partner, honest = make_user("booster"), make_user("partner"), make_user("honest")
    farmed = [finished_match([(booster, 1), (partner, 2)]) for _ in range(3)]
    for match in farmed:
        rating_apply_match(match_id=match.pk)
    lost = finished_match([(booster, 2), (honest, 1)])
    rating_apply_match(match_id=lost.pk)
    assert not is_booster(booster) and booster_ids([booster.pk, honest.pk]) == set()

    result = account_mark_booster(user_id=booster.pk, by=None, reason="farming with partner")

    assert result.marked and set(result.voided) == {m.pk for m in farmed}
    booster.refresh_from_db()
    assert is_booster(booster) and booster_ids([booster.pk, honest.pk, None]) == {booster.pk}
    assert not RatingChange.objects.filter(user=booster, delta__gt=0).exists()
    # What is left is the loss to honest, as if the farmed matches never were.
    expected, _rows = replay([(lost.pk, [("booster", 2), ("honest", 1)])])
    assert board() == {"booster": expected["booster"], "partner": (1000, 0, 1000), "honest": expected["honest"]}
    actions = list(ModerationAction.objects.order_by("id").values_list("action", "target_id", "match_id"))
    assert actions == [("mark_booster", booster.pk, None), *[("void_match", None, m.pk) for m in farmed]]

    again = account_mark_booster(user_id=booster.pk, by=None, reason="again")
    assert not again.marked and again.voided == []
    assert ModerationAction.objects.count() == 4


def assert_board_is_its_history_replayed():
    """Every rating and history row equals a replay, from 1000, of the matches left in the history in the
    order they were applied (each match's first row id)."""
    rows = list(RatingChange.objects.select_related("user").order_by("id"))
    order: dict[int, list[RatingChange]] = {}
    for row in rows:
        order.setdefault(row.match_id, []).append(row)
    expected_board, expected_rows = replay(
        [(match_id, [(row.user.username, row.place) for row in group]) for match_id, group in order.items()]
    )
    assert history() == expected_rows
    assert {name: value for name, value in board().items() if value[1]} == expected_board


@pytest.mark.django_db(transaction=True)
def test_voids_and_ratings_at_the_same_moment_leave_a_board_that_is_its_history_replayed():
    """A moderator voids a match (twice, in two tabs) while the rating task applies later matches of the
    same players: the row locks serialise them, and whatever the order the board is exact."""
    if connection.vendor == "sqlite":
        pytest.skip("needs a database with row locks and concurrent connections (CI runs PostgreSQL)")
    ana, ben, cat, dan = (make_user(name) for name in ("ana", "ben", "cat", "dan"))
    voided = finished_match([(ana, 1), (ben, 2)])
    rating_apply_match(match_id=voided.pk)
    rating_apply_match(match_id=finished_match([(ben, 1), (cat, 2)]).pk)
    waiting = [finished_match(players) for players in (
        [(ana, 1), (cat, 2)], [(cat, 1), (dan, 2)], [(dan, 1), (ana, 2)], [(ben, 1), (dan, 2)],
    )]
    barrier = threading.Barrier(3)
    outcomes: list[object] = []

    def run(work) -> None:
        try:
            barrier.wait()
            outcomes.append(work())
        finally:
            connection.close()

    def rate_all() -> int:
        return sum(rating_apply_match(match_id=match.pk) for match in waiting)

    threads = [
        threading.Thread(target=run, args=(lambda: match_void(match_id=voided.pk, by=None, reason="tab 1"),)),
        threading.Thread(target=run, args=(lambda: match_void(match_id=voided.pk, by=None, reason="tab 2"),)),
        threading.Thread(target=run, args=(rate_all,)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert 4 in outcomes and outcomes.count(None) == 1, outcomes  # all rated; one void found it done
    assert ModerationAction.objects.filter(action="void_match").count() == 1
    assert not RatingChange.objects.filter(match=voided).exists()
    assert_board_is_its_history_replayed()
