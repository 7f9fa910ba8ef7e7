"""Pi's token counts in the usage vocabulary, checked on the reference's lines and on lines written here.

Pi's counts are disjoint (``totalTokens`` = input + output + cacheRead +
cacheWrite), so ``input`` is the uncached input. The corpus has no raw Pi
capture; the reference implementation's inputs stand in.
"""

from __future__ import annotations

import json

from linewise_contracts import TokenUsage
from linewise_pi import summarize_run
from linewise_pi.parser import message_tokens
from support import corpus_path


def test_the_reference_runs_usage_is_disjoint_and_adds_up_to_pis_total() -> None:
    lines = (
        corpus_path("paperclip", "pi-local", "server-stdout-05.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    summary = summarize_run(lines)
    # usage: {"input": 100, "output": 50, "cacheRead": 20, "totalTokens": 170, ...}
    assert summary.token_usage == TokenUsage(uncached_input=100, cache_read=20, output=50)
    assert summary.token_usage.total == 170
    assert summary.cost_source == "reported"


def test_a_message_maps_field_by_field_and_missing_counts_stay_unknown() -> None:
    message = {"usage": {"input": 7, "output": 3, "cacheRead": 90, "cacheWrite": 40}}
    assert message_tokens(message) == TokenUsage(
        uncached_input=7, cache_read=90, cache_write=40, output=3
    )
    assert message_tokens({}) == TokenUsage()


def test_an_aborted_run_is_interrupted_not_failed() -> None:
    lines = [
        '{"type":"agent_start"}',
        json.dumps(
            {
                "type": "turn_end",
                "message": {"role": "assistant", "stopReason": "aborted", "content": []},
            }
        ),
        '{"type":"agent_end","messages":[]}',
    ]
    summary = summarize_run(lines)
    assert summary.outcome == "interrupted"
    assert not summary.is_error
