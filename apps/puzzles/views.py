"""The trainer's pages (SPEC 18): a puzzle on the table's own UI, the answer judged on the server, the
solution only after an answer, the streak, themes, history and the day's puzzle.

Visitors: opening a puzzle makes nothing; the first answer (or giving up) makes the visitor a guest
(`accounts.services.guest_login`, with its limit per address), so their attempts and rating are an
account's from the first answer, and stay with it when the guest keeps the account (the same row).
"""

from __future__ import annotations

import json
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.services import GuestsLimited, guest_login
from apps.puzzles import selectors, services
from apps.puzzles.frames import StepRefused, frame_of, view_after
from apps.puzzles.models import Puzzle
from apps.puzzles.ui_strings import puzzle_strings
from apps.puzzles.words import THEMES, goal_text, theme_name

STREAK = "puzzle-streak"  # the session's streak: {"count": right answers in a row, "above": the last rating}


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def _name(request: HttpRequest) -> str:
    return request.user.get_username() if request.user.is_authenticated else _("You")


def _page(request: HttpRequest, puzzle: Puzzle | None, *, mode: str, title: str, theme: str = "") -> HttpResponse:
    user_id = _user_id(request)
    context: dict[str, Any] = {
        "puzzle": puzzle,
        "mode": mode,
        "title": title,
        "theme": theme,
        "theme_name": theme_name(theme) if theme else "",
        "rating": round(selectors.player_rating(user_id)),
        "strings": puzzle_strings(),
        "streak": request.session.get(STREAK, {}).get("count", 0) if mode == "streak" else None,
    }
    if puzzle is not None:
        answered = selectors.attempt_of(user_id, puzzle.pk)
        context.update(
            frame=frame_of(puzzle, name=_name(request)),
            goal=goal_text(puzzle),
            # A theme says how the puzzle is solved ("a joker from your rack"): named only once it is
            # answered, or when the player chose the theme (as lichess shows them after the solve).
            themes=[theme_name(name) for name in puzzle.theme_list] if answered or mode == "theme" else [],
            answered=answered,
            share_url=request.build_absolute_uri(reverse("puzzles:puzzle", args=[puzzle.pk])),
            next_url={
                "streak": reverse("puzzles:streak"),
                "theme": reverse("puzzles:theme", args=[theme]) if theme else "",
            }.get(mode, reverse("puzzles:trainer")),
        )
    return render(request, "puzzles/trainer.html", context)


@require_GET
def trainer(request: HttpRequest) -> HttpResponse:
    puzzle = selectors.next_puzzle(_user_id(request))
    return _page(request, puzzle, mode="trainer", title=_("Puzzles"))


@require_GET
def puzzle_page(request: HttpRequest, pk: int) -> HttpResponse:
    puzzle = get_object_or_404(selectors.servable(), pk=pk)
    return _page(request, puzzle, mode="one", title=_("Puzzle %(n)s") % {"n": puzzle.pk})


@require_GET
def daily_page(request: HttpRequest) -> HttpResponse:
    chosen = services.daily_choose(selectors.today())
    if chosen is None:
        raise Http404("No puzzle is left to be the day's puzzle")
    return _page(request, chosen.puzzle, mode="daily", title=_("The daily puzzle"))


@require_GET
def streak_page(request: HttpRequest) -> HttpResponse:
    state = request.session.get(STREAK) or {}
    puzzle = selectors.streak_puzzle(_user_id(request), state.get("above"))
    return _page(request, puzzle, mode="streak", title=_("Puzzle streak"))


@require_GET
def themes_page(request: HttpRequest) -> HttpResponse:
    found = [{"slug": slug, "name": theme_name(slug), "count": count} for slug, count in selectors.themes()]
    return render(request, "puzzles/themes.html", {"themes": found})


@require_GET
def theme_page(request: HttpRequest, theme: str) -> HttpResponse:
    if theme not in THEMES:
        raise Http404("No such theme")
    puzzle = selectors.next_puzzle(_user_id(request), theme=theme)
    return _page(request, puzzle, mode="theme", title=theme_name(theme), theme=theme)


@require_GET
def history_page(request: HttpRequest) -> HttpResponse:
    user_id = _user_id(request)
    attempts = selectors.history(user_id) if user_id is not None else []
    rating = selectors.player_rating(user_id)
    return render(request, "puzzles/history.html", {"attempts": attempts, "rating": round(rating)})


def _player(request: HttpRequest) -> int:
    """The answering player's id; a visitor becomes a guest here (GuestsLimited past the limit)."""
    return int(guest_login(request).pk)


def _streak_after(request: HttpRequest, *, user_id: int, right: bool, rating: float) -> dict[str, Any]:
    state = request.session.get(STREAK) or {"count": 0, "above": None}
    if right:
        state = {"count": state["count"] + 1, "above": rating}
        request.session[STREAK] = state
        return {"count": state["count"], "over": False}
    services.streak_end(user_id=user_id, streak=state["count"])
    request.session[STREAK] = {"count": 0, "above": None}
    return {"count": state["count"], "over": True}


