"""Follows, blocks and challenges in the admin, for moderators (SPEC 17): listed and searchable by
player; a pending challenge is cancelled through the service, and its players are told."""

from __future__ import annotations

import pytest
from django.contrib.admin.models import LogEntry

from apps.lib import events
from apps.social import services
from apps.social.events import ChallengeGone
from apps.social.models import Challenge
from tests.tables.helpers import make_user
from tests.tables.test_admin import moderator_client  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db


def test_moderators_see_follows_blocks_and_challenges_by_player(moderator_client):  # noqa: F811
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    services.follow(by=ana, user_id=bogdan.pk)
    services.block(by=carmen, user_id=ana.pk)
    made = services.challenge_make(by=bogdan, user_ids=[carmen.pk], game="tile-rummy", seat_count=2, turn_seconds=60)
    page = moderator_client.get("/admin/social/follow/?q=ana").content.decode()
    assert "ana" in page and "bogdan" in page
    page = moderator_client.get("/admin/social/block/?q=carmen").content.decode()
    assert "carmen" in page
    page = moderator_client.get("/admin/social/challenge/?q=carmen").content.decode()
    assert f"/admin/social/challenge/{made.pk}/change/" in page
    page = moderator_client.get(f"/admin/social/challenge/{made.pk}/change/").content.decode()
    assert "carmen" in page and "Not answered yet" in page
    assert moderator_client.get("/admin/social/follow/add/").status_code == 403  # made by players only


def test_a_moderator_cancels_a_pending_challenge_and_its_players_are_told(moderator_client, django_capture_on_commit_callbacks):  # noqa: F811
    ana, bogdan = make_user("ana"), make_user("bogdan")
    made = services.challenge_make(by=ana, user_ids=[bogdan.pk], game="tile-rummy", seat_count=2, turn_seconds=60)
    gone: list[ChallengeGone] = []
    events.subscribe(ChallengeGone, gone.append)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = moderator_client.post(
                "/admin/social/challenge/", {"action": "cancel_challenges", "_selected_action": [made.pk]}, follow=True
            )
    finally:
        events.unsubscribe(ChallengeGone, gone.append)
    assert "1 challenge cancelled." in response.content.decode()
    made.refresh_from_db()
    assert made.status == Challenge.Status.CANCELLED
    assert gone == [ChallengeGone(made.pk, ana.pk, (bogdan.pk,), reason="cancelled")]
    assert LogEntry.objects.filter(object_id=str(made.pk), change_message="cancelled").count() == 1
