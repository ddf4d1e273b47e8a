"""`companion bench sensors`: from an edge (a mock GPIO pin, or a line from a fake hub port) to the event
on the sink's queue. Target: at most 2 ms at p99."""
from __future__ import annotations

import queue
import time

from ..bench import Benchmark, Result, summarise
from .fakeserial import FakeHubSocket, hub_line
from .gpio_backend import MockGpioBackend
from .hub import HubBackend
from .hubprotocol import FIRMWARE_VERSION, pinmap_id
from .kit import SensorKit
from .pinmap import load_pin_map

TARGET_MS = 2.0
SAMPLES = 2000
HALF_STEP_NS = 200_000_000  # a ball every 0.4 s: past three a second the kit calls a gate chattering


class SteppedClock:
    """Host time that jumps HALF_STEP_NS twice a sample, so every edge is a fresh ball past the debounce window."""

    def __init__(self):
        self.now = time.monotonic_ns()

    def __call__(self) -> int:
        return self.now


def gpio_edge_to_queue() -> Result:
    events: queue.Queue = queue.Queue()
    clock = SteppedClock()
    backend = MockGpioBackend()
    samples = []
    with SensorKit(load_pin_map(), events, clock, backend, poll_interval_s=None) as kit:
        pin = backend.pin("gate3")
        for _ in range(SAMPLES):
            clock.now += HALF_STEP_NS
            pin.drive_high()
            clock.now += HALF_STEP_NS
            kit.poll()
            start = time.perf_counter_ns()
            pin.drive_low()
            events.get(timeout=1)
            samples.append((time.perf_counter_ns() - start) / 1e6)
    return summarise("gpio edge to queue (mock pin)", samples, TARGET_MS, "p99")


def hub_line_to_queue() -> Result:
    events: queue.Queue = queue.Queue()
    socket = FakeHubSocket()
    clock = SteppedClock()
    pin_map = load_pin_map()
    pid, period = pinmap_id(pin_map), 1 << 30
    samples = []
    with SensorKit(pin_map, events, clock, HubBackend("/dev/fake-hub", open_port=socket, silence_s=60),
                   poll_interval_s=None):  # the hub debounces; no ticker needed
        socket.opened.acquire(timeout=5)
        port = socket.current
        events.get(timeout=5)  # "hub connected"
        port.send(hub_line(0, f"B {FIRMWARE_VERSION} {period} {pid}")
                  + hub_line(1, f"H {FIRMWARE_VERSION} {period} {pid} 0 0 0"))
        seq, t_us = 2, 0
        for _ in range(SAMPLES):
            t_us += HALF_STEP_NS // 1000
            clock.now += HALF_STEP_NS
            port.send(hub_line(seq, f"E bottom 0 {t_us}"))
            t_us += HALF_STEP_NS // 1000
            clock.now += HALF_STEP_NS
            line = hub_line(seq + 1, f"E bottom 1 {t_us}")
            seq += 2
            start = time.perf_counter_ns()
            port.send(line)
            events.get(timeout=1)
            samples.append((time.perf_counter_ns() - start) / 1e6)
    return summarise("hub line to queue (fake serial)", samples, TARGET_MS, "p99")


def benchmarks() -> list[Benchmark]:
    return [Benchmark("gpio", gpio_edge_to_queue), Benchmark("hub", hub_line_to_queue)]
