"""Routing pages to LLM modes: the ``routes`` of the ``llm`` config, checked at load time, and matching.

A route names exactly one of ``match`` (a regex searched in the URL) or ``domain`` (the host or any host
below it), a ``mode`` (``select``, or ``schema`` with a bundled schema name or an inline JSON schema and
a snake_case ``name``). Config order decides: the first matching route wins (extract/llm.py, ``plan``).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from extract.llm_schemas import BUNDLED, bundled_schema, check_schema

MODES = ("select", "schema")


@dataclass(frozen=True)
class Route:
    """Pages whose URL matches ``match`` (a regex) or whose host is ``domain`` or below it get ``mode``."""

    match: str | None
    domain: str | None
    mode: str
    schema_name: str | None

    def matches(self, url: str | None, host: str | None) -> bool:
        if self.match is not None:
            return url is not None and re.search(self.match, url) is not None
        return host is not None and (host == self.domain or host.endswith("." + self.domain))


def parse_route(i: int, route: Any, schemas: dict[str, dict[str, Any]]) -> Route:
    """The ``i``-th route of the config, checked; a schema it names or defines is added to ``schemas``."""
    where = f"llm.routes[{i}]"
    if not isinstance(route, dict):
        raise ValueError(f"{where} must be a mapping, got {route!r}")
    unknown = set(route) - {"match", "domain", "mode", "schema", "name"}
    if unknown:
        raise ValueError(f"{where}: unknown keys {sorted(unknown)}; known: match, domain, mode, schema, name")
    match, domain = route.get("match"), route.get("domain")
    if (match is None) == (domain is None):
        raise ValueError(f"{where} needs exactly one of 'match' (a regex on the URL) or 'domain'")
    if match is not None:
        if not isinstance(match, str) or not match:
            raise ValueError(f"{where}.match must be a non-empty regex string")
        try:
            re.compile(match)
        except re.error as exc:
            raise ValueError(f"{where}.match is not a valid regex: {exc}") from None
    if domain is not None:
        if not isinstance(domain, str) or not re.fullmatch(r"[A-Za-z0-9.-]+", domain.strip(".")):
            raise ValueError(f"{where}.domain must be a host name like 'example.com', got {domain!r}")
        domain = domain.strip(".").lower()
    schema = route.get("schema")
    mode = route.get("mode", "schema" if schema is not None else "select")
    if mode not in MODES:
        raise ValueError(f"{where}.mode must be one of {MODES}, got {mode!r}")
    if mode == "select":
        if schema is not None:
            raise ValueError(f"{where}: mode 'select' takes no schema")
        return Route(match, domain, mode, None)
    if schema is None:
        raise ValueError(f"{where}: mode 'schema' needs 'schema' (a bundled name {sorted(BUNDLED)} or a dict)")
    if isinstance(schema, str):
        name = schema
        resolved = bundled_schema(schema)  # ValueError for unknown names
    else:
        name = route.get("name") or f"route{i}"
        if not isinstance(name, str) or not re.fullmatch(r"[a-z0-9_]+", name):
            raise ValueError(f"{where}.name must be snake_case (it becomes the flag llm_schema.<name>)")
        check_schema(schema, f"{where}.schema")
        resolved = copy.deepcopy(schema)
    if name in schemas and schemas[name] != resolved:
        raise ValueError(f"{where}: schema name {name!r} is used for two different schemas")
    schemas[name] = resolved
    return Route(match, domain, mode, name)
