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
    """`companion serve` in a process of its own, without camera or sensors, its games in `folder`.

    The service binds a port the system picks (port 0) and says which: a port picked here and let go before the
    service bound it could be taken meanwhile by another program on a shared machine. `base` is its address once
    started; `start()` may be called again after a stop: a restart, on the same port and games."""

    RESTART_TRIES = 5

    def __init__(self, folder):
        import os

        self.port = 0
        self.base: str | None = None
        self.stderr = folder / "companion-serve.stderr"
        self.env = {**os.environ, "COMPANION_SETTINGS": str(NO_SETTINGS), "COMPANION_SERVICE_HOST": "127.0.0.1",
                    "COMPANION_SERVICE_PORT": "0", "COMPANION_SERVICE_MDNS": "off",
                    "COMPANION_SERVICE_STATE_DIR": str(folder / "games"),
                    "COMPANION_CAMERA_SOURCE": str(folder / "no-camera-here"), "COMPANION_SENSORS_BACKEND": "none"}

    def start(self):
        """The running process, once it has said where the page is. A restart finding its port taken by another
        program (in the moment between the stop and the start) tries a few times, then fails saying so."""
        import time

        for _ in range(self.RESTART_TRIES):
            process = self._launch()
            if process is not None:
                return process
            if not (self.port and "in use" in self.errors()):
                raise AssertionError(f"companion serve ended before serving the page:\n{self.errors()}")
            time.sleep(0.2)
        raise AssertionError(f"companion serve cannot start again on port {self.port}: another program took it "
                             f"after the stop\n{self.errors()}")

    def errors(self) -> str:
        """What the last process started wrote to stderr (its log)."""
        return self.stderr.read_text(errors="replace")

    def _launch(self):
        """The process once it says "is on http://...", or None when it ended first (the port is saved)."""
        import re
        import subprocess
        import sys

        with open(self.stderr, "w") as log:
            process = subprocess.Popen([sys.executable, "-m", "companion", "serve"],
                                       env={**self.env, "COMPANION_SERVICE_PORT": str(self.port)}, text=True,
                                       stdout=subprocess.PIPE, stderr=log)
        for line in process.stdout:
            where = re.search(r" is on (http://127\.0\.0\.1:(\d+))/", line)
            if where:
                self.base, self.port = where.group(1), int(where.group(2))
                return process
        process.wait()
        return None


def as_phones(wsgi_app):
    """The app as phones at other addresses reach it: the test's request names its phone (X-Phone)."""
    def app(environ, start_response):
        phone = environ.get("HTTP_X_PHONE")
        if phone:
            environ["REMOTE_ADDR"] = phone
        return wsgi_app(environ, start_response)
    return app
