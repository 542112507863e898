"""``winnow report OUT_DIR``: one self-contained HTML page about a run's output folder.

The page (``OUT_DIR/report.html``) holds the funnel (records in, kept and dropped per step and reason, rows per
output), the language distribution, quality-score and text-length histograms, top hosts, page types, image-text
pair and interleaved statistics, fetched images, opt-out counts by policy signal, PII
redactions by type, the crawl's statistics when an input came from ``winnow crawl`` (a ``crawl-stats.json`` beside
the WARC files) and the time per step.

Where the numbers come from: ``stats.json`` and ``manifest.json`` (what ``winnow run`` writes) and the Parquet
shards, of which only the needed columns are read, and at most ``max_rows`` rows per output (spread over the shards
in proportion to their sizes), so a report on a large output stays quick; the page says when it sampled.
Distributions describe the kept rows; in ``--annotate`` outputs the dropped rows are in the shards too, and only
the opt-out section reads them (their policy signals say why they were dropped).

Plots are matplotlib figures (Agg backend, chosen explicitly: a report is written on servers without a display)
inlined as SVG, with text left as text: the page needs no network and no JavaScript to view. A section with no
data says so in one line and has no figure.
"""

from __future__ import annotations

import html
import io
import json
import math
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import pyarrow as pa
import pyarrow.compute as pc

from pipelines import storage
from pipelines.records import OUTPUT_DIRS

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# matplotlib.pyplot, imported on the first report (_pyplot): `winnow run` imports this module to write its report,
# and pyplot alone costs most of a second at start-up that a run which fails early should not pay.
plt: Any = None

REPORT_NAME = "report.html"
DEFAULT_MAX_ROWS = 200_000
TOP_N = 20
CRAWL_STATS = "crawl-stats.json"


class NotARunOutput(ValueError):
    """The folder is not the output folder of ``winnow run`` (no readable ``stats.json``)."""


@dataclass
class _Output:
    """What was read from one output's shards (text, image_text or interleaved)."""

    name: str
    rows: int = 0  # rows in the shards (kept and, in --annotate outputs, dropped)
    sampled: int = 0  # rows read
    kept: pa.Table | None = None  # the sampled rows with dropped_by null
    dropped: pa.Table | None = None  # the sampled rows with dropped_by set (--annotate only)


@dataclass
class _Page:
    sections: list[str] = field(default_factory=list)
    figures: int = 0


# --------------------------------------------------------------------------------------------------- reading data


def _load_json(path: str | Path) -> Any:
    try:  # local or in an object store (pipelines/storage.py)
        return json.loads(storage.read_bytes(str(path)))
    except (OSError, ValueError):
        return None


def _shards(folder: str | Path) -> list[str]:
    # Hidden temporaries (".part-*.tmp") and "_" files are never shards (as in pipelines/app/inspect_output.py).
    return [storage.join(str(folder), n) for n in storage.list_names(str(folder))
            if n.endswith(".parquet") and not n.startswith((".", "_"))]


def _read_output(folder: str | Path, wanted: list[str], max_rows: int) -> _Output:
    """Read ``wanted`` columns (those a shard has) from the shards of one output, at most ``max_rows`` rows."""
    out = _Output(storage.basename(str(folder)))
    files = _shards(folder)
    metas = []
    for f in files:
        try:
            metas.append((f, storage.parquet_file(f)))
        except (OSError, pa.ArrowInvalid):
            continue  # a damaged shard is not the report's to fix: it reports what can be read
    out.rows = sum(pf.metadata.num_rows for _, pf in metas)
    if not out.rows:
        return out
    tables = []
    for _, pf in metas:
        n = pf.metadata.num_rows
        # Each shard gives its share of the cap, so a sample spans every wave rather than only the first shards.
        take = n if out.rows <= max_rows else math.ceil(max_rows * n / out.rows)
        columns = [c for c in [*wanted, "dropped_by"] if c in pf.schema_arrow.names]
        if not take or not columns:
            continue
        got, read = [], 0
        for batch in pf.iter_batches(batch_size=min(take, 65_536), columns=columns):
            got.append(batch.slice(0, take - read))
            read += got[-1].num_rows
            if read >= take:
                break
        tables.append(pa.Table.from_batches(got).cast(pa.schema([pf.schema_arrow.field(c) for c in columns])))
    if not tables:
        return out
    table = pa.concat_tables(tables, promote_options="permissive")
    out.sampled = table.num_rows
    if "dropped_by" in table.column_names:
        is_dropped = pc.is_valid(table.column("dropped_by"))
        out.kept = table.filter(pc.invert(is_dropped))
        out.dropped = table.filter(is_dropped)
    else:
        out.kept = table
    return out


