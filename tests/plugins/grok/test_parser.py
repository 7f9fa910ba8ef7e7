"""The Grok streaming-json parser against the reference and the documented event stream."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import linewise
import linewise_grok
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_grok import create_stdout_parser, parse_stdout_line, sniff
from support import assert_valid_and_deterministic, corpus_json, corpus_path, parse_all, parse_flat

TS = "2026-01-01T00:00:00.000Z"
HERE = Path(__file__).parent
# A Grok 1.x run with tools, written from the vendor's documented streaming-json
# events (headless-mode guide: available_commands, thought, text, usage, tool_call,
# tool_call_update, plan, end); the corpus has no real Grok capture.
TOOL_RUN = Path(linewise_grok.__file__).parent / "samples" / "grok-1.0-tool-run.jsonl"


_parse_all = partial(parse_all, create_stdout_parser, ts=TS)
_flat = partial(parse_flat, create_stdout_parser, ts=TS)


def _tool_run() -> list[str]:
    return TOOL_RUN.read_text(encoding="utf-8").splitlines()


def _reference() -> dict[str, Any]:
    data: dict[str, Any] = corpus_json("paperclip", "grok-local", "expected.json")
    return data


# -- the reference ----------------------------------------------------------------------


def test_reference_ui_parser_cases_match_exactly() -> None:
    cases = _reference()["ui_parser"]
    assert len(cases) == 4
    for case in cases:
        assert case["output_asserted_exactly"]
        assert parse_stdout_line(case["line"], case["ts"]) == case["output"], case["test"]


def test_reference_stateful_parser_calls_match_in_order() -> None:
    """Every recorded call on a ``createGrokStdoutParser`` instance, replayed on ours.

    Covers the turn boundaries Grok's streaming glues together ("`" then "The"
    becomes "`\\nThe"; "returned" ":" "Confirmed" starts "Confirmed" on a new
    line), reset between transcripts, and assistant text left untouched.
    """
    parser = None
    replayed = 0
    for call in _reference()["stateful_ui_parser"]:
        if call["fn"] == "createGrokStdoutParser":
            parser = create_stdout_parser()
        elif call["fn"].endswith(".reset"):
            assert parser is not None
            parser.reset()
        else:
            assert parser is not None
            assert parser.parse_line(*call["args"]) == call["output"], call["test"]
            replayed += 1
    assert replayed == 20


def test_reference_turn_boundary_texts() -> None:
    glued = ["The user uses `", "ls", "`", "The", " `", "ls", "`", " returned"]
    entries = _flat([json.dumps({"type": "thought", "data": chunk}) for chunk in glued])
    assert "".join(entry["text"] for entry in entries) == "The user uses `ls`\nThe `ls` returned"
    colon = ["returned", ":", "Confirmed", ":", " 4 files"]
    entries = _flat([json.dumps({"type": "thought", "data": chunk}) for chunk in colon])
    assert "".join(entry["text"] for entry in entries) == "returned:\nConfirmed: 4 files"


def test_matches_the_reference_on_every_fixture_line() -> None:
    """The reference's output over its own server-stdout fixtures (one parser per file)."""
    derived = _reference()["derived_not_asserted"]["ui_parser"]
    by_file: dict[str, list[dict[str, Any]]] = {}
    for row in derived:
        by_file.setdefault(row["fixture"].split("#")[0], []).append(row)
    assert len(by_file) == 4
    for rows in by_file.values():
        parser = create_stdout_parser()
        for row in rows:
            assert parser.parse_line(row["line"], row["ts"]) == row["output"], row["fixture"]


def test_the_host_merges_streamed_text_like_the_reference_transcript_builder() -> None:
    chunks = [
        json.loads(line)
        for line in corpus_path("paperclip", "transcript-builder", "chunks-11.jsonl")
        .read_text(encoding="utf-8")
        .splitlines()
    ]
    cases = corpus_json("paperclip", "transcript-builder", "expected.json")["transcript_builder"]
    expected = next(case for case in cases if case.get("fixture") == "chunks-11.jsonl")
    assert expected["output_asserted_exactly"]
    transcript = linewise.build_transcript(chunks, "grok_local")
    assert transcript.adapter_type == "grok_local"
    assert transcript.entries == expected["output"]


