"""pi_session: the sessions Pi keeps in ~/.pi/agent/sessions/--<cwd>--/<time>_<uuid>.jsonl."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from linewise_contracts.usage import TokenUsage
from linewise_droid import session as droid_session
from linewise_pi import session, sniff
from session_checks import listed, plant_hostile, problems, render, rendered, session_entries
from support import corpus_path

SESSION = "5f0c1a2b-3c4d-4e5f-8a9b-0c1d2e3f4a5b"
FOLDER = "--home-ada-project--"


def _usage(uncached: int, output: int, read: int, write: int, cost: float | None) -> dict[str, Any]:
    usage: dict[str, Any] = {
        "input": uncached,
        "output": output,
        "cacheRead": read,
        "cacheWrite": write,
        "totalTokens": uncached + output + read + write,
    }
    if cost is not None:
        usage["cost"] = {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": cost}
    return usage


def _entry(ident: str, parent: str | None, second: int, **fields: Any) -> dict[str, Any]:
    return {
        "id": ident,
        "parentId": parent,
        "timestamp": f"2026-11-20T09:00:{second:02d}.000Z",
        **fields,
    }


def _message(ident: str, parent: str | None, second: int, **message: Any) -> dict[str, Any]:
    return _entry(ident, parent, second, type="message", message=message)


def _assistant(content: list[dict[str, Any]], usage: dict[str, Any], stop: str) -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": content,
        "api": "anthropic-messages",
        "provider": "anthropic",
        "model": "claude-sonnet-4-5",
        "usage": usage,
        "stopReason": stop,
        "timestamp": 1,
    }


# A version 3 session: a prompt, a tool call and its result, an answer, then the person
# went back to the first answer with /tree and asked again on another model (a branch).
RECORDS: list[dict[str, Any]] = [
    {
        "type": "session",
        "version": 3,
        "id": SESSION,
        "timestamp": "2026-11-20T09:00:00.000Z",
        "cwd": "/home/ada/project",
    },
    _entry("a0000001", None, 1, type="thinking_level_change", thinkingLevel="high"),
    _message("a0000002", "a0000001", 2, role="user", content="Count the TODOs", timestamp=1),
    _message(
        "a0000003",
        "a0000002",
        3,
        **_assistant(
            [
                {"type": "thinking", "thinking": "grep will do"},
                {
                    "type": "toolCall",
                    "id": "call_1",
                    "name": "bash",
                    "arguments": {"command": "grep -c TODO *"},
                },
            ],
            _usage(1200, 80, 0, 1500, 0.012),
            "toolUse",
        ),
    ),
    _message(
        "a0000004",
        "a0000003",
        4,
        role="toolResult",
        toolCallId="call_1",
        toolName="bash",
        content=[{"type": "text", "text": "7"}],
        isError=False,
        timestamp=1,
    ),
    _message(
        "a0000005",
        "a0000004",
        5,
        **_assistant(
            [{"type": "text", "text": "There are 7."}], _usage(20, 10, 2700, 0, 0.002), "stop"
        ),
    ),
    _entry("a0000006", "a0000005", 6, type="session_info", name="TODO count"),
    _entry(
        "a0000007", "a0000003", 7, type="branch_summary", fromId="a0000005", summary="Counted 7"
    ),
    _entry("a0000008", "a0000007", 8, type="model_change", provider="openai", modelId="gpt-5.1"),
    _message(
        "a0000009",
        "a0000008",
        9,
        **{
            **_assistant(
                [{"type": "text", "text": "Seven TODOs."}], _usage(300, 5, 0, 0, 0.001), "stop"
            ),
            "provider": "openai",
            "model": "gpt-5.1",
        },
    ),
    _entry("a0000010", "a0000009", 10, type="label", targetId="a0000009", label="answer"),
    _entry("a0000011", "a0000010", 11, type="custom", customType="todo-ext", data={"n": 7}),
]


def _lines(records: list[dict[str, Any]] = RECORDS) -> list[str]:
    return [json.dumps(record) for record in records]


def _home(tmp_path: Path, records: list[dict[str, Any]] = RECORDS) -> Path:
    folder = tmp_path / ".pi" / "agent" / "sessions" / FOLDER
    folder.mkdir(parents=True)
    (folder / f"2026-11-20T09-00-00-000Z_{SESSION}.jsonl").write_text(
        "\n".join(_lines(records)) + "\n"
    )
    return tmp_path


def test_the_store_is_under_pis_agent_folder_or_where_its_variable_says(tmp_path: Path) -> None:
    (store,) = session.session_stores({}, tmp_path)
    assert (store.cli, store.root) == ("pi", tmp_path / ".pi" / "agent" / "sessions")
    (moved,) = session.session_stores({"PI_CODING_AGENT_DIR": "~/elsewhere"}, tmp_path)
    assert moved.root == tmp_path / "elsewhere" / "sessions"
    _home(tmp_path)
    found = [p.name for pattern in store.patterns for p in store.root.glob(pattern)]
    assert found == [f"2026-11-20T09-00-00-000Z_{SESSION}.jsonl"]


def test_every_record_becomes_entries_with_its_own_time_and_paired_tools() -> None:
    entries = session_entries(session.create_stdout_parser, _lines())
    assert problems(entries) == []
    assert (entries[0]["sessionId"], entries[0]["cwd"]) == (SESSION, "/home/ada/project")
    call = next(e for e in entries if e["kind"] == "tool_call")
    result = next(e for e in entries if e["kind"] == "tool_result")
    assert (call["name"], call["input"], result["content"]) == (
        "bash",
        {"command": "grep -c TODO *"},
        "7",
    )
    notes = [e["text"] for e in entries if e["kind"] == "system"]
    assert notes == [
        "thinking level: high",
        "model: anthropic/claude-sonnet-4-5",
        "session name: TODO count",
        "branch: continues from entry a0000003",
        "branch summary: Counted 7",
        "model: openai/gpt-5.1",
        "label 'answer' on entry a0000009",
        "extension state: todo-ext",
    ]
    assert [e["text"] for e in entries if e["kind"] == "assistant"] == [
        "There are 7.",
        "Seven TODOs.",
    ]


def test_the_summary_adds_up_every_branches_tokens_and_cost_per_model() -> None:
    summary = session.summarize_run(_lines())
    sonnet = TokenUsage(uncached_input=1220, cache_read=2700, cache_write=1500, output=90)
    gpt = TokenUsage(uncached_input=300, cache_read=0, cache_write=0, output=5)
    assert summary.token_usage == sonnet + gpt
    assert summary.model_usage == {"anthropic/claude-sonnet-4-5": sonnet, "openai/gpt-5.1": gpt}
    assert summary.cost_usd == pytest.approx(0.015)
    assert summary.cost_source == "reported"
    assert (summary.model, summary.outcome, summary.complete) == (
        "openai/gpt-5.1",
        "completed",
        True,
    )
    assert summary.details["sessionName"] == "TODO count"


def test_a_message_without_a_cost_leaves_the_cost_unknown_not_partial() -> None:
    records = [
        *RECORDS[:5],
        _message("b1", "a0000004", 5, **_assistant([], _usage(1, 1, 0, 0, None), "stop")),
    ]
    summary = session.summarize_run(_lines(records))
    assert summary.cost_usd is None and summary.cost_source is None
    assert summary.token_usage.output == 81


def test_a_session_stopped_waiting_on_a_tool_is_not_complete() -> None:
    summary = session.summarize_run(_lines(RECORDS[:4]))
    assert (summary.outcome, summary.complete) == (None, False)
    aborted = _message("b1", "a0000004", 5, **_assistant([], _usage(1, 0, 0, 0, 0.0), "aborted"))
    summary = session.summarize_run(_lines([*RECORDS[:5], aborted]))
    assert (summary.outcome, summary.is_error) == ("interrupted", True)
    assert summary.errors == ("Pi request aborted.",)


def test_a_version_1_session_names_its_model_from_the_header() -> None:
    header = {
        "type": "session",
        "id": "v1",
        "timestamp": "2025-12-09T00:53:29.825Z",
        "cwd": "/w",
        "provider": "anthropic",
        "modelId": "claude-opus-4-5",
        "thinkingLevel": "off",
    }
    message = {
        "type": "message",
        "timestamp": "2025-12-09T00:53:30.000Z",
        "message": {"role": "user", "content": [{"type": "text", "text": "hi"}]},
    }
    entries = session_entries(session.create_stdout_parser, _lines([header, message]))
    assert entries[0]["model"] == "anthropic/claude-opus-4-5"
    assert [e["kind"] for e in entries] == ["init", "user"]  # no branch notes without a tree


def test_sessions_lists_it_with_the_records_times_usage_and_outcome(tmp_path: Path) -> None:
    _, sessions = listed(_home(tmp_path), "--cli", "pi")
    (found,) = sessions
    assert found["id"] == SESSION
    assert (found["project"], found["started"], found["ended"]) == (
        "/home/ada/project",
        "2026-11-20T09:00:00.000Z",
        "2026-11-20T09:00:11.000Z",
    )
    assert (found["model"], found["outcome"], found["toolCalls"]) == (
        "openai/gpt-5.1",
        "completed",
        1,
    )
    assert found["tokenUsage"] == {
        "uncachedInput": 1520,
        "cacheRead": 2700,
        "cacheWrite": 1500,
        "output": 95,
        "reasoning": None,
    }
    assert found["costUsd"] == pytest.approx(0.015) and found["costSource"] == "reported"
    assert found["firstPrompt"] == "Count the TODOs"


def test_render_by_id_and_by_file_shows_no_raw_records(tmp_path: Path) -> None:
    home = _home(tmp_path)
    code, stderr, entries = rendered(home, SESSION[:8])
    assert code == 0, stderr
    assert not [e for e in entries if e["kind"] == "stdout"]
    stderr, entries = render(next((home / ".pi").rglob("*.jsonl")))
    assert "pi_session" in stderr
    assert not [e for e in entries if e["kind"] == "stdout"]


def test_damaged_session_files_are_listed_and_render_with_a_note(tmp_path: Path) -> None:
    home = _home(tmp_path)
    plant_hostile(
        home / ".pi" / "agent" / "sessions" / "--bad--", lambda stem: Path(f"{stem}.jsonl")
    )
    _, sessions = listed(home, "--cli", "pi")
    assert {SESSION, "truncated", "binary", "huge"} <= {s["id"] for s in sessions}
    code, stderr, _ = rendered(home, "binary")
    assert code == 1 and "binary file" in stderr
    code, _, entries = rendered(home, "truncated")
    assert code == 0 and entries[-1]["kind"] == "stdout"


def test_pis_stdout_and_session_files_are_told_apart() -> None:
    header = json.dumps(RECORDS[0])
    stream = [header, '{"type":"agent_start"}', '{"type":"turn_start"}']
    assert session.sniff(stream) == 0.0
    assert sniff(stream) > 0.8
    assert session.sniff(_lines()) == 0.95
    assert sniff(_lines()) == 0.0
    assert droid_session.sniff(_lines()) == 0.0


@pytest.mark.parametrize(
    "lines",
    [
        ['{"type":"message","id":"1","message":{"role":"user","content":"x"}}'] * 3,
        ['{"type":"session_start","id":"s","cwd":"/w"}'],
        ['{"role":"user","message":{"content":"x"}}'] * 2,
        ["not json"],
    ],
)
def test_what_is_not_a_pi_session_scores_zero(lines: list[str]) -> None:
    assert session.sniff(lines) == 0.0


def test_real_pi_sessions_render_without_raw_records() -> None:
    files = sorted(corpus_path("real-sessions", "pi").rglob("*.jsonl"))
    for path in files:
        entries = session_entries(session.create_stdout_parser, path.read_text().splitlines())
        assert not [e for e in entries if e["kind"] == "stdout"], path
        assert entries[0]["kind"] == "init", path
