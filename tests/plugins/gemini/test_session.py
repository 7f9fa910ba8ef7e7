"""gemini_session: saved Gemini CLI chats (JSON documents and JSON lines) read through session_records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.sessions import SessionStore
from linewise_gemini import sniff as stdout_sniff
from linewise_gemini.session import (
    create_stdout_parser,
    session_records,
    session_stores,
    sniff,
    summarize_run,
)
from session_checks import HOST_TS, problems, render, session_entries
from support import corpus_path, json_values

MESSAGES = [
    {
        "id": "m1",
        "timestamp": "2026-03-01T10:00:01.000Z",
        "type": "user",
        "content": "List the files",
    },
    {
        "id": "m2",
        "timestamp": "2026-03-01T10:00:03.000Z",
        "type": "gemini",
        "content": "Here they are.",
        "model": "gemini-2.5-pro",
        "thoughts": [
            {
                "subject": "Listing",
                "description": "I will run ls.",
                "timestamp": "2026-03-01T10:00:02.000Z",
            }
        ],
        "tokens": {
            "input": 900,
            "output": 20,
            "cached": 300,
            "thoughts": 12,
            "tool": 0,
            "total": 932,
        },
        "toolCalls": [
            {
                "id": "ls-1",
                "name": "list_directory",
                "args": {"path": "/src"},
                "status": "success",
                "timestamp": "2026-03-01T10:00:02.500Z",
                "result": [
                    {
                        "functionResponse": {
                            "id": "ls-1",
                            "name": "list_directory",
                            "response": {"output": "a.py\nb.py"},
                        }
                    }
                ],
                "resultDisplay": "Listed 2 files.",
            },
            {
                "id": "rm-1",
                "name": "run_shell_command",
                "args": {"command": "rm -rf /"},
                "status": "cancelled",
                "timestamp": "2026-03-01T10:00:02.600Z",
            },
            {
                "id": "rd-1",
                "name": "read_file",
                "args": {"path": "/nope"},
                "status": "error",
                "timestamp": "2026-03-01T10:00:02.700Z",
                "resultDisplay": "File not found.",
            },
        ],
    },
    {
        "id": "m3",
        "timestamp": "2026-03-01T10:00:04.000Z",
        "type": "info",
        "content": "Request cancelled.",
    },
    {
        "id": "m4",
        "timestamp": "2026-03-01T10:00:05.000Z",
        "type": "error",
        "content": "Quota exceeded.",
    },
    {
        "id": "m5",
        "timestamp": "2026-03-01T10:00:06.000Z",
        "type": "warning",
        "content": "Loop detected.",
    },
]
HEADER = {
    "sessionId": "s-42",
    "projectHash": "ab" * 32,
    "startTime": "2026-03-01T10:00:00.000Z",
    "lastUpdated": "2026-03-01T10:00:06.000Z",
}


def _document(tmp_path: Path) -> Path:
    path = tmp_path / "session-2026-03-01T10-00-s42.json"
    path.write_text(json.dumps({**HEADER, "messages": MESSAGES}, indent=2), encoding="utf-8")
    return path


def _real_chats() -> list[Path]:
    return sorted(corpus_path("real-sessions", "gemini").glob("*.json"))


def test_every_real_chat_reads_whole_paired_and_stamped() -> None:
    chats = _real_chats()
    assert chats
    for path in chats:
        entries = session_entries(create_stdout_parser, session_records(path))
        assert problems(entries) == [], path.name
        document = json.loads(path.read_text(encoding="utf-8"))
        assert entries[0]["sessionId"] == document["sessionId"]
        assert entries[0]["model"] == "gemini-2.5-pro"
        users = [entry["text"] for entry in entries if entry["kind"] == "user"]
        assert users == [m["content"].strip() for m in document["messages"] if m["type"] == "user"]
        calls = sum(len(m.get("toolCalls", [])) for m in document["messages"])
        assert sum(entry["kind"] == "tool_call" for entry in entries) == calls


def test_the_sniffer_knows_the_document_its_records_and_not_stdout() -> None:
    for path in _real_chats():
        raw = [
            line.strip() for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
        ]
        assert sniff(raw[:40]) >= 0.9
        assert stdout_sniff(raw[:40]) == 0.0
        assert sniff(list(session_records(path))[:40]) >= 0.9
    for stdout_log in sorted(corpus_path("real-logs", "gemini").iterdir()):
        lines = [
            line.strip()
            for line in stdout_log.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]
        assert sniff(lines[:40]) < 0.5, stdout_log.name


def test_every_real_chat_is_detected_by_the_host() -> None:
    for path in _real_chats():
        stderr, _ = render(path)
        assert "detected gemini_session" in stderr, stderr


def test_every_real_chat_renders_whole_through_the_host() -> None:
    for path in _real_chats():
        _, entries = render(path)
        assert problems(entries) == [], path.name


def test_each_message_type_of_a_written_document(tmp_path: Path) -> None:
    entries = session_entries(create_stdout_parser, session_records(_document(tmp_path)))
    assert problems(entries) == []
    assert entries[0] == {
        "kind": "init",
        "ts": "2026-03-01T10:00:00.000Z",
        "model": "gemini-2.5-pro",
        "sessionId": "s-42",
    }
    assert entries[1] == {
        "kind": "user",
        "ts": "2026-03-01T10:00:01.000Z",
        "text": "List the files",
    }
    assert entries[2] == {
        "kind": "thinking",
        "ts": "2026-03-01T10:00:02.000Z",
        "text": "Listing\nI will run ls.",
    }
    results = {entry["toolUseId"]: entry for entry in entries if entry["kind"] == "tool_result"}
    assert results["ls-1"]["content"] == "a.py\nb.py"  # what the model saw, not the display
    assert results["ls-1"]["isError"] is False
    assert results["rm-1"]["isError"] is True and results["rm-1"]["content"] == "(cancelled)"
    assert results["rd-1"]["content"] == "File not found.\n(error)"
    [result] = [entry for entry in entries if entry["kind"] == "result"]
    assert (result["inputTokens"], result["outputTokens"], result["cachedTokens"]) == (900, 32, 300)
    tail = [(entry["kind"], entry["text"]) for entry in entries[-3:]]
    assert tail == [
        ("system", "Request cancelled."),
        ("stderr", "Quota exceeded."),
        ("system", "warning: Loop detected."),
    ]


def test_the_jsonl_format_keeps_the_latest_version_of_a_message(tmp_path: Path) -> None:
    path = tmp_path / "session-x.jsonl"
    first = {**MESSAGES[1], "content": "Working", "toolCalls": []}
    lines = [HEADER, MESSAGES[0], {"$set": {"lastUpdated": "x"}}, first, MESSAGES[1]]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    entries = session_entries(create_stdout_parser, session_records(path))
    assert problems(entries) == []
    texts = [entry.get("text") for entry in entries]
    assert "Working" not in texts and "Here they are." in texts
    assert entries[0]["model"] == "gemini-2.5-pro"  # from the first message naming one


def test_a_damaged_document_is_shown_not_lost(tmp_path: Path) -> None:
    path = tmp_path / "session-broken.json"
    path.write_text('{\n  "sessionId": "s",\n  "messages": [\n', encoding="utf-8")
    records = list(session_records(path))
    assert records == ["{", '  "sessionId": "s",', '  "messages": [']
    entries = session_entries(create_stdout_parser, records)
    assert [entry["kind"] for entry in entries] == ["stdout"] * 3


def test_the_store_is_the_tmp_chats_folder(tmp_path: Path) -> None:
    [store] = session_stores({"GEMINI_API_KEY": "x"}, tmp_path)
    assert store == SessionStore(
        "gemini",
        tmp_path / ".gemini",
        ("tmp/*/chats/session-*.json", "tmp/*/chats/session-*.jsonl"),
    )


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "content",
                    "thoughts",
                    "toolCalls",
                    "tokens",
                    "sessionId",
                    "timestamp",
                    "$set",
                    "parts",
                ]
            ),
            json_values,
            max_size=5,
        ),
        max_size=5,
    )
)
def test_never_raises_on_hostile_records(records: list[dict[str, Any]]) -> None:
    parser = create_stdout_parser()
    for record in records:
        for entry in parser.parse_line(json.dumps(record), HOST_TS):
            assert entry_problem(entry) is None, entry


def test_the_compliance_checks_pass() -> None:
    report = run_checks("gemini_session", examples=200)
    failed = [
        f"{result.check}: {result.message}" for result in report.results if result.status == "fail"
    ]
    assert report.ok, failed


def test_the_summary_of_real_chats() -> None:
    for path in _real_chats():
        document = json.loads(path.read_text(encoding="utf-8"))
        summary = summarize_run(session_records(path))
        replies = [m for m in document["messages"] if m["type"] == "gemini" and "tokens" in m]
        assert summary.session_id == document["sessionId"]
        assert summary.model == "gemini-2.5-pro"
        assert summary.usage.input_tokens == sum(m["tokens"]["input"] for m in replies)
        assert summary.usage.cached_tokens == sum(m["tokens"]["cached"] for m in replies)
        assert summary.cost_usd is None  # Gemini records no cost: unknown, never $0


def test_the_summary_of_a_written_chat(tmp_path: Path) -> None:
    summary = summarize_run(session_records(_document(tmp_path)))
    assert summary.final_text == "Here they are."
    assert summary.errors == ("Quota exceeded.",)
    assert summary.complete is True
    assert summary.outcome == "completed"  # the last prompt was answered


def test_a_fake_home_laid_out_like_gemini_clis(tmp_path: Path) -> None:
    chats = tmp_path / ".gemini" / "tmp" / ("ab" * 32) / "chats"
    chats.mkdir(parents=True)
    for name in ("session-2026-03-01T10-00-aaaa.json", "session-2026-04-01T10-00-bbbb.jsonl"):
        (chats / name).write_text("{}", encoding="utf-8")
    (chats.parent / "logs.json").write_text("[]", encoding="utf-8")  # Gemini's own log: not a chat
    (chats / "checkpoint-mytag.json").write_text(
        "[]", encoding="utf-8"
    )  # /chat save: not a session
    [store] = session_stores({}, tmp_path)
    found = sorted(path.name for pattern in store.patterns for path in store.root.glob(pattern))
    assert found == ["session-2026-03-01T10-00-aaaa.json", "session-2026-04-01T10-00-bbbb.jsonl"]


def test_an_attached_image_is_named_not_dumped() -> None:
    record = {
        "id": "u",
        "timestamp": "2026-03-01T10:00:00Z",
        "type": "user",
        "content": [
            {"text": "what is this?"},
            {"inlineData": {"mimeType": "image/png", "data": "iVBOR" * 1000}},
        ],
    }
    [entry] = create_stdout_parser().parse_line(json.dumps(record), HOST_TS)
    assert entry["text"] == "what is this?\n[image/png attached]"
