"""The catalog of games and each game's rules page."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from apps.catalog.data import CATALOG, catalog_entry
from apps.catalog.examples import examples_for
from apps.catalog.ladder import ladder_for


def catalog(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/index.html", {"games": CATALOG})


def rules(request: HttpRequest, slug: str) -> HttpResponse:
    """The rules in our words; the worked examples are computed by the engine on every render, so the
    page can never show a result the tables would not give."""
    entry = catalog_entry(slug)
    if entry is None:
        raise Http404(_("There is no such game."))
    return render(
        request, f"catalog/rules/{slug}.html", {"entry": entry, "examples": examples_for(slug), "ladder": ladder_for(slug)}
    )
