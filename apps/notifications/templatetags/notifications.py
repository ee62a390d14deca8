"""The bell in the site's header: `{% unread_notifications %}` is the signed-in player's unread count."""

from __future__ import annotations

from typing import Any

from django import template

from apps.notifications.services import unread_count

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context: dict[str, Any]) -> int:
    user = context.get("user")
    if user is None or not user.is_authenticated:
        return 0
    return unread_count(user.pk)
