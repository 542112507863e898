"""``winnow inspect``: what is in a shard, a shard folder, a whole output folder or a crawl folder.

For each output folder (``text``, ``image_text``, ``interleaved``, ``images``): rows, languages, page types, top hosts,
quality-score quantiles and the ``training_allowed`` share (each only where the schema has the column), then
sample rows. For a whole output folder also the run (``manifest.json``), a warning when the run is not finished or
a wave is uncommitted, and the funnel of ``stats.json``. For a crawl folder, ``crawl-stats.json`` in brief.

Anything the user got wrong or a damaged file is an ``InspectError``: one line, no traceback (the CLI exits 2).
"""

from __future__ import annotations

import json
import math
import re
import textwrap
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.parquet as pq

from pipelines.records import OUTPUT_DIRS, kind_of

PREVIEW_CHARS = 160
LABEL = 19  # width of the label column, so that the figures line up
TOP = 10  # values shown per count line
WIDTH = 118  # wrap long lines here
QUANTILES = (("min", 0.0), ("p10", 0.1), ("p25", 0.25), ("p50", 0.5), ("p75", 0.75), ("p90", 0.9), ("max", 1.0))
# Columns summarised per output folder, when the schema has them; the kind-specific ones are read in _kind_summary.
SUMMARY_COLUMNS = ("url", "lang", "page_type", "quality_score", "training_allowed", "dropped_by")
KIND_COLUMNS = {"image_text": ("doc_id", "image_url", "caption", "width"), "interleaved": ("segments",),
                "image": ("image_format", "original_width", "original_height", "sha256", "clip_score")}
# Output-folder layout written by pipelines/runner.py (kept literal here: inspect must not import the runner's
# Ray and reader machinery just to look at a folder).
PROGRESS_DIR, TIMING_DIR = "_progress", "_timing"
CRAWL_STATS = "crawl-stats.json"
# crawl-stats.json counter families shown one line each: (label, key prefix).
CRAWL_GROUPS = (("seeds skipped", "winnow/seeds_skipped/"), ("links skipped", "winnow/links_skipped/"),
                ("gate refused", "winnow/gate/"), ("skipped", "winnow/skipped/"), ("robots", "winnow/robots/"),
                ("politeness", "winnow/politeness/"))


class InspectError(Exception):
    """A one-line reason ``winnow inspect`` cannot go on (bad option, damaged file); the CLI exits 2."""


def shard_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    # Hidden temporaries (".part-*.tmp") are never shards; pyarrow skips them too.
    return sorted(p for p in path.glob("*.parquet") if not p.name.startswith((".", "_")))


def inspect_path(path: Path, out: TextIO, samples: int = 3, where: str | None = None,
                 columns: list[str] | None = None) -> None:
    """Write the summary of ``path`` to ``out``; ``where`` (a pandas query) narrows the rows summarised and
    sampled, ``columns`` the columns of the sample rows. Raises FileNotFoundError or InspectError."""
    if not path.exists():
        raise FileNotFoundError(f"{path} does not exist")
    if path.name == CRAWL_STATS and path.is_file():
        _crawl_summary(path, out)
        return
    if path.is_dir() and (path / CRAWL_STATS).is_file():
        _crawl_summary(path / CRAWL_STATS, out)
        if not any((path / d).is_dir() for d in OUTPUT_DIRS.values()):
            return
    subdirs = [path / d for d in OUTPUT_DIRS.values() if (path / d).is_dir()] if path.is_dir() else []
    if subdirs or (path.is_dir() and (path / "manifest.json").is_file()):
        # Options are checked against every folder first: a typo fails before a screenful of output.
        skips = _option_skips(subdirs, where, columns)
        _run_summary(path, out)
        for sub in subdirs:
            if sub in skips:
                out.write(f"\n== {sub}  (skipped: {skips[sub]})\n")
            else:
                _inspect_folder(sub, out, samples, where, columns)
        return
    files = shard_files(path)
    if files:
        _check_options(path, _schema_and_rows(files)[0], where, columns)
    _inspect_folder(path, out, samples, where, columns)


