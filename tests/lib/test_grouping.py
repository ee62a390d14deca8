"""The grouping of a pool's players into tables (apps/lib/grouping.py, SPEC 15)."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from apps.lib.grouping import TOLERANCE, UNSEATED, UNSEATED_PER_WAVE, WIDENING, Waiting, form_tables, table_cost


def ids(grouping):
    return sorted(sorted(player.id for player in table) for table in grouping.tables)


def test_two_players_close_in_rating_get_a_table():
    grouping = form_tables([Waiting(1, 1500), Waiting(2, 1540)])
    assert ids(grouping) == [[1, 2]]
    assert grouping.left == []


def test_players_too_far_apart_wait_until_one_of_them_has_waited_long_enough():
    gap = TOLERANCE + 3 * WIDENING
    newcomers = [Waiting(1, 1000), Waiting(2, 1000 + gap)]
    assert ids(form_tables(newcomers)) == []
    assert sorted(player.id for player in form_tables(newcomers).left) == [1, 2]
    not_yet = [Waiting(1, 1000, waves=2), Waiting(2, 1000 + gap)]
    assert ids(form_tables(not_yet)) == []
    one_waited = [Waiting(1, 1000, waves=3), Waiting(2, 1000 + gap)]
    assert ids(form_tables(one_waited)) == [[1, 2]], "a long wait takes whoever comes next"


def test_a_newcomer_is_seated_with_the_nearest_rating_when_several_fit():
    players = [Waiting(1, 1000), Waiting(2, 1300, waves=10), Waiting(3, 1290)]
    assert ids(form_tables(players)) == [[2, 3]]


def test_a_forbidden_pair_never_shares_a_table_even_when_closest():
    players = [Waiting(1, 1500), Waiting(2, 1501), Waiting(3, 1550)]
    blocked = {frozenset((1, 2))}
    grouping = form_tables(players, allowed=lambda a, b: frozenset((a.id, b.id)) not in blocked)
    assert ids(grouping) in ([[1, 3]], [[2, 3]])
    assert all({1, 2} - {player.id for player in table} for table in grouping.tables)


def test_the_player_left_out_is_the_one_who_has_waited_least():
    players = [Waiting(1, 1500, waves=4), Waiting(2, 1510, waves=0), Waiting(3, 1520, waves=2)]
    grouping = form_tables(players)
    assert [player.id for player in grouping.left] == [2]


def test_frequent_leavers_sit_with_each_other_and_provisional_players_with_each_other():
    leavers = [Waiting(1, 1000, leaver=True), Waiting(2, 1010), Waiting(3, 1020, leaver=True), Waiting(4, 1030)]
    assert ids(form_tables(leavers)) == [[1, 3], [2, 4]]
    new = [Waiting(1, 1000, provisional=True), Waiting(2, 1010), Waiting(3, 1020, provisional=True), Waiting(4, 1030)]
    assert ids(form_tables(new)) == [[1, 3], [2, 4]]


@pytest.mark.parametrize("seats", [3, 4])
def test_tables_of_three_and_four_are_formed_of_players_close_in_rating(seats):
    low = [Waiting(i, 1000 + 5 * i) for i in range(seats)]
    high = [Waiting(10 + i, 1400 + 5 * i) for i in range(seats)]
    grouping = form_tables([*high, *low, Waiting(99, 1200)], seats=seats)
    assert ids(grouping) == [[p.id for p in low], [p.id for p in high]]
    assert [player.id for player in grouping.left] == [99]


def test_a_table_needs_two_seats_at_least():
    with pytest.raises(ValueError):
        form_tables([Waiting(1, 1000)], seats=1)


def exhaustive_best(players, seats, allowed):
    """The least cost over every way of seating the players (tables in any order), by brute force."""
    if not players:
        return 0.0
    first, rest = players[0], players[1:]
    best = UNSEATED + UNSEATED_PER_WAVE * first.waves + exhaustive_best(rest, seats, allowed)
    for others in combinations(range(len(rest)), seats - 1):
        cost = table_cost([first, *(rest[k] for k in others)], allowed)
        if cost is not None:
            remaining = [player for k, player in enumerate(rest) if k not in others]
            best = min(best, cost + exhaustive_best(remaining, seats, allowed))
    return best


def grouping_cost(grouping, allowed):
    seated = sum(table_cost(table, allowed) for table in grouping.tables)
    return seated + sum(UNSEATED + UNSEATED_PER_WAVE * player.waves for player in grouping.left)


@pytest.mark.parametrize("seats", [2, 3])
def test_the_grouping_is_as_good_as_an_exhaustive_search_of_small_pools(seats):
    draw = random.Random(15 + seats)
    for _ in range(60):
        players = [Waiting(i, round(draw.gauss(1000, 80)), waves=draw.randrange(4)) for i in range(draw.randrange(2, 8))]
        grouping = form_tables(players, seats=seats)
        seated = [player.id for table in grouping.tables for player in table]
        assert sorted(seated + [player.id for player in grouping.left]) == sorted(player.id for player in players)
        assert grouping_cost(grouping, lambda a, b: True) == pytest.approx(exhaustive_best(players, seats, lambda a, b: True))
