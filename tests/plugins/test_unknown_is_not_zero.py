"""Summaries of runs that report no cost or model say "unknown" (None), never 0 or a made-up name.

Issue #12: a cost the CLI did not report is not $0, and a model it did not
name is not the CLI's name. Each run below is shaped like its CLI's real
output with the cost and model fields left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable

import linewise_gemini
import linewise_grok
import linewise_opencode
import linewise_pi
import pytest
from linewise_contracts import RunSummary

GEMINI = [
    '{"type":"init","session_id":"s1"}',
    '{"type":"message","role":"assistant","content":"done","delta":true}',
    '{"type":"result","status":"success","stats":{"input_tokens":10,"output_tokens":2}}',
]
OPENCODE = [
    '{"type":"step_start","sessionID":"ses_1","part":{"type":"step-start"}}',
    '{"type":"text","sessionID":"ses_1","part":{"type":"text","text":"done"}}',
    json.dumps(
        {
            "type": "step_finish",
            "sessionID": "ses_1",
            "part": {"type": "step-finish", "reason": "stop", "tokens": {"input": 10, "output": 2}},
        }
    ),
]
GROK = [
    '{"type":"text","data":"done"}',
    '{"type":"usage","usage":{"input_tokens":10,"output_tokens":2}}',
    '{"type":"end","sessionId":"g1","stopReason":"end_turn"}',
]
PI = [
    '{"type":"session","id":"p1"}',
    json.dumps(
        {
            "type": "message_end",
            "message": {
                "role": "assistant",
                "content": [{"type": "text", "text": "done"}],
                "usage": {"input": 10, "output": 2},
                "stopReason": "stop",
            },
        }
    ),
    '{"type":"agent_end","messages":[]}',
]


@pytest.mark.parametrize(
    ("summarize", "lines"),
    [
        (linewise_gemini.summarize_run, GEMINI),
        (linewise_opencode.summarize_run, OPENCODE),
        (linewise_grok.summarize_run, GROK),
        (linewise_pi.summarize_run, PI),
    ],
    ids=["gemini", "opencode", "grok", "pi"],
)
def test_an_unreported_cost_and_model_are_unknown(
    summarize: Callable[[Iterable[str]], RunSummary], lines: list[str]
) -> None:
    summary = summarize(lines)
    assert summary.final_text == "done"  # the run was read
    assert summary.usage.input_tokens == 10
    assert summary.cost_usd is None
    assert summary.model is None
