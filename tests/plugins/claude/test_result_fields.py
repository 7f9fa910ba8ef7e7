"""Contract 1.5 on Claude's entries: the result carries what the run summary says, and a
Task/Agent call says it starts a subagent, so the host's one fold reads them from the entries."""

from __future__ import annotations

import json
from typing import Any

from linewise.transcript.fold import RunFold
from linewise_claude import create_stdout_parser, parse_stdout_line, summarize_run
from linewise_claude.session import create_stdout_parser as create_session_parser
from linewise_contracts import entry_problem
from support import FOLDED_FIGURES, corpus_path, summary_disagreements

TS = "2026-01-01T00:00:00.000Z"
SESSION = "4cda4f2a-2a49-499b-af37-c6f4739bd0c7"


def _result_line(**fields: Any) -> str:
    event: dict[str, Any] = {
        "type": "result",
        "subtype": "success",
        "is_error": False,
        "result": "done",
        "session_id": SESSION,
        "num_turns": 2,
        # Claude Code 2.1: the main loop's usage, and modelUsage over every model call.
        "usage": {
            "input_tokens": 18,
            "cache_creation_input_tokens": 4200,
            "cache_read_input_tokens": 30100,
            "output_tokens": 950,
        },
        "modelUsage": {
            "claude-haiku-4-5-20251001": {
                "inputTokens": 40,
                "outputTokens": 1200,
                "cacheReadInputTokens": 51000,
                "cacheCreationInputTokens": 6100,
                "costUSD": 0.064,
            }
        },
        "total_cost_usd": 0.064,
    }
    event.update(fields)
    return json.dumps({k: v for k, v in event.items() if v is not None})


def _assistant_line(*blocks: dict[str, Any]) -> str:
    message = {"id": "msg_1", "role": "assistant", "model": "claude-sonnet-5", "content": blocks}
    return json.dumps({"type": "assistant", "session_id": SESSION, "message": message})


def _result(entries: list[Any]) -> dict[str, Any]:
    (result,) = [entry for entry in entries if entry["kind"] == "result"]
    assert entry_problem(result) is None
    return dict(result)


def test_a_task_or_agent_call_says_it_starts_a_subagent_and_other_calls_do_not() -> None:
    line = _assistant_line(
        {
            "type": "tool_use",
            "id": "toolu_1",
            "name": "Task",
            "input": {"subagent_type": "Explore", "description": "map the tests", "prompt": "go"},
        },
        {"type": "tool_use", "id": "toolu_2", "name": "Agent", "input": {"prompt": "review"}},
        {"type": "tool_use", "id": "toolu_3", "name": "Bash", "input": {"command": "ls"}},
    )
    for entries in (parse_stdout_line(line, TS), create_stdout_parser().parse_line(line, TS)):
        calls = {entry["toolUseId"]: entry for entry in entries if entry["kind"] == "tool_call"}
        assert calls["toolu_1"].get("startsSubagent") is True
        assert calls["toolu_2"].get("startsSubagent") is True
        assert "startsSubagent" not in calls["toolu_3"]
        assert all(entry_problem(call) is None for call in calls.values())


def test_a_session_files_task_call_says_it_starts_a_subagent() -> None:
    record = {
        "type": "assistant",
        "sessionId": SESSION,
        "timestamp": TS,
        "uuid": "u1",
        "message": {
            "id": "msg_1",
            "role": "assistant",
            "model": "claude-sonnet-5",
            "content": [
                {"type": "tool_use", "id": "toolu_1", "name": "Task", "input": {"prompt": "go"}}
            ],
        },
    }
    entries = create_session_parser().parse_line(json.dumps(record), TS)
    (call,) = [entry for entry in entries if entry["kind"] == "tool_call"]
    assert call.get("startsSubagent") is True


