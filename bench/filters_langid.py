"""Language-ID accuracy per language on ../shared/data/langid_dev.jsonl (7,415 sentences, 75 languages):
winnow's ``LanguageID`` step against fastText lid.176 called directly on the same sentences, so the
step's preprocessing (normalisation, batching, the character cap) is shown not to lose accuracy.

    .venv/bin/python bench/filters_langid.py [--json bench/results/filters_langid.json]

"Direct" is ``model.predict(text.replace("\\n", " "), k=1)`` one sentence at a time, the way the
fastText documentation calls it. lid.176 labels Norwegian Bokmål ``no``; it has no label for lg, mi, sn,
st, tn, ts, xh, zu, whose accuracy is 0 for both.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from filters.langid import LanguageID, get_model
from pipelines.records import Document

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "langid_dev.jsonl"
ALIASES = {"nb": "no"}  # ISO 639-1 of the data -> lid.176's label


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the figures here")
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.open(encoding="utf-8")]
    model = get_model()

    start = time.perf_counter()
    direct = [model.predict(r["text"].replace("\n", " "), k=1)[0][0].removeprefix("__label__") for r in rows]
    direct_s = time.perf_counter() - start

    step = LanguageID()
    step.setup()
    docs = [Document(id=str(i), url=None, source="bench", text=r["text"]) for i, r in enumerate(rows)]
    start = time.perf_counter()
    labelled = step.process_batch(docs)
    step_s = time.perf_counter() - start
    ours = [d.lang for d in labelled]

    total: Counter[str] = Counter()
    ok_direct: Counter[str] = Counter()
    ok_step: Counter[str] = Counter()
    for row, d, s in zip(rows, direct, ours, strict=True):
        gold = ALIASES.get(row["lang"], row["lang"])
        total[gold] += 1
        ok_direct[gold] += d == gold
        ok_step[gold] += s == gold
    per_lang = {lang: {"n": total[lang], "step": round(ok_step[lang] / total[lang], 4),
                       "direct": round(ok_direct[lang] / total[lang], 4)} for lang in sorted(total)}
    differ = [lang for lang, v in per_lang.items() if v["step"] != v["direct"]]
    label_diffs = sum(d != s for d, s in zip(direct, ours, strict=True))
    print(f"{'lang':<6}{'n':>5}{'step':>8}{'direct':>8}")
    for lang, v in per_lang.items():
        print(f"{lang:<6}{v['n']:>5}{v['step']:>8.3f}{v['direct']:>8.3f}{'  DIFFERS' if lang in differ else ''}")
    acc_step = sum(ok_step.values()) / len(rows)
    acc_direct = sum(ok_direct.values()) / len(rows)
    print(f"overall: step {acc_step:.4f}, direct {acc_direct:.4f}; labels differing: {label_diffs} of {len(rows)}; "
          f"languages whose accuracy differs: {differ or 'none'}")
    print(f"speed: step {len(rows) / step_s:,.0f} sentences/s (one batch), direct {len(rows) / direct_s:,.0f}/s")
    if args.json:
        Path(args.json).write_text(json.dumps({
            "data": "../shared/data/langid_dev.jsonl", "sentences": len(rows), "overall_step": round(acc_step, 4),
            "overall_direct": round(acc_direct, 4), "labels_differing": label_diffs, "languages_differing": differ,
            "step_sentences_per_s": round(len(rows) / step_s), "per_language": per_lang}, indent=2) + "\n")
    return 0 if not differ else 1


if __name__ == "__main__":
    sys.exit(main())
