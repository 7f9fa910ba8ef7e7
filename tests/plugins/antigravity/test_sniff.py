"""Sniffing: agy's envelope is recognised, every real log and session of another CLI is not."""

from __future__ import annotations

from pathlib import Path

import linewise_antigravity
import pytest
from linewise_antigravity import sniff
from session_checks import real_corpus_files
from support import corpus_path

RUN = Path(linewise_antigravity.__file__).parent / "samples" / "agy-stream-json-run.jsonl"
FIRST = 40


def _first_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line for line in lines if line.strip()][:FIRST]


def test_the_sample_run_scores_high_with_or_without_a_note_before_it() -> None:
    assert sniff(_first_lines(RUN)) == 0.95
    assert sniff(["[paperclip] starting agy", *_first_lines(RUN)]) == 0.85


def test_every_antigravity_capture_scores_high() -> None:
    for path in sorted(corpus_path("field-samples", "antigravity").glob("*.jsonl")):
        assert sniff(_first_lines(path)) >= 0.85, path.name


def test_every_real_log_and_session_of_another_cli_scores_zero() -> None:
    paths = real_corpus_files()
    assert len(paths) >= 45
    assert {
        path.name: sniff(_first_lines(path)) for path in paths if sniff(_first_lines(path))
    } == {}


def test_other_field_samples_score_zero() -> None:
    folder = corpus_path("field-samples")
    paths = [
        path
        for path in folder.rglob("*.jsonl")
        if path.parent.name != "antigravity" and path.is_file()
    ]
    assert {
        str(path.relative_to(folder)): sniff(_first_lines(path))
        for path in paths
        if sniff(_first_lines(path))
    } == {}


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ["plain text"],
        ['{"event":"init","type":"system","init":{}}'],  # a `type` field: another CLI's event
        ['{"event":"message","message":{}}'],  # not one of agy's three kinds
        ['{"event":"result","result":"done"}'],  # the kind's object missing
        ['{"event":["init"],"init":{}}'],
        ["a", "b", '{"event":"init","init":{}}'],  # text outnumbers the events
    ],
)
def test_what_is_not_agy_scores_zero(lines: list[str]) -> None:
    assert sniff(lines) == 0.0
