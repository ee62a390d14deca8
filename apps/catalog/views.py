from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from apps.catalog.data import CATALOG


def catalog(request: HttpRequest) -> HttpResponse:
    return render(request, "catalog/index.html", {"games": CATALOG})
