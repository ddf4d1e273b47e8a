"""`companion serve` when it cannot serve: one clear line, and the game journal it opened is closed."""
import argparse
import socket
import sqlite3
from pathlib import Path

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
        with pytest.raises(CliError, match=rf"cannot listen on 127.0.0.1:{port}: .*choose another with --port"):
            cli_serve.run(_args(tmp_path, port))
    assert len(stopped) == 1
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        stopped[0].journal.meta("current_game")


def without_root_rights(*rights: str) -> list[str]:
    """The command prefix that runs a command as a login on a Pi would: without `rights` (capabilities) when
    the tests run as root, as is; skipped when root cannot drop them."""
    import os
    import shutil

    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv, which would drop root's rights")
    return ["setpriv", "--bounding-set=" + ",".join(f"-{right}" for right in rights)]


def record_by_hand(prefix: list[str], tmp_path, *options: str):
    import subprocess
    import sys

    settings = tmp_path / "companion.toml"
    settings.write_text('[service]\nhost = "127.0.0.1"\nport = 80\nmdns = false\n[sensors]\nbackend = "none"\n')
    return subprocess.run([*prefix, sys.executable, "-m", "companion", "record", "--out", str(tmp_path / "bug"),
                           "--settings", str(settings), *options], capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parents[2])


def test_recording_by_hand_on_the_services_port_80_says_to_add_a_port(tmp_path):
    """On a Pi the settings say port 80, which only the service may open (systemd gives it the right):
    `companion record --out ~/bug` run by hand, with the service stopped, was refused with a bare "Permission
    denied"."""
    import os

    if os.geteuid() != 0 and int(Path("/proc/sys/net/ipv4/ip_unprivileged_port_start").read_text()) <= 80:
        pytest.skip("this machine lets every user open port 80")
    done = record_by_hand(without_root_rights("net_bind_service"), tmp_path, "--state-dir", str(tmp_path / "games"))
    assert done.returncode == 2 and not (tmp_path / "bug").exists(), done.stderr
    assert done.stderr.strip().startswith("companion record: cannot listen on 127.0.0.1:80: Permission denied; ")
    assert "add --port 8080" in done.stderr


def test_recording_by_hand_in_the_services_games_folder_says_to_use_a_folder_of_ones_own(tmp_path):
    """On a Pi the games folder is the service's (/var/lib/companion, its journal writable by the service
    alone): `companion record` run by hand there was refused with "check its permissions" only."""
    from companion.table.journal import Journal

    games = tmp_path / "services-games"
    Journal(games).close()
    for path in games.iterdir():
        path.chmod(0o440)
    games.chmod(0o550)
    try:
        done = record_by_hand(without_root_rights("dac_override", "dac_read_search", "fowner"), tmp_path,
                              "--state-dir", str(games), "--port", "0")
    finally:
        games.chmod(0o750)
    assert done.returncode == 2 and not (tmp_path / "bug").exists(), done.stderr
    assert done.stderr.strip().startswith(f"companion record: the state directory {games} cannot be written")
    assert done.stderr.strip().endswith("run by hand with a folder of your own: --state-dir DIR")


@pytest.mark.parametrize("stop_signal", ["SIGTERM", "SIGINT"])
def test_the_service_stops_at_once_with_pages_open(tmp_path, stop_signal):
    """`systemctl stop` (SIGTERM) or Ctrl-C while phones have the page open: waitress's loop ran while any page
    was connected, so the companion kept serving until systemd killed it 90 s later."""
    import signal

    from companion.web.sse_client import SSEClient
    from tests.web.conftest import CompanionProcess

    companion = CompanionProcess(tmp_path)
    pages = []
    service = companion.start()
    try:
        pages = [SSEClient(companion.base + "/events") for _ in range(4)]
        for page in pages:
            assert page.next_state()["game"] is None
        service.send_signal(getattr(signal, stop_signal))
        service.wait(30)
        assert service.returncode == 0 and "Traceback" not in companion.errors(), companion.errors()
        for page in pages:
            list(page.events())  # what was sent before the stop, then the end (a read timeout if still open)
    finally:
        for page in pages:
            page.close()
        if service.poll() is None:
            service.kill()
            service.wait()


def test_a_service_the_tests_start_cannot_lose_its_port_to_another_program(tmp_path, monkeypatch):
    """The tests' own `companion serve` was given a free port found by binding and letting go of it: on a shared CI
    machine another program could take that port before the service bound it, and the test failed on a service
    that had ended. The window is forced here: a port the service is told to use is taken just before it starts."""
    import subprocess
    import urllib.request

    from tests.web.conftest import CompanionProcess

    launch, taken = subprocess.Popen, []

    def another_program_first(argv, env=None, **options):
        port = int((env or {}).get("COMPANION_SERVICE_PORT", "0"))
        if port:
            squatter = socket.socket()
            squatter.bind(("127.0.0.1", port))
            squatter.listen()
            taken.append(squatter)
        return launch(argv, env=env, **options)

    monkeypatch.setattr(subprocess, "Popen", another_program_first)
    companion = CompanionProcess(tmp_path)
    service = companion.start()
    try:
        assert service.poll() is None, "the service is running"
        with urllib.request.urlopen(companion.base + "/api/health", timeout=10) as reply:
            assert reply.status == 200
    finally:
        service.terminate()
        service.wait(20)
        for squatter in taken:
            squatter.close()


def test_a_restart_whose_port_another_program_took_says_so(tmp_path):
    """A test that restarts the service needs its page at the same address; should another program take the port
    in the moment between the stop and the start, the test fails saying that, not on a page that never answers."""
    from tests.web.conftest import CompanionProcess

    companion = CompanionProcess(tmp_path)
    companion.RESTART_TRIES = 1
    service = companion.start()
    service.terminate()
    service.wait(20)
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", companion.port))
        squatter.listen()
        with pytest.raises(AssertionError, match=rf"cannot start again on port {companion.port}: another program"):
            companion.start()


def test_a_demo_on_a_full_card_says_there_is_no_room_and_the_journal_is_closed(tmp_path, monkeypatch):
    """The demo writes its games into the state directory the first time: a card with no room for them is said in
    one line, not a traceback with the page left half started."""
    import errno
    import os

    from companion.table import demo

    def no_room(*_, **__):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setenv("COMPANION_SERVICE_MDNS", "off")
    monkeypatch.setattr(demo, "write_bytes", no_room)
    stopped = []
    monkeypatch.setattr(Service, "stop", lambda self, _stop=Service.stop: (stopped.append(self), _stop(self))[1])
    args = _args(tmp_path, 0)
    args.demo = True
    with pytest.raises(CliError, match=r"the demo's games cannot be written: no room left where the games are kept "
                                       rf"\({tmp_path / 'state'}.*\): free some space"):
        cli_serve.run(args)
    assert len(stopped) == 1
    with pytest.raises(sqlite3.ProgrammingError, match="closed database"):
        stopped[0].journal.meta("current_game")
