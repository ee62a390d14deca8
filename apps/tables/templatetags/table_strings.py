"""`{% lobby_strings as strings %}{{ strings|json_script:"ui-strings" }}`: the live table list's words
(apps/tables/ui_strings.py) for a page whose view passes none of its own (the home page's "what's on")."""

from __future__ import annotations

from django import template

from apps.tables.ui_strings import lobby_strings as lobby_strings_

register = template.Library()


@register.simple_tag
def lobby_strings() -> dict[str, object]:
    return lobby_strings_()
