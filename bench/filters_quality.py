"""Quality judgement on data nobody tuned on: good pages kept per kind, junk dropped per family, in one run per chain.

The data is the ``eval`` split of the quality corpus (bench/quality_corpus.py): WCXB dev pages of sites the model
never saw, the news pages of extraction_bench, whole documentation sites held out (scikit-image's Sphinx site with its
code-example gallery, SciPy's API reference, GIMP's Japanese manual, the Debian Reference in Chinese), coherent prose
in 15 languages (the Debian Administrator's Handbook), unrelated real sentences in 75 languages
15 to a page (reported apart: they are made as a scraped mash-up is), WCXB's real non-content text (as text, and as
the eval sites' pages with their main content blanked, through extraction: ``chrome``), the junk of
bench/junk_set.py (``gen_b``) and bench/junk_eval.py (``gen_c``) drawn with the seed that training does not use
(development evaluation: the same generators' other seed trains the model), and bench/junk_final.py's families
(``gen_d``: a fourth generator, written after the others and apart from the quality code, never trained, tuned or
chosen on; ``--no-final`` leaves it out). Each chain runs once over all of it as ``winnow run CHAIN --local
--annotate`` (HTML pages in a WARC, text documents in a JSONL), so extraction, the host-level language step and every
filter take part; a page counts as kept when its document reaches out/text.

A good page a dedup stage dropped as a copy of a document the run kept (SciPy's API reference has pages that differ
by one letter of a LAPACK routine's name) counts as lost in ``kept``; ``kept_or_copy`` counts it apart, since its words
reach the output once.

Also reported:

- the leave-one-family-out table (``--lofo``): the default model retrained (scripts/train_quality_model.py) without one
  junk family of its training data (from every generator), its thresholds chosen again on the calib split, and the
  share of that family's evaluation pages (each generator's apart) the model alone then drops: what it does with junk
  it has not seen; beside it the share the full model drops;
- image-text pairs whose alt is a file name (``--captions``): scikit-image's site with every gallery image's alt
  replaced by its file's path (as older sphinx-gallery versions write them), through the same chain: how many pairs
  with a caption are kept, and whether any kept pair's text is a file name.

    .venv/bin/python bench/filters_quality.py [--chain default --chain filters] [--lofo] [--captions] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pandas as pd

from bench.quality_corpus import Item, corpus
from bench.quality_view import fates, run_chain, write_inputs

# The kinds of good page the issue names, as families of the corpus.
GOOD_KINDS: dict[str, tuple[str, ...]] = {
    "tutorial site, code-heavy (scikit-image)": ("docs.python-skimage-doc",),
    "API reference (SciPy)": ("docs.python-scipy-doc",),
    "manual, Japanese (GIMP)": ("docs.gimp-help-ja",),
    "manual, Chinese (Debian Reference)": ("docs.debian-reference-zh-cn",),
    "news (extraction_bench)": ("news",),
    "WCXB article": ("wcxb.article",),
    "WCXB documentation": ("wcxb.documentation",),
    "WCXB forum": ("wcxb.forum",),
    "WCXB product": ("wcxb.product",),
    "WCXB collection": ("wcxb.collection",),
    "WCXB listing": ("wcxb.listing",),
    "WCXB service": ("wcxb.service",),
    "prose in other languages, coherent (Debian handbook, 15 languages)": ("handbook.",),
    "unrelated sentences, 66 languages lid.176 knows": ("prose.",),
}
# Languages of langid_dev that lid.176 has no label for (../shared/data/README.md): reported apart.
UNKNOWN_TO_LID = frozenset({"lg", "mi", "sn", "st", "tn", "ts", "xh", "zu"})


def kind_rows(df: pd.DataFrame) -> pd.DataFrame:
    """Good items of each kind (``GOOD_KINDS``), prose split by whether lid.176 knows the language."""
    rows = []
    for kind, prefixes in GOOD_KINDS.items():
        mask = df["family"].str.startswith(prefixes) & (df["label"] == 1)
        if kind.startswith("unrelated sentences"):
            mask &= ~df["family"].str.removeprefix("prose.").isin(UNKNOWN_TO_LID)
        rows.append((kind, df[mask]))
    lacking = df["family"].isin([f"prose.{x}" for x in UNKNOWN_TO_LID])
    rows.append(("unrelated sentences, 8 languages lid.176 lacks", df[lacking]))
    return rows


def lost_by(part: pd.DataFrame, n: int = 4) -> str:
    c = Counter(part.loc[~part["kept"], "reason"])
    return ", ".join(f"{r} {k}" for r, k in c.most_common(n))


def copies_of_kept(out: Path) -> set[str]:
    """URLs of the documents a dedup stage dropped as copies of a document that reached out/text (its id in the
    drop detail, ``duplicate of <id>``): their words are in the output, once."""
    import pyarrow.parquet as pq

    rows = pq.read_table(out / "text", columns=["id", "url", "dropped_by", "drop_detail"]).to_pylist()
    kept = {r["id"] for r in rows if r["dropped_by"] is None}
    copies = set()
    for r in rows:
        reason, detail = r["dropped_by"] or "", r["drop_detail"] or ""
        if reason.endswith(("exact_duplicate", "near_duplicate")) and " of " in detail:
            keeper = detail.split(" of ", 1)[1].split(",")[0].strip()
            if keeper in kept:
                copies.add(r["url"])
    return copies


def report(df: pd.DataFrame, copies: set[str] | None = None) -> dict[str, Any]:
    """Per good kind: pages, the share kept and what dropped the others; with ``copies`` (``copies_of_kept``) also the
    share kept or dropped as a copy of a kept document. Per junk family: pages, the share dropped and by what."""
    good = {}
    for kind, p in kind_rows(df):
        good[kind] = {"pages": len(p), "kept": round(float(p["kept"].mean()), 4) if len(p) else None,
                      "lost_by": lost_by(p)}
        if copies is not None and len(p):
            good[kind]["kept_or_copy"] = round(float((p["kept"] | p["url"].isin(copies)).mean()), 4)
    junk = {}
    for family, part in df[df["label"] == 0].groupby("family"):
        junk[family] = {"pages": len(part), "dropped": round(1 - float(part["kept"].mean()), 4),
                        "by": ", ".join(f"{r} {k}" for r, k in Counter(part.loc[~part["kept"], "reason"])
                                        .most_common(3))}
    return {"good": good, "junk": junk}


def markdown(results: dict[str, dict[str, Any]]) -> str:
    chains = list(results)
    lines = ["| good pages, kind | pages | " + " | ".join(f"`{c}` keeps" for c in chains)
             + " | kept or a copy of a kept page (first chain) | lost (first chain) |",
             "|---|---:|" + "---:|" * (len(chains) + 1) + "---|"]
    first = results[chains[0]]
    for kind, row in first["good"].items():
        cells = " | ".join(f"{results[c]['good'][kind]['kept']:.3f}" if results[c]["good"][kind]["kept"] is not None
                           else "-" for c in chains)
        copy = f"{row['kept_or_copy']:.3f}" if row.get("kept_or_copy") is not None else "-"
        lines.append(f"| {kind} | {row['pages']} | {cells} | {copy} | {row['lost_by']} |")
    lines += ["", "| junk family | pages | " + " | ".join(f"`{c}` drops" for c in chains) + " | by (first chain) |",
              "|---|---:|" + "---:|" * len(chains) + "---|"]
    for family, row in first["junk"].items():
        cells = " | ".join(f"{results[c]['junk'][family]['dropped']:.3f}" for c in chains)
        lines.append(f"| {family} | {row['pages']} | {cells} | {row['by']} |")
    return "\n".join(lines)


def lofo_table(final: bool = True) -> dict[str, Any]:
    """scripts/train_quality_model.py's leave-one-family-out table on the corpus's eval junk."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
    import train_quality_model

    return train_quality_model.lofo(train_quality_model.load(eval_junk=True, final=final))


