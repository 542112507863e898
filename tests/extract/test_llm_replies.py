"""Reply handling of extract/llm.py against a fake OpenAI-compatible server on 127.0.0.1.

The fake returns canned replies (invented text, bad JSON, out-of-range block ids, slow replies, 500s,
a rejected response_format) so that every failure path is exercised deterministically.
"""

from __future__ import annotations

import itertools
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from extract.blocks import page_blocks
from extract.llm import SELECT_SYSTEM, LLMExtractor, LLMJob, LLMPlan

FIXTURES = Path(__file__).parent / "llm_fixtures"
ARTICLE = (FIXTURES / "article.html").read_text("utf-8")
RECIPE = (FIXTURES / "recipe.html").read_text("utf-8")
INJECTION = (FIXTURES / "injection.html").read_text("utf-8")

Reply = tuple[int, Any, float]  # status, body (dict -> chat completion content if "content" key), delay


def completion(content: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "model": "fake",
        "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": content}}],
    }


class FakeOpenAI:
    """A threaded HTTP server answering POST /v1/chat/completions with ``responder(request_body)``."""

    def __init__(self, responder: Callable[[dict[str, Any]], Reply]) -> None:
        self.responder = responder
        self.requests: list[dict[str, Any]] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length))
                with fake._lock:
                    fake.requests.append(body)
                    fake.in_flight += 1
                    fake.max_in_flight = max(fake.max_in_flight, fake.in_flight)
                answering = True
                try:
                    status, payload, delay = fake.responder(body)
                    if delay:
                        time.sleep(delay)
                    data = payload.encode() if isinstance(payload, str) else json.dumps(payload).encode()
                    # counted out before the answer leaves: once the client has it, it may send its next request,
                    # and that request's thread could count itself in before this one counted out (a count of 4
                    # under a client bound of 3 on a loaded machine)
                    with fake._lock:
                        fake.in_flight -= 1
                    answering = False
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)
                finally:
                    if answering:
                        with fake._lock:
                            fake.in_flight -= 1

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake() -> Iterator[Callable[[Callable[[dict[str, Any]], Reply]], FakeOpenAI]]:
    servers: list[FakeOpenAI] = []

    def make(responder: Callable[[dict[str, Any]], Reply]) -> FakeOpenAI:
        server = FakeOpenAI(responder)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.close()


def extractor(server: FakeOpenAI, **kw: Any) -> LLMExtractor:
    opts: dict[str, Any] = {"model": "fake-model", "timeout_s": 5.0, "retries": 2, "backoff_s": 0.01}
    opts.update(kw)
    ex = LLMExtractor(endpoint=server.url, **opts)
    ex.setup()
    return ex


def select_job(html: str = ARTICLE, url: str = "https://news.example/story") -> LLMJob:
    return LLMJob(url=url, html=html, plan=LLMPlan("select", None, "fallback"))


def rendered_blocks(html: str) -> set[str]:
    return {b.render() for b in page_blocks(html)}


def ids_of(html: str, *needles: str) -> list[int]:
    blocks = page_blocks(html)
    return [next(b.index for b in blocks if needle in b.text) for needle in needles]


# -- select ----------------------------------------------------------------------------------------
def test_select_assembles_text_from_the_pages_blocks_in_page_order(fake):
    a, b, c = ids_of(ARTICLE, "Demand beyond", "After a break", "refurbished")
    server = fake(lambda body: (200, completion(json.dumps({"content": [a, c, b]})), 0))
    (out,) = extractor(server).run([select_job()])
    assert out.text is not None
    lines = out.text.split("\n")
    assert lines[0].startswith("After a break") and lines[1].startswith("The operator bought")
    assert lines[2] == "## Demand beyond expectations"
    assert set(lines) <= rendered_blocks(ARTICLE)
    assert out.flags == ["llm_select"]
    assert out.structured is None


