"""`companion teach`: teaching the symbol dice of a box, bad teach data, re-teaching, nothing lost."""
import json

import cv2
import pytest

from companion.vision.symbols import FRUITS, NotTaught, make_reader
from companion.vision.symbols.icons import DEV_STYLES
from companion.vision.symbols.render import SceneOptions, render_dice, render_teach_image
from companion.vision.symbols.store import TeachStore
from companion.vision.symbols.teach import teach_interactive

STYLE = DEV_STYLES[0]
SIZE = SceneOptions(die_px=(64, 68))


def photo(tmp_path, kind, face, seed, n_dice=1, colour="ivory"):
    path = tmp_path / f"{kind}-{face}-{seed}.png"
    cv2.imwrite(str(path), render_teach_image(seed, STYLE, kind, face, colour, n_dice, options=SIZE).image)
    return str(path)


def empty_photo(tmp_path):
    path = tmp_path / "empty-tray.png"
    cv2.imwrite(str(path), render_dice(1, STYLE, [("fruit", [], "ivory", (20, 20, 620, 460))], size=(640, 480)).image)
    return str(path)


def teach_all(run_cli, tmp_path, kind, faces, state):
    """`state` None: the default state directory."""
    for i, face in enumerate(faces):
        where = ["--state-dir", state] if state is not None else []
        code, out, err = run_cli("teach", kind, "--face", face, photo(tmp_path, kind, face, 10 + i, n_dice=2),
                                 photo(tmp_path, kind, face, 20 + i), *where)
        assert code == 0, err
        assert f"taught {kind} face {face!r}: 3 example(s)" in out
    return out


def test_teach_every_face_then_read_the_dice(run_cli, tmp_path, monkeypatch):
    state = str(tmp_path / "state")
    out = teach_all(run_cli, tmp_path, "fruit", FRUITS, state)
    assert "all fruit faces taught" in out
    table = render_dice(77, STYLE, [("fruit", ["papaya", "banana", "coconut", "orange"], "ivory",
                                     (40, 40, 600, 440))], size=(640, 480), options=SIZE)
    readings = make_reader("fruit", state).read(table.image)
    by_place = sorted((round(r.center[0]), r.value, r.unsure) for r in readings)
    truth = sorted((round(d.center[0]), d.face, False) for d in table.dice)
    assert [(v, u) for _, v, u in by_place] == [(v, u) for _, v, u in truth]
    # `companion read --dice fruit` finds the taught dice in the companion's state directory.
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    teach_all(run_cli, tmp_path, "fruit", FRUITS, str(tmp_path / "xdg" / "companion"))
    image = tmp_path / "table.png"
    cv2.imwrite(str(image), table.image)
    code, out, err = run_cli("read", "--dice", "fruit", str(image), "--json")
    assert code == 0, err
    values = sorted(d["value"] for d in json.loads(out.splitlines()[0])["dice"])
    assert values == sorted(d.face for d in table.dice)


def test_reading_before_every_face_is_taught_names_the_missing_faces(run_cli, tmp_path):
    state = str(tmp_path / "state")
    teach_all(run_cli, tmp_path, "matcho", ["matcho"], state)
    with pytest.raises(NotTaught, match="no examples of blank.*companion teach matcho --face blank"):
        make_reader("matcho", state)
    code, out, _ = run_cli("teach", "matcho", "--status", "--state-dir", state)
    assert code == 0
    assert "matcho: 3 example(s)" in out and "blank: 0 example(s)" in out and "still to teach: blank" in out


def test_a_photo_without_a_die_is_refused_and_changes_nothing(run_cli, tmp_path):
    state = str(tmp_path / "state")
    teach_all(run_cli, tmp_path, "fruit", ["banana"], state)
    store_file = tmp_path / "state" / "symbols" / "default" / "fruit.json"
    before = store_file.read_bytes()
    code, _, err = run_cli("teach", "fruit", "--face", "orange", photo(tmp_path, "fruit", "orange", 1),
                           empty_photo(tmp_path), "--state-dir", state)
    assert code == 2
    assert "no die found in" in err and "empty-tray.png" in err and "nothing was changed" in err
    assert store_file.read_bytes() == before


