"""``winnow crawl --workers N``: one crawl run by N crawler processes, as Ray actors, hosts sharded by hash.

Each seed host belongs to exactly one worker: ``crc32(lower-cased host) % N`` (a stable hash, unlike Python's
``hash()``, which is salted per process and would move hosts between sessions). A worker crawls only its own seeds,
and the crawl never leaves its seeds' hosts (``spider.allowed_hosts``), so a host's politeness (its Scrapy download
slot, Retry-After pauses, the host error budget) and its robots.txt cache live in one process, as in a plain crawl.
The hash is on the host name without the port, like ``allowed_hosts`` and Scrapy's download slots.

Each actor runs one ordinary crawl of its share (``crawler.run.crawl`` with the options ``winnow crawl`` would
give it, read from ``worker-K/.crawl/options.json``) in a subprocess: a Twisted reactor cannot be started
twice in a process, and a subprocess keeps a crawl's memory and crashes away from the Ray worker. The actor waits for
it and returns its exit status, the tail of its stderr and its ``crawl-stats.json`` (returned rather than read by
the driver, so that on a cluster the stats need no shared file system; the WARC files stay where the worker ran).

Layout of ``DIR``::

    DIR/.crawl/workers.json       N and the hash, so --resume can refuse a different N (hosts would move)
    DIR/worker-K/                 worker K's own crawl folder: WARC files, .crawl/journal.jsonl, crawl-stats.json
    DIR/worker-K/.crawl/seeds.txt its seeds;  DIR/worker-K/.crawl/crawl.log its stderr (Scrapy's log), appended
    DIR/crawl-stats.json          the workers' stats merged (merge_worker_stats)

``winnow run CONFIG --input DIR`` reads ``DIR`` recursively (pipelines/readers walks sub-folders and skips dot
folders), so the workers' WARC files are found without naming them.

``--max-pages`` is the crawl's total: it is split between the workers in proportion to their seed hosts (a worker
whose hosts run out leaves the rest of its share unused). Every other option is passed to each worker unchanged.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import zlib
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from crawler.frontier.seeds import split_seeds
from crawler.report import STATS_FILE
from crawler.run import CrawlConfigError, CrawlOptions, build_settings, crawl
from crawler.spider import JOURNAL

WORKERS_FILE = Path(".crawl") / "workers.json"
OPTIONS_FILE = "options.json"  # a worker's CrawlOptions, in its .crawl/ folder (its crawl subprocess reads them)
HASH_NAME = "crc32(lower-cased host) % N"
STDERR_TAIL = 4000  # characters of a failed worker's stderr shown to the user
# Keys of a worker's crawl-stats.json that are not counters: summing them would mean nothing.
FIRST_KEYS = ("start_time",)  # the earliest
LAST_KEYS = ("finish_time",)  # the latest
LARGEST_KEYS = ("elapsed_time_seconds", "sessions", "memusage/startup")  # side by side: the longest one
DROPPED_KEYS = ("last_session", "finish_reason")  # kept per worker under "workers"


def worker_dir(output: Path, index: int) -> Path:
    return output / f"worker-{index}"


def host_of(url: str) -> str:
    """The host a URL is sharded by: the lower-cased host name, as the gate's ``allowed_hosts`` has it."""
    return (urlsplit(url).hostname or "").lower()


def worker_of(host: str, workers: int) -> int:
    """The worker that crawls ``host``: stable across processes, sessions and machines."""
    return zlib.crc32(host.lower().encode("utf-8")) % workers


def assign_seeds(seeds: list[str], workers: int) -> dict[int, list[str]]:
    """Seeds per worker (only workers with a usable seed). Unusable seeds (no host, bad port...) go to the first
    worker that has work, whose crawl counts them under ``winnow/seeds_skipped/<reason>`` as a plain crawl would."""
    good, bad = split_seeds(seeds)
    shares: dict[int, list[str]] = defaultdict(list)
    for seed in good:
        shares[worker_of(host_of(seed), workers)].append(seed)
    out = {k: shares[k] for k in sorted(shares)}
    if out and bad:
        out[min(out)].extend(bad)
    return out


