"""The pages of friends, blocks and challenges (SPEC 17): `/friends/`, a player's follow and block
buttons, a challenge's form and its own page (which moves to the table when it starts), and the
settings page with who may challenge you. The rules are apps/social/services.py; these pages compose
them with the tables, presence and ratings (apps/players/friends.py)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from apps.accounts.models import User
from apps.bots.selectors import bot_account_ids
from apps.catalog.data import CATALOG
from apps.engine.game import get_rules, is_available
from apps.players import friends
from apps.social import selectors as social
from apps.social import services
from apps.social.models import Challenge, ChallengeInvitee, ChallengePolicy
from apps.tables import services as table_services

#: The most names one challenge form reads (a table has at most 4 seats: more is a mistake).
MAX_NAMES = 8


def _back(request: HttpRequest, default: str) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(default)


def _games() -> list[tuple[str, str, tuple[int, ...], tuple[int, ...]]]:
    """(slug, name, seat counts, paces) of every game a challenge may ask for."""
    return [
        (entry.slug, str(entry.name), get_rules(entry.slug).seat_counts(), get_rules(entry.slug).paces)
        for entry in CATALOG
        if is_available(entry.slug)
    ]


def _label(challenges: list[Challenge]) -> list[Challenge]:
    """Give each challenge its game's name for the page (`game_label`)."""
    names = {slug: name for slug, name, *_rest in _games()}
    for challenge in challenges:
        challenge.game_label = names.get(challenge.game, challenge.game)  # type: ignore[attr-defined]
    return challenges


def _paces() -> list[int]:
    return sorted({pace for *_rest, paces in _games() for pace in paces}, key=lambda pace: (pace == 0, pace))


@login_required
@require_GET
def friends_page(request: HttpRequest) -> HttpResponse:
    user: Any = request.user
    following = social.following_ids(user.pk)
    followers = social.follower_ids(user.pk)
    everyone = friends.people(user, following | followers)
    blocked = User.objects.filter(pk__in=social.blocked_by(user.pk)).order_by("username")
    incoming = social.challenges_to(user.pk)
    context = {
        "friends": [person for person in everyone if person.friend],
        "following": [person for person in everyone if person.i_follow and not person.follows_me],
        "followers": [person for person in everyone if person.follows_me and not person.i_follow],
        "blocked": blocked,
        "incoming": [row for row in incoming if _label([row.challenge])],
        "outgoing": _label(social.challenges_from(user.pk)),
        "reasons": ChallengeInvitee.Reason.choices,
    }
    return render(request, "players/friends.html", context)


@login_required
@require_POST
def relation(request: HttpRequest, username: str) -> HttpResponse:
    """Follow, unfollow, block or unblock a player (`action`), then back to where the button was."""
    user: Any = request.user
    other = get_object_or_404(User, username=username, is_active=True)
    action = request.POST.get("action", "")
    acts = {
        "follow": services.follow,
        "unfollow": services.unfollow,
        "block": services.block,
        "unblock": services.unblock,
    }
    if action not in acts:
        messages.error(request, _("Choose follow, unfollow, block or unblock."))
    else:
        try:
            acts[action](by=user, user_id=other.pk)
        except services.SocialError as error:
            messages.error(request, str(error))
        else:
            done = {
                "follow": _("You follow %(name)s."),
                "unfollow": _("You no longer follow %(name)s."),
                "block": _("You blocked %(name)s: they cannot challenge you, chat to you or join your tables."),
                "unblock": _("You unblocked %(name)s."),
            }[action]
            messages.success(request, done % {"name": other.get_username()})
    return _back(request, reverse("players:profile", args=[other.get_username()]))


def _challenge_form_context(request: HttpRequest, user: Any, values: dict[str, Any]) -> dict[str, Any]:
    friend_rows = [person for person in friends.people(user, social.following_ids(user.pk)) if person.friend]
    return {
        "games": _games(),
        "paces": _paces(),
        "match_lengths": services.MATCH_LENGTHS,
        "friend_rows": friend_rows,
        "values": values,
    }


@login_required
def challenge_new(request: HttpRequest) -> HttpResponse:
    """The challenge form (GET, `?to=name` names a player) and making it (POST)."""
    user: Any = request.user
    if request.method == "GET":
        values = {
            "names": request.GET.get("to", ""),
            "game": request.GET.get("game", "tile-rummy"),
            "seats": 2,
            "turn_seconds": 60,
            "match_length": 1,
            "casual": False,
            "chosen": [],
        }
        return render(request, "players/challenge_new.html", _challenge_form_context(request, user, values))
    if request.method != "POST":
        return HttpResponse(status=405)
    post = request.POST
    names = [name.strip() for name in post.get("names", "").replace(";", ",").split(",") if name.strip()]
    chosen = [value for value in post.getlist("friend") if value.isdigit()]
    values = {
        "names": post.get("names", ""),
        "game": post.get("game", ""),
        "seats": post.get("seats", ""),
        "turn_seconds": post.get("turn_seconds", ""),
        "match_length": post.get("match_length", ""),
        "casual": post.get("rated") == "casual",
        "chosen": [int(value) for value in chosen],
    }

    def again(message: str) -> HttpResponse:
        context = _challenge_form_context(request, user, values)
        context["error"] = message
        return render(request, "players/challenge_new.html", context, status=400)

    try:
        seats, turn_seconds, match_length = (int(post.get(name, "")) for name in ("seats", "turn_seconds", "match_length"))
    except ValueError:
        return again(_("Choose the seats, the pace and the match length from the lists."))
    if len(names) > MAX_NAMES:
        return again(_("You named more players than the table has seats."))
    by_name = Q()
    for name in names[:MAX_NAMES]:
        by_name |= Q(username__iexact=name)
    found = {
        found_user.get_username().lower(): found_user.pk
        for found_user in (User.objects.filter(by_name, is_active=True) if names else User.objects.none())
    }
    missing = [name for name in names if name.lower() not in found]
    if missing:
        return again(_("There is no player called %(name)s.") % {"name": missing[0]})
    user_ids = list(dict.fromkeys([int(value) for value in chosen] + [found[name.lower()] for name in names]))
    bots = User.objects.filter(pk__in=bot_account_ids(user_ids)).values_list("username", flat=True).first()
    if bots:
        # A bot account is challenged from its profile: a seat kept for it at a table (SPEC 14).
        return again(_("%(name)s is a bot account: challenge it from its profile.") % {"name": bots})
    game = str(values["game"])
    try:
        challenge = services.challenge_make(
            by=user,
            user_ids=user_ids,
            game=game,
            seat_count=seats,
            turn_seconds=turn_seconds,
            match_length=match_length,
            casual=bool(values["casual"]),
            ratings=friends.ratings_in(game, [user.pk, *user_ids]) if is_available(game) else {},
        )
    except services.SocialError as error:
        return again(str(error))
    return redirect(friends.challenge_url(challenge.pk))


