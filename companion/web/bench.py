"""`companion bench web`: from a settled roll (or a sensor edge) to the update arriving in every open page.

Ten pages hold Server-Sent-Event streams through the real stack (waitress, Flask, the broadcaster); the
table gets a `DiceSettled` stamped with the monotonic clock where it is born, as the camera stamps it, and
each page's stream notes when the new view has fully arrived. The same for a ball gate's `BallEntered`.
Target: p95 at most 50 ms with ten pages open.
"""
from __future__ import annotations

import tempfile
import threading
import time
import types

from ..bench import Benchmark, Result, summarise
from ..events import BallEntered, DiceSettled, DieReading, Event

PAGES = 10
ROLLS = 60
TARGET_MS = 50.0


class Page(threading.Thread):
    """One open page: reads the stream and notes when each version arrived."""

    def __init__(self, url: str):
        super().__init__(daemon=True)
        from .sse_client import SSEClient

        self.client = SSEClient(url, timeout=30)
        self.arrived: dict[int, int] = {}
        self.cond = threading.Condition()

    def run(self) -> None:
        try:
            for event in self.client.events():
                if event["event"] == "state":
                    with self.cond:
                        self.arrived[event["data"]["version"]] = time.monotonic_ns()
                        self.cond.notify_all()
        except OSError:
            pass

    def wait_for(self, version: int, timeout: float = 10.0) -> int:
        with self.cond:
            self.cond.wait_for(lambda: any(v >= version for v in self.arrived), timeout)
            return self.arrived.get(version) or min(t for v, t in self.arrived.items() if v >= version)


class Stack:
    """The table, the app under waitress, and ten pages connected to it."""

    def __init__(self):
        from waitress.server import create_server

        from ..table.journal import Journal
        from ..table.owner import Table
        from .app import create_app

        self.dir = tempfile.TemporaryDirectory(prefix="companion-bench-")
        self.journal = Journal(self.dir.name)
        self.table = Table(self.journal).start()
        service = types.SimpleNamespace(table=self.table, journal=self.journal, camera=None, messages={})
        self.app = create_app(service, max_streams=PAGES + 2)
        self.server = create_server(self.app, host="127.0.0.1", port=0, threads=PAGES + 6)
        threading.Thread(target=self._serve, daemon=True).start()
        url = f"http://127.0.0.1:{self.server.effective_port}/events"
        self.pages = [Page(url) for _ in range(PAGES)]
        for page in self.pages:
            page.start()
        for page in self.pages:
            page.wait_for(self.table.view()["version"])

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
        return [(page.wait_for(outcome.version) - born) / 1e6 for page in self.pages]

    def request(self, command: dict) -> None:
        outcome = self.table.request(command)
        if not outcome.ok:
            raise RuntimeError(f"the benchmark's request was refused: {outcome.message}")

    def close(self) -> None:
        for page in self.pages:
            page.client.close()
        self.app.extensions["companion"]["broadcaster"].stop()
        for page in self.pages:
            page.join(5)
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
