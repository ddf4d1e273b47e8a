"""`companion serve [--demo]`: the companion in one process — the table, the camera, the sensors and the
page, served by waitress. `--demo` plays recorded games instead of the camera and sensors."""
from __future__ import annotations

import errno
import logging
import math
import os
import signal
import socket

from ..cli import CliError, port_number, speed_factor


def add_arguments(parser) -> None:
    parser.add_argument("--demo", action="store_true", help="play a recorded demo game; no camera or sensors needed")
    parser.add_argument("--settings", help="the settings file (TOML); default: $COMPANION_SETTINGS, else "
                        "/etc/companion/companion.toml if present, else the built-in defaults")
    parser.add_argument("--host", help="address to listen on (default: service.host)")
    parser.add_argument("--port", type=port_number, help="port (default: service.port)")
    parser.add_argument("--state-dir", help="where games are kept (default: service.state_dir)")
    parser.add_argument("--demo-speed", type=speed_factor, default=1.0,
                        help="demo playback speed (default 1.0 = real time)")


def load(args):
    """The settings for these arguments (--settings, and --host, --port and --state-dir over them); a
    CliError naming the problem when they are bad."""
    from ..config import BadSettings, load_settings, settings_file

    overrides: dict = {"service": {}}
    if args.host:
        overrides["service"]["host"] = args.host
    if args.port is not None:
        overrides["service"]["port"] = args.port
    if args.state_dir:
        overrides["service"]["state_dir"] = args.state_dir
    try:
        settings = load_settings(settings_file(args.settings), overrides=overrides)
    except BadSettings as exc:
        raise CliError(str(exc)) from None
    return settings


def build(args, tap=None, record_dir=None, refused_page: bool = False):
    """The settings, the service and the app for these arguments (also used by the tests and the bench).
    `refused_page`: a journal refused at start (JournalRefused) gives no service (None) and the app of the page
    that says so (web/refused.py), instead of a CliError."""
    from ..table.journal import JournalError, JournalRefused
    from ..table.service import Service
    from .app import create_app
    from .security import extra_names

    settings = load(args)
    if not (args.demo_speed > 0 and math.isfinite(args.demo_speed)):  # build() is also called without argparse
        raise CliError(f"--demo-speed must be a finite number above 0, got {args.demo_speed}")
    names = extra_names(settings["security"]["names"])
    heartbeat, watchdog = _watchdog()
    try:
        service = Service(settings, demo=args.demo, on_loop=heartbeat.beat if heartbeat else None,
                          demo_speed=args.demo_speed, tap=tap, record_dir=record_dir)
    except JournalRefused as exc:
        if not refused_page:
            raise CliError(f"{exc}{_by_hand(settings.state_dir)}") from None
        from .refused import create_refused_app

        app = create_refused_app(exc, allow_outside=settings["security"]["allow_outside"], names=names)
        app.extensions["companion_refused"] = exc
        return settings, None, app, None
    except JournalError as exc:
        raise CliError(f"{exc}{_by_hand(settings.state_dir)}") from None
    app = create_app(service, allow_outside=settings["security"]["allow_outside"], names=names,
                     max_streams=settings["service"]["max_streams"], demo=args.demo)
    app.extensions["companion_join_codes"] = None
    if settings["security"]["join_code"] and not args.demo:
        from .joincode import JoinCodes, install

        codes = JoinCodes(settings.state_dir)
        install(app, codes)
        app.extensions["companion_join_codes"] = codes
    return settings, service, app, watchdog


def _by_hand(state_dir) -> str:
    """Run by hand on the service's folder (the default on a Pi), whose journal only the service may write: a
    folder of one's own works, and a recording started there replays on its own."""
    from pathlib import Path

    files = [Path(state_dir), *(Path(state_dir) / name for name in ("journal.lock", "journal.sqlite3"))]
    if os.environ.get("STATE_DIRECTORY") or all(os.access(f, os.W_OK) for f in files if f.exists()):
        return ""
    return "; if it is the service's, run by hand with a folder of your own: --state-dir DIR"


def _watchdog():
    """systemd's watchdog, fed by the table loop's heartbeat; (None, None) when not run by systemd.

    The loop beats at least once a second when idle, so three silent seconds (or half the watchdog
    period, if longer) mean it is stuck in one event."""
    import time

    from ..sdnotify import Heartbeat, Notifier, Watchdog

    notifier = Notifier()
    if not notifier.enabled:
        return None, None
    heartbeat = Heartbeat(max_silence=max(3.0, (notifier.watchdog_seconds or 30.0) / 2), clock=time.monotonic)
    return heartbeat, Watchdog(notifier, heartbeat.healthy)


