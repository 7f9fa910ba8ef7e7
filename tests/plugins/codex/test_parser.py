"""The Codex exec --json parser against the reference, real logs, and the shapes they lack."""

from __future__ import annotations

import json
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

import linewise
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_codex import create_stdout_parser, parse_stdout_line
from linewise_contracts import entry_problem
from scaling import assert_linear_time
from support import (
    assert_valid_and_deterministic,
    corpus_json,
    corpus_path,
    json_values,
    numbered_lines,
    parse_all,
    parse_flat,
)

TS = "2026-01-01T00:00:00.000Z"


_parse_all = partial(parse_all, create_stdout_parser, ts=TS)
_flat = partial(parse_flat, create_stdout_parser, ts=TS)


def _real_logs() -> list[Path]:
    folder = corpus_path("real-logs", "codex")
    return sorted([*folder.glob("*.jsonl"), *folder.glob("*.ndjson")])


def _truthful(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The reference's entries with the one deliberate difference on every run's first line:
    ``thread.started`` names no model, so the init entry's model is "" (unknown), not "codex"."""
    return [
        {**entry, "model": ""} if entry["kind"] == "init" and entry["model"] == "codex" else entry
        for entry in entries
    ]


WRAPPED = "hivemind-wrapped-401-turn-failed.log.txt"


# -- the reference -----------------------------------------------------------------------


def test_reference_ui_parser_cases_match_exactly() -> None:
    cases = corpus_json("paperclip", "codex-local", "expected.json")["ui_parser"]
    assert len(cases) == 11
    for case in cases:
        assert case["output_asserted_exactly"]
        assert parse_stdout_line(case["line"], case["ts"]) == _truthful(case["output"])


def test_reference_output_over_its_other_fixture_lines_matches_too() -> None:
    cases = corpus_json("paperclip", "codex-local", "expected.json")["derived_not_asserted"]
    assert cases["ui_parser"]
    for case in cases["ui_parser"]:
        expected = _truthful(case["output"])
        assert parse_stdout_line(case["line"], case["ts"]) == expected, case["fixture"]


def _baseline_path(name: str) -> Path:
    stem = name.removesuffix(".jsonl").removesuffix(".txt")
    return corpus_path("paperclip-on-real-logs", "codex").joinpath(f"{stem}.paperclip.jsonl")


def _baseline(name: str) -> dict[int, list[dict[str, Any]]]:
    rows = map(json.loads, _baseline_path(name).read_text(encoding="utf-8").splitlines())
    return {row["line"]: row["entries"] for row in rows}


def test_matches_the_reference_on_real_logs_except_where_it_improves() -> None:
    """The stateless parser gives the reference's entries for every real line, except:

    - the logger-wrapped file's Codex events (raw stdout in the reference) are read;
    - a file change that starts says which files ("item started: file_change
      (id=item_14 status=in_progress)" in the reference);
    - a to-do list shows its steps, not "item started: todo_list (id=item_37)";
    - a completed web search is a tool_result saying what was searched, not
      "item completed: web_search (id=ws_...)";
    - ``thread.started`` gives the init entry model "" (unknown), not "codex";
    - the wrapped file's events carry the wrapper's timestamps.

    Logs added to the corpus after the reference outputs were recorded have
    none to compare with; the other tests here cover them.
    """
    changed = Counter[tuple[str, str]]()
    compared = 0
    for path in [*_real_logs(), corpus_path("real-logs", "codex", WRAPPED)]:
        if not _baseline_path(path.name).exists():
            continue
        baseline = _baseline(path.name)
        for number, line in numbered_lines(path):
            ours, theirs = parse_stdout_line(line, TS), _truthful(baseline[number])
            compared += 1
            if path.name == WRAPPED:  # the wrapper's time, where its prefix gives one
                ours = [{**entry, "ts": TS} for entry in ours]
            if ours != theirs:
                changed[(theirs[0]["kind"], ours[0]["kind"])] += 1
                assert len(theirs) == len(ours) == 1, f"{path.name}:{number}"
    assert compared == 2110
    assert changed == {
        ("stdout", "stderr"): 163,  # wrapped: stream errors ("Reconnecting... 1/5", 401)
        ("stdout", "init"): 28,  # wrapped: thread.started
        ("stdout", "system"): 28,  # wrapped: turn.started
        ("stdout", "result"): 1,  # wrapped: a turn.failed that kept its prefix
        ("system", "system"): 4,  # file changes starting
        ("system", "provider_activity"): 2,  # to-do lists: contract 1.3's plan cards
        ("system", "tool_result"): 2,  # web searches
    }


# -- real logs ---------------------------------------------------------------------------

_KINDS = {
    "thread.started": {"init"},
    "turn.started": {"system"},
    "turn.completed": {"result"},
    "turn.failed": {"result"},
    "error": {"stderr"},
    "agent_message": {"assistant"},
    "reasoning": {"thinking"},
    "command_execution": {"tool_call", "tool_result"},
    "web_search": {"tool_call", "tool_result"},
    "file_change": {"system", "diff"},
    "todo_list": {"provider_activity"},
}


# Legacy `{"id", "msg"}` events (Codex before `exec --json`): msg type -> entry kinds.
_LEGACY_KINDS = {
    "session_configured": {"init"},
    "task_started": {"system"},
    "agent_message_delta": {"assistant"},
    "agent_message": set(),  # repeats the deltas just streamed: the stateful parser drops it
    "token_count": {"system"},
    "task_complete": {"result"},
}


def _expected_kinds(line: str) -> set[str]:
    if not line.startswith("{"):
        # Codex's tracing log (stderr mixed into one capture), and a fixture author's comments.
        return {"stdout"} if line.startswith("#") else {"stderr"}
    event = json.loads(line)
    if "msg" in event:
        return _LEGACY_KINDS[event["msg"]["type"]]
    item_type = event.get("item", {}).get("type")
    return {"stderr"} if item_type == "error" else _KINDS[item_type or event["type"]]


def test_every_real_line_is_recognised_and_valid() -> None:
    """No Codex event is left raw; only lines no Codex wrote stay stdout (comment headers)."""
    lines_seen = 0
    text_lines = Counter[str]()
    for path in _real_logs():
        numbered = numbered_lines(path)
        for (number, line), entries in zip(
            numbered, _parse_all([line for _, line in numbered]), strict=True
        ):
            kinds = {entry["kind"] for entry in entries}
            for entry in entries:
                assert entry_problem(entry) is None, f"{path.name}:{number}: {entry_problem(entry)}"
            expected = _expected_kinds(line)
            assert kinds <= expected and (kinds or not expected), f"{path.name}:{number}: {kinds}"
            if not line.startswith("{"):
                text_lines[entries[0]["kind"]] += 1
            lines_seen += 1
    assert lines_seen == 360
    assert text_lines == {"stderr": 2, "stdout": 3}


def test_codex_tracing_lines_are_stderr_at_their_own_time_without_colours() -> None:
    """A capture that mixed Codex's stderr in: its tracing log keeps its text, loses the ANSI."""
    line = (
        "\x1b[2m2025-09-27T03:52:30.590128Z\x1b[0m \x1b[32m INFO\x1b[0m "
        "\x1b[2mcodex_core::config\x1b[0m\x1b[2m:\x1b[0m cwd not set, using current dir"
    )
    assert parse_stdout_line(line, TS) == [
        {
            "kind": "stderr",
            "ts": "2025-09-27T03:52:30.590Z",
            "text": "2025-09-27T03:52:30.590128Z  INFO codex_core::config: cwd not set, using current dir",
        }
    ]
    # Text that merely starts with a date is not a tracing line.
    assert parse_stdout_line("2025-09-27 was a Saturday", TS)[0]["kind"] == "stdout"


def test_each_tool_item_gives_one_call_and_one_result_with_its_id_and_name() -> None:
    paired = 0
    for path in _real_logs():
        entries = _flat([line for _, line in numbered_lines(path)])
        calls = Counter(e["toolUseId"] for e in entries if e["kind"] == "tool_call")
        names = {e["toolUseId"]: e["name"] for e in entries if e["kind"] == "tool_call"}
        assert all(count == 1 for count in calls.values()), path.name
        for entry in entries:
            if entry["kind"] == "tool_result":
                assert entry["toolUseId"] in names, f"{path.name}: a result without its call"
                assert entry["toolName"] == names[entry["toolUseId"]]
                paired += 1
    assert paired == 84  # every command and web search in the logs


def test_a_completed_item_whose_start_was_never_seen_still_gets_its_call() -> None:
    """The cyrus excerpt kept only item.completed lines: each tool shows call then result."""
    path = corpus_path("real-logs", "codex", "cyrus-exec-excerpt-websearch.jsonl")
    entries = _flat([line for _, line in numbered_lines(path)])
    tools = [e for e in entries if e["kind"] in ("tool_call", "tool_result")]
    assert [e["kind"] for e in tools] == ["tool_call", "tool_result"] * 8
    searches = [e for e in tools if e["toolUseId"].startswith("ws_")]
    assert searches[0]["input"]["query"].startswith("OpenAI Codex SDK")
    assert (
        searches[3]["content"] == "opened https://github.com/openai/codex/tree/main/sdk/typescript"
    )


def test_a_started_command_is_not_shown_twice() -> None:
    path = corpus_path("real-logs", "codex", "agentcmd-exec-0.46-2.jsonl")
    entries = _flat([line for _, line in numbered_lines(path)])
    assert [e for e in entries if "tool" in e["kind"]] == [
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "command_execution",
            "toolUseId": "item_1",
            "input": {"id": "item_1", "command": "bash -lc ls"},
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "item_1",
            "toolName": "command_execution",
            "content": "command: bash -lc ls\nstatus: completed\nexit_code: 0\n\n"
            "stream-output-1.jsonl\nstream-output-2.jsonl\ntest.js",
            "isError": False,
        },
    ]


