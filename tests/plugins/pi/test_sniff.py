"""Sniffing: Pi's event stream is recognised, every real log of another CLI is not."""

from __future__ import annotations

from pathlib import Path

import linewise_pi
import pytest
from linewise_pi import sniff
from support import corpus_path

FIXTURES = Path(linewise_pi.__file__).parent / "samples"
# As many first non-blank lines as the host hands a sniffer.
FIRST = 40


def _first_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line for line in lines if line.strip()][:FIRST]


@pytest.mark.parametrize("name", ["pi-json-run.jsonl", "pi-json-retry-compaction.jsonl"])
def test_pi_runs_score_high(name: str) -> None:
    assert sniff(_first_lines(FIXTURES / name)) >= 0.95
    # Paperclip writes its own notes into the run log.
    assert sniff(["[paperclip] Pi session resumed", *_first_lines(FIXTURES / name)]) >= 0.8


def test_the_reference_fixtures_with_pi_events_score_high() -> None:
    for number in range(1, 5):
        path = corpus_path("paperclip", "pi-local", f"server-stdout-{number:02}.jsonl")
        assert sniff(path.read_text().splitlines()) >= 0.8, path.name


def test_an_rpc_session_scores_high() -> None:
    lines = [
        '{"id":"req-1","type":"response","command":"prompt","success":true}',
        '{"type":"agent_start"}',
        '{"type":"turn_start"}',
    ]
    assert sniff(lines) >= 0.8


def test_every_real_log_of_another_cli_scores_low() -> None:
    paths = sorted(
        path for path in corpus_path("real-logs").glob("*/*") if path.suffix in (".jsonl", ".txt")
    )
    assert len(paths) >= 45
    high = {
        path.name: sniff(_first_lines(path)) for path in paths if sniff(_first_lines(path)) >= 0.5
    }
    assert high == {}


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ["plain text"],
        ['{"type":"error","message":"boom"}'],  # Codex and Cursor write this too
        ['{"type":"agent_start"}', '{"type":"thread.started","thread_id":"t"}'],
        ['{"type":"agent_start"}', '{"type":"mystery"}', '{"type":"other"}'],
    ],
)
def test_unsure_or_foreign_input_scores_low(lines: list[str]) -> None:
    assert sniff(lines) < 0.5
