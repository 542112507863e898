"""The result cache of LLM extraction: outcomes keyed by a content hash, so a page is asked about once.

Its one job: store and look up ``{"text", "structured", "flags"}`` records. The key (``content_key``)
hashes the page's bytes together with everything that shapes the prompt or the reply (prompt version,
model, mode, schema, context and block sizes, URL; ``extract/llm.py`` builds that material). With a
``cache_dir`` the records are JSON files under it (one per key, written then renamed, so another worker
sees a whole file or none) and survive runs; without one they live in a per-process dict bounded to
``MEMORY_CACHE_ENTRIES`` so a long run cannot grow without end. Only successful outcomes are stored
(the caller decides); a cache that cannot be read or written is a miss, never an error.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

MEMORY_CACHE_ENTRIES = 10_000  # per process, without cache_dir


def content_key(material: dict[str, Any], html: str | bytes | None) -> str:
    """Cache key of one request: sha256 over ``material`` (JSON-able) and the sha256 of the page's bytes."""
    raw = html.encode("utf-8", "surrogatepass") if isinstance(html, str) else bytes(html or b"")
    keyed = {**material, "content": hashlib.sha256(raw).hexdigest()}
    return hashlib.sha256(json.dumps(keyed, sort_keys=True).encode()).hexdigest()


class ResultCache:
    """On disk under ``cache_dir`` when given, else in bounded memory; thread-safe."""

    def __init__(self, cache_dir: str | None) -> None:
        self.cache_dir = cache_dir
        self.memory: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def _path(self, key: str) -> Path:
        assert self.cache_dir is not None
        return Path(self.cache_dir) / key[:2] / f"{key}.json"

    def get(self, key: str) -> dict[str, Any] | None:
        if self.cache_dir is None:
            with self._lock:
                return self.memory.get(key)
        try:
            data = json.loads(self._path(key).read_text("utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict) or not {"text", "structured", "flags"} <= set(data):
            return None
        return data

    def put(self, key: str, value: dict[str, Any]) -> None:
        if self.cache_dir is None:
            with self._lock:
                self.memory[key] = value
                if len(self.memory) > MEMORY_CACHE_ENTRIES:  # oldest first: dicts keep insertion order
                    del self.memory[next(iter(self.memory))]
            return
        path = self._path(key)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Write-then-rename: a reader (another worker) sees the whole file or none.
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(value, f, ensure_ascii=False)
            os.replace(tmp, path)
        except OSError as exc:
            log.warning("llm cache write to %s failed: %s", path, exc)
            with contextlib.suppress(OSError, UnboundLocalError):
                os.unlink(tmp)
