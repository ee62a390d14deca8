"""The installable site (rummysite/pwa.py): a valid web app manifest whose icons exist at the sizes it
declares, a service worker served for the whole site that keeps only the shell, and an offline page with
nothing of the visitor in it."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from django.urls import reverse

from tests.tables.helpers import make_user

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "static"

pytestmark = pytest.mark.django_db


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


def static_file(url: str) -> Path:
    assert url.startswith("/static/"), url
    return STATIC / url.removeprefix("/static/")


def test_the_manifest_names_the_app_starts_at_home_and_opens_standalone(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200 and response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert (manifest["name"], manifest["short_name"]) == ("Tile Rummy online", "Tile Rummy")
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone" and manifest["orientation"] == "any"
    assert re.fullmatch(r"#[0-9a-f]{6}", manifest["theme_color"]) and re.fullmatch(r"#[0-9a-f]{6}", manifest["background_color"])


def test_every_icon_of_the_manifest_exists_at_the_size_it_declares_with_a_maskable_one(client):
    icons = client.get("/manifest.webmanifest").json()["icons"]
    pngs = [icon for icon in icons if icon["type"] == "image/png"]
    for icon in pngs:
        width, height = png_size(static_file(icon["src"]))
        assert icon["sizes"] == f"{width}x{height}", icon
    sizes = {(icon["sizes"], icon["purpose"]) for icon in pngs}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    svg = [icon for icon in icons if icon["type"] == "image/svg+xml"]
    assert svg and static_file(svg[0]["src"]).read_text().lstrip().startswith("<svg")


def test_every_page_links_the_manifest_and_the_service_worker_registration(client):
    body = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in body
    assert 'src="/static/js/install.js"' in body and 'name="theme-color"' in body


def test_the_service_worker_is_served_for_the_whole_site_and_keeps_only_the_shell(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/" and response["Cache-Control"] == "no-cache"
    body = response.content.decode()
    config = json.loads(re.search(r"const CONFIG = (\{.*?\});", body).group(1))
    assert config["offline"] == reverse("offline")
    assert config["offline"] in config["shell"]
    others = [url for url in config["shell"] if url != config["offline"]]
    assert others and all(url.startswith("/static/") and static_file(url).is_file() for url in others)
    assert re.search(r'const CACHE = "tile-rummy-shell-[0-9a-f]{12}";', body)
    assert "__VERSION__" not in body and "{{" not in body


def test_the_offline_page_carries_nothing_of_the_visitor(client):
    client.force_login(make_user("ana"))
    response = client.get(reverse("offline"))
    body = response.content.decode()
    assert response.status_code == 200 and "You are offline" in body
    assert "ana" not in body and "csrfmiddlewaretoken" not in body


def test_the_manifest_and_the_service_worker_refuse_anything_but_a_get(client):
    assert client.post("/manifest.webmanifest").status_code == 405
    assert client.post("/sw.js").status_code == 405
