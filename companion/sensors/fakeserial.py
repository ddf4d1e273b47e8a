"""A stand-in for the hub's USB serial port, for the tests and the benchmark: bytes go in with `send`,
the driver reads them with `readline`; `unplug` and `plug` act out the cable."""
from __future__ import annotations

import threading

from .hubprotocol import crc16


def hub_line(seq: int, body: str) -> bytes:
    """One line as the firmware frames it."""
    text = f"{seq} {body}"
    return f"{text}*{crc16(text.encode()):04X}\r\n".encode()


class FakeSerial:
    def __init__(self, port: str = "/dev/fake-hub", timeout: float = 0.05):
        self.port = port
        self.timeout = timeout
        self._buffer = bytearray()
        self._cond = threading.Condition()
        self.unplugged = False
        self.closed = False

    def send(self, data: bytes) -> None:
        with self._cond:
            self._buffer += data
            self._cond.notify_all()

    def unplug(self) -> None:
        with self._cond:
            self.unplugged = True
            self._cond.notify_all()

    @property
    def in_waiting(self) -> int:
        """pyserial's: the bytes sent and not read yet."""
        with self._cond:
            return len(self._buffer)

    def readline(self) -> bytes:
        import serial

        with self._cond:
            self._cond.wait_for(lambda: b"\n" in self._buffer or self.unplugged or self.closed, self.timeout)
            if self.unplugged or self.closed:
                raise serial.SerialException("device reports readiness to read but returned no data "
                                             "(device disconnected or multiple access on port?)")
            end = self._buffer.find(b"\n")
            end = len(self._buffer) if end < 0 else end + 1
            line = bytes(self._buffer[:end])
            del self._buffer[:end]
            return line

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()


class FakeHubSocket:
    """Opens FakeSerial ports while "plugged in", fails like pyserial while not: the HubBackend's open_port."""

    def __init__(self):
        self.plugged = True
        self.current: FakeSerial | None = None
        self.opened = threading.Semaphore(0)
        self.opens = 0
        self.tries = 0  # opens asked for, plugged in or not

    def __call__(self, port: str) -> FakeSerial:
        import serial

        self.tries += 1
        if not self.plugged:
            raise serial.SerialException(f"[Errno 2] could not open port {port}: No such file or directory")
        self.current = FakeSerial(port if port != "auto" else "/dev/fake-hub")
        self.opens += 1
        self.opened.release()
        return self.current

    def unplug(self) -> None:
        self.plugged = False
        if self.current is not None:
            self.current.unplug()

    def plug(self) -> None:
        self.plugged = True