def split_max_pages(max_pages: int, hosts: dict[int, int]) -> dict[int, int]:
    """``--max-pages`` shared out in proportion to each worker's seed hosts (largest remainder, at least 1 each);
    0 (no cap) stays 0 for everyone."""
    if max_pages <= 0:
        return dict.fromkeys(hosts, 0)
    total = sum(hosts.values())
    exact = {k: max_pages * n / total for k, n in hosts.items()}
    out = {k: int(v) for k, v in exact.items()}
    for k in sorted(exact, key=lambda k: exact[k] - out[k], reverse=True)[: max_pages - sum(out.values())]:
        out[k] += 1
    return {k: max(1, v) for k, v in out.items()}


def worker_options(opts: CrawlOptions, output: Path, max_pages: int) -> dict[str, Any]:
    """The crawl options of one worker, as JSON: the crawl's own, with its folder and page share, no progress bar (N
    bars on one terminal would garble each other) and no seeds yet (the actor adds its share)."""
    fields = {**opts.__dict__, "seeds": [], "output": str(output), "max_pages": max_pages, "progress": False,
              "upload_to": None}
    return json.loads(json.dumps(fields))  # JSON-able now, not in the actor


def check_folder(output: Path, workers: int, resume: bool) -> None:
    """Refuse what would mix crawls: a plain crawl's folder, a different N on --resume, an earlier crawl without it."""
    if (output / JOURNAL).exists():
        raise CrawlConfigError(f"{output} holds a crawl made without --workers; resume it without --workers, "
                               "or use a new --output")
    record = output / WORKERS_FILE
    if record.exists():
        try:
            before = int(json.loads(record.read_text())["workers"])
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise CrawlConfigError(f"{record} is damaged ({exc})") from None
        if not resume:
            raise CrawlConfigError(f"{output} holds an earlier crawl; pass --resume to continue it, "
                                   "or use a new --output")
        if before != workers:
            raise CrawlConfigError(f"{output} was crawled with --workers {before}: resume it with --workers "
                                   f"{before} (hosts are assigned to workers by a hash modulo N; another N would "
                                   "move hosts to workers that never crawled them)")
    elif any(output.glob("worker-*/" + str(JOURNAL))):
        raise CrawlConfigError(f"{output} holds worker folders but no {WORKERS_FILE}; use a new --output")


def is_distributed(output: Path) -> bool:
    """Whether ``output`` holds a crawl made with --workers (a plain --resume of it must be refused)."""
    return (output / WORKERS_FILE).exists()


