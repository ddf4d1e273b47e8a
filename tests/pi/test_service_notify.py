"""The service under systemd's notify protocol: READY=1 once it serves, WATCHDOG=1 while its loop is
healthy, no pings while the loop is stalled. The fake NOTIFY_SOCKET is a datagram socket in a temp dir."""
import json
import os
import subprocess
import sys
import threading
import time
import types
import urllib.request

from companion.events import BallLanded
from tests.conftest import NO_SETTINGS

from .conftest import received

STALLED = "STATUS=event loop stalled"


def said_until(proc, text: str, seconds: float) -> list[str]:
    """The service's lines up to the first holding `text`; if it ends or stays silent first, a failure showing
    all it said (reading on would wait for pytest's ten-minute timeout)."""
    lines, done = [], threading.Event()

    def read():
        for line in proc.stdout:
            lines.append(line)
            if text in line:
                break
        done.set()

    threading.Thread(target=read, daemon=True).start()
    ended = done.wait(seconds)
    assert any(text in line for line in lines), \
        f"the service {f'ended ({proc.wait(10)})' if ended else 'runs'} without saying {text!r}; it said:\n" \
        + "".join(lines)
    return lines


def test_a_real_service_says_ready_then_pings_and_degrades_without_camera_or_gpio(notify_socket, tmp_path):
    path, sock = notify_socket
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000",
           "COMPANION_SERVICE_STATE_DIR": str(tmp_path / "state"), "COMPANION_SERVICE_HOST": "127.0.0.1",
           "COMPANION_SERVICE_MDNS": "off", "COMPANION_CAMERA_SOURCE": str(tmp_path / "no-camera-here"),
           "COMPANION_SENSORS_BACKEND": "gpio", "COMPANION_SETTINGS": str(NO_SETTINGS)}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = said_until(proc, "Join code:", 60)  # said before READY=1
        ready = received(sock, 60, until="READY=1")
        assert any(m.startswith("READY=1") for m in ready), ready
        for _ in range(2):
            assert "WATCHDOG=1" in "".join(received(sock, 30, until="WATCHDOG=1")), "no watchdog ping in 30 s"
        url = next(line.split(" is on ")[1].split()[0] for line in lines if " is on " in line)
        health = json.load(urllib.request.urlopen(url + "api/health", timeout=10))
        assert health["ok"] is True
        state = json.load(urllib.request.urlopen(url + "api/state", timeout=10))
        health = state["health"]  # each missing part is named on the page, and the rest runs
        assert health["camera"]["state"] != "ok" and "Type the dice on the page" in health["camera"]["message"]
        assert any(key.startswith("sensor:") and value["state"] == "error" for key, value in health.items())
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    assert "STOPPING=1" in "".join(received(sock, 10, until="STOPPING=1"))


def test_a_service_whose_journal_is_refused_is_ready_with_why_and_pinged_while_its_page_answers(notify_socket,
                                                                                                 tmp_path):
    """Not ended and started again every 3 s (every phone: "cannot connect"): ready, serving the page that says
    what was found, its status saying it in `systemctl status companion`."""
    from companion.web.cli_serve import page_answers

    path, sock = notify_socket
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.sqlite3").write_bytes(b"not a journal: a page of something else " * 200)
    env = {**os.environ, "NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000", "COMPANION_SERVICE_STATE_DIR": str(state),
           "COMPANION_SERVICE_HOST": "127.0.0.1", "COMPANION_SERVICE_MDNS": "off",
           "COMPANION_SENSORS_BACKEND": "none", "COMPANION_SETTINGS": str(NO_SETTINGS)}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "serve", "--port", "0"], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = said_until(proc, "no game can be played", 60)
        assert any("is damaged (file is not a database)" in line for line in lines), lines
        ready = received(sock, 60, until="READY=1")
        assert any(m.startswith("READY=1") and "STATUS=the game journal could not be opened" in m for m in ready), \
            ready
        assert sum("WATCHDOG=1" in m for m in received(sock, 2.5)) >= 2
        port = int(next(line for line in lines if " is on " in line).split(":")[2].split("/")[0])
        assert page_answers("127.0.0.1", port)
    finally:
        proc.terminate()
        assert proc.wait(timeout=20) == 0
    assert "STOPPING=1" in "".join(received(sock, 1.0))
    assert not page_answers("127.0.0.1", port), "no pings for a page that does not answer"


def test_a_stalled_loop_stops_the_pings(notify_socket, tmp_path, monkeypatch):
    from companion.web import cli_serve

    path, sock = notify_socket
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "1000000")
    stuck = threading.Event()
    release = threading.Event()

    def tap(event):
        if isinstance(event, BallLanded):  # a handler that hangs: the one event the loop never finishes
            stuck.set()
            release.wait(30)

    args = types.SimpleNamespace(demo=True, settings=None, host="127.0.0.1", port=0, state_dir=str(tmp_path),
                                 demo_speed=1.0)
    settings, service, app, watchdog = cli_serve.build(args, tap=tap)
    assert watchdog is not None
    service.table.start()
    watchdog.start()
    try:
        assert "WATCHDOG=1" in "".join(received(sock, 30, until="WATCHDOG=1"))
        service.table.submit(BallLanded(t=time.monotonic_ns()))
        assert stuck.wait(30)
        said = received(sock, 30, until=STALLED)  # once the heartbeat's allowance for one event ran out
        assert STALLED in "".join(said), f"the stalled loop was never told; the last said: {said[-3:]}"
        stalled = received(sock, 2.0)  # four times the watchdog's interval: a ping would come in it
        assert not any("WATCHDOG=1" in m for m in stalled), stalled
        release.set()
        assert "WATCHDOG=1" in "".join(received(sock, 30, until="WATCHDOG=1"))
    finally:
        release.set()
        watchdog.stop()
        service.stop()
