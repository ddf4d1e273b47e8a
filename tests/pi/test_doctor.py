"""`companion doctor` says in plain words what to fix, for the problems Pi users hit most."""

from companion.doctor import FAIL, OK, WARN, Machine, run_checks
from companion.sensors.fakeserial import hub_line
from companion.sensors.hubprotocol import FIRMWARE_VERSION, pinmap_id
from companion.sensors.pinmap import load_pin_map

PERIOD = 1 << 30
SHIPPED_ID = pinmap_id(load_pin_map())


def heartbeats(version=FIRMWARE_VERSION, pin_map_id=SHIPPED_ID):
    """What a running hub sends in a second: two heartbeats (after the tail of a line cut by the opening)."""
    return [b"0 0*1C2B\r\n"] + [hub_line(n, f"H {version} {PERIOD} {pin_map_id} {n * 500_000} 0 0") for n in (7, 8)]


def fake_machine(tmp_path, *, chips=("gpiochip0",), rw=True, picamera_error=None, camera_out=(0, "0 : imx708 [4608x2592]"),
                 free=50 * 2**30, ports=(), service="LoadState=loaded\nActiveState=active", missing=(),
                 hub_says=heartbeats()):
    dev = tmp_path / "dev"
    dev.mkdir(exist_ok=True)
    for chip in chips:
        (dev / chip).touch()

    def import_module(name):
        if name in missing:
            raise ImportError(f"No module named '{name}'", name=name)
        if name == "picamera2":
            if picamera_error:
                raise ImportError(picamera_error)
            return object()  # Debian's picamera2 and lgpio exist only on a Pi
        if name == "lgpio":
            return object()
        return __import__(name)

    def run(argv):
        return camera_out if argv[0] == "rpicam-hello" else (0, service)

    return Machine(dev=dev, can_read_write=lambda p: rw, import_module=import_module,
                   disk_free=lambda p: free, run=run, serial_ports=lambda: list(ports),
                   listen_hub=lambda device: list(hub_says))


def settings_file(tmp_path, text=""):
    path = tmp_path / "companion.toml"
    path.write_text(f'[service]\nstate_dir = "{tmp_path / "state"}"\n' + text)
    return path


def by_name(checks):
    return {c.name: c for c in checks}


def test_a_healthy_pi_is_all_good(tmp_path):
    checks = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path)))
    assert {c.status for c in checks.values()} == {OK}, checks


def test_permission_denied_on_gpiochip(tmp_path):
    check = by_name(run_checks(fake_machine(tmp_path, rw=False), settings_file(tmp_path)))["gpio"]
    assert check.status == FAIL and "permission denied" in check.message and "gpiochip0" in check.message
    assert "gpio group" in check.fix


def test_a_pi_without_the_gpio_library_is_told_to_install_it(tmp_path):
    check = by_name(run_checks(fake_machine(tmp_path, missing={"lgpio"}), settings_file(tmp_path)))["gpio"]
    assert check.status == FAIL and "lgpio is missing" in check.message and "apt install python3-lgpio" in check.fix


def test_numpy_conflict_with_debians_picamera2(tmp_path):
    machine = fake_machine(tmp_path, picamera_error="numpy.core.multiarray failed to import")
    check = by_name(run_checks(machine, settings_file(tmp_path)))["libraries"]
    assert check.status == FAIL and "numpy version conflict" in check.fix and "numpy<2" in check.fix


def test_a_missing_network_runtime_is_named(tmp_path):
    check = by_name(run_checks(fake_machine(tmp_path, missing={"onnxruntime"}), settings_file(tmp_path)))["libraries"]
    assert check.status == FAIL and "onnxruntime" in check.message and "install.sh" in check.fix


def test_a_missing_network_file_is_named(tmp_path):
    machine = fake_machine(tmp_path)
    present, missing = tmp_path / "pips-classifier.onnx", tmp_path / "pips-classifier-2.onnx"
    present.write_bytes(b"onnx")
    machine.pip_networks = lambda: [present, missing]
    check = by_name(run_checks(machine, settings_file(tmp_path)))["networks"]
    assert check.status == FAIL and "pips-classifier-2.onnx missing" in check.message
    assert "pips-classifier.onnx," not in check.message and "install.sh" in check.fix


def test_camera_not_found_and_busy(tmp_path):
    missing = by_name(run_checks(fake_machine(tmp_path, camera_out=(0, "No cameras available!")), settings_file(tmp_path)))
    assert missing["camera"].status == FAIL and "ribbon cable" in missing["camera"].fix
    busy_out = (1, "ERROR: *** Pipeline handler in use by another process ***")
    busy = by_name(run_checks(fake_machine(tmp_path, camera_out=busy_out), settings_file(tmp_path)))
    assert busy["camera"].status == FAIL and "busy" in busy["camera"].message


