"""The quick block model and the routing rule (extract/select.py, issue 28): trafilatura runs only on the pages the
quick model is unsure of, and the choice on the others is the quick model's own."""

from __future__ import annotations

import json
import zipfile
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

import extract.core as core
from extract.core import ExtractOptions, extract_raw
from extract.options import PageOptions
from extract.page import extract_page
from extract.select import MODEL_PATH, BlockModel, BlockModelError, load_model, save_model, shipped_model, unsure_share
from tests.script_loader import load_script

FIXTURES = Path(__file__).parent / "fixtures"


def test_unsure_share_counts_the_words_near_the_threshold() -> None:
    probs = np.array([0.05, 0.38, 0.45, 0.9])
    words = np.array([10.0, 20.0, 30.0, 40.0])
    assert unsure_share(probs, words, 0.4, 0.1) == pytest.approx(0.5)  # 0.38 and 0.45: 50 of 100 words
    assert unsure_share(probs, words, 0.4, 0.01) == 0.0
    assert unsure_share(probs, np.zeros(4), 0.4, 0.1) == 0.0  # no words: nothing to be unsure of


def test_the_shipped_model_has_a_quick_stage_and_a_rule_chosen_by_cross_validation() -> None:
    model = shipped_model()
    assert model.quick is not None
    assert set(model.route) == {"band", "limit"}
    assert 0 < model.route["band"] < 0.5 and 0 <= model.route["limit"] < 1
    assert model.metadata["cv_f1"] > 0.85


def test_a_clear_article_is_decided_without_trafilatura(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> str:
        raise AssertionError("trafilatura ran on a page the quick model was sure of")

    monkeypatch.setattr(core, "trafilatura_text", refuse)
    ext = extract_page((FIXTURES / "article_images.html").read_text(encoding="utf-8"),
                       "https://river.example/nature/otters", time_limit_s=None)
    assert "model_full" not in ext.flags
    assert ext.document.extracted_by == "winnow"
    assert "Eurasian otters have been recorded again" in ext.document.text


def test_every_page_goes_to_the_full_model_when_the_quick_one_is_unsure_of_everything(
        monkeypatch: pytest.MonkeyPatch) -> None:
    model = shipped_model()
    monkeypatch.setattr(core, "shipped_model", lambda: replace(model, route={"band": 1.0, "limit": 0.0}))
    raw = extract_raw((FIXTURES / "article_images.html").read_text(encoding="utf-8"), None, ExtractOptions())
    assert raw.flags == ["model_full"] and raw.extracted_by == "winnow"


def test_a_threshold_that_empties_the_quick_choice_still_falls_back_to_trafilatura() -> None:
    html = "<html><body><article>" + "<p>The river otter is back on the lower reaches of the river.</p>" * 20
    raw = extract_raw(html + "</article></body></html>", None, ExtractOptions(threshold=1.01))
    assert "fallback_trafilatura.empty" in raw.flags
    assert raw.extracted_by == "trafilatura" and "river otter" in raw.text


def test_a_model_file_without_a_quick_stage_routes_every_page(tmp_path: Path) -> None:
    full = shipped_model()
    path = tmp_path / "blocks.zip"
    save_model(BlockModel(full.estimator, full.threshold, full.trafilatura, second=full.second,
                          type_thresholds=full.type_thresholds, metadata=full.metadata), path)
    loaded = load_model(path)
    assert loaded.quick is None and loaded.route == {}
    assert loaded.type_thresholds == full.type_thresholds and loaded.metadata == full.metadata


def test_the_model_file_reads_back_as_it_was_written(tmp_path: Path) -> None:
    path = tmp_path / "blocks.zip"
    save_model(shipped_model(), path)
    assert path.read_bytes() == MODEL_PATH.read_bytes()  # no clock or order in the bytes


def _rewrite(tmp_path: Path, change: dict[str, bytes | None]) -> Path:
    """A copy of the shipped file with members replaced (bytes) or left out (None)."""
    path = tmp_path / "blocks.zip"
    with zipfile.ZipFile(MODEL_PATH) as src, zipfile.ZipFile(path, "w") as dst:
        for name in src.namelist():
            data = change.get(name, src.read(name))
            if data is not None:
                dst.writestr(name, data)
    return path


def test_a_model_file_of_an_unknown_format_version_is_refused(tmp_path: Path) -> None:
    with zipfile.ZipFile(MODEL_PATH) as zf:
        doc = json.loads(zf.read("model.json"))
    doc["format_version"] = 99
    with pytest.raises(BlockModelError, match="format version 99"):
        load_model(_rewrite(tmp_path, {"model.json": json.dumps(doc).encode()}))


@pytest.mark.parametrize(("change", "why"), [
    ({"quick_second.onnx": None}, "the quick stage's trees are missing"),
    ({"full.onnx": b"\x08\x07 not a graph"}, "the full stage's trees cannot be read"),
    ({"model.json": None}, "no model.json"),
    ({"model.json": b"{not json"}, "unreadable"),
])
def test_a_damaged_model_file_is_a_clear_error_naming_it(tmp_path: Path, change: dict, why: str) -> None:
    path = _rewrite(tmp_path, change)
    with pytest.raises(BlockModelError, match=why) as info:
        load_model(path)
    assert str(path) in str(info.value) and "train_extract_model.py" in str(info.value)


def test_a_missing_or_foreign_model_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BlockModelError, match="missing"):
        load_model(tmp_path / "nowhere.zip")
    pickled = tmp_path / "blocks.pkl"  # the format before issue 28's ONNX graphs
    pickled.write_bytes(b"\x80\x05\x95 a pickle, not a zip")
    with pytest.raises(BlockModelError, match=r"unreadable \(BadZipFile"):
        load_model(pickled)


