"""The review of finished games and the hints at unrated tables (SPEC 13): the only code that writes this
app's rows. Tables are read through `apps/tables/selectors.py`.

- `review_compute(game_id=...)` is the body of the Celery task queued when a game ends
  (`apps/review/queue.py`): it stores the review once, does nothing when it is already stored, and a
  record the engine cannot replay leaves it failed, with the reason.
- A hint (3 per game per player; never at a rated table, never for a spectator) is reserved before its
  search (`hint_reserve`: the user's search lock, one at a time, and the hint's row), searched from the
  seat's view at the table's current version outside every lock and transaction (`hint_search`), then
  kept or given back (`hint_settle`: a table that moved on refuses it, a hint with nothing to play costs
  nothing). `game_hint` does the three in the calling thread; the sockets search on the hints' own
  threads (`apps/review/hint_pool.py`).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, ClassVar

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.engine.errors import EngineError
from apps.engine.game import get_rules
from apps.engine.records import GameRecord
from apps.engine.review import hint as engine_hint
from apps.engine.review import review as engine_review
from apps.engine.review.plays import Suggestion
from apps.review.models import HINTS_PER_GAME, GameReview, HintUse
from apps.tables import selectors

log = logging.getLogger(__name__)

Status = GameReview.Status


# ---------------------------------------------------------------------------------------------------
# Reviews


def record_with_hints(game: Any) -> dict[str, Any]:
    """The game's record (docs/record-format.md) with the hints its players used in `info.hints`."""
    record = selectors.finished_game_record(game)
    hints = HintUse.objects.filter(game_id=game.pk).order_by("move", "seat", "number").values("seat", "move", "number")
    record.setdefault("info", {})["hints"] = [dict(hint) for hint in hints]
    return record


def review_compute(*, game_id: int) -> str:
    """Review a finished game and store the review, once. Returns the review's status ("missing" when
    there is no such finished game). Safe to run any number of times, at once or one after another."""
    game = selectors.finished_game(game_id)
    if game is None:
        return "missing"
    review, _created = GameReview.objects.get_or_create(game_id=game_id)
    if review.status != Status.PENDING:
        return str(review.status)
    GameReview.objects.filter(pk=review.pk).update(attempts=F("attempts") + 1)
    try:
        data = engine_review(GameRecord.from_dict(record_with_hints(game))).to_dict()
    except EngineError as error:  # the record does not replay: no retry will change that
        log.warning("The review of game %s failed: %s", game_id, error)
        _finish(review.pk, Status.FAILED, error=str(error))
        return str(Status.FAILED)
    _finish(review.pk, Status.READY, data=data)
    return str(Status.READY)


def review_failed(*, game_id: int, error: BaseException) -> None:
    """The task gave up on this game (it kept failing): the page says so."""
    GameReview.objects.get_or_create(game_id=game_id)
    GameReview.objects.filter(game_id=game_id, status=Status.PENDING).update(
        status=Status.FAILED, error=f"{type(error).__name__}: {error}"[:2000], finished_at=timezone.now()
    )


def _finish(pk: int, status: str, *, data: Any = None, error: str = "") -> None:
    # Only a pending review changes: two tasks finishing at once store it once.
    GameReview.objects.filter(pk=pk, status=Status.PENDING).update(status=status, data=data, error=error, finished_at=timezone.now())


def review_of(game_id: int) -> GameReview | None:
    return GameReview.objects.filter(game_id=game_id).first()


def games_waiting_for_reviews(*, days: int = 2, stale_minutes: int = 10) -> list[int]:
    """Finished games of the last `days` with no review yet, or one pending for `stale_minutes` (its
    task was lost): the backstop queues them again."""
    now = timezone.now()
    finished = selectors.finished_game_ids(since=now - timedelta(days=days))
    done = set(
        GameReview.objects.filter(game_id__in=finished)
        .exclude(status=Status.PENDING, created_at__lt=now - timedelta(minutes=stale_minutes))
        .values_list("game_id", flat=True)
    )
    return [game_id for game_id in finished if game_id not in done]