# -- a run with tools (Grok 1.x) ------------------------------------------------------------


def test_a_run_with_tools_reads_as_a_transcript() -> None:
    transcript = linewise.build_transcript(
        [{"ts": TS, "stream": "stdout", "chunk": "\n".join(_tool_run()) + "\n"}], "grok_local"
    )
    diagnostics = transcript.diagnostics
    assert (
        diagnostics.fallback_lines == diagnostics.parser_errors == diagnostics.dropped_entries == 0
    )
    assert [
        (entry["kind"], entry.get("text", entry.get("name"))) for entry in transcript.entries
    ] == [
        ("thinking", "The user wants the failing test fixed."),
        ("assistant", "I'll run the tests first."),
        ("tool_call", "run_terminal_command"),
        ("tool_result", None),
        # A new response after the tool: its reasoning turn starts on a new line.
        ("thinking", "The add function returns a - b.\nFix it."),
        ("tool_call", "read_file"),
        ("tool_result", None),
        ("tool_call", "search_replace"),
        ("tool_result", None),
        ("system", "plan:\n- [completed] Fix add()\n- [pending] Re-run the tests"),
        ("assistant", "Fixed `add` in src/math.py."),
        ("system", "stop_reason=end_turn session=019fe742-5b1c-7c3e-9d1a-2f6b8e4c0a11"),
        ("result", "Fixed `add` in src/math.py."),
    ]


def test_tool_results_carry_the_id_name_and_outcome_of_their_call() -> None:
    entries = _flat(_tool_run())
    calls = {e["toolUseId"]: e for e in entries if e["kind"] == "tool_call"}
    results = [e for e in entries if e["kind"] == "tool_result"]
    assert calls["call-7f3a-0"]["input"] == {"command": "pytest -q"}
    assert [(r["toolUseId"], r["toolName"], r["isError"]) for r in results] == [
        ("call-7f3a-0", "run_terminal_command", True),
        ("call-7f3a-1", "read_file", False),
        ("call-7f3a-2", "search_replace", False),
    ]
    assert results[0]["content"] == "1 failed, 12 passed\nFAILED tests/test_math.py::test_add"
    # An edit's diff content reads as a diff.
    assert results[2]["content"] == (
        "--- src/math.py\n+++ src/math.py\n-    return a - b\n+    return a + b"
    )


def test_end_with_usage_adds_a_result_with_the_final_response() -> None:
    end = dict(_flat(_tool_run())[-1])
    # What the run summary reads (contracts 1.5, 1.9, 1.10; test_result_fields.py has the rest).
    fields = ("usage", "costSource", "turns", "outcome", "model")
    summary_fields = {key: end.pop(key) for key in fields}
    assert summary_fields == {
        "usage": {
            "uncachedInput": 2950,
            "cacheRead": 1600,
            "cacheWrite": 0,
            "output": 131,
            "reasoning": 64,
        },
        "costSource": "reported",
        "turns": 3,
        "outcome": "completed",
        "model": "grok-4.6-build",  # the end's first modelUsage model
    }
    assert end == {
        "kind": "result",
        "ts": TS,
        "text": "Fixed `add` in src/math.py.",
        "inputTokens": 2950,
        "outputTokens": 131,
        "cachedTokens": 1600,
        "costUsd": 0.0137,
        "subtype": "end_turn",
        "isError": False,
        "errors": [],
    }


def test_interim_events_produce_nothing_but_are_recognised() -> None:
    quiet = [
        '{"type":"available_commands","tools":["read_file"],"commands":["compact"]}',
        '{"type":"usage","messageId":"r1","stopReason":"tool_use","usage":{"input_tokens":1}}',
        '{"type":"tool_call_update","toolCallId":"c1","status":null,"locations":[]}',
        '{"type":"tool_call_update","toolCallId":"c1","status":"in_progress"}',
        '{"type":"thought","data":""}',
    ]
    assert _parse_all(quiet) == [[], [], [], [], []]


