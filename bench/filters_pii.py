"""PII precision and recall per type on ../shared/data/pii_dev.jsonl (presidio-research, 1,500 texts).

A predicted span is correct when it overlaps a gold span of the same type; recall counts the gold spans
of a type that some predicted span of that type overlaps. ``exact`` is the share of correct predictions
whose boundaries equal the gold span's. Gold types without a winnow detector (PERSON, ADDRESS, ...) are
not scored, but a prediction overlapping one of them counts as a false positive of its own type.

    .venv/bin/python bench/filters_pii.py [--json bench/results/filters_pii.json]

Targets (issue 6): EMAIL, CREDIT_CARD, IP, IBAN, SSN recall >= 0.95, precision >= 0.9; PHONE recall >= 0.8,
precision >= 0.9.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from filters.pii import TYPES, find

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "pii_dev.jsonl"
GOLD_TYPE = {"EMAIL_ADDRESS": "EMAIL", "PHONE_NUMBER": "PHONE", "CREDIT_CARD": "CREDIT_CARD", "IP_ADDRESS": "IP",
             "IBAN_CODE": "IBAN", "US_SSN": "SSN"}
TARGETS = {t: (0.95, 0.9) for t in ("EMAIL", "CREDIT_CARD", "IP", "IBAN", "SSN")} | {"PHONE": (0.8, 0.9)}


def evaluate(rows: list[dict], verbose: bool = False) -> dict[str, dict[str, float]]:
    tp_pred: Counter[str] = Counter()
    n_pred: Counter[str] = Counter()
    exact: Counter[str] = Counter()
    tp_gold: Counter[str] = Counter()
    n_gold: Counter[str] = Counter()
    for row in rows:
        text = row["text"]
        gold = [(s["start"], s["end"], GOLD_TYPE.get(s["label"], s["label"])) for s in row["spans"]]
        pred = find(text)
        for g in gold:
            if g[2] in TYPES:
                n_gold[g[2]] += 1
                if any(p.label == g[2] and p.start < g[1] and g[0] < p.end for p in pred):
                    tp_gold[g[2]] += 1
                elif verbose:
                    print(f"MISS {g[2]:<12}{text[g[0]:g[1]]!r}")
        for p in pred:
            n_pred[p.label] += 1
            hit = [g for g in gold if g[2] == p.label and p.start < g[1] and g[0] < p.end]
            if hit:
                tp_pred[p.label] += 1
                exact[p.label] += any((g[0], g[1]) == (p.start, p.end) for g in hit)
            elif verbose:
                print(f"FP   {p.label:<12}{text[p.start:p.end]!r} in {text[max(0, p.start - 30):p.end + 20]!r}")
    out = {}
    for t in TYPES:
        out[t] = {"gold": n_gold[t], "predicted": n_pred[t],
                  "precision": round(tp_pred[t] / n_pred[t], 3) if n_pred[t] else None,
                  "recall": round(tp_gold[t] / n_gold[t], 3) if n_gold[t] else None,
                  "exact_boundaries": round(exact[t] / tp_pred[t], 3) if tp_pred[t] else None}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write the figures here")
    parser.add_argument("-v", "--verbose", action="store_true", help="print misses and false positives")
    args = parser.parse_args()
    rows = [json.loads(line) for line in DATA.open(encoding="utf-8")]
    start = time.perf_counter()
    scores = evaluate(rows, args.verbose)
    seconds = time.perf_counter() - start
    ok = True
    print(f"{'type':<13}{'gold':>6}{'pred':>6}{'precision':>11}{'recall':>8}{'exact':>7}  target (R, P)")
    for t, s in scores.items():
        r_min, p_min = TARGETS[t]
        met = (s["recall"] or 0) >= r_min and (s["precision"] or 0) >= p_min
        ok &= met
        print(f"{t:<13}{s['gold']:>6}{s['predicted']:>6}{s['precision']!s:>11}{s['recall']!s:>8}"
              f"{s['exact_boundaries']!s:>7}  {r_min}, {p_min} {'ok' if met else 'MISSED'}")
    print(f"{len(rows)} texts in {seconds:.2f} s ({len(rows) / seconds:.0f} texts/s)")
    if args.json:
        Path(args.json).write_text(json.dumps({"data": "../shared/data/pii_dev.jsonl", "texts": len(rows),
                                               "seconds": round(seconds, 2), "scores": scores}, indent=2) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