# ---------------------------------------------------------------------------------------------------
# Hints


class HintRefused(Exception):
    """A hint the table refuses; the message is shown to the player as it is. `error_code` is the name
    it goes by on the wire (CONVENTIONS 20, docs/protocol.md). A refusal of the engine's keeps the
    engine's error (`engine_error`): its English text is the message, and the socket says it by its code
    in the player's language (apps/tables/engine_text.py)."""

    error_code: ClassVar[str] = "hint_refused"

    def __init__(self, message: str = "", *, engine_error: EngineError | None = None) -> None:
        super().__init__(message)
        self.engine_error = engine_error


class HintsOff(HintRefused):
    error_code: ClassVar[str] = "hints_off"


class HintsUsedUp(HintRefused):
    error_code: ClassVar[str] = "hints_used_up"


class HintForPlayersOnly(HintRefused):
    error_code: ClassVar[str] = "hints_for_players"


class NoHintNow(HintRefused):
    error_code: ClassVar[str] = "hint_not_now"


class HintInProgress(NoHintNow):
    """The user's other hint is still being searched (one search at a time per user, whatever the socket)."""


def _used_up() -> HintsUsedUp:
    return HintsUsedUp(_("You have used your %(count)s hints for this game.") % {"count": HINTS_PER_GAME})


def _hints_used(game_id: int, seat: int) -> int:
    return HintUse.objects.filter(game_id=game_id, seat=seat).count()


def _position(table_id: int, user: Any) -> tuple[selectors.SeatPosition, int, int]:
    """The table as the user sees it, checked: a player of an unrated table, in a game in progress (with
    the user's seat and the game's id, which a checked position has). A private table the user has no
    seat at is refused exactly as a table that does not exist (its id stays secret), moderators excepted."""
    position = selectors.seat_position(table_id, user)
    if position is None or (position.private and position.seat is None and not getattr(user, "is_staff", False)):
        raise NoHintNow(_("There is no table %(id)s.") % {"id": table_id})
    if position.seat is None:
        raise HintForPlayersOnly(_("Hints are for the players at the table, not for spectators."))
    if position.rated:
        raise HintsOff(_("There are no hints at rated tables."))
    if not position.playing or position.left_match or position.game_id is None:
        raise NoHintNow(_("You have no game in progress at this table."))
    return position, position.seat, position.game_id


def hint_status(*, table_id: int, user: Any) -> dict[str, Any]:
    """Whether the user may ask for a hint at this table now, and how many are left in this game."""
    try:
        _position_now, seat, game_id = _position(table_id, user)
    except HintRefused as error:
        return {"available": False, "code": error.error_code, "message": str(error), "left": 0}
    left = max(0, HINTS_PER_GAME - _hints_used(game_id, seat))
    return {"available": left > 0, "code": "", "message": "", "left": left, "game": game_id}


@dataclass(frozen=True)
class HintTicket:
    """A hint reserved before its search (CONVENTIONS 25): the row of number `number` is stored, and the
    user holds the search lock. `hint_settle` keeps or gives back the row; `hint_search_done` frees the lock."""

    table_id: int
    game_id: int
    seat: int
    user_id: int
    number: int
    version: int
    view: dict[str, Any]


#: How long a user's search lock lives if its process dies before freeing it (a search takes far less).
SEARCH_LOCK_SECONDS = 120


def _search_lock(user_id: int) -> str:
    return f"review:hint-search:{user_id}"


