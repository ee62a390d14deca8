"""The services deal every match fairly (SPEC 11): the commitment before any seed, the human seats'
seeds within a window, the first deal from the sealed seeds, the later games from the same seeds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from apps.engine.fair import FairSeeds
from apps.engine.game import get_rules
from apps.engine.match import fair_deal
from apps.tables import fairness, services
from apps.tables.models import FairDeal, Game, Table
from apps.tables.snapshot import frame_for_user
from tests.tables.helpers import make_user, play_match, run_due

pytestmark = pytest.mark.django_db

HOUSE, REARRANGE = "tile-rummy", "tile-rummy-rearrange"
SEED_A, SEED_B = "aa" * 16, "b0" * 16


@pytest.fixture
def window(settings):
    settings.TABLE_FAIR_SEED_SECONDS = 5.0


def started(game=HOUSE, *, length=1, bot=False):
    alice, bob = make_user("alice"), make_user("bob")
    table = services.table_open(by=alice, game=game, seat_count=3 if bot else 2, match_length=length,
                                bots=["", "easy"] if bot else [])
    services.table_join(table_id=table.pk, by=bob, seat_index=1)
    services.table_start(table_id=table.pk, by=alice)
    return Table.objects.get(pk=table.pk), alice, bob


def seeds_of(table: Table) -> FairSeeds:
    fair = FairDeal.objects.get(match_id=table.match_id)
    return FairSeeds(bytes.fromhex(fair.server_seed), tuple(bytes.fromhex(seed or "") for seed in fair.seeds))


def test_a_match_shows_its_commitment_and_waits_for_the_human_seats_seeds_before_dealing(window):
    table, alice, bob = started(bot=True)
    fair = FairDeal.objects.get(match_id=table.match_id)
    assert table.status == Table.Status.PLAYING and table.current_game_id is None and not Game.objects.exists()
    assert table.due_action == Table.Due.DEAL and table.due_at == fair.seeds_until
    shown = frame_for_user(table.pk, None)["table"]["match"]["fair"]
    assert shown["commitment"] == fair.commitment and shown["seeding"] and shown["sent"] == [False, False, True]
    services.table_seed(table_id=table.pk, by=alice, seed=SEED_A)
    assert not Game.objects.exists()
    services.table_seed(table_id=table.pk, by=bob, seed=SEED_B)
    game = Game.objects.get()
    assert game.deal == get_rules(HOUSE).deal_of(fair_deal(HOUSE, seeds_of(table), 1))
    assert seeds_of(table).player_seeds == (bytes.fromhex(SEED_A), bytes.fromhex(SEED_B), b"")


def test_a_seat_that_sends_no_seed_in_time_contributes_an_empty_one(window):
    table, alice, _ = started()
    services.table_seed(table_id=table.pk, by=alice, seed=SEED_A)
    assert not run_due_early(table)
    assert run_due(table.pk)
    assert FairDeal.objects.get(match_id=table.match_id).seeds == [SEED_A, ""]
    assert Game.objects.get().deal == get_rules(HOUSE).deal_of(fair_deal(HOUSE, seeds_of(table), 1))


def run_due_early(table: Table) -> bool:
    return services.table_due(table_id=table.pk, now=timezone.now() - timedelta(seconds=1))


def test_a_seed_after_the_deal_a_bad_seed_and_a_spectators_seed_are_refused_and_change_nothing(window):
    table, alice, bob = started()
    carol = make_user("carol")
    for user, seed, message in [(alice, "AA" * 16, "lowercase hex"), (carol, SEED_A, "no seat")]:
        with pytest.raises(services.NotAllowed, match=message):
            services.table_seed(table_id=table.pk, by=user, seed=seed)
    assert FairDeal.objects.get(match_id=table.match_id).seeds == [None, None]
    services.table_seed(table_id=table.pk, by=alice, seed=SEED_A)
    services.table_seed(table_id=table.pk, by=bob, seed=SEED_B)
    with pytest.raises(services.NotAllowed, match="no longer taken"):
        services.table_seed(table_id=table.pk, by=bob, seed=SEED_A)


def test_standing_up_while_the_seeds_are_taken_deals_and_then_leaves_the_first_game(window):
    table, alice, bob = started(bot=True)
    services.table_leave(table_id=table.pk, by=bob)
    table.refresh_from_db()
    rules = get_rules(HOUSE)
    state = rules.from_dict(table.current_game.state)
    assert rules.has_left(state, 1) and table.current_game.deal == rules.deal_of(fair_deal(HOUSE, seeds_of(table), 1))


@pytest.mark.parametrize("game", [HOUSE, REARRANGE])
def test_every_game_of_a_match_is_dealt_from_its_seeds_and_the_match_page_check_passes(game):
    table, _, _ = started(game, length=3)
    table = play_match(table.pk)
    match = table.match
    check = fairness.match_check(match)
    assert check is not None and check.verified and len(check.games) == 3
    shown = frame_for_user(table.pk, None)["table"]["match"]["fair"]
    assert shown["revealed"] and shown["server_seed"] == FairDeal.objects.get(match=match).server_seed