def test_a_result_carries_its_sessions_tokens_cost_source_outcome_and_session() -> None:
    result = _result(parse_stdout_line(_result_line(), TS))
    # modelUsage (every model call, subagents included), cache reads and writes apart.
    assert result["usage"] == {
        "uncachedInput": 40,
        "cacheRead": 51000,
        "cacheWrite": 6100,
        "output": 1200,
        "reasoning": None,
    }
    assert result["costSource"] == "reported"
    assert result["outcome"] == "completed"
    assert result["sessionId"] == SESSION
    # The 1.x counts stay the main loop's, as before.
    assert (result["inputTokens"], result["cachedTokens"]) == (18, 30100)


def test_a_result_carries_its_turns_and_its_session_s_usage_per_model() -> None:
    result = _result(parse_stdout_line(_result_line(), TS))
    assert result["turns"] == 2  # contract 1.9: num_turns, this result's own
    assert result["modelUsage"] == {
        "claude-haiku-4-5-20251001": {
            "uncachedInput": 40,
            "cacheRead": 51000,
            "cacheWrite": 6100,
            "output": 1200,
            "reasoning": None,
        }
    }
    bare = _result(parse_stdout_line(_result_line(num_turns=None, modelUsage=None), TS))
    assert "turns" not in bare and "modelUsage" not in bare  # not reported: not said
    assert "turns" not in _result(parse_stdout_line(_result_line(num_turns=-3), TS))


def test_a_result_without_model_usage_carries_its_usage_blocks_counts() -> None:
    result = _result(parse_stdout_line(_result_line(modelUsage=None), TS))
    assert result["usage"] == {
        "uncachedInput": 18,
        "cacheRead": 30100,
        "cacheWrite": 4200,
        "output": 950,
        "reasoning": None,
    }


def test_a_result_that_reports_no_tokens_or_cost_says_so_and_never_zero() -> None:
    line = _result_line(usage=None, modelUsage=None, total_cost_usd=None)
    result = _result(parse_stdout_line(line, TS))
    assert "usage" not in result
    assert result["costSource"] is None  # the wire's costUsd 0 is then no cost
    assert result["costUsd"] == 0


def test_a_reported_zero_cost_is_a_reported_cost() -> None:
    result = _result(parse_stdout_line(_result_line(total_cost_usd=0), TS))
    assert result["costSource"] == "reported"


def test_a_results_outcome_is_said_in_the_contracts_words() -> None:
    cases = {
        "completed": {},
        "max_turns": {"subtype": "error_max_turns", "is_error": True},
        "budget": {"subtype": "error_max_budget_usd", "is_error": True},
        "refused": {"stop_reason": "refusal"},
        "failed": {"subtype": "error_during_execution", "is_error": True},
    }
    for outcome, fields in cases.items():
        assert _result(parse_stdout_line(_result_line(**fields), TS))["outcome"] == outcome


def test_an_error_result_after_a_persons_interruption_is_interrupted() -> None:
    parser = create_stdout_parser()
    stop = {"type": "text", "text": "[Request interrupted by user for tool use]"}
    parser.parse_line(json.dumps({"type": "user", "message": {"content": [stop]}}), TS)
    failed = _result_line(subtype="error_during_execution", is_error=True)
    assert _result(parser.parse_line(failed, TS))["outcome"] == "interrupted"
    # The interruption belongs to that session: the next one's failure is a failure.
    assert _result(parser.parse_line(failed, TS))["outcome"] == "failed"


def _folded(lines: list[str]) -> RunFold:
    parser, fold = create_stdout_parser(), RunFold()
    for line in lines:
        for entry in parser.parse_line(line, TS):
            fold.add(entry)
    return fold


def test_a_multi_turn_sessions_results_each_name_it_and_the_latest_counts() -> None:
    first = _result_line(result_index=0, total_cost_usd=0.06)
    latest = _result_line(result_index=1, total_cost_usd=0.11)
    parser = create_stdout_parser()
    assert _result(parser.parse_line(first, TS))["sessionId"] == SESSION
    assert _result(parser.parse_line(latest, TS))["sessionId"] == SESSION
    fold, summary = _folded([first, latest]), summarize_run([first, latest])
    assert fold.cost_usd == summary.cost_usd == 0.11
    assert fold.token_usage == summary.token_usage


