"""The Codex run summary and error classifiers, against the reference and real runs."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import pytest
from linewise_codex import (
    classify_auth_refresh_failure,
    is_provider_quota_error,
    is_transient_upstream_error,
    is_unknown_session_error,
    retry_not_before,
    summarize_run,
)
from linewise_contracts import Usage
from scaling import assert_linear_time
from support import corpus_json, corpus_path


def _server_cases(fn: str) -> list[dict[str, Any]]:
    cases = corpus_json("paperclip", "codex-local", "expected.json")["server_parse"]
    return [case for case in cases if case["fn"] == fn]


def _texts(source: dict[str, str]) -> list[str | None]:
    """The reference passes {errorMessage, stdout, stderr}; these functions take the texts."""
    return [source.get("errorMessage"), source.get("stdout"), source.get("stderr")]


def _real(name: str) -> list[str]:
    return corpus_path("real-logs", "codex", name).read_text(encoding="utf-8").splitlines()


# -- the reference -----------------------------------------------------------------------


def test_summary_matches_the_reference_jsonl_parse() -> None:
    cases = _server_cases("parseCodexJsonl")
    assert len(cases) == 3
    for case in cases:
        summary = summarize_run(case["args"][0].splitlines())
        expected = case["output"]
        usage = expected["usage"]
        assert summary.session_id == expected["sessionId"]
        assert summary.final_text == expected["summary"]
        assert summary.usage == Usage(
            input_tokens=usage["inputTokens"],
            output_tokens=usage["outputTokens"],
            cached_tokens=usage["cachedInputTokens"],
        )
        assert summary.details["usageBasis"] == expected["usageBasis"]
        last_error = summary.errors[-1] if summary.errors else None
        assert last_error == expected["errorMessage"]
        assert summary.is_error is (expected["errorMessage"] is not None)
        assert summary.cost_usd is None and summary.complete


def test_unknown_session_detection_matches_the_reference() -> None:
    cases = _server_cases("isCodexUnknownSessionError")
    assert len(cases) == 6
    for case in cases:
        assert is_unknown_session_error(*case["args"]) is case["output"], case["test"]


@pytest.mark.parametrize(
    ("fn", "classifier"),
    [
        ("isCodexTransientUpstreamError", is_transient_upstream_error),
        ("isCodexProviderQuotaError", is_provider_quota_error),
        ("classifyCodexAuthRefreshFailure", classify_auth_refresh_failure),
    ],
)
def test_error_classifiers_match_the_reference(fn: str, classifier: Any) -> None:
    cases = _server_cases(fn)
    assert cases
    for case in cases:
        assert classifier(*_texts(case["args"][0])) == case["output"], case["test"]


def test_retry_times_match_the_reference() -> None:
    cases = _server_cases("extractCodexRetryNotBefore")
    assert len(cases) == 3
    for case in cases:
        source, *rest = case["args"]
        now = datetime.fromisoformat(rest[0]) if rest else datetime(2026, 4, 22, tzinfo=UTC)
        if "America/Chicago" in source["errorMessage"]:
            _need_zone("America/Chicago")
        got = retry_not_before(*_texts(source), now=now)
        expected = case["output"] and datetime.fromisoformat(case["output"])
        assert got == expected, case["test"]


def _need_zone(name: str) -> None:
    try:
        ZoneInfo(name)
    except ZoneInfoNotFoundError:
        pytest.skip(f"no time zone data for {name} on this machine")


def test_a_retry_time_without_a_zone_is_read_in_the_zone_of_now() -> None:
    """The reference reads it in the server's local zone; here the caller says which."""
    message = (
        "You've hit your usage limit for GPT-5.3-Codex-Spark. Switch to another model now,"
        " or try again at 9:05 AM."
    )
    paris = timezone(timedelta(hours=2))
    now = datetime(2026, 4, 22, 10, 0, tzinfo=paris)
    assert retry_not_before(message, now=now) == datetime(2026, 4, 23, 7, 5, tzinfo=UTC)
    naive_now = datetime(2026, 4, 22, 8, 0)
    assert retry_not_before(message, now=naive_now) == datetime(2026, 4, 22, 9, 5, tzinfo=UTC)


def test_the_dated_usage_limit_of_recent_codex_gives_a_retry_time_too() -> None:
    """Codex 0.141 names a date ("try again at Aug 27th, 2026 8:00 PM"); the reference reads none."""
    [error, failed] = _real("amux-0.141.0-usage-limit-error.jsonl")
    message = json.loads(error)["message"]
    now = datetime(2026, 8, 20, tzinfo=UTC)
    assert retry_not_before(message, now=now) == datetime(2026, 8, 27, 20, 0, tzinfo=UTC)
    summary = summarize_run([error, failed])
    assert summary.is_error and summary.errors == (message,)
    assert summary.details["providerQuota"] is True
    assert summary.details["transientUpstream"] is False


