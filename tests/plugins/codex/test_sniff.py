"""Codex sniffing: sure about every real Codex log it can see, silent on every other CLI's."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from linewise_codex import sniff
from support import corpus_path

SNIFF_LINES = 40


def _first_lines(path: Path) -> list[str]:
    """The first non-blank lines, as the host gives them to a sniffer."""
    text = path.read_text(encoding="utf-8", errors="replace")
    lines = [line.strip().lstrip("\ufeff") for line in text.split("\n") if line.strip()]
    return lines[:SNIFF_LINES]


def _logs(cli: str) -> list[Path]:
    return sorted(path for path in corpus_path("real-logs", cli).iterdir() if path.is_file())


WRAPPED = "hivemind-wrapped-401-turn-failed.log.txt"


def test_every_raw_codex_log_scores_high() -> None:
    scores = {
        path.name: sniff(_first_lines(path)) for path in _logs("codex") if path.name != WRAPPED
    }
    assert len(scores) == 27  # the legacy {"id", "msg"} capture included
    assert all(score >= 0.8 for score in scores.values()), scores


@pytest.mark.parametrize("cli", ["claude", "gemini", "cursor", "opencode", "hermes"])
def test_other_clis_logs_score_zero(cli: str) -> None:
    scores = {path.name: sniff(_first_lines(path)) for path in _logs(cli)}
    assert scores and all(score == 0 for score in scores.values()), scores


def test_the_wrapped_log_is_recognised_only_where_codex_output_begins() -> None:
    """Its first 40 lines are the wrapper's own log (Codex starts at line 250): nothing to go on."""
    path = corpus_path("real-logs", "codex", WRAPPED)
    assert sniff(_first_lines(path)) == 0
    lines = [line.strip() for line in path.read_text(encoding="utf-8").split("\n") if line.strip()]
    start = next(n for n, line in enumerate(lines) if "thread.started" in line)
    assert sniff(lines[start - 10 : start + 30]) == 0.8


def test_scores_reflect_how_much_else_is_mixed_in() -> None:
    start = '{"type":"thread.started","thread_id":"t1"}'
    turn = '{"type":"turn.started"}'
    assert sniff([start, turn]) == 0.95
    assert sniff(["Reading prompt from stdin...", start, turn]) == 0.9
    assert sniff(["banner", "more banner", "and more", start]) == 0.8
    assert sniff(['{"type":"acpx.text_delta","text":"hi"}', start]) == 0.95


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ["just text"],
        ['{"type":"error","message":"boom"}'],  # other CLIs write bare errors too
        ['{"type":"acpx.text_delta","text":"shared by several adapters"}'],
        ['{"type":"thread.started","thread_id":"t"}', '{"type":"system","subtype":"init"}'],
        ['{"type":"item.completed","item":{"type":"text"}}'],
    ],
)
def test_not_codex(lines: list[str]) -> None:
    assert sniff(lines) == 0


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
codex_words = st.sampled_from(
    ["thread.started", "turn.started", "item.completed", "agent_message", "error"]
)
events = st.dictionaries(
    st.sampled_from(["type", "item", "thread_id"]), codex_words | json_values, max_size=3
)


@given(st.lists(st.text(max_size=20) | events.map(json.dumps), max_size=8), st.booleans())
def test_sniffing_never_raises_and_stays_between_zero_and_one(
    lines: list[str], wrapped: bool
) -> None:
    prefix = "[2026-01-01T00:00:00Z] [INFO] " if wrapped else ""
    assert 0 <= sniff([prefix + line for line in lines]) <= 1