def lofo_markdown(table: dict[str, Any]) -> str:
    lines = ["| junk family left out | eval pages (generator) | dropped by the model without it | with it |",
             "|---|---|---:|---:|"]
    for family, row in table.items():
        for source, cell in row.items():
            if isinstance(cell, dict):
                lines.append(f"| {family} | {cell['pages']} ({source}) | {cell['dropped_without_family']:.3f} | "
                             f"{cell['dropped_full_model']:.3f} |")
    return "\n".join(lines)


def step_seconds(out: Path) -> dict[str, float]:
    """Wall seconds per step of the run's last invocation (stats.json), to show where a chain spends its time."""
    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    return {s["step"]: round(float(s["seconds"]), 1) for s in stats.get("steps") or [] if "seconds" in s}


def caption_pages() -> list[Item]:
    """scikit-image's site (eval split) with every gallery image's alt replaced by its file's path."""
    import lxml.html

    from bench.quality_corpus import DEBIAN_SITES, obtain_debian_site, site_pages

    root = obtain_debian_site("python-skimage-doc")
    items = []
    for path in site_pages("python-skimage-doc", root):
        tree = lxml.html.fromstring(path.read_bytes())
        for img in tree.iter("img"):
            src = img.get("src") or ""
            if "sphx_glr" in src:
                img.set("alt", src)
        rel = path.relative_to(root).as_posix()
        html = lxml.html.tostring(tree, encoding="utf-8", doctype="<!DOCTYPE html>")
        items.append(Item(f"cap-{rel}", "captions", 1, DEBIAN_SITES["python-skimage-doc"][1],
                          f"https://skimage-captions.docs.example/{rel}", html=html))
    return items


