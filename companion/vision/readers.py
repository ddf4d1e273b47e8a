"""Dice readers by kind: `get_reader("pips" | "fruit" | "matcho", **options)`.

A reader has `read(frame_bgr, tray=None) -> list[DieReading]`. Pip dice are read by the learned reader
`companion.vision.pips.learned.LearnedPipReader` (the classical `companion.vision.pips.PipReader` is
still there to compare); fruit and Matcho dice by `companion.vision.symbols` (its `get_reader(kind,
**options)`), imported only when asked for.
"""
from __future__ import annotations

import importlib

KINDS = ("pips", "fruit", "matcho")


class UnknownReader(ValueError):
    pass


def get_reader(kind: str = "pips", **options):
    if kind == "pips":
        from .pips.learned import LearnedPipReader

        return LearnedPipReader(**options)
    if kind in ("fruit", "matcho"):
        try:
            symbols = importlib.import_module("companion.vision.symbols")
        except ModuleNotFoundError as exc:
            raise UnknownReader(f"the {kind} reader is not available in this build ({exc})") from None
        if not hasattr(symbols, "get_reader"):
            raise UnknownReader(f"the {kind} reader is not available in this build (no symbols.get_reader)")
        return symbols.get_reader(kind, **options)
    raise UnknownReader(f"unknown dice kind {kind!r}; choose from: {', '.join(KINDS)}")


def taught_dice_folder():
    """Where `companion teach` keeps the dice it was taught: the settings' state directory (service.state_dir),
    so that `companion read --dice fruit` and `replay --frames --reader fruit` read what teach wrote."""
    from ..config import BadSettings, default_state_dir, load_settings, settings_file

    try:
        return load_settings(settings_file()).state_dir
    except BadSettings:
        return default_state_dir()


def reader_with_taught_dice(kind: str):
    """The reader of `kind` as the commands use it: symbol dice from the folder `companion teach` keeps them in."""
    return get_reader(kind) if kind == "pips" else get_reader(kind, state_dir=taught_dice_folder())


def get_zone_reader(kind: str, state_dir=None):
    """The reader a zone of `kind` (`camera.zones`) reads with, live and when a recording is re-read: the
    symbol dice taught in `state_dir`, or pip dice, which need nothing taught."""
    return get_reader(kind) if kind == "pips" else get_reader(kind, state_dir=state_dir)
