"""Connections shared fairly between the devices at the table.

waitress serves at most `connection_limit` connections and, with that many open, accepts no more at all, so
one device that opened them and sent half a request on each (or a phone app gone wrong) shut every phone and
the table's own screen out until it let go. Here a device holds at most MAX_PER_ADDRESS: a new connection past
that closes that device's own oldest idle ones (no request being answered, nothing left to send), those with a
request still arriving last. A browser uses at most six per site; a phone whose wifi dropped gets its dead
connections replaced by its new ones.
"""
from __future__ import annotations

from waitress.channel import HTTPChannel

MAX_PER_ADDRESS = 32  # six a browser, a few browsers on one device (the Pi: its screen and a test's phones)
CONNECTION_LIMIT = 256  # waitress's default is 100; each is a file descriptor, of the 1024 a service may open


class FairChannel(HTTPChannel):
    """waitress's connection, making room among its own device's connections as it opens (in waitress's
    main loop, the one thread that opens and closes connections)."""

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        mine = [channel for channel in list(self._map.values())
                if isinstance(channel, HTTPChannel) and channel is not self and same_device(channel.addr, addr)]
        excess = len(mine) + 1 - MAX_PER_ADDRESS
        if excess <= 0:
            return
        # a request still arriving (a tap over weak wifi) goes last: only past the idle keep-alive connections
        idle = sorted((channel for channel in mine if is_idle(channel)),
                      key=lambda channel: (channel.request is not None, channel.last_activity))
        for channel in idle[:excess]:
            channel.handle_close()
        if excess > len(idle):  # its others are all busy answering: this one is refused instead
            self.handle_close()


def same_device(one, other) -> bool:
    return bool(one) and bool(other) and one[0] == other[0]


def is_idle(channel: HTTPChannel) -> bool:
    """No request being answered and nothing left to send: closing it loses nothing (a browser opens another)."""
    return not channel.requests and not channel.total_outbufs_len
