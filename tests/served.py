"""The system's Chromium, and a built site served to it the way the theme is
made to be served: one place for the browser tests and scripts/screenshots.py.

Chromium is Debian's (``apt-get install -y chromium``): Playwright never
downloads a browser here. The flags keep it from reaching the network on its
own and let it run as root in a container.
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: The policy documented in docs/theme.rst: only the site's own files, no
#: inline script, style or event handler, no plugins, no <base>.
POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'"
)


class StrictHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files with the policy, quietly."""

    def end_headers(self) -> None:
        self.send_header("Content-Security-Policy", POLICY)
        super().end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@contextmanager
def serve(directory: Path) -> Iterator[str]:
    """*directory* served over HTTP on 127.0.0.1, from a thread; yields its URL."""
    handler = functools.partial(StrictHandler, directory=str(directory))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        thread.join()
