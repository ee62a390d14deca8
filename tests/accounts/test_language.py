"""Which language a visitor reads (apps/accounts/language.py, SPEC 12): the browser's Accept-Language
first, then the visitor's own choice (the footer switch) kept in a cookie and, for a registered player,
in the profile, which is applied at sign-in; WebSockets decide as pages do."""

from __future__ import annotations

import re

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.messages import get_messages
from django.test import Client
from django.urls import reverse

from apps.accounts.models import User
from apps.live.language import language_of
from rummysite.asgi import application
from tests.leaderboards.factories import make_user

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME
PASSWORD = "a long passphrase 42"  # tests/leaderboards/factories.py


def page_language(client: Client, **headers: str) -> str:
    html = client.get(reverse("catalog:index"), **headers).content.decode()
    match = re.search(r'<html lang="([^"]+)"', html)
    assert match is not None
    return match.group(1)


@pytest.mark.parametrize(
    ("accept", "language"),
    [("ro", "ro"), ("ro-RO,ro;q=0.9,en-US;q=0.8", "ro"), ("en-GB,en;q=0.9", "en"), ("fr-FR,fr;q=0.9", "en"), ("", "en")],
)
def test_a_first_visit_is_in_the_browsers_language(client, accept, language):
    assert page_language(client, HTTP_ACCEPT_LANGUAGE=accept) == language


def test_the_visitors_choice_wins_over_the_browsers_language_and_is_kept_in_a_cookie(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/games/"}, HTTP_ACCEPT_LANGUAGE="ro")
    assert response.status_code == 302 and response["Location"] == "/games/"
    assert response.cookies[COOKIE].value == "en"
    assert response.cookies[COOKIE]["max-age"] == settings.LANGUAGE_COOKIE_AGE  # outlives the browser session
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="ro") == "en"
    client.post(reverse("set_language"), {"language": "ro", "next": "/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="en") == "ro"


def test_the_switch_refuses_a_language_the_site_does_not_have_and_changes_nothing(client):
    response = client.post(reverse("set_language"), {"language": "xx", "next": "/"})
    assert COOKIE not in response.cookies
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="ro") == "ro"


def test_the_switch_only_changes_anything_when_posted(client):
    response = client.get(reverse("set_language"), {"language": "ro", "next": "/"})
    assert response.status_code == 405 and COOKIE not in response.cookies


def test_a_registered_players_choice_is_kept_in_their_profile(client):
    player = make_user("ileana")
    client.force_login(player)
    client.post(reverse("set_language"), {"language": "ro", "next": "/"})
    player.refresh_from_db()
    assert player.language == "ro"


def test_a_guests_choice_stays_in_the_cookie_only(client):
    guest = make_user("guest-1", guest=True)
    client.force_login(guest)
    response = client.post(reverse("set_language"), {"language": "ro", "next": "/"})
    guest.refresh_from_db()
    assert guest.language == "" and response.cookies[COOKIE].value == "ro"


def test_a_registered_players_profile_language_is_applied_at_sign_in_on_any_browser(client):
    make_user("ileana", language="ro")
    # A new browser, in English, with no cookie: the profile decides once the player signs in.
    response = client.post(reverse("account_login"), {"login": "ileana", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "ro"
    assert [str(message) for message in get_messages(response.wsgi_request)] == ["Te-ai conectat ca ileana."]
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="en") == "ro"


def test_a_player_with_no_language_in_the_profile_keeps_the_browsers_at_sign_in(client):
    make_user("radu")
    response = client.post(reverse("account_login"), {"login": "radu", "password": PASSWORD}, HTTP_ACCEPT_LANGUAGE="ro")
    assert COOKIE not in response.cookies
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="ro") == "ro"
    assert page_language(client, HTTP_ACCEPT_LANGUAGE="en") == "en"


def test_a_new_player_keeps_the_language_they_signed_up_in(client):
    data = {"username": "maria", "email": "maria@example.com", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("account_signup"), data, HTTP_ACCEPT_LANGUAGE="ro-RO,ro;q=0.9")
    assert response.status_code == 302, response.content.decode()[:2000]
    assert User.objects.get(username="maria").language == "ro"


def scope(cookie: str = "", accept: str = "") -> dict[str, object]:
    headers = [(b"cookie", cookie.encode()), (b"accept-language", accept.encode())]
    return {"type": "websocket", "headers": headers}


@pytest.mark.parametrize(
    ("cookie", "accept", "language"),
    [
        ("", "ro-RO,ro;q=0.9", "ro"),
        ("", "de", "en"),
        (f"{COOKIE}=en", "ro", "en"),  # the visitor's choice first, as for pages
        (f"csrftoken=x; {COOKIE}=ro", "en", "ro"),
        (f"{COOKIE}=xx", "ro", "ro"),  # a cookie the site cannot use is ignored
        ("", "", "en"),
    ],
)
def test_a_websocket_is_in_the_language_its_page_was_in(cookie, accept, language):
    assert language_of(scope(cookie, accept)) == language


@pytest.mark.django_db(transaction=True)
async def test_a_websockets_error_frames_are_in_its_language():
    headers = [(b"origin", b"http://testserver"), (b"accept-language", b"ro")]
    communicator = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.receive_json_from(timeout=10)  # the open tables
    await communicator.send_to(text_data="not json")
    frame = await communicator.receive_json_from(timeout=10)
    assert frame == {"type": "error", "code": "bad_json", "message": "Un mesaj trebuie să fie un obiect JSON."}
    await communicator.disconnect()
