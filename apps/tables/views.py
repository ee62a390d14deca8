from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from apps.catalog.data import CATALOG


def lobby(request: HttpRequest) -> HttpResponse:
    return render(request, "tables/lobby.html", {"games": CATALOG})
