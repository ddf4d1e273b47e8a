"""`companion serve` when it cannot serve: one clear line, and the game journal it opened is closed."""
import argparse
import socket
import sqlite3

import pytest

from companion.cli import CliError
from companion.table.service import Service
from companion.web import cli_serve


def _args(tmp_path, port, **extra):
    parser = argparse.ArgumentParser()
    cli_serve.add_arguments(parser)
    argv = ["--host", "127.0.0.1", "--port", str(port), "--state-dir", str(tmp_path / "state"),
            "--settings", ""] + [f"--{k}={v}" for k, v in extra.items()]
    return parser.parse_args(argv)


def test_a_busy_port_is_named_and_the_journal_is_closed(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_SERVICE_MDNS", "off")
    stopped = []
    monkeypatch.setattr(Service, "stop", lambda self, _stop=Service.stop: (stopped.append(self), _stop(self))[1])
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(CliError, match=rf"cannot listen on 127.0.0.1:{port}"):
            cli_serve.run(_args(tmp_path, port))
    assert len(stopped) == 1
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        stopped[0].journal.meta("current_game")
