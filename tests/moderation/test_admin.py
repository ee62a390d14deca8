"""The moderator tools in the admin (apps/moderation/admin.py): the account page's sections, the
linked filter, the void and booster actions, and the log every action leaves (bans included)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.accounts.models import User
from apps.leaderboards.models import AppliedMatch, Rating, RatingChange
from apps.leaderboards.services import rating_apply_match
from apps.moderation.models import ModerationAction
from apps.moderation.services import match_void, sighting_record
from tests.leaderboards.factories import finished_match, make_user

pytestmark = pytest.mark.django_db

USERS = reverse("admin:accounts_user_changelist")
RATED_MATCHES = reverse("admin:leaderboards_appliedmatch_changelist")


@pytest.fixture
def moderator(client):
    staff = User.objects.create_superuser("mod", "mod@example.com", "a long passphrase 42")
    client.force_login(staff)
    return staff


@pytest.fixture
def farm():
    """ana and her second account ben, same browser; ana beat ben twice and left a match against cat."""
    ana, ben, cat = make_user("ana"), make_user("ben"), make_user("cat")
    sighting_record(user_id=ana.pk, address="203.0.113.5", browser="a" * 22)
    sighting_record(user_id=ben.pk, address="198.51.100.7", browser="a" * 22)
    sighting_record(user_id=cat.pk, address="192.0.2.1", browser="c" * 22)
    matches = [finished_match([(ana, 1), (ben, 2)]) for _ in range(2)]
    matches.append(finished_match([(ana, 2), (cat, 1)], left=[ana]))
    for match in matches:
        rating_apply_match(match_id=match.pk)
    return ana, ben, cat, matches


def test_an_accounts_page_shows_its_linked_accounts_leaver_rate_and_opponents(client, moderator, farm):
    ana, ben, cat, _matches = farm
    response = client.get(reverse("admin:accounts_user_change", args=[ana.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "accounts sharing an address or a browser" in page.lower()
    assert reverse("admin:accounts_user_change", args=[ben.pk]) in page and "a" * 22 in page  # the shared browser
    assert "Left 1 of 3 finished matches (33%)." in page
    assert "rating history per opponent" in page.lower()
    ana_vs_ben = sum(RatingChange.objects.filter(user=ana, match__players__user=ben).values_list("delta", flat=True))
    assert f"<td>2</td><td>{ana_vs_ben:+d}</td>" in page
    assert reverse("admin:accounts_user_change", args=[cat.pk]) in page


def test_an_account_with_nothing_to_show_still_renders(client, moderator):
    response = client.get(reverse("admin:accounts_user_change", args=[make_user("new").pk]))
    assert response.status_code == 200 and b"No finished match yet." in response.content


def test_the_account_list_filters_linked_accounts(client, moderator, farm):
    ana, ben, cat, _matches = farm
    response = client.get(USERS, {"linked": "yes"})
    assert response.status_code == 200
    assert {user.username for user in response.context["cl"].result_list} == {"ana", "ben"}
    response = client.get(USERS, {"linked": "no"})
    assert {user.username for user in response.context["cl"].result_list} == {"cat", "mod"}


def test_voiding_from_the_admin_asks_for_a_reason_then_voids_once_and_logs_it(client, moderator, farm):
    ana, ben, _cat, matches = farm
    applied = AppliedMatch.objects.get(match=matches[0])
    data = {"action": "void_matches", "_selected_action": [applied.pk]}
    page = client.post(RATED_MATCHES, data)
    assert page.status_code == 200 and b"Reason" in page.content
    assert AppliedMatch.objects.get(pk=applied.pk).voided_at is None

    done = client.post(RATED_MATCHES, {**data, "apply": "1", "reason": "second account"})
    assert done.status_code == 302
    client.post(RATED_MATCHES, {**data, "apply": "1", "reason": "clicked twice"})

    assert AppliedMatch.objects.get(pk=applied.pk).voided_at is not None
    assert Rating.objects.get(user=ben).matches == 1
    log = ModerationAction.objects.get()
    assert (log.by, log.action, log.match_id, log.reason) == (moderator, "void_match", matches[0].pk, "second account")
    assert client.get(RATED_MATCHES).status_code == 200
    assert client.get(reverse("admin:moderation_moderationaction_changelist")).status_code == 200
    assert client.get(reverse("admin:moderation_moderationaction_change", args=[log.pk])).status_code == 200


def test_marking_a_booster_from_the_admin_voids_its_gains_and_logs_every_step(client, moderator, farm):
    ana, ben, cat, matches = farm
    data = {"action": "mark_boosters", "_selected_action": [ana.pk, moderator.pk], "apply": "1", "reason": "farm"}
    assert client.post(USERS, data).status_code == 302

    ana.refresh_from_db()
    moderator.refresh_from_db()
    assert ana.is_booster and not moderator.is_booster  # never one's own account
    assert not RatingChange.objects.filter(user=ana, delta__gt=0).exists()
    actions = sorted(ModerationAction.objects.values_list("action", "target_id", "match_id", "by_id"))
    assert actions == sorted([
        ("mark_booster", ana.pk, None, moderator.pk),
        ("void_match", None, matches[0].pk, moderator.pk),
        ("void_match", None, matches[1].pk, moderator.pk),
    ])
    assert client.get(USERS, {"booster": "yes"}).context["cl"].result_list[0] == ana


def test_a_ban_and_its_lifting_are_logged(client, moderator):
    troll = make_user("troll")
    client.post(USERS, {"action": "ban_users", "_selected_action": [troll.pk], "apply": "1", "duration": "7",
                        "reason": "insults"})
    client.post(USERS, {"action": "unban_users", "_selected_action": [troll.pk]})
    rows = list(ModerationAction.objects.order_by("id").values_list("action", "target_id", "reason", "by_id"))
    assert rows == [("ban", troll.pk, "insults", moderator.pk), ("unban", troll.pk, "", moderator.pk)]


def test_the_sightings_list_renders(client, moderator, farm):
    assert client.get(reverse("admin:moderation_sighting_changelist"), {"q": "ana"}).status_code == 200


def test_a_voided_match_is_shown_as_voided(client, moderator, farm):
    _ana, _ben, _cat, matches = farm
    match_void(match_id=matches[1].pk, by=moderator, reason="test")
    response = client.get(RATED_MATCHES, {"voided_at__isnull": "False"})
    assert [row.match_id for row in response.context["cl"].result_list] == [matches[1].pk]


def test_the_admin_index_lists_the_moderation_records(client, moderator):
    response = client.get(reverse("admin:index"))
    assert response.status_code == 200
    assert reverse("admin:moderation_moderationaction_changelist") in response.content.decode()
    assert reverse("admin:leaderboards_appliedmatch_changelist") in response.content.decode()