def caption_check(chain: str, tmp: Path) -> dict[str, Any]:
    """Pairs of the file-name-alt site through ``chain``: made, kept, kept with the caption as text, kept with a
    file name for text (must be none)."""
    import pyarrow.parquet as pq

    from filters.image_alt import is_filename

    items = caption_pages()
    out = tmp / f"captions-{Path(chain).stem}"
    run_chain(chain, write_inputs(items, tmp / "captions-in"), out)
    rows = pq.read_table(out / "image_text", columns=["alt", "caption", "text", "text_source", "dropped_by"]
                         ).to_pylist()
    kept = [r for r in rows if r["dropped_by"] is None]
    return {"pages": len(items), "pairs": len(rows),
            "pairs_with_caption": sum(1 for r in rows if r["caption"]),
            "kept": len(kept), "kept_with_caption_text": sum(1 for r in kept if r["text_source"] == "caption"),
            "kept_with_caption": sum(1 for r in kept if r["caption"]),
            "kept_text_is_file_name": sum(1 for r in kept if is_filename(r["text"] or r["alt"] or "")),
            "dropped_by": dict(Counter((r["dropped_by"] or "").split(":")[0] for r in rows if r["dropped_by"]))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chain", action="append", help="bundled chain name or YAML path (default: default, filters)")
    parser.add_argument("--no-final", action="store_true", help="leave out bench/junk_final.py's pages")
    parser.add_argument("--lofo", action="store_true", help="also the leave-one-family-out table")
    parser.add_argument("--captions", action="store_true", help="also the file-name-alt image pair check")
    parser.add_argument("--json", type=Path)
    parser.add_argument("--keep", type=Path, help="keep the inputs and outputs in this folder")
    args = parser.parse_args()
    chains = args.chain or ["default", "filters"]
    items = corpus(("eval",), gen_d=not args.no_final)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="winnow-filters-quality-") as tmp_name:
        tmp = args.keep or Path(tmp_name)
        inputs = write_inputs(items, tmp / "in")
        for chain in chains:
            out = tmp / f"out-{Path(chain).stem}"
            started = time.perf_counter()
            run_chain(chain, inputs, out)
            seconds = time.perf_counter() - started
            df = fates(items, out)
            steps = step_seconds(out)
            results[chain] = report(df, copies_of_kept(out)) | {"seconds": round(seconds, 1), "items": len(df),
                                                                "step_seconds": steps}
            slowest = ", ".join(f"{name} {secs:.1f}" for name, secs in sorted(steps.items(), key=lambda x: -x[1])[:6])
            print(f"{chain}: {len(df)} items in {seconds:.0f} s; slowest steps (s): {slowest}", flush=True)
            if args.captions:
                results[chain]["captions"] = caption_check(chain, tmp)
                print(f"{chain} captions: {results[chain]['captions']}", flush=True)
    print(markdown(results))
    if args.lofo:
        results["lofo"] = lofo_table(final=not args.no_final)
        print(lofo_markdown(results["lofo"]))
    if args.json:
        args.json.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
