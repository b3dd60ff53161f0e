"""Serving the web app from the hub's process, in a thread."""
from __future__ import annotations

import threading

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
