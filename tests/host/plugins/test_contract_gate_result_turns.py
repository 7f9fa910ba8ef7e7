"""Contract 1.9's result fields (turns, modelUsage) through the gate, in both directions.

A plugin whose results carry ``turns`` or ``modelUsage`` declares 1.9: a 1.8
host (whose validator would refuse the fields, losing the result entry) does
not load it, and says to upgrade linewise, before importing it. On the 1.9
host its results' turns and usage per model reach the run summary through
the one fold, with no ``summarize_run``. A 1.8 plugin loads on both hosts,
and its runs' turns stay unknown (None), never 0.
"""

from __future__ import annotations

import io
import json
import sys

import pytest
from linewise import Registry
from linewise.transcript.run_report import summarize_stream
from linewise_contracts import CONTRACT_VERSION
from linewise_contracts.usage import TokenUsage
from support import FakeSite

TURNS_PLUGIN = """
import json
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    event = json.loads(line)
    if event.get("done"):
        return [{
            "kind": "result", "ts": ts, "text": "ok", "inputTokens": 7, "outputTokens": 2,
            "cachedTokens": 0, "costUsd": 0, "subtype": "success", "isError": False,
            "errors": [], "usage": {"uncachedInput": 7, "output": 2}, "costSource": None,
            "outcome": "completed", "turns": event["turns"],
            "modelUsage": {"m-1": {"uncachedInput": 7, "output": 2}},
        }]
    return [{"kind": "assistant", "ts": ts, "text": event["say"]}]

agent = Agent("turns", label="Turns CLI", formats=[Format("turns_local", parse_stdout_line=parse_stdout_line)])
"""

OLD_PLUGIN = """
import json
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    event = json.loads(line)
    if event.get("done"):
        return [{
            "kind": "result", "ts": ts, "text": "ok", "inputTokens": 7, "outputTokens": 2,
            "cachedTokens": 0, "costUsd": 0, "subtype": "success", "isError": False,
            "errors": [], "outcome": "completed",
        }]
    return [{"kind": "assistant", "ts": ts, "text": event["say"]}]

agent = Agent("older", label="Older CLI", formats=[Format("older_local", parse_stdout_line=parse_stdout_line)])
"""

LOG = b"".join(
    json.dumps(event).encode() + b"\n"
    for event in (
        {"say": "hi"},
        {"done": True, "turns": 3},
        {"say": "again"},
        {"done": True, "turns": 2},
    )
)


def _install(site: FakeSite) -> None:
    site.add(
        "needs-nineteen",
        entry_points={"turns_local": "turns_mod:agent.turns_local"},
        requires=["linewise-contracts>=1.9,<2"],
        modules={"turns_mod": TURNS_PLUGIN},
    )
    site.add(
        "plain-eighteen",
        entry_points={"older_local": "older_mod:agent.older_local"},
        requires=["linewise-contracts>=1.8,<2"],
        modules={"older_mod": OLD_PLUGIN},
    )


def test_the_host_is_at_contract_1_9_or_a_later_1_x() -> None:
    major, minor = (int(part) for part in CONTRACT_VERSION.split(".")[:2])
    assert (major, minor >= 9) == (1, True)


def test_a_1_9_plugin_on_a_1_8_host_is_refused_before_import(fake_site: FakeSite) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.8.0")
    assert registry.load("turns_local").is_fallback
    assert "turns_mod" not in sys.modules
    failure = registry.failed_loads["turns_local"]
    assert failure.stage == "contract"
    assert "upgrade linewise" in failure.hint


@pytest.mark.parametrize("host", ["1.8.0", CONTRACT_VERSION])
def test_a_1_8_plugin_loads_on_the_1_8_and_the_1_9_host(fake_site: FakeSite, host: str) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    assert not registry.load("older_local").is_fallback


def test_a_1_9_plugin_s_turns_and_model_usage_reach_the_summary_through_the_fold(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    report = summarize_stream(io.BytesIO(LOG), "run.jsonl", "turns_local", registry=registry)
    assert report.diagnostics.dropped_entries == 0
    assert report.summary_source == "transcript"
    summary = report.summary
    assert summary.turns == 5
    # No sessionId: each result's figures are its own, and they add up.
    assert summary.model_usage == {"m-1": TokenUsage(uncached_input=14, output=4)}
    assert summary.token_usage == TokenUsage(uncached_input=14, output=4)
    assert (summary.outcome, summary.complete) == ("completed", True)


def test_a_1_8_plugin_s_runs_have_unknown_turns_not_zero(fake_site: FakeSite) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    report = summarize_stream(io.BytesIO(LOG), "run.jsonl", "older_local", registry=registry)
    assert report.summary.turns is None
    assert report.summary.model_usage == {}
    assert report.summary.to_json()["turns"] is None
