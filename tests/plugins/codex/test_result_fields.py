"""Contract 1.5 on Codex's entries (``exec --json``, legacy events and rollouts): a result
carries its thread's tokens in the usage vocabulary, no cost, its outcome and its thread; a
``spawn_agent`` call says it starts a subagent. The host's one fold reads them."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from linewise.transcript.fold import RunFold
from linewise_codex import create_stdout_parser, parse_stdout_line, summarize_run
from linewise_codex.app_server import create_stdout_parser as create_app_server_parser
from linewise_codex.app_server import summarize_run as summarize_app_server
from linewise_codex.session import create_stdout_parser as create_session_parser
from linewise_codex.session import summarize_run as summarize_session
from linewise_contracts import entry_problem
from linewise_contracts.summary import RunSummary
from support import FOLDED_FIGURES, corpus_path, summary_disagreements

TS = "2026-01-01T00:00:00.000Z"
THREAD = "0199a213-81c0-7800-8aa1-bbab2a035a53"
OTHER = "0199a213-81c0-7800-8aa1-bbab2a035a54"


def _line(kind: str, **fields: Any) -> str:
    return json.dumps({"type": kind, **fields})


def _completed(total_in: int, cached: int, out: int, reasoning: int | None = None) -> str:
    usage: dict[str, int] = {
        "input_tokens": total_in,
        "cached_input_tokens": cached,
        "output_tokens": out,
    }
    if reasoning is not None:
        usage["reasoning_output_tokens"] = reasoning
    return _line("turn.completed", usage=usage)


def _results(entries: Iterable[Any]) -> list[dict[str, Any]]:
    found = [dict(entry) for entry in entries if entry["kind"] == "result"]
    assert all(entry_problem(entry) is None for entry in found)
    return found


def _parsed(lines: list[str], factory: Callable[[], Any] = create_stdout_parser) -> list[Any]:
    parser = factory()
    entries = [entry for line in lines for entry in parser.parse_line(line, TS)]
    finish = getattr(parser, "finish", None)
    return entries + (finish(TS) if finish is not None else [])


def _fold(entries: list[Any]) -> RunFold:
    fold = RunFold()
    for entry in entries:
        fold.add(entry)
    return fold


def _agrees(fold: RunFold, summary: RunSummary, name: str, *, rollout: bool = False) -> None:
    """The fold over the entries gives the figures the plugin's summary gives: the tokens
    where the run completed (a turn cut off before its result is only in the summary's
    count), no cost (Codex reports none), and at most the fold's kept errors.

    ``rollout``: a session file's results are its ``token_count`` and turn-end records,
    which say no outcome word, and an interrupted turn's result is an error ("turn
    aborted: <reason>", ``linewise_codex.legacy``) where the summary counts interruptions
    apart (``details["interrupts"]``): outcome and errors stay the summary's there.
    """
    left = ("token_usage", "model_usage", "errors") + (("outcome",) if rollout else ())
    figures = [figure for figure in FOLDED_FIGURES if figure not in left]
    assert summary_disagreements(fold.to_summary(), summary, figures=figures) == {}, name
    if fold.complete and fold.token_usage.known:
        assert fold.token_usage == summary.token_usage, name
    if not rollout:
        kept = len(fold.errors)
        assert fold.to_summary().errors == summary.errors[:kept], name
    assert fold.cost_usd is None and summary.cost_usd is None, name


def test_a_completed_turn_carries_its_threads_running_total_and_thread() -> None:
    lines = [
        _line("thread.started", thread_id=THREAD),
        _line("turn.started"),
        _completed(6087, 5120, 204, reasoning=64),
    ]
    (result,) = _results(_parsed(lines))
    # Codex's input_tokens include the cache reads: the uncached input is the rest.
    assert result["usage"] == {
        "uncachedInput": 967,
        "cacheRead": 5120,
        "cacheWrite": None,
        "output": 204,
        "reasoning": 64,
    }
    assert result["costSource"] is None  # Codex reports no cost
    assert result["outcome"] == "completed"
    assert result["sessionId"] == THREAD
    assert (result["inputTokens"], result["cachedTokens"]) == (6087, 5120)  # 1.x as before


def test_a_single_line_gives_the_reference_parsers_result_without_the_new_fields() -> None:
    (result,) = _results(parse_stdout_line(_completed(10, 2, 4), TS))
    assert not {"usage", "costSource", "outcome", "sessionId"} & result.keys()


def test_a_failed_turn_says_failed_and_carries_no_tokens() -> None:
    lines = [
        _line("thread.started", thread_id=THREAD),
        _line("turn.failed", error={"message": "model access denied"}),
    ]
    (result,) = _results(_parsed(lines))
    assert result["outcome"] == "failed"
    assert "usage" not in result
    assert result["sessionId"] == THREAD


def test_turns_of_one_thread_count_once_and_threads_add_up_as_the_summary_does() -> None:
    lines = [
        _line("thread.started", thread_id=THREAD),
        _completed(100, 40, 20),
        _completed(300, 200, 50),  # the thread's running total: replaces the first
        _line("thread.started", thread_id=OTHER),
        _completed(10, 0, 5),
    ]
    fold, summary = _fold(_parsed(lines)), summarize_run(lines)
    assert fold.token_usage == summary.token_usage
    assert fold.token_usage.cache_read == 200 and fold.token_usage.output == 55
    _agrees(fold, summary, "two threads")


def test_a_turn_before_any_thread_started_carries_no_tokens_the_fold_could_misadd() -> None:
    (result,) = _results(_parsed([_completed(100, 40, 20)]))
    assert "usage" not in result and "sessionId" not in result
    assert result["outcome"] == "completed"


def test_a_spawn_agent_call_starts_a_subagent_and_other_collab_calls_do_not() -> None:
    def collab(tool: str, ident: str) -> str:
        item = {"id": ident, "type": "collab_tool_call", "tool": tool, "sender_thread_id": "t0"}
        return _line("item.started", item={**item, "receiver_thread_ids": ["t1"]})

    entries = _parsed([collab("spawn_agent", "item_1"), collab("wait", "item_2")])
    calls = {entry["toolUseId"]: entry for entry in entries if entry["kind"] == "tool_call"}
    assert calls["item_1"].get("startsSubagent") is True
    assert "startsSubagent" not in calls["item_2"]
    assert all(entry_problem(call) is None for call in calls.values())


def test_a_legacy_task_carries_its_sessions_total_and_session() -> None:
    def legacy(msg: dict[str, Any]) -> str:
        return json.dumps({"id": "0", "msg": msg})

    total = {"input_tokens": 5000, "cached_input_tokens": 3000, "output_tokens": 120}
    lines = [
        legacy({"type": "session_configured", "session_id": THREAD, "model": "gpt-5"}),
        legacy({"type": "task_started"}),
        legacy({"type": "token_count", "info": {"total_token_usage": total}}),
        legacy({"type": "task_complete", "last_agent_message": "done"}),
    ]
    (result,) = _results(_parsed(lines))
    assert result["sessionId"] == THREAD
    assert result["outcome"] == "completed"
    assert result["usage"]["uncachedInput"] == 2000
    _agrees(_fold(_parsed(lines)), summarize_run(lines), "legacy")


def _rollout(*records: tuple[str, dict[str, Any]]) -> list[str]:
    return [
        json.dumps({"timestamp": TS, "type": kind, "payload": payload}) for kind, payload in records
    ]


def _token_count(total_in: int, cached: int, out: int) -> tuple[str, dict[str, Any]]:
    total = {"input_tokens": total_in, "cached_input_tokens": cached, "output_tokens": out}
    return "event_msg", {"type": "token_count", "info": {"total_token_usage": total}}


def test_a_rollouts_turns_carry_the_sessions_running_total_and_how_each_ended() -> None:
    lines = _rollout(
        ("session_meta", {"id": THREAD, "cwd": "/srv/app"}),
        ("turn_context", {"model": "gpt-5-codex"}),
        _token_count(1000, 600, 50),
        ("event_msg", {"type": "task_complete", "last_agent_message": "done"}),
        _token_count(2500, 1800, 90),
        ("event_msg", {"type": "turn_aborted", "reason": "interrupted"}),
        _token_count(2600, 1800, 95),  # spent after the last turn ended: the file's end
    )
    first, aborted, tail = _results(_parsed(lines, create_session_parser))
    assert (first["outcome"], aborted["outcome"]) == ("completed", "interrupted")
    assert "outcome" not in tail  # the file ends: no turn ended there
    assert {first["sessionId"], aborted["sessionId"], tail["sessionId"]} == {THREAD}
    assert first["usage"]["cacheRead"] == 600 and aborted["usage"]["cacheRead"] == 1800
    # The wire counts stay the tokens spent since the last result; usage is the total.
    assert aborted["inputTokens"] == 1500 and tail["usage"]["uncachedInput"] == 800
    assert all(result["costSource"] is None for result in (first, aborted, tail))
    fold = _fold(_parsed(lines, create_session_parser))
    assert fold.token_usage == summarize_session(lines).token_usage


def test_a_rollouts_spawn_agent_function_call_starts_a_subagent() -> None:
    arguments = json.dumps({"message": "write the tests", "agent_type": "worker"})
    spawn = {"type": "function_call", "name": "spawn_agent", "call_id": "c1"}
    shell = {"type": "function_call", "name": "shell", "call_id": "c2", "arguments": "{}"}
    lines = _rollout(
        ("session_meta", {"id": THREAD, "model": "gpt-5-codex"}),
        ("response_item", {**spawn, "arguments": arguments}),
        ("response_item", shell),
    )
    entries = _parsed(lines, create_session_parser)
    calls = {entry["toolUseId"]: entry for entry in entries if entry["kind"] == "tool_call"}
    assert calls["c1"].get("startsSubagent") is True
    assert "startsSubagent" not in calls["c2"]


def _real(*parts: str) -> list[Path]:
    return sorted(path for path in corpus_path(*parts).rglob("*") if path.is_file())


def test_on_every_real_log_and_rollout_the_entries_fold_to_the_summarys_figures() -> None:
    checked = 0
    cases = [
        (path, create_stdout_parser, summarize_run, False) for path in _real("real-logs", "codex")
    ]
    cases += [
        (path, create_session_parser, summarize_session, True)
        for path in _real("real-sessions", "codex")
        if path.suffix == ".jsonl"
    ]
    for path, factory, summarize, rollout in cases:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        entries = _parsed(lines, factory)
        if not _results(entries):
            continue
        checked += 1
        _agrees(_fold(entries), summarize(lines), path.name, rollout=rollout)
    assert checked >= 10


def _rpc(method: str, params: dict[str, Any]) -> str:
    return json.dumps({"method": method, "params": params})


def _app_usage(kind: str, thread: str, turn: str, counts: tuple[int, int, int]) -> str:
    given, cached, out = counts
    breakdown = {"inputTokens": given, "cachedInputTokens": cached, "outputTokens": out}
    params = {"threadId": thread, "turnId": turn, "tokenUsage": {kind: breakdown}}
    return _rpc("thread/tokenUsage/updated", params)


def _app_turn(thread: str, turn: str, status: str = "completed") -> str:
    return _rpc("turn/completed", {"threadId": thread, "turn": {"id": turn, "status": status}})


def test_an_app_server_turn_carries_its_threads_running_total_or_its_own_last_call() -> None:
    lines = [
        _app_usage("total", THREAD, "u1", (1000, 600, 50)),
        _app_turn(THREAD, "u1"),
        _app_usage("total", THREAD, "u2", (2500, 1800, 90)),
        _app_turn(THREAD, "u2", "interrupted"),
        # A thread that sends only each call's counts: a turn's last call is its own figure.
        _app_usage("last", OTHER, "v1", (40, 0, 7)),
        _app_turn(OTHER, "v1", "failed"),
    ]
    first, second, own = _results(_parsed(lines, create_app_server_parser))
    assert (first["sessionId"], second["sessionId"]) == (THREAD, THREAD)
    assert second["usage"] == {
        "uncachedInput": 700,
        "cacheRead": 1800,
        "cacheWrite": None,
        "output": 90,
        "reasoning": None,
    }
    assert "sessionId" not in own and own["usage"]["output"] == 7
    assert [r["outcome"] for r in (first, second, own)] == ["completed", "interrupted", "failed"]
    assert all(result["costSource"] is None for result in (first, second, own))
    fold = _fold(_parsed(lines, create_app_server_parser))
    assert fold.token_usage == summarize_app_server(lines).token_usage


def test_on_the_app_servers_samples_the_entries_fold_to_the_summarys_tokens() -> None:
    import linewise_codex

    sample = (
        Path(linewise_codex.__file__).parent / "samples" / "codex_app_server" / "app-server.jsonl"
    )
    fixtures = corpus_path(
        "field-samples", "codex-app-server", "app-server-notifications-fixtures.jsonl"
    )
    for path in (sample, fixtures):
        lines = [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        entries = _parsed(lines, create_app_server_parser)
        assert _results(entries), path.name
        _agrees(_fold(entries), summarize_app_server(lines), path.name)
