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
    """The default state directory of every test is its own, never the real ~/.local/state/companion; and no
    setting comes from the contributor's shell."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    for name in [name for name in os.environ if is_a_setting(name)]:
        monkeypatch.delenv(name)


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
