#!/usr/bin/env bash
# Install the companion as a service on Raspberry Pi OS (Bookworm or Trixie), or remove it.
#
#   sudo systemd/install.sh               install, or update to this checkout; a second run changes nothing
#   sudo systemd/install.sh --uninstall   remove it all but the saved games and the settings, and say where they are
#
# --root DIR puts every file under DIR instead of / (for tests and image builders); the system commands
# (apt-get, dpkg-query, useradd, systemctl, ...) are the ones on PATH.
set -euo pipefail

ROOT=/
MODE=install
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
while [ $# -gt 0 ]; do
    case "$1" in
        --root) ROOT=${2:?--root needs a directory}; shift 2 ;;
        --uninstall) MODE=uninstall; shift ;;
        -h|--help) sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
        *) echo "install.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
ROOT=${ROOT%/}

PREFIX=/opt/companion
VENV=$PREFIX/venv
ETC=/etc/companion
UNIT=/etc/systemd/system/companion.service
STATE=/var/lib/companion
COMMAND=/usr/local/bin/companion
USER_NAME=companion
APT_PACKAGES=(python3-picamera2 python3-lgpio python3-venv python3-pip)
GROUPS_WANTED=(gpio video dialout)

say() { echo "companion-install: $*"; }
die() { echo "companion-install: $*" >&2; exit 1; }
at() { echo "$ROOT$1"; }

# Writes $2 to file $1 (under ROOT) only when the content differs; returns 0 when it changed the file.
# The data reach the card before the rename and the rename before the next step: on ext4 a new file
# renamed into place unsynced can be empty after a power cut.
put_file() {
    local path mode
    path=$(at "$1"); mode=$3
    if [ -f "$path" ] && [ "$(cat "$path")" == "$2" ]; then
        return 1
    fi
    mkdir -p "$(dirname "$path")"
    printf '%s\n' "$2" > "$path.tmp"
    chmod "$mode" "$path.tmp"
    sync "$path.tmp"
    mv "$path.tmp" "$path"
    sync "$(dirname "$path")"
    say "wrote $1"
    return 0
}

# True when file $1 (under ROOT) is missing, or holds nothing but blanks or zeros: what a power cut can
# leave of a file written just before it.
missing_or_empty() {
    local path
    path=$(at "$1")
    [ ! -f "$path" ] && return 0
    if [ -z "$(tr -d '[:space:]\000' < "$path" | head -c 1)" ]; then
        say "$1 was empty (a power cut while it was written?); writing the shipped one again"
        return 0
    fi
    return 1
}

release() {
    local codename=""
    if [ -r "$(at /etc/os-release)" ]; then
        codename=$(. "$(at /etc/os-release)" && echo "${VERSION_CODENAME:-}")
    fi
    echo "$codename"
}

# Debian's picamera2 is built against Debian's numpy: Bookworm ships numpy 1.24, and OpenCV 4.12 and newer
# need numpy 2, so Bookworm keeps OpenCV below 4.12. Trixie ships numpy 2.
constraints_for() {
    case "$1" in
        bookworm) printf '%s\n' "numpy<2" "opencv-python-headless>=4.8,<4.12" ;;
        trixie) printf '%s\n' "numpy>=2" "opencv-python-headless>=4.12" ;;
        *) die "Raspberry Pi OS '$1' is not supported: use Bookworm or Trixie (see /etc/os-release)" ;;
    esac
}

install_packages() {
    local missing=()
    for pkg in "${APT_PACKAGES[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
            missing+=("$pkg")
        fi
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing Debian packages: ${missing[*]}"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
        mkdir -p "$(at $PREFIX)"
        printf '%s\n' "${missing[@]}" >> "$(at $PREFIX/apt-installed.txt)"
    fi
}