def test_runs_concatenated_in_one_log_reuse_item_ids_without_losing_calls() -> None:
    """Every `codex exec` numbers its items from item_0; both runs here have an item_1 command."""
    lines = [
        line
        for name in ("agentcmd-exec-0.46-2.jsonl", "agentcmd-exec-0.46-4.jsonl")
        for _, line in numbered_lines(corpus_path("real-logs", "codex", name))
    ]
    tools = [(e["kind"], e["toolUseId"]) for e in _flat(lines) if "tool" in e["kind"]]
    assert tools == [("tool_call", "item_1"), ("tool_result", "item_1")] * 2


def test_a_run_cut_off_without_turn_completed_still_gives_a_transcript() -> None:
    path = corpus_path("real-logs", "codex", "stark-click-run-no-turn-completed.jsonl")
    kinds = Counter(e["kind"] for e in _flat([line for _, line in numbered_lines(path)]))
    assert kinds["init"] == 1 and kinds["result"] == 0
    assert kinds["tool_call"] == kinds["tool_result"] == 20
    assert kinds["thinking"] == 24 and kinds["assistant"] == 9


def test_the_logger_wrapped_log_gives_back_every_codex_event() -> None:
    """A wrapper (hive-mind's solve.mjs) prefixed Codex's lines with "[ts] [INFO] ".

    Every prefixed Codex event and every bare one (the wrapper sometimes wrote
    two events in one log entry, so the second has no prefix) is read; the
    wrapper's own lines stay raw stdout. A prefixed event's entries carry the
    wrapper's timestamp (a bare one keeps the caller's). Lost: Codex's stderr,
    which the wrapper did not keep.
    """
    path = corpus_path("real-logs", "codex", WRAPPED)
    entries = _flat([line for _, line in numbered_lines(path)])
    kinds = Counter(e["kind"] for e in entries)
    assert kinds == {"stdout": 1592, "stderr": 163, "init": 28, "system": 28, "result": 27}
    stamped = [e for e in entries if e["kind"] != "stdout" and e["ts"] != TS]
    assert len(stamped) == 220 and all(e["ts"].startswith("2025-11-") for e in stamped)
    line = '[2025-11-11T14:19:39.412+02:00] [INFO] {"type":"turn.started"}'
    assert parse_stdout_line(line, TS) == [
        {"kind": "system", "ts": "2025-11-11T12:19:39.412Z", "text": "turn started"}
    ]
    assert (
        parse_stdout_line("[2025-11-11T12:19:02.920Z] [INFO] 📝 Issue mode", TS)[0]["kind"]
        == "stdout"
    )
    assert (
        parse_stdout_line('[2025-11-11T12:19:02.920Z] [INFO] {"type": "other"}', TS)[0]["kind"]
        == "stdout"
    )


