"""datatrove's side of bench/e2e.py: the same chain as bench/configs/e2e.yaml, with datatrove 0.10.1's own blocks.

Run by bench/e2e.py with the Python of datatrove's own virtual environment (its trafilatura pin, 1.11, conflicts
with winnow's 2.3), never with winnow's; it imports nothing from winnow. Five LocalPipelineExecutor stages, run
one after the other (``depends``):

1. ``filter`` (``--tasks`` tasks, ``--workers`` workers; datatrove shards by input file): WarcReader ->
   Trafilatura -> LanguageFilter -> GopherRepetitionFilter -> GopherQualityFilter -> C4QualityFilter ->
   FineWebQualityFilter -> JsonlWriter (the filtered documents, re-read by stage 5) -> MinhashDedupSignature.
   Writing the survivors and their signatures in one pass spares the second extraction that re-reading the
   WARCs in stage 5 would cost; the signature step numbers documents in the order the writer wrote them, which
   is the order stage 5 reads them back (one file per rank, ``--tasks`` ranks in both stages).
2. ``buckets``: MinhashDedupBuckets, one task per band (it requires tasks to be a multiple of the 14 buckets).
3. ``cluster``: MinhashDedupCluster (one task: it must be).
4. ``dedup``: JsonlReader -> MinhashDedupFilter (removed documents to ``dedup_removed/``) -> ParquetWriter.

Output under ``--output``: ``filtered/`` (JSONL), ``minhash/``, ``dedup_removed/`` (JSONL), ``final/`` (Parquet:
the kept documents, ``metadata.url`` is the WARC-Target-URI), ``logs/<stage>/stats.json`` (datatrove's
per-step counts and time).

The lid.176 model must already be where datatrove's LanguageFilter looks for it (bench/e2e.py puts it there and
sets ``HF_HOME`` and ``HF_HUB_OFFLINE=1``): nothing is downloaded.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.dedup import MinhashDedupBuckets, MinhashDedupCluster, MinhashDedupFilter, MinhashDedupSignature
from datatrove.pipeline.dedup.minhash import MinhashConfig
from datatrove.pipeline.extractors import Trafilatura
from datatrove.pipeline.filters import (
    C4QualityFilter,
    FineWebQualityFilter,
    GopherQualityFilter,
    GopherRepetitionFilter,
    LanguageFilter,
)
from datatrove.pipeline.readers import JsonlReader, WarcReader
from datatrove.pipeline.writers import JsonlWriter, ParquetWriter
from datatrove.utils.hashing import HashConfig


def build(input_dir: Path, out: Path, tasks: int, workers: int, timeout: float, stock_extraction: bool,
          languages: list[str] | None) -> LocalPipelineExecutor:
    """The four stages; the returned executor runs the others first (``depends``)."""
    minhash = MinhashConfig(n_grams=5, num_buckets=14, hashes_per_bucket=8, seed=1,
                            hash_config=HashConfig(precision=64))
    if stock_extraction:
        extractor = Trafilatura(timeout=timeout)  # datatrove's defaults: plain text, deduplicate=True
    else:
        # As winnow's TrafilaturaExtract: headings, lists and tables as Markdown, no deduplication of repeated text.
        extractor = Trafilatura(favour_precision=True, timeout=timeout, deduplicate=False, include_formatting=True,
                                include_tables=True)
    logs = out / "logs"
    filtering = LocalPipelineExecutor(
        pipeline=[
            WarcReader(str(input_dir), glob_pattern="*.warc.gz"),
            extractor,
            LanguageFilter(languages=languages, language_threshold=0.65),
            GopherRepetitionFilter(),
            GopherQualityFilter(),
            C4QualityFilter(filter_no_terminal_punct=False),
            FineWebQualityFilter(),
            JsonlWriter(str(out / "filtered")),
            MinhashDedupSignature(output_folder=str(out / "minhash" / "signatures"), config=minhash),
        ],
        tasks=tasks, workers=workers, logging_dir=str(logs / "filter"),
    )
    buckets = LocalPipelineExecutor(
        pipeline=[MinhashDedupBuckets(input_folder=str(out / "minhash" / "signatures"),
                                      output_folder=str(out / "minhash" / "buckets"), config=minhash)],
        tasks=minhash.num_buckets, workers=workers, logging_dir=str(logs / "buckets"), depends=filtering,
    )
    cluster = LocalPipelineExecutor(
        pipeline=[MinhashDedupCluster(input_folder=str(out / "minhash" / "buckets"),
                                      output_folder=str(out / "minhash" / "remove_ids"), config=minhash)],
        tasks=1, workers=1, logging_dir=str(logs / "cluster"), depends=buckets,
    )
    return LocalPipelineExecutor(
        pipeline=[
            JsonlReader(str(out / "filtered")),
            MinhashDedupFilter(input_folder=str(out / "minhash" / "remove_ids"),
                               exclusion_writer=JsonlWriter(str(out / "dedup_removed"))),
            ParquetWriter(str(out / "final")),
        ],
        tasks=tasks, workers=workers, logging_dir=str(logs / "dedup"), depends=cluster,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", type=Path, required=True, help="folder of *.warc.gz")
    parser.add_argument("--output", type=Path, required=True, help="a new folder")
    parser.add_argument("--tasks", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=60.0, help="per-page extraction limit, s (datatrove: 1)")
    parser.add_argument("--languages", default="en", help="comma-separated lid.176 codes, or 'all'")
    parser.add_argument("--stock-extraction", action="store_true",
                        help="datatrove's Trafilatura defaults (plain text, deduplicate=True), not winnow's settings")
    args = parser.parse_args()
    languages = None if args.languages == "all" else args.languages.split(",")
    build(args.input, args.output, args.tasks, args.workers, args.timeout, args.stock_extraction, languages).run()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
