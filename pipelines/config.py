"""Pipeline configuration: one YAML file, an ordered list of steps.

```yaml
steps:
  - use: filters.langid.LanguageID     # dotted path to a Step or Stage class
    with: {min_score: 0.65}            # keyword arguments of its __init__
    name: langid                       # optional; names the step in stats and dropped_by
  - use: filters.pii.RedactPII
    with: {kind: [document, interleaved]}   # one step per kind, in this order, each with its own stats
output:
  max_rows_per_shard: 100000
```

A list as ``kind`` declares the step once for several record kinds: it becomes one step per kind, next to each
other, with the same arguments. The first kind's step has the step's name (``name``, else the class's default); each
other's is that name with ``_<kind>`` (``_interleaved``, ``_image_text``, ``_document``), so ``pii`` above is ``pii``
and ``pii_interleaved`` in stats.json and ``dropped_by``.

Everything is checked before any work: an unknown key, a module or class that does not exist, a
class that is not a Step/Stage, an argument its ``__init__`` does not take or refuses, duplicate
names, and a pipeline that leaves an input kind without a path to an output (WARC pages need an
extract step). Errors name the step and the file.
"""

from __future__ import annotations

import importlib
import importlib.resources
import inspect
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pipelines.records import KINDS, OUTPUT_DIRS
from pipelines.step import Stage, Step

TOP_KEYS = {"steps", "output"}
STEP_KEYS = {"use", "with", "name"}
# Bounds of each output setting. zstd's levels are 1-22 (pyarrow also takes negative "fast" levels, which
# winnow does not offer); a shard needs at least one row, and bytes bound a shard from 1 KiB.
OUTPUT_RANGES = {"max_rows_per_shard": (1, 2**31 - 1), "max_bytes_per_shard": (1024, 2**40),
                 "compression_level": (1, 22)}
OUTPUT_KEYS = set(OUTPUT_RANGES)
BUNDLED = ("default", "light", "filters", "dedup", "images")


class ConfigError(ValueError):
    """A pipeline config that cannot run; the message names the file and the step."""


@dataclass
class PipelineConfig:
    path: str
    raw: dict[str, Any]
    steps: list[Step | Stage]
    output: dict[str, Any] = field(default_factory=dict)
    # each step's YAML entry as it was built (a several-kind entry gives one per kind, each with its own ``kind``)
    entries: list[dict[str, Any]] = field(default_factory=list)

    def check_kinds(self, input_kinds: set[str]) -> None:
        """Every input kind must reach an output kind through the steps."""
        kinds = set(input_kinds)
        for step in self.steps:
            if step.input_kind in kinds:
                kinds.discard(step.input_kind)
                kinds.update(step.produces_kinds)
        stranded = kinds - set(OUTPUT_DIRS)
        if stranded:
            raise ConfigError(
                f"{self.path}: no step turns {sorted(stranded)} records into an output "
                f"({sorted(OUTPUT_DIRS)}); WARC inputs need an extract step such as "
                "extract.trafilatura_step.TrafilaturaExtract")


def resolve_path(name_or_path: str) -> Path:
    """A YAML path, or the name of a bundled config (``default``)."""
    path = Path(name_or_path)
    if path.is_file():
        return path
    if name_or_path in BUNDLED:
        return Path(str(importlib.resources.files("pipelines") / "configs" / f"{name_or_path}.yaml"))
    raise ConfigError(f"config {name_or_path!r} not found (a YAML file, or one of the bundled: {', '.join(BUNDLED)})")


