"""Only the table drives the game: a join code, remembered by a signed cookie.

Anyone on the home network may watch; a device acts on a game only after entering the code shown on the companion's
own screen (requests from the Pi itself are the table's own screen and always joined), in the service log, or as a
QR code on a device that already joined. The code and the signing key live in the state directory, so joined devices
stay joined across restarts (a new code that cannot be saved there, on a full card, holds until the next start: the
service plays on, and says so in its log); `rotate()` makes a new code and signs every device out. Wrong guesses are
rate-limited per address, and across the whole network: a device may take as many addresses as it likes (any IPv6
device has a /64 of them), so at most MAX_WRONG_PER_HOUR wrong codes an hour are tried in all, which puts the
million codes years away. The price: someone on the network who keeps guessing keeps new devices from joining
(joined ones and the table's own screen play on). The join link (GET /join) is refused when another site's page
opens it, so a page on the internet can neither sign a phone in nor spend the network's guesses.
"""
from __future__ import annotations

import hashlib
import html
import hmac
import ipaddress
import json
import secrets
import time
from collections import defaultdict, deque
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from ..durable import write_json
from .security import is_address, is_loopback_host

COOKIE = "companion_join"
CODE_DIGITS = 6
MAX_WRONG_PER_MINUTE = 10  # from one address
MAX_WRONG_PER_HOUR = 100  # from all addresses together
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# The words about joining, the page's included (index.html and app.js take them from the server)
JOIN_BUTTON = "Join to play"  # the page's button that asks for the code
WHERE_THE_CODE_IS = ("It is at the foot of the page on a phone that already plays, or on the companion's own screen "
                     "(the very first phone: whoever set the companion up finds it with journalctl -u companion).")


class JoinCodes:
    def __init__(self, state_dir: str | Path, clock: Callable[[], float] = time.monotonic):
        self.path = Path(state_dir) / "join.json"
        self.clock = clock
        self._wrong: dict[str, deque[float]] = defaultdict(deque)  # only addresses with a recent wrong code
        self._all_wrong: deque[float] = deque()
        self.not_kept: str | None = None  # why a new code could not be saved: it holds until the next start only
        data = self._read()
        if data is None:
            data = self._new_secrets()
            try:
                self._write(data)
            except OSError as exc:  # a full or read-only card: joining works tonight, not the whole service lost
                self.not_kept = _why_not_kept(self.path, exc)
        self.code: str = data["code"]
        self._key = bytes.fromhex(data["key"])

    def _read(self) -> dict | None:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return None
        if not (isinstance(data, dict) and str(data.get("code", "")).isdigit() and len(data.get("key", "")) == 64):
            return None
        return data

    @staticmethod
    def _new_secrets() -> dict:
        return {"code": "".join(secrets.choice("0123456789") for _ in range(CODE_DIGITS)), "key": secrets.token_hex(32)}

    def _write(self, data: dict) -> None:
        write_json(self.path, data, private=True)

    def rotate(self) -> str:
        data = self._new_secrets()
        self._write(data)
        self.code, self._key = data["code"], bytes.fromhex(data["key"])
        return self.code

    def _forget_old(self) -> None:
        now = self.clock()
        while self._all_wrong and now - self._all_wrong[0] > 3600:
            self._all_wrong.popleft()
        for address in list(self._wrong):
            attempts = self._wrong[address]
            while attempts and now - attempts[0] > 60:
                attempts.popleft()
            if not attempts:
                del self._wrong[address]

    def too_many_on_network(self) -> bool:
        self._forget_old()
        return len(self._all_wrong) >= MAX_WRONG_PER_HOUR

    def too_many_wrong(self, address: str) -> bool:
        if self.too_many_on_network():
            return True
        return address in self._wrong and len(self._wrong[address]) >= MAX_WRONG_PER_MINUTE

    def check(self, entered: str, address: str) -> bool:
        """True when `entered` is the code; a wrong one counts against `address` and the network."""
        if self.too_many_wrong(address):
            return False
        normalised = "".join(ch for ch in str(entered) if ch in "0123456789")  # not other scripts' digits
        if hmac.compare_digest(normalised, self.code):
            return True
        self._wrong[address].append(self.clock())
        self._all_wrong.append(self.clock())
        return False

    def issue_token(self) -> str:
        device = secrets.token_hex(12)
        return f"{device}.{self._sign(device)}"

    def valid_token(self, token: str | None) -> bool:
        if not token or "." not in token:
            return False
        device, signature = token.rsplit(".", 1)
        return hmac.compare_digest(signature, self._sign(device))

    def _sign(self, device: str) -> str:
        return hmac.new(self._key, f"{device}:{self.code}".encode(), hashlib.sha256).hexdigest()[:32]

    def join_url(self, url: str) -> str:
        """The page's address `url` with the code in it: opening it joins the device (GET /join)."""
        return f"{url.rstrip('/')}/join?code={self.code}"

    def qr_svg(self, url: str) -> str:
        """The join address with the code in it, as an SVG QR code for another phone to scan.

        A whole SVG file (namespace, XML declaration): the page shows it with <img>, which draws no inline SVG.
        Four modules of white around it, the quiet zone the QR standard asks for: with two, some codes were
        not found at all."""
        import io

        import segno

        out = io.BytesIO()
        segno.make(self.join_url(url), error="m").save(out, kind="svg", scale=6, border=4)
        return out.getvalue().decode()