# -- shapes the corpus lacks (written from codex-rs/exec/src/exec_events.rs) ---------------


def _event(kind: str, **item: Any) -> str:
    return json.dumps({"type": kind, "item": item})


TODO_0 = [{"text": "Look up the docs", "completed": False}, {"text": "Answer", "completed": False}]
TODO_1 = [{"text": "Look up the docs", "completed": True}, {"text": "Answer", "completed": False}]
SEARCH = {"id": "item_1", "type": "mcp_tool_call", "server": "docs", "tool": "search"}
ISSUE = {"id": "item_2", "type": "mcp_tool_call", "server": "github", "tool": "create_issue"}
MCP_RUN = [
    json.dumps({"type": "thread.started", "thread_id": "0199a213-81c0-7800-8aa1-bbab2a035a53"}),
    json.dumps({"type": "turn.started"}),
    _event("item.started", id="item_0", type="todo_list", items=TODO_0),
    _event(
        "item.started",
        **SEARCH,
        arguments={"query": "exec --json"},
        result=None,
        error=None,
        status="in_progress",
    ),
    _event(
        "item.updated",
        **SEARCH,
        arguments={"query": "exec --json"},
        result=None,
        error=None,
        status="in_progress",
    ),
    _event(
        "item.completed",
        **SEARCH,
        arguments={"query": "exec --json"},
        result={"content": [{"type": "text", "text": "3 pages found"}], "structured_content": None},
        error=None,
        status="completed",
    ),
    _event("item.updated", id="item_0", type="todo_list", items=TODO_1),
    _event(
        "item.completed",
        **ISSUE,
        arguments={"title": "Flaky test"},
        result=None,
        error={"message": "401 Bad credentials"},
        status="failed",
    ),
    _event(
        "item.updated",
        id="item_3",
        type="file_change",
        changes=[{"path": "src/app.py", "kind": "update"}],
        status="in_progress",
    ),
    _event(
        "item.completed",
        id="item_3",
        type="file_change",
        changes=[
            {
                "path": "src/app.py",
                "kind": "update",
                "diff": "--- a/src/app.py\n+++ b/src/app.py\n@@ -1 +1 @@\n-print('a')\n+print('b')\n",
            }
        ],
        status="completed",
    ),
    _event("item.completed", id="item_4", type="agent_message", text="Filed nothing: no access."),
    json.dumps(
        {
            "type": "turn.completed",
            "usage": {"input_tokens": 100, "cached_input_tokens": 40, "output_tokens": 20},
        }
    ),
]


def _plan(ident: str, steps: list[tuple[str, str]]) -> dict[str, Any]:
    """A to-do list as contract 1.3's plan card."""
    done = all(status == "completed" for status, _ in steps)
    return {
        "kind": "provider_activity",
        "ts": TS,
        "family": "plan",
        "eventType": "plan.updated",
        "status": "completed" if done else "running",
        "title": "Plan",
        "summary": "plan.updated",
        "payload": {
            "schema": "paperclip.plan.updated.v1",
            "planId": ident,
            "complete": done,
            "steps": [
                {"stepId": str(n), "body": body, "status": status}
                for n, (status, body) in enumerate(steps, 1)
            ],
        },
    }


