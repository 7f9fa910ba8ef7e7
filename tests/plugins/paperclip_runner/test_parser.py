"""The runner parser beyond the worked examples: state across lines, fallbacks, bounds, sniff,
and the field samples of the corpus (read from ../shared at test time)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from linewise_contracts import entry_problem
from linewise_contracts.declared import MAX_DIFF_CHARS, MAX_PREVIEW_CHARS
from linewise_contracts.entries import KINDS_1_3
from linewise_paperclip_runner import create_stdout_parser, parse_stdout_line, sniff
from support import corpus_path

TS = "2026-08-21T12:00:00.000Z"
SAMPLES = (
    Path(__file__).parents[3] / "plugins/paperclip-runner/src/linewise_paperclip_runner/samples"
)


def prp(event_type: str, payload: dict[str, Any], **fields: Any) -> str:
    event = {"eventType": event_type, **fields, "payload": payload}
    return json.dumps({"type": "paperclip.prp.event", "event": event})


def test_a_message_that_streamed_its_deltas_is_not_repeated_when_it_completes() -> None:
    parser = create_stdout_parser()
    delta = prp("item.delta", {"kind": "agentMessage", "text": "Hel"}, itemId="m")
    assert parser.parse_line(delta, TS)[0]["text"] == "Hel"
    item = {"id": "m", "type": "agentMessage", "text": "Hello"}
    assert parser.parse_line(prp("item.completed", {"item": item}, itemId="m"), TS) == []


def test_an_item_started_on_the_final_channel_gives_its_deltas_that_channel() -> None:
    parser = create_stdout_parser()
    item = {"id": "f", "type": "agentMessage", "text": ""}
    parser.parse_line(prp("item.started", {"channel": "final", "item": item}, itemId="f"), TS)
    [entry] = parser.parse_line(
        prp("item.delta", {"kind": "agent_message", "text": "Done."}, itemId="f"), TS
    )
    assert entry["channel"] == "final"


def test_a_structured_final_message_shows_its_summary_and_suppresses_the_same_run_result() -> None:
    parser = create_stdout_parser()
    text = json.dumps({"schema": "paperclip.run_result.v1", "summary": "All green"})
    item = {"id": "r", "type": "agentMessage", "text": text}
    [entry] = parser.parse_line(
        prp("item.completed", {"channel": "final", "item": item}, itemId="r"), TS
    )
    assert entry == {
        "kind": "assistant",
        "ts": TS,
        "text": "All green",
        "channel": "final",
        "itemId": "r",
    }
    assert parser.parse_line(prp("run.result.proposed", {"summary": "All green"}), TS) == []


def test_streamed_command_output_blanks_the_completion_content_but_keeps_the_outcome() -> None:
    parser = create_stdout_parser()
    [delta] = parser.parse_line(
        prp("item.delta", {"kind": "commandExecution", "text": "ok\n"}, itemId="x"), TS
    )
    assert delta == {
        "kind": "tool_result",
        "ts": TS,
        "toolUseId": "x",
        "toolName": "command",
        "content": "ok\n",
        "isError": False,
        "delta": True,
    }
    item = {"id": "x", "type": "commandExecution", "exitCode": 2, "aggregatedOutput": "ok\n"}
    [done] = parser.parse_line(prp("item.completed", {"item": item}, itemId="x"), TS)
    assert done["content"] == "" and done["isError"] is True


def test_a_command_completion_says_its_exit_code_and_output() -> None:
    item = {"id": "x", "type": "command_execution", "exit_code": 0, "aggregated_output": "done"}
    [done] = parse_stdout_line(prp("item.completed", {"item": item}), TS)
    assert done["content"] == "exit_code: 0\ndone" and done["isError"] is False


def test_a_file_change_is_a_call_then_diff_lines_per_file_and_a_result() -> None:
    changes = [
        {"path": "a.txt", "kind": {"type": "add"}, "diff": "one\ntwo"},
        {"path": "b.txt", "kind": "delete"},
    ]
    item = {"id": "fc", "type": "fileChange", "changes": changes}
    [call] = parse_stdout_line(prp("item.started", {"item": item}), TS)
    assert call["input"] == {"path": "a.txt", "paths": ["a.txt", "b.txt"]}
    entries = parse_stdout_line(prp("item.completed", {"item": item}), TS)
    assert [(e["kind"], e.get("changeType"), e.get("text")) for e in entries[:-1]] == [
        ("diff", "file_header", "a.txt"),
        ("diff", "add", "one"),
        ("diff", "add", "two"),
        ("diff", "file_header", "b.txt"),
    ]
    assert entries[-1]["content"] == "a.txt\nb.txt"


def test_a_file_change_delta_classifies_each_line_by_its_marker() -> None:
    entries = parse_stdout_line(
        prp("item.delta", {"kind": "diff", "text": "+++ b/x\n-old\nsame"}), TS
    )
    assert [(e["changeType"], e["text"]) for e in entries] == [
        ("add", "++ b/x"),
        ("remove", "old"),
        ("context", "same"),
    ]


def test_sessions_turns_failures_and_diagnostics_are_lifecycle_lines() -> None:
    cases = [
        (
            prp("session.resumed", {"model": {"name": "m"}, "providerSessionId": "p"}),
            "system",
            "Paperclip session resumed · m · p",
        ),
        (prp("session.started", {}), "system", "Paperclip session started · Paperclip runner"),
        (prp("turn.completed", {}), "system", "Turn completed"),
        (prp("turn.failed", {"error": {"message": "quota"}}), "stderr", "quota"),
        (prp("item.failed", {"item": {"error": "boom"}}), "stderr", "boom"),
        (prp("runner.diagnostic", {"code": "slow_disk"}), "system", "Runner: slow_disk"),
        (prp("harness.diagnostic", {}), "system", "Runner: harness.diagnostic"),
    ]
    for line, kind, text in cases:
        assert parse_stdout_line(line, TS) == [{"kind": kind, "ts": TS, "text": text}]


@pytest.mark.parametrize(
    "line",
    [
        prp("runner.connected", {}),
        prp("sandbox.metric", {"cpu": 1}),
        prp("", {}),
        json.dumps({"type": "paperclip.prp.event", "event": {}}),
        json.dumps({"type": "paperclip.prp.event"}),
        prp("runtime_request.created", {"request": {"prompt": "no id"}}),
        prp("item.delta", {"kind": "agentMessage", "text": ""}),
    ],
)
def test_events_the_adapter_does_not_show_give_no_entries(line: str) -> None:
    assert create_stdout_parser().parse_line(line, TS) == []


def test_other_lines_go_to_the_codex_parser() -> None:
    parser = create_stdout_parser()
    [init] = parser.parse_line('{"type":"thread.started","thread_id":"t-1"}', TS)
    assert init["kind"] == "init" and init["sessionId"] == "t-1"
    metric = '{"type":"paperclip.runtime_input.metric","bytes":3}'
    assert all(e["kind"] != "runtime_request" for e in parser.parse_line(metric, TS))
    for line in ('{"type":"x","value":NaN}', "[1,2]"):
        assert parser.parse_line(line, TS) == [{"kind": "stdout", "ts": TS, "text": line}]


def test_unsafe_paths_are_dropped_from_a_change_and_counted_in_its_totals() -> None:
    files = [
        {"path": "ok.txt"},
        {"path": "/etc/passwd"},
        {"path": "a/../../b"},
        {"path": "c", "previousPath": "../x"},
    ]
    [change] = parse_stdout_line(prp("workspace.change.updated", {"files": files}), TS)
    assert [file["path"] for file in change["files"]] == ["ok.txt", "c"]
    assert change["files"][1]["previousPath"] is None
    assert change["totals"]["files"] == 2 and change["changeSetId"] == "workspace-change"
    assert change["revision"] == 1 and change["source"] == "harness_reported"


def test_a_diff_beyond_the_contract_bound_is_cut_with_a_visible_marker() -> None:
    files = [{"path": "big.txt", "diff": "+" * (MAX_DIFF_CHARS + 10)}]
    [change] = parse_stdout_line(prp("workspace.diff.recorded", {"files": files}), TS)
    diff = change["files"][0]["diff"]
    assert len(diff) == MAX_DIFF_CHARS and diff.endswith("more]") and "[linewise: diff cut" in diff
    assert entry_problem(change) is None


def test_a_preview_beyond_the_bound_is_cut_and_flagged() -> None:
    payload = {"path": "a.md", "preview": "x" * (MAX_PREVIEW_CHARS + 1)}
    [reference] = parse_stdout_line(prp("workspace.file.referenced", payload), TS)
    assert len(reference["preview"]) == MAX_PREVIEW_CHARS and reference["previewTruncated"] is True
    assert reference["displayName"] == "a.md" and reference["referenceId"] == "workspace-file:a.md"


def test_an_oversized_payload_keeps_its_plain_facts_and_says_what_it_left_out() -> None:
    payload = {"summary": "huge", "items": list(range(200_000))}
    [activity] = parse_stdout_line(prp("tool.execution.progressed", payload), TS)
    assert activity["payload"]["summary"] == "huge" and "items" not in activity["payload"]
    assert "100,000" in activity["payload"]["linewiseOmitted"]
    assert activity["status"] == "running" and entry_problem(activity) is None


def test_question_set_texts_are_cut_to_the_documented_lengths_in_utf16_units() -> None:
    question = {"id": "q" * 200, "prompt": "p", "answerMode": "multi_select", "options": [{}] * 130}
    request = {
        "requestId": "r",
        "type": "input",
        "input": {"questions": [question], "description": "😀" * 3000},
    }
    [entry] = parse_stdout_line(prp("runtime_request.created", {"request": request}), TS)
    parsed = entry["questionSet"]
    assert len(parsed["questions"][0]["id"]) == 160
    assert len(parsed["questions"][0]["options"]) == 128
    assert parsed["questions"][0]["options"][0] == {"id": "option-1", "label": "Option 1"}
    assert len(parsed["description"]) == 2000  # 4,000 UTF-16 units of astral characters
    assert entry_problem(entry) is None


def test_a_list_where_a_word_is_expected_falls_back_to_the_default_instead_of_raising() -> None:
    # `linewise check` found these: `[] in frozenset(...)` raised TypeError (unhashable).
    [reference] = parse_stdout_line(
        prp("workspace.file.referenced", {"path": "a.ts", "presentation": []}), TS
    )
    assert reference["presentation"] == "generic"
    files = [{"path": "a.ts", "operation": ["create"]}]
    [change] = parse_stdout_line(prp("workspace.change.updated", {"files": files}), TS)
    assert change["files"][0]["operation"] == "modify"
    question = {"id": "q", "prompt": "p", "answerMode": [], "textValidation": {"inputType": []}}
    request = {"requestId": "r", "type": "input", "input": {"questions": [question]}}
    [entry] = parse_stdout_line(prp("runtime_request.created", {"request": request}), TS)
    assert entry["questionSet"]["questions"][0]["answerMode"] == "text"
    assert [entry_problem(e) for e in (reference, change, entry)] == [None, None, None]


def test_a_run_result_keeps_its_checks_work_blocker_and_artifacts() -> None:
    payload = {
        "summary": "Blocked on review",
        "reportedWorkDisposition": "blocked",
        "completionClaim": {
            "objectiveSatisfied": False,
            "remainingWork": [{"blocksCompletion": True}],
        },
        "verification": [
            {"commandOrCheck": "ruff", "status": "failed", "detail": "3 errors"},
            "junk",
        ],
        "blocker": {"scope": "task_wide"},
        "artifacts": [{"ref": ""}, {"kind": "log", "ref": "logs/run.txt", "title": ""}],
    }
    [result] = parse_stdout_line(prp("run.result.proposed", payload), TS)
    assert result["disposition"] == "blocked" and result["objectiveSatisfied"] is False
    assert result["verification"] == [
        {"commandOrCheck": "ruff", "status": "failed", "detail": "3 errors"},
        {"commandOrCheck": "Verification", "status": "not_run"},
    ]
    assert result["remainingWork"] == [{"description": "Remaining work", "blocksCompletion": True}]
    assert result["blocker"] == {
        "reasonCode": "blocked",
        "unblockAction": "Resolve the blocker to continue.",
        "scope": "task_wide",
    }
    assert result["artifacts"] == [{"kind": "log", "ref": "logs/run.txt"}]


def test_reset_forgets_what_the_run_showed() -> None:
    parser = create_stdout_parser()
    line = prp("run.result.proposed", {"summary": "Once"})
    assert parser.parse_line(line, TS)
    assert parser.parse_line(line, TS) == []
    parser.reset()
    assert parser.parse_line(line, TS)


def test_sniff_is_sure_of_runner_stdout_and_refuses_other_clis() -> None:
    lines = (SAMPLES / "runner-run.jsonl").read_text(encoding="utf-8").splitlines()
    assert sniff(lines) >= 0.95
    assert sniff([*lines[:3], '{"type":"paperclip.runtime_input.metric"}', "plain text"]) >= 0.9
    assert sniff(['{"type":"thread.started","thread_id":"t"}', '{"type":"turn.started"}']) == 0.0
    assert sniff(['{"type":"system","subtype":"init"}']) == 0.0
    assert sniff([]) == 0.0


def test_every_corpus_field_sample_gives_valid_entries_and_no_raw_line() -> None:
    path = corpus_path("field-samples", "paperclip-runner", "prp-events-from-ui-adapter-test.jsonl")
    parser = create_stdout_parser()
    kinds = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        entries = parser.parse_line(line, TS)
        assert entries, line
        for entry in entries:
            assert entry_problem(entry) is None
            assert entry["kind"] != "stdout"
            kinds.add(entry["kind"])
    assert kinds >= {
        "provider_activity",
        "workspace_change",
        "runtime_request",
        "run_result",
        "run_terminal",
    }


def test_the_bundled_sample_gives_every_new_kind() -> None:
    parser = create_stdout_parser()
    kinds = {
        entry["kind"]
        for line in (SAMPLES / "runner-run.jsonl").read_text(encoding="utf-8").splitlines()
        for entry in parser.parse_line(line, TS)
    }
    assert kinds >= set(KINDS_1_3)


def test_the_run_summary_takes_the_terminal_state_the_claim_and_the_reported_usage() -> None:
    from linewise_paperclip_runner import summarize_run

    lines = (SAMPLES / "runner-run.jsonl").read_text(encoding="utf-8").splitlines()
    summary = summarize_run(lines)
    assert (summary.session_id, summary.model) == ("sess-42", "gpt-5.2-codex")
    assert summary.complete and summary.outcome == "completed" and not summary.is_error
    assert summary.final_text == "Leap years now follow the Gregorian rule"
    assert summary.details == {"runState": "succeeded", "disposition": "needs_review"}
    assert (summary.token_usage.cache_read, summary.token_usage.output) == (3072, 840)
    assert summary.token_usage.uncached_input is None  # the protocol does not say
    assert summary.cost_usd is None and summary.cost_source is None  # reported as 0: unknown
    cut_off = summarize_run(lines[:5])
    assert not cut_off.complete and cut_off.outcome is None


def test_cumulative_usage_is_not_added_twice_and_deltas_add_up() -> None:
    from linewise_paperclip_runner import summarize_run

    total = {"kind": "usage", "usage": {"total": {"inputTokens": 100, "outputTokens": 10}}}
    later = {"kind": "usage", "usage": {"total": {"inputTokens": 150, "outputTokens": 20}}}
    summary = summarize_run([prp("item.completed", total), prp("item.completed", later)])
    assert (summary.usage.input_tokens, summary.usage.output_tokens) == (150, 20)
    delta = {"runDelta": {"inputTokens": 5, "outputTokens": 1}, "costUsd": 0.25}
    summary = summarize_run([prp("usage.reported", delta), prp("usage.reported", delta)])
    assert (summary.usage.input_tokens, summary.cost_usd, summary.cost_source) == (
        10,
        0.5,
        "reported",
    )
