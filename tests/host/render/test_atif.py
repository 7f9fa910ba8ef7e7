"""``-f atif``: one ATIF v1.7 trajectory per run, valid against a schema written from the
spec, with steps, tool calls, observations, metrics and embedded subagent trajectories."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from linewise.cli import main
from linewise.render import create_renderer
from linewise_contracts.summary import RunSummary, Usage
from support import TS, corpus_path

SCHEMA = json.loads((Path(__file__).parent / "schemas" / "atif-v1.7.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)


def trajectory(entries: list[dict[str, Any]], summary: RunSummary | None = None) -> dict[str, Any]:
    out = io.StringIO()
    renderer = create_renderer(out, format="atif", title="run.jsonl", adapter_type="claude_local")
    for entry in entries:
        renderer.write({"ts": TS, **entry})  # type: ignore[arg-type]
    renderer.close(summary=summary)
    document: dict[str, Any] = json.loads(out.getvalue())
    return document


def check(document: dict[str, Any]) -> None:
    """Valid against the schema, and what the spec says beyond it: step ids count from 1,
    each observation answers a call of its step, each subagent reference resolves."""
    VALIDATOR.validate(document)
    embedded = {t["trajectory_id"]: t for t in document.get("subagent_trajectories", [])}
    assert [s["step_id"] for s in document["steps"]] == list(range(1, len(document["steps"]) + 1))
    for step in document["steps"]:
        calls = {call["tool_call_id"] for call in step.get("tool_calls", [])}
        for result in step.get("observation", {}).get("results", []):
            assert result["source_call_id"] in calls
            for ref in result.get("subagent_trajectory_ref", []):
                assert ref["trajectory_id"] in embedded
    for child in embedded.values():
        check(child)


def call(ident: str, name: str, value: Any, **extra: Any) -> dict[str, Any]:
    return {"kind": "tool_call", "name": name, "input": value, "toolUseId": ident, **extra}


def result(ident: str, content: str, **extra: Any) -> dict[str, Any]:
    return {"kind": "tool_result", "toolUseId": ident, "content": content, "isError": False} | extra


def test_a_run_becomes_user_and_agent_steps_with_tool_calls_and_their_observations() -> None:
    document = trajectory(
        [
            {"kind": "init", "model": "claude-x", "sessionId": "s-1"},
            {"kind": "user", "text": "fix it"},
            {"kind": "thinking", "text": "look first"},
            {"kind": "assistant", "text": "Reading."},
            call("t1", "Read", {"file_path": "a.py"}),
            result("t1", "x = 1", isError=True),
            {"kind": "assistant", "text": "Done."},
        ]
    )
    check(document)
    assert document["session_id"] == "s-1" and document["agent"]["model_name"] == "claude-x"
    user, first, second = document["steps"]
    assert (user["source"], user["message"]) == ("user", "fix it")
    assert first["reasoning_content"] == "look first" and first["message"] == "Reading."
    assert first["tool_calls"] == [
        {"tool_call_id": "t1", "function_name": "Read", "arguments": {"file_path": "a.py"}}
    ]
    assert first["observation"]["results"] == [
        {"source_call_id": "t1", "content": "x = 1", "extra": {"is_error": True}}
    ]
    assert second["message"] == "Done." and "tool_calls" not in second


def test_subagent_work_is_an_embedded_trajectory_nested_as_the_transcript_is() -> None:
    document = trajectory(
        [
            call("t1", "Task", {"description": "explore"}),
            {"kind": "assistant", "text": "inside", "parentToolUseId": "t1"},
            call("t2", "Task", {"description": "deeper"}, parentToolUseId="t1"),
            {"kind": "assistant", "text": "deepest", "parentToolUseId": "t2"},
            result("t2", "deep report", parentToolUseId="t1"),
            result("t1", "report"),
        ]
    )
    check(document)
    (child,) = document["subagent_trajectories"]
    assert child["steps"][0]["message"] == "inside"
    (grandchild,) = child["subagent_trajectories"]
    assert grandchild["steps"][0]["message"] == "deepest"
    ref = document["steps"][0]["observation"]["results"][0]
    assert ref["content"] == "report"
    assert ref["subagent_trajectory_ref"] == [{"trajectory_id": child["trajectory_id"]}]
    inner_ref = child["steps"][0]["observation"]["results"][0]
    assert inner_ref["subagent_trajectory_ref"] == [{"trajectory_id": grandchild["trajectory_id"]}]


def test_final_metrics_count_cached_tokens_in_the_prompt_and_leave_out_the_unknown() -> None:
    known = RunSummary(
        usage=Usage(input_tokens=100, output_tokens=20, cached_tokens=900),
        cost_usd=0.5,
        complete=True,
    )
    metrics = trajectory([{"kind": "assistant", "text": "hi"}], known)["final_metrics"]
    assert metrics == {
        "total_steps": 1,
        "total_prompt_tokens": 1000,
        "total_completion_tokens": 20,
        "total_cached_tokens": 900,
        "total_cost_usd": 0.5,
    }
    unknown = RunSummary(details={"usageBasis": "none"})
    assert trajectory([{"kind": "assistant", "text": "hi"}], unknown)["final_metrics"] == {
        "total_steps": 1
    }


def test_the_schema_refuses_what_the_spec_forbids() -> None:
    good = trajectory([{"kind": "user", "text": "hi"}])
    VALIDATOR.validate(good)
    bad_user = json.loads(json.dumps(good))
    bad_user["steps"][0]["tool_calls"] = []
    bad_ref = trajectory(
        [call("t1", "Task", {}), {"kind": "assistant", "text": "x", "parentToolUseId": "t1"}]
    )
    bad_ref["steps"][0]["observation"]["results"][0]["subagent_trajectory_ref"] = [
        {"session_id": "s"}
    ]
    for document in (bad_user, bad_ref, {**good, "schema_version": "ATIF-v1.6"}):
        assert not VALIDATOR.is_valid(document)


def _corpus() -> list[Path]:
    found: list[Path] = []
    for folder in (corpus_path("real-logs"), corpus_path("real-sessions")):
        found += [p for p in folder.rglob("*") if p.is_file() and p.suffix in (".jsonl", ".log")]
    return sorted(found)


def test_every_real_log_and_session_exports_a_valid_trajectory(tmp_path: Path) -> None:
    logs = _corpus()
    assert len(logs) > 80
    with_subagents = 0
    for path in logs:
        out = tmp_path / (path.name + ".json")
        assert main(["render", str(path), "-f", "atif", "-q", "-o", str(out)]) == 0, path
        document = json.loads(out.read_text(encoding="utf-8"))
        try:
            check(document)
        except (AssertionError, jsonschema.ValidationError) as error:
            pytest.fail(f"{path}: {error}")
        with_subagents += bool(document.get("subagent_trajectories"))
    assert with_subagents >= 3  # the Claude runs with Explore subagents


def test_a_claude_run_with_subagents_refers_to_each_from_the_call_that_started_it(
    tmp_path: Path,
) -> None:
    path = corpus_path("real-logs", "claude", "perfectsnake-run1-max-turns.jsonl")
    out = tmp_path / "run.json"
    assert main(["render", str(path), "-f", "atif", "-q", "-o", str(out)]) == 0
    document = json.loads(out.read_text())
    check(document)
    refs = [
        ref["trajectory_id"]
        for step in document["steps"]
        for result in step.get("observation", {}).get("results", [])
        for ref in result.get("subagent_trajectory_ref", [])
    ]
    assert refs == [t["trajectory_id"] for t in document["subagent_trajectories"]]
    assert document["final_metrics"]["total_cost_usd"] > 0
