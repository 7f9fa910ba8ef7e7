"""copilot_session on real Copilot CLI sessions, on events written here, and through the host."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_copilot
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.sessions import SessionStore
from linewise_copilot import create_stdout_parser, session_stores, sniff, summarize_run
from session_checks import HOST_TS, problems, render, session_entries
from support import corpus_path, json_values

SAMPLE = Path(linewise_copilot.__file__).parent / "samples" / "copilot_session" / "events.jsonl"


def _real_sessions() -> list[Path]:
    return sorted(corpus_path("real-sessions", "copilot").glob("*.jsonl"))


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_real_session_reads_whole_paired_and_stamped() -> None:
    sessions = _real_sessions()
    assert sessions
    for path in sessions:
        entries = session_entries(create_stdout_parser, _lines(path))
        assert problems(entries) == [], path.name
        assert entries[0]["sessionId"] in path.name
        assert entries[0]["cwd"] == "/work"
        assert {"kind": "system", "ts": entries[1]["ts"], "text": "model: qwen3:0.6b"} in entries
        result = entries[-1]
        assert result["kind"] == "result" and result["subtype"] == "routine"
        assert result["inputTokens"] > 0 and result["outputTokens"] > 0


def test_every_real_session_is_detected_by_the_host() -> None:
    for path in _real_sessions():
        stderr, entries = render(path)
        assert "detected copilot_session" in stderr, stderr
        assert problems(entries) == [], path.name


def test_the_sniffer_prefers_session_files_and_leaves_other_clis_alone() -> None:
    for path in _real_sessions():
        assert sniff(_lines(path)[:40]) >= 0.9
    for other in ("codex", "qwen"):
        for path in corpus_path("real-sessions", other).glob("*.jsonl"):
            assert sniff(_lines(path)[:40]) == 0.0, path.name


def test_each_event_type_of_the_written_session() -> None:
    entries = session_entries(create_stdout_parser, _lines(SAMPLE))
    assert problems(entries) == []
    init = entries[0]
    assert init == {
        "kind": "init",
        "ts": "2026-06-02T14:00:00.000Z",
        "model": "claude-sonnet-4.5",
        "sessionId": "7d2c9a10-0000-4000-8000-00000000c0de",
        "cwd": "/home/dev/api",
    }
    texts = [entry.get("text") for entry in entries]
    assert "You are the GitHub Copilot CLI ..." not in texts  # the system prompt is dropped
    assert "Run the tests and fix what fails." in texts  # as typed, not transformed
    tests = [entry for entry in entries if entry.get("toolUseId") == "call_sh_1"]
    assert [entry["kind"] for entry in tests] == ["tool_call", "tool_result"]  # start adds nothing
    assert tests[1]["isError"] is True
    assert tests[1]["content"] == "1 failed, 12 passed\nexit code 1"
    task = next(entry for entry in entries if entry.get("toolUseId") == "call_task_1")
    assert task["input"] == {"prompt": "find the failing assertion"}  # arguments given as text
    nested = [entry for entry in entries if entry.get("parentToolUseId") == "call_task_1"]
    assert [entry["kind"] for entry in nested] == [
        "system",
        "assistant",
        "tool_call",
        "tool_result",
        "system",
    ]
    assert nested[3]["toolName"] == "view"
    assert {
        "kind": "stderr",
        "ts": "2026-06-02T14:00:18.000Z",
        "text": "query: rate limited (status 429)",
    } in entries
    assert "aborted: user requested" in texts
    result = entries[-1]
    assert (result["inputTokens"], result["outputTokens"], result["cachedTokens"]) == (
        5200,
        410,
        3000,
    )


def test_unknown_events_stay_raw_and_dropped_ones_give_nothing() -> None:
    parser = create_stdout_parser()
    boundary = json.dumps(
        {"type": "assistant.turn_end", "data": {}, "timestamp": "2026-06-02T14:00:00Z"}
    )
    assert parser.parse_line(boundary, HOST_TS) == []
    unknown = json.dumps(
        {"type": "session.new_kind", "data": {}, "timestamp": "2026-06-02T14:00:00Z"}
    )
    assert parser.parse_line(unknown, HOST_TS) == [
        {"kind": "stdout", "ts": "2026-06-02T14:00:00.000Z", "text": unknown}
    ]


def test_the_store_honours_copilot_home(tmp_path: Path) -> None:
    [store] = session_stores({}, tmp_path)
    assert store == SessionStore(
        "copilot", tmp_path / ".copilot", ("session-state/*/events.jsonl",)
    )
    [moved] = session_stores({"COPILOT_HOME": "/srv/copilot"}, tmp_path)
    assert moved.root == Path("/srv/copilot")
    [blank] = session_stores({"COPILOT_HOME": "  "}, tmp_path)
    assert blank.root == tmp_path / ".copilot"


@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(
                    [
                        "session.start",
                        "assistant.message",
                        "tool.execution_start",
                        "tool.execution_complete",
                        "session.shutdown",
                        "subagent.failed",
                        "session.error",
                        "user.message",
                        "hook.end",
                    ]
                ),
                "data": st.dictionaries(
                    st.sampled_from(
                        [
                            "toolRequests",
                            "toolCallId",
                            "content",
                            "result",
                            "error",
                            "modelMetrics",
                            "parentToolCallId",
                            "arguments",
                            "context",
                            "statusCode",
                        ]
                    ),
                    json_values,
                    max_size=5,
                ),
            }
        ),
        max_size=6,
    )
)
def test_never_raises_on_hostile_events(events: list[dict[str, Any]]) -> None:
    parser = create_stdout_parser()
    for event in events:
        for entry in parser.parse_line(json.dumps(event), HOST_TS):
            assert entry_problem(entry) is None, entry


def test_the_compliance_checks_pass() -> None:
    report = run_checks("copilot_session", examples=200)
    failed = [
        f"{result.check}: {result.message}" for result in report.results if result.status == "fail"
    ]
    assert report.ok, failed


def test_the_summary_reads_the_shutdown() -> None:
    for path in _real_sessions():
        summary = summarize_run(_lines(path))
        shutdown = json.loads(_lines(path)[-1])["data"]
        [metrics] = shutdown["modelMetrics"].values()
        assert summary.session_id in path.name and summary.model == "qwen3:0.6b"
        assert summary.usage.input_tokens == metrics["usage"]["inputTokens"]
        assert summary.usage.output_tokens == metrics["usage"]["outputTokens"]
        # Copilot's raw shutdownType "routine" is said in the contract's words
        assert (summary.outcome, summary.complete, summary.cost_usd) == ("completed", True, None)
        assert summary.details["shutdownType"] == "routine"
        assert summary.final_text
    cut_off = summarize_run(_lines(SAMPLE)[:-1])
    assert cut_off.complete is False and cut_off.model == "claude-sonnet-4.5"


def test_newer_subagent_events_nest_through_their_agent_id() -> None:
    def event(kind: str, data: dict[str, Any], agent: str | None = None) -> str:
        envelope: dict[str, Any] = {
            "type": kind,
            "data": data,
            "id": "e",
            "parentId": None,
            "timestamp": "2026-06-02T14:00:00.000Z",
        }
        if agent:
            envelope["agentId"] = agent
        return json.dumps(envelope)

    lines = [
        event(
            "assistant.message",
            {
                "content": "",
                "toolRequests": [
                    {"toolCallId": "call_a", "name": "task", "arguments": {}},
                    {"toolCallId": "call_b", "name": "task", "arguments": {}},
                ],
            },
        ),
        event(
            "subagent.started",
            {"toolCallId": "call_a", "agentId": "agent-7", "agentName": "explore"},
        ),
        event("assistant.message", {"content": "by agent 7"}, agent="agent-7"),
        event("assistant.message", {"content": "by call b"}, agent="call_b"),
        event("assistant.message", {"content": "unknown agent"}, agent="agent-x"),
    ]
    entries = session_entries(create_stdout_parser, lines)
    parents = {e["text"]: e.get("parentToolUseId") for e in entries if e["kind"] == "assistant"}
    assert parents == {"by agent 7": "call_a", "by call b": "call_b", "unknown agent": None}


def test_a_fake_home_laid_out_like_copilot_clis(tmp_path: Path) -> None:
    state = tmp_path / ".copilot" / "session-state"
    for ident in ("0a1b", "9f8e"):
        (state / ident).mkdir(parents=True)
        (state / ident / "events.jsonl").write_text("{}\n", encoding="utf-8")
        (state / ident / "workspace.yaml").write_text("id: x\n", encoding="utf-8")
    (tmp_path / ".copilot" / "session-store.db").write_text("", encoding="utf-8")
    [store] = session_stores({}, tmp_path)
    found = sorted(path for pattern in store.patterns for path in store.root.glob(pattern))
    assert found == [state / "0a1b" / "events.jsonl", state / "9f8e" / "events.jsonl"]


def test_attachments_of_a_prompt_are_named() -> None:
    line = json.dumps(
        {
            "type": "user.message",
            "data": {
                "content": "Review this",
                "attachments": [
                    {"type": "file", "path": "/w/a.py", "displayName": "a.py"},
                    {"type": "selection"},
                ],
            },
            "timestamp": "2026-06-02T14:00:00Z",
        }
    )
    [entry] = create_stdout_parser().parse_line(line, HOST_TS)
    assert entry["text"] == "Review this\n[file attached: a.py]\n[selection attached]"
