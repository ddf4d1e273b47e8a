"""Who may use the page: the local network only (unless security.allow_outside), no cross-site POSTs.

- A request from an address outside the local network (not loopback, private, link-local or unique-local)
  is refused with 403, unless the settings allow it.
- A request sent to a name that is not the companion's is refused with 403 (DNS rebinding: a page on the
  internet whose name is made to point at the Pi would otherwise be same-origin with itself, and on the Pi's
  own screen always joined). The companion's names: any numeric address, localhost, a name without a dot
  (the Pi's hostname) and the home-network names (.local, .lan, .home, .home.arpa, .internal, ...), which no
  page on the internet can have. With security.allow_outside any name is served.
- A state-changing request (POST) must come from this page: when the browser sends `Origin` (or, failing
  that, `Referer`), its host must be the host the request was sent to. A request with neither (curl, a
  script on the table's own network) is allowed; a browser always sends Origin with a cross-site POST.
- The join code, checked after these on every state-changing request, is companion/web/joincode.py's.
"""
from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit


class Refused(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def is_local_address(address: str | None) -> bool:
    if not address:
        return False
    try:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_loopback or ip.is_private or ip.is_link_local


def check_client(remote_addr: str | None, allow_outside: bool) -> None:
    if allow_outside or is_local_address(remote_addr):
        return
    raise Refused(403, f"this companion only serves its own local network (your address is {remote_addr}); "
                       "set security.allow_outside to change that")


# Names only the home network resolves: no page on the internet can be served from one of them. RFC 6762
# appendix G's private top-level names, and the names home routers give (a FRITZ!Box's fritz.box).
LOCAL_NAME_SUFFIXES = (".local", ".localhost", ".lan", ".home", ".home.arpa", ".internal", ".localdomain",
                       ".intranet", ".private", ".corp", ".fritz.box")


def host_name(host: str) -> str:
    """The name or address of a Host header, without its port, brackets or trailing dot, in lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return name.rstrip(".")


def is_address(name: str | None) -> bool:
    """A numeric address (an IPv6 one may carry its %zone), not a name."""
    try:
        ipaddress.ip_address((name or "").split("%", 1)[0])
        return True
    except ValueError:
        return False


def is_loopback_host(host: str | None) -> bool:
    """The Pi's own screen's address (a Host header or a URL's host): no other device can open it."""
    return host_name(host or "") in ("127.0.0.1", "localhost", "::1")


def is_own_name(host: str | None) -> bool:
    if not host:
        return True  # no Host at all: not a browser (every browser sends one)
    name = host_name(host)
    if is_address(name):
        return True  # an address is never a name someone else can point elsewhere
    return "." not in name or name == "localhost" or name.endswith(LOCAL_NAME_SUFFIXES)


def check_host(host: str | None, allow_outside: bool, names: tuple[str, ...] = ()) -> None:
    """`names`: other names the family opens the page by (the setting security.names)."""
    if allow_outside or is_own_name(host) or host_name(host or "") in names:
        return
    raise Refused(403, f"this companion answers to its own address only (its numeric address or companion.local), "
                       f"not {host_name(host or '')!r}: if that is its name on your network, add it to the "
                       "setting security.names")


def extra_names(setting: str) -> tuple[str, ...]:
    """The setting security.names: names separated by commas or spaces."""
    return tuple(host_name(name) for name in re.split(r"[,\s]+", setting) if name.strip())


def check_same_origin(method: str, headers, host: str | None) -> None:
    if method in ("GET", "HEAD", "OPTIONS"):
        return
    source = headers.get("Origin") or headers.get("Referer")
    if not source or source == "null" and not headers.get("Referer"):
        if source == "null":
            raise Refused(403, "requests from a sandboxed page are refused")
        return
    origin_host = urlsplit(source).netloc
    if not host or origin_host.lower() != host.lower():
        raise Refused(403, f"cross-site request refused: it came from {origin_host or source!r}, not from this page")