# -- real runs ---------------------------------------------------------------------------


def test_a_complete_run() -> None:
    lines = _real("stark-codex-run2.jsonl")
    summary = summarize_run(lines)
    assert summary.session_id == "019f598e-e860-77c3-af05-b9390dcf1ae7"
    assert summary.usage == Usage(input_tokens=308164, output_tokens=10236, cached_tokens=218368)
    assert summary.details["reasoningOutputTokens"] == 205
    assert summary.complete and summary.outcome == "completed" and not summary.is_error
    assert summary.details["prompts"] == 1 and summary.cost_usd is None and summary.model is None
    last_message = [
        json.loads(line)["item"]["text"] for line in lines if '"type":"agent_message"' in line
    ][-1]
    assert summary.final_text == last_message.strip()
    # The skills-budget notice is an error item: a warning, not an error of the run.
    assert summary.errors == ()
    assert summary.details["warnings"] == [
        "Skill descriptions were shortened to fit the 2% skills context budget. Codex can still "
        "see every skill, but some descriptions are shorter. Disable unused skills or plugins to "
        "leave more room for the rest."
    ]


def test_a_run_cut_off_before_its_turn_ended_is_incomplete() -> None:
    summary = summarize_run(_real("stark-click-run-no-turn-completed.jsonl"))
    assert not summary.complete and summary.outcome == "cut_off" and not summary.is_error
    assert summary.usage == Usage() and summary.details["usageBasis"] == "none"
    assert summary.session_id == "019f5544-b709-7f40-a849-b8c16aeb9eed"
    assert summary.final_text


def test_a_run_that_only_started_is_incomplete() -> None:
    summary = summarize_run(_real("agentcmd-exec-0.46-multi-1.jsonl"))
    assert summary.session_id == "019a2d7b-c0ed-75a0-8908-de832785d47f"
    assert not summary.complete and summary.details["prompts"] == 1


def test_runs_concatenated_in_a_wrapped_log_add_up() -> None:
    """28 attempts in one hive-mind log, each failing with 401 after five reconnects."""
    summary = summarize_run(_real("hivemind-wrapped-401-turn-failed.log.txt"))
    assert summary.details["threads"] == summary.details["prompts"] == 28
    assert summary.session_id == "019a72eb-dc57-79e2-b943-2951218f833c"
    assert summary.details["reconnects"] == 136
    assert len(summary.errors) == 27
    assert all("401 Unauthorized" in error for error in summary.errors)
    # The log ends inside a 28th attempt that never reported its turn: the outcome is how the
    # run ended (cut off), the earlier failures make it an error.
    assert summary.is_error and summary.outcome == "cut_off"
    assert not summary.complete
    # A bare 401 is not a refresh-token failure (the reference agrees).
    assert summary.details["authRefreshFailure"] is None
    assert not summary.unknown_session


def test_usage_is_the_last_report_of_each_thread_summed_over_threads() -> None:
    def run(thread: str, *totals: int) -> list[str]:
        lines = [json.dumps({"type": "thread.started", "thread_id": thread})]
        for total in totals:
            lines.append(json.dumps({"type": "turn.started"}))
            usage = {"input_tokens": total, "cached_input_tokens": 1, "output_tokens": 2}
            lines.append(json.dumps({"type": "turn.completed", "usage": usage}))
        return lines

    summary = summarize_run([*run("a", 10, 30), *run("b", 5)])
    assert summary.usage == Usage(input_tokens=35, output_tokens=4, cached_tokens=2)
    assert summary.session_id == "b" and summary.details["prompts"] == 3 and summary.complete


def test_an_unknown_thread_on_resume_is_detected_from_the_error_events() -> None:
    lines = [
        json.dumps(
            {
                "type": "error",
                "message": "thread/resume failed: no rollout found for thread id 9f1c",
            }
        ),
        json.dumps({"type": "turn.failed", "error": {"message": "thread/resume failed"}}),
    ]
    summary = summarize_run(lines)
    assert summary.unknown_session and summary.is_error
    assert summary.errors == (
        "thread/resume failed: no rollout found for thread id 9f1c",
        "thread/resume failed",
    )


def test_an_agent_discussing_missing_sessions_is_not_an_unknown_session() -> None:
    text = "The bug: session abc not found in the cache."
    lines = [
        json.dumps({"type": "thread.started", "thread_id": "t"}),
        json.dumps(
            {"type": "item.completed", "item": {"id": "i", "type": "agent_message", "text": text}}
        ),
        json.dumps({"type": "turn.completed", "usage": {}}),
    ]
    summary = summarize_run(lines)
    assert not summary.unknown_session and summary.final_text == text


