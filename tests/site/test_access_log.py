"""Daphne's access log never keeps a private table's invite token (apps/live/daphne.py; issue 40, section
5): the link `?invite=TOKEN` is the key to the table, and logs are read by more people than its host."""

from __future__ import annotations

import io
import os
import urllib.error
import urllib.request

from daphne.access import AccessLogGenerator
from daphne.server import Server

from apps.live.daphne import INVITE_PLACEHOLDER, let_access_logs_hide_invites, without_invites
from tests.live_site import daphne, migrate, problems_in

TOKEN = "Zq8xVbN3kLm0Pw7tRy2sUd4fGh6jKa9c"


def test_an_invite_value_is_replaced_wherever_it_is_in_the_query():
    assert without_invites(f"/tables/7/?invite={TOKEN}") == "/tables/7/?invite=HIDDEN"
    assert without_invites(f"/ws/tables/7/?chat=1&invite={TOKEN}&presence=1") == "/ws/tables/7/?chat=1&invite=HIDDEN&presence=1"
    assert without_invites(f"/api/tables/7/?INVITE={TOKEN}#x") == "/api/tables/7/?INVITE=HIDDEN#x"
    assert without_invites("/tables/7/?uninvite=1&invited=2") == "/tables/7/?uninvite=1&invited=2"
    assert without_invites("/rules/") == "/rules/"


def test_daphnes_access_logger_is_given_the_path_without_the_token():
    let_access_logs_hide_invites()
    stream = io.StringIO()
    server = Server.__new__(Server)
    server.action_logger = AccessLogGenerator(stream)
    details = {"path": f"/tables/7/?invite={TOKEN}", "status": 200, "method": "GET", "client": "10.0.0.1:5", "size": 9}
    server.log_action("http", "complete", details)
    assert TOKEN not in stream.getvalue() and f"GET /tables/7/?invite={INVITE_PLACEHOLDER}" in stream.getvalue()
    assert details["path"].endswith(TOKEN)  # daphne's own dict is left as it was


def test_a_real_daphne_process_logs_requests_of_a_private_table_without_its_invite(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DJANGO_SETTINGS_MODULE", "SECRET_KEY"}}
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}", CELERY_EMBEDDED="0", LOG_LEVEL="WARNING",
               PYTHONUNBUFFERED="1", TABLE_WEB_HEARTBEAT="0")
    migrate(env)
    log = tmp_path / "daphne.log"
    with daphne(env, log) as address:
        for path in (f"/tables/1/?invite={TOKEN}", f"/api/tables/1/?chat=1&invite={TOKEN}"):
            try:
                urllib.request.urlopen(f"http://{address}{path}", timeout=30).close()
            except urllib.error.HTTPError as answer:  # no such table: 404, still written to the log
                assert answer.code == 404
    text = log.read_text(errors="replace")
    assert "/tables/1/?invite=HIDDEN" in text  # the access log is there, at daphne's default verbosity
    assert TOKEN not in text
    assert problems_in(log) == []