def test_mcp_tool_calls_updates_todo_lists_and_diffs() -> None:
    assert _flat(MCP_RUN) == [
        {
            "kind": "init",
            "ts": TS,
            "model": "",
            "sessionId": "0199a213-81c0-7800-8aa1-bbab2a035a53",
        },
        {"kind": "system", "ts": TS, "text": "turn started"},
        _plan("item_0", [("pending", "Look up the docs"), ("pending", "Answer")]),
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "docs.search",
            "toolUseId": "item_1",
            "input": {"query": "exec --json"},
        },
        # item.updated of a call already shown adds nothing.
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "item_1",
            "toolName": "docs.search",
            "content": "3 pages found",
            "isError": False,
        },
        _plan("item_0", [("completed", "Look up the docs"), ("pending", "Answer")]),
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "github.create_issue",
            "toolUseId": "item_2",
            "input": {"title": "Flaky test"},
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "item_2",
            "toolName": "github.create_issue",
            "content": "401 Bad credentials",
            "isError": True,
        },
        {"kind": "system", "ts": TS, "text": "applying file changes: update src/app.py"},
        {"kind": "system", "ts": TS, "text": "file changes: update src/app.py"},
        {"kind": "diff", "ts": TS, "changeType": "file_header", "text": "--- a/src/app.py"},
        {"kind": "diff", "ts": TS, "changeType": "file_header", "text": "+++ b/src/app.py"},
        {"kind": "diff", "ts": TS, "changeType": "hunk", "text": "@@ -1 +1 @@"},
        {"kind": "diff", "ts": TS, "changeType": "remove", "text": "-print('a')"},
        {"kind": "diff", "ts": TS, "changeType": "add", "text": "+print('b')"},
        {"kind": "assistant", "ts": TS, "text": "Filed nothing: no access."},
        {
            "kind": "result",
            "ts": TS,
            "text": "",
            "inputTokens": 100,
            "outputTokens": 20,
            "cachedTokens": 40,
            "costUsd": 0,
            "subtype": "",
            "isError": False,
            "errors": [],
            # Contract 1.5: the thread's running total in the usage vocabulary (input
            # without its cache reads), no cost, the outcome and the thread it belongs to.
            "usage": {
                "uncachedInput": 60,
                "cacheRead": 40,
                "cacheWrite": None,
                "output": 20,
                "reasoning": None,
            },
            "costSource": None,
            "outcome": "completed",
            "sessionId": "0199a213-81c0-7800-8aa1-bbab2a035a53",
        },
    ]


def test_the_stateless_parser_reads_each_event_on_its_own() -> None:
    """Without state an update repeats the call and a completion gives only the result."""
    assert parse_stdout_line(MCP_RUN[4], TS) == parse_stdout_line(MCP_RUN[3], TS)
    assert [e["kind"] for e in parse_stdout_line(MCP_RUN[5], TS)] == ["tool_result"]
    assert "toolName" not in parse_stdout_line(MCP_RUN[5], TS)[0]


def test_mcp_results_fall_back_to_structured_content_then_a_status() -> None:
    structured = _event(
        "item.completed",
        **SEARCH,
        arguments=None,
        result={"content": [], "structured_content": {"hits": 3}},
        error=None,
        status="completed",
    )
    empty = _event("item.completed", **SEARCH, result=None, error=None, status="completed")
    assert parse_stdout_line(structured, TS)[0]["content"] == '{\n  "hits": 3\n}'
    assert parse_stdout_line(empty, TS)[0]["content"] == "docs.search completed"
    assert create_stdout_parser().parse_line(structured, TS)[0]["input"] == {}


@pytest.mark.parametrize(
    ("status", "exit_code", "is_error"),
    [
        ("completed", 0, False),
        ("failed", 2, True),
        ("declined", None, True),
        ("completed", 1, True),
    ],
)
def test_command_results_are_errors_when_they_fail_or_are_declined(
    status: str, exit_code: int | None, is_error: bool
) -> None:
    line = _event(
        "item.completed",
        id="item_9",
        type="command_execution",
        command="pytest -q",
        aggregated_output="",
        exit_code=exit_code,
        status=status,
    )
    [result] = parse_stdout_line(line, TS)
    assert result["isError"] is is_error
    assert result["content"].startswith(f"command: pytest -q\nstatus: {status}")


@pytest.mark.parametrize(
    ("action", "content"),
    [
        ({"type": "search", "query": "q", "queries": ["q", "q two"]}, "searched: q\nq two"),
        ({"type": "open_page", "url": "https://example.com"}, "opened https://example.com"),
        (
            {"type": "find_in_page", "url": "https://example.com", "pattern": "exec"},
            "searched https://example.com for 'exec'",
        ),
        ({"type": "other"}, "searched: q"),
    ],
)
def test_web_search_results_say_what_was_searched(action: dict[str, Any], content: str) -> None:
    line = _event("item.completed", id="ws_1", type="web_search", query="q", action=action)
    assert parse_stdout_line(line, TS)[0]["content"] == content