def test_usb_camera_missing_names_the_devices_found(tmp_path):
    checks = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path, '[camera]\nsource = "usb:1"\n')))
    assert checks["camera"].status == FAIL and "video1 does not exist" in checks["camera"].message


def test_bad_pin_map_names_the_problem(tmp_path):
    pins = tmp_path / "pins.json"
    pins.write_text("{\"format\": 1, \"sensors\": 5}")
    checks = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path, f'[sensors]\npin_map = "{pins}"\n')))
    assert checks["pin map"].status == FAIL and "sensors" in checks["pin map"].message


def test_hub_missing_and_found(tmp_path):
    text = '[sensors]\nbackend = "hub"\n'
    missing = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path, text)))
    assert missing["sensor hub"].status == FAIL and "data" in missing["sensor hub"].fix
    found = by_name(run_checks(fake_machine(tmp_path, ports=[("/dev/ttyACM0", 0x2E8A)]), settings_file(tmp_path, text)))
    assert found["sensor hub"].status == OK and "/dev/ttyACM0" in found["sensor hub"].message
    assert f"runs firmware {FIRMWARE_VERSION}, built for this pin map" in found["sensor hub"].message
    assert found["gpio"].status == OK  # the hub replaces the GPIO pins


def hub_check(tmp_path, **machine):
    text = '[sensors]\nbackend = "hub"\n'
    machine = fake_machine(tmp_path, ports=[("/dev/ttyACM0", 0x2E8A)], **machine)
    return by_name(run_checks(machine, settings_file(tmp_path, text)))["sensor hub"]


def test_a_pico_without_running_firmware_is_not_passed_as_the_hub(tmp_path):
    """A Pico fresh from Thonny's MicroPython install (or whose firmware stopped) has the port, and sends
    nothing: the service would hear no sensor."""
    check = hub_check(tmp_path, hub_says=[])
    assert check.status == FAIL
    assert check.message == "the Pico at /dev/ttyACM0 sent nothing in 1.2 s: the hub's firmware is not running"
    assert check.fix == ("unplug it and plug it in again (its LED blinks once a second while the firmware runs; an "
                         "open Thonny stops it); if it stays silent, copy this companion's firmware/hubcore.py, "
                         "hub_pins.py and main.py to the Pico (firmware/README.md)")


def test_a_hub_built_for_another_pin_map_or_protocol_is_named_with_the_fix(tmp_path):
    check = hub_check(tmp_path, hub_says=heartbeats(pin_map_id="0000"))
    assert check.status == FAIL and "built for another pin map (hub 0000" in check.message
    assert "python3 -m companion.sensors.hubpins" in check.message
    assert check.fix == "", "the message says what to do; the fix would say it again"
    check = hub_check(tmp_path, hub_says=heartbeats(version="2.0.0"))
    assert check.status == FAIL and "runs firmware 2.0.0, which this companion cannot read" in check.message


def test_a_hub_of_another_firmware_version_is_told_what_to_update_once(tmp_path):
    older = hub_check(tmp_path, hub_says=heartbeats(version="1.0.0"))
    assert older.status == WARN and "firmware before 1.0.1 can keep a released banana pressed" in older.message
    assert older.fix.startswith("copy this companion's firmware/hubcore.py")
    newer = hub_check(tmp_path, hub_says=heartbeats(version="1.1.0"))
    assert newer.status == WARN and "newer than the 1.0.1 this companion ships" in newer.message
    assert newer.fix.startswith("update the companion: `git pull`")
    for check in (older, newer):
        said = f"{check.message} {check.fix}"
        assert said.count("copy") + said.count("update the companion") == 1, said


def test_a_hub_whose_firmware_stopped_names_the_error(tmp_path):
    crash = [b"Traceback (most recent call last):\r\n", b'  File "main.py", line 4, in <module>\r\n',
             b"ValueError: invalid pin\r\n"]
    check = hub_check(tmp_path, hub_says=crash)
    assert check.status == FAIL and check.message == "the hub's firmware stopped with ValueError: invalid pin"
    assert check.fix == ("copy this companion's firmware/hubcore.py, hub_pins.py and main.py to the Pico "
                         "(firmware/README.md), then unplug it and plug it in again")


