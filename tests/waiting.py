"""Waiting in a test for the thing it waits for, never for a fixed time: CI's machine is shared and noisy, so
a deadline only ends a test whose awaited thing never comes, and is far beyond any slow machine's moment."""
from __future__ import annotations

import time
from typing import Callable

PATIENCE_S = 20.0


def came(condition: Callable[[], object], timeout: float = PATIENCE_S, every: float = 0.01) -> bool:
    """Polls `condition` every `every` seconds until it holds (True) or `timeout` seconds pass (False): for a
    thread of the test's that must go on either way, where a failed assert would end only that thread, and for
    a test that says itself what did not come."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return False
        time.sleep(every)
    return True


def wait_for(condition: Callable[[], object], what: str, timeout: float = PATIENCE_S) -> None:
    """Polls `condition` until it holds; fails naming `what` never came within `timeout` seconds."""
    assert came(condition, timeout), f"gave up after {timeout:.0f} s waiting for {what}"
