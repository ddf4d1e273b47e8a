"""What a newcomer reads and types: settings (file and environment), doctor, and the commands' arguments, as
README and systemd/companion.toml describe them. The CLI runs in a subprocess where the environment matters."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def companion(*args: str, env: dict | None = None, cwd: Path = ROOT, timeout: float = 120):
    base = {k: v for k, v in os.environ.items() if not k.startswith("COMPANION_") and k != "STATE_DIRECTORY"}
    proc = subprocess.run([sys.executable, "-W", "ignore", "-m", "companion", *args], cwd=cwd, capture_output=True,
                          text=True, timeout=timeout, env={**base, "PYTHONPATH": str(ROOT), **(env or {})})
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def home(tmp_path):
    """A private XDG state home, so nothing here touches ~/.local/state/companion."""
    return {"XDG_STATE_HOME": str(tmp_path / "xdg")}


def scene_png(tmp_path: Path) -> Path:
    import cv2

    from companion.vision.scene import render_scene

    image, _ = render_scene(3, dice=4)
    path = tmp_path / "scene.png"
    cv2.imwrite(str(path), image)
    return path


# 1. sensors.backend takes four words (companion.toml: "gpio, hub, mock, or none"); a typo is not refused when the
#    settings load, `companion doctor` then says every sensor check is fine, and the service runs with no sensors.
def test_a_mistyped_sensors_backend_is_refused_when_the_settings_load(tmp_path):
    from companion.config import BadSettings, load_settings

    path = tmp_path / "companion.toml"
    path.write_text('[sensors]\nbackend = "gpoi"\n')
    with pytest.raises(BadSettings, match="sensors.backend"):
        load_settings(path, env={})


def test_doctor_does_not_pass_a_mistyped_sensors_backend(tmp_path, home):
    code, out, _ = companion("doctor", "--json", env={**home, "COMPANION_SENSORS_BACKEND": "gpoi"})
    checks = [json.loads(line) for line in out.splitlines()]
    oks = [c["name"] for c in checks if c["status"] == "ok" and "gpoi" in c["message"]]
    assert oks == [], f"doctor calls these fine with sensors.backend = gpoi: {oks}"


# 2. `companion teach` keeps the dice in service.state_dir; `companion read --dice fruit` looks elsewhere (the
#    built-in default folder), so dice just taught are "not taught yet".
def test_read_finds_the_fruit_dice_teach_kept_in_the_settings_state_dir(tmp_path, home):
    image = scene_png(tmp_path)
    env = {**home, "COMPANION_SERVICE_STATE_DIR": str(tmp_path / "games")}
    for face in ("coconut", "starfruit", "orange", "banana", "pineapple", "papaya"):
        code, out, err = companion("teach", "fruit", "--face", face, str(image), env=env)
        assert code == 0, err
    code, out, err = companion("teach", "fruit", "--status", env=env)
    assert "all fruit faces taught" in out
    code, out, err = companion("read", "--dice", "fruit", str(image), "--json", env=env)
    assert code == 0 and "not taught" not in err, err


# 4. A bad value from the environment: doctor's fix reads "edit None", and no message names the variable.
def test_doctor_names_the_environment_variable_of_a_bad_value(home):
    code, out, _ = companion("doctor", env={**home, "COMPANION_SERVICE_PORT": "eighty"})
    assert code == 1
    assert "None" not in out, out
    assert "COMPANION_SERVICE_PORT" in out, out


def test_serve_names_the_environment_variable_of_a_bad_value(home):
    code, _, err = companion("serve", env={**home, "COMPANION_SERVICE_PORT": "eighty"})
    assert code == 2 and "COMPANION_SERVICE_PORT" in err, err


# 5. `state_dir = "~/games"` (the way everyone writes a folder in their home) makes a folder named "~" in whatever
#    directory the command runs from: games and taught dice split by the current directory.
def test_a_state_dir_under_home_is_the_home_folder(tmp_path, home):
    settings = tmp_path / "companion.toml"
    settings.write_text('[service]\nstate_dir = "~/companion-games"\n')
    from companion.config import load_settings

    state_dir = load_settings(settings, env={}).state_dir
    assert "~" not in str(state_dir) and state_dir.is_absolute(), state_dir
    image = scene_png(tmp_path)
    work = tmp_path / "somewhere"
    work.mkdir()
    fake_home = tmp_path / "home"
    fake_home.mkdir()
    code, _, err = companion("teach", "fruit", "--face", "banana", str(image),
                             env={**home, "HOME": str(fake_home), "COMPANION_SETTINGS": str(settings)}, cwd=work)
    assert code == 0, err
    assert not (work / "~").exists(), "a folder named '~' was made in the current directory"


# 6. A mistyped section in an environment variable is ignored without a word, though a mistyped key is refused.
def test_a_mistyped_section_in_an_environment_variable_is_not_ignored(home):
    code_key, _, err_key = companion("doctor", env={**home, "COMPANION_SERVICE_PROT": "9000"})
    assert code_key == 1  # refused: unknown setting service.prot
    code, out, _ = companion("doctor", env={**home, "COMPANION_SERVISE_PORT": "9000"})
    assert "SERVISE" in out or "servise" in out, "COMPANION_SERVISE_PORT=9000 was silently ignored"


# 7. service.threads lowered (say to 8, on a small Pi) with max_streams left at 16: doctor says the settings are
#    fine, companion.toml's comment does not tell, and `companion serve` (the service) refuses to start.
def test_doctor_catches_threads_that_serve_refuses(home):
    env = {**home, "COMPANION_SERVICE_THREADS": "8"}
    code, out, _ = companion("doctor", "--json", env=env)
    settings = json.loads(out.splitlines()[0])
    code_serve, _, err = companion("serve", "--port", "0", env={**env, "COMPANION_SENSORS_BACKEND": "none"},
                                   timeout=30)
    assert code_serve == 2 and "max_streams" in err
    assert settings["status"] == "fail", f"doctor: {settings['message']!r}; serve: {err.strip()}"


# 8. `companion replay DIR --speed 1e-12` (or a demo's --demo-speed): a recorded gap divided by the speed overflows
#    time.sleep, and the replay ends in a traceback.
def test_a_tiny_replay_speed_is_one_line_not_a_traceback(tmp_path, home):
    code, _, err = companion("record", "--out", str(tmp_path / "rec"), "--synthetic", "matterhorn", env=home)
    assert code == 0, err
    code, _, err = companion("replay", str(tmp_path / "rec"), "--speed", "1e-12", env=home, timeout=60)
    assert "Traceback" not in err and code == 2 and len(err.strip().splitlines()) == 1, err


# 9. One accented letter saved in Latin-1 (say "café" in a comment): the settings file "is not a text file", to be
#    restored from the shipped one (losing every edit) "or run sudo systemd/install.sh again, which rewrites an
#    empty one" -- it does not rewrite this one (systemd/install.sh: missing_or_empty).
def test_a_settings_file_with_one_latin1_letter_is_named_as_such(tmp_path):
    from companion.config import BadSettings, load_settings

    path = tmp_path / "companion.toml"
    path.write_bytes(b"# caf\xe9 table\n[service]\nport = 8080\n")
    with pytest.raises(BadSettings) as caught:
        load_settings(path, env={})
    message = str(caught.value)
    assert "rewrites an empty one" not in message and "line 1" in message, message


# 10. `companion teach fruit --face banana a.jpg --face orange b.jpg` (the help's "--face FACE IMAGE [FACE IMAGE
#     ...]" reads as if faces could follow each other): the second --face silently replaces the first, exit 0, and
#     banana is not taught.
def test_a_second_face_does_not_silently_drop_the_first(tmp_path, home):
    image = scene_png(tmp_path)
    env = {**home, "COMPANION_SERVICE_STATE_DIR": str(tmp_path / "games")}
    code, out, err = companion("teach", "fruit", "--face", "banana", str(image), "--face", "orange", str(image),
                               env=env)
    _, status, _ = companion("teach", "fruit", "--status", env=env)
    taught = {line.split(":")[0] for line in status.splitlines() if line.endswith("example(s)") and
              not line.endswith(" 0 example(s)")}
    assert code == 2 or taught == {"banana", "orange"}, (code, status)


def test_a_backend_typed_in_capitals_still_starts_the_service(tmp_path):
    """`backend = "Hub"` started the service before the backend became a choice; it must still."""
    from companion.config import load_settings

    path = tmp_path / "companion.toml"
    path.write_text('[sensors]\nbackend = " Hub"\n', encoding="utf-8")
    assert load_settings(path, env={})["sensors"]["backend"] == "hub"


def test_a_home_path_in_the_services_own_settings_is_refused_by_name(tmp_path, monkeypatch):
    """The service runs as user companion (home /var/lib/companion), doctor and teach as the person: in the
    system's settings file "~/games" would be two folders, the service's games and teach's dice apart."""
    from companion.config import BadSettings, load_settings

    system = tmp_path / "etc" / "companion.toml"
    system.parent.mkdir()
    system.write_text('[service]\nstate_dir = "~/games"\n', encoding="utf-8")
    monkeypatch.setattr("companion.config.SYSTEM_SETTINGS", system)
    with pytest.raises(BadSettings, match=r"service.state_dir is '~/games'.*write the whole path, "
                                          r"'/var/lib/companion/games' to keep what the service kept there"):
        load_settings(system, env={})  # older companions read it so: an update must not lose those games
    own = tmp_path / "mine.toml"  # a person's own settings, read only by them: '~' is their home
    own.write_text('[service]\nstate_dir = "~/games"\n', encoding="utf-8")
    assert "~" not in str(load_settings(own, env={}).state_dir)
