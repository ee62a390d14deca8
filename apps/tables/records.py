"""Game records from the database, in the engine's record format (docs/record-format.md)."""

from __future__ import annotations

from typing import Any

from apps.engine.records import GameRecord, RecordedMove
from apps.tables.fairness import game_proof
from apps.tables.models import Game, MatchPlayer


def game_record(game: Game) -> dict[str, Any]:
    """The JSON record of a game: its deal and every move with seat and time offset, and for a fairly
    dealt match its `fair` part (the server seed only once the match is over)."""
    match = game.match
    players = {player.seat: player.name for player in MatchPlayer.objects.filter(match=match)}
    moves = tuple(
        RecordedMove(seat, move, ms)
        for seat, move, ms in game.moves.order_by("seq").values_list("seat", "move", "offset_ms")
    )
    record = GameRecord(
        game=match.game,
        deal=game.deal,
        moves=moves,
        result=game.result,
        info={
            "table": match.table_id,
            "match": match.pk,
            "game_no": game.number,
            "players": [players.get(seat, "") for seat in sorted(players)],
            "started_at": game.started_at.isoformat(),
        },
        fair=game_proof(game),
    )
    return record.to_dict()
