"""The ``winnow`` command line."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from pipelines import heap

# Arrow reads its allocator from the environment when first used: set before anything below imports pyarrow.
heap.prefer_malloc_for_arrow()

from pipelines.app.cli_args import add_identity, add_input_selection, settings, staging_for  # noqa: E402
from pipelines.config import BUNDLED, ConfigError, load_config  # noqa: E402
from pipelines.runner_options import run_options_problem  # noqa: E402

log = logging.getLogger("winnow")


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="winnow",
        description="Turn web crawls (WARC) and document corpora (JSONL/Parquet) into curated Parquet shards.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    run = sub.add_parser(
        "run",
        help="run a pipeline over input files",
        description="Run a pipeline (YAML config) over WARC/WARC.gz, JSONL or Parquet inputs into an output folder. "
        "Re-running the same command skips inputs that already finished.",
    )
    run.add_argument("config", metavar="CONFIG", help=f"pipeline YAML, or a bundled one: {', '.join(BUNDLED)}")
    run.add_argument("-i", "--input", nargs="+", required=True, metavar="PATH",
                     help="input files, folders or globs (.warc, .warc.gz, .jsonl[.gz|.zst], .parquet), local or "
                     "s3:// (gs://, az://), http(s):// files, or *.paths[.gz] listings (Common Crawl's warc.paths.gz)")
    run.add_argument("-o", "--output", required=True, metavar="DIR",
                     help="output folder (created if missing), local or s3://bucket/prefix (gs://, az://)")
    add_input_selection(run)
    where = run.add_mutually_exclusive_group()
    where.add_argument("--local", action="store_true",
                       help="run in this process instead of on Ray (tests, debugging a sample)")
    where.add_argument("--address", metavar="ADDR",
                       help="Ray cluster address (default: start an embedded local Ray)")
    run.add_argument("--annotate", action="store_true",
                     help="keep dropped rows in the shards with dropped_by set, for tuning thresholds")
    run.add_argument("--wave-files", type=int, default=16, metavar="N",
                     help="input files processed (and committed) together; the unit of resumption (default 16)")
    run.add_argument("--filter-workers", type=int, default=None, metavar="N",
                     help="--local: processes sharing the filter steps after a Stage (default: one per core; 1: all "
                     "in this process)")
    run.add_argument("--dedup-against", nargs="+", default=[], metavar="PREVIOUS_OUT",
                     help="earlier output folder(s): dedup stages also drop duplicates of rows kept there, "
                     "using their persisted indexes (nothing there is re-read or re-hashed)")
    run.add_argument("--max-error-rate", type=float, default=0.5, metavar="R",
                     help="stop, without committing the wave, when a step fails (errors, not drops) on more than this "
                     "share of the records that reached it, from 10 errors on (default 0.5; 1 never stops)")
    run.add_argument("--no-progress", action="store_true", help="no progress bars")
    run.add_argument("--dry-run", action="store_true",
                     help="print the resolved plan (steps with their arguments, stages, outputs and their columns, "
                     "runner, inputs) and exit, without starting Ray or writing to the output folder")

    crawl = sub.add_parser(
        "crawl",
        help="crawl seed URLs into WARC files",
        description="Polite, robots.txt- and opt-out-aware crawl of the seeds' hosts into WARC files "
        "(request, response and a metadata record with the training-use verdict per page). "
        "Then: winnow run CONFIG --input DIR.",
    )
    crawl.add_argument("seeds", nargs="*", metavar="SEED", help="seed URLs")
    crawl.add_argument("-f", "--seed-file", metavar="FILE", help="a file of seed URLs, one per line (# comments)")
    crawl.add_argument("-o", "--output", required=True, metavar="DIR",
                       help="folder for WARC files and crawl state; or s3://bucket/prefix (gs://, az://): finished "
                       "WARC files and crawl-stats.json are uploaded there, the state stays in --staging")
    crawl.add_argument("--staging", metavar="DIR",
                       help="with an object-store --output: the local folder the crawl writes in before uploading, "
                       "and keeps its state in for --resume (default ~/.cache/winnow/crawl-staging/<hash of the URL>)")
    crawl.add_argument("--max-pages", type=int, default=1000, help="pages to fetch at most (default 1000)")
    crawl.add_argument("--max-depth", type=int, default=3, help="link depth from the seeds (default 3)")
    crawl.add_argument("--max-pages-per-host", type=int, default=0, help="pages per host at most (default: no cap)")
    crawl.add_argument("--sitemaps", action="store_true", help="also queue pages from sitemaps listed in robots.txt")
    add_identity(crawl, "public crawls")
    crawl.add_argument("--languages", default="", metavar="en,fr",
                       help="target languages: hosts estimated to be off-target are deprioritised")
    crawl.add_argument("--render", choices=("auto", "always", "never"), default="auto",
                       help="headless Chromium: auto renders pages (and then hosts) that need JavaScript (default)")
    crawl.add_argument("--resume", action="store_true", help="continue the crawl in --output after a stop or a kill")
    crawl.add_argument("-s", "--set", action="append", default=[], metavar="KEY=VALUE",
                       help="any Scrapy or winnow setting, e.g. -s DOWNLOAD_DELAY=0.5 (repeatable)")
    crawl.add_argument("--no-progress", action="store_true", help="no progress bar")
    crawl.add_argument("--workers", type=int, default=None, metavar="N",
                       help="N crawler processes as Ray actors, each host crawled by one of them (hosts assigned by "
                       "hash); each writes DIR/worker-K/, DIR/crawl-stats.json merges them; --resume needs the same N")
    crawl.add_argument("--address", metavar="ADDR",
                       help="with --workers: the Ray cluster to run on (default: an embedded local Ray)")

    insp = sub.add_parser("inspect", help="summarise output shards or a crawl",
                          description="Rows, languages, page types, top hosts, quality-score quantiles, "
                          "training_allowed share and sample rows of a shard, a shard folder (out/text) or a whole "
                          "output folder (with the run's funnel from stats.json, and a warning when the run is "
                          "unfinished); or a crawl folder's crawl-stats.json.")
    insp.add_argument("path", metavar="PATH")
    insp.add_argument("-n", "--sample", "--samples", dest="samples", type=int, default=3, metavar="N",
                      help="sample rows to show (default 3)")
    insp.add_argument("--where", metavar="EXPR",
                      help="only rows where this pandas expression holds, e.g. \"lang == 'de' and "
                      "quality_score > 0.9\" (DataFrame.query syntax; narrows the figures and the samples)")
    insp.add_argument("--columns", metavar="A,B", help="columns of the sample rows (default: all)")
    _add_quality_parser(sub)
    report = sub.add_parser("report", help="write an HTML report of a run's output folder",
                            description="Write OUT_DIR/report.html: the funnel per step and reason, languages, "
                            "quality and length histograms, hosts, page types, image-text and interleaved statistics, "
                            "opt-outs, PII, the crawl and the time per step. Self-contained: no network, no "
                            "JavaScript.")
    report.add_argument("out_dir", metavar="OUT_DIR", help="an output folder of `winnow run`")
    report.add_argument("-o", "--output", metavar="FILE", help="where to write the page (default OUT_DIR/report.html)")
    report.add_argument("--max-rows", type=int, default=200_000, metavar="N",
                        help="rows read per output for the distributions, spread over its shards (default 200000)")
    demo = sub.add_parser("demo", help="serve the bundled site on 127.0.0.1, crawl it, run the default pipeline",
                          description="The whole path, offline: the bundled demo site served on 127.0.0.1, crawled "
                          "(winnow crawl), run through the default pipeline (embedded Ray, or --local), with the "
                          "three outputs and report.html in OUTPUT/corpus.")
    demo.add_argument("-o", "--output", default="out/demo", metavar="DIR",
                      help="where the crawl and the outputs go (default out/demo; a previous demo's is cleared)")
    demo.add_argument("--local", action="store_true", help="run the pipeline in this process instead of on Ray")
    from pipelines.app.images_cli import add_images_parsers
    from pipelines.app.jobs_cli import add_jobs_parsers

    add_jobs_parsers(sub)
    add_images_parsers(sub)
    return parser


def _add_quality_parser(sub: argparse._SubParsersAction) -> None:
    quality = sub.add_parser("quality", help="train or label data for the fastText quality classifier",
                             description="Model-based quality filtering (filters.quality_fasttext): label a sample "
                             "with an LLM endpoint (annotate), train a fastText classifier (train).")
    qsub = quality.add_subparsers(dest="quality_command", required=True, metavar="ACTION")
    train = qsub.add_parser("train", help="train a quality classifier (fastText, or --signals)",
                            description="Train a fastText classifier (DCLM labels: __label__hq / __label__cc) "
                            "on positive and negative texts from JSONL or Parquet files (a 'text' field); with "
                            "--signals, a calibrated signals model for filters.quality_model.QualityModel "
                            "(its threshold keeps --target-retention of the positives, scored out-of-fold).")
    train.add_argument("--positive", nargs="+", required=True, metavar="PATH", help="files/folders of good texts")
    train.add_argument("--negative", nargs="+", required=True, metavar="PATH", help="files/folders of poor texts")
    train.add_argument("-o", "--output", required=True, metavar="MODEL", help="where to write the model (.bin)")
    train.add_argument("--epoch", type=int, default=5)
    train.add_argument("--lr", type=float, default=0.1)
    train.add_argument("--dim", type=int, default=100)
    train.add_argument("--word-ngrams", type=int, default=2, help="2 or more (default 2, DCLM's bigram model)")
    train.add_argument("--bucket", type=int, default=2_000_000, help="hash buckets for n-grams (default 2000000)")
    train.add_argument("--quantize", action="store_true", help="write a compressed (product-quantised) model")
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--signals", action="store_true",
                       help="train the signals model (filters/quality_model.py) instead of fastText (.pkl)")
    train.add_argument("--target-retention", type=float, default=0.98,
                       help="--signals: share of the positives (scored out-of-fold) the stored threshold keeps "
                            "(default 0.98)")
    ann = qsub.add_parser("annotate", help="score a sample with an LLM endpoint (FineWeb-Edu recipe)",
                          description="Score a sample of documents 0-5 for educational value with an OpenAI-"
                          "compatible endpoint; writes annotations.jsonl, positive.jsonl and negative.jsonl.")
    ann.add_argument("input", nargs="+", metavar="PATH", help="JSONL/Parquet documents (winnow text shards too)")
    ann.add_argument("-o", "--output", required=True, metavar="DIR")
    ann.add_argument("--base-url", required=True, help="e.g. http://127.0.0.1:8080/v1")
    ann.add_argument("--model", required=True, help="model name the endpoint serves")
    ann.add_argument("--api-key", default=None, help="bearer token, if the endpoint needs one")
    ann.add_argument("--sample", type=int, default=1000, help="documents to score (default 1000)")
    ann.add_argument("--threshold", type=int, default=3, help="score >= this is positive (default 3)")
    ann.add_argument("--max-chars", type=int, default=3000, help="characters of each document sent (default 3000)")
    ann.add_argument("--seed", type=int, default=0)
    ann.add_argument("--timeout", type=float, default=60.0, help="seconds per request (default 60)")


def _cmd_run(args: argparse.Namespace) -> int:
    from pipelines.readers import expand_inputs
    from pipelines.runner import ErrorBudgetExceeded, OutputMismatchError, RunOptions, run
    from pipelines.storage_errors import StorageError, scrub

    try:
        config = load_config(args.config, annotate=args.annotate)
        inputs = expand_inputs(args.input, base=args.input_base, first=args.input_first, every=args.input_every)
    except (ConfigError, FileNotFoundError, ValueError, StorageError) as exc:
        print(f"winnow run: {scrub(str(exc))}", file=sys.stderr)
        return 2
    if not inputs:
        print(f"winnow run: no input files found in {args.input}", file=sys.stderr)
        return 2
    if problem := run_options_problem(args.wave_files, args.max_error_rate):
        print(f"winnow run: {problem}", file=sys.stderr)
        return 2
    if args.filter_workers is not None and args.filter_workers < 1:
        print("winnow run: --filter-workers must be at least 1", file=sys.stderr)
        return 2
    opts = RunOptions(config=config, inputs=inputs, output=args.output, local=args.local,
                      address=args.address, annotate=args.annotate, wave_files=args.wave_files,
                      progress=not args.no_progress, dedup_against=list(args.dedup_against),
                      max_error_rate=args.max_error_rate, filter_workers=args.filter_workers)
    if args.dry_run:
        from pipelines.runner import dry_run_plan

        try:
            print("\n".join(dry_run_plan(opts)))
        except (ConfigError, OutputMismatchError, StorageError) as exc:  # what the run would refuse, refused alike
            print(f"winnow run: {scrub(str(exc))}", file=sys.stderr)
            return 2
        return 0
    try:
        stats = run(opts)
    except (ConfigError, OutputMismatchError, ErrorBudgetExceeded) as exc:
        print(f"winnow run: {scrub(str(exc))}", file=sys.stderr)
        return 2
    except Exception as exc:
        # A store that failed for good mid-run (after retries): one line naming the URL; the wave in progress was
        # not committed, so running the same command again retries it. On Ray the error arrives wrapped.
        cause = _storage_cause(exc)
        if cause is None:
            raise
        print(f"winnow run: {cause} (this wave was not committed; run the same command again to resume)",
              file=sys.stderr)
        return 2
    _print_summary(stats, opts.output)
    return 0


def _storage_cause(exc: BaseException) -> BaseException | None:
    """The StorageError behind ``exc`` (itself, its cause, or what a Ray task error wraps), or None."""
    from pipelines.storage_errors import StorageError

    for _ in range(16):
        if exc is None:
            return None
        inner = getattr(exc, "cause", None)  # a Ray task error: its str() is a traceback, its cause is the error
        if isinstance(inner, BaseException):
            exc = inner
            continue
        if isinstance(exc, StorageError):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def _print_summary(stats: dict, output: str) -> None:
    from pipelines.storage import redact

    last = stats["last_run"]
    print(f"\n{redact(str(output))}: {last['inputs_processed']} input(s) processed, "
          f"{last['inputs_skipped_as_done']} already done, {last['seconds']} s")
    print(f"{'step':<16}{'in':>10}{'kept':>10}  dropped")
    for s in stats["steps"]:
        dropped = ", ".join(f"{k}={v}" for k, v in s["dropped"].items()) or "-"
        print(f"{s['step']:<16}{s['in']:>10}{s['kept']:>10}  {dropped}")
    for name, out in stats["outputs"].items():
        print(f"out/{name}: {out['rows']} rows in {out['shards']} shard(s)")
    for err in stats["errors"]:
        print(f"error: {err}")


def _cmd_crawl(args: argparse.Namespace) -> int:
    from crawler.run import CrawlConfigError, CrawlOptions, crawl

    seeds = list(args.seeds)
    if args.seed_file:
        try:
            lines = Path(args.seed_file).read_text().splitlines()
        except OSError as exc:
            print(f"winnow crawl: cannot read seed file: {exc}", file=sys.stderr)
            return 2
        seeds += [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]
    try:
        overrides = settings(args.set)
    except ValueError as exc:
        print(f"winnow crawl: {exc}", file=sys.stderr)
        return 2
    output, upload_to = Path(args.output), None
    if _is_remote(args.output):
        if args.workers is not None or args.address:
            print("winnow crawl: --workers writes worker folders beside each other on one disk; with an object-store "
                  "--output crawl without --workers, or crawl to a local folder and upload it", file=sys.stderr)
            return 2
        output, upload_to, problem = staging_for(args.output, args.staging)
        if problem:
            print(f"winnow crawl: {problem}", file=sys.stderr)
            return 2
    opts = CrawlOptions(
        seeds=seeds, output=output, upload_to=upload_to, max_pages=args.max_pages, max_depth=args.max_depth,
        max_pages_per_host=args.max_pages_per_host, sitemaps=args.sitemaps, bot_name=args.bot_name,
        contact_url=args.contact_url, training_token=args.training_token,
        allow_private=args.allow_private is not None,
        allowed_networks=[n.strip() for n in (args.allow_private or "").split(",") if n.strip()],
        languages=[x.strip() for x in args.languages.split(",") if x.strip()], resume=args.resume, render=args.render,
        progress=not args.no_progress, overrides=overrides)
    if args.workers is not None or args.address:
        return _crawl_workers(args, opts)
    from crawler.distributed import is_distributed

    if is_distributed(opts.output):  # its folder holds worker-K/ crawls, not one: a plain crawl would start afresh
        print(f"winnow crawl: {opts.output} holds a crawl made with --workers; resume it with --workers",
              file=sys.stderr)
        return 2
    try:
        stats = crawl(opts)
    except CrawlConfigError as exc:
        print(f"winnow crawl: {exc}", file=sys.stderr)
        return 2
    pages, files, hosts = (stats.get(k, 0) for k in ("winnow/pages", "winnow/warc/files", "winnow/hosts"))
    allowed, denied = (stats.get(f"winnow/verdict/training_{v}", 0) for v in ("allowed", "denied"))
    print(f"\n{_shown(upload_to) if upload_to else opts.output}: {pages} pages in {files} WARC file(s), {hosts} "
          f"host(s), training allowed {allowed}, denied {denied}; finish: {stats.get('finish_reason')}")
    if stats.get("winnow/warc/upload_failed"):
        print(f"winnow crawl: {stats['winnow/warc/upload_failed']} WARC file(s) could not be uploaded (the log says "
              f"why); they are kept in {opts.output}, and --resume uploads them", file=sys.stderr)
        return 1
    return 0


def _is_remote(path: str) -> bool:
    from pipelines.storage import is_remote

    return is_remote(path)


def _shown(url: str) -> str:
    from pipelines.storage import redact

    return redact(url)


def _crawl_workers(args: argparse.Namespace, opts: object) -> int:
    """``winnow crawl --workers N``: the crawl handed to crawler/distributed.py (Ray actors, hosts sharded)."""
    from crawler.distributed import crawl_distributed
    from crawler.run import CrawlConfigError

    if args.workers is None:
        print("winnow crawl: --address needs --workers N", file=sys.stderr)
        return 2
    try:
        stats, results = crawl_distributed(opts, args.workers, args.address,
                                           echo=lambda line: print(line, file=sys.stderr, flush=True))
    except CrawlConfigError as exc:
        print(f"winnow crawl: {exc}", file=sys.stderr)
        return 2
    failed = [r for r in results if r.failed]
    for res in failed:
        print(f"winnow crawl: worker-{res.worker} failed (exit status {res.rc}; its log: "
              f"{opts.output}/worker-{res.worker}/.crawl/crawl.log); the end of its stderr:\n{res.stderr_tail}",
              file=sys.stderr)
    pages, files, hosts = (stats.get(k, 0) for k in ("winnow/pages", "winnow/warc/files", "winnow/hosts"))
    print(f"\n{opts.output}: {pages} pages in {files} WARC file(s), {hosts} host(s), {len(results)} worker(s), "
          f"{len(failed)} failed; finish: {stats.get('finish_reason')}")
    if stats.get("winnow/interrupted"):
        return 130  # as a shell reports Ctrl-C
    return 1 if failed else 0


def _cmd_inspect(args: argparse.Namespace) -> int:
    from pipelines.app.inspect_output import InspectError, inspect_path

    columns = [c.strip() for c in args.columns.split(",") if c.strip()] if args.columns else None
    if args.samples < 0:
        print("winnow inspect: --sample must be 0 or more", file=sys.stderr)
        return 2
    try:
        inspect_path(Path(args.path), sys.stdout, samples=args.samples, where=args.where, columns=columns)
    except (FileNotFoundError, InspectError) as exc:
        print(f"winnow inspect: {exc}", file=sys.stderr)
        return 2
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from pipelines.app.demo import DemoError, run_demo

    try:
        run_demo(Path(args.output), local=args.local)
    except DemoError as exc:
        print(f"winnow demo: {exc}", file=sys.stderr)
        return 2
    return 0


def _cmd_report(args: argparse.Namespace) -> int:
    from pipelines.report_html import NotARunOutput, write_report

    if args.max_rows < 1:
        print("winnow report: --max-rows must be at least 1", file=sys.stderr)
        return 2
    try:
        path = write_report(args.out_dir, args.output, max_rows=args.max_rows)  # local or s3://... (storage.py)
    except (NotARunOutput, OSError) as exc:  # a wrong folder or an unwritable target: a message, not a traceback
        from pipelines.storage_errors import scrub

        print(f"winnow report: {scrub(str(exc))}", file=sys.stderr)
        return 2
    print(path)
    return 0


def _cmd_quality(args: argparse.Namespace) -> int:
    import json

    from filters import quality_fasttext as quality

    if args.quality_command == "train" and args.signals:
        from filters import quality_model
        from filters.langid import detect_prose

        def labelled(paths: list[str]) -> list[tuple[str, str | None, float]]:
            texts = [t for p in paths for t in quality.read_texts(p)]
            return [(t, lang, score) for t, (lang, score) in zip(texts, detect_prose(texts), strict=True)]

        try:
            if not 0 < args.target_retention <= 1:
                raise ValueError(f"--target-retention must be in (0, 1], got {args.target_retention}")
            result = quality_model.train(labelled(args.positive), labelled(args.negative), args.output,
                                         target=args.target_retention, seed=args.seed,
                                         trained_on=f"positive {args.positive}, negative {args.negative}")
        except (ValueError, FileNotFoundError) as exc:
            print(f"winnow quality train: {exc}", file=sys.stderr)
            return 2
        print(json.dumps(result))
        return 0
    if args.quality_command == "train":
        try:
            result = quality.train(
                (t for p in args.positive for t in quality.read_texts(p)),
                (t for p in args.negative for t in quality.read_texts(p)),
                args.output, epoch=args.epoch, lr=args.lr, dim=args.dim, word_ngrams=args.word_ngrams,
                bucket=args.bucket, quantize=args.quantize, seed=args.seed)
        except (ValueError, FileNotFoundError, RuntimeError) as exc:
            print(f"winnow quality train: {exc}", file=sys.stderr)
            return 2
        print(json.dumps(result))
        return 0
    from filters.quality_annotate import Endpoint, annotate

    endpoint = Endpoint(args.base_url, args.model, args.api_key, args.timeout)
    try:
        counts = annotate(args.input, args.output, endpoint, sample=args.sample, threshold=args.threshold,
                          max_chars=args.max_chars, seed=args.seed)
    except (ConnectionError, FileNotFoundError, ValueError) as exc:
        print(f"winnow quality annotate: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(counts))
    return 0


def main(argv: list[str] | None = None) -> int:
    from pipelines.app.images_cli import cmd_images
    from pipelines.app.jobs_cli import cmd_jobs, cmd_submit

    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for noisy in ("trafilatura", "htmldate", "courlan", "charset_normalizer"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    commands = {"run": _cmd_run, "crawl": _cmd_crawl, "inspect": _cmd_inspect, "quality": _cmd_quality,
                "report": _cmd_report, "submit": cmd_submit, "jobs": cmd_jobs, "demo": _cmd_demo,
                "images": cmd_images}
    return commands[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
