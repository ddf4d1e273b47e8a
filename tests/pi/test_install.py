"""The installer against a temporary root, with the system commands replaced by fakes that record every
change they are asked to make: a second run must change nothing, and an uninstall must leave only the
saved games."""
import hashlib
import os
import stat
import subprocess

import pytest

from tests.conftest import ROOT

INSTALLER = ROOT / "systemd" / "install.sh"

FAKES = {
    "dpkg-query": 'pkg="${@: -1}"; [ -f "$FAKE/dpkg/$pkg" ] && echo "install ok installed" || exit 1',
    "apt-get": 'echo "apt-get $*" >> "$FAKE/calls"; op=""; for a in "$@"; do case "$a" in install|remove) op=$a;; -*) ;; *)'
               ' [ -n "$op" ] && { [ $op = install ] && touch "$FAKE/dpkg/$a" || rm -f "$FAKE/dpkg/$a"; };; esac; done',
    "id": 'if [ "$1" = -u ] && [ -n "${2:-}" ]; then [ -f "$FAKE/users/$2" ] && echo 998 || exit 1;'
          ' elif [ "$1" = -nG ]; then cat "$FAKE/users/$2"; else exec /usr/bin/id "$@"; fi',
    "useradd": 'echo "useradd $*" >> "$FAKE/calls"; echo "${@: -1}" > "$FAKE/users/${@: -1}"',
    "usermod": 'echo "usermod $*" >> "$FAKE/calls"; echo "$(cat "$FAKE/users/$3") $2" > "$FAKE/users/$3"',
    "userdel": 'echo "userdel $*" >> "$FAKE/calls"; rm -f "$FAKE/users/$1"',
    "groupdel": 'echo "groupdel $*" >> "$FAKE/calls"; touch "$FAKE/groupdel-$1"',
    "getent": 'if [ "$1" = passwd ]; then [ -f "$FAKE/users/$2" ] && echo "$2:x:1000:1000::/home/$2:/bin/bash"; exit;'
              ' fi; [ "$2" != dialout ] && [ ! -f "$FAKE/groupdel-$2" ]',
    "chown": 'echo "chown $*" >> "$FAKE/calls"',
    "systemctl": 'echo "systemctl $*" >> "$FAKE/calls"',
    "python3": 'echo "python3 $*" >> "$FAKE/calls"; d="${@: -1}"; mkdir -p "$d/bin";'
               ' printf "#!/bin/sh\\necho \\"pip \\$*\\" >> \\"$FAKE/calls\\"\\n" > "$d/bin/pip";'
               ' printf "#!/bin/sh\\n" > "$d/bin/python"; chmod +x "$d/bin/pip" "$d/bin/python"',
    # Notes what it was asked to sync (a file with its size, a folder with what it holds), apart from the calls.
    "sync": 'for a in "$@"; do if [ -d "$a" ]; then echo "folder $a: $(ls -A "$a" | tr "\\n" " ")";'
            ' else echo "file $a: $(wc -c < "$a") bytes"; fi >> "$FAKE/synced"; done',
}


