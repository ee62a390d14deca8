"""Every public page, the account pages and the table page, asked for in Romanian (Accept-Language: ro),
say nothing in English (SPEC 12): no English sentence of the catalogues' msgids and no common English
word appears in what the page shows (its text, its labels and the strings it hands its scripts), and
the page says `<html lang="ro">`. Dates and numbers are in Romanian format."""

from __future__ import annotations

import html
import json
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from apps.tables import services
from tests.leaderboards.factories import finished_match, make_user
from tests.review.helpers import finished_game
from tests.romanian import english_in

pytestmark = pytest.mark.django_db

def shown_text(page: str) -> str:
    """What a visitor reads: the text, the labels a screen reader or a tooltip gives, and the strings the
    page gives its scripts; not the markup, styles or code."""
    strings = re.findall(r'<script id="ui-strings" type="application/json">(.*?)</script>', page, re.S)
    script_words = []
    for block in strings:
        for value in json.loads(block).values():
            if isinstance(value, dict):  # e.g. the games' names by slug
                value = list(value.values())
            script_words += value if isinstance(value, list) else [value]
    attributes = re.findall(r'\b(?:title|aria-label|alt|placeholder|content|value)="([^"]*)"', page)
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    body = re.sub(r"<[^>]+>", " ", body)
    text = " ".join([body, *attributes, *script_words])
    return " ".join(html.unescape(text).split())


def assert_romanian(page: str, url: str) -> None:
    assert '<html lang="ro">' in page, url
    text = shown_text(page)
    found = english_in(text)
    assert not found, f"{url} shows English {found[:5]}: …{text[:3000]}"


@pytest.fixture
def site(db):
    call_command("load_catalog")
    player = make_user("ileana")
    rival = make_user("radu")
    guest = make_user("guest-7", guest=True)
    finished_match([(player, 1), (rival, 2)])
    finished_match([(player, 2), (None, 1)], rated=False)
    waiting = services.table_open(by=rival, game="tile-rummy", seat_count=3)
    playing = services.table_open(by=player, game="tile-rummy", seat_count=2, bots=["hard"])
    match = services.table_start(table_id=playing.pk, by=player)
    rearrange = services.table_open(by=rival, game="tile-rummy-rearrange", seat_count=2, bots=["easy"])
    services.table_start(table_id=rearrange.pk, by=rival)
    return {"player": player, "rival": rival, "guest": guest, "waiting": waiting, "playing": playing, "rearrange": rearrange, "match": match}


VISITOR_PAGES = [
    lambda s: reverse("home"),
    lambda s: reverse("catalog:index"),
    lambda s: reverse("catalog:rules", args=["tile-rummy"]),
    lambda s: reverse("catalog:rules", args=["tile-rummy-rearrange"]),
    lambda s: reverse("tables:lobby"),
    lambda s: reverse("leaderboards:index"),
    lambda s: reverse("leaderboards:game", args=["tile-rummy"]),
    lambda s: reverse("leaderboards:game", args=["tile-rummy-rearrange"]),
    lambda s: reverse("players:profile", args=["ileana"]),
    lambda s: reverse("tables:table", args=[s["waiting"].pk]),
    lambda s: reverse("tables:table", args=[s["playing"].pk]),
    lambda s: reverse("tables:table", args=[s["rearrange"].pk]),
    lambda s: reverse("tables:match", args=[s["match"].pk]),
    lambda s: reverse("tables:fair_deals"),
    lambda s: reverse("offline"),
    lambda s: reverse("account_login"),
    lambda s: reverse("account_signup"),
    lambda s: reverse("account_reset_password"),
    lambda s: reverse("account_reset_password_done"),
    lambda s: "/nu-exista/",
]


@pytest.mark.parametrize("page", VISITOR_PAGES)
def test_a_visitors_page_in_romanian_says_nothing_in_english(site, page):
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    url = page(site)
    response = client.get(url)
    assert response.status_code in (200, 404), url
    assert_romanian(response.content.decode(), url)


PLAYER_PAGES = [
    ("player", lambda s: reverse("players:profile", args=["ileana"])),
    ("player", lambda s: reverse("tables:table", args=[s["playing"].pk])),
    ("player", lambda s: reverse("account_email")),
    ("player", lambda s: reverse("account_change_password")),
    ("player", lambda s: reverse("account_logout")),
    ("guest", lambda s: reverse("accounts:guest_convert")),
    ("guest", lambda s: reverse("players:profile", args=["guest-7"])),
]


@pytest.mark.parametrize(("who", "page"), PLAYER_PAGES)
def test_a_signed_in_players_page_in_romanian_says_nothing_in_english(site, who, page):
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    client.force_login(site[who])
    url = page(site)
    response = client.get(url)
    assert response.status_code == 200, url
    assert_romanian(response.content.decode(), url)


def test_a_form_error_is_in_romanian(site):
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    response = client.post(reverse("account_login"), {"login": "ileana", "password": "wrong"})
    page = response.content.decode()
    assert "Numele de utilizator sau parola nu sunt corecte." in page
    assert_romanian(page, "login with a wrong password")
    response = client.post(reverse("account_signup"), {"username": "maria", "email": "x", "password1": "1", "password2": "2"})
    assert_romanian(response.content.decode(), "a sign-up with every field wrong")


