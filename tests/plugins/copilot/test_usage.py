"""Copilot's token counts in the usage vocabulary, checked on real sessions and on a record written here.

``session.shutdown`` reports per model ``inputTokens``, ``outputTokens``,
``cacheReadTokens``, ``cacheWriteTokens`` and ``reasoningTokens``.
"""

from __future__ import annotations

import json

from linewise_contracts import TokenUsage
from linewise_copilot import summarize_run
from linewise_copilot.usage import shutdown_tokens
from support import corpus_path


def test_each_real_session_has_its_shutdown_metrics_per_model() -> None:
    paths = sorted(corpus_path("real-sessions", "copilot").glob("*.events.jsonl"))
    assert paths
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        metrics = json.loads(lines[-1])["data"]["modelMetrics"]
        summary = summarize_run(lines)
        assert set(summary.model_usage) == set(metrics)
        for model, numbers in metrics.items():
            usage = numbers["usage"]
            assert summary.model_usage[model] == TokenUsage(
                uncached_input=usage["inputTokens"],
                cache_read=usage["cacheReadTokens"],
                cache_write=usage["cacheWriteTokens"],
                output=usage["outputTokens"],
                reasoning=usage["reasoningTokens"],
            )
        assert summary.outcome == "completed"


def test_a_session_without_its_shutdown_has_unknown_tokens() -> None:
    record = {"type": "session.start", "data": {"sessionId": "s", "selectedModel": "gpt-5"}}
    summary = summarize_run([json.dumps(record)])
    assert summary.token_usage.is_empty
    assert summary.outcome == "cut_off" and not summary.complete
    assert shutdown_tokens(record) is None
    assert shutdown_tokens({"type": "session.shutdown", "data": {}}) == {}
