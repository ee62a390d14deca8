from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from apps.catalog.data import CATALOG


def index(request: HttpRequest) -> HttpResponse:
    return render(request, "leaderboards/index.html", {"games": [g for g in CATALOG if g.has_leaderboard]})
