import threading
import types

import pytest

from companion.table.journal import Journal
from companion.table.owner import Table


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
