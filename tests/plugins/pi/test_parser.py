"""The Pi parser against the reference, realistic runs, and Pi's documented event shapes.

There is no captured Pi log in the corpus: the plugin's samples/ holds two runs written for
this repository from Pi's documented `--mode json` events (docs/json.md and
docs/rpc.md of badlogic/pi-mono), streamed block by block as pi-ai streams them.
"""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import linewise
import linewise_pi
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_pi import create_stdout_parser, parse_stdout_line, sniff
from support import (
    assert_valid_and_deterministic,
    corpus_json,
    corpus_path,
    parse_all,
    parse_flat,
    small_json_values,
)

TS = "2026-01-01T00:00:00.000Z"
FIXTURES = Path(linewise_pi.__file__).parent / "samples"


_parse_all = partial(parse_all, create_stdout_parser, ts=TS)
_flat = partial(parse_flat, create_stdout_parser, ts=TS)


def _fixture(name: str) -> list[str]:
    return (FIXTURES / name).read_text(encoding="utf-8").splitlines()


def _summary(entries: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """Each entry as (kind, its text or tool name), deltas merged as the host merges them."""
    return [
        (e["kind"], e.get("text") or e.get("name") or e.get("toolName") or "")
        for e in linewise.merge_deltas(entries)
    ]


# -- the reference -----------------------------------------------------------------------

# Lines the reference leaves as raw stdout, or turns into less than they say.
IMPROVED = {
    "server-stdout-01.jsonl#L3": [  # agent_end: "✅ Pi agent finished" there, the run's result here
        {
            "kind": "result",
            "ts": TS,
            "text": "",
            "inputTokens": 0,
            "outputTokens": 0,
            "cachedTokens": 0,
            "costUsd": 0.0,
            "subtype": "",
            "isError": False,
            "errors": [],
        }
    ],
    "server-stdout-03.jsonl#L3": [  # a turn_end result without its tool's name: "tool" there
        {"kind": "assistant", "ts": TS, "text": "Done"},
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "tool_1",
            "content": "file contents",
            "isError": False,
        },
    ],
    "server-stdout-07.jsonl#L1": [
        {"kind": "system", "ts": TS, "text": "usage: in=200 out=100 cached=50 cost=$0.005000"}
    ],
    "server-stdout-08.jsonl#L1": [
        {"kind": "system", "ts": TS, "text": "usage: in=150 out=75 cached=25 cost=$0.003000"}
    ],
    "server-stdout-09.jsonl#L1": [
        {
            "kind": "stderr",
            "ts": TS,
            "text": "gave up after 3 attempts: Cloud Code Assist API error (429): RESOURCE_EXHAUSTED",
        }
    ],
    "server-stdout-10.jsonl#L1": [
        {"kind": "system", "ts": TS, "text": "retry succeeded (attempt 2)"}
    ],
    "server-stdout-11.jsonl#L1": [
        {"kind": "stderr", "ts": TS, "text": "Connection to model provider lost"}
    ],
    "server-stdout-12.jsonl#L1": [
        {"kind": "stderr", "ts": TS, "text": '{"type":"error","message":""}'}
    ],
}


#: A result's run-summary fields (contracts 1.5 and 1.9), newer than the reference.
_SUMMARY_FIELDS = ("usage", "costSource", "outcome", "sessionId", "turns", "modelUsage")


def _as_reference(entry: Any) -> Any:
    """A result entry as the reference (contract 1.4) writes it: without the summary fields."""
    if entry["kind"] != "result":
        return entry
    return {key: value for key, value in entry.items() if key not in _SUMMARY_FIELDS}


def test_reference_line_output_is_matched_or_improved() -> None:
    """The reference's output over every Pi fixture line (not pinned by its tests)."""
    cases = corpus_json("paperclip", "pi-local", "expected.json")["derived_not_asserted"]
    cases = [case for case in cases["ui_parser"] if case["fn"] == "parsePiStdoutLine"]
    assert len(cases) == 20
    for case in cases:
        ours = [_as_reference(entry) for entry in parse_stdout_line(case["line"], case["ts"])]
        if case["fixture"] in IMPROVED:
            assert case["output"] != ours
            assert ours == IMPROVED[case["fixture"]], case["fixture"]
        else:
            assert ours == case["output"], case["fixture"]