def test_collab_agents_plans_and_questions() -> None:
    lines = [
        _event(
            "item.started",
            id="item_5",
            type="collab_tool_call",
            tool="spawn_agent",
            sender_thread_id="t0",
            receiver_thread_ids=["t1"],
            prompt="Write the tests",
            agents_states={},
            status="in_progress",
        ),
        _event(
            "item.completed",
            id="item_5",
            type="collab_tool_call",
            tool="spawn_agent",
            sender_thread_id="t0",
            receiver_thread_ids=["t1"],
            prompt="Write the tests",
            agents_states={"t1": {"status": "running", "message": None}},
            status="completed",
        ),
        json.dumps({"type": "item.plan.delta", "item_id": "item_6", "delta": "1. Read "}),
        json.dumps({"type": "item.plan.delta", "item_id": "item_6", "delta": "the code"}),
        _event("item.completed", id="item_6", type="plan", text="1. Read the code"),
        json.dumps(
            {
                "type": "request_user_input",
                "id": "turn_1",
                "call_id": "call_1",
                "questions": [{"id": "q1", "header": "Branch", "question": "Which branch?"}],
            }
        ),
    ]
    assert _flat(lines) == [
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "spawn_agent",
            "toolUseId": "item_5",
            "input": {"receiver_thread_ids": ["t1"], "prompt": "Write the tests"},
            "startsSubagent": True,  # contract 1.5
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "item_5",
            "toolName": "spawn_agent",
            "content": "t1: running",
            "isError": False,
        },
        {"kind": "assistant", "ts": TS, "text": "1. Read ", "delta": True},
        {"kind": "assistant", "ts": TS, "text": "the code", "delta": True},
        # The streamed plan is not repeated when its item completes.
        {"kind": "system", "ts": TS, "text": "the agent asks for input:\nWhich branch?"},
    ]
    assert parse_stdout_line(lines[4], TS) == [
        {"kind": "assistant", "ts": TS, "text": "1. Read the code"}
    ]


def _collab(phase: str, ident: str, tool: str, sender: str, **fields: Any) -> str:
    return _event(
        phase, id=ident, type="collab_tool_call", tool=tool, sender_thread_id=sender, **fields
    )


def test_collab_calls_of_a_spawned_agent_carry_the_spawning_call() -> None:
    """Written from CollabToolCallItem (codex-rs/exec/src/exec_events.rs): no real capture yet.

    The main thread t0 spawns t1 (call item_5); t1 then spawns t2 and waits for it
    (sender_thread_id t1, so the stream says these calls are t1's: parentToolUseId
    item_5); the main thread waits for t1 and closes it (no parent).
    """
    states = {"t2": {"status": "completed", "message": "2 tests added"}}
    lines = [
        _collab(
            "item.started",
            "item_5",
            "spawn_agent",
            "t0",
            receiver_thread_ids=["t1"],
            prompt="Write the tests",
            agents_states={},
            status="in_progress",
        ),
        _collab(
            "item.completed",
            "item_5",
            "spawn_agent",
            "t0",
            receiver_thread_ids=["t1"],
            prompt="Write the tests",
            agents_states={"t1": {"status": "pending_init"}},
            status="completed",
        ),
        _collab(
            "item.completed",
            "item_6",
            "spawn_agent",
            "t1",
            receiver_thread_ids=["t2"],
            prompt="Add one test",
            agents_states={},
            status="completed",
        ),
        _collab(
            "item.completed",
            "item_7",
            "wait",
            "t1",
            receiver_thread_ids=["t2"],
            prompt=None,
            agents_states=states,
            status="completed",
        ),
        _collab(
            "item.completed",
            "item_8",
            "wait",
            "t0",
            receiver_thread_ids=["t1"],
            prompt=None,
            agents_states={"t1": {"status": "errored", "message": "tool crashed"}},
            status="completed",
        ),
        _collab(
            "item.completed",
            "item_9",
            "close_agent",
            "t0",
            receiver_thread_ids=["t1"],
            prompt=None,
            agents_states={"t1": {"status": "shutdown", "message": None}},
            status="failed",
        ),
    ]
    entries = _flat(lines)
    parents = [(e["kind"], e["toolUseId"], e.get("parentToolUseId")) for e in entries]
    assert parents == [
        ("tool_call", "item_5", None),
        ("tool_result", "item_5", None),
        ("tool_call", "item_6", "item_5"),
        ("tool_result", "item_6", "item_5"),
        ("tool_call", "item_7", "item_5"),
        ("tool_result", "item_7", "item_5"),
        ("tool_call", "item_8", None),
        ("tool_result", "item_8", None),
        ("tool_call", "item_9", None),
        ("tool_result", "item_9", None),
    ]
    results = {e["toolUseId"]: e for e in entries if e["kind"] == "tool_result"}
    assert results["item_5"]["content"] == "t1: pending_init"
    assert results["item_6"]["content"] == "spawn_agent completed: t2"
    assert results["item_7"]["content"] == "t2: completed (2 tests added)"
    assert results["item_8"]["content"] == "t1: errored (tool crashed)"
    assert results["item_9"]["content"] == "t1: shutdown" and results["item_9"]["isError"]
    assert all(entry_problem(entry) is None for entry in entries)
    # The stateless parser cannot know which thread spawned which: no parents.
    assert all("parentToolUseId" not in e for line in lines for e in parse_stdout_line(line, TS))


# -- the legacy {"id", "msg"} shape (codex-rs/protocol/src/protocol.rs EventMsg) ------------


def _legacy(msg_type: str, **fields: Any) -> str:
    return json.dumps({"id": "1", "msg": {"type": msg_type, **fields}})


