"""The site as an installable app (SPEC 13): the web app manifest, the service worker and its offline page.

The service worker is served from /sw.js (not /static/) so that its scope is the whole site. It keeps the
site's shell only (the offline page, its stylesheet and script, the icons) and answers a page request
from that shell only when the network fails: it never stores a page, a table's state or anything of the
socket, so what a player sees is always the server's.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

THEME_COLOUR = "#1d5c4a"  # the felt (static/css/site.css --felt)
BACKGROUND_COLOUR = "#f4efe2"  # the paper (--paper)

#: What the service worker keeps, as static paths: what the offline page needs, and the icons.
SHELL = ("css/site.css", "js/offline.js", "img/favicon.svg", "img/icons/icon-192.png", "img/icons/icon-512.png")


def icons() -> list[dict[str, str]]:
    return [
        {"src": static("img/icons/icon-192.png"), "sizes": "192x192", "type": "image/png", "purpose": "any"},
        {"src": static("img/icons/icon-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "any"},
        {"src": static("img/icons/icon-maskable-512.png"), "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
        {"src": static("img/icons/icon.svg"), "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
    ]


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    data: dict[str, Any] = {
        "name": _("Tile Rummy online"),
        "short_name": _("Tile Rummy"),
        "description": _("Play Tile Rummy online for free: live tables against people and bots."),
        "lang": get_language(),
        "start_url": reverse("home"),
        "scope": "/",
        "id": "/",
        "display": "standalone",
        "orientation": "any",  # the table is laid out for a phone held upright and sideways alike
        "background_color": BACKGROUND_COLOUR,
        "theme_color": THEME_COLOUR,
        "categories": ["games"],
        "icons": icons(),
    }
    return JsonResponse(data, content_type="application/manifest+json")


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    offline = reverse("offline")
    shell = [offline, *(static(path) for path in SHELL)]
    body = render_to_string("pwa/sw.js", {"config": json.dumps({"shell": shell, "offline": offline})})
    # A new version of the shell (new static names after a deploy, a new worker) is a new cache name,
    # and the worker's activation deletes the old caches.
    version = hashlib.sha256(body.encode()).hexdigest()[:12]
    response = HttpResponse(body.replace("__VERSION__", version), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline(request: HttpRequest) -> HttpResponse:
    """The page the service worker shows when the network is gone. It is stored once and shown to
    anyone: nothing of the visitor is in it (no name, no form token)."""
    response = render(request, "pwa/offline.html")
    response["Cache-Control"] = "no-cache"
    return response
