"""The deployment files an admin copies (``Dockerfile``, ``compose.yaml``, ``deploy/tabletop-bot.service``) agree with
the README's install and settings and with the bot's: every setting they set is one of :class:`bot.config.Settings`,
the health check is ``/readyz`` on the port the listener serves, the bot waits for a healthy PostgreSQL, the store and
the replay files are on volumes, the unit has its working directory, restart and stop timeout. ``systemd-analyze
verify`` checks the unit where it is installed; a container build runs only where an image registry is reachable
(each skipped with one line otherwise)."""

from __future__ import annotations

import configparser
import json
import re
import shlex
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from bot.config import Settings

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
SETTINGS = {name.upper() for name in Settings.model_fields}
STOP_NEEDS_S = 2
"""What the bot needs to stop (README "Stopping"): every stop timeout gives it more."""


def dockerfile() -> list[tuple[str, str]]:
    """The Dockerfile's instructions: (keyword, arguments), continuation lines joined, comments dropped."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1] if " " in line else "") for line in lines]


def instruction(keyword: str) -> list[str]:
    return [args for key, args in dockerfile() if key == keyword]


def image_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for args in instruction("ENV"):
        env.update(part.split("=", 1) for part in shlex.split(args))
    return env


def compose() -> dict:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str  # systemd's keys are case-sensitive
    parser.read(ROOT / "deploy" / "tabletop-bot.service")
    return parser


def seconds(text: str) -> float:
    """``10s``, ``1m30s``, ``10`` -> seconds."""
    found = re.fullmatch(r"(?:(\d+)m)?(?:(\d+)s?)?", str(text).strip())
    assert found, text
    return int(found[1] or 0) * 60 + int(found[2] or 0)


def test_the_image_installs_as_the_readme_says_and_runs_the_bot():
    [install] = [args for args in instruction("RUN") if "pip install" in args]
    command = re.search(r'pip install "[^"]+"', install)[0]
    assert command == 'pip install ".[postgres]"' and command in README
    assert json.loads(instruction("CMD")[-1]) == ["python", "-m", "bot", "run"]
    assert instruction("STOPSIGNAL") == ["SIGTERM"]
    assert instruction("USER") and instruction("USER")[-1] != "root"


def test_the_image_sets_known_settings_that_the_readme_names():
    env = {k: v for k, v in image_env().items() if not k.startswith(("PYTHON", "PIP_"))}
    assert set(env) <= SETTINGS
    assert env["DATABASE_PATH"].startswith("/data/") and env["IMAGES_DIR"].startswith("/data/")
    assert json.loads(instruction("VOLUME")[-1]) == ["/data"]
    for name, value in env.items():
        assert f"`{name}={value}`" in README, name


def test_the_images_health_check_is_readyz_on_the_listeners_port():
    [check] = instruction("HEALTHCHECK")
    assert "/readyz" in check and "HTTP_PORT" in check
    assert instruction("EXPOSE") == [image_env()["HTTP_PORT"]]


def test_compose_runs_the_bot_after_a_healthy_postgresql_with_volumes_and_readyz():
    spec = compose()
    postgres, bot = spec["services"]["postgres"], spec["services"]["bot"]
    assert postgres["healthcheck"]["test"][0] in ("CMD", "CMD-SHELL") and "pg_isready" in str(postgres["healthcheck"])
    assert bot["depends_on"] == {"postgres": {"condition": "service_healthy"}}
    env = bot["environment"]
    assert set(env) <= SETTINGS
    assert env["DATABASE_URL"].startswith("postgresql://") and "@postgres:5432/" in env["DATABASE_URL"]
    assert f":{env['HTTP_PORT']}/readyz" in " ".join(bot["healthcheck"]["test"])
    assert env["HTTP_HOST"] == "0.0.0.0"  # noqa: S104 - the container's own interface, for its health check
    volumes = {v.split(":")[0]: v.split(":")[1] for v in postgres["volumes"] + bot["volumes"]}
    assert volumes["store"] == "/var/lib/postgresql/data" and volumes["images"] == env["IMAGES_DIR"]
    assert set(spec["volumes"]) == {"store", "images"}
    assert bot["stop_signal"] == "SIGTERM" and seconds(bot["stop_grace_period"]) > STOP_NEEDS_S
    assert bot["restart"].startswith("on-failure") and bot["build"] == "."


def test_the_readme_takes_an_admin_through_each_way():
    for line in ("docker build -t tabletop-bot .", "docker compose up -d --build",
                 "sudo cp deploy/tabletop-bot.service /etc/systemd/system/",
                 "sudo systemctl enable --now tabletop-bot"):
        assert line in README, line
    assert "POSTGRES_PASSWORD" in README and "${POSTGRES_PASSWORD" in (ROOT / "compose.yaml").read_text()


def test_the_systemd_unit_has_its_directory_restart_and_stop_timeout():
    service = unit()["Service"]
    directory = service["WorkingDirectory"]
    assert directory == "/opt/tabletop-bot" and f"`{directory}`" in README
    assert service["ExecStart"] == f"{directory}/.venv/bin/python -m bot run"
    assert "sudo python3 -m venv .venv && sudo .venv/bin/pip install -q \".[postgres]\"" in README
    assert service["EnvironmentFile"] == f"{directory}/.env"
    assert service["Restart"] == "on-failure" and "`Restart=on-failure`" in README
    assert STOP_NEEDS_S < seconds(service["TimeoutStopSec"]) and f"`TimeoutStopSec={service['TimeoutStopSec']}`" \
        in README
    assert service["KillSignal"] == "SIGTERM" and service["KillMode"] == "mixed"  # the bot stops its own workers
    assert service["RestartPreventExitStatus"].split() == ["2", "3", "4"]  # bad settings, token, intents
    assert f"`{service['User']}`" in README


def test_systemd_analyze_verifies_the_unit(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed: the unit is not verified here")
    text = (ROOT / "deploy" / "tabletop-bot.service").read_text()
    text = text.replace("/opt/tabletop-bot/.venv/bin/python", sys.executable).replace("/opt/tabletop-bot",
                                                                                   str(tmp_path))
    (tmp_path / ".env").write_text("")
    copy = tmp_path / "tabletop-bot.service"
    copy.write_text(text)
    done = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=120)
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def registry_reachable() -> bool:
    try:
        socket.create_connection(("registry-1.docker.io", 443), timeout=3).close()
    except OSError:
        return False
    return True


def test_the_container_builds():
    docker = shutil.which("docker")
    if docker is None or not registry_reachable():
        pytest.skip("no image registry reachable (or no docker): the container build is not tried here")
    done = subprocess.run([docker, "build", "-q", "-t", "tabletop-bot-test", str(ROOT)], capture_output=True,
                          text=True, timeout=1800)
    assert done.returncode == 0, done.stderr
