"""codex_app_server: ``codex app-server`` JSON-RPC v2 stdio read as a transcript."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_acp
import linewise_codex
import linewise_kimi
import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_codex.app_server import create_stdout_parser, parse_stdout_line, sniff, summarize_run
from linewise_contracts import entry_problem
from linewise_contracts.compliance import run_checks
from linewise_contracts.usage import TokenUsage
from session_checks import HOST_TS, render
from support import assert_valid_and_deterministic, corpus_path, json_values

FIXTURE = Path(linewise_codex.__file__).parent / "samples" / "codex_app_server" / "app-server.jsonl"


def _lines(path: Path) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _entries(lines: list[str]) -> list[dict[str, Any]]:
    parser = create_stdout_parser()
    return [dict(entry) for line in lines for entry in parser.parse_line(line, HOST_TS)]


def _line(method: str, params: dict[str, Any], **extra: Any) -> str:
    return json.dumps({"method": method, "params": params, **extra})


def test_the_field_samples_render_auto_detected_with_no_raw_json() -> None:
    path = corpus_path(
        "field-samples", "codex-app-server", "app-server-notifications-fixtures.jsonl"
    )
    stderr, entries = render(path)
    assert "detected codex_app_server" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    texts = [entry.get("text") for entry in entries]
    assert "final answer" in texts and "sub-agent started: /root/reader (thread child)" in texts
    assert_valid_and_deterministic(
        create_stdout_parser, parse_stdout_line, _lines(path), ts=HOST_TS
    )


def test_the_fixture_renders_auto_detected_with_no_raw_json() -> None:
    stderr, entries = render(FIXTURE)
    assert "detected codex_app_server" in stderr, stderr
    assert not [entry for entry in entries if entry["kind"] == "stdout"]
    assert_valid_and_deterministic(
        create_stdout_parser, parse_stdout_line, _lines(FIXTURE), ts=HOST_TS
    )


def test_every_tool_call_is_paired_with_its_result_and_named() -> None:
    entries = _entries(_lines(FIXTURE))
    calls = {e["toolUseId"]: e["name"] for e in entries if e["kind"] == "tool_call"}
    results = {e["toolUseId"]: e for e in entries if e["kind"] == "tool_result"}
    assert calls == {"c1": "command_execution", "m1": "docs.search"}
    assert {ident: results[ident]["toolName"] for ident in calls} == calls
    assert results["c1"]["isError"] is True and "1 failed, 1 passed" in results["c1"]["content"]
    assert results["m1"]["content"] == "pytest docs: assert rewriting"


def test_a_message_and_reasoning_streamed_as_deltas_are_shown_once() -> None:
    entries = _entries(_lines(FIXTURE))
    assistant = [e for e in entries if e["kind"] == "assistant"]
    thinking = [e for e in entries if e["kind"] == "thinking"]
    assert [(e["text"], e.get("delta")) for e in assistant] == [
        ("Fixed add() ", True),
        ("in calc.py; tests pass.", True),
    ]
    assert [e["text"] for e in thinking] == ["Looking at the test first."]


def test_a_message_that_was_not_streamed_is_shown_when_it_completes() -> None:
    line = _line("item/completed", {"item": {"type": "agentMessage", "id": "a", "text": "done"}})
    assert [(e["kind"], e["text"]) for e in _entries([line])] == [("assistant", "done")]


def test_the_plan_becomes_a_plan_card_with_its_steps() -> None:
    (plan,) = [e for e in _entries(_lines(FIXTURE)) if e["kind"] == "provider_activity"]
    assert plan["family"] == "plan" and plan["status"] == "running"
    steps = [(s["body"], s["status"]) for s in plan["payload"]["steps"]]
    assert steps == [("Run the tests", "completed"), ("Fix add()", "in_progress")]


def test_each_turn_diff_is_the_next_revision_of_one_change_set() -> None:
    diff = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1 @@\n-x\n+y\n"
    params = {"threadId": "t", "turnId": "u", "diff": diff}
    first, second = (
        e
        for e in _entries([_line("turn/diff/updated", params)] * 2)
        if e["kind"] == "workspace_change"
    )
    assert first["changeSetId"] == second["changeSetId"]
    assert (first["revision"], second["revision"]) == (1, 2)
    assert [
        (f["path"], f["operation"], f["additions"], f["deletions"]) for f in first["files"]
    ] == [("a.py", "modify", 1, 1)]


def test_a_diff_of_a_file_outside_the_workspace_is_left_out_and_said() -> None:
    diff = (
        "diff --git a/../etc/passwd b/../etc/passwd\n--- a/../etc/passwd\n+++ b/../etc/passwd\n"
        "@@ -1 +1 @@\n-a\n+b\n"
        "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n"
        "@@ -0,0 +1 @@\n+hello\n"
    )
    entries = _entries([_line("turn/diff/updated", {"turnId": "u", "diff": diff})])
    change = next(e for e in entries if e["kind"] == "workspace_change")
    assert [(f["path"], f["operation"]) for f in change["files"]] == [("new.txt", "create")]
    assert "1 changed file(s) with an unsafe path not shown" in [e.get("text") for e in entries]


def test_approvals_are_runtime_requests_resolved_when_the_server_says_so() -> None:
    requests = [e for e in _entries(_lines(FIXTURE)) if e["kind"] == "runtime_request"]
    assert [(r["requestId"], r["requestKind"], r["status"]) for r in requests] == [
        ("0", "file_approval", "pending"),
        ("0", "file_approval", "resolved"),
        ("1", "command_approval", "pending"),
    ]
    assert requests[2]["prompt"] == "run `rm -rf build`? (clean the build)"


def test_a_dynamic_tool_call_is_paired_with_the_clients_response() -> None:
    call = _line("item/tool/call", {"callId": "k", "tool": "lookup", "arguments": {"q": 1}}, id=5)
    answer = json.dumps(
        {
            "id": 5,
            "result": {"contentItems": [{"type": "inputText", "text": "42"}], "success": True},
        }
    )
    entries = _entries([call, answer])
    assert [(e["kind"], e["toolUseId"]) for e in entries] == [
        ("tool_call", "k"),
        ("tool_result", "k"),
    ]
    assert entries[1]["content"] == "42" and entries[1]["toolName"] == "lookup"


def test_the_summary_maps_codex_tokens_into_the_usage_vocabulary() -> None:
    summary = summarize_run(_lines(FIXTURE))
    # inputTokens 2000 include 1500 cached; reasoning 64 is part of the 200 output.
    assert summary.token_usage == TokenUsage(
        uncached_input=500, cache_read=1500, output=200, reasoning=64
    )
    assert (summary.usage.input_tokens, summary.usage.cached_tokens) == (2000, 1500)
    assert summary.cost_usd is None
    assert (summary.session_id, summary.model) == ("thr_fix", "gpt-5.1-codex")
    assert (summary.outcome, summary.complete) == ("completed", True)
    assert summary.details["prompts"] == 1 and summary.turns is None
    assert summary.final_text == "Fixed add() in calc.py; tests pass."
    assert summary.details["approvalRequests"] == 2


def test_a_count_codex_did_not_send_stays_unknown() -> None:
    path = corpus_path(
        "field-samples", "codex-app-server", "app-server-notifications-fixtures.jsonl"
    )
    tokens = summarize_run(_lines(path)).token_usage
    assert tokens == TokenUsage(uncached_input=900, output=99)  # no cached or reasoning count


@pytest.mark.parametrize(
    ("status", "outcome", "is_error"),
    [("interrupted", "interrupted", False), ("failed", "failed", True)],
)
def test_the_last_turns_status_is_the_outcome(status: str, outcome: str, is_error: bool) -> None:
    turn = {
        "id": "u",
        "status": status,
        "items": [],
        "error": {"message": "boom"} if is_error else None,
    }
    lines = [_line("turn/started", {"turn": {"id": "u"}}), _line("turn/completed", {"turn": turn})]
    summary = summarize_run(lines)
    assert (summary.outcome, summary.is_error, summary.complete) == (outcome, is_error, True)
    assert summary.errors == (("boom",) if is_error else ())
    (result,) = [e for e in _entries(lines) if e["kind"] == "result"]
    assert (result["subtype"], result["isError"]) == (f"turn/{status}", is_error)


def test_a_turn_that_never_completed_leaves_the_run_incomplete() -> None:
    summary = summarize_run([_line("turn/started", {"turn": {"id": "u"}})])
    assert summary.complete is False and summary.outcome is None


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ['{"type":"thread.started","thread_id":"x"}'],  # codex exec --json
        ['{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{}}}'],
        ['{"jsonrpc":"2.0","method":"prompt","id":1,"params":{"user_input":"hi"}}'],  # Kimi wire
        ['{"jsonrpc":"2.0","id":1,"result":{}}'],  # a response alone proves nothing
        ["plain text"],
    ],
)
def test_what_is_not_the_app_server_scores_zero(lines: list[str]) -> None:
    assert sniff(lines) == 0.0


def test_acp_and_kimi_do_not_claim_the_app_servers_lines() -> None:
    path = corpus_path(
        "field-samples", "codex-app-server", "app-server-notifications-fixtures.jsonl"
    )
    for lines in (_lines(path), _lines(FIXTURE)):
        assert sniff(lines) == 0.95
        assert linewise_acp.sniff(lines) == 0.0
        assert linewise_kimi.sniff(lines) == 0.0


def test_the_app_server_does_not_claim_acp_or_kimi_samples() -> None:
    paths = [
        *corpus_path("field-samples", "acp").iterdir(),
        *corpus_path("field-samples", "kimi").iterdir(),
    ]
    scored = {p.name: sniff(_lines(p)[:40]) for p in paths if p.suffix in (".jsonl", ".json")}
    assert {name: score for name, score in scored.items() if score} == {}


@given(st.lists(json_values, max_size=6))
def test_never_raises_on_hostile_lines(values: list[Any]) -> None:
    parser = create_stdout_parser()
    for value in values:
        lines = [
            _line("item/completed", {"item": value}),
            _line(
                "item/completed",
                {"item": {"type": "commandExecution", "id": "c", "command": value}},
            ),
            _line("turn/diff/updated", {"diff": value, "turnId": value}),
            _line("turn/plan/updated", {"plan": [value], "explanation": value}),
            _line("item/commandExecution/requestApproval", {"command": value}, id=value),
            json.dumps({"id": value, "result": value, "error": value}),
        ]
        for line in lines:
            for entry in parser.parse_line(line, HOST_TS):
                assert entry_problem(entry) is None, entry
        summarize_run(lines)


def test_the_compliance_checks_pass() -> None:
    report = run_checks("codex_app_server", examples=100)
    assert report.ok, [f"{r.check}: {r.message}" for r in report.results if r.status == "fail"]
