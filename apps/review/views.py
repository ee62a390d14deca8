"""The replay of a finished game with its review beside it, the review's status for the page to poll,
and the hints a player has left at a table (SPEC 13)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from apps.catalog.data import catalog_entry
from apps.engine.errors import EngineError
from apps.engine.records import GameRecord
from apps.engine.review.steps import replay_steps
from apps.review import services
from apps.review.models import GameReview
from apps.review.queue import review_queue
from apps.review.ui_strings import replay_strings
from apps.tables import selectors


def _game_or_404(request: HttpRequest, game_id: int) -> Any:
    game = selectors.finished_game(game_id)
    if game is None or not selectors.may_see_game(game, request.user):
        raise Http404(_("There is no finished game %(id)s.") % {"id": game_id})
    return game


def _review_payload(game_id: int) -> dict[str, Any]:
    review = services.review_of(game_id)
    if review is None:
        review_queue(game_id)  # a game finished before reviews existed, or its task was lost
        return {"status": GameReview.Status.PENDING, "review": None}
    return {"status": review.status, "review": review.data if review.status == GameReview.Status.READY else None}


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(request, game_id)
    record = services.record_with_hints(game)
    try:
        steps = replay_steps(GameRecord.from_dict(record))
    except EngineError:
        steps = []
    players = selectors.game_players(game)
    user_id = request.user.pk if request.user.is_authenticated else None
    entry = catalog_entry(game.match.game)
    data = {
        "game": game.match.game,
        "game_id": game.pk,
        "players": [{"seat": p.seat, "name": p.name, "you": p.user_id is not None and p.user_id == user_id} for p in players],
        "steps": steps,
        "review_url": reverse("review:review_json", args=[game.pk]),
        **_review_payload(game.pk),
    }
    context = {
        "game": game,
        "match": game.match,
        "game_name": str(entry.name) if entry else game.match.game,
        "replayable": bool(steps),
        "data": data,
        "strings": replay_strings(),
        "record_url": reverse("tables:game_record", args=[game.pk]),
        "match_url": reverse("tables:match", args=[game.match_id]),
    }
    return render(request, "review/replay.html", context)


@require_GET
def review_json(request: HttpRequest, game_id: int) -> JsonResponse:
    """The review's status (pending, ready, failed) and, once ready, the review."""
    game = _game_or_404(request, game_id)
    return JsonResponse(_review_payload(game.pk))


@require_GET
def hints_json(request: HttpRequest, table_id: int) -> JsonResponse:
    """Whether the viewer may ask for a hint at this table now, and how many are left this game."""
    return JsonResponse(services.hint_status(table_id=table_id, user=request.user))
