import socket
import time

import pytest


@pytest.fixture
def notify_socket(tmp_path):
    """A fake NOTIFY_SOCKET: (its path, the bound datagram socket)."""
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(0.05)
    yield path, sock
    sock.close()


def received(sock, seconds, until=None):
    """The datagrams that arrive within `seconds` (stopping early at one containing `until`)."""
    out, end = [], time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            out.append(sock.recv(4096).decode())
        except socket.timeout:
            continue
        if until and until in out[-1]:
            break
    return out