create_user() {
    if ! id -u "$USER_NAME" >/dev/null 2>&1; then
        say "creating the system user $USER_NAME"
        useradd --system --user-group --home-dir "$STATE" --no-create-home --shell /usr/sbin/nologin "$USER_NAME"
    fi
    local have
    have=" $(id -nG "$USER_NAME") "
    for group in "${GROUPS_WANTED[@]}"; do
        if ! getent group "$group" >/dev/null; then
            say "no group '$group' on this system; skipped (expected only off a Raspberry Pi)"
        elif [[ "$have" != *" $group "* ]]; then
            usermod -aG "$group" "$USER_NAME"
            say "added $USER_NAME to the group $group"
        fi
    done
    # The person who installs reaches the service's folder ($STATE, open to the group): dice taught and
    # checks run by hand are the service's.
    local person=${SUDO_USER:-}
    if [ -n "$person" ] && [ "$person" != root ] && id -u "$person" >/dev/null 2>&1 &&
            [[ " $(id -nG "$person") " != *" $USER_NAME "* ]]; then
        usermod -aG "$USER_NAME" "$person"
        say "added $person to the group $USER_NAME (log out and in again for \`companion teach\` to reach the service's dice)"
    fi
}

# Dice taught before the service's folder was the default of `companion teach` (an install from before
# that, or teach run without the service) are in the folder of the person who installs, which the service
# never reads: each kind of dice the service has not been taught is copied to it, said, and the person's
# copy left. One the service was taught too is left as it is, and said. Returns 0 when it copied one.
adopt_taught_dice() {
    local person=${SUDO_USER:-} home from file name to copied=1
    [ -n "$person" ] && [ "$person" != root ] || return 1
    home=$(getent passwd "$person" | cut -d: -f6) || true
    [ -n "$home" ] || return 1
    from="$home/.local/state/companion/symbols"
    [ -d "$(at "$from")" ] || return 1
    for file in "$(at "$from")"/*/*.json; do
        [ -f "$file" ] || continue
        name=${file#"$(at "$from")/"}
        to=$(at "$STATE/symbols/$name")
        if [ -e "$to" ]; then
            cmp -s "$file" "$to" ||
                say "the dice taught as $person in $from/$name are not the service's; the service keeps its own, $STATE/symbols/$name"
            continue
        fi
        mkdir -p "$(dirname "$to")"
        cp "$file" "$to.tmp"
        sync "$to.tmp"
        mv "$to.tmp" "$to"
        sync "$(dirname "$to")"
        chown -R "$USER_NAME:$USER_NAME" "$(at "$STATE/symbols")"
        chmod -R g+rwX "$(at "$STATE/symbols")"  # the person may teach more by hand, as the unit's folder allows
        say "the dice taught as $person before this update ($from/$name) are now the service's: copied to $STATE/symbols/$name"
        copied=0
    done
    return $copied
}

# The fingerprint of an install: the constraints ($1), the source, and the packages the environment holds, so
# that a package changed there by hand (`pip install numpy`) is put back as pinned by the next run.
install_stamp() {
    (cat "$1"
     find "$(at $VENV)/lib" -maxdepth 3 -name '*.dist-info' -printf '%f\n' 2>/dev/null | sort
     cd "$SRC" && find companion models pyproject.toml -type f -not -path '*/__pycache__/*' -print0 | sort -z | xargs -0 sha256sum) |
        sha256sum | cut -d' ' -f1
}

install_venv() {
    local codename=$1 stamp want
    if [ ! -x "$(at $VENV)/bin/python" ]; then
        say "creating the virtual environment $VENV (with Debian's picamera2 visible)"
        python3 -m venv --system-site-packages "$(at $VENV)"
    fi
    constraints_for "$codename" > "$(at $PREFIX)/constraints.txt.new"
    want=$(install_stamp "$(at $PREFIX)/constraints.txt.new")
    stamp=$(at $PREFIX/installed.sha256)
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" == "$want" ]; then
        rm -f "$(at $PREFIX)/constraints.txt.new"
        return 1
    fi
    mv "$(at $PREFIX)/constraints.txt.new" "$(at $PREFIX)/constraints.txt"
    say "installing the companion into $VENV"
    "$(at $VENV)/bin/pip" install --quiet --disable-pip-version-check -c "$(at $PREFIX)/constraints.txt" "$SRC"
    install_stamp "$(at $PREFIX)/constraints.txt" > "$stamp"
    return 0
}

install_files() {
    local changed=1 unit config
    unit=$(sed "s#@VENV@#$VENV#g" "$SRC/systemd/companion.service")
    put_file "$UNIT" "$unit" 644 && changed=0
    # The settings and the pin map are the user's to edit: written once, never overwritten (unless empty).
    if missing_or_empty "$ETC/companion.toml"; then
        put_file "$ETC/companion.toml" "$(cat "$SRC/systemd/companion.toml")" 644
        changed=0
    fi
    if missing_or_empty "$ETC/pinmap.json"; then
        put_file "$ETC/pinmap.json" "$(cat "$SRC/hardware/pinmap.json")" 644
        changed=0
    fi
    put_file "$PREFIX/README.md" "$(cat "$SRC/README.md")" 644 || true
    if [ "$(readlink "$(at $COMMAND)" 2>/dev/null)" != "$VENV/bin/companion" ]; then
        mkdir -p "$(dirname "$(at $COMMAND)")"
        ln -sfn "$VENV/bin/companion" "$(at $COMMAND)"
        say "linked $COMMAND, so \`companion doctor\`, \`companion teach\` and the others run from any folder"
    fi
    return $changed
}

do_install() {
    local codename changed=no
    codename=$(release)
    constraints_for "$codename" >/dev/null
    say "Raspberry Pi OS $codename"
    mkdir -p "$(at $PREFIX)"
    install_packages
    create_user
    install_venv "$codename" && changed=yes
    install_files && changed=yes
    adopt_taught_dice && changed=yes
    if [ "$changed" = yes ]; then
        systemctl daemon-reload
        systemctl enable companion.service
        systemctl restart companion.service
        say "the companion is running; open http://companion.local on a phone on the same network"
        say "(or http://<this Pi's address>; 'journalctl -u companion' shows it and the join code)"
    else
        say "nothing to change: the companion is installed and up to date"
    fi
}

do_uninstall() {
    if [ -f "$(at $UNIT)" ]; then
        systemctl disable --now companion.service || true
        rm -f "$(at $UNIT)"
        systemctl daemon-reload
    fi
    if [ -f "$(at $PREFIX/apt-installed.txt)" ]; then
        mapfile -t ours < "$(at $PREFIX/apt-installed.txt)"
        say "removing the Debian packages this installer added: ${ours[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get remove -y -qq "${ours[@]}" || say "could not remove ${ours[*]}; remove them with apt if you wish"
    fi
    rm -rf "$(at $PREFIX)"
    if [ "$(readlink "$(at $COMMAND)" 2>/dev/null)" == "$VENV/bin/companion" ]; then
        rm -f "$(at $COMMAND)"
    fi
    if id -u "$USER_NAME" >/dev/null 2>&1; then
        userdel "$USER_NAME"
    fi
    if getent group "$USER_NAME" >/dev/null; then  # kept by userdel while the installing person is in it
        groupdel "$USER_NAME"
    fi
    say "the companion is removed."
    if [ -d "$(at $STATE)" ]; then
        say "your saved games are kept in $STATE (delete that folder to remove them too)"
    fi
    if [ -d "$(at $ETC)" ]; then
        say "your settings and pin map are kept in $ETC (delete that folder to remove them too)"
    fi
}

[ "$(id -u)" -eq 0 ] || [ "$ROOT" != "" ] || die "run me with sudo"
case "$MODE" in
    install) do_install ;;
    uninstall) do_uninstall ;;
esac
