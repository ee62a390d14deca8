"""The pages of friends, blocks and challenges (apps/players/social_views.py, SPEC 17)."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.social import services
from apps.social.models import Challenge, Follow
from apps.tables import services as tables
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db

HOUSE = "tile-rummy"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_follow_from_a_profile_then_friends_show_on_the_friends_page_with_where_they_are():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    a, b = signed_in(ana), signed_in(bogdan)
    page = a.get("/u/bogdan/").content.decode()
    assert ">Follow<" in page and ">Block<" in page and "/challenges/new/?to=bogdan" in page
    assert a.post("/u/bogdan/relation/", {"action": "follow"}).status_code == 302
    assert b.post("/u/ana/relation/", {"action": "follow"}).status_code == 302
    assert "Friends" in a.get("/u/bogdan/").content.decode()
    table = tables.table_open(by=bogdan, game=HOUSE, seat_count=2, turn_seconds=60)
    tables.table_join(table_id=table.pk, by=carmen)
    tables.table_start(table_id=table.pk, by=bogdan)
    page = a.get("/friends/").content.decode()
    assert "person--playing" in page and f'href="/t/{table.pk}/"' in page  # watch in one press
    page = a.get("/u/bogdan/").content.decode()
    assert "person--playing" in page and f'href="/t/{table.pk}/"' in page  # and from the profile
    assert a.post("/u/bogdan/relation/", {"action": "block"}).status_code == 302
    assert not Follow.objects.exists()
    page = a.get("/friends/").content.decode()
    assert "person--playing" not in page and "Unblock" in page


def test_nobody_follows_themselves_or_a_guest_from_the_page():
    ana, guest = make_user("ana"), make_user("guest-7", guest=True)
    a = signed_in(ana)
    assert ">Follow<" not in a.get("/u/guest-7/").content.decode()
    assert ">Follow<" not in a.get("/u/ana/").content.decode()
    a.post("/u/guest-7/relation/", {"action": "follow"})
    assert not Follow.objects.exists()
    assert signed_in(guest).get("/friends/").status_code == 200


def test_a_challenge_from_the_form_is_accepted_and_both_pages_go_to_the_table():
    ana, bogdan, carmen = make_user("ana"), make_user("bogdan"), make_user("carmen")
    a, b, c = signed_in(ana), signed_in(bogdan), signed_in(carmen)
    assert "bogdan" in a.get("/challenges/new/?to=bogdan").content.decode()
    made = a.post("/challenges/new/", {"names": "Bogdan", "game": HOUSE, "seats": "2", "turn_seconds": "60",
                                       "match_length": "1", "rated": "rated"})
    challenge = Challenge.objects.get()
    assert made["Location"] == f"/challenges/{challenge.pk}/"
    assert a.get(made["Location"] + "?format=json").json()["status"] == "pending"
    waiting = a.get(made["Location"]).content.decode()  # it follows the bell's socket: no polling
    assert f'data-challenge="{challenge.pk}"' in waiting and 'data-signature="pending|bogdan:waiting:"' in waiting
    assert "data-poll-ms" not in waiting
    assert c.get(made["Location"]).status_code == 404  # not theirs
    assert "ana challenges you" in b.get("/friends/").content.decode()
    landed = b.post(f"/challenges/{challenge.pk}/accept/")
    challenge.refresh_from_db()
    assert landed["Location"] == f"/t/{challenge.table_id}/"
    state = a.get(made["Location"] + "?format=json").json()
    assert state == {"status": "started", "table_url": f"/t/{challenge.table_id}/",
                     "answers": [{"name": "bogdan", "answer": "accepted", "reason": ""}],
                     "signature": "started|bogdan:accepted:"}
    assert a.get(made["Location"])["Location"] == f"/t/{challenge.table_id}/"


def test_the_form_says_why_it_refused_and_keeps_what_was_chosen():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    services.challenge_policy_set(by=bogdan, policy="never")
    a = signed_in(ana)
    page = a.post("/challenges/new/", {"names": "bogdan", "game": HOUSE, "seats": "2", "turn_seconds": "30",
                                       "match_length": "3", "rated": "casual"})
    assert page.status_code == 400
    text = page.content.decode()
    assert "bogdan does not take challenges from you now." in text
    assert 'value="3" selected' in text and 'value="casual" checked' in text
    page = a.post("/challenges/new/", {"names": "nobody-here", "game": HOUSE, "seats": "2", "turn_seconds": "60",
                                       "match_length": "1"})
    assert "There is no player called nobody-here." in page.content.decode()
    assert not Challenge.objects.exists()


def test_decline_with_a_reason_and_cancel_from_the_friends_page():
    ana, bogdan = make_user("ana"), make_user("bogdan")
    a, b = signed_in(ana), signed_in(bogdan)
    first = services.challenge_make(by=ana, user_ids=[bogdan.pk], game=HOUSE, seat_count=2, turn_seconds=60)
    b.post(f"/challenges/{first.pk}/decline/", {"reason": "casual_only", "next": "/friends/"})
    first.refresh_from_db()
    assert first.status == "declined"
    assert "Casual games only" in a.get(f"/challenges/{first.pk}/").content.decode()
    second = services.challenge_make(by=ana, user_ids=[bogdan.pk], game=HOUSE, seat_count=2, turn_seconds=60)
    a.post(f"/challenges/{second.pk}/cancel/", {"next": "/friends/"})
    second.refresh_from_db()
    assert second.status == "cancelled"


def test_who_may_challenge_you_is_chosen_on_the_settings_page():
    ana = make_user("ana")
    a = signed_in(ana)
    assert 'value="registered" checked' in a.get("/settings/").content.decode()
    a.post("/settings/", {"challenges_from": "friends"})
    assert 'value="friends" checked' in a.get("/settings/").content.decode()
    assert "Choose who may challenge you" in a.post("/settings/", {"challenges_from": "all"}, follow=True).content.decode()


def test_a_bot_account_is_challenged_from_its_profile_not_by_the_challenge_form():
    from tests.bots.helpers import make_bot

    ana = make_user("ana")
    robo, _token = make_bot("robo-7")
    page = signed_in(ana).post("/challenges/new/", {"names": "robo-7", "game": HOUSE, "seats": "2",
                                                    "turn_seconds": "60", "match_length": "1"})
    assert page.status_code == 400
    assert "robo-7 is a bot account: challenge it from its profile." in page.content.decode()
    assert not Challenge.objects.exists()
    assert robo.pk


def test_the_challenges_address_leads_to_the_challenges_on_the_friends_page(client):
    response = client.get("/challenges/")
    assert response.status_code == 302 and response["Location"] == "/friends/#challenges-title"