def test_invented_text_in_a_reply_never_reaches_the_output(fake):
    (a,) = ids_of(ARTICLE, "After a break")
    reply = {"content": [a], "text": "The night train was cancelled forever.", "summary": "INVENTED"}
    server = fake(lambda body: (200, completion(json.dumps(reply)), 0))
    (out,) = extractor(server).run([select_job()])
    assert out.text is not None and "INVENTED" not in out.text and "cancelled" not in out.text
    assert out.text.split("\n") == [page_blocks(ARTICLE)[a].text]


def test_a_reply_that_is_text_instead_of_ids_is_bad_json(fake):
    server = fake(lambda body: (200, completion('{"content": "the whole article"}'), 0))
    (out,) = extractor(server).run([select_job()])
    assert out.text is None and "llm_fallback.bad_json" in out.flags


def test_bad_json_falls_back_without_retrying(fake):
    server = fake(lambda body: (200, completion('{"content": [1, 2,'), 0))
    (out,) = extractor(server, retries=3).run([select_job()])
    assert out.text is None
    assert out.flags == ["llm_select", "llm_fallback.bad_json"]
    assert len(server.requests) == 1  # greedy decoding would repeat the same reply


def test_out_of_range_ids_are_ignored_and_flagged(fake):
    n = len(page_blocks(ARTICLE))
    (a,) = ids_of(ARTICLE, "After a break")
    server = fake(lambda body: (200, completion(json.dumps({"content": [a, n, n + 50, -1, "3", True]})), 0))
    (out,) = extractor(server).run([select_job()])
    assert out.text == page_blocks(ARTICLE)[a].text
    assert "llm_bad_block_id" in out.flags


def test_only_out_of_range_ids_give_an_empty_fallback(fake):
    server = fake(lambda body: (200, completion(json.dumps({"content": [999, 1000]})), 0))
    (out,) = extractor(server).run([select_job()])
    assert out.text is None
    assert out.flags == ["llm_select", "llm_fallback.empty"]


def test_empty_message_content_is_an_empty_fallback(fake):
    server = fake(lambda body: (200, completion(""), 0))
    (out,) = extractor(server).run([select_job()])
    assert out.text is None and "llm_fallback.empty" in out.flags


def test_a_non_completion_body_is_an_http_error(fake):
    server = fake(lambda body: (200, "<html>proxy login</html>", 0))
    (out,) = extractor(server).run([select_job()])
    assert out.text is None and "llm_fallback.http_error" in out.flags


def test_a_page_without_visible_text_falls_back_without_a_request(fake):
    server = fake(lambda body: (200, completion('{"content": [0]}'), 0))
    (out,) = extractor(server).run([select_job(html="<html><head><script>x()</script></head><body></body></html>")])
    assert out.text is None and "llm_fallback.empty" in out.flags
    assert server.requests == []


# -- timeouts, retries, unreachable ------------------------------------------------------------------
def test_slow_replies_time_out_after_retries(fake):
    server = fake(lambda body: (200, completion('{"content": [0]}'), 2.0))
    ex = extractor(server, timeout_s=0.3, retries=1, backoff_s=0.05)
    t0 = time.monotonic()
    (out,) = ex.run([select_job()])
    elapsed = time.monotonic() - t0
    assert out.text is None and out.flags == ["llm_select", "llm_fallback.timeout"]
    assert len(server.requests) == 2
    assert elapsed < 1.8  # two 0.3 s timeouts and one backoff, not the server's 2 s delay each


def test_5xx_is_retried_with_backoff_and_can_recover(fake):
    (a,) = ids_of(ARTICLE, "After a break")
    calls = {"n": 0}

    def responder(body: dict[str, Any]) -> Reply:
        calls["n"] += 1
        if calls["n"] <= 2:
            return 503, {"error": "loading model"}, 0
        return 200, completion(json.dumps({"content": [a]})), 0

    server = fake(responder)
    t0 = time.monotonic()
    (out,) = extractor(server, retries=2, backoff_s=0.1).run([select_job()])
    assert out.text == page_blocks(ARTICLE)[a].text
    assert len(server.requests) == 3
    assert time.monotonic() - t0 >= 0.3  # 0.1 + 0.2: exponential backoff between the attempts


