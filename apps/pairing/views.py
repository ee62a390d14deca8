"""Quick pairing's pages: the pools and seeks (`/play/quick/`), joining a pool in one press, the waiting
screen, Cancel, and posting, taking and withdrawing a seek. Thin: each calls one service."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from apps.accounts.services import guest_login
from apps.pairing import selectors, services
from apps.pairing.pools import Pool, all_pools
from apps.pairing.rules import PairingError, facts_of
from apps.pairing.strings import page_strings


def _table_url(table_id: int) -> str:
    return reverse("tables:table", args=[table_id])


def quick(request: HttpRequest) -> HttpResponse:
    """The pools, the seek form and the seeks a player may take (live, on the pairing socket)."""
    entry = selectors.pool_entry(request.user.pk if request.user.is_authenticated else None)
    if entry is not None and entry.table_id is None:
        return redirect("pairing:wait")
    own = selectors.seek_of(request.user.pk if request.user.is_authenticated else None)
    rating = 1000.0
    if request.user.is_authenticated:
        rating = facts_of(request.user, all_pools()[0].game).rating
    low, high = max(0, int(rating // 10 * 10) - 200), int(rating // 10 * 10) + 200
    context = {"own_seek": own, "pools": all_pools(), "low": low, "high": high, "strings": page_strings()}
    return render(request, "pairing/quick.html", context)


@require_POST
def join(request: HttpRequest) -> HttpResponse:
    """One press: into the pool the button names (a visitor becomes a guest first, for a casual pool)."""
    back = request.POST.get("next") or reverse("pairing:quick")
    if not back.startswith("/") or back.startswith("//"):
        back = reverse("pairing:quick")
    try:
        pool = Pool.parse(request.POST.get("pool", ""))
    except ValueError as error:
        messages.error(request, str(error))
        return redirect(back)
    if pool.rated and not request.user.is_authenticated:
        messages.error(request, _("Rated pools are for registered players: sign up to play rated games, or join a casual pool."))
        return redirect(back)
    user = guest_login(request)
    try:
        services.pool_join(by=user, pool=pool, bot_fill=request.POST.get("bot") == "1")
    except PairingError as error:
        messages.error(request, str(error))
        return redirect(back)
    if services.pool_size(pool) >= services.at_once():
        services.pairing_wave(pools=[pool])
    return redirect("pairing:wait")


def wait(request: HttpRequest) -> HttpResponse:
    """The waiting screen: time waited, how many wait, the typical wait, Cancel."""
    status = selectors.waiting_status(request.user.pk if request.user.is_authenticated else None)
    if status is None:
        return redirect("pairing:quick")
    if status["type"] == "paired":
        return redirect(_table_url(status["table"]))
    return render(request, "pairing/wait.html", {"status": status, "strings": page_strings()})


@require_POST
def cancel(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        services.pool_leave(by=request.user)
    return redirect("pairing:quick")


def _range(request: HttpRequest) -> tuple[int, int]:
    try:
        return int(request.POST.get("min", "")), int(request.POST.get("max", ""))
    except ValueError:
        raise PairingError(_("Give a rating range from a lower to a higher rating, between 0 and 4000.")) from None


@require_POST
def seek(request: HttpRequest) -> HttpResponse:
    """Post a seek: seated at once if compatible players are there, else shown in the lobby."""
    try:
        pool = Pool.parse(request.POST.get("pool", ""))
        low, high = _range(request)
        if pool.rated and not request.user.is_authenticated:
            raise PairingError(_("Rated pools are for registered players: sign up to play rated games, or join a casual pool."))
        user = guest_login(request)
        table_id = services.seek_post(by=user, pool=pool, rating_min=low, rating_max=high)
    except (ValueError, PairingError) as error:
        messages.error(request, str(error))
        return redirect("pairing:quick")
    if table_id is not None:
        return redirect(_table_url(table_id))
    messages.success(request, _("Your seek is in the lobby. Keep this page open: it goes when you leave."))
    return redirect("pairing:quick")


@require_POST
def take(request: HttpRequest, seek_id: int) -> HttpResponse:
    try:
        user = guest_login(request)
        table_id = services.seek_take(by=user, seek_id=seek_id)
    except PairingError as error:
        messages.error(request, str(error))
        return redirect("pairing:quick")
    if table_id is not None:
        return redirect(_table_url(table_id))
    messages.success(request, _("Your seek joins that one: the table opens when its seats are taken."))
    return redirect("pairing:quick")


@require_POST
def seek_cancel(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        services.seek_cancel(by=request.user)
    return redirect("pairing:quick")