def _outcome_json(
    request: HttpRequest, puzzle: Puzzle, outcome: services.Outcome, *, user_id: int, mode: str
) -> dict[str, Any]:
    verdict = outcome.verdict
    data: dict[str, Any] = {
        "right": verdict.right,
        "short_by": verdict.short_by,
        "legal": verdict.legal,
        "reached": verdict.reached,
        "target": puzzle.goal_value,
        "kind": puzzle.kind,
        "rated": outcome.rated,
        "rating_before": round(outcome.rating_before),
        "rating_after": round(outcome.rating_after),
        "solution_url": reverse("puzzles:solution", args=[puzzle.pk]),
        "themes": [str(theme_name(name)) for name in puzzle.theme_list],
        # A visitor's first answer signed them in as a guest, which rotates the CSRF token: the page's next
        # POST needs the new one.
        "csrf": get_token(request),
    }
    if mode == "streak" and outcome.rated:
        data["streak"] = _streak_after(request, user_id=user_id, right=verdict.right, rating=outcome.puzzle_rating)
    return data


def _limited(error: GuestsLimited) -> JsonResponse:
    return JsonResponse({"error": "guests_limited", "message": str(error)}, status=429)


@require_POST
def answer(request: HttpRequest, pk: int) -> JsonResponse:
    """Judge a play: the body is {"play": "r1 r2 r3 | ...", "mode": "...", "seconds": n}."""
    puzzle = get_object_or_404(selectors.servable(), pk=pk)
    try:
        body = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        return JsonResponse({"error": "bad_request", "message": _("The answer could not be read.")}, status=400)
    if not isinstance(body, dict):
        return JsonResponse({"error": "bad_request", "message": _("The answer could not be read.")}, status=400)
    seconds = body.get("seconds")
    seconds = int(seconds) if isinstance(seconds, int) and 0 <= seconds < 86400 else None
    try:
        user_id = _player(request)
        outcome = services.puzzle_answer(user_id=user_id, puzzle_id=puzzle.pk, answer=body.get("play"), seconds=seconds)
    except GuestsLimited as error:
        return _limited(error)
    except services.AnswerRefused:
        return JsonResponse({"error": "bad_request", "message": _("The answer could not be read.")}, status=400)
    return JsonResponse(_outcome_json(request, puzzle, outcome, user_id=user_id, mode=str(body.get("mode", ""))))


@require_POST
def give_up(request: HttpRequest, pk: int) -> JsonResponse:
    puzzle = get_object_or_404(selectors.servable(), pk=pk)
    try:
        user_id = _player(request)
    except GuestsLimited as error:
        return _limited(error)
    outcome = services.puzzle_give_up(user_id=user_id, puzzle_id=puzzle.pk)
    try:
        body = json.loads(request.body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError):
        body = {}
    mode = str(body.get("mode", "")) if isinstance(body, dict) else ""
    return JsonResponse(_outcome_json(request, puzzle, outcome, user_id=user_id, mode=mode))


@require_POST
def step(request: HttpRequest, pk: int) -> JsonResponse:
    """The house game's view after the turn's moves so far ({"moves": [...]}): the position's own, with the
    player's moves applied by the engine; a refused move is a 400 with the reason, and nothing is kept."""
    puzzle = get_object_or_404(selectors.servable(), pk=pk)
    try:
        body = json.loads(request.body or b"{}")
        moves = body["moves"] if isinstance(body, dict) else None
        if not isinstance(moves, list):
            raise StepRefused(_("The move could not be read."))
        return JsonResponse({"view": view_after(puzzle, moves)})
    except (json.JSONDecodeError, UnicodeDecodeError, KeyError):
        return JsonResponse({"error": "bad_request", "message": _("The move could not be read.")}, status=400)
    except StepRefused as error:
        return JsonResponse({"error": "refused", "message": str(error)}, status=400)


@require_GET
def solution(request: HttpRequest, pk: int) -> JsonResponse:
    """A best play, only for a player who has answered the puzzle or given up (403 before that)."""
    puzzle = get_object_or_404(selectors.servable(), pk=pk)
    if selectors.attempt_of(_user_id(request), puzzle.pk) is None:
        return JsonResponse({"error": "answer_first", "message": _("Answer the puzzle or give up first.")}, status=403)
    return JsonResponse(
        {
            "table": puzzle.solution.get("table", []),
            "placed": puzzle.solution.get("placed", ""),
            "moves": puzzle.solution.get("moves", []),
        }
    )


@require_POST
def streak_restart(request: HttpRequest) -> HttpResponse:
    request.session[STREAK] = {"count": 0, "above": None}
    return redirect("puzzles:streak")
