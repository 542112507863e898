"""Model-based quality vs the hard heuristics on a labelled sample of real web text.

Sample: the 60 pages of ../shared/data/extraction_bench. Each page gives "good" documents (its gold
article text, cut into chunks of 15 to 300 words at paragraph boundaries) and "poor" documents (the
rest of the page's text, blocks whose words are mostly not in the article: menus, teasers, cookie
notices, footers, cut the same way). The question is the issue's: what does the model keep that the
heuristics (Gopher quality + repetition, C4 document rules with FineWeb's settings, FineWeb) drop, and
the reverse.

    .venv/bin/python bench/filters_quality.py [--model default] [--threshold 0.5] [--json OUT]
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import sys
from collections import Counter
from pathlib import Path

import lxml.html

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from filters.heuristics_c4 import C4Filter
from filters.heuristics_fineweb import FineWebQuality
from filters.heuristics_gopher import GopherQuality, GopherRepetition
from filters.quality import load_model, model_text, score

BENCH = Path(__file__).resolve().parents[2] / "shared" / "data" / "extraction_bench"
_TOKEN = re.compile(r"\w+")


def _blocks(html: str) -> list[str]:
    root = lxml.html.fromstring(html)
    for bad in root.xpath("//script|//style|//noscript|//template"):
        bad.drop_tree()
    body = root.find("body") if root.find("body") is not None else root
    out = []
    for el in body.iter():
        if isinstance(el.tag, str):
            for part in (el.text, el.tail):
                if part and part.split():
                    out.append(" ".join(part.split()))
    return out


def _chunks(lines: list[str], rng: random.Random) -> list[str]:
    out, cur, n, target = [], [], 0, rng.randint(15, 300)
    for line in lines:
        cur.append(line)
        n += len(line.split())
        if n >= target:
            out.append("\n".join(cur))
            cur, n, target = [], 0, rng.randint(15, 300)
    if cur and n >= 15:
        out.append("\n".join(cur))
    return out


def sample(seed: int = 0) -> list[tuple[str, str]]:
    """(label, text) pairs: label "good" (article) or "poor" (the rest of the page)."""
    rng = random.Random(seed)
    truth = json.loads((BENCH / "ground-truth.json").read_text(encoding="utf-8"))
    out = []
    for key in sorted(truth):
        article = truth[key]["articleBody"]
        vocab = {t.lower() for t in _TOKEN.findall(article)}
        with gzip.open(BENCH / "html" / f"{key}.html.gz") as f:
            html = f.read().decode("utf-8", "replace")
        rest = [b for b in _blocks(html) if (toks := [t.lower() for t in _TOKEN.findall(b)])
                and sum(t in vocab for t in toks) / len(toks) < 0.5]
        out += [("good", t) for t in _chunks([p for p in article.split("\n") if p.strip()], rng)]
        out += [("poor", t) for t in _chunks(rest, rng)]
    return out


def heuristic_reasons(text: str) -> list[str]:
    families = {"gopher_quality": GopherQuality(), "gopher_repetition": GopherRepetition(),
                "c4": C4Filter(require_terminal_punctuation=False), "fineweb": FineWebQuality()}
    return [f"{name}.{r}" for name, step in families.items() for r in step.failures(text, "en")[:1]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="default")
    parser.add_argument("--threshold", type=float, default=0.5)
    parser.add_argument("--json")
    args = parser.parse_args()
    rows = sample()
    scores = score(load_model(args.model), [model_text(t) for _, t in rows])
    good = [s for (lab, _), s in zip(rows, scores, strict=True) if lab == "good"]
    poor = [s for (lab, _), s in zip(rows, scores, strict=True) if lab == "poor"]
    auc = sum((g > p) + 0.5 * (g == p) for g in good for p in poor) / (len(good) * len(poor))
    table: Counter[tuple[str, bool, bool]] = Counter()
    reasons_model_keeps: Counter[str] = Counter()
    examples: dict[str, list[str]] = {"model_keeps_heuristics_drop": [], "heuristics_keep_model_drops": []}
    for (label, text), s in zip(rows, scores, strict=True):
        reasons = heuristic_reasons(text)
        h_keep, m_keep = not reasons, s >= args.threshold
        table[(label, h_keep, m_keep)] += 1
        if m_keep and not h_keep:
            reasons_model_keeps[f"{label}:{reasons[0]}"] += 1
            if label == "good" and len(examples["model_keeps_heuristics_drop"]) < 3:
                examples["model_keeps_heuristics_drop"].append(f"[{reasons[0]}, {s:.2f}] {text[:160]!r}")
        if h_keep and not m_keep and label == "poor" and len(examples["heuristics_keep_model_drops"]) < 3:
            examples["heuristics_keep_model_drops"].append(f"[{s:.2f}] {text[:160]!r}")
    print(f"sample: {len(good)} good (article) and {len(poor)} poor (boilerplate) documents; model {args.model}, "
          f"threshold {args.threshold}; AUC {auc:.3f}")
    print(f"{'label':<6}{'both keep':>11}{'model only':>12}{'heur. only':>12}{'both drop':>11}")
    for label in ("good", "poor"):
        cells = [table[(label, True, True)], table[(label, False, True)], table[(label, True, False)],
                 table[(label, False, False)]]
        print(f"{label:<6}{cells[0]:>11}{cells[1]:>12}{cells[2]:>12}{cells[3]:>11}")
    print("kept by the model, dropped by the heuristics (label:first rule):", dict(reasons_model_keeps.most_common(8)))
    for name, lines in examples.items():
        print(f"{name}:")
        for line in lines:
            print("   ", line)
    if args.json:
        Path(args.json).write_text(json.dumps({
            "model": args.model, "threshold": args.threshold, "good": len(good), "poor": len(poor),
            "auc": round(auc, 3),
            "table": {f"{lab}/heuristics_{'keep' if h else 'drop'}/model_{'keep' if m else 'drop'}": n
                      for (lab, h, m), n in sorted(table.items())},
            "model_keeps_heuristics_drop": dict(reasons_model_keeps), "examples": examples}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
