"""Security headers on the pages, and templates and scripts that keep to what the policy allows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from apps.tables import services
from tests.tables.helpers import make_user

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE_DIRS = [ROOT / "templates", *sorted((ROOT / "apps").glob("*/templates"))]


def directives(header: str) -> dict[str, str]:
    return {part.split()[0]: " ".join(part.split()[1:]) for part in header.split(";") if part.strip()}


@pytest.fixture
def table_url(db):
    alice = make_user("alice")
    table = services.table_open(by=alice, game="tile-rummy", seat_count=2, bots=["easy"])
    services.table_start(table_id=table.pk, by=alice)
    return f"/t/{table.pk}/"


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/play/", "TABLE", "/healthz"])
def test_every_page_carries_a_strict_content_security_policy_and_the_other_security_headers(client, path, table_url):
    response = client.get(table_url if path == "TABLE" else path)
    assert response.status_code in (200, 503)  # healthz may report a dependency down; headers still count
    policy = directives(response.headers["Content-Security-Policy"])
    assert policy["default-src"] == "'self'"
    assert policy["script-src"] == "'self'" and policy["style-src"] == "'self'"
    assert policy["object-src"] == "'none'" and policy["frame-ancestors"] == "'none'" and policy["base-uri"] == "'none'"
    assert policy["connect-src"] == "'self' ws://testserver"
    assert "unsafe" not in policy["script-src"] + policy["style-src"] + policy["default-src"]
    assert "script-src-attr" not in policy and "script-src-elem" not in policy and "style-src-elem" not in policy
    assert policy["style-src-attr"] == "'unsafe-inline'"  # style attributes set by the site's own scripts
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert response.headers["Referrer-Policy"] == "same-origin"
    assert response.headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response.headers["Permissions-Policy"]


@pytest.mark.django_db
def test_over_https_the_websocket_origin_in_the_policy_is_wss(client):
    response = client.get("/", secure=True)
    assert directives(response.headers["Content-Security-Policy"])["connect-src"] == "'self' wss://testserver"


def template_files() -> list[Path]:
    return [path for directory in TEMPLATE_DIRS for path in directory.rglob("*.html")]


def test_templates_have_no_inline_script_style_or_event_handler_the_policy_would_block():
    """Scripts come from /static/ (`src=`); inline blocks only carry data (type="application/json").
    E-mail bodies (templates/**/email/) are no page: no policy applies in a mail client, which needs its
    styles inline, and their scripts and handlers are still refused."""
    problems = []
    for path in template_files():
        text = path.read_text()
        mail = "email" in path.relative_to(ROOT).parts
        for match in re.finditer(r"<script\b([^>]*)>", text, re.I):
            attributes = match.group(1)
            if "src=" not in attributes and not re.search(r'type=["\']application/(ld\+)?json["\']', attributes):
                problems.append(f"{path.relative_to(ROOT)}: inline script {match.group(0)}")
        for pattern, what in [
            (r"<style\b", "a <style> block"),
            (r"\sstyle\s*=", "a style= attribute"),
            (r"\son[a-z]+\s*=\s*[\"']", "an on...= event handler"),
            (r"javascript:", "a javascript: URL"),
        ]:
            if mail and what in ("a <style> block", "a style= attribute"):
                continue
            for match in re.finditer(pattern, text, re.I):
                line = text.count("\n", 0, match.start()) + 1
                problems.append(f"{path.relative_to(ROOT)}:{line}: {what}")
    assert problems == []


def test_the_sites_scripts_do_not_evaluate_strings():
    problems = []
    for path in sorted((ROOT / "static").rglob("*.js")):
        text = path.read_text()
        for pattern in (r"\beval\s*\(", r"new\s+Function\s*\(", r"set(Timeout|Interval)\s*\(\s*[\"'`]"):
            for match in re.finditer(pattern, text):
                problems.append(f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, match.start()) + 1}: {match.group(0)}")
    assert problems == []
