"""The Hermes run summary and unknown-session classifier, on real and documented output."""

from __future__ import annotations

from pathlib import Path

import linewise_hermes
import pytest
from linewise_contracts import Usage
from linewise_hermes import is_unknown_session_error, summarize_run
from support import corpus_path, specs_path

HERE = Path(__file__).parent
# Raw stdout, blank lines included (see test_parser.py for where it comes from).
PIPED_RUN = (
    (Path(linewise_hermes.__file__).parent / "samples" / "hermes-piped-run.txt")
    .read_text(encoding="utf-8")
    .splitlines()
)


def _contract_example() -> list[str]:
    """The Hermes transcript in the contract document's "The Problem" section.

    Read from ../shared/specs (third-party text, not copied here); the test
    using it skips when the specs are absent.
    """
    path = specs_path("adapter-ui-parser-contract.md")
    section = path.read_text(encoding="utf-8").split("## The Problem", 1)[1]
    block = section.split("```", 2)[1]
    return [line.strip() for line in block.splitlines() if line.strip()]


def _real(name: str) -> list[str]:
    return corpus_path("real-logs", "hermes", name).read_text(encoding="utf-8").splitlines()


def test_a_piped_run_with_tools() -> None:
    summary = summarize_run(PIPED_RUN)
    assert summary.complete and not summary.is_error and summary.outcome == "completed"
    assert summary.session_id == "20260712_101500_a1b2c3"
    assert summary.model == "anthropic/claude-sonnet-4.6"
    assert summary.final_text == (
        "Fixed `add` in src/math.py: it subtracted instead of adding.\n\nAll 13 tests pass."
    )
    assert summary.details["toolCalls"] == 4 and summary.details["toolErrors"] == 1
    assert summary.details["exitCode"] == 0
    assert summary.details["resumedFrom"] == "20260712_101500_a1b2c3"
    # Hermes's text output carries no usage or cost.
    assert summary.usage == Usage() and summary.cost_usd is None


def test_blank_lines_inside_the_answer_are_kept() -> None:
    lines = [
        "┊ 💻 $ ls  0.1s",
        "Answer.",
        "",
        "Second paragraph.",
        "",
        "session_id: 20260101_000000_abcdef",
    ]
    assert summarize_run(lines).final_text == "Answer.\n\nSecond paragraph."


def test_the_contract_example_has_its_answer_but_no_ending() -> None:
    summary = summarize_run(_contract_example())
    assert (
        summary.final_text
        == "The project is a CLI tool. Here's what I found:\n- It uses TypeScript\n- Tests are in /tests"
    )
    assert summary.session_id == "abc123"
    assert not summary.complete and summary.outcome == "cut_off"
    assert summary.details["toolCalls"] == 2


def test_a_failed_quiet_run() -> None:
    lines = _real("issue-62480-chat-Q-failure.txt")
    summary = summarize_run(lines)
    assert summary.session_id == "20260710_212316_f4783e"
    assert summary.is_error and summary.outcome == "failed"
    assert summary.final_text is None
    assert summary.errors == (lines[1].strip(),)  # the "⚠️ No reply" warning
    assert summary.complete and not summary.unknown_session


def test_a_run_with_tool_progress_and_a_response_box() -> None:
    summary = summarize_run(_real("issue-62480-chat-q-tool-progress.txt"))
    assert summary.final_text == "Delegation review queue: empty."
    assert summary.complete and summary.outcome == "completed"
    assert summary.details["toolCalls"] == 2
    # The footer counts every tool call of the session, not only those printed.
    assert summary.details["toolCallsReported"] == 4 and summary.details["messages"] == 6


def test_the_final_text_is_the_last_answer_block() -> None:
    """PR 11024's quiet mode leaked the response box before the plain answer."""
    lines = _real("pr-11024-quiet-before-fix.txt")
    summary = summarize_run(lines)
    plain_answer = [line.strip() for line in lines[3:5]]
    assert summary.final_text == "\n".join(plain_answer)
    assert summary.session_id == "20260416_122045_f58303"


def test_without_an_answer_the_last_message_is_the_final_text() -> None:
    lines = ["┊ 💬 Checking the queue.", "It may take a while.", "┊ 💻 $ ./queue.sh  1.0s"]
    assert summarize_run(lines).final_text == "Checking the queue.\nIt may take a while."


def test_a_stale_resume() -> None:
    lines = [
        "[hermes] Starting Hermes Agent (model=z-ai/glm-5.2, provider=zai [explicit], timeout=300s)",
        "[hermes] Resuming session: 20260101_000000_deadbe",
        "Session not found: 20260101_000000_deadbe",
        "[2026-07-10T21:23:16.123Z] INFO: MCP server filesystem registered",
        "Traceback (most recent call last):",
        '  File "/opt/hermes/run_agent.py", line 812, in run_conversation',
        "RuntimeError: provider returned 401",
        "[hermes] Exit code: 1, timed out: false",
    ]
    summary = summarize_run(lines)
    assert summary.unknown_session and summary.is_error and summary.complete
    # The session it asked for does not exist, so it is not the run's session.
    assert summary.session_id is None
    assert summary.model == "z-ai/glm-5.2"
    assert summary.errors == (
        'Traceback (most recent call last):\nFile "/opt/hermes/run_agent.py", line 812, in run_conversation\n'
        "RuntimeError: provider returned 401",
        "Hermes exited with code 1",
    )


def test_a_run_cut_off_is_incomplete() -> None:
    summary = summarize_run(PIPED_RUN[:7])
    assert not summary.complete and summary.outcome == "cut_off"
    assert summary.final_text == "Let me run the test suite first."


def test_max_turns_and_timeouts() -> None:
    summary = summarize_run(
        ["paperclip_stop_reason: max_turns_exhausted", "[hermes] Exit code: null, timed out: true"]
    )
    assert summary.outcome == "max_turns" and summary.details["maxTurns"] is True
    assert summary.details["stopReason"] == "max_turns_exhausted"
    assert summary.is_error and "Hermes timed out" in summary.errors


def test_usage_and_cost_are_read_from_the_cli_lines_when_printed() -> None:
    summary = summarize_run(["[hermes] tokens: 1200 input, 340 output; cost: $0.0123", "Done."])
    assert summary.usage == Usage(input_tokens=1200, output_tokens=340)
    assert summary.cost_usd == pytest.approx(0.0123)
    # The answer's own words are never read as usage.
    assert summarize_run(["It cost: $5 and used tokens: 3 input 4 output"]).cost_usd is None


@pytest.mark.parametrize(
    ("text", "unknown"),
    [
        ("Session not found: 20260101_000000_deadbe", True),
        ("Error: unknown session 42", True),
        ("No session found with title 'nightly'", True),
        ("Session 20260326_005750_16250b found but has no messages. Starting fresh.", False),
        ("file not found", False),
    ],
)
def test_unknown_session_phrasings(text: str, unknown: bool) -> None:
    assert is_unknown_session_error(text) is unknown