def _kill_with_parent() -> None:
    """In the crawl subprocess: SIGTERM when the actor dies (Ray kills actors at shutdown or when the driver is
    interrupted); the crawl then stops as after Ctrl-C, and --resume continues it. Linux only, else a no-op.
    Set by the child itself (``main``), not by ``preexec_fn``, which is unsafe in a threaded Ray worker."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class CrawlWorker:
    """A Ray actor that runs one worker's ``winnow crawl`` in a subprocess and watches it. Two threads
    (``max_concurrency=2``): ``stop`` must get through while ``run`` waits on the crawl."""

    def __init__(self) -> None:
        self._proc: subprocess.Popen | None = None
        self._stopped = False
        self._lock = threading.Lock()  # a stop() between run()'s check and its Popen would be lost

    def stop(self) -> None:
        """Stop the crawl as Ctrl-C does: the journal and stats are written, and --resume continues it."""
        with self._lock:
            self._stopped = True
            if self._proc is not None and self._proc.poll() is None:
                self._proc.send_signal(signal.SIGINT)

    def run(self, index: int, options: dict[str, Any], output: str, seeds: list[str]) -> dict[str, Any]:
        folder = Path(output)
        state = folder / JOURNAL.parent
        state.mkdir(parents=True, exist_ok=True)
        options_file = state / OPTIONS_FILE  # a file, not argv: a seed list can exceed the kernel's argument limit
        options_file.write_text(json.dumps({**options, "seeds": seeds}))
        log = state / "crawl.log"
        stats_file = folder / STATS_FILE
        # A crawl whose spider cannot start (a damaged journal) logs the error and still exits 0: only stats that
        # this run wrote count, never an earlier session's file.
        stamp = stats_file.stat().st_mtime_ns if stats_file.exists() else None
        with log.open("ab") as err:
            start = err.tell()
            with self._lock:
                if self._stopped:
                    return {"worker": index, "rc": 130, "stderr_tail": "stopped before it started", "stats": None}
                proc = self._proc = subprocess.Popen(
                    [sys.executable, "-m", "crawler.distributed", str(os.getpid()), str(options_file)],
                    stdin=subprocess.DEVNULL, stdout=err, stderr=err)
            proc.wait()
        with log.open("rb") as fh:
            fh.seek(max(start, os.path.getsize(log) - STDERR_TAIL))
            tail = fh.read().decode("utf-8", "replace")
        stats = None
        if proc.returncode == 0 and stats_file.exists() and stats_file.stat().st_mtime_ns != stamp:
            stats = json.loads(stats_file.read_text())
        return {"worker": index, "rc": proc.returncode, "stderr_tail": tail, "stats": stats,
                "node": os.uname().nodename}


@dataclass
class WorkerResult:
    worker: int
    rc: int
    stderr_tail: str
    stats: dict[str, Any] | None
    node: str = ""

    @property
    def failed(self) -> bool:
        """Exited non-zero, or wrote no stats of this run (a crawl that could not start may still exit 0)."""
        return self.rc != 0 or self.stats is None


def merge_worker_stats(results: list[WorkerResult], workers: int) -> dict[str, Any]:
    """DIR/crawl-stats.json: the workers' counters summed (``...max``: the largest), pages and hosts summed (hosts
    are disjoint by construction), times as the span of the workers', each worker's own stats under ``workers``,
    their finish reasons under ``finish_reasons``; ``finish_reason`` is the common one, or ``mixed``."""
    out: dict[str, Any] = {}
    per_worker: dict[str, Any] = {}
    reasons: dict[str, str] = {}
    for res in sorted(results, key=lambda r: r.worker):
        name = f"worker-{res.worker}"
        if res.stats is None:
            per_worker[name] = {"rc": res.rc, "error": res.stderr_tail[-1000:], "node": res.node}
            reasons[name] = f"failed (exit status {res.rc})"
            continue
        per_worker[name] = res.stats
        reasons[name] = str(res.stats.get("finish_reason"))
        for key, value in res.stats.items():
            if key in DROPPED_KEYS:
                continue
            before = out.get(key)
            if before is None:
                out[key] = value
            elif key in FIRST_KEYS:
                out[key] = min(before, value)
            elif key in LAST_KEYS:
                out[key] = max(before, value)
            elif _number(value) and _number(before):
                out[key] = max(before, value) if key in LARGEST_KEYS or key.endswith("max") else before + value
            # anything else (dicts of distributions, strings): the first worker's; each worker's is under "workers"
    distinct = set(reasons.values())
    out["finish_reason"] = distinct.pop() if len(distinct) == 1 else "mixed"
    out["finish_reasons"] = reasons
    out["winnow/workers"] = workers
    out["winnow/workers_started"] = len(results)
    out["winnow/workers_failed"] = sum(1 for r in results if r.failed)
    out["workers"] = per_worker
    return out


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _init_ray(address: str | None) -> bool:
    """Connect to ``address`` or start an embedded Ray (no dashboard: about 1 GB less); True if this call did."""
    import ray

    if ray.is_initialized():
        return False
    if address:
        ray.init(address=address, log_to_driver=True)
        return True
    ray.init(include_dashboard=False, log_to_driver=True,
             runtime_env={"env_vars": {"PYTHONWARNINGS": "ignore::DeprecationWarning"}})
    # Ray's agents outlive a driver killed with -9; the watchdog stops them (and the crawl subprocesses) at once.
    from pipelines import ray_watchdog

    ray_watchdog.start()
    return True


def crawl_distributed(opts: CrawlOptions, workers: int, address: str | None = None,
                      echo: Callable[[str], None] | None = None) -> tuple[dict[str, Any], list[WorkerResult]]:
    """Run the crawl on ``workers`` actors; write and return DIR/crawl-stats.json's content and each worker's
    result. A worker that fails leaves the others' output (and its own partial one) in place."""
    if workers < 1:
        raise CrawlConfigError("--workers must be at least 1")
    output = opts.output.resolve()
    # The options checked once, here, before Ray starts (contact URL, networks, render mode, -s values): else each
    # worker would fail with the same message. A placeholder folder: the earlier-crawl check is check_folder's.
    build_settings(CrawlOptions(**{**opts.__dict__, "output": output / ".crawl" / "check", "resume": True}))
    check_folder(output, workers, opts.resume)
    shares = assign_seeds(opts.seeds, workers)
    hosts = {k: len({host_of(s) for s in seeds if host_of(s)}) for k, seeds in shares.items()}
    pages = split_max_pages(opts.max_pages, hosts)
    record = output / WORKERS_FILE
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps({"workers": workers, "hash": HASH_NAME}) + "\n")

    import ray

    started = _init_ray(address)
    try:
        # A crawl is mostly waiting on per-host delays: the N actors share the CPUs rather than queue for whole ones.
        cpus = ray.cluster_resources().get("CPU", 1.0)
        actor = ray.remote(num_cpus=min(1.0, round(cpus / len(shares), 2) or 0.01),
                           scheduling_strategy="SPREAD", max_concurrency=2)(CrawlWorker)
        pending: dict[Any, int] = {}
        handles = []  # held until the end: an actor whose handle is dropped is killed
        for k, seeds in shares.items():
            folder = worker_dir(output, k)
            options = worker_options(opts, folder, pages[k])
            handles.append(actor.remote())
            pending[handles[-1].run.remote(k, options, str(folder), seeds)] = k
            if echo:
                echo(f"worker-{k}: {hosts[k]} host(s), {len(seeds)} seed(s), max pages {pages[k] or 'no cap'}")
        results: list[WorkerResult] = []
        refs = list(pending)
        interrupted = False
        try:
            _collect(refs, pending, results, echo)
        except KeyboardInterrupt:
            # Ctrl-C (or SIGINT to this process alone): each worker's crawl is stopped as a plain crawl is by
            # Ctrl-C, so its journal, WARC files and stats are complete, and --resume continues where it stopped.
            interrupted = True
            if echo:
                echo("interrupted: stopping the workers (continue with --resume)")
            for handle in handles:
                handle.stop.remote()
            _collect([r for r in pending if all(res.worker != pending[r] for res in results)], pending, results,
                     echo)
    finally:
        if started:
            ray.shutdown()
    stats = merge_worker_stats(results, workers)
    if interrupted:
        stats["winnow/interrupted"] = True
    tmp = output / f".{STATS_FILE}.tmp"
    tmp.write_text(json.dumps(stats, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, output / STATS_FILE)
    return stats, sorted(results, key=lambda r: r.worker)


def _collect(refs: list[Any], pending: dict[Any, int], results: list[WorkerResult],
             echo: Callable[[str], None] | None) -> None:
    """Wait for the workers' ``run`` calls, as each ends, into ``results``."""
    import ray

    while refs:
        # A timeout, so that Python sees a Ctrl-C: a KeyboardInterrupt waits until the blocking call returns.
        done, refs = ray.wait(refs, num_returns=1, timeout=0.5)
        for ref in done:
            try:
                res = WorkerResult(**ray.get(ref))
            except ray.exceptions.RayError as exc:  # the actor itself died (node lost, OOM kill)
                res = WorkerResult(worker=pending[ref], rc=-1, stderr_tail=str(exc)[-STDERR_TAIL:], stats=None)
            results.append(res)
            if echo:
                pages_done = (res.stats or {}).get("winnow/pages", 0)
                echo(f"worker-{res.worker}: exit status {res.rc}, {pages_done} pages, "
                     f"finish: {(res.stats or {}).get('finish_reason')}")


def main(argv: list[str]) -> int:
    """The crawl subprocess of an actor: ``python -m crawler.distributed ACTOR_PID OPTIONS_JSON`` (the worker's
    ``CrawlOptions``, written by the actor): the crawl itself, as ``winnow crawl`` runs it, without the command line."""
    # A Ray worker's threads block SIGINT and SIGTERM, and a blocked signal stays blocked across exec: without
    # this the actor's stop() (SIGINT: Scrapy's graceful stop) would never reach the crawl.
    signal.signal(signal.SIGINT, signal.default_int_handler)  # Scrapy replaces only Python's default handler
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    _kill_with_parent()
    if os.getppid() != int(argv[0]):  # the actor died before the signal was armed
        return 1
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    fields = json.loads(Path(argv[1]).read_text())
    opts = CrawlOptions(**{**fields, "output": Path(fields["output"])})
    try:
        stats = crawl(opts)
    except CrawlConfigError as exc:
        print(f"winnow crawl: {exc}", file=sys.stderr)
        return 2
    print(f"{opts.output}: {stats.get('winnow/pages', 0)} pages; finish: {stats.get('finish_reason')}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
