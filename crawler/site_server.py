"""A small site server on 127.0.0.1 for the demo crawl, the tests and the benchmarks.

Serves a folder of static files plus dynamic routes (status codes, headers, redirects, delays,
generated pages), and logs every request it receives (time, path, User-Agent) so tests can assert
what a crawl fetched, and when. Standard library only: ``ThreadingHTTPServer`` on a free port.

``python -m crawler.site_server [--root DIR] [--port N]`` serves the bundled demo site and prints
its URL on the first line of stdout.
"""

from __future__ import annotations

import argparse
import mimetypes
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

DEMO_SITE = Path(__file__).resolve().parent / "demo_site"
TYPES = {".html": "text/html", ".txt": "text/plain; charset=utf-8", ".png": "image/png",
         ".xml": "application/xml", ".json": "application/json"}


@dataclass
class Route:
    status: int = 200
    body: bytes | str = b""
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0
    content_type: str | None = "text/html; charset=utf-8"


Handler = Callable[[str], Route]


@dataclass
class Hit:
    time: float
    path: str
    user_agent: str


class SiteServer:
    """``with SiteServer(root=..., routes={...}) as site: site.url("/a.html")``."""

    def __init__(self, root: Path | None = None, routes: dict[str, Route | Handler] | None = None,
                 host: str = "127.0.0.1", port: int = 0) -> None:
        self.root = root
        self.routes: dict[str, Route | Handler] = dict(routes or {})
        self.hits: list[Hit] = []
        self._lock = threading.Lock()
        server = self

        class _Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self) -> None:
                server._record(self)
                route = server._route(self.path)
                if route.delay:
                    time.sleep(route.delay)
                body = route.body.encode() if isinstance(route.body, str) else route.body
                self.send_response(route.status)
                if route.content_type:
                    self.send_header("Content-Type", route.content_type)
                for name, value in route.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._httpd = ThreadingHTTPServer((host, port), _Handler)
        self._httpd.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        return self._httpd.server_address[1]

    @property
    def base(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}"

    def url(self, path: str = "/") -> str:
        return self.base + path

    def _record(self, handler: BaseHTTPRequestHandler) -> None:
        with self._lock:
            self.hits.append(Hit(time.monotonic(), handler.path, handler.headers.get("User-Agent", "")))

    def paths(self) -> list[str]:
        with self._lock:
            return [h.path for h in self.hits]

    def _route(self, raw_path: str) -> Route:
        path = urlsplit(raw_path).path
        route = self.routes.get(raw_path) or self.routes.get(path)
        if route is not None:
            return route(raw_path) if callable(route) else route
        if self.root is not None:
            target = (self.root / path.lstrip("/")).resolve()
            if target.is_dir():
                target = target / "index.html"
            if target.is_file() and self.root.resolve() in target.parents:
                ctype = TYPES.get(target.suffix) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
                return Route(body=target.read_bytes(), content_type=ctype)
        return Route(status=404, body="<html><body><h1>Not found</h1></body></html>")

    def start(self) -> SiteServer:
        self._thread = threading.Thread(target=self._httpd.serve_forever, name="site-server", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def run_until_interrupted(self) -> None:
        """Serve (started) until Ctrl-C, then stop: the command-line servers' main loop."""
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            self.stop()

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Serve a folder (default: the bundled demo site) on 127.0.0.1.")
    parser.add_argument("--root", type=Path, default=DEMO_SITE)
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    server = SiteServer(root=args.root, port=args.port).start()
    print(server.url("/"), flush=True)
    server.run_until_interrupted()
    return 0


if __name__ == "__main__":
    sys.exit(main())
