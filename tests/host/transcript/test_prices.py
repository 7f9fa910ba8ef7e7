"""Estimated costs: list prices per model and token kind, unknown models, reported costs kept."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
from linewise.render.outcome import summary_cost
from linewise.transcript import prices as _prices
from linewise.transcript.prices import cost_source, estimate_cost, price_data, priced, rates_for
from linewise_contracts.summary import RunSummary
from linewise_contracts.usage import TokenUsage

pytest.importorskip("genai_prices", reason="the price table (linewise[prices]) is not installed")

# Anthropic's and OpenAI's published list prices, USD per million tokens (uncached input,
# cache read, 5-minute cache write, output), typed in from their pricing pages.
SONNET_4_5 = (3.00, 0.30, 3.75, 15.00)
HAIKU_4_5 = (1.00, 0.10, 1.25, 5.00)
GPT_5 = (1.25, 0.125, None, 10.00)
GEMINI_2_5_PRO = (1.25, 0.125, None, 10.00)  # prompts up to 200k tokens


def by_hand(prices: tuple[float, float, float | None, float], tokens: TokenUsage) -> float:
    uncached, read, write, output = prices
    return (
        (tokens.uncached_input or 0) * uncached
        + (tokens.cache_read or 0) * read
        + (tokens.cache_write or 0) * (uncached if write is None else write)
        + (tokens.output or 0) * output
    ) / 1_000_000


CLAUDE_RUN = TokenUsage(
    uncached_input=1_234, cache_read=2_500_000, cache_write=80_000, output=40_000, reasoning=900
)


def test_each_token_kind_is_priced_at_its_own_list_rate() -> None:
    estimate = estimate_cost({"claude-sonnet-4-5-20250929": CLAUDE_RUN}, "2025-10-01T12:00:00Z")

    assert estimate.cost_usd == pytest.approx(by_hand(SONNET_4_5, CLAUDE_RUN))
    assert estimate.unpriced == ()
    assert estimate.price_data == price_data()
    assert price_data() is not None and price_data().startswith("genai-prices ")  # type: ignore[union-attr]


def test_reasoning_is_part_of_output_and_not_priced_twice() -> None:
    without = TokenUsage(uncached_input=10, cache_read=0, cache_write=0, output=1_000)
    with_reasoning = TokenUsage(
        uncached_input=10, cache_read=0, cache_write=0, output=1_000, reasoning=800
    )

    one = estimate_cost({"claude-haiku-4-5": without}).cost_usd
    other = estimate_cost({"claude-haiku-4-5": with_reasoning}).cost_usd

    assert one == other == pytest.approx(by_hand(HAIKU_4_5, without))


def test_a_provider_without_a_cache_write_rate_prices_unreported_cache_writes_as_nothing() -> None:
    codex = TokenUsage(uncached_input=204_231, cache_read=7_290_112, output=50_000)

    estimate = estimate_cost({"gpt-5-codex": codex}, "2025-09-24T19:22:20Z")

    assert estimate.cost_usd == pytest.approx(by_hand(GPT_5, codex))
    assert rates_for("gpt-5-codex", "2025-09-24") == rates_for("gpt-5", "2025-09-24")


def test_mixed_models_are_each_priced_at_their_own_rates_and_summed() -> None:
    sonnet = TokenUsage(uncached_input=100, cache_read=5_000, cache_write=2_000, output=700)
    haiku = TokenUsage(uncached_input=3_000, cache_read=0, cache_write=0, output=200)

    estimate = estimate_cost({"claude-sonnet-4-5": sonnet, "claude-haiku-4-5-20251001": haiku})

    assert estimate.by_model["claude-sonnet-4-5"] == pytest.approx(by_hand(SONNET_4_5, sonnet))
    assert estimate.by_model["claude-haiku-4-5-20251001"] == pytest.approx(
        by_hand(HAIKU_4_5, haiku)
    )
    assert estimate.cost_usd == pytest.approx(sum(estimate.by_model.values()))


def test_a_model_the_table_does_not_know_stays_unknown_and_is_named() -> None:
    ollama = TokenUsage(uncached_input=500, output=100)
    sonnet = TokenUsage(uncached_input=100, cache_read=0, cache_write=0, output=10)

    estimate = estimate_cost({"qwen3:0.6b": ollama, "claude-sonnet-4-5": sonnet})

    # One model's share is known; the run's total is not (it is not the known part alone).
    assert estimate.cost_usd is None
    assert estimate.unpriced == ("qwen3:0.6b",)
    assert estimate.by_model["claude-sonnet-4-5"] == pytest.approx(by_hand(SONNET_4_5, sonnet))


def test_an_unknown_model_that_used_no_tokens_costs_nothing() -> None:
    zero = TokenUsage(uncached_input=0, cache_read=0, cache_write=0, output=0)
    sonnet = TokenUsage(uncached_input=100, cache_read=0, cache_write=0, output=10)

    estimate = estimate_cost({"<synthetic>": zero, "claude-sonnet-4-5": sonnet})

    assert estimate.unpriced == ()
    assert estimate.cost_usd == pytest.approx(by_hand(SONNET_4_5, sonnet))


def test_tokens_of_unknown_kinds_cannot_be_priced() -> None:
    estimate = estimate_cost({"claude-sonnet-4-5": TokenUsage(cache_read=100)})

    assert estimate.cost_usd is None
    assert estimate.unpriced == ("claude-sonnet-4-5",)


def test_a_reported_cost_is_never_replaced() -> None:
    summary = RunSummary(
        model="claude-sonnet-4-5",
        cost_usd=0.5,
        cost_source="reported",
        token_usage=CLAUDE_RUN,
        model_usage={"claude-sonnet-4-5": CLAUDE_RUN},
    )

    kept, estimate = priced(summary)

    assert kept is summary and estimate is None
    assert summary_cost(kept) == "$0.5000"


def test_a_cost_from_a_plugin_that_does_not_say_its_source_counts_as_reported() -> None:
    summary = RunSummary(model="claude-sonnet-4-5", cost_usd=0.25)

    assert priced(summary)[0] is summary
    assert cost_source(summary) == "reported"
    assert cost_source(RunSummary()) is None


def test_a_run_without_a_cost_is_estimated_and_says_so() -> None:
    summary = RunSummary(model="claude-sonnet-4-5", token_usage=CLAUDE_RUN)

    estimated, estimate = priced(summary, "2025-10-01T00:00:00Z")

    assert estimate is not None
    assert estimated.cost_source == "estimated"
    assert estimated.cost_usd == pytest.approx(by_hand(SONNET_4_5, CLAUDE_RUN))
    text = summary_cost(estimated)
    assert text.startswith("$") and "estimated from list prices" in text
    assert str(price_data()) in text
    assert estimated.to_json()["costSource"] == "estimated"


def test_per_model_usage_wins_over_the_run_total_at_its_main_model() -> None:
    sonnet = TokenUsage(uncached_input=100, cache_read=0, cache_write=0, output=10)
    haiku = TokenUsage(uncached_input=900, cache_read=0, cache_write=0, output=90)
    summary = RunSummary(
        model="claude-sonnet-4-5",
        token_usage=sonnet + haiku,
        model_usage={"claude-sonnet-4-5": sonnet, "claude-haiku-4-5": haiku},
    )

    estimated, _ = priced(summary)

    assert estimated.cost_usd == pytest.approx(
        by_hand(SONNET_4_5, sonnet) + by_hand(HAIKU_4_5, haiku)
    )


def test_unknown_models_are_named_in_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    summary = RunSummary(
        model="my-local-model-7b", token_usage=TokenUsage(uncached_input=5, output=5)
    )

    with caplog.at_level(logging.WARNING, logger="linewise"):
        estimated, estimate = priced(summary)

    assert estimated.cost_usd is None and estimated.cost_source is None
    assert estimate is not None and estimate.unpriced == ("my-local-model-7b",)
    assert "my-local-model-7b" in caplog.text and "not in the price table" in caplog.text


def test_gemini_is_priced_at_its_base_rate(caplog: pytest.LogCaptureFixture) -> None:
    gemini = TokenUsage(uncached_input=12_000, cache_read=3_000, output=2_000, reasoning=1_500)

    estimate = estimate_cost({"gemini-2.5-pro": gemini}, "2025-10-29T10:36:00Z")

    assert estimate.cost_usd == pytest.approx(by_hand(GEMINI_2_5_PRO, gemini))


def test_without_the_price_table_every_cost_stays_unknown_with_a_hint(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(_prices, "price_data", lambda: None)
    monkeypatch.setattr(_prices, "_warned", set())
    rates_for.cache_clear()
    try:
        summary = RunSummary(model="claude-sonnet-4-5", token_usage=CLAUDE_RUN)
        with caplog.at_level(logging.WARNING, logger="linewise"):
            estimated, _ = priced(summary)
    finally:
        rates_for.cache_clear()

    assert estimated.cost_usd is None
    assert "linewise[prices]" in caplog.text


def _lookup_in_a_fresh_process(cache: Path) -> tuple[str, bool]:
    code = (
        "import sys; from linewise.transcript.prices import rates_for; "
        "rates = rates_for('claude-sonnet-4-5', '2025-10-01'); "
        "print(rates.output, 'genai_prices' in sys.modules)"
    )
    env = {**os.environ, "LINEWISE_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    output, imported = done.stdout.split()
    return output, imported == "True"


def test_rates_looked_up_once_are_kept_so_later_runs_need_not_import_the_table(
    tmp_path: Path,
) -> None:
    first = _lookup_in_a_fresh_process(tmp_path)
    second = _lookup_in_a_fresh_process(tmp_path)

    assert first == ("15.0", True)
    assert second == ("15.0", False)
    kept = json.loads((tmp_path / "prices.json").read_text())
    assert kept["table"] == price_data()


def test_a_damaged_rates_file_is_looked_up_again(tmp_path: Path) -> None:
    (tmp_path / "prices.json").write_text("{not json")

    assert _lookup_in_a_fresh_process(tmp_path) == ("15.0", True)
    assert _lookup_in_a_fresh_process(tmp_path) == ("15.0", False)


def test_rendering_a_run_with_a_reported_cost_never_imports_the_price_table() -> None:
    sample = Path(__file__).resolve().parents[3] / "examples" / "claude-sample.jsonl"
    probe = (
        "import sys\nfrom linewise.cli import main\n"
        f"try:\n    main(['render', {str(sample)!r}, '-q'])\nexcept SystemExit:\n    pass\n"
        "print('genai_prices' in sys.modules, 'pydantic' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )

    assert "cost $" in done.stdout
    assert done.stderr.split()[-2:] == ["False", "False"]


def test_tokens_of_a_model_the_cli_did_not_name_stay_unpriced_and_say_why(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_prices, "_warned", set())
    summary = RunSummary(token_usage=TokenUsage(uncached_input=2_552, cache_read=0, output=15))

    with caplog.at_level(logging.WARNING, logger="linewise"):
        estimated, estimate = priced(summary)

    assert estimated.cost_usd is None
    assert estimate is not None and estimate.unpriced == (_prices.NO_MODEL,)
    assert "did not name the model" in caplog.text and "not in the price table" not in caplog.text
