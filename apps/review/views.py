"""The replay of a finished game with its review beside it, the review's status for the page to poll,
and the hints a player has left at a table (SPEC 13).

Access comes first everywhere: a game the viewer may not see (a private table's), one still being
played and one that does not exist answer the same 404, and a private table's hints the same as a
missing table's. A finished game never changes (issue 40: the replay cost about 215 ms and 180 KB a
request), so its positions are computed once and kept in the cache (`replay_positions`: the same for
every viewer allowed to see the game, and only read after that viewer's access is checked), the page and
the review carry an ETag (an unchanged page is a 304), and both are limited per client address.
"""

from __future__ import annotations

import functools
import hashlib
import json
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import get_template
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from apps.accounts.limits import window_hit
from apps.catalog.data import catalog_entry
from apps.engine.errors import EngineError
from apps.engine.records import GameRecord
from apps.engine.review.steps import replay_steps
from apps.lib.client_address import client_address
from apps.review import services
from apps.review.models import GameReview
from apps.review.queue import review_queue
from apps.review.ui_strings import replay_strings
from apps.tables import selectors

#: Changes whenever the page or the positions change shape: every cached entry and every ETag with it.
PAGE_STAMP = "1"
#: How long the positions of a finished game stay in the cache (they never change; the bound is memory).
POSITIONS_SECONDS = 6 * 3600


def _game_or_404(request: HttpRequest, game_id: int) -> Any:
    game = selectors.finished_game(game_id)  # a game in progress is not found, whoever asks
    if game is None or not selectors.may_see_game(game, request.user):
        raise Http404(_("There is no finished game %(id)s.") % {"id": game_id})
    return game


def _over_limit(request: HttpRequest, what: str, per_minute: int) -> HttpResponse | None:
    """Count the request against its client address's budget for a minute (the count is taken before
    any work, CONVENTIONS 25: apps/accounts/limits.py); a 429 page once over it."""
    if window_hit(f"review:{what}:{client_address(request) or 'unknown'}", seconds=60) <= per_minute:
        return None
    message = _("Too many replays were asked from your network address: try again in a minute.")
    response = render(request, "429.html", {"message": message}, status=429)
    response["Retry-After"] = "60"
    return response


def replay_positions(game: Any) -> list[dict[str, Any]]:
    """Every position of a finished game with every rack (the replay's steps; [] when the record does not
    replay), from the cache when another viewer has asked for them before. Only a finished game's, and
    only once its viewer may see it: the entry holds every rack."""
    assert game.finished_at is not None, "a game in progress has no replay"
    key = f"review:positions:{PAGE_STAMP}:{game.pk}"
    steps: list[dict[str, Any]] | None = cache.get(key)
    if steps is None:
        try:
            steps = replay_steps(GameRecord.from_dict(services.record_with_hints(game)))
        except EngineError:
            steps = []
        cache.set(key, steps, timeout=POSITIONS_SECONDS)
    return steps


def _review_payload(game_id: int) -> dict[str, Any]:
    review = services.review_of(game_id)
    if review is None:
        review_queue(game_id)  # a game finished before reviews existed, or its task was lost
        return {"status": GameReview.Status.PENDING, "review": None}
    return {"status": review.status, "review": review.data if review.status == GameReview.Status.READY else None}


@functools.cache
def _templates_stamp() -> str:
    """The page's templates as this process has them: a deploy that changes them changes every ETag."""
    sources = (get_template(name).template.source for name in ("base.html", "review/replay.html"))  # type: ignore[attr-defined]  # the engine's Template, not in the stubs' backend type
    return hashlib.sha256("\0".join(sources).encode()).hexdigest()[:16]


def _etag(request: HttpRequest, *parts: Any, page: bool = True) -> str:
    """A strong ETag of what a response shows this viewer: the parts given, and for the page its
    templates and words (in the viewer's language), the user, and the CSRF cookie (the page's forms carry
    a token made from it)."""
    viewer: tuple[Any, ...] = ()
    if page:
        get_token(request)  # the secret the response's cookie will hold, on a first visit too
        user = request.user.pk if request.user.is_authenticated else 0
        words = json.dumps(replay_strings(), sort_keys=True)
        viewer = (_templates_stamp(), get_language(), words, user, request.META.get("CSRF_COOKIE", ""))
    text = "|".join(str(part) for part in (PAGE_STAMP, *viewer, *parts))
    return '"' + hashlib.sha256(text.encode()).hexdigest()[:32] + '"'


def _not_modified(request: HttpRequest, etag: str) -> HttpResponse | None:
    if etag in (tag.strip() for tag in request.headers.get("If-None-Match", "").split(",")):
        return _revalidated(HttpResponseNotModified(), etag)
    return None


def _revalidated(response: HttpResponse, etag: str) -> HttpResponse:
    """Each viewer's browser keeps its own copy and asks again every time (the page names the viewer)."""
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    patch_vary_headers(response, ("Cookie", "Accept-Language"))
    return response


@require_GET
def replay(request: HttpRequest, game_id: int) -> HttpResponse:
    limited = _over_limit(request, "replay", int(getattr(settings, "REVIEW_REPLAYS_PER_MINUTE", 60)))
    if limited is not None:
        return limited
    game = _game_or_404(request, game_id)
    review = _review_payload(game.pk)
    etag = _etag(request, "replay", game.pk, review["status"])
    unchanged = None if len(get_messages(request)) else _not_modified(request, etag)  # a message waits: show it
    if unchanged is not None:
        return unchanged
    steps = replay_positions(game)
    players = selectors.game_players(game)
    user_id = request.user.pk if request.user.is_authenticated else None
    entry = catalog_entry(game.match.game)
    data = {
        "game": game.match.game,
        "game_id": game.pk,
        "players": [
            {"seat": p.seat, "name": p.name, "bot_account": p.bot_account, "you": p.user_id is not None and p.user_id == user_id}
            for p in players
        ],
        "steps": steps,
        "review_url": reverse("review:review_json", args=[game.pk]),
        **review,
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
    return _revalidated(render(request, "review/replay.html", context), etag)


@require_GET
def review_json(request: HttpRequest, game_id: int) -> HttpResponse:
    """The review's status (pending, ready, failed) and, once ready, the review."""
    limited = _over_limit(request, "review", int(getattr(settings, "REVIEW_POLLS_PER_MINUTE", 240)))
    if limited is not None:
        return limited
    game = _game_or_404(request, game_id)
    payload = _review_payload(game.pk)
    etag = _etag(request, "review", game.pk, payload["status"], page=False)
    return _not_modified(request, etag) or _revalidated(JsonResponse(payload), etag)


@require_GET
def hints_json(request: HttpRequest, table_id: int) -> JsonResponse:
    """Whether the viewer may ask for a hint at this table now, and how many are left this game (a
    private table the viewer has no seat at answers as a missing one: apps/review/services.py)."""
    return JsonResponse(services.hint_status(table_id=table_id, user=request.user))