# The most a page that stops reading (a phone locked mid-stream) gets queued, in memory: its stream then
# waits. waitress's default queues 16 MB, spilled past 1 MB to a temporary file on the memory card.
OUTBUF_LIMIT = 256 * 1024
# A page whose connection takes nothing for this long is dropped (TCP_USER_TIMEOUT): a phone that froze its tab
# keeps the connection open and, once OUTBUF_LIMIT is queued, holds its live-page slot and thread for ever.
STALLED_MS = 60_000


def page_server(app, host: str, port: int, threads: int, stalled_ms: int = STALLED_MS):
    """waitress set up for the page. A live page holds its response open for minutes: the lookahead keeps
    reading its socket meanwhile, so waitress sees a page that closed and the stream can end (its
    `waitress.client_disconnected`). Every view is far below the spare room between the two buffer limits,
    so nothing queued ever goes to disk."""
    from waitress.server import create_server

    from .app import MAX_BODY_BYTES
    from .connections import CONNECTION_LIMIT, FairChannel

    # Refused before it is read: by default waitress spools up to 1 GB per request to a temporary file (on the
    # memory card) before the app can say no.
    server = create_server(app, host=host, port=port, threads=threads, channel_timeout=60, ident="companion",
                           max_request_body_size=MAX_BODY_BYTES, channel_request_lookahead=1,
                           outbuf_high_watermark=OUTBUF_LIMIT, outbuf_overflow=4 * OUTBUF_LIMIT,
                           log_socket_errors=False, connection_limit=CONNECTION_LIMIT)
    listening = [server] if hasattr(server, "socket") else \
        [d for d in server.map.values() if getattr(d, "accepting", False)]  # a name with several addresses
    for listener in listening:
        listener.channel_class = FairChannel
        if hasattr(socket, "TCP_USER_TIMEOUT"):  # Linux; accepted connections inherit it from the listening socket
            listener.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, stalled_ms)
    return server


def listen(app, host: str, port: int, threads: int):
    """page_server, its failures as one line naming the host: a busy port or a refused address (OSError),
    and a host name that does not resolve (waitress's ValueError)."""
    try:
        return page_server(app, host, port, threads)
    except OSError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc.strerror or exc}{_what_to_do(exc, port)}") from None
    except ValueError as exc:
        raise CliError(f"cannot listen on {host}:{port}: {exc}") from None


def _what_to_do(exc: OSError, port: int) -> str:
    """A port below 1024 (the settings' 80 on a Pi) is the service's: systemd gives it the right to one, a
    command run by hand (`companion record`, `serve`) has none."""
    if exc.errno == errno.EACCES and 0 < port < 1024:
        return ("; a port below 1024 needs the rights only the service has: run by hand, add --port 8080 "
                "(and open the page on that port)")
    if exc.errno == errno.EADDRINUSE:
        return "; another program (the companion service?) uses it: stop it, or choose another with --port"
    return ""


def run(args, tap=None, record_dir=None) -> int:
    # A recording refused at start says so where its person is, at the terminal, and ends.
    settings, service, app, watchdog = build(args, tap, record_dir, refused_page=record_dir is None)
    if service is None:
        return _serve_refusal(settings, app)
    host, port = settings["service"]["host"], settings["service"]["port"]
    threads = settings.worker_threads  # load_settings keeps max_streams below it
    try:
        server = listen(app, host, port, threads)
    except CliError:
        service.stop()  # closes the journal the service opened; nothing was started
        raise
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    from ..table.demo import DemoNotWritten

    try:
        service.start()
    except DemoNotWritten as exc:
        server.close()
        service.stop()
        raise CliError(str(exc)) from None
    port = listening_port(server)
    announcer = None if args.demo else _announce(settings, port)
    urls = page_addresses(settings["service"]["host"], port, announced=announcer is not None)
    app.config["PAGE_URLS"] = [url for _, url in urls if "127.0.0.1" not in url]
    for name, url in urls:
        print(f"The companion{' demo' if args.demo else ''} is on {url}{name}", flush=True)
    for line in join_code_lines(app.extensions["companion_join_codes"]):
        print(line, flush=True)
    for feature, message in service.messages.items():
        print(f"{feature}: {message}", flush=True)
    if watchdog is not None:
        watchdog.notifier.ready("serving the page")
        watchdog.start()
    try:
        # The open pages' streams end first: waitress's loop runs while any connection is open, and closing
        # only the listening socket left it serving a page for ever (a stop that waited for systemd's SIGKILL).
        _serve_until_stopped(server, app.extensions["companion"]["broadcaster"].stop)
    finally:
        app.extensions["companion"]["broadcaster"].stop()
        if announcer is not None:
            announcer.close()
        if watchdog is not None:
            watchdog.notifier.stopping()
        service.stop()
    return 0


