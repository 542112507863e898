"""End to end, winnow against datatrove 0.10.1: the same chain on the same WARCs, on this machine's 2 cores.

What runs (issue 14). The chain, on both: trafilatura extraction -> fastText lid.176 language filter (English,
score >= 0.65) -> Gopher repetition -> Gopher quality -> C4 quality -> FineWeb quality -> MinHash dedup (5-word
shingles, 14 bands x 8 rows) -> Parquet. Four systems, in fresh output folders, alternating within each round
(the order rotates from round to round so that no system always runs first), ``--rounds`` rounds (default 3):

- ``winnow --local``: ``pipelines.runner.run(RunOptions(local=True))`` with ``bench/configs/e2e.yaml``;
- ``winnow ray``: the same with ``local=False`` (embedded local Ray started by the run);
- ``datatrove``: ``bench/e2e_datatrove.py`` in datatrove's own virtual environment, LocalPipelineExecutor with
  ``tasks=2, workers=2`` for the reading/filtering and final stages (14 tasks for MinHash buckets, 1 for clustering:
  datatrove requires both);
- ``winnow default --local`` (issue 28): ``pipelines.runner.run(RunOptions(local=True))`` with
  ``pipelines/configs/default.yaml``, the chain users run, on the same WARCs. Not the chain above: it does much more
  work per page, and keeps other documents. Its extraction is winnow's own (extract/step.py ``ExtractPage``: one parse
  per page, a trained block-selection model, Markdown text with code, math and tables, and from the same parse the
  image/alt-text pairs and the interleaved document: three outputs, not one), in the same deadline worker processes;
  before it, the training opt-out and URL filters; after it, on the text lane: lid.176 on the prose for every language
  (macrolanguages, not English only) and a host-level language fallback (a Stage), the Gopher, C4 and FineWeb rules
  computed as quality signals (only lorem ipsum and Gopher's 100,000-word ceiling drop), clear-junk rules, a
  calibrated quality model over the signals, host-level quality (a Stage), profanity and PII redaction; the
  image/alt-text lane (URL filter, language ID, alt-text quality, profanity, PII) and the interleaved lane (most of
  the text lane's steps again) after that; then exact dedup on all three lanes and MinHash (14 x 8) with pairs
  confirmed by Jaccard >= 0.8 on text and interleaved. The steps after a Stage (on this input: from Gopher to PII on
  the text and interleaved lanes) are shared by the run's process and a filter worker per other core once the wave's
  extraction is over (pipelines/parallel.py; ``filter_workers`` 1 puts them back in the run's process); after the
  fan-out the three lanes go on each in a thread of their own (pipelines/runner.py), the interleaved lane's filters
  once the text lane's are done, reading the signals its twin texts got there (pipelines/memo.py), and extraction
  keeps a second batch out to its workers (pipelines/dataset.py ``in_order``); both models' trees are ONNX graphs
  (pipelines/trees.py). Where the time went before those, profiled with py-spy: docs/benchmarks.md. Its kept rows
  are reported per output (``text``, ``image_text``, ``interleaved``); the URL-level figures (planted duplicates,
  agreement) are not computed for it: they describe the trafilatura chain's English kept set. "passed" for it is the
  text documents that reached ``exact_dedup``, "dedup-" what exact and MinHash dedup removed from them (stats.json
  counts). Where its time goes: stats.json ``steps[i]["seconds"]`` (per step, summed over waves and over the processes
  that ran it, the filter workers' included; extraction's is the time each batch was out to its worker processes, a
  batch ahead of the filters and beside them, so the steps' seconds add up to more than the wall time; the JSON's
  counts also keep each step's ``cpu_seconds``, of the pipeline's own process only), printed as "per-step seconds".
  The Stages (host language, host quality, exact and MinHash dedup) record no seconds. Its child also writes a trace
  (``r<round>-<system>.trace.jsonl`` next to the run's log, every 0.5 s: its RSS, the bytes in Arrow's memory pool,
  its children's RSS, the waves committed so far, and the repo frames its main thread is in), to see which step holds
  memory when it grows; from it each round prints the peak RSS of each wave, of the run's own process and of the
  process tree (``wave_peaks``; kept in the JSON's runs): with ``--scale N --wave-files 8``, whether memory grows
  from wave to wave.

Each system runs as a child process of this one (interpreter start, imports and Ray's start-up are part of its time).

What is measured, per run:

- wall seconds: from starting the child until the child exits;
- CPU seconds: user + system of the whole process tree (the child, its extraction and pool workers, Ray's GCS,
  raylet and workers), from a cgroup made for the run (``bench.cpu.run_tree``: the child joins it before it
  starts, every process it starts inherits it, and the kernel counts the group's CPU whatever becomes of its
  processes). Where no cgroup can be made, ``RUSAGE_CHILDREN`` with this process as child subreaper (Linux
  ``prctl``) is used; it misses processes whose parent ignores SIGCHLD (for a winnow run on Ray, rusage saw
  33 of the 411 CPU-seconds that the cgroup counted). Descendants still alive when the child exits are waited
  for (their CPU counts; wall time does not). The rusage and psutil-sampled figures (every 0.2 s, a lower
  bound) are kept in the JSON as cross-checks;
- others' CPU seconds: how busy the rest of the machine was during the run (/proc/stat's busy time minus the
  run's own CPU; includes this process's sampling, about 1%). Timed runs hold the lock below, but jobs that do
  not take it (test suites, installs) still run: a run with much of it was slowed down;
- peak RSS: the largest sum of resident memory over the live process tree, sampled every 0.2 s (pages shared
  between processes, as after fork or in Ray's object store, count once per process);
- documents kept (rows of the Parquet output), documents that passed the filters (reached dedup), documents
  removed by dedup; the kept-set agreement between two systems by URL, |both| / |either|, also before dedup;
- planted duplicates: for each planted copy (near or exact) of an input page, whether dedup caught the pair
  (one of the two removed by dedup), missed it (both kept), or never saw it (filtered before dedup), and which
  one was kept;
- per-step seconds where the system reports them: datatrove's ``logs/<stage>/stats.json`` (summed over tasks, so
  on 2 workers about twice the wall time of the stage); winnow's ``stats.json`` ``steps[i]["seconds"]`` when
  the runner records it (omitted otherwise).

Reported per system: medians of wall, CPU and peak RSS over the rounds; docs/s (input pages / median wall);
docs per CPU-second (input pages / median CPU); the ratios winnow / datatrove of docs/s. Timed runs hold
``/tmp/winnow-bench.lock`` (flock) so that other benchmarks on this shared machine do not run at the same time.

Input: built once per seed and cached by bench/e2e_input.py (its docstring gives the recipe): 3,314 pages
from real ones (WCXB dev and the news benchmark), with rewritten variants and planted near and exact duplicates, in
8 WARC files.

``--scale N`` (for the memory check: peak RSS at 1x and Nx the input) takes the WARCs of seeds SEED .. SEED+N-1
(linked into ``/tmp/winnow-e2e-input/scaled/seed<SEED>x<N>/``, one folder for datatrove), 8 N files. The seeds do
not give N different corpora: each seed's 1,557 originals are the same real pages, byte for byte and under the same
URLs (only their WARC-Record-IDs, dates and file assignment differ), so at Nx they are exact duplicates of each
other (exact dedup removes them, as it would re-crawled pages); the 1,557 rewritten variants share their URLs
across seeds but their text differs (different donor sentences), and the planted copies are chosen and edited anew
per seed. That is fine for a memory check (every page is read, extracted and held as at 1x) but not a larger corpus
of distinct pages. URL-level figures (planted duplicates, agreement) are computed at scale 1 only. Note that
winnow's runner processes inputs in waves of ``wave_files`` (16) files and holds a wave's documents in memory for
its Stages (host language and quality group a wave by host, dedup materialises it), so its peak RSS grows with the
wave, not with the whole input: 8 files at 1x make one wave, 24 at 3x make waves of 16 and 8; ``--wave-files 8``
makes them three waves of 8, each the size of the 1x input (the check that memory does not grow with the input).

Differences between the two chains (everything else is the same published rule with the same threshold):

- trafilatura: 2.3.1 in winnow, 1.11.0 in datatrove (its pin). Both ``favor_precision=True``,
  ``include_comments=False``, tables included, Markdown formatting (winnow's TrafilaturaExtract always renders
  headings and lists as Markdown; datatrove is given ``include_formatting=True`` to match) and no deduplication
  of repeated text inside a page (winnow has none; datatrove's default ``deduplicate=True`` is set to False).
  ``--dt-stock-extraction`` runs datatrove's own defaults instead (plain text, deduplicate). winnow calls
  ``bare_extraction`` with the page URL on the tree it parsed, and reads the title from the same tree by
  trafilatura's own title rules (extract/trafilatura_step.py: not ``with_metadata``, which also runs htmldate's
  date search, author and licence look-ups that a Document does not keep), datatrove ``extract`` on the HTML
  alone.
- Extraction time limit: datatrove runs trafilatura in a sandbox process per task with a per-page timeout
  (default 1 s, set to ``--dt-timeout``, default 60 s, so that slow pages are not dropped); winnow's
  TrafilaturaExtract runs in deadline worker processes with the same 60 s per page (``time_limit_s`` in
  bench/configs/e2e.yaml).
- HTML decoding: datatrove decodes UTF-8 or else guesses with cchardet; winnow's reader follows the HTTP/meta
  charset with its own fallbacks. The input is UTF-8 and labelled so.
- Language ID: the same ``lid.176.ftz`` file (datatrove's default is the uncompressed ``lid.176.bin``; this bench
  puts winnow's ``.ftz`` where datatrove looks, under ``$HF_HOME/assets/datatrove/lid/ft176/``, with
  ``HF_HUB_OFFLINE=1``). datatrove scores the whole text and keeps ``score > 0.65``; winnow scores the first
  5,000 characters (filters/langid.py ``MAX_CHARS``) and keeps ``score >= 0.65``. Both keep English only
  (``languages: [en]``), as FineWeb does; the Gopher stop words are English.
- Words: datatrove splits English with spaCy's ``blank("en")`` tokenizer (punctuation as tokens), winnow with its
  own rules (filters/text.py). Gopher's "#" symbol ratio: winnow does not count a "#" that opens a Markdown
  heading; datatrove counts every "#" (and with Markdown output, headings are "#" lines).
- Gopher repetition and quality, FineWeb quality: datatrove's defaults, winnow's defaults with
  ``prose_only: false`` (the published rules on the whole text). winnow's stop-word rule applies to English
  documents only, which after the English-only language filter is every document.
- C4: both drop on "lorem ipsum", a curly bracket and fewer than 5 sentences, remove lines with "javascript", the
  policy phrases, fewer than 3 words or a word over 1,000 characters, and citation markers; neither removes lines
  without terminal punctuation (FineWeb's ``filter_no_terminal_punct=False``, winnow's
  ``require_terminal_punctuation: false``). Sentence counting differs (datatrove: lines split into sentences
  with its tokenizer; winnow: filters/text.py ``sentence_count``).
- MinHash: datatrove normalises text (lower case, punctuation and digits simplified), tokenises with spaCy and
  hashes 5-grams with 64-bit hashes and its own permutations (seed 1); winnow normalises its own way and uses
  datasketch-style affine 32-bit permutations (dedup/minhash.py). Both band 14 x 8 = 112 hashes and drop every
  document sharing a band with another, keeping one per connected component (datatrove: union-find root,
  usually the first in read order; winnow: earliest ``fetched_at``, then smallest id). Neither verifies pairs
  by Jaccard here (winnow's ``verify`` is off by default).
- Output: both write the kept documents only (datatrove: text, id, metadata; winnow: its Document schema, and
  counts of every drop in stats.json). What passed the filters is read from datatrove's intermediate JSONL and
  from winnow's kept rows plus its dedup decisions (``_state/minhash_dedup/*-labels-*``, keyed by document id;
  ids are mapped back to URLs from the WARC-Record-IDs).
- Parallelism: datatrove runs 2 tasks on 2 worker processes (each with its own extraction sandbox process);
  winnow ``--local`` shares each batch of pages among one extraction worker per core, a batch ahead of the filters
  (which run in the pipeline's process meanwhile); winnow on Ray runs reading, extraction and the filters fused in
  one task per input file on an actor pool, its extraction tasks reserving half a CPU each so that two extraction
  workers run beside the pool (pipelines/ray_data.py ``_task_cpus``).

Usage::

    .venv/bin/python bench/e2e.py [--rounds 3] [--json /tmp/e2e.json] [--systems local ray datatrove default]
        [--scale 1]

The first run creates datatrove's virtual environment at ``~/.cache/winnow-bench/datatrove-venv`` (outside the
git tree; ``python3.11 -m venv`` + ``pip install "datatrove[io,processing]==0.10.1" spacy lxml_html_clean
aiohttp requests``, a few minutes). If pip cannot install it, the bench says why and runs the winnow side only.
Outputs go to ``/tmp/winnow-e2e-runs/<time>/`` (removed after reading unless ``--keep-outputs``).
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from bench import cpu  # noqa: E402
from bench.e2e_input import INPUT_CACHE, ensure_input  # noqa: E402

CONFIG = REPO / "bench" / "configs" / "e2e.yaml"
DEFAULT_CONFIG = REPO / "pipelines" / "configs" / "default.yaml"
DT_SCRIPT = REPO / "bench" / "e2e_datatrove.py"
CACHE = Path.home() / ".cache" / "winnow-bench"
DT_VENV = CACHE / "datatrove-venv"
DT_PACKAGES = ["datatrove[io,processing]==0.10.1", "spacy", "lxml_html_clean", "aiohttp", "requests"]
DT_VERSION = "0.10.1"
RUNS = Path("/tmp/winnow-e2e-runs")
LOCK = Path("/tmp/winnow-bench.lock")
SYSTEMS = ("local", "ray", "datatrove", "default")
LABELS = {"local": "winnow --local", "ray": "winnow ray", "datatrove": "datatrove tasks=2",
          "default": "winnow default --local"}
CONFIGS = {"local": CONFIG, "ray": CONFIG, "default": DEFAULT_CONFIG}
WINNOW_OUTPUTS = ("text", "image_text", "interleaved")
SCALED = INPUT_CACHE / "scaled"  # --scale N: links to the WARCs of N seeds, one folder (datatrove reads a folder)
TRACE_ENV = "WINNOW_E2E_TRACE"  # the winnow child writes RSS and what its main thread is doing here (JSONL)
WAVE_ENV = "WINNOW_E2E_WAVE_FILES"  # ``--wave-files``: the winnow child's RunOptions.wave_files



# -- datatrove's environment -----------------------------------------------------------------------------------------

def _check_datatrove(python: Path) -> str | None:
    """datatrove's version in that environment, or None when it does not import."""
    if not python.exists():
        return None
    code = "import datatrove, spacy, trafilatura, importlib.metadata as m; print(m.version('datatrove'))"
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    return done.stdout.strip() if done.returncode == 0 else None