def test_legacy_tool_events_pair_calls_with_results() -> None:
    """Written from the EventMsg types (ExecCommandBegin/End, PatchApplyBegin/End,
    McpToolCallBegin/End, WebSearchBegin/End); the real legacy capture has none."""
    diff = "@@ -1 +1 @@\n-a\n+b\n"
    lines = [
        _legacy("exec_command_begin", call_id="c1", command=["bash", "-lc", "ls -a"], cwd="/w"),
        _legacy(
            "exec_command_end",
            call_id="c1",
            command=["bash", "-lc", "ls -a"],
            cwd="/w",
            stdout="x\n",
            stderr="",
            aggregated_output="x\n",
            exit_code=2,
            duration="1s",
            formatted_output="x",
        ),
        _legacy(
            "patch_apply_begin",
            call_id="p1",
            auto_approved=True,
            changes={
                "a.py": {"type": "update", "unified_diff": diff, "move_path": None},
                "b.py": {"type": "add", "content": "new\n"},
            },
        ),
        _legacy("patch_apply_end", call_id="p1", stdout="Success.", stderr="", success=True),
        _legacy(
            "mcp_tool_call_begin",
            call_id="m1",
            invocation={"server": "docs", "tool": "search", "arguments": {"q": "x"}},
        ),
        _legacy(
            "mcp_tool_call_end",
            call_id="m1",
            duration="2s",
            invocation={"server": "docs", "tool": "search", "arguments": {"q": "x"}},
            result={"Err": "server gone"},
        ),
        _legacy("web_search_begin", call_id="w1"),
        _legacy("web_search_end", call_id="w1", query="codex docs"),
    ]
    entries = _flat(lines)
    kinds = [(e["kind"], e.get("toolUseId"), e.get("toolName")) for e in entries]
    assert [k for k in kinds if k[0].startswith("tool")] == [
        ("tool_call", "c1", None),
        ("tool_result", "c1", "command_execution"),
        ("tool_call", "p1", None),
        ("tool_result", "p1", "apply_patch"),
        ("tool_call", "m1", None),
        ("tool_result", "m1", "docs.search"),
        ("tool_call", "w1", None),
        ("tool_result", "w1", "web_search"),
    ]
    by_id = {(e["kind"], e.get("toolUseId")): e for e in entries}
    assert by_id["tool_call", "c1"]["input"] == {
        "id": "c1",
        "command": "bash -lc 'ls -a'",
        "cwd": "/w",
    }
    assert by_id["tool_result", "c1"]["content"] == "command: bash -lc 'ls -a'\nexit_code: 2\n\nx"
    assert by_id["tool_result", "c1"]["isError"]
    assert by_id["tool_call", "p1"]["input"] == {"changes": {"a.py": "update", "b.py": "add"}}
    diffs = [(e["changeType"], e["text"]) for e in entries if e["kind"] == "diff"]
    assert ("remove", "-a") in diffs and ("add", "+b") in diffs and ("add", "+new") in diffs
    assert by_id["tool_result", "p1"]["content"] == "Success."
    assert by_id["tool_result", "m1"] | {"ts": TS} == {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "m1",
        "toolName": "docs.search",
        "content": "server gone",
        "isError": True,
    }
    assert by_id["tool_result", "w1"]["content"] == "searched: codex docs"


def test_legacy_messages_reasoning_usage_and_ends() -> None:
    lines = [
        _legacy(
            "session_configured",
            session_id="s1",
            model="gpt-5-codex",
            history_log_id=1,
            history_entry_count=0,
            rollout_path="/r.jsonl",
        ),
        _legacy("user_message", message="fix it"),
        _legacy("agent_reasoning_delta", delta="Thinking "),
        _legacy("agent_reasoning_delta", delta="hard"),
        _legacy("agent_reasoning", text="Thinking hard"),
        _legacy("agent_message", message="Not streamed: kept"),
        _legacy("stream_error", message="Reconnecting... 1/5"),
        _legacy(
            "plan_update",
            explanation="Two steps",
            plan=[
                {"step": "Read", "status": "completed"},
                {"step": "Fix", "status": "in_progress"},
            ],
        ),
        _legacy(
            "token_count",
            info={
                "total_token_usage": {
                    "input_tokens": 50,
                    "cached_input_tokens": 10,
                    "output_tokens": 7,
                    "reasoning_output_tokens": 3,
                    "total_tokens": 57,
                },
                "last_token_usage": {},
                "model_context_window": 1000,
            },
        ),
        _legacy("turn_diff", unified_diff="--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n"),
        _legacy("something_new", detail=1),
        _legacy("task_complete", last_agent_message="Not streamed: kept"),
        _legacy("turn_aborted", reason="interrupted"),
    ]
    entries = _flat(lines)
    assert entries[:7] == [
        {"kind": "init", "ts": TS, "model": "gpt-5-codex", "sessionId": "s1"},
        {"kind": "user", "ts": TS, "text": "fix it"},
        {"kind": "thinking", "ts": TS, "text": "Thinking ", "delta": True},
        {"kind": "thinking", "ts": TS, "text": "hard", "delta": True},
        # The whole reasoning repeats the deltas: dropped by the stateful parser.
        {"kind": "assistant", "ts": TS, "text": "Not streamed: kept"},
        {"kind": "stderr", "ts": TS, "text": "Reconnecting... 1/5"},
        {
            "kind": "provider_activity",
            "ts": TS,
            "family": "plan",
            "eventType": "plan.updated",
            "status": "running",
            "title": "Plan",
            "summary": "Two steps",
            "payload": {
                "schema": "paperclip.plan.updated.v1",
                "complete": False,
                "explanation": "Two steps",
                "steps": [
                    {"stepId": "1", "body": "Read", "status": "completed"},
                    {"stepId": "2", "body": "Fix", "status": "in_progress"},
                ],
            },
        },
    ]
    assert entries[7]["text"] == (
        "tokens so far: 50 in (10 cached), 7 out (3 reasoning); context window 1000"
    )
    assert [e["changeType"] for e in entries if e["kind"] == "diff"][:2] == [
        "file_header",
        "file_header",
    ]
    assert {"kind": "system", "ts": TS, "text": 'codex something_new: {"detail":1}'} in entries
    result, aborted = [e for e in entries if e["kind"] == "result"]
    assert (result["inputTokens"], result["cachedTokens"], result["outputTokens"]) == (50, 10, 7)
    assert result["text"] == "Not streamed: kept" and not result["isError"]
    assert aborted["isError"] and aborted["errors"] == ["turn aborted: interrupted"]
    assert all(entry_problem(entry) is None for entry in entries)


