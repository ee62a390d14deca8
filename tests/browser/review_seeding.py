"""TEST-ONLY HOOK: a finished game for the replay's browser test, written straight into the site's
database (`python -m tests.browser.review_seeding [SLUG]` with the site's environment; the Rearrange game by default). Never imported by the
site.

The game is played by two Easy bots in the engine from a seeded generator (the same game every time),
then stored as the table service would have left it: a finished table and match, the game with its deal,
final state and result, and every move in the move log. Writing those rows outside `apps.tables.services`
is something only a test may do. No review is stored: the replay page queues it, and the site's own
worker computes it.

Prints one JSON object: the game's id, its number of moves, and its review's turns that could have
placed more (computed here with the engine, for the test to compare with the page).
"""

from __future__ import annotations

import json
import os
import random
from datetime import timedelta


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummysite.settings")
    import django

    django.setup()


def finished_game(slug: str = "tile-rummy-rearrange", seed: int = 4) -> dict[str, object]:
    from django.utils import timezone

    from apps.accounts.models import User
    from apps.engine.bots import get_bot
    from apps.engine.game import get_rules
    from apps.engine.match import start_match
    from apps.engine.records import start_record
    from apps.engine.review import review
    from apps.tables.models import Game, Match, MatchPlayer, MoveLog, Seat, Table

    rules = get_rules(slug)
    rng = random.Random(seed)
    engine_match, state = start_match(slug, 2, rng, 1)
    deal = rules.deal_of(state)
    record = start_record(slug, state)
    bots = [get_bot(slug, "easy"), get_bot(slug, "easy")]
    moves: list[tuple[int, str]] = []
    while not rules.is_over(state):
        seat = rules.to_move(state)
        move = bots[seat].next_move(rules.view_for(state, seat), rng)
        state = rules.apply(state, seat, move)
        moves.append((seat, str(move)))
        record = record.add(seat, move, len(moves) * 1000)
    result = rules.result(state)
    assert result is not None
    engine_match = engine_match.finish_game(state)

    host, _ = User.objects.get_or_create(username=f"Replay-player-{seed}", defaults={"is_guest": True})
    started = timezone.now() - timedelta(minutes=30)
    table = Table.objects.create(game=slug, host=host, seat_count=2, status=Table.Status.FINISHED, version=len(moves) + 3)
    Seat.objects.create(table=table, index=0, user=host, joined_at=started)
    Seat.objects.create(table=table, index=1, bot_level="easy", joined_at=started)
    match = Match.objects.create(table=table, game=slug, state=engine_match.to_dict(), finished_at=timezone.now())
    for standing in engine_match.standings():
        MatchPlayer.objects.create(
            match=match,
            seat=standing.seat,
            user=host if standing.seat == 0 else None,
            bot_level="" if standing.seat == 0 else "easy",
            name=host.username if standing.seat == 0 else "Bot (Easy)",
            points=standing.points,
            place=standing.place,
        )
    game = Game.objects.create(
        match=match, number=1, state=rules.to_dict(state), deal=deal, turn=len(moves), move_count=len(moves),
        result=result.to_dict(), finished_at=timezone.now(),
    )
    MoveLog.objects.bulk_create(
        MoveLog(game=game, seq=number, seat=seat, move=move, actor="player" if seat == 0 else "bot",
                at=started + timedelta(seconds=number), offset_ms=number * 1000, version=number + 2)
        for number, (seat, move) in enumerate(moves, start=1)
    )
    table.match, table.current_game = match, game
    table.save(update_fields=["match", "current_game"])
    turns = review(record.finish(result)).turns
    return {
        "game": game.pk,
        "moves": len(moves),
        "missed": [turn.number for turn in turns if turn.missed],
        "first_missed": next(({"turn": turn.number, "first": turn.first, "seat": turn.seat} for turn in turns if turn.missed), None),
    }


def main() -> None:
    import sys

    _setup()
    print(json.dumps(finished_game(*sys.argv[1:2])))


if __name__ == "__main__":
    main()
