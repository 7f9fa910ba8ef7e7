"""copilot_history: Copilot CLI's legacy documents, ~/.copilot/history-session-state/<id>.json."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from linewise_copilot import history
from session_checks import listed, plant_hostile, problems, rendered, session_entries

SESSION = "5c9f1d3e-2b4a-4c6d-8e0f-1a2b3c4d5e6f"
DOCUMENT: dict[str, Any] = {
    "sessionId": SESSION,
    "startTime": "2025-10-08T21:10:16.398Z",
    "chatMessages": [
        {"role": "system", "content": "You are GitHub Copilot CLI. " * 30},
        {"role": "user", "content": "please add mcp servers"},
        {
            "role": "assistant",
            "content": "Let me look at the config first.",
            "tool_calls": [
                {
                    "id": "tooluse_1",
                    "type": "function",
                    "function": {
                        "name": "str_replace_editor",
                        "arguments": '{"command":"view","path":"/repo/mcp.json"}',
                    },
                }
            ],
        },
        {"role": "tool", "tool_call_id": "tooluse_1", "content": "{}"},
        # An older document: a call without an id, answered by the next tool message.
        {"role": "assistant", "tool_calls": [{"function": {"name": "bash", "arguments": "ls"}}]},
        {"role": "tool", "name": "bash", "content": "mcp.json"},
        {"role": "assistant", "content": "Added two servers to mcp.json."},
    ],
    "timeline": [
        {
            "type": "tool_call_completed",
            "toolTitle": "str_replace_editor",
            "timestamp": "2025-10-08T21:10:20.000Z",
        },
    ],
}


def _home(tmp_path: Path, document: object = DOCUMENT, name: str = SESSION) -> Path:
    folder = tmp_path / ".copilot" / "history-session-state"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.json").write_text(json.dumps(document, indent=2))
    return tmp_path


def test_the_legacy_store_is_beside_the_current_one(tmp_path: Path) -> None:
    (store,) = history.session_stores({}, tmp_path)
    assert (store.cli, store.root, store.patterns) == (
        "copilot",
        tmp_path / ".copilot",
        ("history-session-state/*.json",),
    )
    (moved,) = history.session_stores({"COPILOT_HOME": "/opt/copilot"}, tmp_path)
    assert moved.root == Path("/opt/copilot")


def test_a_document_becomes_entries_with_every_call_paired(tmp_path: Path) -> None:
    path = _home(tmp_path) / ".copilot" / "history-session-state" / f"{SESSION}.json"
    records = list(history.session_records(path))
    first = json.loads(records[0])
    assert first["session"]["chatMessagesCount"] == 7
    assert first["session"]["timelineCount"] == 1
    assert len(records) == 8  # the timeline repeats the chat's calls: counted, not shown
    entries = session_entries(history.create_stdout_parser, records)
    # one time for the whole document: every entry has the record's, none the host's
    assert problems(entries) == []
    assert {entry["ts"] for entry in entries} == {"2025-10-08T21:10:16.398Z"}
    assert entries[1]["text"].startswith("system: You are GitHub Copilot CLI.")
    calls = [e for e in entries if e["kind"] == "tool_call"]
    results = [e for e in entries if e["kind"] == "tool_result"]
    assert [(c["toolUseId"], c["name"]) for c in calls] == [
        ("tooluse_1", "str_replace_editor"),
        ("call-2", "bash"),
    ]
    assert [(r["toolUseId"], r["toolName"]) for r in results] == [
        ("tooluse_1", "str_replace_editor"),
        ("call-2", "bash"),
    ]
    assert calls[0]["input"] == {"command": "view", "path": "/repo/mcp.json"}
    assert calls[1]["input"] == "ls"


def test_the_summary_knows_no_tokens_and_how_the_chat_ended(tmp_path: Path) -> None:
    path = _home(tmp_path) / ".copilot" / "history-session-state" / f"{SESSION}.json"
    summary = history.summarize_run(history.session_records(path))
    assert summary.token_usage.is_empty and summary.cost_usd is None
    assert (summary.session_id, summary.outcome, summary.complete) == (SESSION, "completed", True)
    assert summary.details["toolCalls"] == 2


def test_a_document_without_chat_messages_shows_its_timeline(tmp_path: Path) -> None:
    document = {
        "sessionId": "t1",
        "startTime": "2025-09-01T10:00:00Z",
        "timeline": DOCUMENT["timeline"],
    }
    path = _home(tmp_path, document, "t1") / ".copilot" / "history-session-state" / "t1.json"
    entries = session_entries(history.create_stdout_parser, history.session_records(path))
    assert entries[-1] == {
        "kind": "system",
        "ts": "2025-10-08T21:10:20.000Z",
        "text": "timeline: tool_call_completed: str_replace_editor",
    }


def test_sessions_lists_it_and_render_shows_no_raw_json(tmp_path: Path) -> None:
    home = _home(tmp_path)
    _, found = listed(home, "--cli", "copilot")
    (item,) = found
    assert (item["id"], item["adapterType"], item["started"]) == (
        SESSION,
        "copilot_history",
        "2025-10-08T21:10:16.398Z",
    )
    assert (item["firstPrompt"], item["toolCalls"], item["outcome"]) == (
        "please add mcp servers",
        2,
        "completed",
    )
    assert item["tokenUsage"]["output"] is None
    code, stderr, entries = rendered(home, SESSION[:8])
    assert code == 0, stderr
    assert not [e for e in entries if e["kind"] == "stdout"]


def test_damaged_documents_are_shown_as_lines_not_lost(tmp_path: Path) -> None:
    home = _home(tmp_path)
    plant_hostile(home / ".copilot" / "history-session-state", lambda stem: Path(f"{stem}.json"))
    _, found = listed(home, "--cli", "copilot")
    assert {SESSION, "truncated", "binary", "huge"} <= {item["id"] for item in found}
    code, _, entries = rendered(home, "truncated")
    assert code == 0 and [e["kind"] for e in entries] == ["stdout"]
    code, stderr, _ = rendered(home, "binary")
    assert code == 1 and "binary file" in stderr


def test_only_the_stores_own_record_is_sniffed() -> None:
    assert history.sniff(['{"type":"copilot_history","session":{}}']) == 0.95
    assert history.sniff([json.dumps(DOCUMENT)]) == 0.0
    assert history.sniff(['{"type":"session.start","data":{}}']) == 0.0
