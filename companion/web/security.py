"""Who may use the page: the local network only (unless security.allow_outside), no cross-site POSTs.

- A request from an address outside the local network (not loopback, private, link-local or unique-local)
  is refused with 403, unless the settings allow it.
- A state-changing request (POST) must come from this page: when the browser sends `Origin` (or, failing
  that, `Referer`), its host must be the host the request was sent to. A request with neither (curl, a
  script on the table's own network) is allowed; a browser always sends Origin with a cross-site POST.
- The join code, checked after these on every state-changing request, is companion/web/joincode.py's.
"""
from __future__ import annotations

import ipaddress
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
