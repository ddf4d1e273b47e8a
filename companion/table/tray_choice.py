"""The tray set on the page, kept in the state directory so that it outlives a restart or a power cut.

The settings file names a tray too (camera.tray). Whichever was chosen last wins: the page's tray is kept
with the settings' tray it replaced, and counts only while the settings still say that; after someone
edits camera.tray, the edit wins.
"""
from __future__ import annotations

import json
import logging
from pathlib import Path

from ..durable import write_json
from ..vision.tray import parse_tray, tray_text

log = logging.getLogger(__name__)

Box = tuple[int, int, int, int]


class TrayChoice:
    FILE_NAME = "camera-tray.json"

    def __init__(self, state_dir: str | Path, settings_tray: str):
        self.path = Path(state_dir) / self.FILE_NAME
        self.settings_tray = settings_tray

    def current(self) -> Box | None:
        """The tray to read in: the page's, if it was set since the settings last changed, else the settings'."""
        on_page, box = self.page_choice()
        return box if on_page else parse_tray(self.settings_tray)

    def page_choice(self) -> tuple[bool, Box | None]:
        """(True, the tray) while a tray set on the page is in force (None: auto), else (False, None)."""
        saved = self._saved()
        if saved is None or saved.get("instead_of") != self.settings_tray:
            return False, None
        try:
            return True, parse_tray(saved["tray"])
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            log.warning("%s is not a tray (%s); using camera.tray from the settings", self.path, exc)
            return False, None

    def save(self, box: Box | None) -> None:
        """Keep the page's tray (None: auto). Written whole or not at all; raises OSError if it cannot be."""
        write_json(self.path, {"tray": tray_text(box), "instead_of": self.settings_tray})

    def _saved(self) -> dict | None:
        try:
            saved = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            log.warning("cannot read the tray set on the page from %s (%s); using camera.tray", self.path, exc)
            return None
        return saved if isinstance(saved, dict) else None
