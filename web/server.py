"""Serving the web app from the hub's process, in a thread; the address phones reach it at."""
from __future__ import annotations

import ipaddress
import socket
import threading
from urllib.parse import urlsplit

from werkzeug.serving import make_server


class WebServer:
    def __init__(self, app, host: str = "127.0.0.1", port: int = 0):
        # threaded: every projector holds a long-lived SSE connection.
        self._server = make_server(host, port, app, threaded=True)
        self.host, self.port = host, self._server.server_port
        self._thread = threading.Thread(target=self._server.serve_forever, name="web", daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> "WebServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()


def lan_address() -> str | None:
    """This machine's address on the network its default route leaves by (the one the
    guests' phones share with it); None without a network. Nothing is sent: connecting
    a UDP socket only picks the route."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))   # TEST-NET-1: never reached
            return s.getsockname()[0]
        except OSError:
            return None


def public_url(host: str, port: int, given: str | None = None) -> str:
    """The address for QR codes and printed links: `given` (party run --public-url), else
    the LAN address when listening on every interface, else the address listened on."""
    if given:
        return given.rstrip("/") + "/"
    if host in ("0.0.0.0", "", "::"):
        host = lan_address() or host
    return f"http://{host}:{port}/"


def is_loopback(url: str) -> bool:
    """True if a phone could not reach `url`: it names this machine itself."""
    host = urlsplit(url).hostname or ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback or ipaddress.ip_address(host).is_unspecified
    except ValueError:
        return False
