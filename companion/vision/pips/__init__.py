"""The pip-dice reader: find every pip, group pips into top faces, read each face's value.

`PipReader().read(frame_bgr, tray)` returns `companion.events.DieReading`s. The steps live in their own
modules: `candidates` (pip-like blobs at several scales), `faces` (which pips share one face) and
`patterns` (which value a group of pips shows, and how sure we are).
"""
from .reader import PipReader

__all__ = ["PipReader"]