def _why_not_kept(path: Path, exc: OSError) -> str:
    from ..table.journal import _folder_problem

    return _folder_problem(path.parent, exc) or \
        f"{path} cannot be written ({exc.strerror or exc}): check its permissions"


def is_own_screen(remote_addr: str | None) -> bool:
    try:
        return ipaddress.ip_address(remote_addr or "").is_loopback
    except ValueError:
        return False


def install(app, codes: JoinCodes | None) -> None:
    """Guard every state-changing request of a Flask app; add /api/join and /api/join/qr.

    `codes` None (the setting security.join_code off) lets every device on the network act."""
    from flask import jsonify, make_response, redirect, request

    def joined() -> bool:
        return codes is None or is_own_screen(request.remote_addr) or codes.valid_token(request.cookies.get(COOKIE))

    app.extensions["companion_joined"] = joined

    @app.before_request
    def require_join():
        if request.method in STATE_CHANGING and request.path != "/api/join" and not joined():
            return jsonify(error=f"This device has not joined the table: tap \"{JOIN_BUTTON}\" and enter the join "
                                 f"code. {WHERE_THE_CODE_IS}", join=True), 403
        return None

    @app.after_request
    def never_cached(response):
        if request.path in ("/join", "/api/join", "/api/join/qr"):  # they hold the code, or a cookie
            response.headers["Cache-Control"] = "no-store"
        return response

    def try_code(entered) -> tuple[str, int] | None:
        """None when `entered` is the code; else what is wrong and the status to answer with."""
        address = request.remote_addr or "?"
        if codes.too_many_on_network():
            return "Too many wrong codes were tried on this network: wait a while, then try again.", 429
        if codes.too_many_wrong(address):
            return "Too many wrong codes: wait a minute, then try again.", 429
        if not codes.check(str(entered), address):
            return f"That is not the join code. {WHERE_THE_CODE_IS} Then tap \"{JOIN_BUTTON}\" again.", 403
        return None

    def remember(response):
        response.set_cookie(COOKIE, codes.issue_token(), max_age=365 * 24 * 3600, httponly=True, samesite="Strict")
        return response

    @app.post("/api/join")
    def join():
        if codes is None:
            return jsonify(joined=True)
        try:
            payload = request.get_json(silent=True)
        except RecursionError:  # nested too deeply to read
            payload = None
        entered = payload.get("code") if isinstance(payload, dict) else None
        if not isinstance(entered, (str, int)):
            return jsonify(error="Send the join code as {\"code\": \"123456\"}."), 400
        wrong = try_code(entered)
        if wrong:
            return jsonify(error=wrong[0]), wrong[1]
        return remember(make_response(jsonify(joined=True)))

    def opened_from_another_site() -> bool:
        """A link, image or frame on another site's page (Sec-Fetch-Site; the Referer where a browser lacks it),
        not a QR code scanned or an address typed."""
        site = request.headers.get("Sec-Fetch-Site")
        if site is not None:
            return site not in ("none", "same-origin")
        referer = request.headers.get("Referer")
        return bool(referer) and urlsplit(referer).netloc.lower() != request.host.lower()

    def join_page(message: str, status: int):
        page = ("<!doctype html><html lang=en><meta name=viewport content='width=device-width'>"
                "<title>Join the table</title>"
                f"<p>{html.escape(message)}</p><p><a href='/'>Open the companion's page</a></p>")
        return app.response_class(page, status=status, mimetype="text/html")

    @app.get("/join")
    def join_by_link():
        """Where the QR code leads: the code in the address joins this device, then the page opens."""
        if codes is None or joined():
            return redirect("/", 303)
        if opened_from_another_site():
            return join_page("A link on another site cannot join this device: scan the companion's QR code, "
                             "or enter the join code on its page.", 403)
        wrong = try_code(request.args.get("code", ""))
        if wrong:
            return join_page(*wrong)
        return remember(redirect("/", 303))

    @app.get("/api/join")
    def join_status():
        body = {"joined": joined(), "required": codes is not None}
        if codes is not None and body["joined"]:
            body["code"] = codes.code
        return jsonify(body)

    @app.get("/api/join/qr")
    def join_qr():
        if codes is None:
            return jsonify(error="The join code is turned off in the settings."), 404
        if not joined():
            return jsonify(error="Only a device that has joined may show the join code."), 403
        url = request.host_url
        if is_loopback_host(urlsplit(url).hostname):  # the table's own screen's address
            others = app.config.get("PAGE_URLS") or []  # where other phones open the page: set by serve
            if not others:
                return jsonify(error="No address other phones can open is known (is the Pi on the network?)."), 404
            # a numeric address: not every phone resolves companion.local
            url = next((u for u in others if is_address(urlsplit(u).hostname)), others[0])
        return app.response_class(codes.qr_svg(url), mimetype="image/svg+xml")