def test_the_e_mails_the_site_sends_are_in_romanian(site, mailoutbox):
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    site["player"].email = "ileana@example.com"
    site["player"].save()
    client.post(reverse("account_reset_password"), {"email": "ileana@example.com"})
    client.post(reverse("account_reset_password"), {"email": "nobody@example.com"})  # no account: says so by mail
    assert len(mailoutbox) == 2
    for message in mailoutbox:
        text = re.sub(r"https?://\S+", "", f"{message.subject}\n{message.body}")
        assert not english_in(text), text


def test_dates_and_numbers_are_written_the_romanian_way(site):
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    rules = client.get(reverse("catalog:rules", args=["tile-rummy"])).content.decode()
    months = "ianuarie|februarie|martie|aprilie|mai|iunie|iulie|august|septembrie|octombrie|noiembrie|decembrie"
    assert re.search(rf"Actualizat la \d{{1,2}} ({months}) \d{{4}}\.", rules)
    profile = client.get(reverse("players:profile", args=["ileana"])).content.decode()
    assert re.search(rf"Joacă din ({months}) \d{{4}}", profile)
    assert re.search(r"\b\d{2}\.\d{2}\.\d{4}\b", profile)  # the matches' short dates: 01.12.2026


def test_the_replay_page_and_its_review_are_in_romanian():
    game = finished_game()
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    response = client.get(reverse("review:replay", args=[game.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Partida, mutare cu mutare" in page
    assert_romanian(page, "the replay page")


#: What Django's own Romanian writes and the site never says: the formal register (*dumneavoastră*),
#: "email" for the site's "e-mail", and the slips of its password rules (issue 41, item 11).
FORMAL = re.compile(r"dumneavoastră|Vă rugăm|\bvă\b|Introduceți|Asigurați|Selectați|Verificați|Acestă|\bsa fie\b|nume utilizator|(?<!/)\bemail\b(?!/)")  # (not the /accounts/email/ link)


def test_the_sign_up_errors_speak_to_the_player_with_tu(site):
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    cases = [
        ({"username": "maria pop", "email": "x", "password1": "1", "password2": "2"},
         ["Scrie o adresă de e-mail validă.",
          "Scrie un nume de utilizator valid: poate conține doar litere, cifre și caracterele @/./+/-/_.",
          "Parola are doar cifre: adaugă și litere.",
          "Parola nu poate semăna prea mult cu celelalte date ale tale."]),
        ({"username": "m" * 160, "email": "maria@example.com", "password1": "a long passphrase 42", "password2": "a long passphrase 42"},
         ["Poate avea cel mult 150 de caractere (acum are 160)."]),
        ({"username": "mariapop", "email": "maria@example.com", "password1": "mariapop1", "password2": "mariapop1"},
         ["Parola seamănă prea mult cu datele contului tău (nume de utilizator)."]),
    ]
    for data, said in cases:
        page = client.post(reverse("account_signup"), data).content.decode()
        text = shown_text(page)
        for sentence in said:
            assert sentence in text, (sentence, text[:2000])
        assert not FORMAL.findall(text), FORMAL.findall(text)
        assert_romanian(page, "a sign-up with errors")


def test_the_password_change_and_e_mail_pages_speak_to_the_player_with_tu(site):
    client = Client(HTTP_ACCEPT_LANGUAGE="ro")
    client.force_login(site["player"])
    page = client.post(reverse("account_change_password"), {"oldpassword": "wrong", "password1": "123", "password2": "1234"}).content.decode()
    text = shown_text(page)
    assert "Parola e prea scurtă. Trebuie să aibă cel puțin 8 caractere." in text
    assert not FORMAL.findall(text), FORMAL.findall(text)
    page = client.post(reverse("account_email"), {"action_add": "", "email": "bad"}).content.decode()
    text = shown_text(page)
    assert "Scrie o adresă de e-mail validă." in text
    assert not FORMAL.findall(text), FORMAL.findall(text)


def test_a_romanian_players_mail_comes_from_remi_pe_tabla_in_romanian_whatever_page_sent_it(site, mailoutbox, settings):
    settings.DEFAULT_FROM_EMAIL = "Tile Rummy <noreply@example.com>"
    site["player"].email = "ileana@example.com"
    site["player"].language = "ro"
    site["player"].save()
    site["rival"].email = "radu@example.com"
    site["rival"].language = "en"
    site["rival"].save()
    Client(HTTP_ACCEPT_LANGUAGE="en").post(reverse("account_reset_password"), {"email": "ileana@example.com"})
    Client(HTTP_ACCEPT_LANGUAGE="ro").post(reverse("account_reset_password"), {"email": "radu@example.com"})
    Client(HTTP_ACCEPT_LANGUAGE="ro").post(reverse("account_reset_password"), {"email": "nobody@example.com"})
    romanian, english, unknown = mailoutbox
    assert romanian.from_email == "Remi pe tablă <noreply@example.com>"
    assert not english_in(re.sub(r"https?://\S+", "", f"{romanian.subject}\n{romanian.body}"))
    assert english.from_email == "Tile Rummy <noreply@example.com>"
    assert "password" in english.body.lower()
    assert unknown.from_email == "Remi pe tablă <noreply@example.com>"  # no account: the page's language
    settings.DEFAULT_FROM_EMAIL = "Remi Club <club@example.com>"  # another sender's name is left as it is
    Client(HTTP_ACCEPT_LANGUAGE="ro").post(reverse("account_reset_password"), {"email": "ileana@example.com"})
    assert mailoutbox[-1].from_email == "Remi Club <club@example.com>"