def test_two_faces_that_look_alike_are_refused_and_change_nothing(run_cli, tmp_path):
    state = str(tmp_path / "state")
    teach_all(run_cli, tmp_path, "fruit", ["banana", "orange"], state)
    store_file = tmp_path / "state" / "symbols" / "default" / "fruit.json"
    before = store_file.read_bytes()
    # The banana face shown again, but called the coconut.
    code, _, err = run_cli("teach", "fruit", "--face", "coconut", photo(tmp_path, "fruit", "banana", 55),
                           photo(tmp_path, "fruit", "banana", 56), "--state-dir", state)
    assert code == 2
    assert "coconut examples look too much like the banana examples" in err and "nothing was changed" in err
    assert store_file.read_bytes() == before


def test_unknown_face_unreadable_image_and_missing_images_are_one_line_errors(run_cli, tmp_path):
    state = str(tmp_path / "state")
    not_an_image = tmp_path / "notes.png"
    not_an_image.write_text("a shopping list, not a photo")
    not_an_image = str(not_an_image)
    cases = [
        (("teach", "fruit", "--face", "kiwi", photo(tmp_path, "fruit", "banana", 1)), "'kiwi' is not a face"),
        (("teach", "fruit", "--face", "kiwi", str(tmp_path / "nope.png")), "'kiwi' is not a face"),
        (("teach", "fruit", "--face", "kiwi"), "'kiwi' is not a face"),
        (("teach", "fruit", "--face", "banana", str(tmp_path / "nope.png")), "nope.png: no such file"),
        (("teach", "fruit", "--face", "banana", str(tmp_path)), "a folder, not an image file"),
        (("teach", "fruit", "--face", "banana", not_an_image), "cannot decode as an image"),
        (("teach", "fruit", "--face", "banana"), "no images of the banana face"),
        (("teach", "matcho"), "give one of"),
    ]
    for args, message in cases:
        code, _, err = run_cli(*args, "--state-dir", state)
        assert code == 2 and message in err and len(err.strip().splitlines()) == 1, (args, err)


def test_reteach_replaces_a_face_add_keeps_it_and_forget_drops_it(run_cli, tmp_path):
    state = str(tmp_path / "state")
    # Taught wrong first: the pineapple shown as the banana.
    run_cli("teach", "fruit", "--face", "banana", photo(tmp_path, "fruit", "pineapple", 3), "--state-dir", state)
    teach_all(run_cli, tmp_path, "fruit", ["banana"], state)  # re-taught right: 3 examples, not 4
    store = TeachStore(tmp_path / "state")
    assert len(store.load("fruit")["banana"]) == 3
    code, out, _ = run_cli("teach", "fruit", "--face", "banana", photo(tmp_path, "fruit", "banana", 4), "--add",
                           "--state-dir", state)
    assert code == 0 and "banana (4)" in out
    teach_all(run_cli, tmp_path, "fruit", [f for f in FRUITS if f != "banana"], state)
    die = render_dice(5, STYLE, [("fruit", ["pineapple", "banana"], "ivory", (40, 40, 600, 440))],
                      size=(640, 480), options=SIZE)
    assert sorted(r.value for r in make_reader("fruit", state).read(die.image)) == ["banana", "pineapple"]
    code, out, _ = run_cli("teach", "fruit", "--forget", "banana", "--state-dir", state)
    assert code == 0 and "banana" not in store.load("fruit") and len(store.load("fruit")) == 5


