import threading
import types

import pytest

from companion.table.journal import Journal
from companion.table.owner import Table
from tests.conftest import NO_SETTINGS


@pytest.fixture
def service(tmp_path):
    journal = Journal(tmp_path)
    table = Table(journal).start()
    yield types.SimpleNamespace(table=table, journal=journal, camera=None, messages={})
    table.stop()
    journal.close()


def run_quietly(server):
    try:
        server.run()
    except (OSError, ValueError):  # closing the listening socket from the test thread ends the loop
        pass


@pytest.fixture
def served(service):
    """The app under a real waitress server set up as `companion serve` sets it up, on a free port; yields
    (base_url, app)."""
    from companion.web.app import create_app
    from companion.web.cli_serve import page_server

    def start(**options):
        app = create_app(service, **options)
        server = page_server(app, "127.0.0.1", 0, threads=16)
        thread = threading.Thread(target=run_quietly, args=(server,), daemon=True)
        thread.start()
        started.append((server, thread, app))
        return f"http://127.0.0.1:{server.effective_port}", app

    started = []
    yield start
    for server, thread, app in started:
        app.extensions["companion"]["broadcaster"].stop()
        server.close()
        thread.join(5)


class CompanionProcess:
    """`companion serve` in a process of its own on a free port, without camera or sensors, its games in
    `folder`; `start()` may be called again after a stop (the same port and games: a restart)."""

    def __init__(self, folder):
        import os
        import socket

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.env = {**os.environ, "COMPANION_SETTINGS": str(NO_SETTINGS), "COMPANION_SERVICE_HOST": "127.0.0.1",
                    "COMPANION_SERVICE_PORT": str(port), "COMPANION_SERVICE_MDNS": "off",
                    "COMPANION_SERVICE_STATE_DIR": str(folder / "games"),
                    "COMPANION_CAMERA_SOURCE": str(folder / "no-camera-here"), "COMPANION_SENSORS_BACKEND": "none"}

    def start(self, stderr=None):
        """The running process, once it says where the page is. `stderr` as for subprocess (default: dropped)."""
        import subprocess
        import sys

        process = subprocess.Popen([sys.executable, "-m", "companion", "serve"], env=self.env, text=True,
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL if stderr is None else stderr)
        while " is on " not in (process.stdout.readline() or " is on "):
            pass
        return process
