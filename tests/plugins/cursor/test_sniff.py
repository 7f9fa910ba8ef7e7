"""Sniffing: Cursor logs are recognised, every other CLI's real log is not."""

from __future__ import annotations

from pathlib import Path

import pytest
from linewise_cursor import sniff
from linewise_cursor.cloud import sniff as sniff_cloud
from support import corpus_path

# As many first non-blank lines as the host hands a sniffer.
FIRST = 40


def _first_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line for line in lines if line.strip()][:FIRST]


def _real_logs() -> list[Path]:
    root = corpus_path("real-logs")
    return sorted(path for path in root.glob("*/*") if path.suffix in (".jsonl", ".txt"))


def test_every_real_cursor_log_scores_high_and_every_other_log_low() -> None:
    scores = {}
    for path in _real_logs():
        lines = _first_lines(path)
        scores[f"{path.parent.name}/{path.name}"] = (sniff(lines), sniff_cloud(lines))
    cursor = {name: score for name, score in scores.items() if name.startswith("cursor/")}
    others = {name: score for name, score in scores.items() if not name.startswith("cursor/")}
    assert len(cursor) == 6 and len(others) >= 40
    assert all(local >= 0.8 and cloud < 0.5 for local, cloud in cursor.values()), cursor
    assert all(local < 0.5 and cloud < 0.5 for local, cloud in others.values()), {
        name: score for name, score in others.items() if max(score) >= 0.5
    }


def test_cloud_logs_are_cursor_cloud_not_cursor() -> None:
    lines = corpus_path("paperclip", "cursor-cloud", "ui-lines.txt").read_text().splitlines()
    assert sniff_cloud(lines) >= 0.8 and sniff(lines) == 0


def test_paperclip_multiplexed_logs_are_cursor() -> None:
    path = corpus_path("paperclip", "cursor-local", "server-stdout-02.txt")
    assert sniff(path.read_text().splitlines()) >= 0.8


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ["plain text", "more text"],
        # A type that is not a string (found by `linewise check cursor`'s fuzzing).
        ['{"type":[]}'],
        ['{"type":{"a":1},"session_id":"s"}'],
        # Generic events alone could be Claude's as well: not confident.
        ['{"type":"user","message":{"content":[{"type":"text","text":"hi"}]}}'],
        # Claude's init lists its tools.
        [
            '{"type":"system","subtype":"init","apiKeySource":"none","permissionMode":"default","tools":["Bash"]}'
        ],
    ],
)
def test_unsure_or_foreign_input_scores_low(lines: list[str]) -> None:
    assert sniff(lines) < 0.5 and sniff_cloud(lines) < 0.5