def test_a_crash_while_saving_keeps_what_was_taught(run_cli, tmp_path, monkeypatch):
    state = str(tmp_path / "state")
    teach_all(run_cli, tmp_path, "matcho", ["matcho"], state)
    folder = tmp_path / "state" / "symbols" / "default"
    before = (folder / "matcho.json").read_bytes()

    def power_cut(*args, **kwargs):
        raise OSError("disk pulled out")

    monkeypatch.setattr("companion.durable.os.fsync", power_cut)  # the new file written, not yet on the card
    code, _, err = run_cli("teach", "matcho", "--face", "blank", photo(tmp_path, "matcho", "blank", 8), "--state-dir", state)
    assert code == 2 and f"cannot keep the taught matcho dice in {folder} (disk pulled out)" in err, err
    assert (folder / "matcho.json").read_bytes() == before
    assert sorted(p.name for p in folder.iterdir()) == ["matcho.json"]  # no half-written file left behind


def test_the_first_dice_taught_are_in_folders_whose_names_the_card_keeps(run_cli, tmp_path, monkeypatch):
    """The first face taught makes the folders symbols/ and symbols/<box>/: a power cut soon after must not lose
    them (and the taught file in them) because their names were never written to the card."""
    import os

    state = tmp_path / "state"
    state.mkdir()  # the service's, there before any teaching
    synced = []
    real = os.fsync
    monkeypatch.setattr("companion.durable.os.fsync",
                        lambda fd: (synced.append(os.readlink(f"/proc/self/fd/{fd}")), real(fd))[1])
    teach_all(run_cli, tmp_path, "matcho", ["matcho"], str(state))
    assert str(state / "symbols") in synced and str(state) in synced, synced


def test_on_a_pi_with_the_service_installed_dice_are_taught_where_the_service_reads_them(run_cli, tmp_path,
                                                                                       monkeypatch):
    """Taught by hand (as the user pi, whose own state folder the service never reads), they go into the
    installed service's folder, /var/lib/companion; or into the settings' service.state_dir when it is set."""
    settings, service_dir = tmp_path / "companion.toml", tmp_path / "var-lib-companion"
    settings.write_text("# the settings as shipped: every value its default\n")
    service_dir.mkdir()
    monkeypatch.setattr("companion.config.SYSTEM_SETTINGS", settings)
    monkeypatch.setattr("companion.config.SERVICE_STATE_DIR", service_dir)
    monkeypatch.delenv("XDG_STATE_HOME")
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.delenv("COMPANION_SETTINGS", raising=False)
    teach_all(run_cli, tmp_path, "matcho", ["matcho"], None)
    assert (service_dir / "symbols" / "default" / "matcho.json").exists()
    settings.write_text(f'[service]\nstate_dir = "{tmp_path / "games"}"\n')
    teach_all(run_cli, tmp_path, "matcho", ["matcho"], None)
    assert (tmp_path / "games" / "symbols" / "default" / "matcho.json").exists()


def test_a_damaged_store_is_reported_not_guessed(run_cli, tmp_path):
    folder = tmp_path / "state" / "symbols" / "default"
    folder.mkdir(parents=True)
    (folder / "fruit.json").write_text("{not json")
    code, _, err = run_cli("teach", "fruit", "--status", "--state-dir", str(tmp_path / "state"))
    assert code == 2 and "damaged" in err and "teach again" in err
    with pytest.raises(NotTaught, match="damaged"):
        make_reader("fruit", tmp_path / "state")


def test_the_camera_flow_asks_for_each_face_retries_and_skips(tmp_path):
    store = TeachStore(tmp_path / "state")
    empty = render_dice(2, STYLE, [("matcho", [], "cream", (20, 20, 620, 460))], size=(640, 480)).image
    frames = iter([
        empty,  # "matcho" first try: nobody put a die down
        render_teach_image(3, STYLE, "matcho", "matcho", "cream", 3, options=SIZE).image,
    ])
    answers = iter(["", "", "s"])  # Enter, Enter again after the refusal, then skip "blank"
    said, asked = [], []

    def ask(prompt):
        asked.append(prompt)
        return next(answers)

    missing = teach_interactive(store, "matcho", frames, ask, said.append)
    assert missing == ["blank"]
    assert asked[0].startswith("Show the matcho face") and asked[2].startswith("Show the blank face")
    assert any("no die found" in line for line in said)
    assert "taught matcho face 'matcho': 3 example(s)" in said
    assert said[-1] == "still to teach: blank"
    assert len(store.load("matcho")["matcho"]) == 3


