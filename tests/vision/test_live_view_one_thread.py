"""The live view is drawn on one thread whichever of the page's worker threads asks for it. OpenCV keeps a few MB
of buffers for every thread it ever ran on: with each of the 24 workers drawing it in turn, the service grew by
~62 MB at 1280x720 (measured: 70.8 -> 133.0 MB RSS after 24 threads asked, against 70.7 -> 76.6 MB drawn on one),
~6 MB a minute over an evening with a phone looking. Counted, not timed."""
from __future__ import annotations

import threading

import numpy as np

import companion.vision.annotate as annotate
from companion.vision.live import DicePipeline
from companion.vision.sources import Frame


class NoDice:
    def read(self, image, tray=None):
        return []


def test_the_live_view_is_drawn_on_one_thread_whichever_page_thread_asks(monkeypatch):
    drawn_on = []
    draw = annotate.annotated_jpeg

    def recording_draw(*args, **kwargs):
        drawn_on.append(threading.current_thread().name)
        return draw(*args, **kwargs)

    monkeypatch.setattr(annotate, "annotated_jpeg", recording_draw)
    pipeline = DicePipeline(None, NoDice(), settle_ms=300)
    image = np.full((180, 320, 3), 90, np.uint8)
    for t in range(1, 9):
        pipeline.process(Frame(t, image.copy()))
        asked = []
        page_thread = threading.Thread(target=lambda: asked.append(pipeline.latest_jpeg()), name=f"waitress-{t}")
        page_thread.start()
        page_thread.join(10)
        assert asked and asked[0][:2] == b"\xff\xd8", "each page thread gets the frame's JPEG"
    assert len(drawn_on) == 8 and len(set(drawn_on)) == 1, drawn_on
