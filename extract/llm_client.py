"""The HTTP transport of LLM extraction: one JSON chat completion from an OpenAI-compatible endpoint.

Its one job: post a chat completion with a schema-constrained ``response_format``, retry what is worth
retrying, and turn every way a request can fail into an ``LLMFailure`` whose ``reason`` becomes the
flag ``llm_fallback.<reason>`` in ``extract/llm.py``.

Constrained output: llama.cpp's server takes ``response_format={"type": "json_object", "schema": ...}``
(grammar-constrained, ../shared/STACK-NOTES.md); vLLM and OpenAI take ``{"type": "json_schema",
"json_schema": {...}}``. ``response_format: auto`` uses the first for the embedded server and tries the
second on other endpoints, switching to the first for the rest of the run if the endpoint rejects it
with 400/422. Replies are validated by the caller either way.

Failure reasons: ``timeout``, ``http_error``, ``unreachable``, ``bad_json``, ``empty``. Timeouts,
5xx/429 and dropped connections are retried with exponential backoff; a refused connection is not
(nothing listens, and a retry would only slow every page of the batch), nor is a reply that is not JSON
(greedy decoding gives the same reply again). To the embedded server only one request is in flight at a
time, because llama-cpp-python's server answers requests one after another and queued requests would
spend their ``timeout_s`` waiting.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
import urllib.error
import urllib.request
from typing import Any

log = logging.getLogger(__name__)

RESPONSE_FORMATS = ("auto", "json_object", "json_schema")


class LLMFailure(Exception):
    """A request that produced no usable reply; ``reason`` names the ``llm_fallback.<reason>`` flag."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason


class RetryableFailure(LLMFailure):
    """A failure that may not happen again (timeout, 5xx/429, dropped connection)."""


class _FormatRejected(Exception):
    """The endpoint answered 400/422 to a ``json_schema`` response_format while ``auto`` was undecided."""


class ChatClient:
    """Chat completions for one extractor in one process; thread-safe, so a pool of requests can share it.

    ``local``: the endpoint is the embedded llama.cpp server (one request in flight; ``json_object`` first).
    """

    def __init__(
        self,
        *,
        model: str,
        local: bool,
        concurrency: int,
        timeout_s: float,
        retries: int,
        backoff_s: float,
        response_format: str,
        api_key_env: str | None,
        temperature: float,
    ) -> None:
        self.model = model
        self.local = local
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        self.response_format = response_format
        self.api_key_env = api_key_env
        self.temperature = temperature
        self.opener: urllib.request.OpenerDirector | None = None
        self._format: str | None = None  # the response_format type in use once auto has decided
        # llama-cpp-python's server answers one request at a time: more in flight would only queue there
        # and count against timeout_s. Other endpoints batch requests, so they get `concurrency`.
        self._slots = threading.BoundedSemaphore(1 if local else concurrency)

    def connect(self, bypass_proxy: bool) -> None:
        """Build the opener; a loopback endpoint bypasses any proxy set in the environment."""
        if bypass_proxy:
            self.opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        else:
            self.opener = urllib.request.build_opener()

    def complete(self, base_url: str, messages: list[dict[str, str]], schema: dict[str, Any], name: str,
                 max_tokens: int) -> Any:
        """The parsed JSON content of one chat completion, with retries and backoff."""
        last: LLMFailure | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(self.backoff_s * 2 ** (attempt - 1))
            try:
                content = self._post(base_url, messages, schema, name, max_tokens)
            except RetryableFailure as exc:
                last = exc
                continue
            try:
                return json.loads(content)
            except ValueError:
                # Greedy decoding gives the same reply again: a retry would not help.
                raise LLMFailure("bad_json", content[:200]) from None
        assert last is not None
        raise LLMFailure(last.reason, str(last))

    def _formats(self) -> list[str]:
        if self.response_format != "auto":
            return [self.response_format]
        if self._format is not None:
            return [self._format]
        if self.local:
            return ["json_object"]
        return ["json_schema", "json_object"]

    def _post(self, base_url: str, messages: list[dict[str, str]], schema: dict[str, Any], name: str,
              max_tokens: int) -> str:
        formats = self._formats()
        for i, fmt in enumerate(formats):
            try:
                content = self._post_once(base_url, messages, schema, name, max_tokens, fmt)
            except _FormatRejected:
                if i + 1 < len(formats):
                    log.info("llm endpoint rejected response_format %s; using %s", fmt, formats[i + 1])
                    continue
                raise LLMFailure("http_error", f"endpoint rejected response_format {fmt}") from None
            if self.response_format == "auto":
                self._format = fmt
            return content
        raise AssertionError("unreachable")

    def _post_once(self, base_url: str, messages: list[dict[str, str]], schema: dict[str, Any], name: str,
                   max_tokens: int, fmt: str) -> str:
        if fmt == "json_object":
            response_format: dict[str, Any] = {"type": "json_object", "schema": schema}
        else:
            response_format = {"type": "json_schema", "json_schema": {"name": f"winnow_{name}", "schema": schema}}
        body = {
            "model": self.model,
            "messages": messages,
            "temperature": self.temperature,
            "max_tokens": max_tokens,
            "response_format": response_format,
            "stream": False,
        }
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key_env and os.environ.get(self.api_key_env):
            headers["Authorization"] = f"Bearer {os.environ[self.api_key_env]}"
        request = urllib.request.Request(
            f"{base_url}/v1/chat/completions", data=json.dumps(body).encode(), headers=headers, method="POST"
        )
        opener = self.opener or urllib.request.build_opener()
        try:
            with self._slots, opener.open(request, timeout=self.timeout_s) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            status = exc.code
            with contextlib.suppress(Exception):
                exc.close()
            if status in (400, 422) and fmt == "json_schema" and self.response_format == "auto" \
                    and self._format is None:
                raise _FormatRejected() from None
            if status == 429 or status >= 500:
                raise RetryableFailure("http_error", f"HTTP {status}") from None
            raise LLMFailure("http_error", f"HTTP {status}") from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, TimeoutError):
                raise RetryableFailure("timeout", str(reason)) from None
            if isinstance(reason, ConnectionRefusedError):
                raise LLMFailure("unreachable", str(reason)) from None
            raise RetryableFailure("http_error", str(reason)) from None
        except TimeoutError as exc:
            raise RetryableFailure("timeout", str(exc)) from None
        except (ConnectionError, OSError) as exc:  # reset or closed mid-reply
            raise RetryableFailure("http_error", f"{type(exc).__name__}: {exc}") from None
        try:
            envelope = json.loads(raw)
            choice = envelope["choices"][0]
            content = choice["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError):
            raise LLMFailure("http_error", f"not a chat completion: {raw[:200]!r}") from None
        if not isinstance(content, str) or not content.strip():
            raise LLMFailure("empty", "empty reply")
        return content
