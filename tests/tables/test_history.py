"""The "What happened" log kept on the server (apps/tables/history.py): every change adds its entries to
the game, the frames carry them, so a page that reloads shows the same lines; and no entry says more
than a spectator could see."""

from __future__ import annotations

import json
import random

import pytest

from apps.tables import history, services
from apps.tables.models import Game, Table
from apps.tables.snapshot import frame_for_user
from tests.tables.helpers import human_move, make_user, run_due

pytestmark = pytest.mark.django_db

KNOWN = {"new_game", "discarded", "took_discard", "opened", "laid", "joker", "laid_off", "placed", "drew", "passed",
         "left", "autopilot", "back", "game_over"}


def play_some(slug: str, moves: int) -> tuple[Table, object]:
    alice = make_user("alice")
    table = services.table_open(by=alice, game=slug, seat_count=2, bots=["easy"], turn_seconds=60)
    services.table_start(table_id=table.pk, by=alice)
    rng = random.Random(3)
    for _ in range(moves):
        table = Table.objects.get(pk=table.pk)
        if table.status != Table.Status.PLAYING:
            break
        if table.due_action == Table.Due.BOT:
            run_due(table.pk)
            continue
        seat = services_seat(table)
        if seat is None:
            run_due(table.pk)
            continue
        services.game_move(table_id=table.pk, by=alice, move=human_move(table.pk, 0, rng))
    return Table.objects.get(pk=table.pk), alice


def services_seat(table: Table) -> int | None:
    game = Game.objects.get(pk=table.current_game_id)
    return 0 if game.state.get("turn") == 0 else None


@pytest.mark.parametrize("slug", ["tile-rummy", "tile-rummy-rearrange"])
def test_each_move_adds_its_lines_and_every_viewer_gets_the_same_log(slug):
    table, alice = play_some(slug, 16)
    game = Game.objects.get(pk=table.current_game_id)
    assert game.log[0] == {"code": "new_game", "n": 1} or len(game.log) == history.KEEP
    assert len(game.log) > 4 and {entry["code"] for entry in game.log} <= KNOWN
    player = frame_for_user(table.pk, alice.pk)["table"]["current_game"]["log"]
    spectator = frame_for_user(table.pk, None)["table"]["current_game"]["log"]
    assert player == spectator == game.log
    # Reading it again (a reload) gives the same lines.
    assert frame_for_user(table.pk, alice.pk)["table"]["current_game"]["log"] == player


def test_the_log_names_no_tile_a_spectator_could_not_see():
    table, alice = play_some("tile-rummy", 16)
    game = Game.objects.get(pk=table.current_game_id)
    rack = set(frame_for_user(table.pk, alice.pk)["view"]["rack"])
    public = json.dumps(frame_for_user(table.pk, None)["view"])
    for entry in game.log:
        for face in [entry.get("tile"), *entry.get("tiles", []), *(f for meld in entry.get("melds", []) for f in meld)]:
            if face is not None:
                assert f'"{face}"' in public, (entry, "not on the table")
    assert "rack" not in json.dumps(game.log) and rack


def test_the_log_keeps_its_last_entries_only():
    log = history.kept([{"code": "passed", "seat": 0}] * history.KEEP, [{"code": "game_over"}])
    assert len(log) == history.KEEP and log[-1] == {"code": "game_over"}


def test_the_entries_are_the_games_own_events_of_the_two_views():
    """The log asks the game of the views (their "game") what the change did."""
    before = {"game": "tile-rummy-rearrange", "turn": 0, "table": [], "over": False,
              "players": [{"tiles": 14, "passed": False, "away": False, "left": False}]}
    after = {**before, "turn": None, "over": True,
             "players": [{"tiles": 14, "passed": True, "away": False, "left": False}]}
    assert history.entries(before, after) == [{"code": "passed", "seat": 0}, {"code": "game_over"}]
