"""The one write path for tables, seats, matches and games (CONVENTIONS 6-10).

Every function opens one transaction, locks the table row (the lock of its seats, match and games
too), checks what the caller expected (seat, version), asks the engine, saves, raises the table's
version by one and logs the move; its consequences (the published frames, the next task, and the events
other apps subscribe to: apps/tables/events.py) are registered with `apps.tables.effects.after_commit`
once and leave only when the transaction commits. Views, sockets, Celery tasks and the admin all call
these functions, naming the acting user `by`; nothing else writes game state.

The map, one idea a module, each importing only the ones above it:

- `errors`: what the services refuse, with the name each refusal goes by on the wire;
- `rows`: locking and reading the rows, and the checks every service shares;
- `flow`: what the table does next by itself (the clock, the next deal, the end of a match);
- `play`: applying one move to a locked game (the hot path);
- `seating`: opening a table, sitting down, standing up, being removed, closing; a bot account's
  invitation into a seat (accepted by sitting in it, declined, or taken back by the host);
- `matches`: starting a match (its fair deal's seeds, then the first deal); rematch and a new match;
- `moves`: a player's moves, the rearrange game's scratchpad, "I'm back";
- `due`: timeouts, autopilot turns, bots' moves, the next deal, and the sweep that runs them;
- `upkeep`: closing the unstarted tables nobody watches and the playing ones no person is left at;
- `bans`: what a ban or a deactivation does at the tables (the user's seats stand up, their tables close).
"""

from apps.tables.services.due import game_ready, games_extend_deadlines, table_due, tables_sweep_due
from apps.tables.services.errors import MoveOutcome, NotAllowed, StaleVersion, TableError, TableNotFound
from apps.tables.services.matches import (
    seat_berserk,
    table_new_match,
    table_open_started,
    table_pace,
    table_rematch,
    table_seed,
    table_start,
)
from apps.tables.services.moves import TABLE_ONLY_MOVES, game_back, game_draft, game_move
from apps.tables.services.seating import (
    invitation_accept,
    invitation_decline,
    seat_kick,
    table_abort_absent,
    table_close,
    table_join,
    table_leave,
    table_open,
)
from apps.tables.services.upkeep import tables_close_unused, tables_watched

__all__ = [
    "TABLE_ONLY_MOVES",
    "MoveOutcome",
    "NotAllowed",
    "StaleVersion",
    "TableError",
    "TableNotFound",
    "game_back",
    "game_draft",
    "game_move",
    "game_ready",
    "games_extend_deadlines",
    "invitation_accept",
    "invitation_decline",
    "seat_berserk",
    "seat_kick",
    "table_abort_absent",
    "table_close",
    "table_due",
    "table_join",
    "table_leave",
    "table_new_match",
    "table_open",
    "table_open_started",
    "table_pace",
    "table_rematch",
    "table_seed",
    "table_start",
    "tables_close_unused",
    "tables_sweep_due",
    "tables_watched",
]