def test_persistent_500_gives_http_error_after_all_retries(fake):
    server = fake(lambda body: (500, {"error": "boom"}, 0))
    (out,) = extractor(server, retries=2).run([select_job()])
    assert out.text is None and out.flags == ["llm_select", "llm_fallback.http_error"]
    assert len(server.requests) == 3


def test_4xx_is_not_retried(fake):
    server = fake(lambda body: (401, {"error": "no key"}, 0))
    (out,) = extractor(server, retries=2, response_format="json_object").run([select_job()])
    assert "llm_fallback.http_error" in out.flags and len(server.requests) == 1


def test_server_down_falls_back_fast_without_raising():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nothing listens there
    ex = LLMExtractor(endpoint=f"http://127.0.0.1:{port}", model="m", retries=3, backoff_s=1.0)
    jobs = [select_job(), LLMJob("https://r.example/", RECIPE, LLMPlan("schema", "recipe", "route"))]
    t0 = time.monotonic()
    outs = ex.run(jobs)
    assert time.monotonic() - t0 < 1.0  # refused connections are not retried
    assert [o.text for o in outs] == [None, None] and [o.structured for o in outs] == [None, None]
    assert outs[0].flags == ["llm_select", "llm_fallback.unreachable"]
    assert outs[1].flags == ["llm_schema.recipe", "llm_fallback.unreachable"]


# -- response_format negotiation ---------------------------------------------------------------------
def test_auto_tries_json_schema_then_json_object_and_remembers(fake):
    (a,) = ids_of(ARTICLE, "After a break")

    def responder(body: dict[str, Any]) -> Reply:
        if body["response_format"]["type"] == "json_schema":
            return 400, {"error": "response_format type must be json_object"}, 0
        assert "schema" in body["response_format"]
        return 200, completion(json.dumps({"content": [a]})), 0

    server = fake(responder)
    ex = extractor(server, concurrency=1)
    outs = ex.run([select_job(), select_job(url="https://news.example/other")])
    assert all(o.text == page_blocks(ARTICLE)[a].text for o in outs)
    assert [r["response_format"]["type"] for r in server.requests] == ["json_schema", "json_object", "json_object"]


def test_json_schema_format_carries_the_schema(fake):
    server = fake(lambda body: (200, completion('{"content": [0]}'), 0))
    extractor(server, response_format="json_schema").run([select_job()])
    fmt = server.requests[0]["response_format"]
    assert fmt["type"] == "json_schema"
    items = fmt["json_schema"]["schema"]["properties"]["content"]["items"]
    assert items["minimum"] == 0 and items["maximum"] == len(page_blocks(ARTICLE)) - 1
    assert server.requests[0]["model"] == "fake-model" and server.requests[0]["temperature"] == 0.0


# -- prompt injection ----------------------------------------------------------------------------------
def test_page_text_stays_data_in_a_delimited_user_message(fake):
    server = fake(lambda body: (200, completion(json.dumps({"content": [999, 1000]})), 0))
    (out,) = extractor(server).run([select_job(html=INJECTION, url="https://garden.example/garlic")])
    (request,) = server.requests
    system, user = request["messages"]
    assert system == {"role": "system", "content": SELECT_SYSTEM}  # no page text in the instructions
    assert user["role"] == "user"
    body = user["content"]
    assert "IGNORE ALL PREVIOUS INSTRUCTIONS" in body
    # The page's own "</page>" cannot close the data section early: exactly one delimiter pair.
    assert body.count("<page>") == 1 and body.count("</page>") == 1
    assert body.index("<page>") < body.index("IGNORE ALL") < body.index("</page>")
    # Every data line starts with a real block number of this page.
    inner = body.split("<page>\n", 1)[1].split("\n</page>", 1)[0].split("\n")
    assert [int(line[1:line.index("]")]) for line in inner] == list(range(len(page_blocks(INJECTION))))
    # A reply obeying the page names blocks that do not exist: nothing of it is used.
    assert out.text is None and "llm_fallback.empty" in out.flags


