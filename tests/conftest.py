import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


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
