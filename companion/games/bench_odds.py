"""`companion bench odds`: every game's representative odds queries (target 20 ms median each).

A game package lists its queries with `odds_queries() -> [(name, callable)]`; tables it builds at import
are measured separately, as start-up."""
from __future__ import annotations

import importlib
import subprocess
import sys

from ..bench import Benchmark, Result, summarise, time_calls
from .registry import GAME_MODULES


def _startup(module_name: str) -> Result:
    """Import time of the package plus its first query, in a fresh interpreter, median of five."""
    code = (
        "import time; t=time.perf_counter(); import importlib; m=importlib.import_module(%r); "
        "q=m.odds_queries(); [fn() for _, fn in q[:1]]; print((time.perf_counter()-t)*1000)" % module_name
    )
    samples = [float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
               for _ in range(5)]
    return summarise(f"{module_name.rsplit('.', 1)[1]}/start-up", samples, None, "import + tables + first query")


def benchmarks() -> list[Benchmark]:
    out = []
    for name, module_name in GAME_MODULES.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        if not hasattr(module, "odds_queries"):
            continue
        out.append(Benchmark(f"{name}/start-up", lambda m=module_name: _startup(m)))
        for query_name, fn in module.odds_queries():
            out.append(Benchmark(f"{name}/{query_name}",
                                 lambda n=f"{name}/{query_name}", fn=fn: summarise(n, time_calls(fn, 50), 20.0)))
    return out