def test_the_real_legacy_capture_streams_its_message_once() -> None:
    path = corpus_path(
        "real-logs",
        "codex",
        "acplazybridge-codex-proto-legacy-id-msg-wrapper_test_20250927_115226.jsonl",
    )
    entries = linewise.merge_deltas(_flat([line for _, line in numbered_lines(path)]))
    said = [e["text"] for e in entries if e["kind"] == "assistant"]
    assert said == ["Hey! How can I help you today?"]
    assert entries[1] == {
        "kind": "init",
        "ts": TS,
        "model": "gpt-5-codex",
        "sessionId": "0199894d-068c-70a1-857c-753ef9abf7b5",
    }


def test_line_patterns_cost_linear_time() -> None:
    """Regex audit: the logger prefix and Codex's tracing line on hostile text."""
    assert_linear_time(lambda n: parse_stdout_line("[2025-11-11T" + "0" * (40 * n), TS))
    assert_linear_time(
        lambda n: parse_stdout_line("2025-09-27T03:52:30Z INFO " + "a:" * (20 * n), TS)
    )
    assert_linear_time(lambda n: parse_stdout_line("\x1b[2m" * (10 * n) + "1", TS))


def test_a_failed_file_change_says_so() -> None:
    line = _event(
        "item.completed",
        id="item_8",
        type="file_change",
        changes=[{"path": "a.py", "kind": "delete"}],
        status="failed",
    )
    assert parse_stdout_line(line, TS) == [
        {"kind": "system", "ts": TS, "text": "file changes failed: delete a.py"}
    ]


def test_long_diffs_are_cut_with_a_truncation_entry() -> None:
    diff = "\n".join(f"+line {n}" for n in range(2500))
    line = _event(
        "item.completed",
        id="item_7",
        type="file_change",
        changes=[{"path": "big.txt", "kind": "add", "diff": diff}],
        status="completed",
    )
    entries = parse_stdout_line(line, TS)
    assert entries[1] == {"kind": "diff", "ts": TS, "changeType": "file_header", "text": "big.txt"}
    assert len(entries) == 2 + 2000 + 1
    assert entries[-1] == {
        "kind": "diff",
        "ts": TS,
        "changeType": "truncation",
        "text": "… 500 more diff lines",
    }


def test_acp_engine_events_go_to_the_shared_acpx_parser() -> None:
    line = '{"type":"acpx.text_delta","text":"hello from acp","channel":"output"}'
    expected = [{"kind": "assistant", "ts": TS, "text": "hello from acp", "delta": True}]
    assert parse_stdout_line(line, TS) == expected
    assert create_stdout_parser().parse_line(line, TS) == expected


def test_an_item_id_used_again_after_completion_is_a_new_call() -> None:
    parser = create_stdout_parser()
    kinds = [
        [e["kind"] for e in parser.parse_line(line, TS)] for line in MCP_RUN[3:6] + MCP_RUN[3:4]
    ]
    assert kinds == [["tool_call"], [], ["tool_result"], ["tool_call"]]


def test_reset_forgets_calls_already_shown() -> None:
    parser = create_stdout_parser()
    parser.parse_line(MCP_RUN[3], TS)
    parser.reset()
    assert [e["kind"] for e in parser.parse_line(MCP_RUN[5], TS)] == ["tool_call", "tool_result"]


@pytest.mark.parametrize(
    "line",
    [
        "plain text banner",
        "[1, 2]",
        '{"no_type": true}',
        '{"type": "mystery"}',
        "{broken",
        "[2025-11-11T12:19:02.920Z] [INFO] {broken",
    ],
)
def test_lines_that_are_not_codex_events_are_raw_stdout(line: str) -> None:
    assert parse_stdout_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]
    assert create_stdout_parser().parse_line(line, TS) == [
        {"kind": "stdout", "ts": TS, "text": line}
    ]


def test_hostile_nesting_never_breaks_an_entry() -> None:
    """Inputs deeper than the contract allows are replaced; deeper still, the value is named."""
    arguments = "1"
    for _ in range(600):
        arguments = '{"x":' + arguments + "}"
    start = (
        '{"type":"item.started","item":{"id":"i","type":"mcp_tool_call","server":"s","tool":"t",'
    )
    [call] = parse_stdout_line(start + '"arguments":' + arguments + "}}", TS)
    assert call["input"] == "(input not shown: it is nested deeper than 512 levels)"
    error = '{"type":"error","error":' + '{"x":' * 990 + "1" + "}" * 991
    for parse in (parse_stdout_line, create_stdout_parser().parse_line):
        assert parse(error, TS) == [
            {"kind": "stderr", "ts": TS, "text": "<dict nested too deeply to show>"}
        ]


