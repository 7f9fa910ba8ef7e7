"""Estimated costs of real sessions: recomputed by hand from the raw files and list prices."""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from linewise.sessions.usage._sources import UsageFilter, log_records
from support import corpus_path

pytest.importorskip("genai_prices", reason="the price table (linewise[prices]) is not installed")

# Published list prices, USD per million tokens: uncached input, cache read,
# 5-minute cache write, output (typed in from Anthropic's, OpenAI's and Google's pages).
LIST_PRICES = {
    "claude-sonnet-4-5-20250929": (3.00, 0.30, 3.75, 15.00),
    "claude-sonnet-4-20250514": (3.00, 0.30, 3.75, 15.00),
    "claude-opus-4-20250514": (15.00, 1.50, 18.75, 75.00),
    "gpt-5-codex": (1.25, 0.125, 1.25, 10.00),
    "gemini-2.5-pro": (1.25, 0.125, 1.25, 10.00),
}

Counts = list[int]  # uncached input, cache read, cache write, output


def _price(per_model: dict[str, Counts]) -> float:
    total = 0.0
    for model, (uncached, read, write, output) in per_model.items():
        rates = LIST_PRICES[model]
        total += uncached * rates[0] + read * rates[1] + write * rates[2] + output * rates[3]
    return total / 1_000_000


def claude_by_hand(path: Path) -> dict[str, Counts]:
    """Each API message counted once (its usage is repeated on every record of it), per model."""
    messages: dict[str, tuple[str, Counts]] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        message = record.get("message")
        if record.get("type") != "assistant" or not isinstance(message, dict):
            continue
        usage = message.get("usage") or {}
        messages[message.get("id") or record["uuid"]] = (
            message["model"],
            [
                usage.get("input_tokens", 0),
                usage.get("cache_read_input_tokens", 0),
                usage.get("cache_creation_input_tokens", 0),
                usage.get("output_tokens", 0),
            ],
        )
    per_model: dict[str, Counts] = defaultdict(lambda: [0, 0, 0, 0])
    for model, counts in messages.values():
        per_model[model] = [a + b for a, b in zip(per_model[model], counts, strict=True)]
    return dict(per_model)


def codex_by_hand(path: Path) -> dict[str, Counts]:
    """The last cumulative ``total_token_usage``: input includes the cached part."""
    model, total = "", {}
    for line in path.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        payload = record.get("payload") or {}
        model = payload.get("model") or model
        if payload.get("type") == "token_count" and payload.get("info"):
            total = payload["info"]["total_token_usage"]
    cached = total["cached_input_tokens"]
    return {model: [total["input_tokens"] - cached, cached, 0, total["output_tokens"]]}


def gemini_by_hand(path: Path) -> dict[str, Counts]:
    """Per reply: ``input`` includes ``cached``; ``tool`` prompt tokens are input; thoughts output."""
    per_model: dict[str, Counts] = defaultdict(lambda: [0, 0, 0, 0])
    for message in json.loads(path.read_text(encoding="utf-8"))["messages"]:
        tokens = message.get("tokens")
        if not tokens:
            continue
        counts = [
            tokens["input"] - tokens["cached"] + tokens.get("tool", 0),
            tokens["cached"],
            0,
            tokens["output"] + tokens.get("thoughts", 0),
        ]
        model = message["model"]
        per_model[model] = [a + b for a, b in zip(per_model[model], counts, strict=True)]
    return dict(per_model)


SESSIONS = [
    ("claude", "claude-code-viewer-fe5e1c67-53e7-4862-81ae-d0e013e3270b.jsonl", claude_by_hand),
    ("claude", "agentcmd-full-session-four.jsonl", claude_by_hand),
    ("claude", "cclogviewer-example-1.0.61-f48d4407.jsonl", claude_by_hand),  # two models
    (
        "codex",
        "agentcmd-codex-0.40.0-rollout-2025-09-24T19-22-20-01997e76-d124-7592-9cac-2ec05abbca08.jsonl",
        codex_by_hand,
    ),
    ("gemini", "agentcmd-gemini-session-2025-10-27T19-55-981c87cb.json", gemini_by_hand),
    ("gemini", "agentcmd-gemini-session-2025-10-29T10-36-453aa339.json", gemini_by_hand),
]


@pytest.mark.parametrize(
    ("cli", "name", "by_hand"), SESSIONS, ids=[name for _, name, _ in SESSIONS]
)
def test_a_real_sessions_estimate_is_its_tokens_at_list_prices(
    cli: str, name: str, by_hand: object
) -> None:
    path = corpus_path("real-sessions", cli, name)
    expected = by_hand(path)  # type: ignore[operator]

    records, problems = log_records([str(path)], UsageFilter())

    assert problems == []
    (record,) = records
    assert record.cost_source == "estimated"
    assert record.price_data and record.price_data.startswith("genai-prices ")
    assert record.cost_usd == pytest.approx(_price(expected), rel=1e-9)
    assert set(record.model_usage) == set(expected)
    for model, (uncached, read, write, output) in expected.items():
        tokens = record.model_usage[model]
        assert (tokens.uncached_input, tokens.cache_read, tokens.output) == (
            uncached,
            read,
            output,
        )
        assert tokens.cache_write in (write, None if write == 0 and cli != "claude" else write)
        assert record.model_costs[model] == pytest.approx(_price({model: expected[model]}))


def test_the_two_model_claude_session_prices_each_model_at_its_own_rate() -> None:
    path = corpus_path("real-sessions", "claude", "cclogviewer-example-1.0.61-f48d4407.jsonl")
    expected = claude_by_hand(path)

    (record,), _ = log_records([str(path)], UsageFilter())

    assert set(expected) == {"claude-opus-4-20250514", "claude-sonnet-4-20250514"}
    opus = record.model_costs["claude-opus-4-20250514"]
    sonnet = record.model_costs["claude-sonnet-4-20250514"]
    assert opus == pytest.approx(
        _price({"claude-opus-4-20250514": expected["claude-opus-4-20250514"]})
    )
    assert record.cost_usd == pytest.approx(opus + sonnet)
