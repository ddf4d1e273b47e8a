"""Files generated from the pin map (the wiring diagram, the hub's pin table): written, or checked."""
from __future__ import annotations

import sys
from pathlib import Path


def write_or_check(out: Path, text: str, check: bool, command: str, next_step: str = "") -> int:
    """Write `text` to `out` and say so (with `next_step`, what to do with it); with `check`, only say (exit
    code 1) whether `out` is out of date."""
    if check:
        if not out.exists() or out.read_text(encoding="utf-8") != text:
            print(f"{out} is out of date with the pin map; run `{command}`", file=sys.stderr)
            return 1
        return 0
    out.write_text(text, encoding="utf-8")
    print(f"wrote {out}" + (f": {next_step}" if next_step else ""))
    return 0