def _column(out: _Output, name: str, dropped: bool = False) -> list[Any]:
    table = out.dropped if dropped else out.kept
    if table is None or name not in table.column_names:
        return []
    return table.column(name).to_pylist()


def _text_lengths(out: _Output) -> list[int]:
    """Characters of text per kept row: the ``text`` column, or the text segments of an interleaved document."""
    if out.kept is None:
        return []
    if "text" in out.kept.column_names:
        return [v for v in pc.utf8_length(out.kept.column("text").combine_chunks()).to_pylist() if v is not None]
    if "segments" in out.kept.column_names and out.kept.num_rows:
        segments = out.kept.column("segments").combine_chunks()
        flat = pc.list_flatten(segments)
        if not len(flat):
            return [0] * out.kept.num_rows
        lengths = pc.fill_null(pc.utf8_length(pc.struct_field(flat, "text")), 0)
        parents = pc.list_parent_indices(segments)
        sums = pa.table({"p": parents, "n": lengths}).group_by("p").aggregate([("n", "sum")])
        per_doc = dict(zip(sums.column("p").to_pylist(), sums.column("n_sum").to_pylist(), strict=True))
        return [per_doc.get(i, 0) for i in range(out.kept.num_rows)]
    return []


def _crawl_folders(manifest: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """Crawl folders among the inputs' folders: those holding ``crawl-stats.json`` (``winnow crawl`` writes it)."""
    seen, found = set(), []
    for item in manifest.get("inputs") or []:
        path = str(item.get("path", "")) if isinstance(item, dict) else str(item)
        folder = storage.parent(path) if storage.is_remote(path) or not Path(path).is_dir() else path
        if folder in seen:
            continue
        seen.add(folder)
        stats = _load_json(storage.join(folder, CRAWL_STATS))
        if isinstance(stats, dict):
            found.append((folder, stats))
    return found


# ------------------------------------------------------------------------------------------------------- figures


def _svg(fig: Figure) -> str:
    """The figure as an inline <svg> element (no XML prologue), closed afterwards."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _figure(page: _Page, fig: Figure, caption: str) -> str:
    page.figures += 1
    return (f'<figure class="plot" id="fig-{page.figures}">{_svg(fig)}'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _barh(counts: list[tuple[str, float]], xlabel: str, title: str = "") -> Figure:
    labels = [str(k)[:60] for k, _ in counts][::-1]
    values = [v for _, v in counts][::-1]
    fig, ax = plt.subplots(figsize=(7, 0.6 + 0.28 * max(len(counts), 2)))
    ax.barh(labels, values, color="#3b75af")
    ax.set_xlabel(xlabel)
    if title:
        ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return fig


def _grouped_barh(series: dict[str, Counter[str]], xlabel: str) -> Figure:
    """Horizontal bars per category, one colour per output; categories ordered by their total."""
    total: Counter[str] = Counter()
    for c in series.values():
        total.update(c)
    cats = [k for k, _ in total.most_common(TOP_N)][::-1]
    fig, ax = plt.subplots(figsize=(7, 0.8 + 0.3 * max(len(cats), 2)))
    height = 0.8 / max(len(series), 1)
    for i, (name, counts) in enumerate(series.items()):
        ax.barh([j + i * height for j in range(len(cats))], [counts.get(c, 0) for c in cats], height=height,
                label=name)
    ax.set_yticks([j + 0.4 - height / 2 for j in range(len(cats))], [str(c)[:60] for c in cats])
    ax.set_xlabel(xlabel)
    ax.legend(loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    return fig


def _histograms(series: dict[str, list[float]], xlabel: str, log_x: bool = False,
                bounds: tuple[float, float] | None = None) -> Figure:
    """Overlaid histograms on shared bin edges, so that the outputs' bars line up and compare."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    values = [v for vs in series.values() for v in vs]
    lo, hi = bounds or (min(values), max(values))
    if log_x:
        lo, hi = math.log10(max(lo, 1)), math.log10(max(hi, 2))
        edges = [10 ** (lo + i * (hi - lo) / 30) for i in range(31)]
        ax.set_xscale("log")
    else:
        if hi <= lo:  # one distinct value: one bar around it
            lo, hi = lo - 0.5, hi + 0.5
        edges = [lo + i * (hi - lo) / 30 for i in range(31)]
    for name, vs in series.items():
        ax.hist([max(v, 1) if log_x else v for v in vs], bins=edges, alpha=0.6, label=f"{name} ({len(vs):,})")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("rows")
    ax.legend()
    ax.grid(alpha=0.3)
    return fig


# ------------------------------------------------------------------------------------------------- HTML pieces


def _hist_panels(series: dict[str, list[float]], ylabel: str) -> Figure:
    """One histogram per series, side by side (the image-text and fetched-image sections)."""
    fig, axes = plt.subplots(1, len(series), figsize=(7, 3), squeeze=False)
    for ax, (label, values) in zip(axes[0], series.items(), strict=True):
        ax.hist(values, bins=20 if max(values) > min(values) else 1, color="#3b75af")
        ax.set_xlabel(label)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3)
    return fig