def test_the_hub_is_listened_to_on_its_real_port(tmp_path):
    """The real listening, on a pseudo-terminal standing in for /dev/ttyACM0: silent, then held elsewhere."""
    import os
    import pty

    from companion.doctor import _listen_hub
    from companion.sensors.hub import open_serial

    controller, device = pty.openpty()
    port = os.ttyname(device)
    machine = fake_machine(tmp_path, ports=[(port, 0x2E8A)], service="LoadState=loaded\nActiveState=inactive")
    machine.listen_hub = _listen_hub
    settings = settings_file(tmp_path, f'[sensors]\nbackend = "hub"\nhub_port = "{port}"\n')
    try:
        check = by_name(run_checks(machine, settings))["sensor hub"]
        assert check.status == FAIL and "sent nothing" in check.message
        thonny = open_serial(port)
        try:
            check = by_name(run_checks(machine, settings))["sensor hub"]
        finally:
            thonny.close()
        assert check.status == FAIL and "is held by another program" in check.message
    finally:
        os.close(controller)
        os.close(device)


def test_the_hub_the_running_companion_reads_is_left_to_it(tmp_path):
    from companion.table.state_lock import StateDirLock

    (tmp_path / "state").mkdir()
    lock = StateDirLock(tmp_path / "state")
    lock.acquire()
    try:
        check = hub_check(tmp_path, hub_says=[])
    finally:
        lock.release()
    assert check.status == OK and "the running companion reads it" in check.message


def test_the_hub_the_running_service_holds_is_not_failed_when_its_lock_cannot_be_seen(tmp_path):
    """A user not yet in group companion cannot see the service's lock; the port, held alone by the service,
    is then refused to doctor: that is the service reading the hub, not a fault to close."""
    import os
    import pty

    from companion.doctor import _listen_hub
    from companion.sensors.hub import open_serial

    controller, device = pty.openpty()
    port = os.ttyname(device)
    settings = settings_file(tmp_path, f'[sensors]\nbackend = "hub"\nhub_port = "{port}"\n')
    service = open_serial(port)
    try:
        checks = {}
        for state in ("active", "failed"):
            machine = fake_machine(tmp_path, ports=[(port, 0x2E8A)], service=f"LoadState=loaded\nActiveState={state}")
            machine.listen_hub = _listen_hub
            checks[state] = by_name(run_checks(machine, settings))["sensor hub"]
    finally:
        service.close()
        os.close(controller)
        os.close(device)
    assert checks["active"].status == OK and "held by the running companion service" in checks["active"].message
    assert checks["failed"].status == FAIL and "is held by another program" in checks["failed"].message


def test_a_games_folder_this_user_may_not_use_is_named_with_the_fix(tmp_path):
    (tmp_path / "state").mkdir()
    check = by_name(run_checks(fake_machine(tmp_path, rw=False), settings_file(tmp_path)))["disk"]
    assert check.status == WARN and "but you may not use that folder" in check.message
    assert "log out and in again" in check.fix


def test_low_disk_and_stopped_service(tmp_path):
    machine = fake_machine(tmp_path, free=100 * 2**20, service="LoadState=loaded\nActiveState=failed")
    checks = by_name(run_checks(machine, settings_file(tmp_path)))
    assert checks["disk"].status == FAIL
    assert checks["service"].status == FAIL and "journalctl" in checks["service"].fix
    not_installed = by_name(run_checks(fake_machine(tmp_path, service="LoadState=not-found\nActiveState=inactive"),
                                       settings_file(tmp_path)))
    assert not_installed["service"].status == WARN and "install.sh" in not_installed["service"].fix


def test_bad_settings_file_stops_at_the_settings(tmp_path, run_cli):
    path = tmp_path / "bad.toml"
    path.write_text("[camera]\nsorce = 1\n")
    code, out, err = run_cli("doctor", "--settings", str(path))
    assert code == 1 and "camera.sorce" in out and "problem" in out


def test_a_tray_or_zone_outside_the_picture_and_untaught_zone_dice_are_named(tmp_path):
    text = ('[camera]\nwidth = 640\nheight = 480\ntray = "0,0,1280,720"\n'
            'zones = "fruit:fruit:700,0,1280,720;duel:pips:0,0,320,480"\n')
    check = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path, text)))["tray and zones"]
    assert check.status == FAIL
    assert "zone fruit 700,0,1280,720 lies outside the camera's 640x480 picture" in check.message
    assert "camera.tray 0,0,1280,720 reaches past the camera's 640x480 picture" in check.message
    assert "the fruit zone cannot be read: the fruit dice are not taught yet" in check.message
    assert "duel" not in check.message


