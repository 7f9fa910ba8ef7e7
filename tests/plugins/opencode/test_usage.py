"""OpenCode's token counts in the usage vocabulary, checked on real lines and on lines written here.

A step's ``input`` is the uncached input, ``cache.read`` / ``cache.write`` the
cache reads and writes; ``reasoning`` is inside ``output`` in some releases and
beside it in others, which the step's ``total`` tells.
"""

from __future__ import annotations

import json

from linewise_contracts import TokenUsage
from linewise_opencode import summarize_run
from linewise_opencode.usage import message_tokens, step_tokens
from support import corpus_path


def test_every_real_run_adds_up_its_steps_with_reasoning_inside_output() -> None:
    for path in sorted(corpus_path("real-logs", "opencode").iterdir()):
        lines = path.read_text(encoding="utf-8").splitlines()
        steps = [
            json.loads(line)["part"]["tokens"] for line in lines if '"type":"step_finish"' in line
        ]
        summary = summarize_run(lines)
        tokens = summary.token_usage
        assert tokens.uncached_input == sum(step["input"] for step in steps), path.name
        assert tokens.cache_read == sum(step["cache"]["read"] for step in steps)
        assert tokens.cache_write == sum(step["cache"]["write"] for step in steps)
        # OpenCode's own total: every token once, reasoning inside output or beside it
        totals = [step.get("total") for step in steps]
        if None not in totals:
            assert tokens.total == sum(totals), path.name
        assert tokens.reasoning == sum(step["reasoning"] for step in steps)


def test_a_step_maps_field_by_field_and_missing_counts_stay_unknown() -> None:
    # total = input + output + cache.read: the 21 reasoning tokens are inside the 169 output
    inside = {"total": 23954, "input": 8169, "output": 169, "reasoning": 21,
              "cache": {"write": 0, "read": 15616}}  # fmt: skip
    assert step_tokens(inside) == TokenUsage(
        uncached_input=8169, cache_read=15616, cache_write=0, output=169, reasoning=21
    )
    # total = input + output + reasoning: counted beside, so added to output
    beside = {"total": 12083, "input": 12019, "output": 32, "reasoning": 32,
              "cache": {"write": 0, "read": 0}}  # fmt: skip
    assert step_tokens(beside).output == 64
    assert step_tokens(beside).total == 12083
    assert step_tokens({"input": 5}) == TokenUsage(uncached_input=5)
    stored = {"info": {"role": "assistant"}, "parts": [{"type": "step-finish", "tokens": inside}]}
    assert message_tokens(stored) == step_tokens(inside)
    assert message_tokens({"info": {"role": "user"}, "parts": [{"type": "text"}]}) is None
