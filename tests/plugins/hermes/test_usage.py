"""Hermes's token counts in the usage vocabulary: unknown unless Hermes printed them.

Hermes's normal output carries no usage (none of the real transcriptions in
the corpus has any); a "tokens: N input ... M output" line is one input
count with no cache split, read as uncached input with the cache unknown.
"""

from __future__ import annotations

import pytest
from linewise_contracts import TokenUsage
from linewise_hermes import summarize_run
from support import corpus_path


@pytest.mark.parametrize(
    "name",
    [
        "issue-62480-chat-Q-failure.txt",
        "issue-62480-chat-q-tool-progress.txt",
        "pr-11024-quiet-before-fix.txt",
    ],
)
def test_a_real_transcription_without_usage_has_unknown_tokens_not_zero(name: str) -> None:
    lines = corpus_path("real-logs", "hermes", name).read_text(encoding="utf-8").splitlines()
    summary = summarize_run(lines)
    assert summary.token_usage.is_empty
    assert summary.cost_usd is None and summary.cost_source is None


def test_a_printed_usage_line_is_uncached_input_and_output_with_the_cache_unknown() -> None:
    summary = summarize_run(["[hermes] tokens: 1200 input, 300 output; cost: $0.0123", "Done."])
    assert summary.token_usage == TokenUsage(uncached_input=1200, output=300)
    assert summary.token_usage.cache_read is None
    assert summary.cost_usd == pytest.approx(0.0123)
    assert summary.cost_source == "reported"
