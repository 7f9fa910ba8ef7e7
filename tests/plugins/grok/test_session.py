"""grok_session: the session folders Grok Build keeps in ~/.grok/sessions/<cwd>/<uuid>/."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from linewise_contracts.usage import TokenUsage
from linewise_grok import session
from session_checks import listed, plant_hostile, problems, rendered, session_entries
from support import corpus_path

SESSION = "019edf9c-0000-7000-8000-000000000001"
CWD_FOLDER = "%2FUsers%2Fada%2Fshop"
SUMMARY = {
    "info": {"id": SESSION, "cwd": "/Users/ada/shop"},
    "created_at": "2026-06-19T11:20:40.686261Z",
    "updated_at": "2026-06-19T11:31:12.282793Z",
    "last_active_at": "2026-06-19T11:31:12.222328Z",
    "current_model_id": "grok-build",
    "generated_title": "Fix the cart total",
}


def _update(second: int, update: dict[str, Any], method: str = "session/update") -> dict[str, Any]:
    return {
        "timestamp": f"2026-06-19T11:30:{second:02d}.000Z",
        "method": method,
        "params": {"sessionId": SESSION, "update": update, "_meta": {"promptId": "p1"}},
    }


def _completed(prompt: str, input_tokens: int, output: int) -> dict[str, Any]:
    usage = {
        "inputTokens": input_tokens,
        "outputTokens": output,
        "cachedReadTokens": 600,
        "cacheCreationTokens": 100,
        "reasoningTokens": 20,
        "costUsdTicks": 125117780000,
        "modelUsage": {
            "grok-4.6-build": {
                "inputTokens": input_tokens,
                "outputTokens": output,
                "cachedReadTokens": 600,
                "cacheCreationTokens": 100,
                "reasoningTokens": 20,
            }
        },
    }
    return {
        "timestamp": 1781868660,  # epoch seconds, as Grok writes them here
        "method": "_x.ai/session/update",
        "params": {
            "sessionId": SESSION,
            "update": {"sessionUpdate": "turn_completed", "prompt_id": prompt, "usage": usage},
        },
    }


def _text(kind: str, text: str) -> dict[str, Any]:
    return {"sessionUpdate": kind, "content": {"type": "text", "text": text}}


UPDATES = [
    _update(1, _text("user_message_chunk", "The cart total is off by one")),
    _update(2, _text("agent_thought_chunk", "Look at cart.py")),
    _update(
        3,
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "call_1",
            "title": "read_file",
            "kind": "read",
            "rawInput": {"path": "cart.py"},
            "status": "pending",
        },
    ),
    _update(
        4,
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "call_1",
            "status": "completed",
            "content": [
                {"type": "content", "content": {"type": "text", "text": "def total(): ..."}}
            ],
        },
    ),
    _update(5, _text("agent_message_chunk", "Fixed: the loop skipped the last item.")),
    # Grok re-sends a turn's record as it grows: only the last one counts.
    _completed("p1", 1000, 50),
    _completed("p1", 1500, 80),
]


def _folder(home: Path) -> Path:
    folder = home / ".grok" / "sessions" / CWD_FOLDER / SESSION
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _home(tmp_path: Path) -> Path:
    folder = _folder(tmp_path)
    (folder / "summary.json").write_text(json.dumps(SUMMARY))
    (folder / "signals.json").write_text(json.dumps({"primaryModelId": "grok-build"}))
    (folder / "updates.jsonl").write_text("\n".join(json.dumps(u) for u in UPDATES) + "\n")
    return tmp_path


def test_the_store_is_under_grok_home_and_lists_one_session_per_folder(tmp_path: Path) -> None:
    (store,) = session.session_stores({}, tmp_path)
    assert (store.cli, store.root) == ("grok", tmp_path / ".grok" / "sessions")
    (moved,) = session.session_stores({"GROK_HOME": "/opt/grok"}, tmp_path)
    assert moved.root == Path("/opt/grok/sessions")
    folder = _folder(_home(tmp_path))
    (folder / "chat_history.jsonl").write_text('{"type":"user","content":"x"}\n')
    found = sorted(p for pattern in store.patterns for p in store.root.glob(pattern))
    keys = [key for path in found for key in session.session_keys(path)]
    assert keys == [SESSION]  # chat_history.jsonl beside updates.jsonl is the same session


def test_acp_updates_become_entries_with_their_own_times_and_paired_tools(tmp_path: Path) -> None:
    path = _folder(_home(tmp_path)) / "updates.jsonl"
    records = list(session.session_records(path))
    entries = session_entries(session.create_stdout_parser, records)
    assert problems(entries) == []
    init = entries[0]
    assert (init["sessionId"], init["model"], init["cwd"]) == (
        SESSION,
        "grok-build",
        "/Users/ada/shop",
    )
    assert init["ts"] == "2026-06-19T11:20:40.686Z"
    assert [e["kind"] for e in entries[1:7]] == [
        "system",
        "user",
        "thinking",
        "tool_call",
        "tool_result",
        "assistant",
    ]
    notes = [e["text"] for e in entries if e["kind"] == "system"]
    assert notes[0] == "title: Fix the cart total"
    assert notes[-2] == (
        "turn completed: input 800, cache read 600, cache write 100, output 80, reasoning 20 tokens"
    )
    assert entries[-1]["ts"] == "2026-06-19T11:31:12.222Z"  # last_active_at


def test_the_summary_counts_each_turns_last_record_once_per_model(tmp_path: Path) -> None:
    path = _folder(_home(tmp_path)) / "updates.jsonl"
    summary = session.summarize_run(session.session_records(path))
    tokens = TokenUsage(
        uncached_input=800, cache_read=600, cache_write=100, output=80, reasoning=20
    )
    assert summary.token_usage == tokens
    assert summary.model_usage == {"grok-4.6-build": tokens}
    assert summary.cost_usd is None  # costUsdTicks has no documented scale
    assert (summary.session_id, summary.model, summary.outcome) == (
        SESSION,
        "grok-build",
        "completed",
    )
    assert summary.details["turnsCompleted"] == 1


def test_an_older_session_without_turn_records_has_unknown_tokens(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "updates.jsonl").write_text("\n".join(json.dumps(u) for u in UPDATES[:5]) + "\n")
    records = list(session.session_records(folder / "updates.jsonl"))
    entries = session_entries(session.create_stdout_parser, records)
    assert problems(entries) == []  # the init too takes the first update's time
    assert entries[0]["ts"] == "2026-06-19T11:30:01.000Z"
    summary = session.summarize_run(records)
    assert summary.token_usage.is_empty
    assert (summary.outcome, summary.complete) == (None, False)
    # No summary.json: the id is the folder's, the cwd what its name encodes
    assert summary.session_id == SESSION
    assert summary.details["cwd"] == "/Users/ada/shop"


def test_a_chat_history_session_reads_its_messages_and_tool_calls(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    shutil.copy(
        corpus_path("field-samples", "grok-build", "agi-cli-session-chat_history.jsonl"),
        folder / "chat_history.jsonl",
    )
    shutil.copy(
        corpus_path("field-samples", "grok-build", "agi-cli-session-summary.json"),
        folder / "summary.json",
    )
    records = list(session.session_records(folder / "chat_history.jsonl"))
    entries = session_entries(session.create_stdout_parser, records)
    assert problems(entries) == []
    call = next(e for e in entries if e["kind"] == "tool_call")
    assert (call["name"], call["input"]) == ("shell", {"command": "TOKEN=fixture-secret bun test"})
    assert entries[0]["ts"] == "2026-08-03T10:00:00.000Z"  # summary.json's created_at


def test_chat_history_reasoning_system_prompt_and_nested_functions() -> None:
    lines = [
        json.dumps({"type": "grok_session", "session": {"id": "s"}}),
        json.dumps({"type": "system", "content": "You are Grok. " * 500}),
        json.dumps({"type": "reasoning", "summary": [{"type": "summary_text", "text": "plan"}]}),
        json.dumps(
            {
                "type": "assistant",
                "content": "",
                "tool_calls": [{"id": "c9", "function": {"name": "grep", "arguments": "not json"}}],
            }
        ),
    ]
    entries = session_entries(session.create_stdout_parser, lines)
    assert entries[1]["text"] == "system prompt (6999 characters)"
    assert (entries[2]["kind"], entries[2]["text"]) == ("thinking", "plan")
    assert (entries[3]["name"], entries[3]["input"]) == ("grep", "not json")


def test_sessions_lists_it_with_the_summarys_facts_and_reported_tokens(tmp_path: Path) -> None:
    _, sessions = listed(_home(tmp_path), "--cli", "grok")
    (found,) = sessions
    assert (found["id"], found["project"], found["model"]) == (
        SESSION,
        "/Users/ada/shop",
        "grok-build",
    )
    assert (found["started"], found["ended"]) == (
        "2026-06-19T11:20:40.686Z",
        "2026-06-19T11:31:12.222Z",
    )
    assert found["tokenUsage"] == {
        "uncachedInput": 800,
        "cacheRead": 600,
        "cacheWrite": 100,
        "output": 80,
        "reasoning": 20,
    }
    assert (found["outcome"], found["toolCalls"]) == ("completed", 1)
    assert found["firstPrompt"] == "The cart total is off by one"


def test_render_by_id_shows_no_raw_records(tmp_path: Path) -> None:
    code, stderr, entries = rendered(_home(tmp_path), SESSION[:8])
    assert code == 0, stderr
    assert "grok_session" in stderr
    assert not [e for e in entries if e["kind"] == "stdout"]


def test_a_chat_history_file_renders_by_its_store_layout(tmp_path: Path) -> None:
    folder = _folder(tmp_path)
    (folder / "chat_history.jsonl").write_text('{"type":"user","content":"hello"}\n')
    code, stderr, entries = rendered(tmp_path, str(folder / "chat_history.jsonl"))
    assert code == 0 and "grok_session" in stderr
    assert [e["kind"] for e in entries] == ["init", "user"]


def test_damaged_session_files_are_listed_and_render_with_a_note(tmp_path: Path) -> None:
    home = _home(tmp_path)
    plant_hostile(home / ".grok" / "sessions" / "bad", lambda stem: Path(stem) / "updates.jsonl")
    _, sessions = listed(home, "--cli", "grok")
    assert {SESSION, "truncated", "binary", "huge"} <= {s["id"] for s in sessions}
    code, _, entries = rendered(home, "truncated")
    assert code == 0 and entries[-1]["kind"] == "stdout"
    code, stderr, entries = rendered(home, "huge")
    assert code == 0, stderr


@pytest.mark.parametrize(
    "lines",
    [
        [json.dumps(UPDATES[0])],
        ['{"type":"user","content":"x"}'],
        ['{"type":"end","sessionId":"s1","stopReason":"end_turn"}'],
    ],
)
def test_only_the_stores_own_record_is_sniffed_as_a_grok_session(lines: list[str]) -> None:
    assert session.sniff(lines) == 0.0
    assert session.sniff(['{"type":"grok_session","session":{}}', *lines]) == 0.95