def test_a_turned_camera_swaps_the_pictures_sides(tmp_path):
    text = '[camera]\nwidth = 1280\nheight = 720\nrotate = 90\ntray = "0,0,700,1200"\n'
    check = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path, text)))["tray and zones"]
    assert check.status == OK and "inside the camera's 720x1280 picture" in check.message
    text = '[camera]\ntray = "0,0,700"\n'
    check = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path, text)))["tray and zones"]
    assert check.status == FAIL and "camera.tray: bad tray '0,0,700'" in check.message


def test_the_tray_set_on_the_page_is_the_one_checked(tmp_path):
    from companion.table.tray_choice import TrayChoice

    (tmp_path / "state").mkdir()
    TrayChoice(tmp_path / "state", "auto").save((0, 0, 1280, 720))
    text = '[camera]\nwidth = 640\nheight = 480\ntray = "auto"\n'
    check = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path, text)))["tray and zones"]
    assert check.status == WARN
    assert "the tray set on the page 0,0,1280,720 reaches past the camera's 640x480 picture" in check.message
    text = '[camera]\nwidth = 640\nheight = 480\ntray = "0,0,600,400"\n'  # edited since: the settings win
    check = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path, text)))["tray and zones"]
    assert check.status == OK


def _journal_with_a_game(state):
    from companion.table.journal import Journal
    from companion.table.owner import Table

    table = Table(Journal(state)).start()
    assert table.request({"do": "start", "game": "matterhorn", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    table.stop()
    table.journal._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    table.journal.close()
    return state / Journal.FILE_NAME


def test_a_sound_journal_is_checked_and_a_damaged_one_named_with_what_to_do(tmp_path):
    path = _journal_with_a_game(tmp_path / "state")
    sound = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path)))["journal"]
    assert sound.status == OK and str(path) in sound.message
    before = sorted(p.name for p in path.parent.iterdir())
    with open(path, "r+b") as f:  # a page zeroed by a power cut, as an SD card can leave it
        f.seek(path.stat().st_size - 4096)
        f.write(b"\0" * 4096)
    damaged = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path)))["journal"]
    assert damaged.status == FAIL and damaged.message.startswith(f"the game journal {path} is damaged (")
    assert damaged.fix.startswith("move it away") and "new, empty journal" in damaged.fix
    assert damaged.fix.endswith("; then start the companion again (`sudo systemctl restart companion`, or switch the Pi "
                                "off and on; by hand: stop `companion serve` and run it again)"), \
        "the service serves the page that says the journal is damaged until it is started again"
    assert sorted(p.name for p in path.parent.iterdir()) == before, "the doctor changes nothing"


def test_an_empty_write_ahead_log_alone_is_no_games_journaled_yet(tmp_path):
    """A checkpoint can leave an empty log: beside no journal it holds no games, and nothing needs sudo."""
    from companion.doctor import check_journal

    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.sqlite3-wal").write_bytes(b"")
    check = check_journal(state)
    assert check.status == OK and check.message == f"no games journaled yet in {state}", check


def test_a_card_switched_to_read_only_is_named_with_what_to_do(tmp_path):
    machine = fake_machine(tmp_path)
    machine.read_only = lambda path: True
    check = by_name(run_checks(machine, settings_file(tmp_path)))["disk"]
    assert check.status == FAIL and "switched to read-only" in check.message
    assert "restart the Pi" in check.fix and "replace the memory card" in check.fix


def test_a_journal_the_card_emptied_beside_its_write_ahead_log_is_named_and_the_log_left_alone(tmp_path):
    """Opened, even read-only, SQLite would delete the log that holds the evening's steps."""
    from companion.table.journal import Journal
    from companion.table.owner import Table

    table = Table(Journal(tmp_path / "state")).start()
    assert table.request({"do": "start", "game": "matterhorn", "players": [{"name": "Ada"}, {"name": "Ben"}]}).ok
    table.stop()
    path = table.journal.path
    log = path.with_name(path.name + "-wal")
    steps = log.read_bytes()  # as the power went
    table.journal.close()
    log.write_bytes(steps)
    path.write_bytes(b"")
    lost = by_name(run_checks(fake_machine(tmp_path), settings_file(tmp_path)))["journal"]
    assert lost.status == FAIL, lost
    assert lost.message.startswith(f"the game journal {path} is empty, but its write-ahead log {log.name} holds ")
    assert lost.fix.startswith("keep a copy of the folder") and "new, empty journal" in lost.fix
    assert lost.fix.endswith("sudo systemctl restart companion`, or switch the Pi off and on; by hand: stop `companion "
                             "serve` and run it again)")
    assert log.read_bytes() == steps, "the doctor changes nothing"
