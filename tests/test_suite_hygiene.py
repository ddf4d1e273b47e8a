"""The suite itself: its verdict depends on the code, not on the contributor's shell or the machine's settings,
and a project module that cannot be imported fails the run instead of skipping its tests."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion import config

TESTS = Path(__file__).resolve().parent
# Every dependency in pyproject.toml: a test file must fail, not skip, when one of these cannot be imported.
HARD_DEPENDENCIES = ("companion", "cv2", "numpy", "flask", "waitress", "gpiozero", "serial", "segno", "onnxruntime")


def test_a_contributors_companion_variables_do_not_change_the_suites_verdict(tmp_path):
    """README: COMPANION_<SECTION>_<KEY> variables override the settings. One a contributor exported for the demo
    (here the sensors' backend), or a COMPANION_SETTINGS of their own, is not the suite's business."""
    own = tmp_path / "mine.toml"
    own.write_text('[sensors]\nbackend = "mock"\n')
    env = {**os.environ, "COMPANION_SENSORS_BACKEND": "mock", "COMPANION_SETTINGS": str(own)}
    proc = subprocess.run([sys.executable, "-m", "pytest", "tests/pi/test_doctor.py", "-q", "-p", "no:cacheprovider",
                           "-k", "hub_missing_and_found or bad_pin_map_names_the_problem"],
                          cwd=TESTS.parent, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-2000:]


def test_the_services_the_tests_start_read_no_settings_file_of_the_machine(tmp_path, monkeypatch):
    """On a Pi where the service is installed, /etc/companion/companion.toml exists: a service the tests start
    must not take its port, camera or pin map from there."""
    from tests.web.conftest import CompanionProcess

    machines = tmp_path / "etc-companion.toml"
    machines.write_text('[camera]\nsettle_ms = 1234\n')
    monkeypatch.setattr(config, "SYSTEM_SETTINGS", machines)
    (tmp_path / "games").mkdir()
    monkeypatch.setattr(os, "environ", CompanionProcess(tmp_path).env)
    assert config.load_settings(config.settings_file())["camera"]["settle_ms"] != 1234


def test_commands_a_test_runs_read_the_tests_settings_not_the_machines(tmp_path):
    """On a Pi where the service is installed, /etc/companion/companion.toml exists: a command a test runs in its
    own process (run_cli, cli.main, load_settings(settings_file())) or starts as a process of its own with the
    test's environment must read the tests' settings, not the service's port, camera, pin map or folder."""
    from tests.conftest import NO_SETTINGS

    assert config.settings_file() == NO_SETTINGS
    assert not config.SYSTEM_SETTINGS.exists() and config.SYSTEM_SETTINGS != Path("/etc/companion/companion.toml")
    assert config.default_state_dir() != config.SERVICE_STATE_DIR
    said = "from companion.config import settings_file; print(settings_file())"
    started = subprocess.run([sys.executable, "-c", said], cwd=TESTS.parent, capture_output=True, text=True, timeout=60)
    assert started.stdout.strip() == str(NO_SETTINGS), started.stdout + started.stderr


def needed_distributions(name: str, extras: tuple[str, ...] = ()) -> set[str]:
    """The normalized names of `name` and every distribution it needs here (markers evaluated), with `extras`."""
    from importlib.metadata import distribution

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    found: set[str] = set()
    wanted = [(name, extras)]
    while wanted:
        name, extras = wanted.pop()
        if canonicalize_name(name) in found:
            continue
        found.add(canonicalize_name(name))
        for line in distribution(name).requires or []:
            requirement = Requirement(line)
            marker = requirement.marker
            if marker is None or any(marker.evaluate({"extra": extra}) for extra in ("", *extras)):
                wanted.append((requirement.name, tuple(requirement.extras)))
    return found


def pinned(constraints: Path) -> dict[str, str]:
    """{normalized name: its line} for every line of a constraints file and the files it names with -c."""
    from packaging.utils import canonicalize_name

    pins = {}
    for line in constraints.read_text().splitlines():
        line = line.split("#")[0].strip()
        if line.startswith("-c "):
            pins.update(pinned(constraints.parent / line[3:].strip()))
        elif line:
            pins[canonicalize_name(re.split(r"[<>=!~ ;]", line)[0])] = line
    return pins


@pytest.mark.parametrize("constraints", ["constraints.txt", "constraints-bookworm.txt"])
def test_every_package_the_tests_install_has_its_version_pinned(constraints):
    """CI installs on a fresh machine: a package left to pip's newest (Flask, pytest, Playwright, onnxruntime or one
    of theirs) could turn the suite red overnight with no change of ours. Each round pins every package the companion
    and its test tools install; numpy and OpenCV as that round needs them."""
    pins = pinned(TESTS / constraints)
    ours = {"companion"}
    loose = sorted((needed_distributions("companion", ("dev",)) | {"pip"}) - ours - pins.keys())
    assert loose == [], f"not pinned in tests/{constraints}: {loose}"
    other_rounds = {"numpy", "opencv-python-headless"}
    assert all("==" in line for name, line in pins.items() if name not in other_rounds), pins


def test_no_test_file_skips_when_the_project_or_a_dependency_fails_to_import():
    """pytest.importorskip of the project's own modules or of a hard dependency turns an ImportError (a typo, a
    numpy-2-only call in the Bookworm run, an OpenCV built for another numpy) into a green 'skipped'."""
    skipped = "|".join(re.escape(name) for name in HARD_DEPENDENCIES)
    pattern = re.compile(rf"importorskip\(\s*[\"']({skipped})[\"'.]")
    hits = [f"{path.relative_to(TESTS.parent)}:{n}: {line.strip()}"
            for path in sorted(TESTS.rglob("*.py"))
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if pattern.search(line)]
    assert hits == [], "\n".join(hits)
