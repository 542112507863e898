"""The bundled `default` chain end to end on the bundled demo site (offline, no ../shared): every stage of the
mission chain runs in order for all three outputs, and what it keeps carries its scores."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from filters.quality_model import QualityModel, features, prose_words
from pipelines.app.sample import build_sample_warc
from pipelines.config import load_config
from pipelines.runner import RunOptions, run

pytestmark = pytest.mark.slow  # one of the inner loop's slowest modules (scripts/test.sh --fast); CI runs it


@pytest.fixture(scope="module")
def default_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    tmp = tmp_path_factory.mktemp("default")
    warc = build_sample_warc(tmp / "site.warc.gz")
    out = tmp / "out"
    stats = run(RunOptions(config=load_config("default"), inputs=[str(warc)], output=out, local=True,
                           progress=False))
    return out, stats


def test_every_stage_runs_in_the_mission_order(default_run: tuple[Path, dict]) -> None:
    _, stats = default_run
    names = [s["step"] for s in stats["steps"]]
    text_lane = ["opt_out", "url_filter", "extract", "langid", "gopher_repetition", "gopher_quality", "c4",
                 "fineweb_quality", "clear_junk", "quality_model", "host_quality", "quality_text", "profanity", "pii",
                 "exact_dedup", "minhash_dedup"]
    assert [n for n in names if n in text_lane] == text_lane
    for name in ("langid_interleaved", "clear_junk_interleaved", "quality_model_interleaved",
                 "quality_text_interleaved", "pii_interleaved", "minhash_dedup_interleaved", "alt_quality", "pii_alt",
                 "exact_dedup_images"):
        assert name in names
    by = {s["step"]: s for s in stats["steps"]}
    assert by["quality_model"]["in"] > 0 and by["minhash_dedup"]["in"] > 0


def test_kept_documents_carry_their_scores(default_run: tuple[Path, dict]) -> None:
    out, stats = default_run
    docs = pd.read_parquet(out / "text")
    assert len(docs) >= 5 and len(docs) == stats["outputs"]["text"]["rows"]
    # each text against the threshold that applies to it: the model's short-text one under 50 words of prose, its
    # page type's where it has one
    x = features(docs["text"].tolist(), docs["lang"].tolist(), docs["link_density"].tolist(),
                 docs["lang_score"].tolist())
    limits = [QualityModel().threshold(words, page_type)
              for words, page_type in zip(prose_words(x), docs["page_type"], strict=True)]
    assert (docs["quality_score"].to_numpy() >= limits).all(), list(zip(docs["url"], docs["quality_score"], limits,
                                                                        strict=True))
    assert docs["code_ratio"].notna().all() and docs["lang"].notna().all()
    assert docs["quality_signals"].map(lambda s: all(x.count(".") == 1 for x in s)).all()
    inter = pd.read_parquet(out / "interleaved")
    assert inter["quality_score"].notna().all()
    # an interleaved document is its page's: the same page type and link density as the page's text document, so
    # the page type's threshold applies to it too
    both = inter.merge(docs, on="id", suffixes=("", "_doc"))
    assert len(both) >= 1 and inter["page_type"].notna().all()
    assert (both["page_type"] == both["page_type_doc"]).all()
    assert (both["link_density"].fillna(-1) == both["link_density_doc"].fillna(-1)).all()
    by = {s["step"]: s for s in stats["steps"]}
    assert by["alt_quality"]["in"] >= 1  # the site's one content image reached the pair filters
