"""`winnow run` with LLM-assisted extraction against the embedded llama.cpp server (``llm: local``).

The runner starts the server in the driver before any worker gets the step, and stops it after the run; the
step reaches it from local and Ray workers alike. A 135M model is weak: the assertions are about routing,
provenance and counting, not about quality.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import psutil
import pytest

from extract.blocks import page_blocks
from extract.llm_server import SERVER_ENTRY
from pipelines.config import load_config
from pipelines.runner import RunOptions, run
from tests.warc_factory import WarcBuilder

pytestmark = [pytest.mark.llm, pytest.mark.slow]

FIXTURES = Path(__file__).parents[1] / "extract" / "llm_fixtures"
ARTICLE = (FIXTURES / "article.html").read_text("utf-8")
CONFIG = """\
steps:
  - use: extract.step.ExtractPage
    with:
      outputs: [text, interleaved]
      llm:
        endpoint: local
        n_ctx: 2048
        timeout_s: 120
        fallback_min_chars: 0
        routes: [{match: "/llm/", mode: select}]
"""


def build(tmp_path: Path) -> tuple[str, Path]:
    warc = WarcBuilder()
    warc.add_response("http://news.example/llm/night-trains", ARTICLE.encode(), content_type="text/html")
    warc.add_response("http://news.example/plain/night-trains", ARTICLE.encode(), content_type="text/html")
    cfg = tmp_path / "llm.yaml"
    cfg.write_text(CONFIG)
    return str(warc.write(tmp_path / "pages.warc.gz")), cfg


@pytest.mark.parametrize("local", [True, pytest.param(False, marks=pytest.mark.ray)])
def test_routed_page_is_selected_by_the_local_model(tmp_path, local, request):
    if not local:
        request.getfixturevalue("ray_local")
    inp, cfg = build(tmp_path)
    config = load_config(str(cfg))
    stats = run(RunOptions(config=config, inputs=[inp], output=tmp_path / "out", local=local, progress=False))
    docs = pd.read_parquet(tmp_path / "out" / "text").set_index("url")
    routed, plain = docs.loc["http://news.example/llm/night-trains"], docs.loc["http://news.example/plain/night-trains"]
    assert plain["extracted_by"] == "winnow" and list(plain["extract_flags"]) == []
    assert "llm_select" in routed["extract_flags"]
    assert not any(f.startswith("llm_fallback") for f in routed["extract_flags"]), routed["extract_flags"]
    assert routed["extracted_by"] == "llm_select"
    blocks = {b.render() for b in page_blocks(ARTICLE)}
    assert all(line in blocks for line in routed["text"].split("\n"))  # only the page's own text
    assert stats["metrics"]["extract_flags.llm_select"] == 1
    # The server lived only for the run: stopped, and its address forgotten by the driver's step.
    assert config.steps[0].llm_extractor.base_url is None
    assert not [c for c in psutil.Process().children(recursive=True) if SERVER_ENTRY in _cmdline(c)]


def _cmdline(proc: psutil.Process) -> str:
    """A live process's command line; "" for one that has exited (a zombie not yet reaped has none to read)."""
    try:
        return " ".join(proc.cmdline())
    except psutil.Error:
        return ""
