"""The push settings form: which kinds are pushed, and the quiet hours in the player's time zone."""

from __future__ import annotations

from typing import Any
from zoneinfo import available_timezones

from django import forms
from django.utils.translation import gettext_lazy as _

from apps.notifications.models import Kind, PushSettings

HOURS = [("", _("Never quiet"))] + [(str(hour), f"{hour:02d}:00") for hour in range(24)]


def zones() -> list[tuple[str, str]]:
    return [(zone, zone.replace("_", " ")) for zone in sorted(available_timezones()) if "/" in zone or zone == "UTC"]


class PushSettingsForm(forms.ModelForm):  # type: ignore[type-arg]  # the stubs ask for the model as a parameter Django cannot take
    kinds = forms.MultipleChoiceField(
        label=_("Push me when"), choices=Kind.choices, widget=forms.CheckboxSelectMultiple, required=False
    )
    time_zone = forms.ChoiceField(label=_("Your time zone"), choices=zones)
    quiet_from = forms.TypedChoiceField(
        label=_("Quiet from"), choices=HOURS, coerce=int, empty_value=None, required=False
    )
    quiet_to = forms.TypedChoiceField(label=_("Quiet until"), choices=HOURS, coerce=int, empty_value=None, required=False)
    email_digest = forms.BooleanField(label=_("E-mail me once a day the tables where it is my turn"), required=False)

    class Meta:
        model = PushSettings
        fields = ["kinds", "time_zone", "quiet_from", "quiet_to", "email_digest"]

    def __init__(self, *args: Any, may_email: bool = False, **kwargs: Any) -> None:
        """`may_email`: a registered person with a verified address (apps/notifications/digest.py); for
        anyone else the daily e-mail is not offered, and is not changed."""
        super().__init__(*args, **kwargs)
        if not may_email:
            del self.fields["email_digest"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if (data.get("quiet_from") is None) != (data.get("quiet_to") is None):
            raise forms.ValidationError(_("Choose both ends of the quiet hours, or neither."))
        return data
