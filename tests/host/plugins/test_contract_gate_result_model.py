"""Contract 1.10's result field (model) through the gate, in both directions.

A plugin whose results name ``model`` declares 1.10: a 1.9 host (whose
validator would refuse the field, losing the result entry) does not load it,
and says to upgrade linewise, before importing it. On the 1.10 host the model a
result names is the run's, through the one fold, with no ``summarize_run``. A
1.9 plugin loads on both hosts, and a run whose entries name no model has none
(never "unknown").
"""

from __future__ import annotations

import io
import json
import sys

import pytest
from linewise import Registry
from linewise.transcript.fold import RunFold
from linewise.transcript.run_report import summarize_stream
from linewise_contracts import CONTRACT_VERSION
from linewise_contracts.summary import RunSummary
from support import FakeSite, result_entry

MODEL_PLUGIN = """
import json
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    event = json.loads(line)
    if event.get("done"):
        return [{
            "kind": "result", "ts": ts, "text": "ok", "inputTokens": 7, "outputTokens": 2,
            "cachedTokens": 0, "costUsd": 0, "subtype": "success", "isError": False,
            "errors": [], "costSource": None, "outcome": "completed", "model": event["model"],
        }]
    return [{"kind": "assistant", "ts": ts, "text": event["say"]}]

agent = Agent("named", label="Named CLI", formats=[Format("named_local", parse_stdout_line=parse_stdout_line)])
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
        {"done": True, "model": "model-a"},
        {"say": "again"},
        {"done": True, "model": "model-b"},  # the CLI switched models: the latest is the run's
    )
)


def _install(site: FakeSite) -> None:
    site.add(
        "needs-ten",
        entry_points={"named_local": "named_mod:agent.named_local"},
        requires=["linewise-contracts>=1.10,<2"],
        modules={"named_mod": MODEL_PLUGIN},
    )
    site.add(
        "plain-nineteen",
        entry_points={"older_local": "older_mod:agent.older_local"},
        requires=["linewise-contracts>=1.9,<2"],
        modules={"older_mod": OLD_PLUGIN},
    )


def test_the_host_is_at_contract_1_10_or_a_later_1_x() -> None:
    major, minor = (int(part) for part in CONTRACT_VERSION.split(".")[:2])
    assert (major, minor >= 10) == (1, True)


def test_a_1_10_plugin_on_a_1_9_host_is_refused_before_import(fake_site: FakeSite) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.9.0")
    assert registry.load("named_local").is_fallback
    assert "named_mod" not in sys.modules
    failure = registry.failed_loads["named_local"]
    assert failure.stage == "contract"
    assert "upgrade linewise" in failure.hint


@pytest.mark.parametrize("host", ["1.9.0", CONTRACT_VERSION])
def test_a_1_9_plugin_loads_on_the_1_9_and_the_1_10_host(fake_site: FakeSite, host: str) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    assert not registry.load("older_local").is_fallback


def test_a_1_10_plugin_s_model_reaches_the_summary_through_the_fold(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    report = summarize_stream(io.BytesIO(LOG), "run.jsonl", "named_local", registry=registry)
    assert report.diagnostics.dropped_entries == 0
    assert report.summary_source == "transcript"
    assert report.summary.model == "model-b"
    # A plugin's own summary takes the model the entries name, as it takes their turns.
    fold = RunFold()
    fold.add(result_entry(model="model-b"))
    assert fold.summary(RunSummary(model="model-a")).model == "model-b"


def test_a_1_9_plugin_s_run_with_no_model_named_has_none(fake_site: FakeSite) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    report = summarize_stream(io.BytesIO(LOG), "run.jsonl", "older_local", registry=registry)
    assert report.summary.model is None
    assert report.summary.to_json()["model"] is None
