"""qwen_session on real Qwen Code chats, on chats written here, and through the host."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_qwen
from hypothesis import given
from hypothesis import strategies as st
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.sessions import SessionStore
from linewise_qwen.session import create_stdout_parser, session_stores, sniff, summarize_run
from session_checks import HOST_TS, problems, render, session_entries
from support import corpus_path, json_values

SAMPLE = Path(linewise_qwen.__file__).parent / "samples" / "qwen_session" / "chat.jsonl"


def _real_chats() -> list[Path]:
    folder = corpus_path("real-sessions", "qwen")
    # The folder also holds the store's meta.json and usage_record.jsonl: not chats.
    return sorted(path for path in folder.glob("*.jsonl") if "usage_record" not in path.name)


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def test_every_real_chat_reads_whole_paired_and_stamped() -> None:
    chats = _real_chats()
    assert chats
    for path in chats:
        entries = session_entries(create_stdout_parser, _lines(path))
        assert problems(entries) == [], path.name
        assert entries[0]["sessionId"] in path.name
        assert entries[0]["cwd"] == "/work"
        assert any(entry["kind"] == "user" for entry in entries)
        assert any(entry["kind"] == "result" for entry in entries)


def test_every_real_chat_is_detected_by_the_host() -> None:
    for path in _real_chats():
        stderr, entries = render(path)
        assert "detected qwen_session" in stderr, stderr
        assert problems(entries) == [], path.name


def test_the_sniffer_scores_real_chats_and_refuses_the_usage_record() -> None:
    for path in _real_chats():
        assert sniff(_lines(path)[:40]) >= 0.9
    usage = corpus_path("real-sessions", "qwen", "lantern-qwen-0.21.6-usage_record.jsonl")
    assert sniff(_lines(usage)) == 0.0


def _record(kind: str, **fields: Any) -> str:
    base = {
        "uuid": "u",
        "parentUuid": None,
        "sessionId": "s-1",
        "timestamp": "2026-05-01T09:00:00.000Z",
        "type": kind,
        "cwd": "/home/dev/shop",
    }
    return json.dumps({**base, **fields})


def test_each_record_type_of_the_written_chat() -> None:
    entries = session_entries(create_stdout_parser, _lines(SAMPLE))
    assert problems(entries) == []
    kinds = [entry["kind"] for entry in entries]
    assert kinds[:2] == ["init", "user"]
    thinking = next(entry for entry in entries if entry["kind"] == "thinking")
    assert thinking["text"] == "I should read the checkout module first."
    read = next(
        entry
        for entry in entries
        if entry.get("toolUseId") == "call_read_1" and entry["kind"] == "tool_result"
    )
    assert read["toolName"] == "read_file"
    assert read["content"].startswith("def total(cart)")
    assert read["isError"] is False
    edit = next(
        entry
        for entry in entries
        if entry.get("toolUseId") == "call_edit_1" and entry["kind"] == "tool_result"
    )
    assert edit["isError"] is True
    assert "must be absolute" in edit["content"]
    # The memory extractor's call, known only from telemetry, is shown as a pair.
    memory = [entry for entry in entries if entry.get("toolUseId") == "call_mem_1"]
    assert [entry["kind"] for entry in memory] == ["tool_call", "tool_result"]
    assert memory[1]["content"] == "directory not found"
    result = next(entry for entry in entries if entry["kind"] == "result")
    assert (result["inputTokens"], result["outputTokens"], result["cachedTokens"]) == (
        1800,
        90,
        600,
    )
    assert {
        "kind": "stderr",
        "ts": "2026-05-01T09:00:07.000Z",
        "text": "429 Too Many Requests",
    } in entries
    texts = [(entry["kind"], entry.get("text")) for entry in entries]
    assert (
        "system",
        "chat compression: Chat history compressed from 12000 to 3000 tokens.",
    ) in texts
    # A slash command: what was typed, then what the CLI showed.
    assert ("user", "/stats") in texts
    assert ("system", "/stats: 2 requests, 1890 tokens") in texts
    assert ("system", "at command: @checkout.py explain") in texts
    assert ("system", "notification: Background task finished.") in texts
    assert not any("file_history" in str(text) for _, text in texts)  # bookkeeping: dropped
    # The background subagent's records nest under the call that started it.
    nested = [entry for entry in entries if entry.get("parentToolUseId") == "call_agent_1"]
    assert [(entry["kind"], entry["text"]) for entry in nested] == [
        ("system", "agent session ready"),
        ("assistant", "total() is called from cart.py."),
    ]
    # The telemetry of a call already shown adds nothing: one call, one result each.
    assert kinds.count("tool_call") == kinds.count("tool_result") == 4


def test_attribution_snapshots_are_dropped_and_unknown_records_stay_raw() -> None:
    parser = create_stdout_parser()
    parser.parse_line(_record("user", message={"parts": [{"text": "hi"}]}), HOST_TS)
    assert parser.parse_line(_record("system", subtype="attribution_snapshot"), HOST_TS) == []
    unknown = _record("checkpoint", data=1)
    assert parser.parse_line(unknown, HOST_TS) == [
        {"kind": "stdout", "ts": "2026-05-01T09:00:00.000Z", "text": unknown}
    ]


def test_reset_starts_a_new_chat() -> None:
    parser = create_stdout_parser()
    line = _record("user", message={"parts": [{"text": "hi"}]})
    first = parser.parse_line(line, HOST_TS)
    parser.reset()
    assert parser.parse_line(line, HOST_TS) == first
    assert first[0]["kind"] == "init"


def test_the_store_is_the_projects_chats_folder(tmp_path: Path) -> None:
    chats = tmp_path / ".qwen" / "projects" / "-work" / "chats"
    chats.mkdir(parents=True)
    (chats / "a.jsonl").write_text("{}\n", encoding="utf-8")
    (chats.parent / "meta.json").write_text("{}", encoding="utf-8")
    (tmp_path / ".qwen" / "usage_record.jsonl").write_text("{}\n", encoding="utf-8")
    [store] = session_stores({}, tmp_path)
    assert store == SessionStore("qwen", tmp_path / ".qwen", ("projects/*/chats/*.jsonl",))
    found = [path for pattern in store.patterns for path in store.root.glob(pattern)]
    assert found == [chats / "a.jsonl"]


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "message",
                    "subtype",
                    "systemPayload",
                    "toolCallResult",
                    "sessionId",
                    "timestamp",
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
    report = run_checks("qwen_session", examples=200)
    failed = [
        f"{result.check}: {result.message}" for result in report.results if result.status == "fail"
    ]
    assert report.ok, failed


def test_the_summary_agrees_with_qwens_own_usage_record() -> None:
    usage = corpus_path("real-sessions", "qwen", "lantern-qwen-0.21.6-usage_record.jsonl")
    records = {record["sessionId"]: record for record in map(json.loads, _lines(usage))}
    for path in _real_chats():
        summary = summarize_run(_lines(path))
        [model] = records[summary.session_id]["models"].values()
        assert summary.model == "qwen3:0.6b"
        assert (summary.usage.input_tokens, summary.usage.output_tokens) == (
            model["inputTokens"],
            model["outputTokens"],
        ), path.name
        assert summary.cost_usd is None  # unknown, never $0
        assert summary.final_text


def test_the_summary_of_the_written_chat() -> None:
    summary = summarize_run(_lines(SAMPLE))
    assert summary.session_id == "5f0c3a9e-0000-4000-8000-000000000001"
    assert summary.model == "qwen3-coder-plus"  # init names none: the first record naming one
    assert summary.final_text == "Guard the empty cart before dividing."
    assert summary.errors == ("429 Too Many Requests",)
    assert summary.complete is True
    unanswered = summarize_run(
        [*_lines(SAMPLE), _record("user", message={"parts": [{"text": "and?"}]})]
    )
    assert unanswered.complete is False


def test_an_attached_image_is_named_not_dumped() -> None:
    parts = [
        {"text": "what is this?"},
        {"inlineData": {"mimeType": "image/png", "data": "iVBOR" * 1000}},
    ]
    entries = create_stdout_parser().parse_line(_record("user", message={"parts": parts}), HOST_TS)
    assert entries[1] == {
        "kind": "user",
        "ts": "2026-05-01T09:00:00.000Z",
        "text": "what is this?\n[image/png attached]",
    }
