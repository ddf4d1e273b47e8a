"""Server-Sent Events: every open page gets the full view after every change.

The broadcaster listens to the table; for each new view it draws the board once, encodes the SSE message
once, and hands the same bytes to every open stream. Each stream has a one-slot mailbox: a page that falls
behind skips straight to the newest view (a view is complete, so nothing is lost by skipping). A page that
connects, or reconnects with Last-Event-ID, gets the current view at once. Streams send a keepalive comment
when idle, and their number is capped (waitress holds one worker thread per open stream). One device (an
address) holds at most MAX_STREAMS_PER_DEVICE of them: its newest page goes live and its oldest stream ends, so one
phone opening the page again and again (a browser keeps six connections to a site, a tab put away keeps its
stream) cannot leave the other phones' pages standing still. The Pi itself (its own screen, the latency
benchmark's pages) is not held to it.

A page that went away (a phone locked, the wifi dropped) must give its slot back soon: a stream ends at its
next wake-up once waitress says the client is gone, and every stream ends after `lifetime` seconds whatever
happens, for the dead pages nobody told us about. It says so first ("renew"), and the page opens a new one at
once instead of showing "reconnecting…".
"""
from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Iterator

KEEPALIVE_SECONDS = 5.0
LIFETIME_SECONDS = 600.0
MAX_STREAMS_PER_DEVICE = 4
RENEW = b"event: renew\ndata: {}\n\n"  # the stream's lifetime is over: the page opens the next one at once
# A newer page of the same device took this stream's place: the page stays still until its reader comes back to it
# (shown again, or a tap), else a device's pages past the cap would take each other's place every few seconds.
SUPERSEDED = (b"event: superseded\ndata: " + json.dumps({"message": "a newer page on this device is live: tap this "
              "page (or come back to it) to follow the game here"}).encode() + b"\n\n")


class TooManyStreams(Exception):
    pass


def refusal(message: str) -> bytes:
    """The whole body of a stream answered over the cap: a page's EventSource cannot read a refused response
    (an HTTP error), so it is answered, with one `refused` event that the page shows, and ends. `retry` keeps a
    page that does not know the event from asking again more often than every five seconds."""
    return b"retry: 5000\n\nevent: refused\ndata: " + json.dumps({"message": message}).encode() + b"\n\n"


class Mailbox:
    """Holds only the newest message; `take` waits for one."""

    def __init__(self, device: str | None = None) -> None:
        self._cond = threading.Condition()
        self._message: bytes | None = None
        self.closed = False
        self.device = device
        self.farewell = b""  # sent as the stream ends, when it is ended for a reason the page must know

    def put(self, message: bytes) -> None:
        with self._cond:
            self._message = message
            self._cond.notify()

    def take(self, timeout: float) -> bytes | None:
        with self._cond:
            if self._message is None and not self.closed:
                self._cond.wait(timeout)
            message, self._message = self._message, None
            return message

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify()


def encode(view: dict[str, Any]) -> bytes:
    data = json.dumps(view, separators=(",", ":"))
    return f"id: {view['version']}\nevent: state\ndata: {data}\n\n".encode()


class Broadcaster:
    def __init__(self, max_streams: int, decorate: Callable[[dict[str, Any]], dict[str, Any]] = lambda v: v,
                 keepalive: float = KEEPALIVE_SECONDS, lifetime: float = LIFETIME_SECONDS,
                 clock: Callable[[], float] = time.monotonic):
        if keepalive <= 0 or lifetime <= 0:
            raise ValueError(f"a stream's keepalive and lifetime are above 0 seconds, got {keepalive} and {lifetime}")
        self.max_streams = max_streams
        self.decorate = decorate
        self.keepalive = keepalive
        self.lifetime = lifetime
        self.clock = clock
        self._lock = threading.Lock()
        self._boxes: dict[Mailbox, None] = {}  # in the order they opened
        self._latest: tuple[dict[str, Any], bytes] | None = None

    def publish(self, view: dict[str, Any]) -> None:
        full = self.decorate(view)
        message = encode(full)
        with self._lock:
            self._latest = (full, message)
            boxes = list(self._boxes)
        for box in boxes:
            box.put(message)

    def latest(self) -> dict[str, Any] | None:
        latest = self._latest
        return latest[0] if latest else None

    @property
    def open_streams(self) -> int:
        return len(self._boxes)

    def open(self, device: str | None = None) -> Mailbox:
        """A new stream's mailbox; `device` (its address; None: not held to MAX_STREAMS_PER_DEVICE) gives up its
        oldest streams past that."""
        with self._lock:
            if device is not None:
                mine = [box for box in self._boxes if box.device == device]
                for oldest in mine[:max(0, len(mine) + 1 - MAX_STREAMS_PER_DEVICE)]:
                    oldest.farewell = SUPERSEDED
                    oldest.close()
                    self._boxes.pop(oldest, None)
            if len(self._boxes) >= self.max_streams:
                raise TooManyStreams(f"too many live pages open ({self.max_streams}); "
                                     "close one and this page goes live by itself")
            box = Mailbox(device)
            self._boxes[box] = None
            if self._latest is not None:
                box.put(self._latest[1])
        return box

    def close(self, box: Mailbox) -> None:
        box.close()
        with self._lock:
            self._boxes.pop(box, None)

    def stop(self) -> None:
        with self._lock:
            boxes = list(self._boxes)
        for box in boxes:
            box.close()

    def stream(self, box: Mailbox, client_gone: Callable[[], bool] | None = None) -> Iterator[bytes]:
        """The body of one SSE response; ends when the server stops, when `client_gone()` says the page went
        away, or once the stream is `lifetime` seconds old."""
        ends = self.clock() + self.lifetime
        try:
            yield b"retry: 2000\n\n"
            while not box.closed and self.clock() < ends:
                message = box.take(self.keepalive)
                if client_gone is not None and client_gone():
                    return
                if message is not None:
                    yield message
                elif not box.closed:
                    yield b": keepalive\n\n"
            if not box.closed:
                yield RENEW
            elif box.farewell:
                yield box.farewell
        finally:
            self.close(box)
