"""Provably fair deals at the site (apps/tables/fairness.py, SPEC 11): the secret server seed and its
commitment, the browsers' seeds and their window, the seal, what a viewer and a record may see before and
after the match, and the match page showing the check."""

from __future__ import annotations

import hashlib
import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from apps.engine.fair import FairSeeds
from apps.engine.game import get_rules
from apps.engine.match import fair_deal
from apps.engine.records import GameRecord, replay
from apps.tables import fairness
from apps.tables.fairness import SeedRefused
from apps.tables.models import FairDeal, Game, Match, MatchPlayer, Seat, Table
from apps.tables.records import game_record
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db

HOUSE, REARRANGE = "tile-rummy", "tile-rummy-rearrange"
SEED_0, SEED_1 = "0f" * 16, "a1" * 16


def match_at_table(game: str = HOUSE, *, length: int = 3) -> tuple[Match, list[Seat]]:
    """Alice (seat 0) and Bob (seat 1) with an Easy bot (seat 2), their match just started."""
    alice, bob = make_user("alice"), make_user("bob")
    table = Table.objects.create(game=game, seat_count=3, match_length=length, host=alice, status=Table.Status.PLAYING)
    seats = [
        Seat.objects.create(table=table, index=0, user=alice),
        Seat.objects.create(table=table, index=1, user=bob),
        Seat.objects.create(table=table, index=2, bot_level="easy"),
    ]
    match = Match.objects.create(table=table, game=game, state={})
    for seat in seats:
        MatchPlayer.objects.create(match=match, seat=seat.index, user=seat.user, bot_level=seat.bot_level, name=seat.display_name)
    return match, seats


def deal_games(match: Match, seeds: FairSeeds, count: int) -> list[Game]:
    """Games 1 to `count` of the match, dealt from the seeds (nobody left), finished."""
    rules = get_rules(match.game)
    games = []
    for number in range(1, count + 1):
        state = fair_deal(match.game, seeds, number)
        games.append(Game.objects.create(match=match, number=number, state=rules.to_dict(state), deal=rules.deal_of(state),
                                         finished_at=timezone.now()))
    return games


def open_fair(game: str = HOUSE) -> tuple[Match, list[Seat], FairDeal]:
    match, seats = match_at_table(game)
    return match, seats, fairness.deal_open(match=match, seats=seats, now=timezone.now())


def finish(match: Match) -> None:
    match.finished_at = timezone.now()
    match.save(update_fields=["finished_at"])


# --- the server seed and the players' seeds --------------------------------------------------------------


def test_a_match_opens_with_a_fresh_secret_server_seed_and_shows_only_its_commitment():
    match, seats, fair = open_fair()
    server_seed = bytes.fromhex(fair.server_seed)
    assert len(server_seed) == 32 and fair.commitment == hashlib.sha256(server_seed).hexdigest()
    other_match, other_seats = Match.objects.create(table=match.table, number=2, game=HOUSE, state={}), seats
    assert fairness.deal_open(match=other_match, seats=other_seats, now=timezone.now()).server_seed != fair.server_seed
    view = fairness.public_view(match)
    assert view is not None and view["commitment"] == fair.commitment and view["seeding"]
    assert view["sent"] == [False, False, True]  # the bot's empty seed is in from the start
    assert fair.server_seed not in json.dumps(view) and "server_seed" not in view


def test_the_server_seed_comes_from_the_secrets_module(monkeypatch):
    monkeypatch.setattr(fairness.secrets, "token_bytes", lambda count: bytes(range(count)))
    _, _, fair = open_fair()
    assert fair.server_seed == bytes(range(32)).hex()


def test_the_window_for_the_seeds_is_a_setting(settings):
    settings.TABLE_FAIR_SEED_SECONDS = 2.5
    now = timezone.now()
    match, seats = match_at_table()
    fair = fairness.deal_open(match=match, seats=seats, now=now)
    assert fair.seeds_until == now + timedelta(seconds=2.5)