def _visible_challenge(request: HttpRequest, challenge_id: int) -> Challenge:
    """The challenge, to its players; an open one to anyone signed in with its link; else a 404."""
    challenge = social.challenge_of(challenge_id)
    user: Any = request.user
    if challenge is None or not (friends.takes_part(challenge, user.pk) or challenge.open or user.is_staff):
        raise Http404(_("There is no such challenge."))
    return challenge


def _state(challenge: Challenge) -> dict[str, Any]:
    """What the challenge's page reads again when its socket (re)connects (static/js/challenge.js): its
    status, each place's answer, where to go once it started, and a `signature` of all that the page
    compares with the one it was shown with (data-signature)."""
    pending = challenge.status == Challenge.Status.PENDING and challenge.expires_at > timezone.now()
    status = challenge.status if challenge.status != Challenge.Status.PENDING or pending else Challenge.Status.EXPIRED
    answers = [
        {"name": row.user.get_username(), "answer": row.answer, "reason": row.reason}
        for row in challenge.invitees.all()
    ]
    signature = "|".join([status, *(f"{row['name']}:{row['answer']}:{row['reason']}" for row in answers)])
    return {
        "status": status,
        "table_url": reverse("tables:table", args=[challenge.table_id]) if challenge.table_id else "",
        "answers": answers,
        "signature": signature,
    }


@login_required
@require_GET
def challenge_page(request: HttpRequest, challenge_id: int) -> HttpResponse:
    challenge = _visible_challenge(request, challenge_id)
    user: Any = request.user
    state = _state(challenge)
    _label([challenge])
    if request.GET.get("format") == "json":
        return JsonResponse(state)
    if state["status"] == Challenge.Status.STARTED and friends.takes_part(challenge, user.pk):
        return redirect(state["table_url"])
    mine = next((row for row in challenge.invitees.all() if row.user_id == user.pk), None)
    context = {
        "challenge": challenge,
        "state": state,
        "mine": mine,
        "is_challenger": challenge.challenger_id == user.pk,
        "reasons": ChallengeInvitee.Reason.choices,
        "share_url": request.build_absolute_uri(friends.challenge_url(challenge.pk)),
    }
    return render(request, "players/challenge.html", context)


@login_required
@require_POST
def challenge_answer(request: HttpRequest, challenge_id: int, action: str) -> HttpResponse:
    """Accept, decline (with `reason`) or cancel; the last acceptance goes to the table it opened."""
    user: Any = request.user
    here = friends.challenge_url(challenge_id)
    try:
        if action == "accept":
            challenge = services.challenge_accept(by=user, challenge_id=challenge_id,
                                                  open_table=friends.open_challenge_table)
            if challenge.table_id:
                return redirect(reverse("tables:table", args=[challenge.table_id]))
            return redirect(here)
        if action == "decline":
            services.challenge_decline(by=user, challenge_id=challenge_id, reason=request.POST.get("reason", ""))
            messages.success(request, _("You declined the challenge."))
        elif action == "cancel":
            services.challenge_cancel(by=user, challenge_id=challenge_id)
            messages.success(request, _("You cancelled the challenge."))
        else:
            raise Http404
    except (services.SocialError, table_services.TableError) as error:
        messages.error(request, str(error))
        return _back(request, reverse("players:friends"))
    return _back(request, reverse("players:friends"))


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    """The player's settings: who may challenge them (SPEC 17)."""
    user: Any = request.user
    if request.method == "POST":
        try:
            services.challenge_policy_set(by=user, policy=request.POST.get("challenges_from", ""))
        except services.SocialError as error:
            messages.error(request, str(error))
        else:
            messages.success(request, _("Your settings are saved."))
        return redirect("players:settings")
    context = {"policy": social.challenge_policy(user.pk), "policies": ChallengePolicy.choices}
    return render(request, "players/settings.html", context)


def table_page_strings() -> dict[str, object]:
    """What a table's page needs of these pages: the words of the link to a seat's player's profile in
    the seat's menu (static/js/chat.js; the link is there only when these pages are)."""
    return {"seat_profile": _("Profile: follow or challenge")}
