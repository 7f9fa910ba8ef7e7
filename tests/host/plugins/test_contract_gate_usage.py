"""Contract 1.3 (the usage vocabulary, outcome words) through the gate, in both directions.

A plugin that needs 1.3 (it fills ``RunSummary.token_usage``) is refused by a
1.2 host with a hint to upgrade linewise, before any import; a 1.2 plugin
keeps loading on the 1.3 host, and its summary (no ``token_usage``) reads as
unknown usage, not as zero.
"""

from __future__ import annotations

import sys

import pytest
from linewise import Registry
from linewise_contracts import CONTRACT_VERSION, RunSummary, TokenUsage
from support import FakeSite

USAGE_PLUGIN = """
from linewise_contracts.summary import RunSummary
from linewise_contracts.usage import TokenUsage

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def summarize_run(lines):
    return RunSummary(token_usage=TokenUsage(uncached_input=3, cache_read=5, output=7))
"""


def _install(site: FakeSite) -> None:
    site.add(
        "needs-thirteen",
        entry_points={"needs_thirteen": "needs_thirteen_mod"},
        requires=["linewise-contracts>=1.3,<2"],
        modules={"needs_thirteen_mod": USAGE_PLUGIN},
    )
    site.add(
        "plain-twelve",
        entry_points={"plain_twelve": "plain_twelve_mod"},
        requires=["linewise-contracts>=1.2,<2"],
        modules={
            "plain_twelve_mod": "from linewise_contracts.summary import RunSummary, Usage\n"
            "def parse_stdout_line(line, ts):\n"
            "    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
            "def summarize_run(lines):\n"
            "    return RunSummary(usage=Usage(input_tokens=4), cost_usd=0.5)\n"
        },
    )


def test_the_host_is_at_contract_1_3_or_a_later_1_x() -> None:
    major, minor = (int(part) for part in CONTRACT_VERSION.split(".")[:2])
    assert (major, minor >= 3) == (1, True)


def test_a_1_3_plugin_on_a_1_2_host_is_refused_before_import(fake_site: FakeSite) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.2.0")
    assert registry.load("needs_thirteen").is_fallback
    assert "needs_thirteen_mod" not in sys.modules
    failure = registry.failed_loads["needs_thirteen"]
    assert failure.stage == "contract"
    assert "upgrade linewise" in failure.hint


@pytest.mark.parametrize("host", ["1.2.0", CONTRACT_VERSION])
def test_a_1_2_plugin_loads_on_the_1_2_and_the_1_3_host(fake_site: FakeSite, host: str) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    assert not registry.load("plain_twelve").is_fallback


def test_a_1_2_plugins_summary_has_unknown_token_usage_on_the_1_3_host(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    plugin = registry.load("plain_twelve")
    assert plugin.summarize_run is not None
    summary = plugin.summarize_run(["x"])
    assert isinstance(summary, RunSummary)
    assert summary.token_usage.is_empty
    document = summary.to_json()
    assert document["usage"]["inputTokens"] == 4
    assert document["tokenUsage"] == {
        "uncachedInput": None,
        "cacheRead": None,
        "cacheWrite": None,
        "output": None,
        "reasoning": None,
    }
    assert document["costSource"] is None


def test_a_1_3_plugin_loads_on_the_1_3_host_and_its_token_usage_arrives(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    plugin = registry.load("needs_thirteen")
    assert not plugin.is_fallback
    assert plugin.summarize_run is not None
    summary = plugin.summarize_run(["x"])
    assert summary.token_usage == TokenUsage(uncached_input=3, cache_read=5, output=7)