def load_config(name_or_path: str, annotate: bool = False) -> PipelineConfig:
    path = resolve_path(name_or_path)
    try:
        raw = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping with 'steps', got {type(raw).__name__}")
    unknown = set(raw) - TOP_KEYS
    if unknown:
        raise ConfigError(f"{path}: unknown top-level key(s) {sorted(unknown)}; allowed: {sorted(TOP_KEYS)}")
    entries = raw.get("steps")
    if not isinstance(entries, list) or not entries:
        raise ConfigError(f"{path}: 'steps' must be a non-empty list")
    built = [pair for i, entry in enumerate(entries, 1) for pair in _build_steps(path, i, entry, annotate)]
    steps = [step for step, _ in built]
    names = [s.name for s in steps]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ConfigError(f"{path}: step names must be unique, repeated: {dupes} (set 'name:' on one of them)")
    output = raw.get("output") or {}
    if not isinstance(output, dict) or set(output) - OUTPUT_KEYS:
        raise ConfigError(f"{path}: 'output' accepts {sorted(OUTPUT_KEYS)}, got {output!r}")
    for key, value in output.items():
        low, high = OUTPUT_RANGES[key]
        if not (isinstance(value, int) and not isinstance(value, bool) and low <= value <= high):
            raise ConfigError(f"{path}: output.{key} must be a whole number from {low} to {high}, got {value!r}")
    return PipelineConfig(path=str(path), raw=raw, steps=steps, output=output, entries=[e for _, e in built])


def _build_steps(path: Path, index: int, entry: Any, annotate: bool) -> list[tuple[Step | Stage, dict[str, Any]]]:
    """The step of one YAML entry, with the entry; one per kind where its ``kind`` is a list (module docstring)."""
    kwargs = entry.get("with") if isinstance(entry, dict) else None
    kinds = kwargs.get("kind") if isinstance(kwargs, dict) else None
    if not isinstance(kinds, list):
        return [(_build_step(path, index, entry, annotate), entry)]
    where = f"{path}: step {index} ({entry.get('use')})"
    if not kinds or len(set(map(str, kinds))) != len(kinds) or not all(isinstance(k, str) for k in kinds):
        raise ConfigError(f"{where}: 'kind' as a list must name distinct record kinds, got {kinds!r}")
    steps = []
    for n, kind in enumerate(kinds):
        one = {**entry, "with": {**kwargs, "kind": kind}}
        step = _build_step(path, index, one, annotate)
        if n:
            step.bind(f"{steps[0][0].name}_{kind}", annotate=annotate)
        steps.append((step, one))
    return steps


def _build_step(path: Path, index: int, entry: Any, annotate: bool) -> Step | Stage:
    where = f"{path}: step {index}"
    if not isinstance(entry, dict) or "use" not in entry:
        raise ConfigError(f"{where}: each step needs 'use: package.module.Class', got {entry!r}")
    unknown = set(entry) - STEP_KEYS
    if unknown:
        raise ConfigError(f"{where} ({entry['use']}): unknown key(s) {sorted(unknown)}; allowed: {sorted(STEP_KEYS)}")
    dotted = entry["use"]
    where = f"{where} ({dotted})"
    cls = _import_class(where, dotted)
    kwargs = entry.get("with") or {}
    if not isinstance(kwargs, dict):
        raise ConfigError(f"{where}: 'with' must be a mapping of keyword arguments, got {kwargs!r}")
    try:
        inspect.signature(cls).bind(**kwargs)
    except TypeError as exc:
        params = [p for p in inspect.signature(cls).parameters if p not in ("self", "args", "kwargs")]
        raise ConfigError(f"{where}: bad argument: {exc}; it takes {params}") from None
    try:
        step = cls(**kwargs)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{where}: {exc}") from None
    if step.input_kind not in KINDS or any(k not in KINDS for k in step.produces_kinds):
        raise ConfigError(f"{where}: declares unknown record kinds {step.input_kind!r} -> {list(step.produces_kinds)}")
    step.bind(entry.get("name"), annotate=annotate)
    return step


def _import_class(where: str, dotted: str) -> type:
    module_name, _, class_name = dotted.rpartition(".")
    if not module_name:
        raise ConfigError(f"{where}: 'use' must be a dotted path like filters.langid.LanguageID")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        raise ConfigError(f"{where}: no module {module_name!r} ({exc})") from None
    cls = getattr(module, class_name, None)
    if cls is None:
        raise ConfigError(f"{where}: module {module_name!r} has no class {class_name!r}")
    if not (isinstance(cls, type) and issubclass(cls, Step | Stage)):
        raise ConfigError(f"{where}: {dotted} is not a winnow Step or Stage")
    return cls
