"""`{{ value|signed }}`: points and rating changes with their sign, +65 / −35 (a real minus sign)."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter
def signed(value: int | None) -> str:
    if value is None:
        return ""
    if value > 0:
        return f"+{value}"
    if value < 0:
        return f"−{-value}"
    return "0"
