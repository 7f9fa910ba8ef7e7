"""The real ACP captures of ../shared/corpus/real-logs/acp: every line becomes proper entries."""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise import detect_adapter
from linewise_acp import create_stdout_parser, summarize_run
from linewise_contracts import entry_problem
from support import corpus_path, numbered_lines

TS = "2026-01-01T00:00:00.000Z"
BARE = "acplazybridge-codex-cli-acp-T033c_output_20250927_021903-bare-notifications.jsonl"
WRAPPED = "acplazybridge-codex-cli-acp-T033c_output_20250927_035237.jsonl"


def _captures() -> list[Path]:
    paths = sorted(corpus_path("real-logs", "acp").glob("*.jsonl"))
    assert len(paths) == 2
    return paths


def test_every_line_of_every_capture_becomes_proper_entries() -> None:
    total = 0
    for path in _captures():
        parser = create_stdout_parser()
        calls: set[str] = set()
        for number, line in numbered_lines(path):
            entries = parser.parse_line(line, TS)
            total += 1
            assert entries, f"{path.name}:{number} gave no entry"
            for entry in entries:
                assert entry_problem(entry) is None, (path.name, number, entry)
                assert entry["kind"] != "stdout", f"{path.name}:{number} left raw"
                if entry["kind"] == "tool_call" and "toolUseId" in entry:
                    calls.add(entry["toolUseId"])
                if entry["kind"] == "tool_result":
                    assert entry["toolUseId"] in calls, (path.name, number)
    assert total == 14


@pytest.mark.parametrize("name", [BARE, WRAPPED])
def test_a_capture_reads_as_one_turn_said_once(name: str) -> None:
    """Both captures: initialize, session/new, mode, "Hello" "!" and the whole "Hello!" again.

    The bare-notifications file lost the JSON-RPC envelope of its updates; the
    parser reads them the same. The bridge's last chunk repeats the whole
    message: it is said once, with a system note.
    """
    path = corpus_path("real-logs", "acp", name)
    parser = create_stdout_parser()
    entries = [e for _, line in numbered_lines(path) for e in parser.parse_line(line, TS)]
    assert [e["kind"] for e in entries] == [
        "system",
        "init",
        "system",
        "assistant",
        "assistant",
        "system",
        "result",
    ]
    assert entries[0]["text"] == "ACP initialized (protocol 1)"  # type: ignore[typeddict-item]
    assert entries[1]["model"] == ""  # type: ignore[typeddict-item]  # not named: not invented
    assert entries[1]["sessionId"].startswith("session-")  # type: ignore[typeddict-item]
    assert entries[2]["text"] == "mode: gpt-5-codex"  # type: ignore[typeddict-item]
    text = "".join(e["text"] for e in entries if e["kind"] == "assistant")  # type: ignore[typeddict-item]
    assert text == "Hello!"
    assert "re-sent its whole assistant message" in entries[5]["text"]  # type: ignore[typeddict-item]
    result = entries[6]
    assert result["subtype"] == "end_turn" and result["isError"] is False  # type: ignore[typeddict-item]
    assert result["text"] == "Hello!"  # type: ignore[typeddict-item]


@pytest.mark.parametrize("name", [BARE, WRAPPED])
def test_the_summary_of_a_capture_knows_no_usage_cost_or_model(name: str) -> None:
    path = corpus_path("real-logs", "acp", name)
    summary = summarize_run(path.read_text(encoding="utf-8").splitlines())
    assert summary.session_id is not None and summary.session_id.startswith("session-")
    assert summary.model is None
    assert summary.cost_usd is None
    assert summary.details["usageBasis"] == "none"
    assert summary.outcome == "completed"
    assert summary.details["stopReason"] == "end_turn"
    assert summary.token_usage.is_empty  # the captures carry no usage: unknown, not zero
    assert summary.complete and not summary.is_error
    assert summary.final_text == "Hello!"
    # One prompt result; ACP reports no count of the model's round trips.
    assert summary.turns is None and summary.details["prompts"] == 1


def test_the_captures_are_detected_as_acp() -> None:
    for path in _captures():
        lines = [line for _, line in numbered_lines(path)]
        assert detect_adapter(lines).adapter_type == "acp", path.name
