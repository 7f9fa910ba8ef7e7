"""Summaries of runs that report no cost or model say "unknown" (None), never 0 or a made-up name.

Issue #12: a cost the CLI did not report is not $0, and a model it did not
name is not the CLI's name. Each run below is shaped like its CLI's real
output with the cost and model fields left out.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path

import linewise_gemini
import linewise_grok
import linewise_opencode
import linewise_pi
import pytest
from linewise.transcript.run_report import summarize_log
from linewise_contracts import RunSummary
from support import REPO

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


SAMPLES = sorted(
    path
    for path in (REPO / "plugins").glob("*/src/*/samples/**/*")
    if path.is_file() and path.suffix in (".jsonl", ".txt", ".log")
)
#: The fields agent CLIs state their round trips in (Claude Code, Qwen, Antigravity, Grok:
#: ``num_turns``; Droid: ``numTurns``).
TURN_FIELDS = ('"num_turns"', '"numTurns"')


@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: str(path.relative_to(REPO / "plugins")))
def test_a_summary_states_turns_only_where_its_cli_reported_them(path: Path) -> None:
    """``turns`` is the model's round trips as the CLI counts them: a prompt, a step or a
    ``turn_end`` a plugin counts goes in ``details``, and no count is None, not 0."""
    summary = summarize_log(path).summary
    reported = any(field in path.read_text(encoding="utf-8") for field in TURN_FIELDS)
    assert (summary.turns is not None) == reported, summary.details


def test_the_samples_include_runs_with_and_without_a_reported_turn_count() -> None:
    texts = [path.read_text(encoding="utf-8") for path in SAMPLES]
    reported = [any(field in text for field in TURN_FIELDS) for text in texts]
    assert any(reported) and not all(reported)