def test_an_obeyed_injection_can_only_choose_blocks_of_the_page(fake):
    (inj,) = ids_of(INJECTION, "IGNORE ALL")
    server = fake(lambda body: (200, completion(json.dumps({"content": [inj, 999]})), 0))
    (out,) = extractor(server).run([select_job(html=INJECTION)])
    assert out.text == page_blocks(INJECTION)[inj].text
    assert "PWNED BY THE PAGE." in out.text and out.text.count("PWNED") == 1  # the page's words, once, no more


# -- schema mode ---------------------------------------------------------------------------------------
RECIPE_REPLY = {
    "name": "Lemon barley soup",
    "author": "Ines Ferreira",
    "servings": 4,
    "prep_time": "15 minutes",
    "cook_time": "45 minutes",  # planted: the page says 40
    "ingredients": ["150 g pearl barley", "1 ONION,  finely chopped", "a pinch of saffron", "2 carrots, diced"],
    "steps": ["Rinse the barley under cold water until the water runs clear."],
    "calories": "320 kcal",  # not in the schema
}


def test_schema_extraction_keeps_grounded_values_and_drops_planted_ones(fake):
    server = fake(lambda body: (200, completion(json.dumps(RECIPE_REPLY)), 0))
    ex = extractor(server, routes=[{"domain": "kitchen.example", "schema": "recipe"}])
    plan = ex.plan("https://www.kitchen.example/soup", 5000)
    assert plan is not None and plan.mode == "schema" and plan.schema_name == "recipe"
    (out,) = ex.run([LLMJob("https://www.kitchen.example/soup", RECIPE, plan)])
    assert out.text is None
    assert out.structured == {
        "name": "Lemon barley soup",
        "author": "Ines Ferreira",
        "servings": 4,
        "prep_time": "15 minutes",
        "ingredients": ["150 g pearl barley", "1 ONION, finely chopped", "2 carrots, diced"],
        "steps": ["Rinse the barley under cold water until the water runs clear."],
    }
    assert out.flags.count("llm_ungrounded") == 2  # "45 minutes", "a pinch of saffron"
    assert out.flags.count("llm_off_schema") == 1  # "calories"
    assert out.flags[0] == "llm_schema.recipe"
    request = server.requests[0]
    assert request["response_format"]["type"] == "json_schema"  # auto: tried first on an http endpoint
    assert request["response_format"]["json_schema"]["schema"]["properties"]["ingredients"]["type"] == "array"
    assert "Lemon barley soup" not in request["messages"][0]["content"]  # page text only in the user message


def test_schema_reply_with_nothing_grounded_is_an_empty_fallback(fake):
    reply = {"name": "Chocolate cake", "ingredients": ["flour", "cocoa"]}
    server = fake(lambda body: (200, completion(json.dumps(reply)), 0))
    ex = extractor(server)
    (out,) = ex.run([LLMJob(None, RECIPE, LLMPlan("schema", "recipe", "route"))])
    assert out.structured is None
    assert out.flags == ["llm_schema.recipe", *["llm_ungrounded"] * 3, "llm_fallback.empty"]


def test_schema_reply_that_is_not_an_object_is_bad_json(fake):
    server = fake(lambda body: (200, completion('["Lemon barley soup"]'), 0))
    (out,) = extractor(server).run([LLMJob(None, RECIPE, LLMPlan("schema", "recipe", "route"))])
    assert out.structured is None and "llm_fallback.bad_json" in out.flags


def test_inline_schema_route(fake):
    schema = {"type": "object", "properties": {"fare": {"type": "string"}, "dep": {"type": "string"}}}
    server = fake(lambda body: (200, completion(json.dumps({"fare": "59 EUR", "dep": "at 20:15"})), 0))
    ex = extractor(server, routes=[{"match": r"/story$", "schema": schema, "name": "train"}])
    plan = ex.plan("https://news.example/story", 9999)
    (out,) = ex.run([LLMJob("https://news.example/story", ARTICLE, plan)])
    assert out.structured == {"fare": "59 EUR"}
    assert out.flags == ["llm_schema.train", "llm_ungrounded"]


# -- chunking, concurrency, cache ------------------------------------------------------------------------
def long_page(n: int) -> str:
    paras = "".join(f"<p>Paragraph number {i} talks about the river crossing and the old ferry.</p>" for i in range(n))
    return f"<html><body><article>{paras}</article></body></html>"


