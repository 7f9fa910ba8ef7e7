"""Grok's token counts in the usage vocabulary, checked on the reference's lines and on lines written here.

Headless ``input_tokens`` are the uncached input; cache reads and writes are
beside them; ``reasoning_tokens`` are part of ``output_tokens``. The corpus has
no raw Grok capture of usage; integrators' fixtures and the reference's input
stand in.
"""

from __future__ import annotations

import json

from linewise_contracts import TokenUsage
from linewise_grok import summarize_run
from linewise_grok.summary import tokens_from
from support import corpus_path


def test_an_integrators_end_line_maps_field_by_field() -> None:
    lines = (
        corpus_path("field-samples", "grok-build", "grok-streaming-json-test-fixtures.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    end = next(line for line in lines if '"cache_read_input_tokens":3' in line)
    # {"usage": {"input_tokens": 10, "output_tokens": 4, "cache_read_input_tokens": 3}}
    summary = summarize_run([end])
    assert summary.token_usage == TokenUsage(uncached_input=10, cache_read=3, output=4)
    assert summary.token_usage.cache_write is None


def test_reasoning_is_the_part_of_output_and_cache_writes_stay_apart() -> None:
    usage = {
        "input_tokens": 20,
        "cache_creation_input_tokens": 500,
        "output_tokens": 40,
        "reasoning_tokens": 30,
    }
    assert tokens_from(usage) == TokenUsage(
        uncached_input=20, cache_write=500, output=40, reasoning=30
    )


def test_a_run_without_usage_has_unknown_tokens_and_a_cancel_is_an_interruption() -> None:
    summary = summarize_run(
        [json.dumps({"type": "end", "stopReason": "cancelled", "sessionId": "s"})]
    )
    assert summary.token_usage.is_empty
    assert summary.outcome == "interrupted"
    assert not summary.is_error