def test_the_reference_fixtures_through_the_stateful_parser_show_each_thing_once() -> None:
    """Streamed text is not repeated by turn_end, nor a tool result already reported."""
    root = corpus_json("paperclip", "pi-local", "expected.json")  # skips without the corpus
    assert root["adapter"] == "pi-local"
    streamed = [
        '{"type":"message_update","assistantMessageEvent":{"type":"text_delta","delta":"Hello "}}',
        '{"type":"message_update","assistantMessageEvent":{"type":"text_delta","delta":"World"}}',
        '{"type":"turn_end","message":{"role":"assistant","content":"Hello World"}}',
    ]
    assert _summary(_flat(streamed)) == [("assistant", "Hello World")]
    tools = [
        '{"type":"tool_execution_start","toolCallId":"tool_1","toolName":"read","args":{"path":"/tmp/test.txt"}}',
        '{"type":"tool_execution_end","toolCallId":"tool_1","toolName":"read","result":"file contents","isError":false}',
        '{"type":"turn_end","message":{"role":"assistant","content":"Done"},"toolResults":[{"toolCallId":"tool_1","content":"file contents","isError":false}]}',
    ]
    assert _summary(_flat(tools)) == [
        ("tool_call", "read"),
        ("tool_result", "read"),
        ("assistant", "Done"),
    ]


def test_no_state_is_shared_between_parsers_or_kept_by_the_stateless_function() -> None:
    """The reference keeps module-level state; here only a parser instance remembers."""
    line = '{"type":"turn_end","message":{"role":"assistant","content":"Done"}}'
    first = create_stdout_parser()
    first.parse_line(
        '{"type":"message_update","assistantMessageEvent":{"type":"text_delta","delta":"Do"}}', TS
    )
    assert first.parse_line(line, TS) == []  # it streamed this message already
    assert create_stdout_parser().parse_line(line, TS) == [
        {"kind": "assistant", "ts": TS, "text": "Done"}
    ]
    assert parse_stdout_line(line, TS) == parse_stdout_line(line, TS) != []


# -- realistic runs -------------------------------------------------------------------------


def test_a_run_reads_as_a_transcript() -> None:
    entries = _flat(_fixture("pi-json-run.jsonl"))
    answer = "There are 3 Python files in src:\n- src/shop/__init__.py\n- src/shop/cart.py\n- src/shop/pricing.py"
    assert _summary(entries) == [
        ("init", ""),
        ("system", "🚀 Pi agent started"),
        ("user", "How many Python files are in src? List them."),
        ("system", "model: anthropic/claude-sonnet-4-5"),
        ("thinking", "The user wants the Python files under src, with a count."),
        ("assistant", "I'll list the Python files in src."),
        ("tool_call", "bash"),
        ("tool_result", "bash"),
        ("assistant", answer),
        ("result", answer),
    ]
    assert entries[0] == {
        "kind": "init",
        "ts": TS,
        "model": "unknown",  # the session header names no model; the next system entry does
        "sessionId": "0199c2d4-8a1e-7c3b-9f1a-2d5e6f7a8b9c",
    }
    call, result = (e for e in entries if e["kind"].startswith("tool"))
    assert call == {
        "kind": "tool_call",
        "ts": TS,
        "name": "bash",
        "input": {"command": "find src -name '*.py' | sort"},
        "toolUseId": "toolu_01Hq7KpX2vUu9mN3bRw5sT8e",
    }
    assert result == {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": call["toolUseId"],
        "toolName": "bash",
        "content": "src/shop/__init__.py\nsrc/shop/cart.py\nsrc/shop/pricing.py\n",
        "isError": False,
    }
    # What the run summary reads (contracts 1.5, 1.10; test_result_fields.py has the rest).
    final = dict(entries[-1])
    fields = ("usage", "costSource", "outcome", "model")
    summary_fields = {key: final.pop(key) for key in fields}
    assert summary_fields == {
        "usage": {
            "uncachedInput": 1840 + 212,
            "cacheRead": 3376,
            "cacheWrite": 1536,
            "output": 96 + 41,
            "reasoning": None,
        },
        "costSource": "reported",
        "outcome": "completed",
        "model": "claude-sonnet-4-5",  # the init named none: the result names its messages'
    }
    assert final == {
        "kind": "result",
        "ts": TS,
        "text": answer,
        "inputTokens": 1840 + 1536 + 212,  # cache writes count as input
        "outputTokens": 96 + 41,
        "cachedTokens": 3376,
        "costUsd": pytest.approx(0.0149838),
        "subtype": "stop",
        "isError": False,
        "errors": [],
    }


def test_text_and_thinking_stream_as_deltas() -> None:
    entries = _flat(_fixture("pi-json-run.jsonl"))
    deltas = [(e["kind"], e["text"]) for e in entries if e.get("delta")]
    assert deltas[:4] == [
        ("thinking", "The user wants the Python files"),
        ("thinking", " under src, with a count."),
        ("assistant", "I'll list the "),
        ("assistant", "Python files in src."),
    ]


