"""The prompt a model gets, counted as benchmarks/llm.py counts it: the whole request body the real
openai client sends to a server on 127.0.0.1, o200k tokens. A new session's lines stay within the
targets in every mode, and the count leaves nothing out (the schema a reply is held to included)."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "llm.py"


def _benchmark():
    spec = importlib.util.spec_from_file_location("benchmark_llm", BENCHMARK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _benchmark()


@pytest.mark.parametrize("mode", bench.MODES)
@pytest.mark.parametrize(("line", "target"), [(line, target) for _, line, target in bench.LINES])
def test_the_prompt_as_sent_is_within_its_target(session, chat_server, mode, line, target):
    _, count = bench.tokenizer()
    raw = bench.sent(session, chat_server, line, mode, shortlist=10)
    assert count(raw.decode()) <= target


def test_the_count_is_of_every_byte_sent_the_reply_schema_too(session, chat_server):
    _, count = bench.tokenizer()
    raw = bench.sent(session, chat_server, "please make the blue blobs disappear", "schema", shortlist=10)
    body = json.loads(raw)
    schema = json.dumps(body["response_format"], separators=(",", ":"))  # as the client writes it
    messages = "".join(m["content"] for m in body["messages"])
    assert count(schema) > 100, "schema mode sends the commands' schema"
    assert count(raw.decode()) >= count(messages) + count(schema)
