"""Error reports (rummysite/error_reports.py) never carry hidden information or personal data, and logs
are JSON in production (rummysite/json_logs.py)."""

from __future__ import annotations

import json
import logging
import random
import sys

from apps.engine.game import get_rules
from rummysite import error_reports
from rummysite.json_logs import JsonFormatter
from tests.site.processes import PRODUCTION, python, shell

SEED = "9f" * 32


#: The start of a process that reports through the real SDK to an in-memory transport (`sent`): nothing
#: leaves the machine.
REPORTING = """
        import json, django
        django.setup()
        import sentry_sdk
        from sentry_sdk.transport import Transport
        from rummysite import error_reports

        sent = []
        class Kept(Transport):
            def capture_envelope(self, envelope):
                sent.extend(item.payload.json for item in envelope.items if item.payload.json)

        error_reports.init(dsn="https://public@sentry.invalid/1", transport=Kept)
"""


def rearrange_state():  # type: ignore[no-untyped-def]
    return get_rules("tile-rummy-rearrange").new_game(2, random.Random(7))


def test_the_scrubber_replaces_every_hidden_thing_and_keeps_the_rest():
    state = rearrange_state()
    event = {
        "event_id": "0123456789abcdef0123456789abcdef",
        "contexts": {"trace": {"trace_id": "fedcba9876543210fedcba9876543210"}},
        "exception": {"values": [{"type": "IllegalMove", "value": "r5 r6 J is not a run", "stacktrace": {"frames": [
            {"function": "game_move", "lineno": 12, "vars": {
                "state": repr(state), "after": repr(state), "rack": "[14, 21, 27]", "seat": 1, "table_id": 42,
                "payload": {"version": 3, "racks": [[1, 2]]}, "move": "'r5 r6 J'", "deal": {"pile": [1, 2, 3]},
            }},
        ]}}]},
        "breadcrumbs": {"values": [{"message": f"dealt with server_seed={SEED}"}, {"message": "table 42 v3"}]},
        "extra": {"celery-job": {"task_name": "tables.bot_turn", "args": [42], "kwargs": {"seed": SEED}}},
        "logentry": {"message": "pool: %s", "params": ["(82, 96, 41)"]},
    }
    scrubbed = error_reports.scrub(event)
    text = json.dumps(scrubbed)
    assert SEED not in text and "racks" not in text and "r5 r6 J" not in text and "82, 96, 41" not in text
    assert "(14, 21, 27" not in text and "[14, 21, 27]" not in text
    frame = scrubbed["exception"]["values"][0]["stacktrace"]["frames"][0]
    assert (frame["vars"]["seat"], frame["vars"]["table_id"], frame["function"]) == (1, 42, "game_move")
    assert frame["vars"]["after"] == error_reports.FILTERED  # a state's repr, whatever the variable's name
    assert scrubbed["breadcrumbs"]["values"][1]["message"] == "table 42 v3"
    assert scrubbed["exception"]["values"][0]["type"] == "IllegalMove"
    # Sentry's own ids stay as they are.
    assert scrubbed["event_id"] == event["event_id"]
    assert scrubbed["contexts"] == event["contexts"]


def test_an_exception_reported_through_sentry_carries_no_rack_pile_or_seed():
    """The real SDK, its Django and Celery integrations, a frame holding a whole game state: the event
    that would be sent (to an in-memory transport: nothing leaves the machine) is clean."""
    code = REPORTING + """
        import random
        from apps.engine.game import get_rules
        options = sentry_sdk.get_client().options
        assert options["send_default_pii"] is False and options["max_request_body_size"] == "never"

        def play(state, rack, server_seed):
            raise ValueError("the engine failed on seat 1")

        state = get_rules("tile-rummy-rearrange").new_game(2, random.Random(7))
        try:
            play(state, list(state.racks[0]), "9f" * 32)
        except ValueError:
            sentry_sdk.capture_exception()
        sentry_sdk.flush()
        print(json.dumps({"events": sent, "rack": list(state.racks[0]), "pool": list(state.pool[:5])}))
    """
    result = python(code)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout.strip().splitlines()[-1])
    events = [event for event in report["events"] if event.get("exception")]
    assert len(events) == 1
    text = json.dumps(events[0])
    assert "the engine failed on seat 1" in text  # the report is there and useful
    assert "9f" * 32 not in text and "racks" not in text
    assert ", ".join(map(str, report["rack"][:4])) not in text
    assert ", ".join(map(str, report["pool"])) not in text
    frames = events[0]["exception"]["values"][0]["stacktrace"]["frames"]
    assert {"state", "rack", "server_seed"} <= set(frames[-1]["vars"])
    assert all(frames[-1]["vars"][name] == error_reports.FILTERED for name in ("state", "rack", "server_seed"))


