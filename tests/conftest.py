import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(autouse=True)
def state_outside_home(tmp_path_factory, monkeypatch):
    """The default state directory of every test is its own, never the real ~/.local/state/companion."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state-home")))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)


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