def test_retries_compaction_and_failures_are_shown() -> None:
    entries = _flat(_fixture("pi-json-retry-compaction.jsonl"))
    assert _summary(entries)[1:] == [
        ("system", "🚀 Pi agent started"),
        ("user", "Summarise docs/pricing.md"),
        ("system", "model: anthropic/claude-sonnet-4-5"),
        ("stderr", "529 overloaded_error: Overloaded"),
        ("system", "retry 1/3 in 2.0s: 529 overloaded_error: Overloaded"),
        ("assistant", "Reading the pricing notes."),
        ("system", "retry succeeded (attempt 2)"),
        ("tool_call", "read"),
        ("tool_result", "read"),
        ("system", "context compaction started (threshold)"),
        ("system", "context compacted (151204 tokens before)"),
        ("stderr", "/home/dev/.pi/agent/extensions/notify.ts failed in tool_result: fetch failed"),
        ("assistant", "docs/pricing.md does not exist, so there is nothing to summarise."),
        ("result", "docs/pricing.md does not exist, so there is nothing to summarise."),
    ]
    failed = next(e for e in entries if e["kind"] == "tool_result")
    assert failed["isError"] is True and failed["content"].startswith("ENOENT")


@pytest.mark.parametrize("name", ["pi-json-run.jsonl", "pi-json-retry-compaction.jsonl"])
def test_every_event_is_recognised_and_every_entry_valid(name: str) -> None:
    lines = _fixture(name)
    quiet = Counter[str]()
    for line, entries in zip(lines, _parse_all(lines), strict=True):
        kinds = [entry["kind"] for entry in entries]
        assert "stdout" not in kinds, line[:80]
        for entry in entries:
            assert entry_problem(entry) is None, entry_problem(entry)
        if not entries:
            quiet[json.loads(line)["type"]] += 1
    # Only events whose content another event carries give nothing.
    assert set(quiet) <= {
        "turn_start",
        "message_start",
        "message_update",
        "message_end",
        "turn_end",
        "tool_execution_update",
    }


def test_a_run_cut_off_mid_message_still_gives_a_transcript() -> None:
    lines = _fixture("pi-json-run.jsonl")
    cut = lines[: next(i for i, line in enumerate(lines) if '"text_delta"' in line) + 1]
    summary = _summary(_flat(cut))
    assert summary[-1] == ("assistant", "I'll list the ")
    assert [kind for kind, _ in summary].count("result") == 0


# -- shapes of Pi's documentation the fixtures do not show ---------------------------------


def test_rpc_responses_show_only_refusals() -> None:
    lines = [
        '{"id":"req-1","type":"response","command":"prompt","success":true}',
        '{"type":"response","command":"set_model","success":false,"error":"Model not found: invalid/model"}',
    ]
    assert _flat(lines) == [
        {"kind": "stderr", "ts": TS, "text": "set_model failed: Model not found: invalid/model"}
    ]


def test_an_assistant_message_that_failed_says_why() -> None:
    line = json.dumps(
        {
            "type": "message_end",
            "message": {"role": "assistant", "content": [], "stopReason": "aborted"},
        }
    )
    assert parse_stdout_line(line, TS) == [
        {"kind": "stderr", "ts": TS, "text": "Pi request aborted."}
    ]


@pytest.mark.parametrize(
    ("message", "text"),
    [
        (
            {"role": "bashExecution", "command": "ls", "output": "a.py\n", "exitCode": 0},
            "user ran `ls` (exit 0)\na.py",
        ),
        (
            {
                "role": "compactionSummary",
                "summary": "Earlier: fixed the cart.",
                "tokensBefore": 9000,
            },
            "compaction summary: Earlier: fixed the cart.",
        ),
        ({"role": "custom", "customType": "todo", "content": "write tests"}, "todo: write tests"),
    ],
)
def test_pi_custom_messages_read_as_system_entries(message: dict[str, Any], text: str) -> None:
    line = json.dumps({"type": "message_end", "message": message})
    assert parse_stdout_line(line, TS) == [{"kind": "system", "ts": TS, "text": text}]


def test_the_stateless_parser_repeats_what_it_cannot_know_was_streamed() -> None:
    lines = _fixture("pi-json-run.jsonl")
    message_end = next(
        line for line in lines if '"type":"message_end"' in line and '"toolUse"' in line
    )
    assert [e["kind"] for e in parse_stdout_line(message_end, TS)] == ["thinking", "assistant"]