def ensure_datatrove(venv: Path = DT_VENV) -> tuple[Path | None, str]:
    """datatrove's Python (created on first use), or None and the reason it could not be set up."""
    python = venv / "bin" / "python"
    version = _check_datatrove(python)
    if version == DT_VERSION:
        return python, f"datatrove {version} at {venv}"
    interpreter = shutil.which("python3.11") or (sys.executable if sys.version_info[:2] == (3, 11) else None)
    if interpreter is None:
        return None, "no python3.11 to create datatrove's virtual environment with"
    print(f"creating datatrove's virtual environment at {venv} (a few minutes) ...", flush=True)
    shutil.rmtree(venv, ignore_errors=True)
    venv.parent.mkdir(parents=True, exist_ok=True)
    log = venv.parent / "datatrove-install.log"
    with log.open("w") as fh:
        made = subprocess.run([interpreter, "-m", "venv", str(venv)], stdout=fh, stderr=subprocess.STDOUT)
        if made.returncode != 0:
            return None, f"python3.11 -m venv failed (see {log})"
        pip = subprocess.run([str(python), "-m", "pip", "install", *DT_PACKAGES], stdout=fh, stderr=subprocess.STDOUT)
    if pip.returncode != 0:
        tail = [line for line in log.read_text(errors="replace").splitlines() if not line.startswith("WARNING:")]
        unreachable = any(s in "\n".join(tail) for s in ("NewConnectionError", "Failed to establish",
                                                         "Temporary failure in name resolution", "No matching "
                                                         "distribution", "Could not find a version"))
        why = "the package registry could not be reached" if unreachable else "pip install failed"
        return None, f"{why}: {' | '.join(tail[-3:])} (full log: {log})"
    version = _check_datatrove(python)
    if version != DT_VERSION:
        return None, f"datatrove does not import after installing (got {version!r}; see {log})"
    return python, f"datatrove {version} at {venv} (installed now)"


