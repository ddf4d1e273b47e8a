import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
# The settings file of every service a test starts: a comment only, so no setting comes from the machine's
# /etc/companion/companion.toml (an empty COMPANION_SETTINGS means "unset" and would fall back to it).
NO_SETTINGS = ROOT / "tests" / "no-settings.toml"


def is_a_setting(name: str) -> bool:
    """COMPANION_SETTINGS and COMPANION_<SECTION>_<KEY> (as companion.config reads them), not the suite's own
    one-word knobs COMPANION_PLAYOUTS and COMPANION_BOOKWORM."""
    return name == "COMPANION_SETTINGS" or (name.startswith("COMPANION_") and name.count("_") >= 2)


@pytest.fixture(autouse=True)
def state_outside_home(tmp_path_factory, monkeypatch):
    """The default state directory of every test is its own, never the real ~/.local/state/companion; no
    setting comes from the contributor's shell; and no command a test runs, in its process or in one it starts
    with its environment, reads a Pi's /etc/companion/companion.toml or uses the service's /var/lib/companion.
    A test of the fallback to the machine's file sets SYSTEM_SETTINGS and unsets COMPANION_SETTINGS itself."""
    from companion import config

    machine = tmp_path_factory.mktemp("machine")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    for name in [name for name in os.environ if is_a_setting(name)]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("COMPANION_SETTINGS", str(NO_SETTINGS))
    monkeypatch.setattr(config, "SYSTEM_SETTINGS", machine / "etc-companion.toml")
    monkeypatch.setattr(config, "SERVICE_STATE_DIR", machine / "var-lib-companion")


@pytest.fixture
def run_cli(capsys):
    """Run `companion ARGS...` in-process; returns (exit code, stdout, stderr)."""
    from companion.cli import main

    def run(*args: str):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code
        out, err = capsys.readouterr()
        return code, out, err

    return run
