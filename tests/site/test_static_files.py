"""With DEBUG off the pages link static files through collectstatic's manifest: a process without it
stops at start and says what to run, instead of answering 500 on /play/ (rummysite/checks.py; issue 40,
section 7)."""

from __future__ import annotations

from tests.site.processes import PRODUCTION, manage, python, shell


def production(tmp_path, **more: str) -> dict[str, str]:
    return {**PRODUCTION, "ALLOWED_HOSTS": "rummy.example.com,testserver", "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'site.sqlite3'}", "STATIC_ROOT": str(tmp_path / "static"), **more}


def test_without_collected_static_files_the_checks_and_the_web_process_stop_with_the_command_to_run(tmp_path):
    env = production(tmp_path)
    checked = manage(["check"], **env)
    assert checked.returncode != 0
    assert "rummysite.E001" in checked.stderr and "collectstatic" in checked.stderr
    started = python("import rummysite.asgi", **env)  # what daphne imports first
    assert started.returncode != 0
    assert "ImproperlyConfigured" in started.stderr and "manage.py collectstatic --noinput" in started.stderr


def test_collectstatic_itself_is_not_stopped_and_afterwards_the_site_starts_and_play_answers(tmp_path):
    env = production(tmp_path)
    collected = manage(["collectstatic", "--noinput", "-v", "0"], **env)
    assert collected.returncode == 0, collected.stderr
    assert (tmp_path / "static" / "staticfiles.json").exists()
    assert manage(["check"], **env).returncode == 0
    assert manage(["migrate", "--noinput", "-v", "0"], **env).returncode == 0
    code = """
        import rummysite.asgi  # starts, now that the manifest is there
        from django.test import Client
        print([Client().get(path).status_code for path in ("/play/", "/")])
    """
    assert shell(code, **env) == [200, 200]


def test_with_debug_on_no_manifest_is_needed():
    assert manage(["check"], DEBUG="1").returncode == 0


def test_a_run_only_this_machine_can_reach_is_warned_and_goes_on(tmp_path):
    """The bench's stack (bench/stack.py: DEBUG off, loopback hosts, sockets and no pages) starts as before."""
    env = production(tmp_path, ALLOWED_HOSTS="127.0.0.1,localhost")
    checked = manage(["check"], **env)
    assert checked.returncode == 0 and "rummysite.W001" in checked.stderr
    assert python("import rummysite.asgi", **env).returncode == 0
