"""The notifications' pages: the list (read and unread, mark read), the push settings and the browser's
push subscription (JSON, from static/js/push.js)."""

from __future__ import annotations

import json
from datetime import timedelta

from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from apps.accounts.requests import SignedInRequest
from apps.notifications import digest, push, services
from apps.notifications.forms import PushSettingsForm
from apps.notifications.models import Notification, PushSettings, PushSubscription
from apps.notifications.texts import Item

PAGE_SIZE = 30


def item(notification: Notification) -> Item:
    return Item(
        id=notification.pk,
        kind=notification.kind,
        actor=notification.actor.username if notification.actor is not None else "",
        table_id=notification.table_id,
        reason=notification.reason,
        read=notification.read_at is not None,
        created=notification.created_at.isoformat(),
        tournament_id=notification.tournament_id,
        challenge_id=notification.challenge_id,
        subject=notification.subject,
    )


@login_required
def notification_list(request: SignedInRequest) -> HttpResponse:
    rows = Notification.objects.filter(user=request.user).select_related("actor")
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page"))
    fresh = timezone.now() - timedelta(minutes=1)
    items = [(item(row), row.created_at, row.created_at > fresh) for row in page.object_list]
    return render(request, "notifications/list.html", {
        "items": items, "page": page, "unread": services.unread_count(request.user.pk),
    })


@login_required
@require_POST
def mark_read(request: SignedInRequest) -> HttpResponse:
    """Mark one (`id`) or all (`all`) of the player's notifications read; only their own."""
    if request.POST.get("all"):
        services.mark_read(user_id=request.user.pk)
    else:
        try:
            ids = [int(value) for value in request.POST.getlist("id")]
        except ValueError:
            return HttpResponse(_("Not a notification."), status=400)
        services.mark_read(user_id=request.user.pk, ids=ids)
    return redirect("notifications:list")


@login_required
def open_notification(request: SignedInRequest, notification_id: int) -> HttpResponse:
    """Follow a notification: it is read now, and the player goes where it leads."""
    notification = get_object_or_404(Notification.objects.select_related("actor"), pk=notification_id, user=request.user)
    if notification.read_at is None:
        services.mark_read(user_id=request.user.pk, ids=[notification.pk])
    target = item(notification).url()
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        target = "/"
    return redirect(target)


@login_required
@require_http_methods(["GET", "POST"])
def push_settings(request: SignedInRequest) -> HttpResponse:
    preferences, _created = PushSettings.objects.get_or_create(user=request.user)
    form = PushSettingsForm(request.POST or None, instance=preferences, may_email=digest.may_get_digest(request.user))
    if request.method == "POST" and form.is_valid():
        form.save()
        return redirect("notifications:settings")
    return render(request, "notifications/settings.html", {
        "form": form,
        "email_offered": "email_digest" in form.fields,
        "enabled": push.enabled(),
        "public_key": push.public_key(),
        "devices": PushSubscription.objects.filter(user=request.user).count(),
        "max_devices": push.MAX_DEVICES,
    })


def _json_body(request: HttpRequest) -> dict[str, object] | None:
    try:
        body = json.loads(request.body or b"{}")
    except ValueError:
        return None
    return body if isinstance(body, dict) else None


@login_required
@require_POST
def push_subscribe(request: SignedInRequest) -> HttpResponseBase:
    """The browser's subscription (PushSubscription.toJSON()) for the signed-in player."""
    if not push.enabled():
        return JsonResponse({"error": _("Push notifications are off on this site.")}, status=409)
    body = _json_body(request)
    keys = body.get("keys") if body is not None else None
    if body is None or not isinstance(keys, dict):
        return JsonResponse({"error": _("Not a push subscription.")}, status=400)
    try:
        push.subscribe(
            user=request.user,
            endpoint=str(body.get("endpoint") or ""),
            p256dh=str(keys.get("p256dh") or ""),
            auth=str(keys.get("auth") or ""),
            language=get_language() or "",
        )
    except push.BadSubscription:
        return JsonResponse({"error": _("Not a push subscription.")}, status=400)
    return JsonResponse({"ok": True, "devices": PushSubscription.objects.filter(user=request.user).count()})


@login_required
@require_POST
def push_unsubscribe(request: SignedInRequest) -> HttpResponseBase:
    body = _json_body(request)
    if body is None:
        return JsonResponse({"error": _("Not a push subscription.")}, status=400)
    removed = push.unsubscribe(user=request.user, endpoint=str(body.get("endpoint") or ""))
    return JsonResponse({"ok": True, "removed": removed})