class _MissingColumn(InspectError):
    """An option names a column this folder's schema lacks; ``short`` is the note when the folder is skipped."""

    def __init__(self, message: str, short: str) -> None:
        super().__init__(message)
        self.short = short


def _option_skips(subdirs: list[Path], where: str | None, columns: list[str] | None) -> dict[Path, str]:
    """The output folders that lack a column --where or --columns names (``page_type`` in image_text), with the
    reason: those are skipped with a note. An error when no folder has it, or the expression is wrong anyway."""
    skips: dict[Path, str] = {}
    first: _MissingColumn | None = None
    checked = 0
    for sub in subdirs:
        files = shard_files(sub)
        if not files:
            continue
        checked += 1
        try:
            _check_options(sub, _schema_and_rows(files)[0], where, columns)
        except _MissingColumn as exc:
            skips[sub] = exc.short
            first = first or exc
    if checked and len(skips) == checked and first is not None:
        raise first
    return skips


def _check_options(path: Path, schema: pa.Schema, where: str | None, columns: list[str] | None) -> None:
    missing = [c for c in columns or [] if c not in schema.names]
    if missing:
        raise _MissingColumn(f"--columns: unknown column(s) {missing} in {path}; it has: {', '.join(schema.names)}",
                             f"--columns: no column(s) {missing} here")
    if where:
        # Evaluated on no rows of this schema, so that a typo fails before any shard is read.
        _where_mask(schema.empty_table(), where)


# -- one output folder -----------------------------------------------------------------------------------------------

def _inspect_folder(path: Path, out: TextIO, samples: int, where: str | None, columns: list[str] | None) -> None:
    """Summarise one shard or shard folder (the options are already checked against its schema)."""
    files = shard_files(path)
    if not files:
        out.write(f"{path}: no Parquet shards\n")
        return
    schema, rows = _schema_and_rows(files)
    try:
        kind = kind_of(schema)
    except ValueError:
        kind = "unknown (not written by winnow)"
    summary = _Summary(kind)
    sample_rows: list[dict[str, Any]] = []
    for f in files:
        table = _read(f, _needed_columns(schema, kind, where))
        keep = _where_mask(table, where) if where else None
        summary.add(table if keep is None else table.filter(keep))
        if len(sample_rows) < samples:
            sample_rows += _samples(f, keep, samples - len(sample_rows), columns)
    matched = f"; {summary.rows} match --where" if where else ""
    out.write(f"\n== {path}  ({len(files)} shard(s), {rows} rows, kind: {kind}{matched})\n")
    out.write(_wrapped("columns", f"({len(schema.names)}) " + ", ".join(schema.names)))
    for line in summary.lines():
        out.write(line)
    if samples and sample_rows:
        out.write("  sample rows:\n")
        for row in sample_rows:
            out.write("    " + json.dumps(_preview(row), ensure_ascii=False, default=str) + "\n")


def _schema_and_rows(files: list[Path]) -> tuple[pa.Schema, int]:
    rows = 0
    schema = None
    for f in files:
        meta = _parquet(f)
        rows += meta.metadata.num_rows
        schema = schema or meta.schema_arrow
    assert schema is not None
    return schema, rows


def _parquet(path: Path) -> pq.ParquetFile:
    """The file's footer, or an InspectError saying the file is not (or no longer) a Parquet file."""
    try:
        return pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as exc:
        raise InspectError(f"{path}: not a readable Parquet file ({_first_line(exc)})") from None