def test_long_pages_are_chunked_to_fit_the_context_and_merged(fake):
    html = long_page(120)

    def responder(body: dict[str, Any]) -> Reply:
        items = body["response_format"]["schema"]["properties"]["content"]["items"]
        return 200, completion(json.dumps({"content": [items["minimum"], items["maximum"]]})), 0

    server = fake(responder)
    (out,) = extractor(server, n_ctx=1024, response_format="json_object").run([select_job(html=html)])
    assert len(server.requests) >= 3
    ranges = [(r["response_format"]["schema"]["properties"]["content"]["items"]["minimum"],
               r["response_format"]["schema"]["properties"]["content"]["items"]["maximum"]) for r in server.requests]
    ranges.sort()
    assert ranges[0][0] == 0 and ranges[-1][1] == 119
    assert all(b[0] == a[1] + 1 for a, b in itertools.pairwise(ranges))  # contiguous, no overlap
    for request in server.requests:  # each prompt fits: 1 token per 3 bytes is an over-estimate
        prompt = sum(len(m["content"].encode()) for m in request["messages"]) / 3
        assert prompt + request["max_tokens"] <= 1024
    expected = [f"Paragraph number {i} " for lo, hi in ranges for i in (lo, hi)]
    assert out.text is not None and [line[:len(e)] for line, e in zip(out.text.split("\n"), expected,
                                                                      strict=True)] == expected
    assert "llm_chunked" in out.flags


def test_bounded_concurrency(fake):
    server = fake(lambda body: (200, completion('{"content": [0]}'), 0.2))
    ex = extractor(server, concurrency=3)
    jobs = [select_job(html=long_page(3 + i)) for i in range(7)]
    outs = ex.run(jobs)
    assert all(o.text and o.text.startswith("Paragraph number 0") for o in outs)
    assert 2 <= server.max_in_flight <= 3


def test_memory_cache_hit_on_the_second_call(fake):
    server = fake(lambda body: (200, completion('{"content": [0, 1]}'), 0))
    ex = extractor(server)
    (first,) = ex.run([select_job()])
    (second,) = ex.run([select_job()])
    assert len(server.requests) == 1
    assert second.text == first.text and second.flags == [*first.flags, "llm_cache_hit"]
    (other,) = ex.run([LLMJob("https://news.example/story", ARTICLE, LLMPlan("schema", "paper", "route"))])
    assert len(server.requests) == 2 and "llm_cache_hit" not in other.flags  # mode/schema are part of the key


def test_disk_cache_survives_a_new_extractor_and_failures_are_not_cached(fake, tmp_path):
    replies = iter([(500, {"error": "x"}, 0), (200, completion('{"content": [2]}'), 0)])
    server = fake(lambda body: next(replies))
    ex = extractor(server, retries=0, cache_dir=str(tmp_path / "cache"))
    (failed,) = ex.run([select_job()])
    assert "llm_fallback.http_error" in failed.flags
    (ok,) = ex.run([select_job()])
    assert ok.text is not None and "llm_cache_hit" not in ok.flags
    files = list((tmp_path / "cache").rglob("*.json"))
    assert len(files) == 1 and not list((tmp_path / "cache").rglob(".tmp-*"))
    again = extractor(server, retries=0, cache_dir=str(tmp_path / "cache"))
    (hit,) = again.run([select_job()])
    assert hit.text == ok.text and "llm_cache_hit" in hit.flags
    assert len(server.requests) == 2


def test_html_as_bytes_is_decoded_from_its_declaration(fake):
    html = '<html><head><meta charset="windows-1252"></head><body><p>Caf\xe9 menu</p><p>Prices</p></body></html>'
    server = fake(lambda body: (200, completion('{"content": [0]}'), 0))
    (out,) = extractor(server).run([LLMJob(None, html.encode("cp1252"), LLMPlan("select"))])  # type: ignore[arg-type]
    assert out.text == "Café menu"
    assert "Café menu" in server.requests[0]["messages"][1]["content"]