def lid_model_file() -> Path:
    from filters.langid import model_path

    return Path(model_path())


def place_lid(python: Path, hf_home: Path) -> Path:
    """Put winnow's lid.176.ftz where datatrove's LanguageFilter looks for lid.176, marked as downloaded."""
    code = ("import os; from fsspec.core import strip_protocol; from huggingface_hub import cached_assets_path; "
            "from datatrove.utils.lid import FT176LID; "
            "print(os.path.join(cached_assets_path(library_name='datatrove', namespace='lid', subfolder='ft176'), "
            "strip_protocol(FT176LID.MODEL_URL).replace('/', '_')))")
    env = {**os.environ, "HF_HOME": str(hf_home), "HF_HUB_OFFLINE": "1"}
    target = Path(subprocess.run([str(python), "-c", code], env=env, capture_output=True, text=True,
                                 check=True).stdout.strip())
    source = lid_model_file()
    if not target.exists() or target.stat().st_size != source.stat().st_size:
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
    Path(f"{target}.completed").touch()
    return target


# -- runs ------------------------------------------------------------------------------------------------------------

def _trace(path: Path, output: Path, interval: float = 0.5) -> None:
    """In a daemon thread: every ``interval`` s, the RSS of this process and of its children, the bytes held in
    Arrow's memory pool (tables: documents and pages), the repo frames (innermost last) the main thread is in:
    which step holds the memory when it grows, and how many of the run's waves are committed (``waves``: the
    wave a sample belongs to is ``waves`` + 1; ``wave_peaks`` reads them)."""
    import threading
    import time

    import psutil

    main = threading.main_thread().ident
    me = psutil.Process()
    started = time.perf_counter()

    def where() -> list[str]:
        frame = sys._current_frames().get(main)
        names = []
        while frame is not None:
            file = frame.f_code.co_filename
            if file.startswith(str(REPO)) and "/bench/" not in file:
                names.append(f"{Path(file).relative_to(REPO)}:{frame.f_code.co_name}")
            frame = frame.f_back
        # The innermost three, and the step or stage above them (the dataset plumbing is in between).
        outer = [n for n in names[3:] if not n.startswith(("pipelines/dataset.py", "pipelines/runner.py"))]
        return outer[:2][::-1] + names[:3][::-1]  # outermost first, innermost last

    def committed() -> int:
        with contextlib.suppress(OSError):
            names = os.listdir(output / "_progress")  # the runner's commit records (pipelines/runner.py)
            return sum(1 for name in names if name.startswith("wave-") and name.endswith(".json"))
        return 0

    def loop() -> None:
        with path.open("w") as fh:
            while True:
                rss_self = me.memory_info().rss
                rss_children = 0
                for child in me.children(recursive=True):
                    with contextlib.suppress(psutil.Error):
                        rss_children += child.memory_info().rss
                pool = getattr(sys.modules.get("pyarrow"), "total_allocated_bytes", None)  # None while importing
                held = pool() >> 20 if pool is not None else None
                fh.write(json.dumps({"t": round(time.perf_counter() - started, 1), "rss_mb": rss_self >> 20,
                                     "arrow_mb": held, "children_rss_mb": rss_children >> 20,
                                     "waves": committed(), "main": where()}) + "\n")
                fh.flush()
                time.sleep(interval)

    threading.Thread(target=loop, name="e2e-trace", daemon=True).start()


