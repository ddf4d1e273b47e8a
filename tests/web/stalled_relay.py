"""A TCP relay between the browser and the companion whose open connections can go silent without closing,
as a phone's do when the Wi-Fi drops (or the router restarts) and comes back: no FIN, no RST, nothing."""
import socket
import threading


class Relay:
    def __init__(self, target_port: int):
        self.target_port = target_port
        self.listener = socket.socket()
        self.listener.bind(("127.0.0.1", 0))
        self.listener.listen(32)
        self.port = self.listener.getsockname()[1]
        self.frozen: set[socket.socket] = set()  # connections whose bytes are held, not passed on
        self.live: list[tuple[socket.socket, socket.socket]] = []
        self.streams: set[socket.socket] = set()  # connections that carry a page's event stream
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.target_port))
            with self.lock:
                self.live.append((client, upstream))
            threading.Thread(target=self._pipe, args=(client, upstream, client), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, client), daemon=True).start()

    def _pipe(self, source, sink, client):
        while True:
            try:
                data = source.recv(65536)
            except OSError:
                return
            if not data:
                try:
                    sink.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            with self.lock:
                if source is client and data.startswith(b"GET /events"):
                    self.streams.add(client)
                frozen = client in self.frozen
            if frozen:
                continue  # lost on the way: the phone hears nothing, and nobody says the connection is gone
            try:
                sink.sendall(data)
            except OSError:
                return

    def drop_network(self):
        """Every event stream open now goes silent for ever; connections made afterwards work (the network is
        back). (The browser's other pooled connections are left alone, so that a tap gets through at once.)"""
        with self.lock:
            self.frozen.update(self.streams)

    def close(self):
        self.listener.close()
        with self.lock:
            for client, upstream in self.live:
                for s in (client, upstream):
                    try:
                        s.close()
                    except OSError:
                        pass