def test_setting_a_dsn_starts_reports_with_no_personal_data():
    code = "import json, sentry_sdk; o = sentry_sdk.get_client().options; print(json.dumps([sentry_sdk.get_client().is_active(), o['send_default_pii'], o['before_send'].__module__]))"
    assert shell(code, SENTRY_DSN="https://public@sentry.invalid/1") == [True, False, "rummysite.error_reports"]


def test_a_log_line_is_one_json_object_with_the_traceback_and_extra_fields():
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        record = logging.getLogger("rummysite.test").makeRecord(
            "rummysite.test", logging.ERROR, __file__, 1, "table %s failed", (42,), sys.exc_info(), extra={"table_id": 42}
        )
    line = JsonFormatter().format(record)
    entry = json.loads(line)
    assert "\n" not in line
    assert (entry["level"], entry["logger"], entry["message"], entry["table_id"]) == ("ERROR", "rummysite.test", "table 42 failed", 42)
    assert "RuntimeError: boom" in entry["exception"]
    assert entry["time"].endswith("+00:00")


def test_production_logs_json_and_a_laptop_plain_lines():
    code = "import json; from django.conf import settings as s; print(json.dumps([s.LOGGING['handlers']['console']['formatter'], s.CELERY_WORKER_HIJACK_ROOT_LOGGER]))"
    assert shell(code) == ["plain", True]
    assert shell(code, **PRODUCTION) == ["json", False]


def test_the_headers_of_an_asgi_scope_in_a_frame_are_scrubbed_by_name():
    """Issue 40: a consumer's or middleware's `scope` (a frame variable) carries the cookie and a bot's
    bearer token in its headers, a list of (bytes, bytes) pairs; Sentry writes them as "b'cookie'"."""
    scope = {
        "type": "websocket", "path": "/ws/table/42/",
        "headers": [["b'host'", "b'rummy.example'"], ["b'cookie'", "b'sessionid=s3cr3tsession; csrftoken=c5rf'"],
                    ["b'authorization'", "b'Bearer tok_abcdef'"], ["b'x-csrftoken'", "b'c5rf'"]],
        "cookies": {"sessionid": "s3cr3tsession"}, "session": "<SessionStore s3cr3tsession>",
    }
    raw = {"headers": [(b"cookie", b"sessionid=s3cr3tsession"), (b"host", b"rummy.example")]}
    extra = {"sessionid": "s3cr3tsession", "csrftoken": "c5rf", "token": "tok_abcdef", "url": "/t/1/?invite=inv1te"}
    event = {"exception": {"values": [{"stacktrace": {"frames": [{"vars": {"scope": scope, "raw": raw}}]}}]},
             "extra": extra}
    scrubbed = error_reports.scrub(event)
    text = json.dumps(scrubbed)
    assert not any(secret in text for secret in ("s3cr3tsession", "c5rf", "tok_abcdef", "inv1te"))
    frame_vars = scrubbed["exception"]["values"][0]["stacktrace"]["frames"][0]["vars"]
    assert frame_vars["scope"]["headers"][0] == ["b'host'", "b'rummy.example'"]  # the rest stays readable
    assert frame_vars["scope"]["path"] == "/ws/table/42/"
    assert frame_vars["raw"]["headers"][1] == ["host", "rummy.example"]


def test_a_reported_exception_in_a_socket_frame_carries_no_cookie_or_token():
    code = REPORTING + """

        def connect(scope):
            raise ValueError("the socket failed")

        scope = {"type": "websocket", "path": "/ws/nowhere/", "headers": [
            (b"host", b"rummy.example"), (b"cookie", b"sessionid=s3cr3tsession; csrftoken=c5rf"),
            (b"authorization", b"Bearer tok_abcdef")]}
        try:
            connect(scope)
        except ValueError:
            sentry_sdk.capture_exception()
        sentry_sdk.flush()
        print(json.dumps(sent))
    """
    result = python(code)
    assert result.returncode == 0, result.stderr
    events = [event for event in json.loads(result.stdout.strip().splitlines()[-1]) if event.get("exception")]
    assert len(events) == 1
    text = json.dumps(events[0])
    assert "the socket failed" in text and "/ws/nowhere/" in text
    assert "s3cr3tsession" not in text and "c5rf" not in text and "tok_abcdef" not in text
