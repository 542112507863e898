"""LLM labels for training a quality classifier (the FineWeb-Edu recipe, Penedo et al. 2024, section 4:
an LLM scores a sample of documents 0-5 for educational value, a classifier is trained on the scores).

``winnow quality annotate INPUT... --output DIR --base-url URL --model NAME`` samples ``--sample``
documents (JSONL/Parquet, winnow's own text shards included), asks any OpenAI-compatible endpoint
(vLLM, llama.cpp's server, Ollama) for a score with a JSON-schema constrained answer, and writes:

- ``DIR/annotations.jsonl``: ``{id, url, score, text}`` per document (score null when the answer
  could not be read);
- ``DIR/positive.jsonl`` (score >= ``--threshold``, FineWeb-Edu's 3) and ``DIR/negative.jsonl`` (below),
  ready for ``winnow quality train --positive DIR/positive.jsonl --negative DIR/negative.jsonl``.

The prompt is winnow's own wording of FineWeb-Edu's additive rubric (one point per criterion met).
Documents are cut to ``--max-chars`` characters before prompting. Requests use only the standard
library (``urllib``); nothing else is installed for it.
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PROMPT = """Rate how useful the following web page extract would be for teaching, from primary school to \
university, on a scale of 0 to 5. Add one point for each statement that is true:
1. It gives some basic information relevant to an educational topic, even if mixed with ads or other noise.
2. It covers part of a topic coherently, though it may be incomplete or loosely organised.
3. It is suitable for learning and explains key ideas of a topic clearly.
4. It is highly relevant and well organised, like a textbook chapter or a tutorial, with little noise.
5. It is outstanding for teaching: deep, clear reasoning with no irrelevant content.
Pages that are mostly advertising, navigation, spam or explicit content score 0.

Extract:
<<<
{text}
>>>

Answer with JSON: {{"score": <integer 0-5>}}"""
SCORE_SCHEMA = {"type": "object", "properties": {"score": {"type": "integer", "minimum": 0, "maximum": 5}},
                "required": ["score"]}
_SCORE = re.compile(r'"score"\s*:\s*([0-5])|\b([0-5])\b')


@dataclass
class Endpoint:
    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 60.0

    def score(self, text: str) -> int | None:
        body = {"model": self.model, "temperature": 0, "max_tokens": 20,
                "messages": [{"role": "user", "content": PROMPT.format(text=text)}],
                "response_format": {"type": "json_object", "schema": SCORE_SCHEMA}}
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.base_url.rstrip("/") + "/chat/completions",
                                         data=json.dumps(body).encode(), headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=self.timeout) as response:
            answer = json.loads(response.read())
        return parse_score(answer["choices"][0]["message"]["content"] or "")


def parse_score(content: str) -> int | None:
    """The 0-5 score in an answer: JSON first, else the first lone digit."""
    try:
        value = json.loads(content).get("score")
        if isinstance(value, int) and 0 <= value <= 5:
            return value
    except (json.JSONDecodeError, AttributeError):
        pass
    m = _SCORE.search(content)
    return int(m.group(1) or m.group(2)) if m else None


def sample_documents(paths: Iterable[str], n: int, seed: int = 0) -> list[Any]:
    """A uniform sample of ``n`` readable documents (reservoir sampling over all inputs)."""
    from pipelines.readers import expand_inputs
    from pipelines.readers.documents import iter_documents

    rng = random.Random(seed)
    chosen: list[Any] = []
    seen = 0
    for path in expand_inputs(list(paths)):
        for doc in iter_documents(path):
            if doc.dropped_by is not None or not (doc.text or "").strip():
                continue
            seen += 1
            if len(chosen) < n:
                chosen.append(doc)
            else:
                j = rng.randrange(seen)
                if j < n:
                    chosen[j] = doc
    return chosen


def annotate(paths: Iterable[str], output: str | Path, endpoint: Endpoint, sample: int = 1000, threshold: int = 3,
             max_chars: int = 3000, seed: int = 0) -> dict[str, int]:
    """Score a sample with the endpoint; write annotations, positive and negative JSONL files."""
    out = Path(output)
    out.mkdir(parents=True, exist_ok=True)
    docs = sample_documents(paths, sample, seed)
    counts = {"documents": len(docs), "positive": 0, "negative": 0, "unscored": 0}
    with (out / "annotations.jsonl").open("w", encoding="utf-8") as ann, \
            (out / "positive.jsonl").open("w", encoding="utf-8") as pos, \
            (out / "negative.jsonl").open("w", encoding="utf-8") as neg:
        for i, doc in enumerate(docs):
            try:
                score = endpoint.score(doc.text[:max_chars])
            except urllib.error.URLError as exc:
                if i == 0:  # the endpoint is not there at all: say so instead of writing empty files
                    raise ConnectionError(f"cannot reach {endpoint.base_url}: {exc.reason}") from None
                score = None
            except (TimeoutError, KeyError, IndexError, json.JSONDecodeError):
                score = None
            row = {"id": doc.id, "url": doc.url, "score": score, "text": doc.text}
            ann.write(json.dumps(row, ensure_ascii=False) + "\n")
            if score is None:
                counts["unscored"] += 1
            elif score >= threshold:
                counts["positive"] += 1
                pos.write(json.dumps(row, ensure_ascii=False) + "\n")
            else:
                counts["negative"] += 1
                neg.write(json.dumps(row, ensure_ascii=False) + "\n")
    return counts
