"""The notify protocol against a fake NOTIFY_SOCKET: readiness, pings while healthy, none while stalled."""
from companion.sdnotify import Heartbeat, Notifier, Watchdog

from .conftest import received


def test_ready_and_status(notify_socket):
    path, sock = notify_socket
    notifier = Notifier({"NOTIFY_SOCKET": path})
    assert notifier.ready("serving on port 8080")
    assert received(sock, 0.2) == ["READY=1\nSTATUS=serving on port 8080"]


def test_without_notify_socket_nothing_is_sent():
    notifier = Notifier({})
    assert not notifier.enabled and not notifier.ready() and not notifier.ping()


def test_watchdog_period_comes_from_systemd():
    assert Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "30000000"}).watchdog_seconds == 30
    assert Notifier({"NOTIFY_SOCKET": "/x", "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"}).watchdog_seconds is None


def test_pings_stop_while_the_loop_is_stalled(notify_socket):
    path, sock = notify_socket
    now = [0.0]
    heartbeat = Heartbeat(max_silence=5.0, clock=lambda: now[0])
    watchdog = Watchdog(Notifier({"NOTIFY_SOCKET": path}), heartbeat.healthy, interval=0.02).start()
    try:
        assert "WATCHDOG=1" in received(sock, 0.3)
        now[0] = 10.0  # no beat for ten seconds: the loop is stalled
        received(sock, 0.1)  # a ping already on its way when the loop stalled
        stalled = received(sock, 0.3)
        assert "WATCHDOG=1" not in stalled
        heartbeat.beat()
        assert "WATCHDOG=1" in received(sock, 0.3)
    finally:
        watchdog.stop()
