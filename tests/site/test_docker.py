"""The production compose file is accepted by Docker Compose (no engine runs here: `config` only)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def test_the_compose_file_is_valid_and_has_every_service():
    command = compose_command()
    if command is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed (.ci/run installs it)")
    environment = {**os.environ, "SECRET_KEY": "x" * 60, "SITE_HOST": "rummy.example.com"}
    result = subprocess.run(
        [*command, "-f", "docker/compose.yaml", "config", "--services"],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert set(result.stdout.split()) == {"postgres", "redis", "migrate", "web", "worker", "beat", "proxy"}


def test_the_compose_file_refuses_to_start_without_a_secret_key():
    command = compose_command()
    if command is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed (.ci/run installs it)")
    environment = {k: v for k, v in os.environ.items() if k != "SECRET_KEY"}
    result = subprocess.run(
        [*command, "-f", "docker/compose.yaml", "config"], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr
