"""Tally parser: what each kind of line becomes, and the whole-run summary."""

from __future__ import annotations

from pathlib import Path

from linewise_contracts import entry_problem
from linewise_tally import create_stdout_parser, parse_stdout_line, sniff, summarize_run

TS = "2026-01-01T00:00:00.000Z"
SAMPLE = Path(__file__).parents[1] / "src" / "linewise_tally" / "samples" / "run.log"


def _parse(*lines: str) -> list[dict[str, object]]:
    parser = create_stdout_parser()
    return [entry for line in lines for entry in parser.parse_line(line, TS)]  # type: ignore[misc]


def test_session_and_messages() -> None:
    assert _parse("@session abc model=tally-2", "> one", "> two", "~ hmm") == [
        {"kind": "init", "ts": TS, "model": "tally-2", "sessionId": "abc"},
        {"kind": "assistant", "ts": TS, "text": "one", "delta": True},
        {"kind": "assistant", "ts": TS, "text": "\ntwo", "delta": True},
        {"kind": "thinking", "ts": TS, "text": "hmm", "delta": True},
    ]


def test_tool_calls_pair_with_results_by_id_and_name() -> None:
    assert _parse("$ [7] shell: ls -1", "= [7] exit 2 (0.1s): no such file\\nsecond line") == [
        {
            "kind": "tool_call",
            "ts": TS,
            "name": "shell",
            "input": {"args": "ls -1"},
            "toolUseId": "tally-7",
        },
        {
            "kind": "tool_result",
            "ts": TS,
            "toolUseId": "tally-7",
            "content": "exit 2 (0.1s)\nno such file\nsecond line",
            "isError": True,
            "toolName": "shell",
        },
    ]


def test_notices_results_and_unknown_lines() -> None:
    assert parse_stdout_line("! retrying", TS) == [{"kind": "system", "ts": TS, "text": "retrying"}]
    assert parse_stdout_line("# error budget exhausted", TS)[0]["errors"] == ["budget exhausted"]
    assert parse_stdout_line("Traceback (most recent call last):", TS) == [
        {"kind": "stdout", "ts": TS, "text": "Traceback (most recent call last):"}
    ]


def test_the_sample_run() -> None:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    entries = _parse(*lines)
    assert all(entry_problem(entry) is None for entry in entries)
    assert [e["kind"] for e in entries].count("tool_result") == 4
    summary = summarize_run(lines)
    assert summary.session_id == "7f3a9c"
    assert summary.model == "tally-2"
    assert summary.usage.input_tokens == 1200
    assert summary.cost_usd == 0.0042
    assert (
        summary.final_text
        == "Fixed: add() no longer takes the absolute value of a.\nBoth tests pass."
    )
    assert summary.complete
    assert sniff(lines) >= 0.9
    assert sniff(['{"type": "system"}', "hello"]) == 0.0
