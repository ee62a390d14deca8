"""The backup and restore of docs/operations.md, run for real with docker/backup.sh and docker/restore.sh
against the local PostgreSQL: a database with rated matches is dumped, dropped, made again empty and
restored, and the site serves the same leaderboard from it."""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import textwrap
from pathlib import Path

import psycopg
import pytest

from rummysite import env
from tests.site.processes import manage

ROOT = Path(__file__).resolve().parents[2]
TOOLS = ("pg_dump", "pg_restore")

SEED = """
    from apps.leaderboards.services import rating_apply_match
    from tests.leaderboards.factories import finished_match, make_user
    ana, bogdan, carmen = (make_user(name) for name in ("ana", "bogdan", "carmen"))
    for players in ([(ana, 1), (bogdan, 2)], [(carmen, 1), (ana, 2)], [(ana, 1), (bogdan, 2), (carmen, 3)]):
        assert rating_apply_match(match_id=finished_match(players).pk)
"""
LEADERBOARD = """
    from django.test import Client
    response = Client().get("/leaderboards/tile-rummy/")
    assert response.status_code == 200, response.status_code
    print(response.content.decode())
"""


def postgres_settings() -> dict:
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        pytest.skip("needs PostgreSQL: set DATABASE_URL to a postgres:// URL (CI does)")
    missing = [tool for tool in TOOLS if shutil.which(tool) is None]
    if missing:
        pytest.skip(f"{', '.join(missing)} not installed (apt-get install postgresql-client)")
    return env.database_from_url(url)


def admin_connection(config: dict) -> psycopg.Connection:
    return psycopg.connect(
        host=config["HOST"], port=config["PORT"], user=config["USER"], password=config["PASSWORD"],
        dbname="postgres", autocommit=True,
    )


def site(config: dict, name: str, code: str, *args: str) -> str:
    """Run `code` (or `manage.py ARGS`) in a fresh process of the site whose database is `name`."""
    url = f"postgres://{config['USER']}:{config['PASSWORD']}@{config['HOST']}:{config['PORT']}/{name}"
    result = manage(list(args) or ["shell", "-c", textwrap.dedent(code)], DATABASE_URL=url)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def script(config: dict, name: str, *args: str, backup_dir: Path) -> str:
    environment = {
        **os.environ, "PGHOST": config["HOST"], "PGPORT": str(config["PORT"]), "PGUSER": config["USER"],
        "PGPASSWORD": config["PASSWORD"], "PGDATABASE": name, "BACKUP_DIR": str(backup_dir),
    }
    result = subprocess.run(["sh", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def leaderboard_rows(page: str) -> list[str]:
    """The leaderboard's table, row by row, as text (a page also carries a fresh CSRF token and the like)."""
    table = re.search(r"<table\b.*?</table>", page, re.S)
    assert table is not None, page[:500]
    return [" ".join(re.sub(r"<[^>]+>", " ", row).split()) for row in re.findall(r"<tr\b.*?</tr>", table.group(0), re.S)]


def test_a_dump_restored_into_an_empty_database_serves_the_same_leaderboard(tmp_path):
    config = postgres_settings()
    name = f"rummy_restore_{secrets.token_hex(4)}"
    with admin_connection(config) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        site(config, name, "", "migrate", "--noinput")
        site(config, name, SEED)
        before = leaderboard_rows(site(config, name, LEADERBOARD))
        assert len(before) == 4 and all(player in " ".join(before) for player in ("ana", "bogdan", "carmen"))

        written = script(config, name, "docker/backup.sh", "once", backup_dir=tmp_path)
        dumps = list(tmp_path.glob(f"{name}-*.dump"))
        assert len(dumps) == 1 and "backup: wrote" in written
        assert not list(tmp_path.glob("*.partial"))

        with admin_connection(config) as admin:  # the disaster: the database is gone
            admin.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
        assert "leaderboards_rating" not in site(config, name, "from django.db import connection; print(connection.introspection.table_names())")

        restored = script(config, name, "docker/restore.sh", str(dumps[0]), backup_dir=tmp_path)
        assert "restore: restored" in restored
        assert leaderboard_rows(site(config, name, LEADERBOARD)) == before
    finally:
        with admin_connection(config) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_restore_from_a_file_that_is_not_a_dump_changes_nothing(tmp_path):
    config = postgres_settings()
    bogus = tmp_path / "rummy-20261201T000000Z.dump"
    bogus.write_text("not a dump")
    environment = {**os.environ, "PGHOST": config["HOST"], "PGPORT": str(config["PORT"]), "PGUSER": config["USER"],
                   "PGPASSWORD": config["PASSWORD"], "PGDATABASE": "rummy_restore_never_touched"}
    result = subprocess.run(["sh", "docker/restore.sh", str(bogus)], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "restored" not in result.stdout