def winnow_child(argv: list[str]) -> int:
    """``e2e.py _winnow SYSTEM OUTPUT INPUT...``: one winnow run in this (child) process."""
    import logging

    mode, output, *inputs = argv
    logging.basicConfig(level=logging.WARNING, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if os.environ.get(TRACE_ENV):
        _trace(Path(os.environ[TRACE_ENV]), Path(output))
    from pipelines.config import load_config
    from pipelines.runner import RunOptions, run

    wave_files = int(os.environ.get(WAVE_ENV) or RunOptions.wave_files)
    run(RunOptions(config=load_config(str(CONFIGS[mode])), inputs=inputs, output=Path(output),
                   local=mode != "ray", progress=False, wave_files=wave_files))
    if mode == "ray":
        import ray

        ray.shutdown()
    return 0


def wave_peaks(trace: Path) -> list[dict[str, int]]:
    """Per wave of a winnow run, from its trace (``_trace``, every 0.5 s: a lower bound of the 0.2 s peak): the
    highest RSS of the run's own process and of the process tree (it and its children, extraction and filter
    workers), MB. A sample belongs to the wave after the ``waves`` committed when it was taken; the samples after
    the last commit (the run's report) belong to none. Where the memory of a run grows with its input, these rise
    from wave to wave at ``--wave-files 8 --scale N`` (N waves, each the size of the 1x input)."""
    if not trace.exists():
        return []
    rows = [row for row in map(json.loads, trace.read_text().splitlines()) if "waves" in row]
    done = max((row["waves"] for row in rows), default=0)
    peaks = []
    for wave in range(done):
        seen = [row for row in rows if row["waves"] == wave]
        if seen:
            peaks.append({"wave": wave + 1, "run_mb": max(row["rss_mb"] for row in seen),
                          "tree_mb": max(row["rss_mb"] + row["children_rss_mb"] for row in seen)})
    return peaks


@dataclass
class RunResult:
    system: str
    round: int
    wall_s: float
    cpu_s: float
    cpu_method: str
    cpu_rusage_s: float
    cpu_sampled_s: float
    peak_rss_mb: float
    processes: int
    stragglers: int
    settle_s: float
    other_cpu_s: float  # CPU the rest of the machine used meanwhile (other people's jobs; this bench's sampling)
    kept: int
    passed_filters: int
    dedup_removed: int
    step_seconds: dict[str, float]
    counts: dict[str, Any]
    log: str
    kept_per_output: dict[str, int] = field(default_factory=dict)
    wave_peaks: list[dict[str, int]] = field(default_factory=list)  # winnow: per wave, from its trace (``wave_peaks``)
    rss_timeline: list[tuple[float, int]] = field(default_factory=list, repr=False)
    kept_urls: set[str] = field(default_factory=set, repr=False)
    passed_urls: set[str] = field(default_factory=set, repr=False)
    dedup_removed_urls: set[str] = field(default_factory=set, repr=False)


def winnow_ids(warcs: list[Path]) -> dict[str, str]:
    """winnow's document id -> URL for every response record (ids are BLAKE2b of the WARC-Record-ID)."""
    from warcio.archiveiterator import ArchiveIterator

    from pipelines.readers import stable_id

    ids = {}
    for path in warcs:
        with path.open("rb") as fh:
            for record in ArchiveIterator(fh):
                if record.rec_type == "response":
                    ids[stable_id(record.rec_headers.get_header("WARC-Record-ID").strip())] = (
                        record.rec_headers.get_header("WARC-Target-URI"))
    return ids


def read_winnow(out: Path, ids: dict[str, str]) -> tuple[set[str], set[str], set[str], dict[str, float],
                                                         dict[str, Any]]:
    """Kept URLs (the rows of ``text/``: winnow writes kept rows only), URLs that reached dedup, URLs dedup
    removed (its decisions in ``_state/minhash_dedup/*-labels-*.parquet``: one row per dropped document, keyed
    "1" + 16 hex digits of fetched_at + id), per-step seconds and counts from stats.json."""
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq

    table = ds.dataset(out / "text", format="parquet").to_table(columns=["url", "dropped_by"])
    kept = {url for url, dropped in zip(table.column("url").to_pylist(), table.column("dropped_by").to_pylist(),
                                        strict=True) if dropped is None}
    removed = set()
    for path in sorted((out / "_state" / "minhash_dedup").glob("*-labels-*.parquet")):
        for key in pq.read_table(path, columns=["node"]).column("node").to_pylist():
            removed.add(ids.get(key[-24:], f"unknown-id:{key[-24:]}"))
    steps, counts = step_figures(out, ("in", "out", "dropped"))
    return kept, kept | removed, removed, steps, counts


def step_figures(out: Path, fields: tuple[str, ...]) -> tuple[dict[str, float], dict[str, Any]]:
    """Per step of a winnow run's stats.json: its seconds, and the ``fields`` of its counts that it has."""
    stats = json.loads((out / "stats.json").read_text())
    steps: dict[str, float] = {}
    counts: dict[str, Any] = {}
    for entry in stats.get("steps", []):
        name = entry.get("step") or entry.get("name")
        if entry.get("seconds") is not None:
            steps[name] = float(entry["seconds"])
        counts[name] = {k: entry[k] for k in fields if k in entry}
    return steps, counts


def output_rows(out: Path) -> dict[str, int]:
    """Rows of each winnow output folder (from the Parquet footers)."""
    import pyarrow.parquet as pq

    return {name: sum(pq.ParquetFile(p).metadata.num_rows for p in sorted((out / name).glob("*.parquet")))
            for name in WINNOW_OUTPUTS}


def read_winnow_default(out: Path) -> tuple[set[str], int, int, dict[str, float], dict[str, Any]]:
    """The ``default`` chain's output: kept text URLs, documents that reached dedup (``exact_dedup``'s ``in``),
    documents dedup removed (exact and MinHash on the text lane), per-step seconds and counts from stats.json.
    No URL-level dedup decisions: its MinHash state is keyed and verified differently, and the planted-duplicate
    and agreement figures of the trafilatura chain do not apply to a chain that keeps other documents."""
    import pyarrow.dataset as ds

    kept = set(ds.dataset(out / "text", format="parquet").to_table(columns=["url"]).column("url").to_pylist())
    steps, counts = step_figures(out, ("in", "kept", "dropped", "produced", "cpu_seconds"))
    passed = counts.get("exact_dedup", {}).get("in", 0)
    removed = sum(sum((counts.get(name, {}).get("dropped") or {}).values())
                  for name in ("exact_dedup", "minhash_dedup"))
    return kept, passed, removed, steps, counts


def _jsonl_urls(folder: Path) -> set[str]:
    urls = set()
    for path in sorted(folder.glob("*.jsonl*")):
        opener = gzip.open if path.suffix == ".gz" else open
        with opener(path, "rt", encoding="utf-8") as fh:
            for line in fh:
                urls.add((json.loads(line).get("metadata") or {}).get("url"))
    return urls


def read_datatrove(out: Path) -> tuple[set[str], set[str], set[str], dict[str, float], dict[str, Any]]:
    import pyarrow.dataset as ds

    kept: set[str] = set()
    if any((out / "final").glob("*.parquet")):
        table = ds.dataset(out / "final", format="parquet").to_table(columns=["metadata"])
        kept = {m.get("url") for m in table.column("metadata").to_pylist()}
    passed, removed = _jsonl_urls(out / "filtered"), _jsonl_urls(out / "dedup_removed")
    steps: dict[str, float] = {}
    counts: dict[str, Any] = {}
    for stage in ("filter", "buckets", "cluster", "dedup"):
        path = out / "logs" / stage / "stats.json"
        if not path.exists():
            continue
        stage_steps: dict[str, float] = {}
        for entry in json.loads(path.read_text()):
            # "🛢 - EXTRAC: ⛏ Trafilatura" -> "filter: Trafilatura"
            label = re.sub(r"[^\x20-\x7e]", "", str(entry.get("name", "?")).rsplit(": ", 1)[-1]).strip()
            name = f"{stage}: {label}"
            total = (entry.get("time_stats") or {}).get("total")  # summed over the stage's tasks
            if total is not None:
                stage_steps[name] = float(total)
            counts[name] = {k: v.get("total", v) if isinstance(v, dict) else v
                            for k, v in (entry.get("stats") or {}).items()}
        signature = f"{stage}: MinHash stage 1"
        if signature in stage_steps:
            # MinhashDedupSignature times its whole loop, which pulls every document through the steps before it.
            upstream = sum(v for k, v in stage_steps.items() if k != signature)
            stage_steps[signature] = max(0.0, stage_steps[signature] - upstream)
        steps.update({k: round(v, 2) for k, v in stage_steps.items()})
    return kept, passed, removed, steps, counts


def run_system(system: str, round_no: int, warcs: list[Path], folder: Path, dt_python: Path | None,
               hf_home: Path, dt_args: list[str], ids: dict[str, str], wave_files: int | None = None) -> RunResult:
    out = folder / f"r{round_no}-{system}"
    log_path = folder / f"r{round_no}-{system}.log"
    env = dict(os.environ)
    if wave_files:
        env[WAVE_ENV] = str(wave_files)
    if system != "datatrove":
        env[TRACE_ENV] = str(folder / f"r{round_no}-{system}.trace.jsonl")
    if system == "datatrove":
        assert dt_python is not None
        args = [str(dt_python), str(DT_SCRIPT), "--input", str(warcs[0].parent), "--output", str(out), *dt_args]
        env.update(HF_HOME=str(hf_home), HF_HUB_OFFLINE="1", TQDM_DISABLE="1")
    else:
        args = [sys.executable, str(Path(__file__).resolve()), "_winnow", system, str(out), *map(str, warcs)]
        from pipelines import heap

        heap.prefer_malloc_for_arrow(env)  # as the winnow command does (pipelines/heap.py)
    timeline: list[tuple[float, int]] = []
    with log_path.open("wb") as log:
        tree = cpu.run_tree(args, env=env, cwd=str(REPO), log=log, rss_timeline=timeline)
    if tree.returncode != 0:
        tail = log_path.read_text(errors="replace")[-3000:]
        raise RuntimeError(f"{LABELS[system]} failed (exit {tree.returncode}); log {log_path}:\n{tail}")
    if system == "default":
        kept, n_passed, n_removed, steps, counts = read_winnow_default(out)
        passed, removed = set(), set()
        per_output = output_rows(out)
        n_kept = per_output["text"]
    else:
        if system == "datatrove":
            kept, passed, removed, steps, counts = read_datatrove(out)
        else:
            kept, passed, removed, steps, counts = read_winnow(out, ids)
        n_kept, n_passed, n_removed = len(kept), len(passed), len(removed)
        per_output = {"text": n_kept}
    # The RSS curve, one point a second or so (the peak itself is exact at the 0.2 s sampling).
    step = max(1, len(timeline) // 600)
    curve = [(t, round(rss / 2**20)) for t, rss in timeline[::step]]
    return RunResult(system, round_no, round(tree.wall_s, 2), round(tree.cpu_s, 2), tree.cpu_method,
                     round(tree.cpu_rusage_s, 2), round(tree.cpu_sampled_s, 2),
                     round(tree.peak_rss_bytes / 2**20), tree.processes, tree.stragglers, round(tree.settle_s, 1),
                     round(max(0.0, tree.machine_busy_s - tree.cpu_s), 1),
                     n_kept, n_passed, n_removed, steps, counts, str(log_path), per_output,
                     wave_peaks(Path(env[TRACE_ENV])) if TRACE_ENV in env else [], curve, kept, passed, removed)


@contextlib.contextmanager
def bench_lock(path: Path = LOCK) -> Iterator[None]:
    """Hold the machine's benchmark lock (flock), waiting for whoever holds it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            print(f"waiting for {path} (another benchmark is running) ...", flush=True)
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def scaled_input(seed: int, scale: int, rebuild: bool = False) -> tuple[list[Path], dict[str, Any]]:
    """The input of ``--scale N``: the WARCs of seeds ``seed`` .. ``seed + N - 1`` (each built and cached by
    bench/e2e_input.py), linked into one folder (datatrove reads a folder), and their manifests summed."""
    if scale == 1:
        return ensure_input(seed, rebuild)
    folder = SCALED / f"seed{seed}x{scale}"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    warcs: list[Path] = []
    manifest: dict[str, Any] = {"seeds": [], "files": [], "pages": 0, "kinds": Counter(), "bytes": 0,
                                "html_bytes": 0, "records": []}
    for s in range(seed, seed + scale):
        paths, part = ensure_input(s, rebuild)
        manifest["seeds"].append(s)
        for path in paths:
            link = folder / f"s{s}-{path.name}"
            link.symlink_to(path)
            warcs.append(link)
            manifest["files"].append(link.name)
        manifest["pages"] += part["pages"]
        manifest["kinds"].update(part["kinds"])
        manifest["bytes"] += part["bytes"]
        manifest["html_bytes"] += part["html_bytes"]
        manifest["records"] += part["records"]
    manifest["kinds"] = dict(manifest["kinds"])
    return warcs, manifest


# -- report ----------------------------------------------------------------------------------------------------------

def agreement(a: set[str], b: set[str]) -> dict[str, Any]:
    either = a | b
    return {"both": len(a & b), "only_first": len(a - b), "only_second": len(b - a),
            "jaccard": round(len(a & b) / len(either), 4) if either else 1.0}


def planted(result: RunResult, manifest: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per kind of planted copy: pairs caught by dedup, missed (both kept), not reached (filtered before)."""
    out: dict[str, dict[str, int]] = {}
    for record in manifest["records"]:
        if record["kind"] not in ("near_dup", "exact_copy"):
            continue
        tally = out.setdefault(record["kind"], Counter())
        copy, original = record["url"], record["of"]
        tally["planted"] += 1
        if copy in result.dedup_removed_urls or original in result.dedup_removed_urls:
            tally["caught"] += 1
            tally["kept_original"] += original in result.kept_urls
            tally["kept_copy"] += copy in result.kept_urls
        elif copy in result.kept_urls and original in result.kept_urls:
            tally["missed"] += 1
        else:
            tally["not_reached"] += 1
    return {k: dict(v) for k, v in out.items()}


def summarize(results: list[RunResult], manifest: dict[str, Any], scale: int = 1) -> dict[str, Any]:
    pages = manifest["pages"]
    summary: dict[str, Any] = {"scale": scale, "pages": pages, "systems": {}}
    last: dict[str, RunResult] = {}
    for system in SYSTEMS:
        runs = [r for r in results if r.system == system]
        if not runs:
            continue
        last[system] = runs[-1]
        wall = statistics.median(r.wall_s for r in runs)
        cpu_s = statistics.median(r.cpu_s for r in runs)
        steps: dict[str, float] = {}
        for name in runs[-1].step_seconds:
            values = [r.step_seconds[name] for r in runs if name in r.step_seconds]
            steps[name] = round(statistics.median(values), 2)
        summary["systems"][system] = {
            "label": LABELS[system], "rounds": len(runs),
            "wall_s_median": round(wall, 2), "wall_s_all": [r.wall_s for r in runs],
            "cpu_s_median": round(cpu_s, 2), "cpu_s_all": [r.cpu_s for r in runs],
            "cpu_method": sorted({r.cpu_method for r in runs}),
            "cpu_rusage_s_all": [r.cpu_rusage_s for r in runs],
            "cpu_sampled_s_all": [r.cpu_sampled_s for r in runs],
            "docs_per_s": round(pages / wall, 1), "docs_per_cpu_s": round(pages / cpu_s, 1),
            "cores_busy": round(cpu_s / wall, 2),
            "peak_rss_mb_median": statistics.median(r.peak_rss_mb for r in runs),
            "peak_rss_mb_max": max(r.peak_rss_mb for r in runs),
            "kept": runs[-1].kept, "kept_all_rounds": sorted({r.kept for r in runs}),
            "kept_per_output": runs[-1].kept_per_output,
            "passed_filters": runs[-1].passed_filters, "dedup_removed": runs[-1].dedup_removed,
            "stragglers": sum(r.stragglers for r in runs),
            "other_cpu_s_all": [r.other_cpu_s for r in runs],
            "step_seconds_median": steps, "counts_last_round": runs[-1].counts,
            # URL-level figures: only the trafilatura chain on one seed's input (URLs repeat across seeds).
            "planted_duplicates": planted(runs[-1], manifest) if system != "default" and scale == 1 else {},
        }
    systems = summary["systems"]
    if "datatrove" in systems:
        for system in ("local", "ray", "default"):
            if system in systems:
                summary[f"ratio_docs_per_s_{system}_vs_datatrove"] = round(
                    systems[system]["docs_per_s"] / systems["datatrove"]["docs_per_s"], 2)
                summary[f"ratio_docs_per_cpu_s_{system}_vs_datatrove"] = round(
                    systems[system]["docs_per_cpu_s"] / systems["datatrove"]["docs_per_cpu_s"], 2)
    pairs = [("local", "datatrove"), ("ray", "datatrove"), ("local", "ray")] if scale == 1 else []
    summary["agreement"] = {
        f"{a}_vs_{b}": {"kept": agreement(last[a].kept_urls, last[b].kept_urls),
                        "passed_filters": agreement(last[a].passed_urls, last[b].passed_urls)}
        for a, b in pairs if a in last and b in last}
    return summary


def print_report(summary: dict[str, Any], manifest: dict[str, Any]) -> None:
    pages = manifest["pages"]
    print(f"\ninput (scale {summary['scale']}): {pages} pages {manifest['kinds']} in {len(manifest['files'])} WARC "
          f"files ({manifest['bytes'] / 2**20:.0f} MiB gzip, {manifest['html_bytes'] / 2**20:.0f} MiB HTML)")
    header = (f"{'system':<20}{'rounds':>7}{'wall s':>9}{'CPU s':>9}{'cores':>7}{'docs/s':>9}{'docs/CPU-s':>12}"
              f"{'peak RSS MB':>13}{'passed':>8}{'dedup-':>8}{'kept':>7}{'others CPU s':>14}")
    print(header)
    print("-" * len(header))
    for s in summary["systems"].values():
        print(f"{s['label']:<20}{s['rounds']:>7}{s['wall_s_median']:>9.1f}{s['cpu_s_median']:>9.1f}"
              f"{s['cores_busy']:>7.2f}{s['docs_per_s']:>9.1f}{s['docs_per_cpu_s']:>12.1f}"
              f"{s['peak_rss_mb_median']:>13.0f}{s['passed_filters']:>8}{s['dedup_removed']:>8}{s['kept']:>7}"
              f"{statistics.median(s['other_cpu_s_all']):>14.0f}")
    print("(medians over rounds; passed = reached dedup; dedup- = removed by dedup; kept = written; others CPU = "
          "what the rest of the machine used meanwhile)")
    for s in summary["systems"].values():
        print(f"  {s['label']}: wall {s['wall_s_all']}, CPU {s['cpu_s_all']}, others' CPU {s['other_cpu_s_all']}")
    for s in summary["systems"].values():
        print(f"  {s['label']}: peak RSS MB {s['peak_rss_mb_median']:.0f} median, {s['peak_rss_mb_max']:.0f} max; "
              f"kept per output {s['kept_per_output']}")
    for system in ("local", "ray", "default"):
        key = f"ratio_docs_per_s_{system}_vs_datatrove"
        if key in summary:
            print(f"{LABELS[system]} / datatrove: docs/s {summary[key]:.2f}, docs/CPU-s "
                  f"{summary[f'ratio_docs_per_cpu_s_{system}_vs_datatrove']:.2f}")
    for pair, agree in summary["agreement"].items():
        k, p = agree["kept"], agree["passed_filters"]
        a, b = pair.split("_vs_")
        print(f"agreement {LABELS[a]} vs {LABELS[b]}: kept {k['jaccard']:.3f} (both {k['both']}, only first "
              f"{k['only_first']}, only second {k['only_second']}); before dedup {p['jaccard']:.3f}")
    for s in summary["systems"].values():
        if not s["planted_duplicates"]:
            continue
        dup = "; ".join(f"{kind}: " + ", ".join(f"{k} {v}" for k, v in tally.items())
                        for kind, tally in s["planted_duplicates"].items())
        print(f"planted duplicates, {s['label']}: {dup}")
    for s in summary["systems"].values():
        if s["step_seconds_median"]:
            steps = ", ".join(f"{k} {v:.1f}" for k, v in s["step_seconds_median"].items())
            print(f"per-step seconds, {s['label']}: {steps}")


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "_winnow":
        return winnow_child(sys.argv[2:])
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--systems", nargs="+", default=list(SYSTEMS), choices=SYSTEMS)
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--scale", type=int, default=1,
                        help="input N times larger: the WARCs of seeds SEED .. SEED+N-1 (for the memory check)")
    parser.add_argument("--wave-files", type=int, help="winnow's waves of N input files (default: the runner's, "
                        "16); with --scale, N = 8 gives waves the size of the 1x input's one wave")
    parser.add_argument("--json", type=Path, help="write the results here")
    parser.add_argument("--rebuild-input", action="store_true", help="rebuild the cached input WARCs")
    parser.add_argument("--keep-outputs", action="store_true", help="keep every run's output folder")
    parser.add_argument("--dt-timeout", type=float, default=60.0,
                        help="datatrove's per-page extraction timeout, s (its default is 1)")
    parser.add_argument("--dt-stock-extraction", action="store_true",
                        help="datatrove's own Trafilatura defaults (plain text, deduplicate) instead of winnow's")
    parser.add_argument("--dt-venv", type=Path, default=DT_VENV)
    args = parser.parse_args()

    warcs, manifest = scaled_input(args.seed, args.scale, args.rebuild_input)
    systems = list(args.systems)
    dt_python, dt_note, hf_home = None, "not requested", CACHE / "hf"
    if "datatrove" in systems:
        dt_python, dt_note = ensure_datatrove(args.dt_venv)
        if dt_python is None:
            print(f"DATATROVE SIDE SKIPPED: {dt_note}", flush=True)
            systems.remove("datatrove")
        else:
            print(f"lid.176 for datatrove: {place_lid(dt_python, hf_home)}", flush=True)
    dt_args = ["--tasks", "2", "--workers", "2", "--timeout", str(args.dt_timeout)]
    if args.dt_stock_extraction:
        dt_args.append("--stock-extraction")
    ids = winnow_ids(warcs)
    subreaper = cpu.become_subreaper()
    folder = RUNS / datetime.now().strftime("%Y%m%d-%H%M%S")
    folder.mkdir(parents=True, exist_ok=True)
    print(f"runs in {folder}; subreaper {'on' if subreaper else 'OFF (Ray workers CPU may be missed)'}", flush=True)
    results: list[RunResult] = []
    with bench_lock():
        for round_no in range(1, args.rounds + 1):
            shift = (round_no - 1) % len(systems)
            for system in systems[shift:] + systems[:shift]:
                result = run_system(system, round_no, warcs, folder, dt_python, hf_home, dt_args, ids,
                                    args.wave_files)
                results.append(result)
                print(f"round {round_no} {LABELS[system]:<22} wall {result.wall_s:6.1f} s  CPU {result.cpu_s:6.1f} s "
                      f"({result.cpu_method}; rusage {result.cpu_rusage_s:.1f}, sampled {result.cpu_sampled_s:.1f})  "
                      f"peak RSS {result.peak_rss_mb:.0f} MB  "
                      f"kept {result.kept_per_output}  procs {result.processes}  "
                      f"others' CPU {result.other_cpu_s:.0f} s",
                      flush=True)
                if result.wave_peaks:
                    print("  per wave, peak RSS MB (trace, 0.5 s): run's process "
                          + " / ".join(str(w["run_mb"]) for w in result.wave_peaks) + "; process tree "
                          + " / ".join(str(w["tree_mb"]) for w in result.wave_peaks), flush=True)
                if not args.keep_outputs:
                    shutil.rmtree(folder / f"r{round_no}-{system}", ignore_errors=True)
    summary = summarize(results, manifest, args.scale)
    print_report(summary, manifest)
    if args.json:
        report = {
            "machine": {"cpus": os.cpu_count(), "python": sys.version.split()[0]},
            "datatrove": dt_note, "datatrove_args": dt_args,
            "configs": {s: str(CONFIGS[s].relative_to(REPO)) for s in systems if s in CONFIGS},
            "scale": args.scale, "wave_files": args.wave_files,
            "input": {k: v for k, v in manifest.items() if k != "records"},
            "summary": summary,
            "runs": [{k: v for k, v in asdict(r).items() if not k.endswith("_urls")} for r in results],
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report, indent=1, default=sorted))
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
