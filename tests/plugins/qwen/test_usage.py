"""Qwen Code's token counts in the usage vocabulary, checked on real records and on ones written here.

A request's ``input_token_count`` includes its cached tokens; its
``output_token_count`` includes its thought tokens.
"""

from __future__ import annotations

import json

from linewise_contracts import TokenUsage
from linewise_qwen.session import summarize_run
from linewise_qwen.usage import request_tokens
from support import corpus_path

SESSION = "lantern-qwen-0.21.6-a719f84a-209d-406a-8e6c-dc671c9c0192.jsonl"


def test_a_real_session_adds_up_to_the_usage_record_qwen_wrote_for_it() -> None:
    lines = corpus_path("real-sessions", "qwen", SESSION).read_text(encoding="utf-8").splitlines()
    summary = summarize_run(lines)
    record = next(
        json.loads(line)
        for line in corpus_path("real-sessions", "qwen", "lantern-qwen-0.21.6-usage_record.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
        if SESSION.split("-0.21.6-")[1].startswith(json.loads(line)["sessionId"])
    )
    [(model, numbers)] = record["models"].items()
    expected = TokenUsage(
        uncached_input=numbers["inputTokens"] - numbers["cachedTokens"],
        cache_read=numbers["cachedTokens"],
        output=numbers["outputTokens"],
        reasoning=numbers["thoughtsTokens"],
    )
    assert summary.token_usage == expected
    assert summary.model_usage == {model: expected}
    assert summary.outcome == "completed"


def _response(**counts: int) -> dict[str, object]:
    event = {"event.name": "qwen-code.api_response", "model": "qwen3-coder", **counts}
    return {"type": "system", "systemPayload": {"uiEvent": event}}


def test_cached_tokens_come_out_of_input_and_thoughts_stay_inside_output() -> None:
    tokens = request_tokens(
        _response(
            input_token_count=1000,
            cached_content_token_count=400,
            output_token_count=90,
            thoughts_token_count=60,
        )
    )
    assert tokens == TokenUsage(uncached_input=600, cache_read=400, output=90, reasoning=60)
    assert request_tokens(_response()) == TokenUsage()
    assert request_tokens({"type": "user"}) is None
