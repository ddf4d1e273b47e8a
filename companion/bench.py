"""`companion bench [SUITE...]`: the speed benchmarks, with medians against their targets.

Benchmarks are not timed tests: the machines are shared and noisy, so they report figures and say
whether each target is met, and a person reads them. A suite module provides
`benchmarks() -> list[Benchmark]`; each benchmark returns one `Result`.
"""
from __future__ import annotations

import dataclasses
import importlib
import json
import platform
import statistics
import time
from typing import Callable

SUITES = {
    "games": "companion.games.bench",
    "odds": "companion.games.bench_odds",
    "pips": "companion.vision.bench",
    "symbols": "companion.vision.bench_symbols",
    "sensors": "companion.sensors.bench",
    "web": "companion.web.bench",
}


@dataclasses.dataclass
class Result:
    name: str
    unit: str
    median: float
    target: float | None = None
    p95: float | None = None
    p99: float | None = None
    samples: int = 0
    note: str = ""

    @property
    def ok(self) -> bool | None:
        if self.target is None:
            return None
        worst = self.p99 if self.note.startswith("p99") else self.p95 if self.note.startswith("p95") else self.median
        return worst is not None and worst <= self.target


@dataclasses.dataclass
class Benchmark:
    name: str
    run: Callable[[], Result]


def time_calls(fn: Callable[[], object], repeat: int, warmup: int = 3) -> list[float]:
    """Milliseconds per call of `fn`, `repeat` times, after `warmup` calls."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeat):
        start = time.perf_counter_ns()
        fn()
        samples.append((time.perf_counter_ns() - start) / 1e6)
    return samples


def summarise(name: str, samples_ms: list[float], target_ms: float | None, note: str = "") -> Result:
    ordered = sorted(samples_ms)

    def pct(p: float) -> float:
        return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))]

    return Result(name, "ms", statistics.median(ordered), target_ms, pct(0.95), pct(0.99), len(ordered), note)


def machine() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), platform.processor())
    except OSError:
        model = platform.processor()
    return f"{model} ({platform.machine()}, Python {platform.python_version()})"


def add_arguments(parser) -> None:
    parser.add_argument("suites", nargs="*", help=f"any of: {', '.join(SUITES)} (default: all)")
    parser.add_argument("--json", action="store_true", help="one JSON line per result")


def run(args) -> int:
    from .cli import CliError

    names = args.suites or list(SUITES)
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        raise CliError(f"unknown suite(s) {', '.join(unknown)}; choose from: {', '.join(SUITES)}")
    if not args.json:
        print(f"machine: {machine()}")
    for suite in names:
        try:
            module = importlib.import_module(SUITES[suite])
        except ModuleNotFoundError as exc:
            print(f"{suite}: not available ({exc})")
            continue
        for bench in module.benchmarks():
            result = bench.run()
            if args.json:
                print(json.dumps({"suite": suite, **dataclasses.asdict(result), "ok": result.ok, "machine": machine()}))
                continue
            verdict = {None: "", True: "ok", False: "OVER TARGET"}[result.ok]
            target = f" target {result.target:g} {result.unit}" if result.target is not None else ""
            tails = f" p95 {result.p95:.3f} p99 {result.p99:.3f}" if result.p95 is not None else ""
            print(f"{suite}/{result.name}: median {result.median:.3f} {result.unit}{tails} (n={result.samples}){target} {verdict} {result.note}".rstrip())
    return 0
