"""The review of finished games and the hints at unrated tables (SPEC 13): the only code that writes this
app's rows. Tables are read through `apps/tables/selectors.py`.

- `review_compute(game_id=...)` is the body of the Celery task queued when a game ends
  (`apps/review/queue.py`): it stores the review once, does nothing when it is already stored, and a
  record the engine cannot replay leaves it failed, with the reason.
- `game_hint(table_id=..., by=...)` reads the seat's view at the table's current version, without any
  lock, asks the engine (the solver runs outside every transaction), then records the hint (3 per game
  per player; never at a rated table, never for a spectator).
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any, ClassVar

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from apps.engine.errors import EngineError
from apps.engine.game import get_rules
from apps.engine.records import GameRecord
from apps.engine.review import hint as engine_hint
from apps.engine.review import review as engine_review
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


def _hints_used(game_id: int | None, seat: int) -> int:
    return HintUse.objects.filter(game_id=game_id, seat=seat).count()


def _position(table_id: int, user: Any) -> selectors.SeatPosition:
    """The table as the user sees it, checked: a player of an unrated table, in a game in progress."""
    position = selectors.seat_position(table_id, user)
    if position is None:
        raise NoHintNow(_("There is no table %(id)s.") % {"id": table_id})
    if position.seat is None:
        raise HintForPlayersOnly(_("Hints are for the players at the table, not for spectators."))
    if position.rated:
        raise HintsOff(_("There are no hints at rated tables."))
    if not position.playing or position.left_match:
        raise NoHintNow(_("You have no game in progress at this table."))
    return position


def hint_status(*, table_id: int, user: Any) -> dict[str, Any]:
    """Whether the user may ask for a hint at this table now, and how many are left in this game."""
    try:
        position = _position(table_id, user)
    except HintRefused as error:
        return {"available": False, "code": error.error_code, "message": str(error), "left": 0}
    left = max(0, HINTS_PER_GAME - _hints_used(position.game_id, position.seat or 0))
    return {"available": left > 0, "code": "", "message": "", "left": left, "game": position.game_id}


def game_hint(*, table_id: int, by: Any) -> dict[str, Any]:
    """The best play for the user's seat at version N, as the `hint` frame (docs/protocol.md). Raises a
    HintRefused with a clear message, and then nothing is recorded."""
    position = _position(table_id, by)
    seat = position.seat
    assert seat is not None and position.state is not None
    used = _hints_used(position.game_id, seat)
    if used >= HINTS_PER_GAME:
        raise HintsUsedUp(_("You have used your %(count)s hints for this game.") % {"count": HINTS_PER_GAME})
    rules = get_rules(position.game_slug)
    state = rules.from_dict(position.state)
    if rules.to_move(state) != seat:
        raise NoHintNow(_("A hint is for your own turn: wait until it is your turn."))
    try:
        found = engine_hint(rules.view_for(state, seat))  # the search: outside every lock and transaction
    except EngineError as error:
        raise NoHintNow(str(error), engine_error=error) from None
    if selectors.table_version(table_id) != position.version:
        raise NoHintNow(_("The table moved on while your hint was being found: ask again."))
    number = _record_hint(position, seat, by, used)
    return {
        "type": "hint",
        "version": position.version,
        "game": position.game_id,
        "left": HINTS_PER_GAME - number,
        **found.to_dict(),
    }


def _record_hint(position: selectors.SeatPosition, seat: int, user: Any, used: int) -> int:
    """Store the hint as number `used + 1` (the database refuses a number taken by a request at the same
    moment, or beyond the limit); returns its number."""
    number = used + 1
    while number <= HINTS_PER_GAME:
        try:
            with transaction.atomic():
                HintUse.objects.create(
                    game_id=position.game_id, seat=seat, user=user, number=number, move=position.moves, version=position.version
                )
            return number
        except IntegrityError:
            number = _hints_used(position.game_id, seat) + 1
    raise HintsUsedUp(_("You have used your %(count)s hints for this game.") % {"count": HINTS_PER_GAME})