def _serve_until_stopped(server, first=lambda: None) -> None:
    """`server` runs until SIGTERM (systemd's stop) or SIGINT (Ctrl-C), which call `first`."""
    def shutdown(*_):
        first()
        raise SystemExit  # waitress ends its loop and its worker threads on it

    signal.signal(signal.SIGTERM, shutdown)
    signal.signal(signal.SIGINT, shutdown)
    try:
        server.run()
    except (SystemExit, KeyboardInterrupt, OSError):
        pass


def _serve_refusal(settings, app) -> int:
    """The page that says the journal was refused, served until the companion is stopped, as the service would
    otherwise end and start again every few seconds with no page at all. systemd hears it is ready (its status
    says why no game can be played) and its watchdog is pinged while that page answers."""
    from ..sdnotify import Notifier, Watchdog
    from .refused import STATUS

    refusal = app.extensions["companion_refused"]
    host = settings["service"]["host"]
    server = listen(app, host, settings["service"]["port"], threads=4)
    port = listening_port(server)
    announcer = _announce(settings, port)
    for name, url in page_addresses(host, port, announced=announcer is not None):
        print(f"The companion is on {url}{name}", flush=True)
    print(f"game journal: {refusal}{_by_hand(settings.state_dir)}", flush=True)
    print("game journal: the page says so on every phone, and no game can be played until it is put right",
          flush=True)
    notifier = Notifier()
    watchdog = Watchdog(notifier, lambda: page_answers(host, port), stalled="the page does not answer: watchdog "
                        "pings withheld")
    notifier.ready(STATUS)
    watchdog.start()
    try:
        _serve_until_stopped(server)
    finally:
        watchdog.stop()
        if announcer is not None:
            announcer.close()
        notifier.stopping()
    return 0


def page_answers(host: str, port: int, timeout: float = 10.0) -> bool:
    """Whether the page served on `host`:`port` answers a request (any answer: its loop runs)."""
    import http.client

    own = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    connection = http.client.HTTPConnection(own, port, timeout=timeout)
    try:
        connection.request("GET", "/api/health")
        connection.getresponse().read()
        return True
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def join_code_lines(codes) -> list[str]:
    """What the service log says about the join code: the code, and when it could not be saved, that it holds
    until the companion's next start (the service plays on without a saved code rather than not at all)."""
    if codes is None:
        return []
    lines = [f"Join code: {codes.code} (a phone enters it once to play; this screen never needs it)"]
    if codes.not_kept:
        lines.append(f"join code: not saved ({codes.not_kept}): it holds until the companion restarts; then a new "
                     "code is shown and the phones join again")
    return lines


def listening_port(server) -> int:
    """The port a waitress server listens on. Waitress gives it as text, which zeroconf refuses: with it,
    companion.local was never announced ("Argument 'port' has incorrect type")."""
    return int(server.effective_port)


def page_addresses(host: str, port: int, announced: bool) -> list[tuple[str, str]]:
    """(what it is for, the page's address) of a page served on `host`:`port`: on every network (0.0.0.0), this
    computer's own and each network's address."""
    if host not in ("0.0.0.0", "::", ""):
        return [("", f"http://{host}:{port}/")]
    from ..announce import lan_addresses, page_urls

    try:
        lan = lan_addresses()
    except Exception:  # the numeric address list is a help only
        lan = []
    urls = page_urls(port, ["127.0.0.1"] + lan)
    named = [(" (phones that resolve .local names)", urls[0])] if announced else []
    return [("", urls[1])] + named + [(" (from phones on this network)", url) for url in urls[2:]]


def _announce(settings, port: int):
    if not settings["service"]["mdns"] or settings["service"]["host"] in ("127.0.0.1", "localhost"):
        return None
    try:
        from ..announce import Announcer, lan_addresses

        announcer = Announcer(port, lan_addresses())
        return announcer if announcer.start() else None
    except Exception:
        return None
