"""copilot_local's run summary: outcome, tokens and session id from the run's last ``result`` event."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import linewise_copilot
from linewise.transcript.run_report import summarize_log
from linewise_contracts import TokenUsage
from linewise_contracts.validation import json_problem
from linewise_copilot.stdout import summarize_run
from linewise_copilot.summary import result_tokens

RUN = Path(linewise_copilot.__file__).parent / "samples" / "stdout-run.jsonl"


def _event(kind: str, data: dict[str, Any] | None = None, **envelope: Any) -> str:
    event: dict[str, Any] = {"type": kind, "timestamp": "2026-06-03T09:00:00Z", **envelope}
    if data is not None:
        event["data"] = data
    return json.dumps(event)


START = _event("session.start", {"sessionId": "from-start", "selectedModel": "gpt-5.4"})
SAID = _event("assistant.message", {"messageId": "m-1", "content": "Done.", "toolRequests": []})


def test_a_finished_run_is_completed_with_the_session_id_of_its_result() -> None:
    summary = summarize_run(RUN.read_text(encoding="utf-8").splitlines())
    assert summary.session_id == "5b1e0c2a-0000-4000-8000-00000000beef"
    assert (summary.outcome, summary.complete, summary.is_error) == ("completed", True, False)
    assert summary.final_text == "It runs `make all`."
    # The sample's result reports no usage: unknown, never 0; no dollars from Copilot.
    assert summary.token_usage.is_empty and summary.cost_usd is None
    assert summary.details == {"exitCode": 0}


def test_a_failed_run_says_its_exit_code_and_reports_its_tokens_in_the_vocabulary() -> None:
    usage = {"inputTokens": 10, "outputTokens": 2, "cacheReadTokens": 4}
    end = _event("result", sessionId="s-1", exitCode=1, usage=usage)
    summary = summarize_run([START, SAID, end])
    assert (summary.outcome, summary.is_error, summary.complete) == ("failed", True, True)
    assert summary.errors == ("exit code 1",)
    assert summary.token_usage == TokenUsage(uncached_input=10, cache_read=4, output=2)
    assert summary.token_usage.cache_write is None  # not reported: unknown
    assert (summary.usage.input_tokens, summary.usage.cached_tokens) == (10, 4)
    assert summary.model == "gpt-5.4" and summary.model_usage == {}  # no per-model split said


def test_the_result_events_session_id_wins_over_the_one_the_run_started_with() -> None:
    summary = summarize_run([START, SAID, _event("result", sessionId="from-result", exitCode=0)])
    assert summary.session_id == "from-result"


def test_a_run_without_its_result_is_cut_off_and_its_tokens_unknown() -> None:
    summary = summarize_run([START, SAID])
    assert (summary.outcome, summary.complete) == ("cut_off", False)
    assert summary.session_id == "from-start" and summary.token_usage.is_empty
    assert summarize_run([]).outcome is None  # nothing happened: nothing to say


def test_a_shutdown_in_the_stream_gives_the_tokens_per_model_when_the_result_has_none() -> None:
    metrics = {
        "gpt-5.4": {"usage": {"inputTokens": 100, "outputTokens": 7, "cacheReadTokens": 50,
                              "cacheWriteTokens": 0, "reasoningTokens": 3}},
    }  # fmt: skip
    shutdown = _event("session.shutdown", {"shutdownType": "routine", "modelMetrics": metrics})
    summary = summarize_run([START, SAID, shutdown, _event("result", sessionId="s", exitCode=0)])
    wanted = TokenUsage(uncached_input=100, cache_read=50, cache_write=0, output=7, reasoning=3)
    assert summary.model_usage == {"gpt-5.4": wanted}
    assert summary.token_usage == wanted  # counted once, though the result entry shows it too


def test_result_tokens_read_a_usage_block_in_the_events_data_too() -> None:
    event = {"type": "result", "data": {"usage": {"outputTokens": 5, "reasoningTokens": 1}}}
    assert result_tokens(event) == TokenUsage(output=5, reasoning=1)
    assert result_tokens({"type": "result", "usage": {"inputTokens": -1}}).is_empty


def test_summarize_reads_a_copilot_run_through_its_plugin(tmp_path: Path) -> None:
    end = _event("result", sessionId="s-9", exitCode=0, usage={"inputTokens": 3, "outputTokens": 1})
    log = tmp_path / "copilot.jsonl"
    log.write_text("\n".join([START, SAID, end]) + "\n", encoding="utf-8")
    report = summarize_log(log, "copilot_local")
    assert report.summary is not None
    assert report.summary.outcome == "completed" and report.summary.session_id == "s-9"
    assert report.summary.token_usage == TokenUsage(uncached_input=3, output=1)


def test_an_exit_code_beyond_what_json_holds_still_fails_the_run_and_stays_out_of_details() -> None:
    # Found by the compliance kit's fuzzing: the summary must hold plain JSON numbers.
    huge = 10**400
    summary = summarize_run([START, '{"type": "result", "exitCode": ' + str(huge) + "}"])
    assert (summary.outcome, summary.is_error) == ("failed", True)
    assert summary.details == {"exitCode": None}
    assert f"exit code {huge}" in summary.errors
    assert json_problem(summary.to_json()) is None
