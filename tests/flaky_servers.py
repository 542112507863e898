"""Servers on 127.0.0.1 that drop connections in the middle of a body, for the storage layer's retry tests.

- ``CuttingProxy``: a TCP proxy in front of another server (the moto S3 server) that, while armed, cuts every
  connection whose answer grows past ``after`` bytes: a connection dropped mid-object, ``cuts`` times.
- ``RangeServer``: a plain HTTP server of one file that honours ``Range`` requests (as object stores and Common
  Crawl's HTTP endpoint do) and cuts its first ``cuts`` answers after ``after`` bytes.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class CuttingProxy:
    def __init__(self, upstream_port: int, after: int = 64 * 1024) -> None:
        self.upstream_port = upstream_port
        self.after = after
        self.cuts = 0  # connections still to cut; -1: every one
        self.done = 0
        self._lock = threading.Lock()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self.endpoint = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream_port))
            threading.Thread(target=self._pipe, args=(client, upstream, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(upstream, client, True), daemon=True).start()

    def _take_cut(self) -> bool:
        with self._lock:
            if self.cuts == 0:
                return False
            if self.cuts > 0:
                self.cuts -= 1
            self.done += 1
            return True

    def _pipe(self, src: socket.socket, dst: socket.socket, answers: bool) -> None:
        sent = 0
        try:
            while data := src.recv(65536):
                if answers and sent + len(data) > self.after and self._take_cut():
                    dst.sendall(data[: max(0, self.after - sent)])
                    break
                sent += len(data)
                dst.sendall(data)
        except OSError:
            pass
        for s in (src, dst):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(OSError):
                s.close()

    def close(self) -> None:
        self._listener.close()


class RangeServer:
    def __init__(self, body: bytes, name: str = "file.warc.gz", after: int = 64 * 1024, cuts: int = 1) -> None:
        outer = self
        self.body, self.name, self.after, self.cuts, self.requests = body, name, after, cuts, 0

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def _range(self) -> tuple[int, int]:
                spec = self.headers.get("Range", "")
                if spec.startswith("bytes="):
                    start, _, end = spec[6:].partition("-")
                    return int(start or 0), min(int(end) + 1 if end else len(outer.body), len(outer.body))
                return 0, len(outer.body)

            def do_HEAD(self) -> None:
                if self.path.lstrip("/") != outer.name:
                    self.send_error(404)
                    return
                self.send_response(200)
                self.send_header("Content-Length", str(len(outer.body)))
                self.send_header("Accept-Ranges", "bytes")
                self.end_headers()

            def do_GET(self) -> None:
                if self.path.lstrip("/") != outer.name:
                    self.send_error(404)
                    return
                outer.requests += 1
                start, end = self._range()
                part = outer.body[start:end]
                ranged = "Range" in self.headers
                self.send_response(206 if ranged else 200)
                self.send_header("Content-Length", str(len(part)))
                self.send_header("Accept-Ranges", "bytes")
                if ranged:
                    self.send_header("Content-Range", f"bytes {start}-{end - 1}/{len(outer.body)}")
                self.end_headers()
                if outer.cuts and len(part) > outer.after:
                    outer.cuts -= 1
                    self.wfile.write(part[: outer.after])
                    self.wfile.flush()
                    self.close_connection = True
                    with contextlib.suppress(OSError):
                        self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.wfile.write(part)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/{name}"
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
