"""A minimal Server-Sent-Events client (standard library only), for the latency benchmark and the tests."""
from __future__ import annotations

import http.client
import json
from typing import Any, Iterator
from urllib.parse import urlsplit


class SSEClient:
    def __init__(self, url: str, timeout: float = 10.0, last_event_id: str | None = None,
                 headers: dict[str, str] | None = None):
        parts = urlsplit(url)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=timeout)
        headers = {"Accept": "text/event-stream", **(headers or {})}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.connection.request("GET", parts.path or "/", headers=headers)
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.comments = 0

    def events(self) -> Iterator[dict[str, Any]]:
        """Each event as {"event", "id", "data"} (data parsed as JSON when it is JSON)."""
        fields: dict[str, Any] = {}
        data: list[str] = []
        while True:
            raw = self.response.readline()
            if not raw:
                return
            line = raw.decode().rstrip("\r\n")
            if not line:
                if data:
                    text = "\n".join(data)
                    try:
                        fields["data"] = json.loads(text)
                    except json.JSONDecodeError:
                        fields["data"] = text
                    yield {"event": fields.get("event", "message"), "id": fields.get("id"), "data": fields["data"]}
                fields, data = {}, []
                continue
            if line.startswith(":"):
                self.comments += 1
                continue
            name, _, value = line.partition(":")
            value = value[1:] if value.startswith(" ") else value
            if name == "data":
                data.append(value)
            else:
                fields[name] = value

    def next_state(self) -> dict[str, Any]:
        for event in self.events():
            if event["event"] == "state":
                return event["data"]
        raise ConnectionError("the stream ended")

    def close(self) -> None:
        self.response.close()  # the socket stays open while the response holds it
        self.connection.close()