def test_a_new_response_streamed_right_after_the_last_starts_a_new_line() -> None:
    lines = [
        '{"type":"text","data":"Checking the config."}',
        '{"type":"usage","messageId":"r1","stopReason":"pause_turn","usage":{}}',
        '{"type":"text","data":"done"}',
    ]
    assert [e["text"] for e in _flat(lines)] == ["Checking the config.", "\ndone"]


def test_a_run_cut_off_before_end_still_gives_a_transcript() -> None:
    cut = _tool_run()[:10]
    kinds = [entry["kind"] for entry in _flat(cut)]
    assert kinds.count("tool_call") == 1 and kinds.count("tool_result") == 1
    assert "result" not in kinds and "system" not in kinds


@pytest.mark.parametrize(
    ("event", "text"),
    [
        (
            {"type": "error", "error": {"message": "Authentication required"}},
            "Authentication required",
        ),
        (
            # Verbatim from an unauthenticated `grok -p ... --output-format streaming-json`.
            {
                "type": "error",
                "message": "Not signed in. To authenticate without a browser, run:\n"
                "  grok login --device-code",
            },
            "Not signed in. To authenticate without a browser, run:\n  grok login --device-code",
        ),
        ({"type": "error", "data": "rate limited"}, "rate limited"),
        ({"type": "error", "error": {"code": "E429"}}, "E429"),
        ({"type": "error"}, "Grok error"),
    ],
)
def test_errors_become_stderr_with_their_message(event: dict[str, Any], text: str) -> None:
    assert parse_stdout_line(json.dumps(event), TS) == [{"kind": "stderr", "ts": TS, "text": text}]


@pytest.mark.parametrize(
    ("event", "text"),
    [
        ({"type": "end", "stopReason": "cancelled"}, "stop_reason=cancelled"),
        ({"type": "end"}, "run completed"),
        ({"type": "max_turns_reached", "limit": 50}, "max turns reached (limit 50)"),
        ({"type": "auto_compact_started"}, "context compact started"),
        ({"type": "plan", "entries": []}, "plan updated"),
        ({"type": "brand_new"}, "event: brand_new"),
        ({"no_type": True}, "event: unknown"),
    ],
)
def test_other_events_read_as_system_lines(event: dict[str, Any], text: str) -> None:
    assert parse_stdout_line(json.dumps(event), TS) == [{"kind": "system", "ts": TS, "text": text}]


@pytest.mark.parametrize("line", ["checking for updates...", "[1, 2]", "{broken", '"text"'])
def test_lines_that_are_not_json_objects_are_raw_stdout(line: str) -> None:
    assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


def test_a_tool_call_reported_finished_at_once_gives_its_result_too() -> None:
    line = json.dumps(
        {
            "type": "tool_call",
            "toolCallId": "c9",
            "title": "web_search",
            "status": "completed",
            "rawOutput": {"hits": 3},
        }
    )
    assert _flat([line]) == [
        {"kind": "tool_call", "ts": TS, "name": "web_search", "input": {}, "toolUseId": "c9"},
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "c9",
            "toolName": "web_search",
            "content": '{"hits":3}',
            "isError": False,
        },
    ]


def test_reset_forgets_turns_and_tool_names() -> None:
    parser = create_stdout_parser()
    parser.parse_line('{"type":"tool_call","toolCallId":"c1","toolName":"read_file"}', TS)
    parser.parse_line('{"type":"thought","data":"Done."}', TS)
    parser.reset()
    assert parser.parse_line('{"type":"thought","data":"Next"}', TS)[0]["text"] == "Next"
    result = parser.parse_line(
        '{"type":"tool_call_update","toolCallId":"c1","status":"completed"}', TS
    )
    assert "toolName" not in result[0]


# -- sniffing --------------------------------------------------------------------------------


def test_sniff_is_sure_of_grok_output() -> None:
    assert sniff(_tool_run()) == 1.0
    assert sniff(_tool_run()[1:12]) == 1.0
    for name in ("server-stdout-01.jsonl", "server-stdout-03.jsonl", "ui-lines.jsonl"):
        lines = (
            corpus_path("paperclip", "grok-local", name).read_text(encoding="utf-8").splitlines()
        )
        assert sniff(lines) >= 0.8, name


def test_the_host_detects_grok_output_by_itself() -> None:
    detection = linewise.detect_adapter(_tool_run())
    assert detection.detected and detection.adapter_type == "grok_local", detection.reason


