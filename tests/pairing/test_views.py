"""Quick pairing's pages: one press on the home page and the Play page joins a pool (a visitor becomes a
guest for a casual one, and is refused a rated one), the waiting screen, Cancel, seeks by form."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.pairing import services
from apps.pairing.models import PoolEntry, Seek
from apps.pairing.pools import Pool
from apps.tables.models import Seat
from tests.tables.helpers import make_user

pytestmark = pytest.mark.django_db

JOIN = "/play/quick/join/"
ADMIN = "/admin/"


@pytest.mark.parametrize("page", ["/", "/play/", "/play/quick/"])
def test_the_home_play_and_quick_pages_show_the_pool_buttons(client, page):
    html = client.get(page).content.decode()
    assert 'action="/play/quick/join/"' in html
    assert 'value="tile-rummy/2/60/casual"' in html  # a visitor is offered the casual pools
    assert 'value="tile-rummy-rearrange/4/60/casual"' in html


def test_a_registered_player_who_may_play_rated_gets_the_rated_buttons(client):
    client.force_login(make_user("ana"))
    assert 'value="tile-rummy/2/60/rated"' in client.get("/").content.decode()


def test_one_press_puts_a_visitor_in_a_casual_pool_as_a_guest_and_shows_the_waiting_screen(client):
    response = client.post(JOIN, {"pool": "tile-rummy/2/60/casual"})
    assert response.status_code == 302 and response["Location"] == reverse("pairing:wait")
    entry = PoolEntry.objects.get()
    assert entry.user.is_guest and not entry.rated
    page = client.get(reverse("pairing:wait")).content.decode()
    assert "waiting-count" in page and "Cancel" in page


def test_a_visitor_pressing_a_rated_pool_is_refused_clearly_and_nothing_is_made(client):
    response = client.post(JOIN, {"pool": "tile-rummy/2/60/rated", "next": "/"}, follow=True)
    assert "Rated pools are for registered players" in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_a_guest_pressing_a_rated_pool_is_refused(client):
    client.force_login(make_user("guest-9", guest=True))
    response = client.post(JOIN, {"pool": "tile-rummy/2/60/rated"}, follow=True)
    assert "Rated pools are for registered players" in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_a_bad_pool_is_refused(client):
    response = client.post(JOIN, {"pool": "tile-rummy/9/60/casual"}, follow=True)
    assert "There is no such pool" in response.content.decode()
    assert not PoolEntry.objects.exists()


def test_cancel_takes_the_player_out_of_the_pool(client):
    client.force_login(make_user("ana"))
    client.post(JOIN, {"pool": "tile-rummy/3/30/rated"})
    assert PoolEntry.objects.exists()
    response = client.post(reverse("pairing:cancel"))
    assert response.status_code == 302 and not PoolEntry.objects.exists()
    assert client.get(reverse("pairing:wait"))["Location"] == reverse("pairing:quick")


def test_a_full_pool_pairs_at_once_and_the_waiting_page_moves_to_the_table(client, settings):
    settings.PAIRING_AT_ONCE = 2
    other = make_user("bogdan")
    client.force_login(other)
    client.post(JOIN, {"pool": "tile-rummy/2/60/rated"})
    client.force_login(make_user("ana"))
    client.post(JOIN, {"pool": "tile-rummy/2/60/rated"})
    table_id = Seat.objects.get(user=other).table_id
    assert client.get(reverse("pairing:wait"))["Location"] == f"/t/{table_id}/"


def test_a_seek_posted_by_form_is_matched_by_a_compatible_one(client):
    client.force_login(make_user("ana"))
    client.post(reverse("pairing:seek"), {"pool": "tile-rummy/2/60/rated", "min": "900", "max": "1100"})
    assert Seek.objects.count() == 1
    client.force_login(make_user("bogdan"))
    response = client.post(reverse("pairing:seek"), {"pool": "tile-rummy/2/60/rated", "min": "800", "max": "1200"})
    assert response.status_code == 302 and response["Location"].startswith("/t/")
    assert not Seek.objects.exists()


def test_a_seek_with_a_range_upside_down_is_refused(client):
    client.force_login(make_user("ana"))
    response = client.post(
        reverse("pairing:seek"), {"pool": "tile-rummy/2/60/rated", "min": "1500", "max": "900"}, follow=True
    )
    assert "rating range" in response.content.decode() and not Seek.objects.exists()



def test_moderators_see_the_pools_and_the_seeks_in_the_admin(client):
    services.pool_join(by=make_user("ana"), pool=Pool("tile-rummy", 3, 60, True))
    services.seek_post(by=make_user("bogdan"), pool=Pool("tile-rummy", 2, 60, True), rating_min=900, rating_max=1100)
    moderator = make_user("mod", staff=True)
    moderator.is_superuser = True
    moderator.save(update_fields=["is_superuser"])
    client.force_login(moderator)
    pools = client.get(ADMIN + "pairing/poolentry/").content.decode()
    assert "ana" in pools and "tile-rummy" in pools
    assert "bogdan" in client.get(ADMIN + "pairing/seek/").content.decode()
    assert client.get(ADMIN + "pairing/wait/").status_code == 200