def _read(path: Path, columns: list[str], row_group: int | None = None) -> pa.Table:
    """Columns of one shard; a damaged data page is an InspectError naming the file, like a damaged footer."""
    try:
        pf = _parquet(path)
        if row_group is not None:
            return pf.read_row_group(row_group, columns=columns)
        return pf.read(columns=columns)
    except (pa.ArrowException, OSError) as exc:
        raise InspectError(f"{path}: damaged Parquet file ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _needed_columns(schema: pa.Schema, kind: str, where: str | None) -> list[str]:
    wanted = [*SUMMARY_COLUMNS, *KIND_COLUMNS.get(kind, ())]
    if where:
        wanted += _where_names(where, schema)
    return [c for c in schema.names if c in wanted]


def _where_names(where: str, schema: pa.Schema) -> list[str]:
    """The columns a --where expression names: only those are read (not the large ``text``, unless named)."""
    return [c for c in schema.names if re.search(rf"(?<![\w.]){re.escape(c)}\b", where)]


def _where_mask(table: pa.Table, where: str) -> pa.Array:
    """Rows of ``table`` for which the pandas expression holds (``DataFrame.query``'s language; the python engine,
    so that ``url.str.contains('docs')`` works too)."""
    import pandas as pd  # only --where needs it, and it costs a second to import

    frame = table.to_pandas()
    try:
        result = frame.eval(where, engine="python")
    except NameError as exc:  # pandas' UndefinedVariableError: a column this schema lacks
        raise _MissingColumn(f"--where {where!r}: {_first_line(exc)}", f"--where: {_first_line(exc)} here") from None
    except Exception as exc:  # pandas raises a dozen kinds (SyntaxError, NameError, TypeError, ...) for user input
        raise InspectError(f"--where {where!r}: {type(exc).__name__}: {_first_line(exc)}") from None
    if not (isinstance(result, pd.Series) and result.dtype == bool):
        raise InspectError(f"--where {where!r}: not a condition on the rows (e.g. \"lang == 'en'\")")
    return pa.array(result.to_numpy(), pa.bool_())


def _samples(path: Path, keep: pa.Array | None, n: int, columns: list[str] | None) -> list[dict[str, Any]]:
    if keep is None:
        # Without --where the first rows will do: read one row group, not the shard.
        if not _parquet(path).metadata.num_row_groups:
            return []
        return _read(path, columns or _parquet(path).schema_arrow.names, row_group=0).slice(0, n).to_pylist()
    if not keep.true_count:
        return []
    table = _read(path, columns or _parquet(path).schema_arrow.names)
    return table.filter(keep).slice(0, n).to_pylist()


class _Summary:
    """Figures of one output folder, accumulated shard by shard (one shard's columns in memory at a time)."""

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self.rows = 0
        self.counts: dict[str, Counter[str]] = {}
        self.scores: list[float] = []
        self.has_scores = False
        self.parts: list[pa.Table] = []

    def add(self, table: pa.Table) -> None:
        self.rows += table.num_rows
        names = table.column_names
        for column in ("lang", "page_type", "training_allowed", "dropped_by"):
            if column in names:
                self.counts.setdefault(column, Counter()).update(table.column(column).to_pylist())
        if "url" in names:
            self.counts.setdefault("hosts", Counter()).update(_host(u) for u in table.column("url").to_pylist())
        if "quality_score" in names:
            self.has_scores = True
            self.scores += [s for s in table.column("quality_score").to_pylist() if s is not None]
        extra = [c for c in KIND_COLUMNS.get(self.kind, ()) if c in names]
        if extra:
            self.parts.append(table.select(extra))

    def lines(self) -> list[str]:
        out = []
        for column in ("lang", "page_type"):
            if column in self.counts:
                out.append(_line(column, _top(self.counts[column])))
        if "hosts" in self.counts:
            hosts = self.counts["hosts"]
            out.append(_line(f"hosts ({len([h for h in hosts if h is not None])})", _top(hosts)))
        if self.has_scores:
            out.append(_line("quality_score", _quantiles(self.scores)))
        if "training_allowed" in self.counts:
            out.append(_line("training_allowed", _share(self.counts["training_allowed"], self.rows)))
        dropped = self.counts.get("dropped_by", Counter())
        if sum(n for reason, n in dropped.items() if reason is not None):
            # Only annotate-mode runs write dropped rows; a plain run's are all kept.
            out.append(_line("dropped_by", _top(dropped)))
        out += [f"  {line}\n" for line in _kind_summary(self.parts, self.kind)]
        return out


def _host(url: str | None) -> str | None:
    try:
        return urlsplit(url).hostname if url else None
    except ValueError:  # "http://[::1" and other URLs a JSONL corpus may hold: counted as no host
        return None


def _line(label: str, value: str) -> str:
    return f"  {label + ':':<{LABEL}}{value}\n"


def _wrapped(label: str, value: str) -> str:
    """A long value (the column list) wrapped under its own column, not into the label's."""
    lines = textwrap.wrap(value, WIDTH - LABEL - 2) or [""]
    return _line(label, lines[0]) + "".join(f"{'':<{LABEL + 2}}{rest}\n" for rest in lines[1:])


def _top(counts: Counter[Any], n: int = TOP) -> str:
    if not counts:
        return "-"
    shown = ", ".join(f"{'null' if k is None else k}={v}" for k, v in counts.most_common(n))
    rest = len(counts) - n
    return shown + (f", ... {rest} more" if rest > 0 else "")


def _quantiles(scores: list[float]) -> str:
    if not scores:
        return "all null (no quality step in this chain)"
    ordered = sorted(scores)
    # Nearest-rank quantiles: every figure shown is a score some row has.
    picks = [f"{name} {ordered[math.floor(q * (len(ordered) - 1) + 0.5)]:.3f}" for name, q in QUANTILES]
    return f"n={len(ordered)}  " + "  ".join(picks)


def _share(counts: Counter[Any], rows: int) -> str:
    def pct(n: int) -> str:
        return f"{n} ({100 * n / rows:.1f}%)" if rows else str(n)
    return f"true {pct(counts.get(True, 0))}, false {pct(counts.get(False, 0))}, null {pct(counts.get(None, 0))}"


def _kind_summary(parts: list[pa.Table], kind: str) -> list[str]:
    """What a user checks first in each output: how images and text relate."""
    if not parts or not sum(p.num_rows for p in parts):
        return []
    table = pa.concat_tables(parts)
    if kind == "image_text" and {"doc_id", "image_url", "caption", "width"} <= set(table.column_names):
        return [f"image_text: {len(set(table.column('image_url').to_pylist()))} distinct images from "
                f"{len(set(table.column('doc_id').to_pylist()))} pages; with caption "
                f"{table.num_rows - table.column('caption').null_count}, with width "
                f"{table.num_rows - table.column('width').null_count}"]
    if kind == "interleaved" and "segments" in table.column_names:
        segments = table.column("segments").to_pylist()
        images = [sum(1 for seg in doc or [] if seg["kind"] == "image") for doc in segments]
        texts = [sum(1 for seg in doc or [] if seg["kind"] == "text") for doc in segments]
        return [f"interleaved: {len(segments)} documents, {sum(texts) / len(segments):.1f} text and "
                f"{sum(images) / len(segments):.1f} image segments per document; "
                f"{sum(1 for n in images if n)} with at least one image"]
    if kind == "image" and {"image_format", "original_width", "original_height", "sha256"} <= set(table.column_names):
        sides = sorted(min(w, h) for w, h in zip(table.column("original_width").to_pylist(),
                                                 table.column("original_height").to_pylist(), strict=True)
                       if w and h)
        lines = [f"images: {len(set(table.column('sha256').to_pylist()))} distinct (sha256) of {table.num_rows}; "
                 f"formats {_top(Counter(table.column('image_format').to_pylist()))}"
                 + (f"; shorter side as fetched: median {sides[len(sides) // 2]} px" if sides else "")]
        if "clip_score" in table.column_names:
            scores = [s for s in table.column("clip_score").to_pylist() if s is not None]
            lines.append(f"clip_score: {_quantiles(scores) if scores else 'not scored'}")
        return lines
    return []


def _preview_segments(segments: list[dict]) -> list[str]:
    return [f"[img {s['image_url']} alt={s['alt']!r}]" if s["kind"] == "image"
            else (s["text"] or "")[:60].replace("\n", " ") for s in segments[:6]] + (["…"] if len(segments) > 6 else [])


def _preview(row: dict) -> dict:
    out = {}
    for key, value in row.items():
        if key == "segments" and isinstance(value, list):
            value = _preview_segments(value)
        elif isinstance(value, bytes):  # an image's bytes: their size says enough
            value = f"<{len(value):,} bytes>"
        elif isinstance(value, str) and len(value) > PREVIEW_CHARS:
            value = value[:PREVIEW_CHARS].replace("\n", " ") + "…"
        out[key] = value
    return out


# -- a whole output folder: the run, its funnel ---------------------------------------------------------------------

def _load_json(path: Path, out: TextIO) -> dict[str, Any] | None:
    """A JSON file of the run, or None (with a warning line when it is there but unreadable: a killed writer)."""
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        out.write(f"warning: {path} is not readable JSON ({_first_line(exc)})\n")
        return None
    return data if isinstance(data, dict) else None


def _run_summary(path: Path, out: TextIO) -> None:
    manifest = _load_json(path / "manifest.json", out)
    stats = _load_json(path / "stats.json", out)
    if manifest:
        inputs = manifest.get("inputs") or []
        size = sum(i.get("bytes", 0) for i in inputs)
        out.write(f"run {path}: config {Path(str(manifest.get('config_path'))).name}, runner {manifest.get('runner')}, "
                  f"{len(inputs)} input(s) ({size / 1e6:.1f} MB)\n")
        out.write(f"  started {manifest.get('started_at')}, finished {manifest.get('finished_at') or '-'}\n")
    for reason in incomplete_reasons(path, manifest):
        out.write(f"warning: incomplete run: {reason}\n")
    if stats:
        for line in funnel_lines(stats):
            out.write(line + "\n")


def incomplete_reasons(path: Path, manifest: dict[str, Any] | None) -> list[str]:
    """Why the run in ``path`` is not (yet) a finished one, from what pipelines/runner.py leaves on disk: the
    manifest's ``finished_at`` is null until the run ends; a wave is committed by ``_progress/wave-<id>.json``;
    shards named ``part-<wave>-...`` of a wave without that record, and ``_timing/``, are a wave in flight."""
    reasons = []
    if manifest is not None and not manifest.get("finished_at"):
        reasons.append("manifest.json has no finished_at (the run is in progress, or was stopped)")
    committed, waves = _committed(path)
    if manifest is not None:
        inputs = [i.get("path") for i in manifest.get("inputs") or []]
        pending = [p for p in inputs if p not in committed]
        if pending:
            reasons.append(f"{len(pending)} of {len(inputs)} input(s) in no committed wave, e.g. {pending[0]}")
    stray = [f"{d}/{f.name}" for d in OUTPUT_DIRS.values() for f in _shard_files_of(path / d)
             if _shard_wave(f.name) not in waves]
    if stray:
        reasons.append(f"{len(stray)} shard(s) of uncommitted wave(s), counted below (the next run removes them), "
                       f"e.g. {stray[0]}")
    timing = path / TIMING_DIR
    if timing.is_dir() and any(timing.iterdir()):
        reasons.append(f"{TIMING_DIR}/ holds an uncommitted wave: {', '.join(p.name for p in timing.iterdir())}")
    return reasons


def _shard_files_of(folder: Path) -> list[Path]:
    return shard_files(folder) if folder.is_dir() else []


def _committed(path: Path) -> tuple[set[str], set[str]]:
    """Inputs and wave ids of the committed waves (``_progress/wave-*.json``); an unreadable record commits
    nothing (the runner writes them atomically, so that is damage, and the wave's shards count as uncommitted)."""
    inputs: set[str] = set()
    waves: set[str] = set()
    for f in sorted((path / PROGRESS_DIR).glob("wave-*.json")):
        try:
            record = json.loads(f.read_text())
            waves.add(record["wave"])
            inputs.update(i["path"] for i in record["inputs"])
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return inputs, waves


def _shard_wave(name: str) -> str | None:
    """``part-<wave>-<hash>.parquet`` -> ``<wave>`` (the writer's naming, pipelines/writer.py)."""
    if not (name.startswith("part-") and name.endswith(".parquet")):
        return None
    return name[len("part-"):].split("-", 1)[0]


def funnel_lines(stats: dict[str, Any]) -> list[str]:
    """stats.json's steps as a table (rows in, kept, dropped by reason), then what reading skipped and why."""
    steps = stats.get("steps") or []
    lines = ["funnel (stats.json):"]
    width = max([len("step"), *(len(str(s.get("step"))) for s in steps)]) + 2
    timed = any("seconds" in s for s in steps)  # stats.json of older runs have no step times
    lines.append(f"  {'step':<{width}}{'in':>9}{'kept':>9}{'s' if timed else '':>8}  dropped")
    for s in steps:
        dropped = ", ".join(f"{k}={v}" for k, v in (s.get("dropped") or {}).items()) or "-"
        if s.get("produced"):
            dropped += "  -> " + ", ".join(f"{k} {v}" for k, v in s["produced"].items())
        secs = f"{s['seconds']:.1f}" if isinstance(s.get("seconds"), int | float) else ("-" if timed else "")
        lines.append(f"  {s.get('step'):<{width}}{s.get('in', 0):>9}{s.get('kept', 0):>9}{secs:>8}  {dropped}")
    read = next((s for s in steps if s.get("step") == "read"), None)
    if read is not None:
        lines.append(f"  read skipped: {', '.join(f'{k}={v}' for k, v in read['dropped'].items()) or 'nothing'}")
    errors = stats.get("errors") or []
    for err in errors[:5]:
        lines.append(f"  error: {err}")
    if len(errors) > 5:
        lines.append(f"  ... {len(errors) - 5} more error(s) in stats.json")
    outputs = stats.get("outputs") or {}
    if outputs:
        lines.append("  outputs: " + ", ".join(f"{k} {v.get('rows')} rows in {v.get('shards')} shard(s)"
                                               for k, v in outputs.items()))
    return lines


# -- a crawl folder ---------------------------------------------------------------------------------------------------

def _crawl_summary(stats_file: Path, out: TextIO) -> None:
    try:
        stats = json.loads(stats_file.read_text())
    except (OSError, ValueError) as exc:
        raise InspectError(f"{stats_file}: not readable JSON ({_first_line(exc)})") from None
    if not isinstance(stats, dict):
        raise InspectError(f"{stats_file}: not a crawl-stats.json (expected an object)")
    for line in crawl_lines(stats, stats_file.parent):
        out.write(line + "\n")


def crawl_lines(stats: dict[str, Any], folder: Path) -> list[str]:
    """crawl-stats.json (crawler/report.py) in brief: pages, hosts, training verdicts, and every skip counter."""
    sessions = stats.get("sessions", 1)  # written from the second session on (a --resume)
    # Recursive: a --workers crawl keeps each worker's WARC files in worker-K/ (crawler/distributed.py).
    warcs = sum(1 for p in folder.rglob("*") if p.name.endswith((".warc.gz", ".warc"))
                and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    lines = [f"crawl {folder}: {sessions} session(s), finish: {stats.get('finish_reason', '-')}",
             f"  started {stats.get('start_time', '-')}, last finish {stats.get('finish_time', '-')}"]
    figures = {"pages": stats.get("winnow/pages", 0), "hosts": stats.get("winnow/hosts", 0),
               "failed": stats.get("winnow/pages_failed", 0),
               "WARC files": f"{stats.get('winnow/warc/files', 0)} ({warcs} on disk)"}
    lines.append(_line("size", ", ".join(f"{k} {v}" for k, v in figures.items())).rstrip("\n"))
    allowed, denied = (stats.get(f"winnow/verdict/training_{v}", 0) for v in ("allowed", "denied"))
    judged = allowed + denied
    share = f" ({100 * allowed / judged:.1f}% allowed)" if judged else ""
    lines.append(_line("training", f"allowed {allowed}, denied {denied}{share}").rstrip("\n"))
    lines += [_line(label, value).rstrip("\n") for label, value in _crawl_groups(stats)]
    return lines


def _crawl_groups(stats: dict[str, Any]) -> Iterable[tuple[str, str]]:
    for label, prefix in CRAWL_GROUPS:
        found = {k[len(prefix):]: v for k, v in sorted(stats.items()) if k.startswith(prefix) and _count(v)}
        yield label, ", ".join(f"{k}={v}" for k, v in found.items()) or "-"
    if _count(stats.get("winnow/links_already_queued")):
        yield "already queued", str(stats["winnow/links_already_queued"])


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
