"""Throughput of each filter step, in documents per second on one core, through the framework's
``Step.__call__`` (Arrow table in, Arrow table out: what a pipeline pays).

Corpus: the 60 gold article texts of ../shared/data/extraction_bench (mean about 4,000 characters) and
2,000 sentences of ../shared/data/langid_dev.jsonl (mean about 130 characters), as Documents with
``lang`` set by lid.176; each step gets a fresh copy of every batch.

    .venv/bin/python bench/filters_throughput.py [--repeat 5] [--json bench/results/filters_throughput.json]
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from filters import parts, signals, text
from filters.heuristics_c4 import C4Filter
from filters.heuristics_fineweb import FineWebQuality
from filters.heuristics_gopher import GopherQuality, GopherRepetition
from filters.junk_rules import ClearJunk
from filters.langid import LanguageID
from filters.pii import RedactPII
from filters.profanity import Profanity
from filters.quality_fasttext import QualityClassifier
from filters.quality_model import QualityModel
from filters.urls import URLFilter
from pipelines.records import Document, to_table

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"


def corpora() -> dict[str, list[Document]]:
    truth = json.loads((SHARED / "extraction_bench" / "ground-truth.json").read_text(encoding="utf-8"))
    articles = [Document(id=k, url=v.get("url"), source="bench", text=v["articleBody"]) for k, v in truth.items()]
    sentences = []
    with (SHARED / "langid_dev.jsonl").open(encoding="utf-8") as f:
        for i, line in enumerate(f):
            if i % 3 == 0 and len(sentences) < 2000:
                sentences.append(Document(id=str(i), url=f"https://example.org/{i}", source="bench",
                                          text=json.loads(line)["text"]))
    langid = LanguageID()
    langid.setup()
    return {"articles": langid.process_batch(articles), "sentences": langid.process_batch(sentences)}


STEPS = {
    "langid": LanguageID, "gopher_quality": GopherQuality, "gopher_repetition": GopherRepetition, "c4": C4Filter,
    "fineweb_quality": FineWebQuality, "quality": QualityClassifier, "clear_junk": ClearJunk,
    "quality_model": QualityModel, "profanity": Profanity, "pii": RedactPII, "url_filter": URLFilter,
}


def clear_caches() -> None:
    """The text splits, n-gram shares and signals are cached by text across steps (one computation per document
    in a pipeline); a step measured alone, repeatedly, must pay for them every time."""
    parts._split.cache_clear()
    text.ngram_shares.cache_clear()
    signals._compute.cache_clear()


def measure(step, docs: list[Document], repeat: int) -> float:
    table = to_table(docs, "document")
    step(table)  # warm-up (model pages)
    elapsed = 0.0
    for _ in range(repeat):
        clear_caches()
        start = time.perf_counter()
        step(table)
        elapsed += time.perf_counter() - start
    return len(docs) * repeat / elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--json")
    args = parser.parse_args()
    data = corpora()
    results: dict[str, dict[str, int]] = {}
    print(f"{'step':<20}{'articles/s':>12}{'sentences/s':>13}")
    for name, cls in STEPS.items():
        step = cls()
        step.bind()
        step.setup()
        results[name] = {k: round(measure(step, copy.deepcopy(docs), args.repeat)) for k, docs in data.items()}
        print(f"{name:<20}{results[name]['articles']:>12,}{results[name]['sentences']:>13,}")
    if args.json:
        Path(args.json).write_text(json.dumps({"docs_per_s": results, "repeat": args.repeat,
                                               "articles": len(data["articles"]),
                                               "sentences": len(data["sentences"])}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