def test_a_resumed_sessions_second_result_adds_up_as_the_summary_does() -> None:
    # `claude -p --resume` twice, concatenated: the same session, each result its process's.
    first, second = _result_line(total_cost_usd=0.06), _result_line(total_cost_usd=0.02)
    parser = create_stdout_parser()
    assert _result(parser.parse_line(first, TS))["sessionId"] == SESSION
    assert "sessionId" not in _result(parser.parse_line(second, TS))
    fold, summary = _folded([first, second]), summarize_run([first, second])
    assert fold.cost_usd == summary.cost_usd
    assert summary.cost_usd is not None and round(summary.cost_usd, 6) == 0.08
    assert fold.token_usage == summary.token_usage
    assert fold.token_usage.output == 2400


#: What a run cut off after its last result has only in its summary (its messages' counts).
_OPEN_FIGURES = ("token_usage", "model_usage", "outcome", "cost_usd", "cost_source", "complete")


def test_on_every_real_log_the_entries_fold_to_the_summarys_figures() -> None:
    checked = 0
    for path in sorted(corpus_path("real-logs", "claude").glob("*.jsonl")):
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        fold, summary = _folded(lines), summarize_run(lines)
        if fold.results == 0:
            continue
        checked += 1
        # Every figure; the tokens and the outcome of a run cut off after its last result
        # are only in the summary's count (its messages').
        figures = [f for f in FOLDED_FIGURES if fold.complete or f not in _OPEN_FIGURES]
        assert summary_disagreements(fold.to_summary(), summary, figures=figures) == {}, path.name
        if summary.cost_usd is None:
            assert fold.cost_usd is None, path.name
        else:
            assert fold.cost_usd is not None, path.name
            assert abs(fold.cost_usd - summary.cost_usd) < 1e-9, path.name
    assert checked >= 10


def test_a_parser_made_for_a_claude_compatible_cli_gives_the_1_4_result() -> None:
    # Qwen Code writes this format but counts its cache reads inside input_tokens: its
    # plugin wraps ClaudeStdoutParser() and must not be given Claude's reading of them.
    from linewise_claude.parser import ClaudeStdoutParser

    result = _result(ClaudeStdoutParser().parse_line(_result_line(), TS))
    assert not {"usage", "costSource", "outcome", "sessionId"} & result.keys()
    assert _result(create_stdout_parser().parse_line(_result_line(), TS))["usage"]


def _said_by(model: str, parent: str | None = None) -> str:
    message = {"id": f"msg-{model}", "model": model, "role": "assistant", "content": []}
    return json.dumps({"type": "assistant", "message": message, "parent_tool_use_id": parent})


def _init(**fields: Any) -> str:
    return json.dumps({"type": "system", "subtype": "init", "session_id": SESSION, **fields})


def test_a_result_names_the_main_threads_model_where_the_init_named_none() -> None:
    # A subagent's message (another model) comes first; Claude's own <synthetic> is no model.
    lines = [
        _init(),
        _said_by("claude-haiku-4-5", parent="toolu_1"),
        _said_by("<synthetic>"),
        _said_by("claude-sonnet-4-5"),
        _result_line(),
    ]
    parser = create_stdout_parser()
    entries = [entry for line in lines for entry in parser.parse_line(line, TS)]
    assert _result(entries)["model"] == "claude-sonnet-4-5"
    assert _folded(lines).to_summary().model == summarize_run(lines).model == "claude-sonnet-4-5"
    # An init that names the model: the results need not say it again.
    named = [_init(model="claude-opus-4-5"), _said_by("claude-sonnet-4-5"), _result_line()]
    parser = create_stdout_parser()
    entries = [entry for line in named for entry in parser.parse_line(line, TS)]
    assert "model" not in _result(entries)
    assert _folded(named).to_summary().model == summarize_run(named).model == "claude-opus-4-5"
