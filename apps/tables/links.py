"""The addresses that frames carry (a table's page, a match's record, the fair-deal explanation),
reversed once per process and address: Django's `reverse` costs about 30 us a call, and every move's
frames carry two or three of them.

>>> url("tables:match", 7) == reverse("tables:match", args=[7])
True
>>> url("tables:fair_deals") == reverse("tables:fair_deals")
True
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.urls import get_script_prefix, get_urlconf, reverse


def url(name: str, *args: int) -> str:
    """`reverse(name, args=args)`, remembered for the script prefix and URL configuration in force."""
    return _reversed(get_script_prefix(), get_urlconf() or settings.ROOT_URLCONF, name, args)


@lru_cache(maxsize=8192)
def _reversed(prefix: str, urlconf: str, name: str, args: tuple[int, ...]) -> str:
    return reverse(name, urlconf=urlconf, args=list(args))
