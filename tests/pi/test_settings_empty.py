"""A settings file or pin map that a power cut left empty is refused with a word, never read as "all
defaults": an empty /etc/companion/companion.toml would move the page from port 80 to 8080 and swap the
user's pin map for the shipped one without a message."""
import pytest

from companion.config import BadSettings, load_settings
from companion.sensors.pinmap import PinMapError, load_pin_map

EMPTY = [b"", b"\n", b"  \n\t\r\n", b"\0" * 512]


@pytest.mark.parametrize("data", EMPTY, ids=["zero-bytes", "newline", "whitespace", "zeros"])
def test_an_empty_settings_file_is_refused_naming_it_and_the_way_back(tmp_path, data):
    path = tmp_path / "companion.toml"
    path.write_bytes(data)
    with pytest.raises(BadSettings) as refused:
        load_settings(path, env={})
    message = str(refused.value)
    assert str(path) in message and "is empty" in message
    assert "power cut" in message
    assert "systemd/companion.toml" in message and "systemd/install.sh" in message


def test_a_settings_file_of_comments_only_is_still_the_defaults(tmp_path):
    """Not empty: someone wrote it so (every line commented out), and the defaults are what it says."""
    path = tmp_path / "companion.toml"
    path.write_text("# all defaults\n")
    assert load_settings(path, env={})["service"]["port"] == 8080


@pytest.mark.parametrize("data", EMPTY, ids=["zero-bytes", "newline", "whitespace", "zeros"])
def test_an_empty_pin_map_is_refused_naming_it_and_the_way_back(tmp_path, data):
    path = tmp_path / "pinmap.json"
    path.write_bytes(data)
    with pytest.raises(PinMapError) as refused:
        load_pin_map(path)
    message = str(refused.value)
    assert str(path) in message and "is empty" in message and "power cut" in message
    assert "hardware/pinmap.json" in message and "systemd/install.sh" in message
