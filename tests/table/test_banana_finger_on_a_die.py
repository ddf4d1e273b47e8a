"""A fingertip over a Matcho die, through the real zones and the table: Ben has three Matchos, his finger
still on the third as he slaps the banana with the other hand. The reader took the plain skin-coloured blob
for a sure blank, so the squeak was played for Ada's four coconuts and two star fruits (Ada climbed 7)
without a question. Now the covered die is unsure and the page asks."""
from __future__ import annotations

import cv2

from companion.events import BananaSqueaked
from companion.table.journal import Journal
from companion.table.owner import Table
from companion.vision.sources import Frame
from companion.vision.symbols.render import ZONES, render_dice
from tests.table.banana_dice import MS, STILL, STYLE, teach, tracker

CO, ST = "coconut", "starfruit"
SKIN = (130, 160, 212)  # BGR: a light skin tone


def tray_with_a_finger_on_the_third_matcho(seed: int, size: int):
    scene = render_dice(seed, STYLE, [("fruit", [CO, CO, CO, CO, ST, ST], "ivory", ZONES["fruit"]),
                                      ("matcho", ["matcho"] * 3, "cream", ZONES["matcho"])], options=STILL)
    image = scene.image.copy()
    cx, cy = map(int, scene.dice[8].center)
    cv2.ellipse(image, (cx, cy), (size, int(size * 0.8)), 30.0, 0, 360, SKIN, -1)
    return image


def test_bens_three_matchos_under_his_finger_do_not_hand_the_duel_to_ada(tmp_path):
    teach(tmp_path / "state")
    zones = tracker(tmp_path / "state")
    table = Table(Journal(tmp_path / "journal")).start()
    try:
        assert table.request({"do": "start", "game": "banana-matcho",
                              "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
        image = tray_with_a_finger_on_the_third_matcho(0, 45)
        for ms in range(0, 600, 100):
            for state in zones.feed(Frame(ms * MS, image)):
                table.submit(state).result(5)
        table.submit(BananaSqueaked(t=550 * MS)).result(5)  # Ben's other hand on the banana
        for state in zones.feed(Frame(600 * MS, image)):  # the frame after: the squeak is judged
            table.submit(state).result(5)
        view = table.view()
        assert view["game"]["scores"] == [0, 0], [s["text"] for s in view["game"]["history"]]
        assert view["question"] is not None, "asked on the page"
    finally:
        table.stop()