def test_codex_0_159_usage_counts_cache_writes_beside_the_three_totals() -> None:
    """Five-field usage: cache writes and reasoning are parts of input and output, kept apart."""
    summary = summarize_run(_real("fullsend-codex-basic_run.ndjson"))
    assert summary.usage == Usage(input_tokens=41320, output_tokens=295, cached_tokens=27386)
    assert summary.details["cacheWriteInputTokens"] == 13925
    assert summary.details["reasoningOutputTokens"] == 74
    assert summary.cost_usd is None and summary.model is None  # neither is reported


def test_reasoning_tokens_are_the_thread_total_not_a_sum_over_turns() -> None:
    """Each turn.completed reports the thread's running total, reasoning included."""

    def turn(total: int, reasoning: int, written: int) -> list[str]:
        usage = {
            "input_tokens": total,
            "cached_input_tokens": 0,
            "cache_write_input_tokens": written,
            "output_tokens": 10,
            "reasoning_output_tokens": reasoning,
        }
        return [
            json.dumps({"type": "turn.started"}),
            json.dumps({"type": "turn.completed", "usage": usage}),
        ]

    start = json.dumps({"type": "thread.started", "thread_id": "a"})
    other = json.dumps({"type": "thread.started", "thread_id": "b"})
    summary = summarize_run([start, *turn(100, 5, 40), *turn(300, 9, 60), other, *turn(50, 2, 1)])
    assert summary.details["reasoningOutputTokens"] == 11  # 9 (thread a) + 2 (thread b)
    assert summary.details["cacheWriteInputTokens"] == 61
    assert summary.usage.input_tokens == 350


def test_the_legacy_id_msg_shape_is_summarised() -> None:
    name = "acplazybridge-codex-proto-legacy-id-msg-wrapper_test_20250927_115226.jsonl"
    summary = summarize_run(_real(name))
    assert summary.session_id == "0199894d-068c-70a1-857c-753ef9abf7b5"
    assert summary.model == "gpt-5-codex"
    assert summary.usage == Usage(input_tokens=2552, output_tokens=15, cached_tokens=0)
    assert summary.final_text == "Hey! How can I help you today?"
    assert summary.complete and summary.outcome == "completed" and summary.details["prompts"] == 1
    assert summary.cost_usd is None


def test_the_classifiers_cost_linear_time_on_hostile_text() -> None:
    """Regex audit: "session <id> not found" and the usage-limit clock were quadratic."""
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert_linear_time(lambda n: is_unknown_session_error("session " * n))
    assert_linear_time(
        lambda n: retry_not_before("You've hit your usage limit for x." * n, now=now)
    )
    assert_linear_time(lambda n: retry_not_before("usage limit " * n, now=now))
    assert is_unknown_session_error("Error: thread 0199 not found")
    assert not is_unknown_session_error("thread not found")  # as the reference: needs an id


def _error(message: str) -> str:
    return json.dumps({"type": "error", "message": message})


def test_errors_beyond_those_kept_are_counted_and_still_classified() -> None:
    from linewise_codex.summary import KEPT_ERRORS

    lines = [_error(f"stream failed {n}") for n in range(KEPT_ERRORS + 5)]
    quiet = summarize_run(lines)
    assert (
        len(quiet.errors) == KEPT_ERRORS and quiet.errors[-1] == f"stream failed {KEPT_ERRORS - 1}"
    )
    assert quiet.details["errorsOmitted"] == 5
    assert quiet.details["providerQuota"] is False and quiet.details["transientUpstream"] is False
    assert quiet.details["authRefreshFailure"] is None and not quiet.unknown_session

    late = summarize_run(
        [
            *lines,
            _error("We're currently experiencing high demand, which may cause temporary errors."),
            _error("refresh_token_expired: sign in again"),
            _error("unknown thread 0199"),
        ]
    )
    assert late.details["errorsOmitted"] == 8
    assert late.details["transientUpstream"] is True
    assert late.details["authRefreshFailure"] == "refresh_token_expired"
    assert late.unknown_session
    quota = summarize_run([*lines, _error("You've hit your usage limit. Try again later.")])
    assert quota.details["providerQuota"] is True and quota.details["transientUpstream"] is False


def test_an_ordinary_run_omits_nothing() -> None:
    summary = summarize_run([_error("boom"), _error("boom"), _error("bang")])
    assert summary.errors == ("boom", "bang") and "errorsOmitted" not in summary.details
