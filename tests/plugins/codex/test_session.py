"""codex_session: Codex rollout files, written here and taken from real machines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from linewise import detect_adapter
from linewise.stream.detect import first_lines
from linewise_codex import sniff as stdout_sniff
from linewise_codex.session import create_stdout_parser, session_stores, sniff, summarize_run
from linewise_contracts.validation import entry_problem
from support import corpus_path, small_json_values

HOST_TS = "2099-01-01T00:00:00.000Z"
SESSION = "019a0000-0000-7000-8000-000000000001"


def _line(second: int, kind: str, payload: dict[str, Any]) -> str:
    stamp = f"2026-05-01T09:00:{second:02d}.000Z"
    return json.dumps({"timestamp": stamp, "type": kind, "payload": payload})


def _item(second: int, **payload: Any) -> str:
    return _line(second, "response_item", payload)


def _event(second: int, **payload: Any) -> str:
    return _line(second, "event_msg", payload)


def _tokens(second: int, total_in: int, total_out: int, cached: int) -> str:
    total = {"input_tokens": total_in, "output_tokens": total_out, "cached_input_tokens": cached}
    return _event(second, type="token_count", info={"total_token_usage": total})


def _text(role: str, text: str) -> list[dict[str, str]]:
    return [{"type": "output_text" if role == "assistant" else "input_text", "text": text}]


ROLLOUT = [
    _line(0, "session_meta", {"id": SESSION, "cwd": "/srv/app", "cli_version": "0.60.0"}),
    _item(0, type="message", role="user", content=_text("user", "<environment_context>x")),
    _item(1, type="message", role="user", content=_text("user", "add a health check")),
    _event(1, type="user_message", message="add a health check"),
    _line(1, "turn_context", {"cwd": "/srv/app", "model": "gpt-5-codex"}),
    _line(1, "world_state", {"full": True}),
    _item(2, type="reasoning", summary=[{"type": "summary_text", "text": "Find routes"}]),
    _event(2, type="agent_reasoning", text="Find routes"),
    _item(2, type="reasoning", summary=[], encrypted_content="gAAA"),
    _item(
        3, type="function_call", name="shell", arguments='{"command":["rg","route"]}', call_id="c1"
    ),
    _item(
        4,
        type="function_call_output",
        call_id="c1",
        output='{"output":"","metadata":{"exit_code":1}}',
    ),
    _event(4, type="exec_command_end", call_id="c1", exit_code=1, aggregated_output=""),
    _item(5, type="custom_tool_call", name="apply_patch", input="*** Begin Patch", call_id="c2"),
    _event(6, type="patch_apply_end", call_id="c2", success=True, stdout="Done!"),
    _item(6, type="custom_tool_call_output", call_id="c2", output="Done!"),
    _event(
        7,
        type="mcp_tool_call_end",
        call_id="c3",
        invocation={"server": "docs", "tool": "find"},
        result={"Ok": {"content": [{"type": "text", "text": "found"}]}},
    ),
    _item(
        8, type="web_search_call", id="ws1", status="completed", action={"query": "flask health"}
    ),
    _item(9, type="message", role="assistant", content=_text("assistant", "Added /health.")),
    _event(9, type="agent_message", message="Added /health."),
    _tokens(9, 1000, 100, 800),
    _event(10, type="task_complete", last_agent_message="Added /health."),
    _line(11, "compacted", {"message": "we added a health check"}),
    _line(12, "future_record", {"detail": 1}),
    _item(13, type="function_call", name="shell", arguments='{"command":["pytest"]}', call_id="c4"),
    _tokens(14, 1500, 130, 900),
    _event(15, type="turn_aborted", reason="interrupted"),
    _tokens(16, 1600, 140, 950),
]


def _entries(lines: list[str]) -> list[dict[str, Any]]:
    parser = create_stdout_parser()
    entries: list[dict[str, Any]] = []
    for line in lines:
        entries.extend(parser.parse_line(line, HOST_TS))  # type: ignore[arg-type]
    entries.extend(parser.finish(HOST_TS))  # type: ignore[arg-type]
    for entry in entries:
        assert entry_problem(entry) is None, entry
    return entries


def test_init_waits_for_the_model_and_comes_first() -> None:
    entries = _entries(ROLLOUT)
    assert entries[0] == {
        "kind": "init",
        "ts": "2026-05-01T09:00:00.000Z",
        "model": "gpt-5-codex",
        "sessionId": SESSION,
        "cwd": "/srv/app",
    }
    assert [e["kind"] for e in entries].count("init") == 1
    assert all(e["ts"] != HOST_TS for e in entries)


def test_messages_once_each_and_context_as_system() -> None:
    entries = _entries(ROLLOUT)
    said = [
        (e["kind"], e["text"]) for e in entries if e["kind"] in ("user", "assistant", "thinking")
    ]
    # event_msg copies of the prompt, the answer and the reasoning summary are not repeated;
    # encrypted-only reasoning shows nothing
    assert said == [
        ("user", "add a health check"),
        ("thinking", "Find routes"),
        ("assistant", "Added /health."),
    ]
    systems = [e["text"] for e in entries if e["kind"] == "system"]
    assert "<environment_context>x" in systems
    assert "context compacted: we added a health check" in systems
    assert 'codex future_record: {"detail":1}' in systems
    assert not any("world" in text for text in systems)
    assert "stdout" not in {e["kind"] for e in entries}


def test_every_call_has_one_named_result() -> None:
    entries = _entries(ROLLOUT)
    calls = [e for e in entries if e["kind"] == "tool_call"]
    results = [e for e in entries if e["kind"] == "tool_result"]
    assert [c["toolUseId"] for c in calls] == ["c1", "c2", "c3", "ws1", "c4"]
    assert sorted(r["toolUseId"] for r in results) == sorted(c["toolUseId"] for c in calls)
    by_id = {r["toolUseId"]: r for r in results}
    assert by_id["c1"]["isError"] is True  # exit code 1, from the output item
    assert by_id["c1"]["toolName"] == "shell"
    assert calls[0]["input"] == {"command": ["rg", "route"]}
    assert by_id["c2"]["content"].startswith("Done!")  # the end event came first
    assert calls[2]["name"] == "docs.find" and by_id["c3"]["content"] == "found"
    assert by_id["ws1"]["content"] == "searched: flask health"
    assert "no result recorded" in by_id["c4"]["content"]


def test_turn_results_carry_the_tokens_spent_since_the_last() -> None:
    results = [e for e in _entries(ROLLOUT) if e["kind"] == "result"]
    spent = [
        (r["subtype"], r["inputTokens"], r["outputTokens"], r["cachedTokens"]) for r in results
    ]
    assert spent == [
        ("task_complete", 1000, 100, 800),
        ("turn_aborted", 500, 30, 100),
        ("token_count", 100, 10, 50),  # counted after the last turn's end
    ]
    assert results[0]["text"] == "Added /health."
    assert results[1]["isError"] is True and results[1]["errors"] == ["turn aborted: interrupted"]


def test_a_file_holding_only_its_session_meta_still_gives_init() -> None:
    entries = _entries([ROLLOUT[0]])
    assert entries == [
        {
            "kind": "init",
            "ts": "2026-05-01T09:00:00.000Z",
            "model": "",
            "sessionId": SESSION,
            "cwd": "/srv/app",
        }
    ]


def test_a_model_change_is_said() -> None:
    lines = [*ROLLOUT[:5], _line(20, "turn_context", {"model": "gpt-5.1"})]
    assert _entries(lines)[-1] == {
        "kind": "system",
        "ts": "2026-05-01T09:00:20.000Z",
        "text": "model: gpt-5.1",
    }


BARE_ROLLOUT = [
    json.dumps({"id": SESSION, "timestamp": "2025-08-20T08:00:00.000Z", "instructions": None}),
    json.dumps({"record_type": "state"}),
    json.dumps(
        {
            "type": "message",
            "role": "user",
            "content": _text(
                "user", "<environment_context>\n  <cwd>/srv/old</cwd>\n</environment_context>"
            ),
        }
    ),
    json.dumps({"type": "message", "role": "user", "content": _text("user", "list files")}),
    json.dumps(
        {
            "type": "function_call",
            "name": "shell",
            "arguments": '{"command":["ls"]}',
            "call_id": "b1",
        }
    ),
    json.dumps({"type": "function_call_output", "call_id": "b1", "output": "a.py"}),
    json.dumps({"record_type": "state"}),
]


def test_a_2025_rollout_of_bare_records() -> None:
    assert sniff(BARE_ROLLOUT) == 1.0
    assert detect_adapter(BARE_ROLLOUT).adapter_type == "codex_session"
    entries = _entries(BARE_ROLLOUT)
    assert entries[0] == {
        "kind": "init",
        "ts": "2025-08-20T08:00:00.000Z",
        "model": "",
        "sessionId": SESSION,
        "cwd": "/srv/old",
    }
    assert [e["kind"] for e in entries[1:]] == ["system", "user", "tool_call", "tool_result"]
    assert entries[-1]["toolName"] == "shell" and entries[-1]["content"] == "a.py"
    assert all(e["ts"] == "2025-08-20T08:00:00.000Z" for e in entries)


def test_stores_honour_codex_home(tmp_path: Path) -> None:
    [store] = session_stores({}, tmp_path)
    assert store.cli == "codex" and store.root == tmp_path / ".codex"
    [custom] = session_stores({"CODEX_HOME": str(tmp_path / "cx")}, tmp_path)
    rollout = (
        custom.root
        / "sessions"
        / "2026"
        / "05"
        / "01"
        / f"rollout-2026-05-01T09-00-00-{SESSION}.jsonl"
    )
    rollout.parent.mkdir(parents=True)
    rollout.write_text(ROLLOUT[0] + "\n", encoding="utf-8")
    (custom.root / "history.jsonl").write_text("{}\n", encoding="utf-8")
    assert [path for pattern in custom.patterns for path in custom.root.glob(pattern)] == [rollout]


def test_sniff_tells_rollouts_from_exec_json() -> None:
    assert sniff(ROLLOUT[:10]) == 1.0
    assert stdout_sniff(ROLLOUT[:10]) == 0.0
    exec_json = [
        json.dumps({"type": "thread.started", "thread_id": "t"}),
        json.dumps({"type": "turn.started"}),
    ]
    assert sniff(exec_json) == 0.0
    assert stdout_sniff(exec_json) > 0.8
    assert sniff(["hello"]) == 0.0


def test_every_real_rollout_is_detected_read_whole_and_paired() -> None:
    files = sorted(corpus_path("real-sessions", "codex").glob("*.jsonl"))
    assert len(files) >= 5
    for path in files:
        detection = detect_adapter(first_lines(path.read_text(encoding="utf-8")))
        assert detection.adapter_type == "codex_session", (path.name, detection.reason)
        entries = _entries(path.read_text(encoding="utf-8").splitlines())
        assert entries[0]["kind"] == "init" and entries[0]["sessionId"], path.name
        assert not [e for e in entries if e["kind"] == "stdout"], path.name
        calls = {e["toolUseId"] for e in entries if e["kind"] == "tool_call"}
        assert calls == {e["toolUseId"] for e in entries if e["kind"] == "tool_result"}, path.name
        assert all(e["ts"] != HOST_TS for e in entries), path.name


def test_a_real_rollout_keeps_its_prompts_and_tokens() -> None:
    root = corpus_path("real-sessions", "codex")
    [path] = root.glob("*2025-09-24T19-22-20*.jsonl")
    entries = _entries(path.read_text(encoding="utf-8").splitlines())
    assert entries[0]["model"] == "gpt-5-codex"
    prompts = [e for e in entries if e["kind"] == "user"]
    assert len(prompts) == 13  # one per user_message event of the file
    results = [e for e in entries if e["kind"] == "result"]
    assert [r["subtype"] for r in results].count("turn_aborted") == 4
    # the results add up to the last token_count total of the file
    last_total = None
    for line in path.read_text(encoding="utf-8").splitlines():
        payload = json.loads(line)["payload"]
        if payload.get("type") == "token_count" and payload.get("info"):
            last_total = payload["info"]["total_token_usage"]
    assert last_total is not None
    assert sum(r["inputTokens"] for r in results) == last_total["input_tokens"]
    assert sum(r["outputTokens"] for r in results) == last_total["output_tokens"]


_PAYLOAD_FIELDS = st.sampled_from(
    [
        "id",
        "cwd",
        "model",
        "role",
        "content",
        "summary",
        "name",
        "arguments",
        "input",
        "call_id",
        "output",
        "status",
        "action",
        "info",
        "message",
        "reason",
        "invocation",
        "result",
        "changes",
        "item",
        "success",
    ]
)
_ITEM_TYPES = [
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "web_search_call",
    "image_generation_call",
    "agent_message",
    "novel",
]
_EVENT_TYPES = [
    "user_message",
    "token_count",
    "task_complete",
    "turn_aborted",
    "exec_command_begin",
    "exec_command_end",
    "patch_apply_end",
    "mcp_tool_call_end",
    "web_search_end",
    "view_image_tool_call",
    "dynamic_tool_call_response",
    "item_completed",
    "error",
    "novel",
]


@st.composite
def rollout_records(draw: st.DrawFn) -> dict[str, Any]:
    kind = draw(
        st.sampled_from(
            ["session_meta", "turn_context", "response_item", "event_msg", "compacted", "x"]
        )
    )
    payload: dict[str, Any] = {}
    if kind == "response_item":
        payload["type"] = draw(st.sampled_from(_ITEM_TYPES))
    elif kind == "event_msg":
        payload["type"] = draw(st.sampled_from(_EVENT_TYPES))
    for _ in range(draw(st.integers(0, 5))):
        payload[draw(_PAYLOAD_FIELDS)] = draw(small_json_values | st.sampled_from(["c1", "c2"]))
    record: dict[str, Any] = {"type": kind, "payload": payload}
    if kind == "response_item" and draw(st.booleans()):
        record = payload  # a 2025 rollout's bare item
    elif kind == "x" and draw(st.booleans()):
        record = draw(st.sampled_from([{"record_type": "state"}, {"id": "s", "timestamp": "t"}]))
    if draw(st.booleans()):
        record["timestamp"] = draw(st.sampled_from(["2026-05-01T09:00:00Z", "bad", 5]))
    return record


@given(st.lists(rollout_records(), max_size=8))
def test_any_records_give_valid_entries_the_same_way_twice(records: list[dict[str, Any]]) -> None:
    lines = [json.dumps(record) for record in records]
    first = _entries(lines)
    assert first == _entries(lines)
    assert sniff(lines) in (0.0, 0.9, 1.0)


def test_summary_has_the_last_totals_and_how_the_last_turn_ended() -> None:
    summary = summarize_run(ROLLOUT)
    assert summary.session_id == SESSION
    assert summary.model == "gpt-5-codex"
    assert (summary.usage.input_tokens, summary.usage.output_tokens) == (1600, 140)
    assert summary.usage.cached_tokens == 950
    assert summary.final_text == "Added /health."
    # The person aborted the last turn: an interruption, not a failure and not an error.
    assert summary.outcome == "interrupted" and not summary.is_error
    assert summary.errors == ()
    assert summary.complete  # the last turn ended (aborted)
    assert summary.details["prompts"] == 1 and summary.turns is None
    assert summary.cost_usd is None
    assert summarize_run([ROLLOUT[0]]).details == {"tokens_known": False, "prompts": 0}


def test_reset_forgets_the_rollout_read_so_far() -> None:
    parser = create_stdout_parser()
    for line in ROLLOUT[:12]:
        parser.parse_line(line, HOST_TS)
    parser.reset()
    again = [e for line in ROLLOUT for e in parser.parse_line(line, HOST_TS)]
    again.extend(parser.finish(HOST_TS))
    assert again == _entries(ROLLOUT)


def test_a_rollout_without_turn_events_is_complete_once_its_prompt_is_answered() -> None:
    # Codex 0.40 wrote no task_complete: an answer after the last prompt, with no call
    # left to run, is how the turn ended.
    asked = ROLLOUT[:3]
    call = _item(3, type="function_call", name="shell", arguments="{}", call_id="c1")
    answer = _item(4, type="message", role="assistant", content=_text("assistant", "Done."))
    again = _item(5, type="message", role="user", content=_text("user", "and the tests?"))
    assert summarize_run([*asked, call, answer]).complete
    assert not summarize_run([*asked, call]).complete
    assert not summarize_run([*asked, call, answer, again]).complete
    assert not summarize_run([ROLLOUT[0]]).complete  # nothing asked, nothing answered


def test_reasoning_of_a_turn_aborted_before_its_item_was_written_is_kept() -> None:
    lines = [
        _line(0, "session_meta", {"id": SESSION, "cwd": "/srv/app", "model": "gpt-5-codex"}),
        _item(1, type="message", role="user", content=_text("user", "refactor the router")),
        _item(2, type="reasoning", summary=[{"type": "summary_text", "text": "Read routes"}]),
        _event(2, type="agent_reasoning", text="Read routes"),  # repeats the item: shown once
        _event(3, type="agent_reasoning", text="Split the handlers"),  # no item: Esc came first
        _event(4, type="turn_aborted", reason="interrupted"),
        _event(5, type="agent_reasoning", text="Add tests"),
        _item(5, type="reasoning", summary=[{"type": "summary_text", "text": "Add tests"}]),
        _event(6, type="turn_aborted", reason="interrupted"),
    ]
    thinking = [entry["text"] for entry in _entries(lines) if entry["kind"] == "thinking"]
    assert thinking == ["Read routes", "Split the handlers", "Add tests"]