def test_quick_false_sends_every_page_to_the_full_model() -> None:
    html = (FIXTURES / "article_images.html").read_text(encoding="utf-8")
    assert extract_page(html, "https://river.example/o", quick=False, time_limit_s=None).flags[0] == "model_full"
    with pytest.raises(ValueError, match="quick must be a bool"):
        PageOptions(quick="yes")  # type: ignore[arg-type]




def test_the_routing_rule_is_the_fewest_routed_pages_that_keep_the_full_models_f1() -> None:
    from bench.wcxb import WcxbPage
    from extract.segment import Block

    script = load_script("train_extract_model")
    words = "otters have been recorded again along the upper river by volunteers"
    share = "share this page on social media now"
    blocks = [Block(text=words, kind="p", plain=words), Block(text=share, kind="p", plain=share)]
    pages = [WcxbPage(f"p{i}", f"https://s{i}.example/", "article", words, Path("unused")) for i in range(3)]
    built = {p.id: {"blocks": blocks} for p in pages}
    sure = np.array([0.99, 0.01])  # the quick model is right and sure
    unsure = np.array([0.99, 0.45])  # it keeps the share line, just over its threshold
    quick_probs = {"p0": sure, "p1": sure, "p2": unsure}
    right, wrong = words, words + "\n\nshare this page on social media now"
    quick_texts = {"p0": right, "p1": right, "p2": wrong}
    full_texts = dict.fromkeys(quick_texts, right)
    rule, grid, texts = script.choose_route(quick_probs, quick_texts, full_texts, dict.fromkeys(quick_texts, 0.4),
                                            built, pages, tolerance=0.0)
    assert texts == full_texts  # p2 went to the full model, p0 and p1 did not need to
    chosen = next(g for g in grid if (g["band"], g["limit"]) == (rule["band"], rule["limit"]))
    assert chosen["routed"] == pytest.approx(1 / 3)
    assert min(g["routed"] for g in grid if g["f1"] >= chosen["f1"]) == chosen["routed"]


STUB = ("<html><head><title>SuperLU.nnz</title></head><body><div class='body' role='main'>"
        "<h1>scipy.sparse.linalg.SuperLU.nnz</h1><dl class='py attribute'><dt>SuperLU.nnz</dt>"
        "<dd><p>Number of nonzero elements in the matrix.</p></dd></dl></div></body></html>")


def _typed(monkeypatch: pytest.MonkeyPatch, page_type: str) -> None:
    from extract.page_type import PAGE_TYPES

    monkeypatch.setattr(core, "predict_proba",
                        lambda model, rows: np.array([[float(t == page_type) for t in PAGE_TYPES]]))


@pytest.mark.parametrize("page_type, kept", [("documentation", True), ("article", False), ("product", False)])
def test_an_api_stub_falls_back_to_trafilatura_at_any_length_only_on_documentation(
        monkeypatch: pytest.MonkeyPatch, page_type: str, kept: bool) -> None:
    _typed(monkeypatch, page_type)
    options = ExtractOptions(threshold=1.01)  # the model keeps nothing, as on SciPy's stubs
    if kept:
        raw = extract_raw(STUB, "https://docs.example/SuperLU.nnz.html", options)
        assert "fallback_trafilatura.empty" in raw.flags and raw.extracted_by == "trafilatura"
        assert "Number of nonzero elements" in raw.text and raw.page_type == "documentation"
    else:  # under FALLBACK_MIN_CHARS elsewhere: a JavaScript shell's few words are not a page
        with pytest.raises(core.ExtractFailure, match="no_text"):
            extract_raw(STUB, "https://docs.example/SuperLU.nnz.html", options)


def test_the_fallback_floor_is_the_page_types() -> None:
    analysis = core.analyse(STUB, None, ExtractOptions(quick=False))
    blocks, nothing = analysis.segmentation.blocks, [False] * len(analysis.segmentation.blocks)
    assert analysis.kept_text and len(analysis.kept_text) < core.FALLBACK_MIN_CHARS
    chosen, fell_back = core.with_fallback(blocks, nothing, analysis.kept_text, "documentation")
    assert fell_back and any(chosen)
    assert core.with_fallback(blocks, nothing, analysis.kept_text, None) == (nothing, False)
    assert core.with_fallback(blocks, nothing, "", "documentation") == (nothing, False)  # trafilatura found nothing
