"""The pages of `companion bench web`: `python -m companion.web.bench_pages URL N` opens N Server-Sent-Event
streams and prints `page version monotonic_ns` for every state each one receives."""
from __future__ import annotations

import sys
import threading
import time

from .sse_client import SSEClient


def watch(index: int, url: str, lock: threading.Lock) -> None:
    client = SSEClient(url, timeout=60)
    try:
        for event in client.events():
            if event["event"] == "state":
                now = time.monotonic_ns()
                with lock:
                    sys.stdout.write(f"{index} {event['data']['version']} {now}\n")
                    sys.stdout.flush()
    except (OSError, ValueError):
        pass


def main(argv: list[str]) -> int:
    url, count = argv[0], int(argv[1])
    lock = threading.Lock()
    threads = [threading.Thread(target=watch, args=(i, url, lock), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