def test_a_turn_whose_message_never_ended_is_shown_from_turn_end() -> None:
    lines = [
        '{"type":"message_update","assistantMessageEvent":{"type":"toolcall_delta","delta":"{\\"path\\""}}',
        '{"type":"turn_end","message":{"role":"assistant","content":[{"type":"text","text":"Reading."}]}}',
    ]
    assert _flat(lines) == [{"kind": "assistant", "ts": TS, "text": "Reading."}]


def test_reset_forgets_what_was_streamed() -> None:
    parser = create_stdout_parser()
    parser.parse_line(
        '{"type":"message_update","assistantMessageEvent":{"type":"text_delta","delta":"Hi"}}', TS
    )
    parser.reset()
    assert parser.parse_line(
        '{"type":"turn_end","message":{"role":"assistant","content":"Hi"}}', TS
    ) == [{"kind": "assistant", "ts": TS, "text": "Hi"}]


@pytest.mark.parametrize(
    "line",
    [
        "[paperclip] Pi session resumed",
        "[1, 2]",
        '{"no_type": true}',
        '{"type": "mystery"}',
        "{broken",
    ],
)
def test_lines_that_are_not_pi_events_are_raw_stdout(line: str) -> None:
    assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


event_types = st.sampled_from(
    [
        "session",
        "agent_start",
        "agent_end",
        "turn_start",
        "turn_end",
        "message_start",
        "message_update",
        "message_end",
        "tool_execution_start",
        "tool_execution_update",
        "tool_execution_end",
        "auto_compaction_end",
        "auto_retry_start",
        "auto_retry_end",
        "extension_error",
        "usage",
        "error",
        "response",
    ]
)
field_names = st.sampled_from(
    [
        "id",
        "message",
        "messages",
        "toolResults",
        "assistantMessageEvent",
        "toolCallId",
        "toolName",
        "args",
        "result",
        "isError",
        "usage",
        "success",
        "attempt",
        "finalError",
        "errorMessage",
        "error",
        "command",
    ]
)
messages = st.fixed_dictionaries(
    {"role": st.sampled_from(["assistant", "user", "toolResult", "bashExecution", "custom", "x"])},
    optional={
        "content": small_json_values
        | st.lists(
            st.fixed_dictionaries(
                {"type": st.sampled_from(["text", "thinking", "toolCall", "image"])},
                optional=dict.fromkeys(["text", "thinking", "arguments"], small_json_values),
            ),
            max_size=3,
        ),
        "usage": small_json_values
        | st.fixed_dictionaries(
            {},
            optional=dict.fromkeys(
                ["input", "output", "cacheRead", "cacheWrite", "cost"], small_json_values
            ),
        ),
        "stopReason": st.sampled_from(["stop", "error", "aborted", "toolUse"]) | small_json_values,
        "errorMessage": small_json_values,
        "model": small_json_values,
        "provider": small_json_values,
    },
)


@st.composite
def pi_like_events(draw: st.DrawFn) -> dict[str, Any]:
    event: dict[str, Any] = {"type": draw(event_types)}
    for _ in range(draw(st.integers(0, 3))):
        event[draw(field_names)] = draw(small_json_values)
    if draw(st.booleans()):
        event["message"] = draw(messages)
    if draw(st.booleans()):
        event["assistantMessageEvent"] = {
            "type": draw(
                st.sampled_from(["text_delta", "thinking_delta", "toolcall_delta", "done"])
            ),
            "delta": draw(small_json_values),
        }
    if draw(st.booleans()):
        event["messages" if draw(st.booleans()) else "toolResults"] = draw(
            st.lists(messages, max_size=3)
        )
    return event


@given(st.lists(pi_like_events(), max_size=8))
def test_never_raises_and_always_returns_valid_entries_deterministically(
    events: list[dict[str, Any]],
) -> None:
    lines = [json.dumps(event) for event in events]
    assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)


def test_pi_0_66_compaction_and_queue_events_are_read_not_raw() -> None:
    path = corpus_path("field-samples", "pi", "pi-0.66-compaction-queue-events.jsonl")
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    parser = create_stdout_parser()
    entries = [entry for line in lines for entry in parser.parse_line(line, "2026-01-01T00:00:00Z")]
    assert [entry["text"] for entry in entries] == [
        "queue: steering: new instruction",
        "context compaction started (threshold)",
        "context compacted (40000 tokens before)",
        "context compaction started (manual)",
        "context compacted",
    ]
    assert sniff(lines) >= 0.85
