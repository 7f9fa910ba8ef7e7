"""The usage vocabulary: five token counts, each unknown (None) until a CLI reports it."""

from __future__ import annotations

import json

import pytest
from linewise_contracts import RunSummary, TokenUsage, Usage
from linewise_contracts.usage import TOKEN_FIELDS, token_count, without


def test_a_fresh_usage_knows_nothing_and_says_so() -> None:
    usage = TokenUsage()
    assert usage.is_empty
    assert not usage.known
    assert usage.total_input is None
    assert usage.total is None
    assert usage.to_json() == dict.fromkeys(
        ["uncachedInput", "cacheRead", "cacheWrite", "output", "reasoning"]
    )


def test_adding_keeps_unknown_where_neither_side_reported() -> None:
    first = TokenUsage(uncached_input=10, output=4)
    second = TokenUsage(uncached_input=1, cache_read=100)
    total = first + second
    assert total == TokenUsage(uncached_input=11, cache_read=100, output=4)
    assert total.cache_write is None
    assert total.reasoning is None
    assert TokenUsage() + TokenUsage() == TokenUsage()


def test_a_reported_zero_is_a_count_not_unknown() -> None:
    usage = TokenUsage(cache_write=0)
    assert usage.known
    assert usage.to_json()["cacheWrite"] == 0
    assert (usage + TokenUsage()).cache_write == 0


def test_totals_add_every_input_kind_and_output_once() -> None:
    usage = TokenUsage(uncached_input=3, cache_read=20, cache_write=5, output=7, reasoning=2)
    assert usage.total_input == 28
    # reasoning is part of output, so it is not counted twice
    assert usage.total == 35


def test_json_round_trips_and_reads_damaged_counts_as_unknown() -> None:
    usage = TokenUsage(uncached_input=3, cache_read=0, output=9)
    assert TokenUsage.from_json(json.loads(json.dumps(usage.to_json()))) == usage
    assert TokenUsage.from_json({"uncachedInput": -1, "output": "9", "cacheRead": True}) == (
        TokenUsage()
    )
    assert TokenUsage.from_json(None) == TokenUsage()


@pytest.mark.parametrize("name", [name for name, _ in TOKEN_FIELDS])
def test_a_count_must_be_a_non_negative_int(name: str) -> None:
    with pytest.raises(ValueError, match=name):
        TokenUsage(**{name: -1})
    with pytest.raises(TypeError, match=name):
        TokenUsage(**{name: 1.5})  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=name):
        TokenUsage(**{name: True})


def test_a_run_summary_carries_the_vocabulary_beside_the_wire_usage() -> None:
    summary = RunSummary(
        usage=Usage(input_tokens=30, cached_tokens=20),
        token_usage=TokenUsage(uncached_input=10, cache_read=20),
        model_usage={"claude-haiku": TokenUsage(output=5)},
        cost_usd=0.25,
        cost_source="reported",
    )
    document = summary.to_json()
    assert document["usage"] == {"inputTokens": 30, "outputTokens": 0, "cachedTokens": 20}
    assert document["tokenUsage"]["uncachedInput"] == 10
    assert document["tokenUsage"]["output"] is None
    assert document["modelUsage"]["claude-haiku"]["output"] == 5
    assert document["costSource"] == "reported"


def test_a_run_summary_without_usage_reports_it_unknown() -> None:
    document = RunSummary().to_json()
    assert set(document["tokenUsage"].values()) == {None}
    assert document["modelUsage"] == {}
    assert document["costSource"] is None


@pytest.mark.parametrize(
    ("value", "count"),
    [
        (12, 12),
        (0, 0),
        (12.0, 12),
        (None, None),
        ("12", None),
        (-1, None),
        (1.5, None),
        (True, None),
    ],
)
def test_a_token_count_is_what_the_cli_reported_or_unknown(
    value: object, count: int | None
) -> None:
    assert token_count(value) == count


def test_without_takes_away_the_reported_parts_and_keeps_unknown_unknown() -> None:
    # Codex rollout 01997e76: input_tokens 7,494,343 of which 7,290,112 were cache reads.
    assert without(7_494_343, 7_290_112) == 204_231
    assert without(100, None, 30) == 70
    assert without(None, 30) is None
    assert without(10, 30) == 0