def test_sniff_is_unsure_of_a_log_of_bare_errors() -> None:
    # Pi writes the same {"type":"error","message":...} shape.
    assert 0 < sniff(['{"type":"error","message":"Not signed in."}']) < 0.5


def test_sniff_gives_every_other_cli_a_low_score() -> None:
    scored = 0
    folders: set[str] = set()
    for path in sorted(corpus_path("real-logs").glob("*/*")):
        if path.parent.name == "grok" or path.suffix == ".md":
            continue
        lines = [line.strip() for line in path.read_text(encoding="utf-8").splitlines()][:40]
        assert sniff([line for line in lines if line]) < 0.5, path.name
        scored += 1
        folders.add(path.parent.name)
    # Every other CLI's logs, the newer Qwen Code stream and raw ACP traffic among them.
    assert scored >= 71
    assert {"claude", "codex", "gemini", "cursor", "opencode", "qwen", "acp"} <= folders
    # Other adapters' reference fixtures too, Pi's {"type":"usage","usage":{...}} among them.
    for path in sorted(corpus_path("paperclip").glob("*/*-*.json*")):
        if path.parent.name in ("grok-local", "transcript-builder"):
            continue
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        assert sniff(lines[:40]) < 0.5, f"{path.parent.name}/{path.name}"


# -- never raises, deterministic, valid ----------------------------------------------------

scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
)
keys = st.sampled_from(["type", "text", "message", "content", "path", "input_tokens", "x"])
# Shallow values keep generation cheap; the parser only ever looks one level down.
json_values = (
    scalars
    | st.lists(scalars, max_size=3)
    | st.dictionaries(keys, scalars | st.dictionaries(keys, scalars, max_size=2), max_size=3)
)
field_names = st.sampled_from(
    [
        "data",
        "message",
        "error",
        "stopReason",
        "sessionId",
        "usage",
        "total_cost_usd",
        "toolCallId",
        "toolName",
        "title",
        "status",
        "rawInput",
        "rawOutput",
        "content",
        "entries",
        "limit",
    ]
)


@st.composite
def grok_like_events(draw: st.DrawFn) -> dict[str, Any]:
    event: dict[str, Any] = {
        "type": draw(
            st.sampled_from(
                [
                    "thought",
                    "text",
                    "end",
                    "error",
                    "usage",
                    "tool_call",
                    "tool_call_update",
                    "plan",
                    "available_commands",
                    "auto_compact_started",
                    "other",
                ]
            )
        )
    }
    for _ in range(draw(st.integers(0, 4))):
        event[draw(field_names)] = draw(json_values)
    if draw(st.booleans()):
        event["content"] = draw(
            st.lists(
                st.fixed_dictionaries(
                    {"type": st.sampled_from(["content", "diff", "terminal", "x"])},
                    optional={"content": json_values, "path": scalars, "newText": scalars},
                ),
                max_size=3,
            )
        )
    return event


@given(st.lists(grok_like_events(), max_size=6))
def test_never_raises_and_always_returns_valid_entries_deterministically(
    events: list[dict[str, Any]],
) -> None:
    lines = [json.dumps(event) for event in events]
    assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)
    sniff(lines)


@given(st.text(max_size=40))
def test_any_text_is_handled(line: str) -> None:
    for entry in parse_stdout_line(line, TS):
        assert entry_problem(entry) is None
    assert 0.0 <= sniff([line]) <= 1.0


def test_grok_build_fixtures_are_recognised_and_structured_output_is_shown_whole() -> None:
    from linewise_grok import sniff

    path = corpus_path("field-samples", "grok-build", "grok-streaming-json-test-fixtures.jsonl")
    lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert sniff(lines) >= 0.8  # a tool_call without its id is Grok's shape too
    answer = {"verdict": "ok", "items": ["x" * 3000]}
    end = json.dumps({"type": "end", "stopReason": "end_turn", "structuredOutput": answer})
    entries = create_stdout_parser().parse_line(end, "t")
    shown = [entry["text"] for entry in entries if entry["text"].startswith("structured output:")]
    assert shown and json.loads(shown[0].split("\n", 1)[1]) == answer
