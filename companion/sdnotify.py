"""systemd's notify protocol: readiness, status and a watchdog that pings only while the service is healthy.

With `Type=notify` and `WatchdogSec=`, systemd restarts the service when the pings stop. The pings come
from a thread that asks `is_healthy()` first (the table's event loop reports a heartbeat), so a stalled
loop stops the pings and systemd restarts the service. Without NOTIFY_SOCKET (a terminal, the tests'
default) everything here does nothing.
"""
from __future__ import annotations

import os
import socket
import threading
from typing import Callable, Mapping


class Notifier:
    def __init__(self, env: Mapping[str, str] | None = None):
        env = os.environ if env is None else env
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]  # an abstract socket
        self.address = address
        usec = env.get("WATCHDOG_USEC", "")
        pid = env.get("WATCHDOG_PID", "")
        watchdog_for_us = not pid or pid == str(os.getpid())
        self.watchdog_seconds = int(usec) / 1e6 if usec.isdigit() and watchdog_for_us else None
        self._sock: socket.socket | None = None

    @property
    def enabled(self) -> bool:
        return bool(self.address)

    def send(self, *lines: str) -> bool:
        if not self.address:
            return False
        if self._sock is None:
            self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        try:
            self._sock.sendto("\n".join(lines).encode(), self.address)
        except OSError:
            return False
        return True

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1", *([f"STATUS={status}"] if status else []))

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def ping(self) -> bool:
        return self.send("WATCHDOG=1")


class Watchdog:
    """Pings systemd's watchdog every half period while `is_healthy()` says so."""

    def __init__(self, notifier: Notifier, is_healthy: Callable[[], bool], interval: float | None = None,
                 stalled: str = "event loop stalled: watchdog pings withheld"):
        """`stalled`: the status systemd shows once `is_healthy()` says no."""
        self.notifier = notifier
        self.is_healthy = is_healthy
        self.stalled = stalled
        period = notifier.watchdog_seconds
        self.interval = interval if interval is not None else (period / 2 if period else None)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.unhealthy_since_ping = False

    def start(self) -> "Watchdog":
        if self.interval and self.notifier.enabled:
            self._thread = threading.Thread(target=self._run, name="watchdog", daemon=True)
            self._thread.start()
        return self

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            if self.is_healthy():
                self.notifier.ping()
                self.unhealthy_since_ping = False
            elif not self.unhealthy_since_ping:
                self.notifier.status(self.stalled)
                self.unhealthy_since_ping = True

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)


class Heartbeat:
    """The event loop calls `beat()` each time round; `healthy()` is true while beats are recent.

    `clock` returns seconds (monotonic); injectable for tests."""

    def __init__(self, max_silence: float, clock: Callable[[], float]):
        self.max_silence = max_silence
        self.clock = clock
        self.last = clock()

    def beat(self) -> None:
        self.last = self.clock()

    def healthy(self) -> bool:
        return self.clock() - self.last <= self.max_silence
