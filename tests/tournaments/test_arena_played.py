"""An arena of 6 players played for real (SPEC 16): every match is a real one-game match at a table the
arena opened, played move by move through the tables' services (tests/tables/helpers.play_match: legal
moves from each player's own view), its end reaching the arena as the tables app's MatchFinished. Time is
simulated: the arena's end is a `now` handed to the tick, never waited for."""

from __future__ import annotations

from datetime import timedelta

import pytest

from apps.tournaments import services
from apps.tournaments.models import ArenaSeat, ArenaTable, Entry, Tournament
from tests.tables.helpers import make_user, play_match

pytestmark = pytest.mark.django_db


def test_six_players_play_rounds_to_a_podium(arena, django_capture_on_commit_callbacks):
    players = [make_user(name) for name in ("ana", "bogdan", "carmen", "dan", "elena", "florin")]
    for user in players:
        services.tournament_join(tournament_id=arena.pk, by=user)
    previous: dict[int, frozenset[int]] = {}
    for round_number in range(2):
        assert services.arenas_tick()["tables"] == 3, f"round {round_number}: everyone free is seated"
        for arena_table in ArenaTable.objects.filter(tournament=arena, finished_at__isnull=True):
            members = frozenset(ArenaSeat.objects.filter(arena_table=arena_table).values_list("user_id", flat=True))
            for user_id in members:
                assert previous.get(user_id) != members, "never the same table twice in a row"
                previous[user_id] = members
            with django_capture_on_commit_callbacks(execute=True):
                play_match(arena_table.table_id, seed=round_number * 10 + arena_table.pk)
            arena_table.refresh_from_db()
            assert arena_table.finished_at is not None, "the match's end reached the arena"
            points = sorted(ArenaSeat.objects.filter(arena_table=arena_table).values_list("points", flat=True))
            assert points in ([0, 2], [1, 1]), points  # a first place 2, the other 0 (a shared first: 1 each)
    entries = list(Entry.objects.filter(tournament=arena))
    assert all(entry.matches == 2 for entry in entries)
    assert sum(entry.points for entry in entries) == 12  # 3 tables x 2 rounds x 2 points (no streak in two rounds)
    services.arenas_tick(now=arena.ends_at + timedelta(seconds=1))
    arena.refresh_from_db()
    assert arena.status == Tournament.Status.FINISHED
    best = max(entries, key=lambda entry: entry.points)
    assert arena.podium[0]["points"] == best.points and len(arena.podium) == 3