def test_readers_module_hands_out_the_symbol_readers(run_cli, tmp_path):
    from companion.vision.readers import UnknownReader, get_reader

    state = str(tmp_path / "state")
    with pytest.raises(UnknownReader, match="not taught yet"):
        get_reader("matcho", state_dir=state)
    teach_all(run_cli, tmp_path, "matcho", ["matcho", "blank"], state)
    reader = get_reader("matcho", state_dir=state)
    scene = render_dice(6, STYLE, [("matcho", ["blank", "matcho", "blank"], "ivory", (40, 40, 600, 440))],
                        size=(640, 480), options=SIZE)
    assert sorted(r.value for r in reader.read(scene.image)) == ["blank", "blank", "matcho"]


def test_a_die_left_on_another_face_is_named_and_changes_nothing(run_cli, tmp_path):
    state = str(tmp_path / "state")
    teach_all(run_cli, tmp_path, "fruit", ["banana", "coconut"], state)
    store_file = tmp_path / "state" / "symbols" / "default" / "fruit.json"
    before = store_file.read_bytes()
    mixed = tmp_path / "mixed.png"
    scene = render_dice(12, STYLE, [("fruit", ["orange", "orange", "banana"], "ivory", (20, 20, 620, 460))],
                        size=(640, 480), options=SIZE)
    cv2.imwrite(str(mixed), scene.image)
    code, _, err = run_cli("teach", "fruit", "--face", "orange", photo(tmp_path, "fruit", "orange", 30),
                           str(mixed), "--state-dir", state)
    assert code == 2
    assert "a die in" in err and "mixed.png shows the banana face, not orange" in err and "nothing was changed" in err
    assert store_file.read_bytes() == before


def test_the_camera_flow_through_the_command_line(run_cli, tmp_path, monkeypatch):
    folder = tmp_path / "camera"
    folder.mkdir()
    cv2.imwrite(str(folder / "0.png"), render_dice(2, STYLE, [("matcho", [], "cream", (20, 20, 620, 460))],
                                                   size=(640, 480)).image)  # taken while the camera opens
    for i, face in enumerate(["matcho", "blank"], start=1):
        cv2.imwrite(str(folder / f"{i}.png"), render_teach_image(40 + i, STYLE, "matcho", face, "cream", 3,
                                                                 options=SIZE).image)
    monkeypatch.setattr("builtins.input", lambda prompt: "")
    code, out, err = run_cli("teach", "matcho", "--camera", str(folder), "--state-dir", str(tmp_path / "state"))
    assert code == 0, err
    assert "taught matcho face 'matcho': 3 example(s)" in out and "taught matcho face 'blank': 3 example(s)" in out
    assert out.strip().endswith("all matcho faces taught")


def test_both_zones_are_read_every_frame_by_the_zone_tracker(run_cli, tmp_path):
    from companion.vision.sources import Frame
    from companion.vision.zones import Zone, ZoneTracker
    from companion.vision.symbols.render import ZONES, render_table

    state = str(tmp_path / "state")
    teach_all(run_cli, tmp_path, "fruit", FRUITS, state)
    teach_all(run_cli, tmp_path, "matcho", ["matcho", "blank"], state)
    tracker = ZoneTracker([Zone(kind, box, kind) for kind, box in ZONES.items()],
                          make_reader=lambda kind: make_reader(kind, state))
    table = render_table(88, STYLE, options=SIZE)
    states = {s.zone: s for s in tracker.feed(Frame(123, table.image))}
    for kind in ZONES:
        assert states[kind].t == 123
        read = sorted(d.value for d in states[kind].dice if not d.unsure)
        assert read == sorted(d.face for d in table.dice if d.kind == kind)
