"""Sniffing: ACP JSON-RPC traffic is recognised, every real log of another CLI is not."""

from __future__ import annotations

from pathlib import Path

import linewise_acp
import pytest
from linewise_acp import sniff
from support import corpus_path

SAMPLES = Path(linewise_acp.__file__).parent / "samples"
FIRST = 40  # as many first non-blank lines as the host hands a sniffer


def _first_lines(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    return [line for line in lines if line.strip()][:FIRST]


def test_the_sample_run_scores_high() -> None:
    assert sniff(_first_lines(SAMPLES / "acp-tool-run.jsonl")) == 0.95


def test_every_real_acp_capture_scores_high_and_every_other_log_low() -> None:
    paths = sorted(
        path
        for path in corpus_path("real-logs").glob("*/*")
        if path.suffix in (".jsonl", ".txt", ".md")
    )
    assert len(paths) >= 45
    scores = {f"{p.parent.name}/{p.name}": sniff(_first_lines(p)) for p in paths}
    acp = {name: score for name, score in scores.items() if name.endswith(".jsonl")}
    acp = {name: score for name, score in acp.items() if name.startswith("acp/")}
    assert len(acp) == 2 and all(score >= 0.9 for score in acp.values()), acp
    others = {n: s for n, s in scores.items() if n not in acp and s > 0}
    assert others == {}


@pytest.mark.parametrize(
    "lines",
    [
        [],
        ["plain text"],
        ['{"jsonrpc":"2.0","id":1,"result":{}}'],  # any JSON-RPC peer
        ['{"jsonrpc":"2.0","method":"tools/call","params":{}}'],  # MCP, not ACP
        ['{"type":"thread.started","thread_id":"t"}'],
        ['{"id":"1","msg":{"type":"task_started"}}'],  # Codex proto
        [
            '{"jsonrpc":"2.0","id":2,"result":{"stopReason":"end_turn"}}',
            '{"type":"system","subtype":"init"}',
            '{"type":"assistant"}',
        ],
    ],
)
def test_unsure_or_foreign_input_scores_low(lines: list[str]) -> None:
    assert sniff(lines) < 0.5


def test_a_little_other_output_lowers_the_score_without_hiding_acp() -> None:
    update = '{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"hi"}}}}'
    assert sniff([update] * 3 + ["agent starting"]) == 0.712  # 0.95 x 3/4, rounded
