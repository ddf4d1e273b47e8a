"""companion.local: what is announced, and that a network without multicast costs only the name.

A fake Zeroconf stands in for the network: no multicast leaves this machine in tests."""
from companion.announce import Announcer, lan_addresses, page_urls


class FakeZeroconf:
    def __init__(self, fail=False):
        self.fail, self.registered, self.closed = fail, [], False

    def register_service(self, info, allow_name_change=False):
        if self.fail:
            raise OSError("No such device: multicast is not allowed")
        self.registered.append(info)

    def unregister_service(self, info):
        self.registered.remove(info)

    def close(self):
        self.closed = True


def test_announces_companion_local_with_the_page_port():
    fake = FakeZeroconf()
    announcer = Announcer(80, ["192.168.1.40"], zeroconf_factory=lambda: fake)
    assert announcer.start()
    info = fake.registered[0]
    assert info.server == "companion.local." and info.port == 80
    assert info.parsed_addresses() == ["192.168.1.40"] and info.type == "_http._tcp.local."
    announcer.close()
    assert fake.registered == [] and fake.closed


def test_a_network_without_multicast_costs_only_the_name():
    announcer = Announcer(80, ["192.168.1.40"], zeroconf_factory=lambda: FakeZeroconf(fail=True))
    assert not announcer.start()
    assert "use the numeric address" in announcer.error


def test_no_address_says_to_connect_the_network():
    announcer = Announcer(80, [], zeroconf_factory=FakeZeroconf)
    assert not announcer.start() and "home network" in announcer.error


def test_urls_for_phones():
    assert page_urls(80, ["192.168.1.40"]) == ["http://companion.local/", "http://192.168.1.40/"]
    assert page_urls(8080, ["10.0.0.5"]) == ["http://companion.local:8080/", "http://10.0.0.5:8080/"]
    assert all(not a.startswith("127.") for a in lan_addresses())


def test_the_port_announced_is_the_number_the_page_server_listens_on():
    """Waitress gives its port as text; zeroconf refuses that, and companion.local was never announced."""
    from waitress.server import create_server

    from companion.web.cli_serve import listening_port

    server = create_server(lambda environ, start_response: [], host="127.0.0.1", port=0)
    try:
        port = listening_port(server)
        info = Announcer(port, ["192.0.2.10"]).service_info()  # the real zeroconf ServiceInfo checks the type
        assert info.port == port == server.socket.getsockname()[1]
        assert page_urls(80, ["192.0.2.10"])[-1] == "http://192.0.2.10/"
    finally:
        server.close()
