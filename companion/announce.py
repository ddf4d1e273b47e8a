"""The page announced on the home network as http://companion.local, and the addresses to print for
phones that do not resolve .local names.

Raspberry Pi OS already runs Avahi for the Pi's own hostname; python-zeroconf shares port 5353 with it and
adds the name companion.local and an `_http._tcp` service. A network without multicast only loses the name:
the log and the page still give the numeric address.
"""
from __future__ import annotations

import ipaddress
import logging
from typing import Any, Callable

log = logging.getLogger(__name__)

HOSTNAME = "companion.local."
SERVICE_TYPE = "_http._tcp.local."


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses on local networks (no loopback, no link-local), from its interfaces."""
    import ifaddr

    found = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if not isinstance(ip.ip, str):
                continue
            address = ipaddress.ip_address(ip.ip)
            if not (address.is_loopback or address.is_link_local):
                found.append(ip.ip)
    return sorted(set(found), key=lambda a: ipaddress.ip_address(a))


def page_urls(port: int, addresses: list[str]) -> list[str]:
    suffix = "" if port == 80 else f":{port}"
    return [f"http://companion.local{suffix}/"] + [f"http://{a}{suffix}/" for a in addresses]


class Announcer:
    def __init__(self, port: int, addresses: list[str], zeroconf_factory: Callable[[], Any] | None = None):
        self.port = port
        self.addresses = addresses
        self._factory = zeroconf_factory
        self._zeroconf = None
        self.info = None
        self.error = ""

    def service_info(self):
        from zeroconf import ServiceInfo

        return ServiceInfo(SERVICE_TYPE, f"Companion.{SERVICE_TYPE}", port=self.port, properties={"path": "/"},
                           server=HOSTNAME, parsed_addresses=self.addresses)

    def start(self) -> bool:
        """Announce; False (with `error` saying why) when the network does not allow it."""
        if not self.addresses:
            self.error = "no local network address: connect the Pi to the home network"
            return False
        try:
            if self._factory is None:
                from zeroconf import Zeroconf

                self._factory = Zeroconf
            self._zeroconf = self._factory()
            self.info = self.service_info()
            self._zeroconf.register_service(self.info, allow_name_change=True)
        except Exception as exc:  # any network failure costs the name only, never the service
            self.error = f"could not announce companion.local ({exc}); use the numeric address"
            log.warning(self.error)
            self.close()
            return False
        return True

    def close(self) -> None:
        if self._zeroconf is not None:
            try:
                if self.info is not None:
                    self._zeroconf.unregister_service(self.info)
                self._zeroconf.close()
            except Exception as exc:
                log.warning("closing the mDNS announcement failed: %s", exc)
            self._zeroconf = None