def _table(header: list[str], rows: list[list[Any]]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = []
    for row in rows:
        cells = []
        for v in row:
            number = isinstance(v, int | float) and not isinstance(v, bool)
            text = f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else (
                f"{v:,.2f}" if isinstance(v, float) else html.escape(str(v)))
            cells.append(f'<td class="num">{text}</td>' if number else f"<td>{text}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _section(page: _Page, key: str, title: str, body: str | None, empty: str) -> None:
    content = body if body else f'<p class="empty">{html.escape(empty)}</p>'
    page.sections.append(f'<section id="{key}"><h2>{html.escape(title)}</h2>{content}</section>')


def _p(text: str) -> str:
    return f"<p>{html.escape(text)}</p>"


# ------------------------------------------------------------------------------------------------------ sections


def _funnel(page: _Page, stats: dict[str, Any]) -> None:
    steps = [s for s in stats.get("steps") or [] if isinstance(s, dict) and "step" in s]
    if not steps:
        _section(page, "funnel", "Funnel", None, "stats.json lists no steps.")
        return
    rows = []
    for s in steps:
        dropped = s.get("dropped") or {}
        produced = s.get("produced") or {}
        rows.append([s["step"], int(s.get("in", 0)), int(s.get("kept", 0)), int(sum(dropped.values())),
                     ", ".join(f"{k}={v:,}" for k, v in sorted(dropped.items(), key=lambda kv: -kv[1])) or "-",
                     ", ".join(f"{k}={v:,}" for k, v in produced.items()) or ""])
    fig, ax = plt.subplots(figsize=(7.5, 0.8 + 0.27 * len(steps)))
    names = [r[0] for r in rows][::-1]
    ax.barh(names, [r[2] for r in rows][::-1], color="#3b75af", label="kept")
    ax.barh(names, [r[3] for r in rows][::-1], left=[r[2] for r in rows][::-1], color="#d9534f", label="dropped")
    ax.set_xlabel("rows entering the step")
    ax.legend(loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    body = _figure(page, fig, "Rows entering each step, kept and dropped (steps of the image-text and interleaved "
                   "lanes count only their own rows)")
    body += _table(["step", "in", "kept", "dropped", "dropped by reason", "produced"], rows)
    outputs = stats.get("outputs") or {}
    if outputs:
        body += "<h3>Outputs</h3>" + _table(
            ["output", "rows", "shards"],
            [[k, int(v.get("rows", 0)), int(v.get("shards", 0))] for k, v in outputs.items()])
    inputs = stats.get("inputs") or {}
    if inputs:
        shown = sorted(inputs.items(), key=lambda kv: -kv[1].get("records", 0))[:TOP_N]
        body += f"<h3>Inputs ({len(inputs):,}; {len(shown)} largest shown)</h3>" + _table(
            ["input", "records", "kept", "dropped"],
            [[k, int(v.get("records", 0)), int(v.get("kept", 0)), int(v.get("dropped", 0))] for k, v in shown])
    errors = stats.get("errors") or []
    if errors:
        body += f"<h3>Errors ({len(errors):,})</h3><ul>" + "".join(
            f"<li>{html.escape(str(e))}</li>" for e in errors[:50]) + "</ul>"
    metrics = stats.get("metrics") or {}
    if metrics:
        body += "<h3>Metrics</h3>" + _table(["metric", "rows"], [[k, int(v)] for k, v in metrics.items()])
    _section(page, "funnel", "Funnel", body, "")


def _languages(page: _Page, outs: dict[str, _Output]) -> None:
    series = {n: Counter(str(v) if v else "(none)" for v in _column(o, "lang")) for n, o in outs.items()}
    series = {n: c for n, c in series.items() if c}
    if not series:
        _section(page, "languages", "Languages", None, "No kept rows carry a language.")
        return
    body = _figure(page, _grouped_barh(series, "kept rows"), f"Languages of the kept rows (top {TOP_N})")
    total: Counter[str] = Counter()
    for c in series.values():
        total.update(c)
    body += _table(["language", *series], [[k, *(series[n].get(k, 0) for n in series)]
                                           for k, _ in total.most_common(TOP_N)])
    _section(page, "languages", "Languages", body, "")


def _quality(page: _Page, outs: dict[str, _Output]) -> None:
    """The quality scores of the kept rows beside those of the dropped rows that were scored (tombstones keep their
    score): where the threshold cuts, and how close the kept pages sit to it."""
    series: dict[str, list[float]] = {}
    for n, o in outs.items():
        for state, dropped in (("kept", False), ("dropped", True)):
            values = [v for v in _column(o, "quality_score", dropped=dropped) if v is not None]
            if values:
                series[f"{n}, {state}"] = values
    if not series:
        _section(page, "quality", "Quality scores", None, "No rows carry a quality score.")
        return
    body = _figure(page, _histograms(series, "quality_score (P(good))", bounds=(0.0, 1.0)),
                   "Quality scores of the kept rows and of the dropped rows that were scored")
    body += _table(["output", "rows", "min", "median", "max"],
                   [[n, len(v), min(v), sorted(v)[len(v) // 2], max(v)] for n, v in series.items()])
    _section(page, "quality", "Quality scores", body, "")


def _lengths(page: _Page, outs: dict[str, _Output]) -> None:
    series = {n: _text_lengths(o) for n, o in outs.items() if n != "image_text"}
    series = {n: v for n, v in series.items() if v}
    if not series:
        _section(page, "lengths", "Text length", None, "No kept documents with text.")
        return
    body = _figure(page, _histograms(series, "characters of text (log scale)", log_x=True),
                   "Text length of the kept documents (interleaved: the text segments together)")
    body += _table(["output", "documents", "median chars", "max chars", "total chars"],
                   [[n, len(v), sorted(v)[len(v) // 2], max(v), sum(v)] for n, v in series.items()])
    _section(page, "lengths", "Text length", body, "")


def _host(url: Any) -> str | None:
    try:
        return urlsplit(str(url)).hostname if url else None
    except ValueError:
        return None


def _hosts(page: _Page, outs: dict[str, _Output]) -> None:
    series = {n: Counter(h for h in map(_host, _column(o, "url")) if h) for n, o in outs.items()}
    series = {n: c for n, c in series.items() if c}
    if not series:
        _section(page, "hosts", "Top hosts", None, "No kept rows carry a URL.")
        return
    total: Counter[str] = Counter()
    for c in series.values():
        total.update(c)
    body = _figure(page, _grouped_barh(series, "kept rows"), f"Hosts with the most kept rows (top {TOP_N})")
    body += _p(f"{len(total):,} distinct host(s).")
    body += _table(["host", *series],
                   [[k, *(series[n].get(k, 0) for n in series)] for k, _ in total.most_common(TOP_N)])
    _section(page, "hosts", "Top hosts", body, "")


def _page_types(page: _Page, outs: dict[str, _Output]) -> None:
    counts: Counter[str] = Counter(str(v) for o in outs.values() for v in _column(o, "page_type") if v)
    if not counts:
        _section(page, "page-types", "Page types", None, "No kept documents carry a page type.")
        return
    body = _figure(page, _barh(counts.most_common(TOP_N), "kept documents"), "Page types of the kept text documents")
    body += _table(["page type", "documents"], [[k, v] for k, v in counts.most_common()])
    _section(page, "page-types", "Page types", body, "")


def _image_pairs(page: _Page, out: _Output | None) -> None:
    if out is None or out.kept is None or not out.kept.num_rows:
        _section(page, "image-text", "Image-text pairs", None, "No image-text pairs were kept.")
        return
    urls, pages = _column(out, "image_url"), _column(out, "doc_id")
    alts = [a for a in _column(out, "caption") or _column(out, "alt")]
    widths, heights = _column(out, "width"), _column(out, "height")
    sides = [min(w, h) for w, h in zip(widths, heights, strict=False) if w and h]
    words = [len(a.split()) for a in alts if a]
    n = out.kept.num_rows
    rows = [["pairs", n], ["distinct images", len(set(u for u in urls if u))],
            ["pages", len(set(p for p in pages if p))], ["with a caption", len(words)],
            ["with width and height", len(sides)]]
    body = _table(["", "count"], rows)
    series = {k: v for k, v in {"caption words": words, "shorter image side (px)": sides}.items() if v}
    if not series:  # neither captions nor sizes: the counts are what there is to show
        body = _figure(page, _barh([(str(k), v) for k, v in rows], "pairs"), "Kept image-text pairs") + body
    else:
        body = _figure(page, _hist_panels(series, "pairs"), "Caption length and image size of the kept pairs") + body
    _section(page, "image-text", "Image-text pairs", body, "")


def _interleaved(page: _Page, out: _Output | None) -> None:
    docs = _column(out, "segments") if out is not None else []
    if not docs:
        _section(page, "interleaved", "Interleaved documents", None, "No interleaved documents were kept.")
        return
    images = [sum(1 for s in d or [] if s.get("kind") == "image") for d in docs]
    texts = [sum(1 for s in d or [] if s.get("kind") == "text") for d in docs]
    rows = [["documents", len(docs)], ["with at least one image", sum(1 for n in images if n)],
            ["image segments", sum(images)], ["text segments", sum(texts)],
            ["images per document (mean)", sum(images) / len(docs)], ["text segments per document (mean)",
                                                                       sum(texts) / len(docs)]]
    fig, ax = plt.subplots(figsize=(7, 3))
    top = max(images)
    ax.hist(images, bins=[i - 0.5 for i in range(top + 2)], color="#3b75af")
    ax.set_xlabel("image segments per document")
    ax.set_ylabel("documents")
    ax.grid(alpha=0.3)
    body = _figure(page, fig, "Images per kept interleaved document") + _table(["", "count"], rows)
    _section(page, "interleaved", "Interleaved documents", body, "")


def _signal_name(signal: str) -> str:
    # "header:content-usage=train-ai=n" -> keep the value: which preference was expressed is the point; cap the
    # length because a robots.txt Content-Usage value is free text.
    return signal[:80]


_IMAGES_EMPTY = ("No fetched images were kept (an images/ output comes from `winnow run images` over "
                 "image_text/interleaved).")


def _images(page: _Page, out: _Output | None) -> None:
    """The "Fetched images" section (an ``images/`` output: `winnow run images`, issue 17): image rows kept, distinct
    images (by sha256), where they came from, formats, sizes as stored and, when a ``clip_score`` step ran, its scores.
    Only these image columns are read (never the ``image`` bytes); the image steps' drops are in the funnel."""
    if out is None or out.kept is None or not out.kept.num_rows:
        _section(page, "images", "Fetched images", None, _IMAGES_EMPTY)
        return

    def col(name: str) -> list[Any]:
        return _column(out, name)

    rows_n = out.kept.num_rows
    widths, heights = col("width"), col("height")
    original = col("original_width")
    sides = [min(w, h) for w, h in zip(widths, heights, strict=False) if w and h]
    scores = [s for s in col("clip_score") if s is not None]
    formats = Counter(f or "unknown" for f in col("image_format"))
    sources = Counter(o or "unknown" for o in col("output"))
    resized = sum(1 for w, o in zip(widths, original, strict=False) if w and o and w != o)
    rows: list[list[Any]] = [["image rows", rows_n], ["distinct images (sha256)", len({s for s in col("sha256") if s})]]
    rows += [[f"from {name}", n] for name, n in sources.most_common()]
    rows += [[f"format {name}", n] for name, n in formats.most_common()]
    rows += [["resized when fetched", resized], ["with a CLIP score", len(scores)]]
    series = {k: v for k, v in {"shorter side as stored (px)": sides, "CLIP score": scores}.items() if v}
    if series:
        fig = _hist_panels(series, "images")
        caption = "Size" + (" and CLIP score" if scores else "") + " of the kept images"
    else:  # no sizes (hand-made rows): the formats are what there is to draw
        fig = _barh(formats.most_common(TOP_N), "images")
        caption = "Formats of the kept images"
    body = _figure(page, fig, caption) + _table(["", "count"], rows)
    _section(page, "images", "Fetched images", body, "")


def _opt_out(page: _Page, stats: dict[str, Any], outs: dict[str, _Output],
             crawls: list[tuple[str, dict[str, Any]]]) -> None:
    by_step = {s.get("step"): s for s in stats.get("steps") or [] if isinstance(s, dict)}
    opted = sum((by_step.get("opt_out") or {}).get("dropped", {}).values())
    # Rows dropped for an opt-out are in the shards only in --annotate outputs; their signals say who opted out.
    denied: Counter[str] = Counter()
    for o in outs.values():
        reasons = _column(o, "dropped_by", dropped=True)
        allowed = _column(o, "training_allowed", dropped=True)
        signals = _column(o, "policy_signals", dropped=True)
        for reason, ok, sig in zip(reasons, allowed, signals, strict=False):
            if ok is False or (reason or "").startswith("opt_out."):
                denied.update(_signal_name(s) for s in sig or [])
    verdicts = {k.rsplit("/", 1)[-1]: v for _, c in crawls for k, v in c.items()
                if k.startswith("winnow/verdict/") or k == "winnow/robots/training_disallowed"}
    if not (denied or verdicts):
        ran = f"Records dropped by the opt-out step: {opted:,}; " if "opt_out" in by_step else "No opt-out step ran; "
        _section(page, "opt-out", "Training opt-outs", None,
                 ran + "no policy signals in the shards (dropped rows are kept only with --annotate) and no crawl "
                 "verdicts.")
        return
    body = _p(f"Records dropped by the opt-out step: {opted:,}.")
    if denied:
        body += _figure(page, _barh(denied.most_common(TOP_N), "opted-out records"),
                        "Policy signals on the records dropped for a training opt-out")
        body += _table(["signal", "records"], [[k, v] for k, v in denied.most_common()])
    else:
        # Without --annotate the dropped records are gone; the crawl's verdicts are then what counts the opt-outs.
        body += _figure(page, _barh(sorted(verdicts.items()), "pages"), "Training-use verdicts of the crawl")
        if opted:
            body += _p("The dropped records are not in the shards; run with --annotate to count them by signal.")
    if verdicts:
        body += "<h3>Crawl verdicts</h3>" + _table(["verdict", "pages"], [[k, int(v)] for k, v in verdicts.items()])
    _section(page, "opt-out", "Training opt-outs", body, "")


def _pii(page: _Page, outs: dict[str, _Output]) -> None:
    series = {n: Counter(str(t) for labels in _column(o, "pii_redacted") for t in labels or [])
              for n, o in outs.items()}
    series = {n: c for n, c in series.items() if c}
    if not series:
        has_column = any(o.kept is not None and "pii_redacted" in o.kept.column_names for o in outs.values())
        _section(page, "pii", "PII redactions", None,
                 "No PII was redacted in the kept rows." if has_column else "The outputs record no PII redactions.")
        return
    body = _figure(page, _grouped_barh(series, "redactions"), "PII redactions by type in the kept rows")
    total: Counter[str] = Counter()
    for c in series.values():
        total.update(c)
    body += _table(["type", *series], [[k, *(series[n].get(k, 0) for n in series)] for k, _ in total.most_common()])
    _section(page, "pii", "PII redactions", body, "")


_CRAWL_MAIN = ("winnow/pages", "winnow/hosts", "winnow/warc/files", "winnow/pages_failed", "item_scraped_count",
               "downloader/request_count", "downloader/response_bytes", "elapsed_time_seconds", "finish_reason")
_CRAWL_NOT_FETCHED = ("winnow/skipped/", "winnow/gate/", "winnow/links_skipped/", "winnow/seeds_skipped/",
                      "winnow/robots/disallowed", "winnow/address_guard/", "winnow/links_already_queued")


def _crawl(page: _Page, crawls: list[tuple[str, dict[str, Any]]]) -> None:
    if not crawls:
        _section(page, "crawl", "Crawl", None, "No input came from a `winnow crawl` folder (no crawl-stats.json).")
        return
    body = ""
    for folder, c in crawls:
        body += f"<h3>{html.escape(str(folder))}</h3>"
        body += _table(["counter", "value"], [[k, c[k]] for k in _CRAWL_MAIN if k in c])
        skipped = sorted(((k.removeprefix("winnow/"), v) for k, v in c.items()
                          if k.startswith(_CRAWL_NOT_FETCHED) and isinstance(v, int | float)), key=lambda kv: -kv[1])
        # Pages fetched first, for scale: the reasons below are what the crawl did not fetch or follow.
        bars = [("pages fetched", c.get("winnow/pages", 0)), *skipped[:TOP_N]]
        body += _figure(page, _barh(bars, "count"), f"Pages fetched, and not fetched or not followed by reason: "
                        f"{folder}")
    _section(page, "crawl", "Crawl", body, "")


def _timing(page: _Page, stats: dict[str, Any]) -> None:
    steps = [s for s in stats.get("steps") or [] if isinstance(s, dict) and "seconds" in s]
    last = stats.get("last_run") or {}
    if not steps:
        # One line either way: the run's wall time, when known, is still worth showing.
        wall = f"Last run: {last['seconds']} s wall; " if "seconds" in last else ""
        _section(page, "timing", "Time per step", None, f"{wall}stats.json records no per-step times.")
        return
    fig, ax = plt.subplots(figsize=(7.5, 0.8 + 0.27 * len(steps)))
    names = [s["step"] for s in steps][::-1]
    ax.barh(names, [s["seconds"] for s in steps][::-1], color="#3b75af", label="seconds")
    ax.barh(names, [s.get("cpu_seconds", 0) for s in steps][::-1], height=0.4, color="#f0ad4e", label="CPU seconds")
    ax.set_xlabel("seconds (summed over waves and processes)")
    ax.legend(loc="lower right")
    ax.grid(axis="x", alpha=0.3)
    body = _figure(page, fig, "Time per step")
    if "seconds" in last:
        body += _p(f"Last run: {last['seconds']} s wall, {last.get('inputs_processed', 0)} input(s) processed, "
                   f"{last.get('inputs_skipped_as_done', 0)} already done.")
    body += _table(["step", "seconds", "CPU seconds"],
                   [[s["step"], float(s["seconds"]), float(s.get("cpu_seconds", 0.0))] for s in steps])
    _section(page, "timing", "Time per step", body, "")


# ------------------------------------------------------------------------------------------------------- public


_COLUMNS = ["url", "lang", "quality_score", "page_type", "pii_redacted", "policy_signals", "training_allowed",
            "text", "segments", "image_url", "doc_id", "caption", "alt", "width", "height",
            # images/ (the "Fetched images" section); never the image bytes
            "sha256", "image_format", "output", "original_width", "clip_score"]

_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:62em;padding:0 1em;color:#222}
h1{font-size:1.6em}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ddd;padding:.2em .6em;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}th{background:#f4f4f4}
figure.plot{margin:1em 0}figure.plot svg{max-width:100%;height:auto}figcaption{color:#555;font-size:.9em}
p.empty{color:#777;font-style:italic}.note{color:#555}
"""


def _pyplot() -> Any:
    global plt
    if plt is None:
        import matplotlib

        matplotlib.use("Agg")  # explicitly: no display on servers, and the same rendering everywhere
        import matplotlib.pyplot

        plt = matplotlib.pyplot
    return plt


def build_report(out_dir: str | Path, max_rows: int = DEFAULT_MAX_ROWS) -> str:
    """The report of the run output in ``out_dir`` (a local folder or a URL, pipelines/storage.py) as one HTML
    document; raises NotARunOutput for other folders."""
    out_dir = storage.normalize(out_dir)
    shown = storage.redact(out_dir)
    if not storage.isdir(out_dir):
        raise NotARunOutput(f"{shown} is not a folder")
    stats = _load_json(storage.join(out_dir, "stats.json"))
    if not isinstance(stats, dict) or not isinstance(stats.get("steps"), list):
        raise NotARunOutput(f"{shown} is not an output folder of `winnow run` (no readable stats.json in it)")
    manifest = _load_json(storage.join(out_dir, "manifest.json"))
    manifest = manifest if isinstance(manifest, dict) else {}

    present = set(storage.list_names(out_dir))
    outs = {name: _read_output(storage.join(out_dir, name), _COLUMNS, max_rows)
            for name in OUTPUT_DIRS.values() if name in present}
    crawls = _crawl_folders(manifest)
    _pyplot()
    with plt.rc_context({"svg.fonttype": "none", "font.size": 9}):  # text stays text: small files, crisp labels
        page = _Page()
        _funnel(page, stats)
        _languages(page, outs)
        _quality(page, outs)
        _lengths(page, outs)
        _hosts(page, outs)
        _page_types(page, outs)
        _image_pairs(page, outs.get("image_text"))
        _interleaved(page, outs.get("interleaved"))
        _images(page, outs.get(OUTPUT_DIRS["image"]))
        _opt_out(page, stats, outs, crawls)
        _pii(page, outs)
        _crawl(page, crawls)
        _timing(page, stats)

    sampled = [f"{n}: {o.sampled:,} of {o.rows:,} rows" for n, o in outs.items() if o.sampled < o.rows]
    note = (f"Distributions are drawn from a sample (at most {max_rows:,} rows per output, spread over its shards): "
            + "; ".join(sampled) + ".") if sampled else "Distributions are drawn from every row of the shards."
    where = shown if storage.is_remote(shown) else str(Path(shown).resolve())
    head = [["output folder", where], ["config", str(manifest.get("config_path", "-"))],
            ["runner", str(manifest.get("runner", "-"))], ["started", str(manifest.get("started_at", "-"))],
            ["finished", str(manifest.get("finished_at", "-"))],
            ["inputs", f"{len(manifest.get('inputs') or []):,}"],
            ["report written", datetime.now(UTC).isoformat(timespec="seconds")]]
    toc = " · ".join(f'<a href="#{key}">{title}</a>' for key, title in (
        ("funnel", "funnel"), ("languages", "languages"), ("quality", "quality"), ("lengths", "length"),
        ("hosts", "hosts"), ("page-types", "page types"), ("image-text", "image-text"),
        ("interleaved", "interleaved"), ("images", "images"), ("opt-out", "opt-outs"), ("pii", "PII"),
        ("crawl", "crawl"), ("timing", "time")))
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>winnow report: {html.escape(storage.basename(shown))}</title><style>{_CSS}</style></head><body>"
            f"<h1>winnow report: {html.escape(storage.basename(shown))}</h1>"
            + _table(["", ""], head) + f'<p class="note">{html.escape(note)}</p>'
            + f"<nav>{toc}</nav>" + "".join(page.sections) + "</body></html>\n")


def write_report(out_dir: str | Path, path: str | Path | None = None,
                 max_rows: int = DEFAULT_MAX_ROWS) -> Path | str:
    """Write the report of ``out_dir`` to ``path`` (default ``out_dir/report.html``), local or in an object store,
    whole or not at all (a reader never sees half a page); return the path."""
    out_dir = storage.normalize(out_dir)
    target = storage.normalize(path) if path is not None else storage.join(out_dir, REPORT_NAME)
    text = build_report(out_dir, max_rows=max_rows)
    storage.write_bytes(target, text.encode("utf-8"))
    return target if storage.is_remote(target) else Path(target)
