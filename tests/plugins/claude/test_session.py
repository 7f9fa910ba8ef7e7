"""claude_session: Claude Code's session files, written here and taken from real machines."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise import detect_adapter
from linewise.stream.detect import first_lines
from linewise_claude import sniff as stdout_sniff
from linewise_claude.session import (
    create_stdout_parser,
    session_records,
    session_stores,
    sniff,
    summarize_run,
)
from linewise_contracts.validation import entry_problem
from support import corpus_path, small_json_values

HOST_TS = "2099-01-01T00:00:00.000Z"
SESSION = "5e551011-0000-4000-8000-000000000001"


def _record(kind: str, uuid: str, parent: str | None, second: int, **fields: Any) -> str:
    record: dict[str, Any] = {
        "parentUuid": parent,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/home/dev/shop",
        "sessionId": SESSION,
        "version": "2.1.200",
        "gitBranch": "main",
        "type": kind,
        "uuid": uuid,
        "timestamp": f"2026-03-01T10:00:{second:02d}.000Z",
    }
    record.update(fields)
    return json.dumps(record)


def _assistant(uuid: str, parent: str, second: int, *blocks: dict[str, Any], **fields: Any) -> str:
    message = {
        "id": f"msg_{uuid}",
        "role": "assistant",
        "model": "claude-sonnet-4-6",
        "content": list(blocks),
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 100},
    }
    return _record("assistant", uuid, parent, second, message=message, **fields)


def _user(uuid: str, parent: str | None, second: int, content: object, **fields: Any) -> str:
    return _record(
        "user", uuid, parent, second, message={"role": "user", "content": content}, **fields
    )


def _result(tool_id: str, text: str) -> list[dict[str, Any]]:
    return [{"type": "tool_result", "tool_use_id": tool_id, "content": text}]


# A 1.x session: a Task whose subagent's records sit in the main file as a sidechain.
MAIN = [
    json.dumps({"type": "summary", "summary": "Fix the cart", "leafUuid": "a3"}),
    _user("u1", None, 1, "fix the cart total"),
    _assistant(
        "a1",
        "u1",
        2,
        {"type": "thinking", "thinking": "Look first.", "signature": "sig"},
        {"type": "text", "text": "Delegating the search."},
        {
            "type": "tool_use",
            "id": "toolu_task",
            "name": "Task",
            "input": {"prompt": "find cart.py"},
        },
    ),
    _user("s1", None, 3, "find cart.py", isSidechain=True),
    _assistant(
        "s2",
        "s1",
        4,
        {"type": "tool_use", "id": "toolu_ls", "name": "LS", "input": {"path": "."}},
        isSidechain=True,
    ),
    _user("s3", "s2", 5, _result("toolu_ls", "cart.py"), isSidechain=True),
    _assistant("s4", "s3", 6, {"type": "text", "text": "It is cart.py"}, isSidechain=True),
    _user("u2", "a1", 7, _result("toolu_task", "It is cart.py"), toolUseResult={"status": "done"}),
    json.dumps({"type": "file-history-snapshot", "messageId": "a1", "snapshot": {}}),
    _assistant(
        "a2",
        "u2",
        8,
        {"type": "tool_use", "id": "toolu_edit", "name": "Edit", "input": {"file_path": "cart.py"}},
    ),
    _user(
        "u3",
        "a2",
        9,
        _result("toolu_edit", "edited"),
        toolUseResult={
            "filePath": "cart.py",
            "structuredPatch": [
                {
                    "oldStart": 1,
                    "oldLines": 1,
                    "newStart": 1,
                    "newLines": 1,
                    "lines": ["-total = 0", "+total = sum(items)"],
                }
            ],
        },
    ),
    _record(
        "system",
        "y1",
        "u3",
        10,
        subtype="api_error",
        error={"message": "Overloaded", "status": 529},
        retryAttempt=1,
        maxRetries=10,
        retryInMs=500,
    ),
    _record(
        "attachment", "t1", "y1", 11, attachment={"type": "queued_command", "prompt": "and tests"}
    ),
    _record(
        "attachment",
        "t2",
        "t1",
        12,
        attachment={"type": "hook_non_blocking_error", "hookName": "lint", "stderr": "boom"},
    ),
    _record("attachment", "t3", "t2", 12, attachment={"type": "skill_listing", "names": []}),
    _record("shiny-new-record", "n1", "t3", 13, detail="something"),
    _assistant(
        "a3",
        "t3",
        14,
        {"type": "tool_use", "id": "toolu_bash", "name": "Bash", "input": {"command": "pytest"}},
    ),
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


def _write(path: Path, lines: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _session_entries(path: Path) -> list[dict[str, Any]]:
    return _entries(list(session_records(path)))


def test_a_session_file_read_through_its_records(tmp_path: Path) -> None:
    entries = _session_entries(_write(tmp_path / "p" / f"{SESSION}.jsonl", MAIN))
    init = entries[0]
    assert init == {
        "kind": "init",
        "ts": "2026-03-01T10:00:01.000Z",
        "model": "claude-sonnet-4-6",
        "sessionId": SESSION,
        "cwd": "/home/dev/shop",
    }
    kinds = [entry["kind"] for entry in entries]
    assert "stdout" not in kinds
    texts = {(entry["kind"], entry.get("text")) for entry in entries}
    # the summary (no time of its own) takes the session's first time
    assert ("system", "summary: Fix the cart") in texts
    assert entries[1]["ts"] == "2026-03-01T10:00:01.000Z"
    assert ("user", "fix the cart total") in texts
    assert ("thinking", "Look first.") in texts
    assert ("user", "and tests") in texts  # a queued prompt is the person's
    assert ("stderr", "hook lint non blocking error\nboom") in texts
    assert ("stderr", "API error HTTP 529: Overloaded (retry 1/10 in 0.5s)") in texts
    assert ("system", 'shiny-new-record: {"detail":"something"}') in texts
    # the skill listing and the file-history snapshot are dropped on purpose
    assert not any("skill" in str(entry.get("text")) for entry in entries)
    assert any(
        entry["kind"] == "diff" and entry["text"] == "+total = sum(items)" for entry in entries
    )
    assert all(entry["ts"] != HOST_TS for entry in entries)


def test_the_session_id_is_the_files_name(tmp_path: Path) -> None:
    # A resumed session's file opens with its predecessor's records, under the old id.
    resumed = "7e5e7e5e-0000-4000-8000-000000000002"
    entries = _session_entries(_write(tmp_path / f"{resumed}.jsonl", MAIN))
    assert entries[0]["sessionId"] == resumed
    summary_only = _write(tmp_path / "notes.jsonl", [MAIN[0]])
    assert _session_entries(summary_only)[0]["sessionId"] == "notes"


def test_tool_calls_are_paired_and_named_and_an_unanswered_one_is_closed(tmp_path: Path) -> None:
    entries = _session_entries(_write(tmp_path / f"{SESSION}.jsonl", MAIN))
    calls = {e["toolUseId"]: e["name"] for e in entries if e["kind"] == "tool_call"}
    results = {e["toolUseId"]: e for e in entries if e["kind"] == "tool_result"}
    assert set(calls) == set(results) == {"toolu_task", "toolu_ls", "toolu_edit", "toolu_bash"}
    assert all(results[ident]["toolName"] == name for ident, name in calls.items())
    # the file ends before Bash returned: the parser says so rather than leave it open
    assert "no result recorded" in results["toolu_bash"]["content"]
    assert results["toolu_bash"]["ts"] == "2026-03-01T10:00:14.000Z"


def test_an_inline_sidechain_nests_under_its_task(tmp_path: Path) -> None:
    entries = _session_entries(_write(tmp_path / f"{SESSION}.jsonl", MAIN))
    nested = [e for e in entries if "parentToolUseId" in e]
    assert {e["parentToolUseId"] for e in nested} == {"toolu_task"}
    kinds = [e["kind"] for e in nested]
    # The subagent's own model is named at its first assistant record.
    assert kinds == ["user", "system", "tool_call", "tool_result", "assistant"]
    assert nested[1]["text"].startswith("subagent model ")
    task_result = next(
        e for e in entries if e.get("toolUseId") == "toolu_task" and e["kind"] == "tool_result"
    )
    assert "parentToolUseId" not in task_result


def _subagent_session(tmp_path: Path, meta: dict[str, Any] | None) -> Path:
    main = tmp_path / "projects" / "-home-dev-shop" / f"{SESSION}.jsonl"
    _write(
        main,
        [
            _user("u1", None, 1, "review it"),
            _assistant(
                "a1",
                "u1",
                2,
                {
                    "type": "tool_use",
                    "id": "toolu_agent",
                    "name": "Agent",
                    "input": {"prompt": "review"},
                },
            ),
            _user(
                "u2",
                "a1",
                9,
                _result("toolu_agent", "looks fine"),
                toolUseResult={"agentId": "a7f"},
            ),
        ],
    )
    agent = main.with_suffix("") / "subagents" / "agent-a7f.jsonl"
    _write(
        agent,
        [
            _user("c1", None, 3, "review", isSidechain=True, agentId="a7f"),
            _assistant(
                "c2",
                "c1",
                4,
                {
                    "type": "tool_use",
                    "id": "toolu_read",
                    "name": "Read",
                    "input": {"file_path": "x"},
                },
                isSidechain=True,
                agentId="a7f",
            ),
            _user("c3", "c2", 5, _result("toolu_read", "x"), isSidechain=True, agentId="a7f"),
        ],
    )
    if meta is not None:
        agent.with_name("agent-a7f.meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return main


@pytest.mark.parametrize(
    "meta", [{"agentType": "reviewer", "toolUseId": "toolu_agent", "spawnDepth": 1}, None]
)
def test_subagent_files_nest_under_the_call_that_spawned_them(
    tmp_path: Path, meta: dict[str, Any] | None
) -> None:
    # Newer versions name the call in .meta.json; older ones only in the result's agentId.
    entries = _session_entries(_subagent_session(tmp_path, meta))
    assert [e["kind"] for e in entries].count("init") == 1
    nested = [e for e in entries if "parentToolUseId" in e]
    assert {e["parentToolUseId"] for e in nested} == {"toolu_agent"}
    kinds = [e["kind"] for e in nested]
    assert kinds == ["system", "user", "system", "tool_call", "tool_result"]
    assert nested[0]["text"].startswith("subagent a7f")
    assert nested[2]["text"] == "subagent model claude-sonnet-4-6"  # its own, named once
    assert nested[-1]["toolName"] == "Read"


def test_relayed_subagent_messages_nest_and_are_not_shown_twice(tmp_path: Path) -> None:
    # 2.0+ relays each subagent message into the main file as progress/agent_progress;
    # the same message (same uuid) in the subagent's file is not shown again.
    main = _subagent_session(tmp_path, None)
    agent = main.with_suffix("") / "subagents" / "agent-a7f.jsonl"
    relayed = json.loads(agent.read_text(encoding="utf-8").splitlines()[1])  # its Read call
    progress = _record(
        "progress",
        "p1",
        "a1",
        4,
        data={"type": "agent_progress", "agentId": "a7f", "prompt": "review", "message": relayed},
        toolUseID="agent_msg_1",
        parentToolUseID="toolu_agent",
    )
    bash = _record("progress", "p2", "a1", 4, data={"type": "bash_progress", "output": "..."})
    lines = main.read_text(encoding="utf-8").splitlines()
    _write(main, [*lines[:2], progress, bash, lines[2]])
    entries = _session_entries(main)
    reads = [e for e in entries if e["kind"] == "tool_call" and e["name"] == "Read"]
    assert len(reads) == 1 and reads[0]["parentToolUseId"] == "toolu_agent"
    assert reads[0]["ts"] == "2026-03-01T10:00:04.000Z"
    nested = [e for e in entries if "parentToolUseId" in e]
    assert {e["parentToolUseId"] for e in nested} == {"toolu_agent"}
    # the relayed call, then the subagent file: its line, its prompt, the Read result
    assert [e["kind"] for e in nested] == ["tool_call", "system", "user", "tool_result"]
    assert not any("bash" in str(e.get("text")) for e in entries)


def test_a_subagent_file_alone_still_nests_under_its_meta_call(tmp_path: Path) -> None:
    main = _subagent_session(tmp_path, {"toolUseId": "toolu_agent"})
    agent = main.with_suffix("") / "subagents" / "agent-a7f.jsonl"
    entries = _session_entries(agent)
    assert entries[0]["kind"] == "init"
    assert all(e.get("parentToolUseId") == "toolu_agent" for e in entries[1:])


def test_without_the_header_init_waits_for_the_first_model() -> None:
    # The file piped in, not read through session_records: the prompt waits for init.
    entries = _entries(MAIN[1:3])
    assert entries[0] == {
        "kind": "init",
        "ts": "2026-03-01T10:00:01.000Z",
        "model": "claude-sonnet-4-6",
        "sessionId": SESSION,
        "cwd": "/home/dev/shop",
    }
    assert entries[1] == {
        "kind": "user",
        "ts": "2026-03-01T10:00:01.000Z",
        "text": "fix the cart total",
    }
    # a first record without id, cwd or time: the next records tell them
    snapshot = json.dumps({"type": "file-history-snapshot", "messageId": "m", "snapshot": {}})
    assert _entries([snapshot, *MAIN[1:3]])[:2] == entries[:2]
    # no assistant record at all: init comes out at the end, its model unknown
    alone = _entries(MAIN[1:2])
    assert [e["kind"] for e in alone] == ["init", "user"]
    assert alone[0]["model"] == ""


def test_held_entries_go_out_before_they_outgrow_what_one_line_may_give() -> None:
    # The host bounds the entries of one line; init may not wait for a model forever.
    parser = create_stdout_parser()
    prompts = [_user(f"u{n}", None, n, "x" * 100_000) for n in range(1, 4)]
    out = [parser.parse_line(line, HOST_TS) for line in prompts]
    assert out[0] == out[1] == []
    assert [e["kind"] for e in out[2]] == ["init", "user", "user", "user"]
    assert out[2][0]["model"] == ""


def test_a_line_that_is_not_json_is_kept_as_text() -> None:
    entries = _entries([MAIN[1], "not json {"])
    assert entries[-1] == {"kind": "stdout", "ts": "2026-03-01T10:00:01.000Z", "text": "not json {"}


def test_stores_honour_claude_config_dir_and_skip_subagent_files(tmp_path: Path) -> None:
    home = tmp_path / "home"
    [store] = session_stores({}, home)
    assert store.cli == "claude"
    assert store.root == home / ".claude" / "projects"
    [custom] = session_stores({"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg")}, home)
    assert custom.root == tmp_path / "cfg" / "projects"
    main = _subagent_session(tmp_path / "cfg", {"toolUseId": "toolu_agent"})
    found = {path for pattern in custom.patterns for path in custom.root.glob(pattern)}
    kept = {
        path
        for path in found
        if not any(path.relative_to(custom.root).match(x) for x in custom.exclude)
    }
    assert kept == {main}


def test_sniff_tells_session_files_from_stream_json() -> None:
    assert sniff(MAIN[:5]) == 1.0
    assert stdout_sniff(MAIN[1:5]) == 0.0
    stream = [
        json.dumps(
            {"type": "system", "subtype": "init", "session_id": "s", "model": "m", "tools": []}
        ),
        json.dumps(
            {"type": "assistant", "session_id": "s", "message": {"id": "msg_1", "content": []}}
        ),
    ]
    assert sniff(stream) == 0.0
    assert stdout_sniff(stream) > 0.8
    qwen_like = [
        json.dumps(
            {"type": "user", "parentUuid": None, "sessionId": "q", "provenance": "real_user"}
        )
    ]
    assert sniff(qwen_like) == 0.0
    assert sniff(["plain text"]) == 0.0


def test_summary_counts_each_api_message_once(tmp_path: Path) -> None:
    # Claude Code writes one record per content block, each repeating the message's usage.
    repeat = _assistant("a1", "u1", 2, {"type": "text", "text": "Delegating the search."})
    path = _write(tmp_path / f"{SESSION}.jsonl", [*MAIN, repeat])
    summary = summarize_run(session_records(path))
    assert summary.session_id == SESSION
    assert summary.model == "claude-sonnet-4-6"
    # five distinct API messages (the subagent's count too), 10 + 5 + 100 tokens each
    assert (summary.usage.input_tokens, summary.usage.output_tokens) == (50, 25)
    assert summary.usage.cached_tokens == 500
    assert summary.cost_usd is None
    assert summary.outcome == "completed"  # at rest: the last prompt was answered
    assert summary.final_text == "Delegating the search."


def _corpus_files() -> list[Path]:
    root = corpus_path("real-sessions", "claude")
    return sorted(root.rglob("*.jsonl"))


def test_every_real_session_is_detected_read_whole_and_paired() -> None:
    files = _corpus_files()
    assert len(files) >= 12
    for path in files:
        lines = first_lines(path.read_text(encoding="utf-8"))
        detection = detect_adapter(lines)
        assert detection.adapter_type == "claude_session", (path.name, detection.reason)
        entries = _session_entries(path)
        assert entries[0]["kind"] == "init" and entries[0]["sessionId"], path.name
        assert not [e for e in entries if e["kind"] == "stdout"], path.name
        calls = {e["toolUseId"] for e in entries if e["kind"] == "tool_call"}
        results = {e["toolUseId"] for e in entries if e["kind"] == "tool_result"}
        assert calls == results, path.name
        text = path.read_text(encoding="utf-8")
        has_times = '"timestamp"' in text
        assert not has_times or all(e["ts"] != HOST_TS for e in entries), path.name
        # read as plain lines (piped in), init still comes first with the records' facts
        plain = _entries(text.splitlines())
        assert plain[0]["kind"] == "init" and plain[0]["model"] == entries[0]["model"], path.name
        assert not has_times or all(e["ts"] != HOST_TS for e in plain), path.name
        assert ('"sessionId"' not in text) or plain[0]["sessionId"], path.name


def test_real_inline_sidechains_nest_under_their_five_tasks() -> None:
    root = corpus_path("real-sessions", "claude")
    entries = _session_entries(
        root / "claude-code-viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl"
    )
    tasks = {e["toolUseId"] for e in entries if e["kind"] == "tool_call" and e["name"] == "Task"}
    assert len(tasks) == 5
    assert {e["parentToolUseId"] for e in entries if "parentToolUseId" in e} == tasks


_FIELDS = st.sampled_from(
    [
        "parentUuid",
        "isSidechain",
        "sessionId",
        "cwd",
        "uuid",
        "timestamp",
        "agentId",
        "toolUseResult",
        "isMeta",
        "isApiErrorMessage",
        "error",
        "subtype",
        "summary",
        "attachment",
        "data",
        "operation",
        "content",
        "model",
        "toolUseId",
        "compactMetadata",
    ]
)
_BLOCK = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "thinking", "tool_use", "tool_result", "image", "x"])},
    optional=dict.fromkeys(
        ["text", "thinking", "id", "name", "input", "content", "is_error", "tool_use_id"],
        small_json_values,
    ),
)


@st.composite
def session_records_like(draw: st.DrawFn) -> dict[str, Any]:
    kinds = [
        "user",
        "assistant",
        "system",
        "attachment",
        "summary",
        "progress",
        "progress",
        "queue-operation",
        "result",
        "file-history-snapshot",
        "linewise-session",
        "linewise-subagent",
        "novel",
    ]
    record: dict[str, Any] = {"type": draw(st.sampled_from(kinds))}
    for _ in range(draw(st.integers(0, 5))):
        record[draw(_FIELDS)] = draw(small_json_values)
    if draw(st.booleans()):
        record["message"] = {
            "id": draw(st.text(max_size=2)),
            "model": draw(st.sampled_from(["claude-x", "<synthetic>", ""])),
            "content": draw(st.lists(_BLOCK, max_size=3) | st.text(max_size=5)),
        }
    if record["type"] == "progress" and draw(st.booleans()):
        record["parentToolUseID"] = draw(st.sampled_from(["t1", "", 7]))
        inner = {
            "type": draw(st.sampled_from(["user", "assistant", "x"])),
            "uuid": draw(st.sampled_from(["u1", "u2", ["u"]])),
            "message": {"content": draw(st.lists(_BLOCK, max_size=2))},
        }
        record["data"] = {"type": "agent_progress", "agentId": "a1", "message": inner}
    return record


@given(st.lists(session_records_like(), max_size=8))
def test_any_records_give_valid_entries_the_same_way_twice(records: list[dict[str, Any]]) -> None:
    lines = [json.dumps(record) for record in records]
    first = _entries(lines)
    assert first == _entries(lines)
    assert sniff(lines) in (0.0, 0.9, 1.0)


def test_reset_forgets_the_session_read_so_far() -> None:
    parser = create_stdout_parser()
    for line in MAIN[:4]:
        parser.parse_line(line, HOST_TS)
    parser.reset()
    again = [e for line in MAIN for e in parser.parse_line(line, HOST_TS)]
    again.extend(parser.finish(HOST_TS))
    assert again == _entries(MAIN)


def test_a_session_is_complete_when_its_last_prompt_got_an_answer(tmp_path: Path) -> None:
    asked = _user("p1", None, 1, "rename the module")
    call = _assistant(
        "c1", "p1", 2, {"type": "tool_use", "id": "toolu_mv", "name": "Bash", "input": {}}
    )
    output = _user("r1", "c1", 3, _result("toolu_mv", "done"))
    answer = _assistant("t1", "r1", 4, {"type": "text", "text": "Renamed."})
    again = _user("p2", "t1", 5, "and the tests?")

    def complete(*lines: str) -> bool:
        path = _write(tmp_path / f"{SESSION}.jsonl", list(lines))
        return summarize_run(session_records(path)).complete

    assert complete(asked, call, output, answer)  # at rest: an answer, nothing pending
    assert not complete(asked, call)  # stopped while a tool call was waiting
    assert not complete(asked, call, output)  # the model never read the result
    assert not complete(asked, call, output, answer, again)  # a prompt not answered


def test_a_slash_command_is_shown_as_a_command_not_as_the_persons_prompt(tmp_path: Path) -> None:
    markup = (
        "<command-name>/model</command-name>\n<command-message>model</command-message>\n"
        "<command-args>opus</command-args>"
    )
    lines = [
        _user("c1", None, 1, markup),
        _user("c2", "c1", 2, [{"type": "text", "text": "<command-name>/clear</command-name>"}]),
        _user("u1", "c2", 3, "why does <command-name> appear in the docs?"),
        _assistant("a1", "u1", 4, {"type": "text", "text": "It is markup."}),
    ]
    entries = _session_entries(_write(tmp_path / f"{SESSION}.jsonl", lines))
    shown = [(entry["kind"], entry.get("text")) for entry in entries[1:]]
    assert shown[:3] == [
        ("system", "slash command /model opus"),
        ("system", "slash command /clear"),
        # Markup quoted inside a prompt does not make it a command.
        ("user", "why does <command-name> appear in the docs?"),
    ]


def test_the_first_prompt_listed_skips_slash_commands(tmp_path: Path) -> None:
    from linewise import Registry
    from linewise.sessions import find_sessions

    project = tmp_path / ".claude" / "projects" / "-home-dev-shop"
    lines = [
        _user("c1", None, 1, "<command-name>/clear</command-name><command-args></command-args>"),
        _user("u1", "c1", 2, "fix the cart total"),
        _assistant("a1", "u1", 3, {"type": "text", "text": "Done."}),
    ]
    _write(project / f"{SESSION}.jsonl", lines)
    environ = {"LINEWISE_CACHE_DIR": str(tmp_path / "cache")}
    found = find_sessions(cli="claude", registry=Registry(), environ=environ, home=tmp_path)
    assert [info.first_prompt for info in found] == ["fix the cart total"]