@pytest.fixture
def machine(tmp_path):
    root, fake, bin_ = tmp_path / "root", tmp_path / "fake", tmp_path / "bin"
    for d in (root / "etc", fake / "dpkg", fake / "users", bin_):
        d.mkdir(parents=True)
    (root / "etc" / "os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n')
    (fake / "calls").write_text("")
    for name, body in FAKES.items():
        path = bin_ / name
        path.write_text(f"#!/usr/bin/env bash\n{body}\n")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    env = {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}", "FAKE": str(fake)}
    env.pop("SUDO_USER", None)

    class Machine:
        def run(self, *args, sudo_user=None):
            (fake / "calls").write_text("")
            proc = subprocess.run(["bash", str(INSTALLER), "--root", str(root), *args],
                                  env={**env, "SUDO_USER": sudo_user} if sudo_user else env,
                                  capture_output=True, text=True, timeout=120)
            return proc.returncode, proc.stdout + proc.stderr, (fake / "calls").read_text().splitlines()

        def tree(self):
            return {str(p.relative_to(root)): (hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_mode)
                    for p in sorted(root.rglob("*")) if p.is_file()}

    m = Machine()
    m.root, m.fake = root, fake
    return m


def test_install_then_install_again_changes_nothing(machine):
    code, out, calls = machine.run()
    assert code == 0, out
    assert "apt-get install -y -qq --no-install-recommends python3-picamera2 python3-lgpio python3-venv python3-pip" in calls
    assert any(c.startswith("useradd --system --user-group") for c in calls)
    assert "usermod -aG gpio companion" in calls and "usermod -aG video companion" in calls
    assert "no group 'dialout'" in out
    assert any(c.startswith("python3 -m venv --system-site-packages") for c in calls)
    assert any(c.startswith("pip install") and "constraints.txt" in c for c in calls)
    installed = (machine.root / "opt/companion/constraints.txt").read_text().split()
    tested = [line for line in (ROOT / "tests/constraints-bookworm.txt").read_text().splitlines()
              if line and not line.startswith(("#", "-c "))]
    assert "numpy<2" in installed and installed == tested  # `./dev test` runs every test again with these
    assert ["systemctl daemon-reload", "systemctl enable companion.service", "systemctl restart companion.service"] == \
        [c for c in calls if c.startswith("systemctl")]
    unit = (machine.root / "etc/systemd/system/companion.service").read_text()
    assert "ExecStart=/opt/companion/venv/bin/companion serve" in unit and "@VENV@" not in unit
    assert "port = 80" in (machine.root / "etc/companion/companion.toml").read_text()
    assert (machine.root / "etc/companion/pinmap.json").read_text() == (ROOT / "hardware/pinmap.json").read_text()
    assert os.readlink(machine.root / "usr/local/bin/companion") == "/opt/companion/venv/bin/companion", \
        "`companion doctor` and `companion teach` as the docs write them"
    assert (machine.root / "opt/companion/README.md").read_text() == (ROOT / "README.md").read_text(), \
        "the unit's Documentation="

    before = machine.tree()
    code, out, calls = machine.run()
    assert code == 0, out
    assert calls == [], "a second run must change nothing"
    assert machine.tree() == before
    assert "nothing to change" in out


def test_reinstall_keeps_the_users_settings(machine):
    machine.run()
    config = machine.root / "etc/companion/companion.toml"
    config.write_text(config.read_text().replace('source = "picamera2"', 'source = "usb:0"'))
    code, out, calls = machine.run()
    assert code == 0 and 'source = "usb:0"' in config.read_text()


def test_trixie_takes_numpy_2(machine):
    (machine.root / "etc/os-release").write_text("VERSION_CODENAME=trixie\n")
    code, out, _ = machine.run()
    assert code == 0, out
    assert "numpy>=2" in (machine.root / "opt/companion/constraints.txt").read_text()


def test_the_installers_help_is_its_usage_and_nothing_else(machine):
    """`systemd/install.sh --help` printed its usage as shell comments, then a line of its code."""
    code, out, calls = machine.run("--help")
    lines = out.splitlines()
    assert code == 0 and calls == [] and list(machine.tree()) == ["etc/os-release"]
    assert lines[0].startswith("Install the companion as a service on Raspberry Pi OS")
    assert any(line.strip().startswith("sudo systemd/install.sh --uninstall") for line in lines)
    assert not any(line.startswith("#") or "set -e" in line for line in lines), out


@pytest.mark.parametrize("mode", [[], ["--uninstall"]])
def test_without_sudo_the_installer_says_so_before_any_change(machine, tmp_path, mode):
    """`systemd/install.sh --uninstall` typed without sudo disabled the service (polkit asks for the password),
    then stopped at "rm: cannot remove ...: Permission denied", half removed. Run here on the real / as a login
    would be, with every command that could change it (rm too) a fake that only notes its call."""
    bin_ = tmp_path / "bin"  # the machine's fakes, with more: were the check for sudo lost, / must stay as it is
    noting = {name: f'echo "{name} $*" >> "$FAKE/calls"'
              for name in ("rm", "mkdir", "cp", "mv", "ln", "install", "chmod", "chown", "python3", "tee")}
    for name, body in {"id": 'if [ "$1" = -u ] && [ -z "${2:-}" ]; then echo 1000; else exec /usr/bin/id "$@"; fi',
                       **noting}.items():
        (bin_ / name).write_text(f"#!/usr/bin/env bash\n{body}\n")
        (bin_ / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}", "FAKE": str(machine.fake)}
    done = subprocess.run(["bash", str(INSTALLER), *mode], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and done.stdout == "", done.stdout
    assert done.stderr.strip() == "companion-install: run me with sudo", done.stderr
    assert (machine.fake / "calls").read_text() == ""


def test_an_unsupported_release_is_refused_before_any_change(machine):
    (machine.root / "etc/os-release").write_text("VERSION_CODENAME=buster\n")
    code, out, calls = machine.run()
    assert code != 0 and "'buster' is not supported" in out
    assert calls == [] and list(machine.tree()) == ["etc/os-release"]


def test_the_person_who_installs_may_teach_dice_into_the_services_folder(machine):
    (machine.fake / "users" / "pi").write_text("pi adm sudo")
    code, out, calls = machine.run(sudo_user="pi")
    assert code == 0, out
    assert "usermod -aG companion pi" in calls and "log out and in again" in out
    assert "StateDirectoryMode=0770" in (machine.root / "etc/systemd/system/companion.service").read_text()
    code, out, calls = machine.run(sudo_user="pi")
    assert calls == [], "a second run must change nothing"


def test_dice_taught_in_the_persons_folder_before_an_update_become_the_services(machine):
    """An install from before `companion teach` wrote to the service's folder: the fruit dice taught as pi
    were never read by the service. Updating copies them over; dice the service has its own of are kept."""
    (machine.fake / "users" / "pi").write_text("pi adm sudo")
    taught = machine.root / "home/pi/.local/state/companion/symbols/default"
    taught.mkdir(parents=True)
    (taught / "fruit.json").write_text('{"format": 1, "kind": "fruit", "faces": {}}')
    (taught / "matcho.json").write_text('{"format": 1, "kind": "matcho", "faces": {"monkey": []}}')
    services = machine.root / "var/lib/companion/symbols/default"
    services.mkdir(parents=True)
    (services / "matcho.json").write_text('{"format": 1, "kind": "matcho", "faces": {}}')
    code, out, calls = machine.run(sudo_user="pi")
    assert code == 0, out
    assert (services / "fruit.json").read_text() == (taught / "fruit.json").read_text()
    assert "copied to /var/lib/companion/symbols/default/fruit.json" in out
    assert "chown -R companion:companion " + str(machine.root / "var/lib/companion/symbols") in calls
    assert services.stat().st_mode & 0o070 == 0o070, "the person may teach more by hand"
    assert (services / "matcho.json").read_text() == '{"format": 1, "kind": "matcho", "faces": {}}', \
        "what the service was taught is never overwritten"
    assert "the service keeps its own, /var/lib/companion/symbols/default/matcho.json" in out
    assert (taught / "fruit.json").exists(), "the person's copy stays"
    code, out, calls = machine.run(sudo_user="pi")
    assert calls == [] and "nothing to change" in out, "a second run must change nothing"


def test_uninstall_leaves_only_the_saved_games_and_the_settings(machine):
    (machine.fake / "users" / "pi").write_text("pi")
    machine.run(sudo_user="pi")
    games = machine.root / "var/lib/companion/journal.sqlite3"
    games.parent.mkdir(parents=True)
    games.write_text("saved games")
    code, out, calls = machine.run("--uninstall")
    assert code == 0, out
    assert "systemctl disable --now companion.service" in calls
    assert "apt-get remove -y -qq python3-picamera2 python3-lgpio python3-venv python3-pip" in calls
    assert "userdel companion" in calls and "groupdel companion" in calls
    assert sorted(machine.tree()) == ["etc/companion/companion.toml", "etc/companion/pinmap.json", "etc/os-release",
                                      "var/lib/companion/journal.sqlite3"]
    assert not os.path.lexists(machine.root / "usr/local/bin/companion")
    assert "saved games are kept in /var/lib/companion" in out
    assert "settings and pin map are kept in /etc/companion" in out


def test_the_shipped_settings_file_is_valid_and_complete(tmp_path):
    from companion.config import SCHEMA, load_settings

    text = (ROOT / "systemd/companion.toml").read_text()
    settings = load_settings(ROOT / "systemd/companion.toml", env={})
    for section, keys in SCHEMA.items():
        for key in keys:
            assert f"\n{key} = " in text, f"{section}.{key} is not in the shipped settings file"
    assert settings["service"]["port"] == 80


def test_the_settings_and_the_pin_map_are_synced_before_and_after_their_rename(machine):
    """A new file renamed into place before its data reach the card can be empty after a power cut (ext4)."""
    code, out, _ = machine.run()
    assert code == 0, out
    synced = (machine.fake / "synced").read_text().splitlines()
    etc = machine.root / "etc/companion"
    for name in ("companion.toml", "pinmap.json"):
        size = len((etc / name).read_bytes())
        data = synced.index(f"file {etc / name}.tmp: {size} bytes")  # the data, while still the .tmp
        folder = [i for i, line in enumerate(synced) if line.startswith(f"folder {etc}: ")
                  and f" {name} " in f" {line.split(': ', 1)[1]}" and f"{name}.tmp" not in line]
        assert folder and folder[0] > data, synced  # then the folder, once the rename is in it
    unit = machine.root / "etc/systemd/system/companion.service"
    assert f"file {unit}.tmp: {len(unit.read_bytes())} bytes" in synced


@pytest.mark.parametrize("damage", [b"", b"\n  \n", b"\0" * 4096], ids=["zero-bytes", "whitespace", "zeros"])
def test_an_empty_settings_file_or_pin_map_is_written_again(machine, damage):
    """What a power cut during the first install can leave: install.sh run again puts them back, saying so."""
    code, out, _ = machine.run()
    assert code == 0, out
    etc = machine.root / "etc/companion"
    for name in ("companion.toml", "pinmap.json"):
        (etc / name).write_bytes(damage)
    code, out, calls = machine.run()
    assert code == 0, out
    assert "port = 80" in (etc / "companion.toml").read_text()
    assert (etc / "pinmap.json").read_text() == (ROOT / "hardware/pinmap.json").read_text()
    assert "/etc/companion/companion.toml was empty" in out and "/etc/companion/pinmap.json was empty" in out
    assert "systemctl restart companion.service" in calls, "the service reads the restored settings"
    code, out, calls = machine.run()
    assert calls == [] and "nothing to change" in out
