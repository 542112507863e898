from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from filters import quality_fasttext as quality
from filters.quality_annotate import parse_score
from filters.quality_fasttext import DEFAULT_MODEL, QualityClassifier, load_model, model_text, score
from pipelines.app.cli import main
from pipelines.records import Document, InterleavedDoc, Segment, from_table, to_table
from pipelines.step import Drop
from tests.filters.golden import CLEAN, CLEAN_LINES, unique_words

MENU = ["Home", "News", "Sport", "Weather", "Login", "Subscribe", "Contact", "Shop", "Cart", "Search", "Menu"]


def prose(i: int) -> str:
    lines = CLEAN_LINES[i % 8:] + CLEAN_LINES[:i % 8]
    return " ".join(lines[: 3 + i % 5])


def menu(i: int) -> str:
    return "\n".join(MENU[(i + j) % len(MENU)] for j in range(4 + i % 6)) + " " + " ".join(unique_words(3, 5)[:i % 3])


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("q") / "tiny.bin"
    result = quality.train([prose(i) for i in range(120)], [menu(i) for i in range(120)], out, dim=16, bucket=10_000,
                           epoch=10)
    assert result["positive"] == 120 and result["negative"] == 120 and out.is_file()
    return out


def doc(i: str, text: str, lang: str | None = "en") -> Document:
    return Document(id=i, url=None, source="s", text=text, lang=lang)


def test_model_text_is_one_line() -> None:
    assert model_text("a\n\nb\tc  d") == "a b c d"
    assert model_text(None) == "" and model_text("x\ud800") == "x?"


def test_classifier_scores_and_drops(tiny_model: Path) -> None:
    step = QualityClassifier(model=str(tiny_model), min_score=0.5)
    step.bind()
    step.setup()
    docs = [doc("good", CLEAN), doc("menu", "\n".join(MENU)), doc("fr", "\n".join(MENU), lang="fr")]
    rows = {r.id: r for r in from_table(step(to_table(docs, "document")))}
    assert rows["good"].dropped_by is None and rows["good"].quality_score > 0.5
    assert rows["menu"].dropped_by == "quality.low_quality"
    assert rows["fr"].dropped_by is None and rows["fr"].quality_score is None  # not an English document
    everyone = QualityClassifier(model=str(tiny_model), languages=None)
    (out,) = everyone.process_batch([doc("fr", "\n".join(MENU), lang="fr")])
    assert out.quality_score < 0.5
    inter = InterleavedDoc(id="i", url=None, source="s", lang="en", segments=[Segment("text", text=CLEAN)])
    (out,) = QualityClassifier(model=str(tiny_model), kind="interleaved").process_batch([inter])
    assert out.quality_score > 0.5


def test_dclm_label_convention_and_other_labels(tiny_model: Path) -> None:
    model = load_model(str(tiny_model))
    assert set(model.get_labels()) == {"__label__hq", "__label__cc"}
    (hq,) = score(model, [model_text(CLEAN)])
    (cc,) = score(model, [model_text(CLEAN)], positive_label="cc")
    assert hq == pytest.approx(1 - cc, abs=0.01)
    with pytest.raises(ValueError, match="no label 'good'"):
        QualityClassifier(model=str(tiny_model), positive_label="good").setup()


def test_default_model_ships_small_and_prefers_prose() -> None:
    assert DEFAULT_MODEL.is_file() and DEFAULT_MODEL.stat().st_size < 2 * 2**20
    step = QualityClassifier()
    step.setup()
    spam = "cheap replica watches best price replica rolex online discount replica shop free shipping buy now"
    good, bad = step.process_batch([doc("a", CLEAN), doc("b", spam)])
    assert good.quality_score > 0.9 > bad.quality_score
    assert isinstance(QualityClassifier(min_score=0.99).process_batch([doc("b", spam)])[0], Drop)


@pytest.mark.parametrize("kwargs", [{"model": "/no/such/model.bin"}, {"min_score": 2}, {"kind": "image_text"},
                                    {"positive_label": "__label__hq"}, {"languages": "en"}, {"languages": []}])
def test_bad_arguments_fail_at_construction(kwargs: dict) -> None:
    with pytest.raises(ValueError):
        QualityClassifier(**kwargs)


def test_train_refuses_unigram_models_and_one_class(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="word_ngrams"):
        quality.train(["a b"], ["c d"], tmp_path / "m.bin", word_ngrams=1)
    with pytest.raises(ValueError, match="both classes"):
        quality.train(["a b"], [], tmp_path / "m.bin")


def test_cli_train_reads_jsonl_and_parquet(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pos = tmp_path / "pos.jsonl"
    pos.write_text("".join(json.dumps({"text": prose(i)}) + "\n" for i in range(60)))
    neg = tmp_path / "neg.parquet"
    pq.write_table(pa.table({"text": [menu(i) for i in range(60)]}), neg)
    out = tmp_path / "model.bin"
    assert main(["quality", "train", "--positive", str(pos), "--negative", str(neg), "-o", str(out),
                 "--dim", "16", "--bucket", "10000"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["positive"], result["negative"]) == (60, 60) and out.is_file()
    assert QualityClassifier(model=str(out)).process_batch([doc("a", CLEAN)])[0].quality_score > 0.5
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert main(["quality", "train", "--positive", str(pos), "--negative", str(empty), "-o", str(out)]) == 2


class _FakeLLM(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = body["messages"][0]["content"]
        content = '{"score": 4}' if "mill" in prompt else '{"score": 1}'
        data = json.dumps({"choices": [{"message": {"content": content}}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


def test_cli_annotate_against_a_local_endpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text("".join(json.dumps({"id": str(i), "text": prose(i) if i % 2 else menu(i)}) + "\n"
                              for i in range(10)))
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeLLM)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/v1"
        out = tmp_path / "labels"
        assert main(["quality", "annotate", str(corpus), "-o", str(out), "--base-url", url, "--model", "m",
                     "--sample", "8"]) == 0
    finally:
        server.shutdown()
    counts = json.loads(capsys.readouterr().out)
    assert counts["documents"] == 8 and counts["positive"] + counts["negative"] == 8 and counts["positive"] >= 1
    rows = [json.loads(line) for line in (out / "annotations.jsonl").read_text().splitlines()]
    assert all(r["score"] in (1, 4) for r in rows)
    assert len((out / "positive.jsonl").read_text().splitlines()) == counts["positive"]
    assert main(["quality", "annotate", str(corpus), "-o", str(out), "--base-url", "http://127.0.0.1:9/v1",
                 "--model", "m", "--timeout", "2"]) == 2


def test_parse_score() -> None:
    assert parse_score('{"score": 3}') == 3
    assert parse_score("The page deserves 2 points.") == 2
    assert parse_score("no idea") is None and parse_score('{"score": 9}') is None


def test_the_name_before_issue_29_is_the_same_step() -> None:
    """Configs written as ``use: filters.quality.QualityClassifier`` load the very class of quality_fasttext."""
    from filters import quality, quality_fasttext
    from pipelines.config import _import_class

    assert quality.QualityClassifier is quality_fasttext.QualityClassifier
    assert _import_class("test", "filters.quality.QualityClassifier") is QualityClassifier