def test_a_human_seats_seed_is_taken_once():
    _, _, fair = open_fair()
    fairness.seed_accept(fair=fair, seat=0, seed=SEED_0)
    with pytest.raises(SeedRefused, match="already in"):
        fairness.seed_accept(fair=fair, seat=0, seed=SEED_1)
    fair.refresh_from_db()
    assert fair.seeds == [SEED_0, None, ""]


@pytest.mark.parametrize("seed", [None, 7, "", "ab", "0f" * 15, "0f" * 17, "zz" * 16, "0F" * 16, ["0f"] * 16, " " + "0f" * 16])
def test_a_malformed_seed_is_refused_and_changes_nothing(seed):
    _, _, fair = open_fair()
    with pytest.raises(SeedRefused, match="16 random bytes written as 32 lowercase hex digits"):
        fairness.seed_accept(fair=fair, seat=1, seed=seed)
    fair.refresh_from_db()
    assert fair.seeds == [None, None, ""]


def test_a_bots_seat_and_a_seat_that_does_not_exist_send_no_seed():
    _, _, fair = open_fair()
    for seat in (2, 3, -1):
        with pytest.raises(SeedRefused, match="already in"):
            fairness.seed_accept(fair=fair, seat=seat, seed=SEED_0)
    fair.refresh_from_db()
    assert fair.seeds == [None, None, ""]


def test_the_window_closes_once_every_human_seed_is_in_or_when_its_time_is_up():
    _, _, fair = open_fair()
    assert not fairness.seeds_due(fair, fair.seeds_until - timedelta(milliseconds=1))
    assert fairness.seeds_due(fair, fair.seeds_until)
    fairness.seed_accept(fair=fair, seat=0, seed=SEED_0)
    assert not fairness.seeds_complete(fair)
    fairness.seed_accept(fair=fair, seat=1, seed=SEED_1)
    assert fairness.seeds_complete(fair) and fairness.seeds_due(fair, fair.seeds_until - timedelta(seconds=4))


def test_sealing_makes_a_missing_seed_empty_and_takes_no_seed_after():
    match, _, fair = open_fair()
    fairness.seed_accept(fair=fair, seat=0, seed=SEED_0)
    with pytest.raises(RuntimeError, match="not sealed"):
        fairness.seeds_of(match)
    seeds = fairness.seal(fair, timezone.now())
    assert seeds == FairSeeds(bytes.fromhex(fair.server_seed), (bytes.fromhex(SEED_0), b"", b""))
    with pytest.raises(SeedRefused, match="deal has been made"):
        fairness.seed_accept(fair=fair, seat=1, seed=SEED_1)
    fair.refresh_from_db()
    assert fair.seeds == [SEED_0, "", ""] and fair.sealed_at is not None
    assert fairness.seal(fair, timezone.now()) == seeds == fairness.seeds_of(match)
    assert not fairness.public_view(match)["seeding"]


# --- what is shown before and after the match ------------------------------------------------------------


def test_the_server_seed_is_in_no_view_and_no_record_before_the_match_is_over():
    match, _, fair = open_fair()
    fairness.seed_accept(fair=fair, seat=1, seed=SEED_1)
    games = deal_games(match, fairness.seal(fair, timezone.now()), 2)  # two games played, the match goes on
    for text in (json.dumps(fairness.public_view(match)), json.dumps(game_record(games[0]))):
        assert fair.server_seed not in text and fair.server_seed.upper() not in text
    record = GameRecord.from_dict(game_record(games[0]))
    assert record.fair is not None and record.fair.server_seed is None and record.fair.commitment == fair.commitment
    replayed = replay(record)
    assert replayed.fair is not None and not replayed.fair.verified


def test_once_the_match_is_over_every_view_and_record_holds_the_seeds_and_the_deals_verify():
    match, _, fair = open_fair(REARRANGE)
    fairness.seed_accept(fair=fair, seat=0, seed=SEED_0)
    games = deal_games(match, fairness.seal(fair, timezone.now()), 3)
    finish(match)
    view = fairness.public_view(match)
    assert view is not None and view["revealed"] and view["server_seed"] == fair.server_seed
    assert view["player_seeds"] == [SEED_0, "", ""] and view["check_url"] == reverse("tables:match", args=[match.pk])
    for game in games:
        record = GameRecord.from_dict(json.loads(json.dumps(game_record(game))))
        assert record.fair is not None and record.fair.game_no == game.number
        replayed = replay(record)
        assert replayed.fair is not None and replayed.fair.verified