def hint_reserve(*, table_id: int, by: Any) -> HintTicket:
    """Check the request, take the user's search lock (one search at a time per user, in every process:
    the cache is Redis on the real stack) and store the hint's row, all before any search: twenty
    requests at once cost at most one search, and never more than the hints left. Raises a HintRefused,
    and then nothing is held."""
    position, seat, game_id = _position(table_id, by)
    assert position.state is not None  # a game in progress has its state
    rules = get_rules(position.game_slug)
    state = rules.from_dict(position.state)
    if rules.to_move(state) != seat:
        raise NoHintNow(_("A hint is for your own turn: wait until it is your turn."))
    if not cache.add(_search_lock(by.pk), 1, timeout=SEARCH_LOCK_SECONDS):
        raise HintInProgress(_("Your last hint is still being looked for: wait for it."))
    try:
        number = _reserve_number(position, game_id, seat, by)
    except BaseException:
        hint_search_done(by.pk)
        raise
    return HintTicket(table_id, game_id, seat, by.pk, number, position.version, rules.view_for(state, seat))


def _reserve_number(position: selectors.SeatPosition, game_id: int, seat: int, user: Any) -> int:
    """Store the hint's row under the lowest free number and return it. The database refuses a number
    taken at the same moment (unique) and one beyond the limit (a check): whoever stores it has it. A
    number given back (`hint_give_back`) is free again."""
    for _attempt in range(HINTS_PER_GAME + 1):  # each failure is a number someone else just took
        taken = set(HintUse.objects.filter(game_id=game_id, seat=seat).values_list("number", flat=True))
        free = [number for number in range(1, HINTS_PER_GAME + 1) if number not in taken]
        if not free:
            break
        try:
            with transaction.atomic():
                HintUse.objects.create(
                    game_id=game_id, seat=seat, user=user, number=free[0], move=position.moves, version=position.version
                )
            return free[0]
        except IntegrityError:
            continue
    raise _used_up()


def hint_search(ticket: HintTicket) -> Suggestion:
    """The search itself: the engine only, no database, no lock (it runs on the hints' own threads:
    apps/review/hint_pool.py)."""
    return engine_hint(ticket.view)


def hint_give_back(ticket: HintTicket) -> None:
    """The reserved hint is not counted (refused, or found nothing to play)."""
    HintUse.objects.filter(game_id=ticket.game_id, seat=ticket.seat, number=ticket.number, version=ticket.version).delete()


def hint_search_done(user_id: int) -> None:
    cache.delete(_search_lock(user_id))


def hint_settle(ticket: HintTicket, found: Suggestion) -> dict[str, Any]:
    """The `hint` frame of a finished search. The hint is given back if the table moved on meanwhile
    (then refused), or if it found nothing to play (a draw: it costs nothing)."""
    if selectors.table_version(ticket.table_id) != ticket.version:
        hint_give_back(ticket)
        raise NoHintNow(_("The table moved on while your hint was being found: ask again."))
    if found.tiles <= 0:
        hint_give_back(ticket)
    left = max(0, HINTS_PER_GAME - _hints_used(ticket.game_id, ticket.seat))
    return {"type": "hint", "version": ticket.version, "game": ticket.game_id, "left": left, **found.to_dict()}


def hint_refused_by_engine(ticket: HintTicket, error: EngineError) -> NoHintNow:
    hint_give_back(ticket)
    return NoHintNow(str(error), engine_error=error)


def game_hint(*, table_id: int, by: Any) -> dict[str, Any]:
    """The best play for the user's seat at version N, as the `hint` frame (docs/protocol.md), searched
    in the calling thread (the sockets use `apps.review.hint_pool.hint_frame`, which searches on the
    hints' own threads). Raises a HintRefused with a clear message, and then nothing is counted."""
    ticket = hint_reserve(table_id=table_id, by=by)
    try:
        try:
            found = hint_search(ticket)  # outside every lock and transaction
        except EngineError as error:
            raise hint_refused_by_engine(ticket, error) from None
        except BaseException:
            hint_give_back(ticket)
            raise
        return hint_settle(ticket, found)
    finally:
        hint_search_done(ticket.user_id)
