"""kimi_session: Kimi Code's wire.jsonl sessions and kimi-cli's context.jsonl, in a fake home."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from linewise_contracts.usage import TokenUsage
from linewise_kimi import session
from session_checks import HOST_TS, render, session_entries
from support import corpus_path

UUID = "0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f"


def _kimi_code_home(tmp_path: Path) -> Path:
    folder = (
        tmp_path
        / ".kimi-code"
        / "sessions"
        / "wd_work_ab12"
        / f"session_{UUID}"
        / "agents"
        / "main"
    )
    folder.mkdir(parents=True)
    shutil.copy(
        corpus_path("field-samples", "kimi", "kimi-code-vis-fixture-wire.jsonl"),
        folder / "wire.jsonl",
    )
    return folder / "wire.jsonl"


def test_both_stores_are_found_and_kimi_share_dir_moves_kimi_clis(tmp_path: Path) -> None:
    code, cli = session.session_stores({}, tmp_path)
    assert code.root == tmp_path / ".kimi-code" / "sessions"
    assert cli.root == tmp_path / ".kimi" / "sessions"
    _, moved = session.session_stores({"KIMI_SHARE_DIR": str(tmp_path / "share")}, tmp_path)
    assert moved.root == tmp_path / "share" / "sessions"
    path = _kimi_code_home(tmp_path)
    assert [p for pattern in code.patterns for p in code.root.glob(pattern)] == [path]


def test_a_kimi_code_session_has_its_id_usage_and_the_prompt_once(tmp_path: Path) -> None:
    path = _kimi_code_home(tmp_path)
    records = list(session.session_records(path))
    entries = session_entries(session.create_stdout_parser, records)
    assert entries[0] == {"kind": "init", "ts": HOST_TS, "model": "unknown", "sessionId": UUID}
    assert [entry["text"] for entry in entries if entry["kind"] == "user"] == ["hi"]
    assert [entry["text"] for entry in entries if entry["kind"] == "assistant"] == ["hello"]
    assert all(entry["ts"] != HOST_TS for entry in entries[1:])
    summary = session.summarize_run(records)
    assert summary.session_id == UUID
    assert summary.model == "kimi-k2"
    assert summary.token_usage == TokenUsage(
        uncached_input=10, cache_read=0, cache_write=0, output=5
    )
    assert (summary.outcome, summary.details["usageBasis"]) == ("completed", "turns")


def test_tool_calls_and_results_pair_in_a_session() -> None:
    path = corpus_path("field-samples", "kimi", "agi-cli-kimi-code-wire.jsonl")
    entries = session_entries(session.create_stdout_parser, path.read_text().splitlines())
    calls = [e["toolUseId"] for e in entries if e["kind"] == "tool_call"]
    results = [(e["toolUseId"], e["toolName"]) for e in entries if e["kind"] == "tool_result"]
    assert calls == ["c1"] and results == [("c1", "Bash")]


def test_a_kimi_cli_context_file_reads_as_messages(tmp_path: Path) -> None:
    folder = tmp_path / ".kimi" / "sessions" / "5f2b" / UUID
    folder.mkdir(parents=True)
    lines = [
        {"role": "_system_prompt", "content": "You are Kimi."},
        {"role": "user", "content": "list files"},
        {
            "role": "assistant",
            "content": "",
            "tool_calls": [
                {
                    "type": "function",
                    "id": "t1",
                    "function": {"name": "Shell", "arguments": '{"command": "ls"}'},
                }
            ],
        },
        {"role": "tool", "tool_call_id": "t1", "content": "a.py"},
        {"role": "_checkpoint", "id": 1},
        {"role": "_usage", "token_count": 4096},
    ]
    (folder / "context.jsonl").write_text("\n".join(json.dumps(line) for line in lines))
    records = list(session.session_records(folder / "context.jsonl"))
    entries = session_entries(session.create_stdout_parser, records)
    assert entries[0]["sessionId"] == UUID
    assert [entry["kind"] for entry in entries[1:]] == [
        "system",
        "user",
        "tool_call",
        "tool_result",
        "system",
        "system",
    ]


def test_a_session_file_renders_auto_detected(tmp_path: Path) -> None:
    stderr, entries = render(_kimi_code_home(tmp_path))
    assert "kimi_session" in stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]


def test_pi_and_claude_sessions_are_not_kimi_sessions() -> None:
    for folder in ("claude", "codex", "gemini", "qwen"):
        for path in corpus_path("real-sessions", folder).rglob("*.jsonl"):
            assert session.sniff(path.read_text(errors="replace").splitlines()[:40]) == 0.0, path