# -- the rules every parser lives by ---------------------------------------------------------

item_fields = st.sampled_from(
    [
        "id", "text", "command", "aggregated_output", "exit_code", "status", "changes", "server",
        "tool", "arguments", "result", "error", "query", "action", "items", "message", "name",
        "input", "content", "output", "tool_use_id", "is_error", "agents_states", "prompt",
        "receiver_thread_ids",
    ]
)  # fmt: skip
item_types = st.sampled_from(
    [
        "agent_message", "reasoning", "plan", "command_execution", "file_change", "mcp_tool_call",
        "collab_tool_call", "web_search", "todo_list", "error", "tool_use", "tool_result", "x",
    ]
)  # fmt: skip


event_types = st.sampled_from(
    [
        "thread.started", "turn.started", "turn.completed", "turn.failed", "item.started",
        "item.updated", "item.completed", "item.plan.delta", "request_user_input", "error",
        "acpx.tool_call",
    ]
)  # fmt: skip
event_fields = st.sampled_from(
    ["thread_id", "usage", "error", "message", "delta", "item_id", "questions", "model"]
)


@st.composite
def codex_like_events(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(event_types | json_values)
    event: dict[str, Any] = {"type": kind}
    for key in draw(st.lists(event_fields, max_size=3)):
        event[key] = draw(json_values)
    if draw(st.booleans()):
        item: dict[str, Any] = {"type": draw(item_types | json_values)}
        for _ in range(draw(st.integers(0, 5))):
            item[draw(item_fields)] = draw(json_values)
        if draw(st.booleans()):
            item["id"] = draw(st.sampled_from(["item_0", "item_1"]))
        event["item"] = item
    return event


@given(st.lists(codex_like_events(), max_size=6), st.booleans())
def test_never_raises_and_always_returns_valid_entries_deterministically(
    events: list[dict[str, Any]], wrapped: bool
) -> None:
    prefix = "[2026-01-01T00:00:00.000Z] [INFO] " if wrapped else ""
    lines = [prefix + json.dumps(event) for event in events]
    assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)


legacy_types = st.sampled_from(
    [
        "session_configured", "task_started", "task_complete", "token_count", "agent_message",
        "agent_message_delta", "agent_reasoning", "agent_reasoning_delta", "user_message",
        "error", "stream_error", "warning", "deprecation_notice", "background_event",
        "exec_command_begin", "exec_command_end", "patch_apply_begin", "patch_apply_end",
        "mcp_tool_call_begin", "mcp_tool_call_end", "web_search_begin", "web_search_end",
        "turn_diff", "plan_update", "turn_aborted", "exec_approval_request", "new_kind",
    ]
)  # fmt: skip
legacy_fields = st.sampled_from(
    [
        "call_id", "command", "changes", "result", "invocation", "info", "message", "delta",
        "text", "plan", "unified_diff", "exit_code", "stdout", "success", "model", "reason",
        "last_agent_message", "rate_limits", "model_context_window", "session_id",
    ]
)  # fmt: skip


@st.composite
def legacy_events(draw: st.DrawFn) -> dict[str, Any]:
    msg: dict[str, Any] = {"type": draw(legacy_types)}
    for key in draw(st.lists(legacy_fields, max_size=5)):
        msg[key] = draw(json_values)
    if draw(st.booleans()):
        msg["call_id"] = draw(st.sampled_from(["c0", "c1"]))
    return {"id": draw(st.sampled_from(["", "1"])), "msg": msg}


@given(st.lists(legacy_events(), max_size=6))
def test_legacy_events_never_raise_and_give_valid_entries(events: list[dict[str, Any]]) -> None:
    lines = [json.dumps(event) for event in events]
    assert_valid_and_deterministic(create_stdout_parser, parse_stdout_line, lines, ts=TS)


def test_a_legacy_approval_request_is_a_pending_runtime_request() -> None:
    """Codex before ``exec --json`` asked before running a command or applying a patch:
    contract 1.3's ``runtime_request`` (its text as the 1.2 system line said it)."""
    command = {
        "id": "7",
        "msg": {
            "type": "exec_approval_request",
            "call_id": "call_9",
            "command": ["bash", "-lc", "rm -rf build"],
            "reason": "outside the sandbox",
        },
    }
    [request] = parse_stdout_line(json.dumps(command), TS)
    assert request["kind"] == "runtime_request" and entry_problem(request) is None
    assert (request["requestId"], request["requestKind"], request["status"]) == (
        "call_9",
        "command_approval",
        "pending",
    )
    assert request["prompt"].startswith("approval requested: ")
    assert "rm -rf build" in request["prompt"] and "(outside the sandbox)" in request["prompt"]
    assert [choice["key"] for choice in request["choices"]] == [
        "accept",
        "accept_for_session",
        "decline",
        "cancel",
    ]
    patch = {"id": "8", "msg": {"type": "apply_patch_approval_request", "changes": {}}}
    [request] = parse_stdout_line(json.dumps(patch), TS)
    assert request["requestKind"] == "file_approval" and entry_problem(request) is None