def test_the_match_check_passes_for_the_seeds_deals_and_names_a_game_whose_deal_was_changed():
    match, _, fair = open_fair()
    games = deal_games(match, fairness.seal(fair, timezone.now()), 3)
    assert fairness.match_check(match) == fairness.MatchCheck(fair.commitment, revealed=False)
    finish(match)
    check = fairness.match_check(match)
    assert check is not None and check.verified and [game.number for game in check.games] == [1, 2, 3]
    deal = games[1].deal
    deal["pile"][0], deal["pile"][1] = deal["pile"][1], deal["pile"][0]
    games[1].save(update_fields=["deal"])
    check = fairness.match_check(match)
    assert check is not None and not check.verified
    assert [(game.number, game.verified) for game in check.games] == [(1, True), (2, False), (3, True)]
    assert "not the fair deal of game 2" in check.games[1].problem


def test_a_match_dealt_before_fair_deals_has_no_fair_part():
    match, _ = match_at_table()
    game = Game.objects.create(match=match, number=1, state={}, deal={}, finished_at=timezone.now())
    assert fairness.public_view(match) is None and fairness.match_check(match) is None
    assert fairness.seeds_of(match) is None and fairness.game_proof(game) is None
    assert "fair" not in game_record(game)


# --- the pages ----------------------------------------------------------------------------------------


def test_the_match_page_shows_the_commitment_while_the_match_is_played_and_never_the_server_seed(client):
    match, _, fair = open_fair()
    deal_games(match, fairness.seal(fair, timezone.now()), 1)
    page = client.get(reverse("tables:match", args=[match.pk])).content.decode()
    assert fair.commitment in page and fair.server_seed not in page
    assert "published when the match is over" in page


def test_the_match_page_shows_the_check_passing_and_links_to_the_explanation_once_the_match_is_over(client):
    match, _, fair = open_fair()
    fairness.seed_accept(fair=fair, seat=0, seed=SEED_0)
    deal_games(match, fairness.seal(fair, timezone.now()), 3)
    finish(match)
    page = client.get(reverse("tables:match", args=[match.pk])).content.decode()
    assert "Checked" in page and "all 3 games" in page and "Not verified" not in page
    assert fair.server_seed in page and SEED_0 in page and "Seed of alice" in page
    assert f'href="{reverse("tables:fair_deals")}"' in page


def test_the_match_page_says_when_a_deal_does_not_verify(client):
    match, _, fair = open_fair()
    (game,) = deal_games(match, fairness.seal(fair, timezone.now()), 1)
    game.deal = {**game.deal, "starter": (game.deal["starter"] + 1) % 3}
    game.save(update_fields=["deal"])
    finish(match)
    page = client.get(reverse("tables:match", args=[match.pk])).content.decode()
    assert "Not verified" in page and "Checked" not in page


def test_the_match_page_of_a_match_closed_before_its_first_deal_says_nothing_was_dealt(client):
    match, _, fair = open_fair()
    finish(match)
    check = fairness.match_check(match)
    assert check is not None and check.revealed and check.games == () and not check.verified
    page = client.get(reverse("tables:match", args=[match.pk])).content.decode()
    assert "no game was dealt" in page and "Not verified" not in page and "Checked" not in page


def test_the_explanation_page_links_the_specification_and_the_checker_which_are_served(client):
    page = client.get(reverse("tables:fair_deals"))
    assert page.status_code == 200
    text = page.content.decode()
    for name, first_line in [("fair-deals.md", "# Provably fair deals"), ("fair_check.py", "#!/usr/bin/env python3")]:
        url = reverse("tables:fair_deals_file", args=[name])
        assert f'href="{url}"' in text
        served = client.get(url)
        assert served.status_code == 200 and b"".join(served.streaming_content).decode().startswith(first_line)
    assert client.get(reverse("tables:fair_deals_file", args=["settings.py"])).status_code == 404
