"""docker/compose.yaml as Docker Compose reads it (no engine runs here: `config` only): every service, the
secrets it refuses to start without, healthchecks, and a proxy address the site trusts and nothing else."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
REQUIRED = {
    "SECRET_KEY": "x" * 60,
    "SITE_HOST": "rummy.example.com",
    "POSTGRES_PASSWORD": "a-long-random-password",
    "EMAIL_URL": "smtp+tls://mailer:secret@smtp.example.com:587",
}
APP_SERVICES = ("migrate", "web", "worker", "beat")


def compose_command() -> list[str] | None:
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    return [legacy] if legacy else None


def compose(*args: str, **variables: str) -> subprocess.CompletedProcess[str]:
    command = compose_command()
    if command is None:
        pytest.skip("neither `docker compose` nor `docker-compose` is installed (.ci/run installs docker-compose)")
    environment = {k: v for k, v in os.environ.items() if k not in REQUIRED and not k.startswith(("SECURE_", "DATABASE_"))}
    environment.update(variables)
    return subprocess.run(
        [*command, "-f", "docker/compose.yaml", *args], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60
    )


@pytest.fixture(scope="module")
def config() -> dict:
    result = compose("config", **REQUIRED)
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)


def test_the_compose_file_is_valid_and_has_every_service(config):
    assert set(config["services"]) == {"postgres", "redis", "migrate", "web", "worker", "beat", "proxy", "backup"}


@pytest.mark.parametrize("name", sorted(REQUIRED))
def test_the_compose_file_refuses_to_start_without_a_required_setting(name):
    result = compose("config", **{k: v for k, v in REQUIRED.items() if k != name})
    assert result.returncode != 0
    assert name in result.stderr


def test_postgres_and_the_site_share_the_password_given_and_no_default(config):
    services = config["services"]
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"] == REQUIRED["POSTGRES_PASSWORD"]
    for name in APP_SERVICES:
        assert services[name]["environment"]["DATABASE_URL"] == "postgres://rummy:a-long-random-password@postgres:5432/rummy"
    assert services["backup"]["environment"]["PGPASSWORD"] == REQUIRED["POSTGRES_PASSWORD"]


def test_the_https_settings_pass_through_with_a_first_deploys_defaults(config):
    env = config["services"]["web"]["environment"]
    assert (env["SECURE_SSL_REDIRECT"], env["SECURE_HSTS_PRELOAD"], env["SECURE_HSTS_SECONDS"]) == ("1", "0", "3600")
    assert env["EMAIL_URL"] == REQUIRED["EMAIL_URL"]
    later = compose("config", **REQUIRED, SECURE_SSL_REDIRECT="0", SECURE_HSTS_PRELOAD="1", SECURE_HSTS_SECONDS="31536000")
    env = yaml.safe_load(later.stdout)["services"]["web"]["environment"]
    assert (env["SECURE_SSL_REDIRECT"], env["SECURE_HSTS_PRELOAD"], env["SECURE_HSTS_SECONDS"]) == ("0", "1", "31536000")


def test_the_site_trusts_exactly_the_proxys_fixed_address(config):
    services = config["services"]
    proxy_address = services["proxy"]["networks"]["default"]["ipv4_address"]
    for name in APP_SERVICES:
        assert services[name]["environment"]["TRUSTED_PROXIES"] == proxy_address
    pool = config["networks"]["default"]["ipam"]["config"][0]
    assert proxy_address.startswith(pool["subnet"].rsplit(".", 1)[0] + ".")
    assert int(proxy_address.rsplit(".", 1)[1]) < 128  # outside ip_range (.128/25), where Docker hands out the rest


def test_daphne_never_takes_forwarded_headers_from_anyone(config):
    assert "--proxy-headers" not in config["services"]["web"]["command"]
    commands = [line for line in (ROOT / "docker" / "Dockerfile").read_text().splitlines() if line.startswith("CMD")]
    assert commands and all("--proxy-headers" not in line for line in commands)


def test_the_proxy_publishes_http_and_https_and_nothing_else_is_published(config):
    services = config["services"]
    published = {name: service.get("ports", []) for name, service in services.items() if service.get("ports")}
    assert set(published) == {"proxy"}
    targets = {str(port["target"] if isinstance(port, dict) else port).split(":")[-1].split("/")[0] for port in published["proxy"]}
    assert targets == {"80", "443"}


@pytest.mark.parametrize("name", ["web", "worker", "beat", "proxy", "postgres", "redis"])
def test_every_long_running_service_has_a_healthcheck(config, name):
    assert config["services"][name]["healthcheck"]["test"]


def test_the_web_healthcheck_asks_liveness_and_the_proxy_waits_for_a_healthy_web(config):
    assert "/livez" in " ".join(config["services"]["web"]["healthcheck"]["test"])
    assert config["services"]["proxy"]["depends_on"]["web"]["condition"] == "service_healthy"


def test_the_worker_counts_metrics_across_its_children(config):
    worker = config["services"]["worker"]
    assert worker["environment"]["PROMETHEUS_MULTIPROC_DIR"] == "/tmp/prometheus"
    assert worker["environment"]["METRICS_PORT"] == "9100"
    assert "PROMETHEUS_MULTIPROC_DIR" not in config["services"]["web"]["environment"]  # one process per replica


def test_the_backup_job_runs_the_backup_script_on_the_database(config):
    backup = config["services"]["backup"]
    assert backup["command"] == ["backup.sh", "loop"]
    assert backup["environment"]["PGHOST"] == "postgres"
    assert any("/usr/local/bin/backup.sh" in str(volume) for volume in backup["volumes"])  # docker/backup.sh, mounted
