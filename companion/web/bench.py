"""`companion bench web`: from a settled roll (or a sensor edge) to the update arriving in every open page.

Ten pages (SSE clients in their own process) hold streams through the real stack (waitress, Flask, the
broadcaster); the table gets a `DiceSettled` stamped with the monotonic clock where it is born, as the
camera stamps it, and each page notes when the new view has fully arrived. The same for a ball gate's
`BallEntered`. The time includes the journal's fsync: a view is published only once it is durable.
Target: p95 at most 50 ms with ten pages open.
"""
from __future__ import annotations

import subprocess
import sys
import tempfile
import threading
import time
import types

from ..bench import Benchmark, Result, summarise
from ..events import BallEntered, DiceSettled, DieReading, Event

PAGES = 10
ROLLS = 60
TARGET_MS = 50.0


class Pages:
    """Ten open pages in a separate process (the phones are other devices: their parsing must not compete
    with the service for its interpreter), each noting when every version fully arrived. The monotonic
    clock is system-wide, so birth and arrival times compare across the two processes."""

    def __init__(self, url: str, count: int):
        self.count = count
        self.arrived: list[dict[int, int]] = [{} for _ in range(count)]
        self.cond = threading.Condition()
        self.process = subprocess.Popen([sys.executable, "-m", "companion.web.bench_pages", url, str(count)],
                                        stdout=subprocess.PIPE, text=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            page, version, t = (int(v) for v in line.split())
            with self.cond:
                self.arrived[page][version] = t
                self.cond.notify_all()

    def wait_for(self, version: int, timeout: float = 10.0) -> list[int]:
        """When each page got `version` (or, if it skipped to a newer one, that one)."""
        def seen(page: dict[int, int]) -> bool:
            return any(v >= version for v in page)

        with self.cond:
            if not self.cond.wait_for(lambda: all(seen(p) for p in self.arrived), timeout):
                raise TimeoutError(f"not every page got version {version} within {timeout} s")
            return [p.get(version) or min(t for v, t in p.items() if v >= version) for p in self.arrived]

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class Stack:
    """The table, the app under waitress, and ten pages connected to it."""

    def __init__(self):
        from ..table.journal import Journal
        from ..table.owner import Table
        from .app import create_app
        from .cli_serve import page_server

        self.dir = tempfile.TemporaryDirectory(prefix="companion-bench-")
        self.journal = Journal(self.dir.name)
        self.table = Table(self.journal).start()
        service = types.SimpleNamespace(table=self.table, journal=self.journal, camera=None, messages={})
        self.app = create_app(service, max_streams=PAGES + 2)
        self.server = page_server(self.app, "127.0.0.1", 0, threads=PAGES + 6)  # as `companion serve` sets it up
        threading.Thread(target=self._serve, daemon=True).start()
        self.pages = Pages(f"http://127.0.0.1:{self.server.effective_port}/events", PAGES)
        self.pages.wait_for(self.table.view()["version"], timeout=30)

    def _serve(self) -> None:
        try:
            self.server.run()
        except (OSError, ValueError):
            pass

    def timed(self, make_event) -> list[float]:
        """Milliseconds from the event's birth to its view arriving at each page."""
        born = time.monotonic_ns()
        outcome = self.table.submit(make_event(born)).result(10)
        if not outcome.ok:
            raise RuntimeError(f"the benchmark's event was refused: {outcome.message}")
        return [(arrived - born) / 1e6 for arrived in self.pages.wait_for(outcome.version)]

    def request(self, command: dict) -> None:
        outcome = self.table.request(command)
        if not outcome.ok:
            raise RuntimeError(f"the benchmark's request was refused: {outcome.message}")

    def close(self) -> None:
        self.pages.close()
        self.app.extensions["companion"]["broadcaster"].stop()
        time.sleep(0.2)  # let waitress finish the streams that just ended before its trigger closes
        self.server.close()
        self.table.stop()
        self.journal.close()
        self.dir.cleanup()


def _players(count: int) -> list[dict]:
    return [{"name": n} for n in ("Ada", "Ben", "Cleo", "Dan")[:count]]


def roll_to_page() -> Result:
    stack = Stack()
    samples: list[float] = []
    try:
        stack.request({"do": "start", "game": "mountain-goats", "players": _players(2)})
        for i in range(ROLLS):
            values = [(i + k) % 6 + 1 for k in range(4)]

            def settled(t: int, values=values) -> Event:
                return DiceSettled(t=t, dice=tuple(DieReading(v, (50.0 * k, 50.0), (0.0, 0.0, 40.0, 40.0), 0.99)
                                                   for k, v in enumerate(values)))

            samples += stack.timed(settled)
            stack.request({"do": "play", "action": stack.table.view()["game"]["legal"][0]["action"]})
            if stack.table.view()["game"]["over"]:
                stack.request({"do": "start", "game": "mountain-goats", "players": _players(2)})
    finally:
        stack.close()
    return summarise(f"settled roll to {PAGES} pages", samples, TARGET_MS, note=f"p95; {PAGES} SSE pages, waitress")


def gate_to_page() -> Result:
    stack = Stack()
    samples: list[float] = []
    try:
        stack.request({"do": "start", "game": "magic-mountain", "players": _players(2)})
        for i in range(ROLLS):
            game = stack.table.view()["game"]
            if game["over"]:
                stack.request({"do": "start", "game": "magic-mountain", "players": _players(2)})
                game = stack.table.view()["game"]
            stack.request({"do": "dice", "values": [game["chance"]["faces"][0]]})
            samples += stack.timed(lambda t, i=i: BallEntered(t=t, opening=i % 6 + 1))
            stack.request({"do": "dice", "values": []})  # the ball hit nothing
            game = stack.table.view()["game"]
            while not game["over"] and game["legal"]:
                stack.request({"do": "play", "action": game["legal"][0]["action"]})
                game = stack.table.view()["game"]
    finally:
        stack.close()
    return summarise(f"ball gate to {PAGES} pages", samples, TARGET_MS, note=f"p95; {PAGES} SSE pages, waitress")


def benchmarks() -> list[Benchmark]:
    return [Benchmark("roll-to-page", roll_to_page), Benchmark("gate-to-page", gate_to_page)]
