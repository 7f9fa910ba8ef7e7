"""Contract 1.6's ``Format(models=...)`` through the gate, both ways.

A plugin whose format states its own models declares 1.6: a 1.5 host (whose
``Format`` has no such field) refuses it before importing it, with the hint to
upgrade linewise; the 1.6 host loads it and lists the format's models, not the
agent's; a 1.5 plugin keeps loading on both hosts with its agent's models.
"""

from __future__ import annotations

import sys

import pytest
from linewise import Registry
from linewise_contracts import CONTRACT_VERSION
from support import FakeSite

SIXTEEN_PLUGIN = """
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

agent = Agent(
    "mcli",
    label="Models CLI",
    models=[{"id": "local-1", "label": "Local 1"}],
    formats=[
        Format("mcli_local", parse_stdout_line=parse_stdout_line),
        Format("mcli_cloud", parse_stdout_line=parse_stdout_line,
               models=[{"id": "cloud-1", "label": "Cloud 1"}]),
        Format("mcli_remote", parse_stdout_line=parse_stdout_line, models=()),
    ],
)
"""

FIFTEEN_PLUGIN = """
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

agent = Agent(
    "fcli",
    label="Fifteen CLI",
    models=[{"id": "f-1", "label": "F 1"}],
    formats=[Format("fcli_local", parse_stdout_line=parse_stdout_line)],
)
"""


def _install(site: FakeSite) -> None:
    site.add(
        "models-cli",
        entry_points={
            name: f"models_mod:agent.{name}" for name in ("mcli_local", "mcli_cloud", "mcli_remote")
        },
        requires=["linewise-contracts>=1.6,<2"],
        modules={"models_mod": SIXTEEN_PLUGIN},
    )
    site.add(
        "fifteen-cli",
        entry_points={"fcli_local": "fifteen_mod:agent.fcli_local"},
        requires=["linewise-contracts>=1.5,<2"],
        modules={"fifteen_mod": FIFTEEN_PLUGIN},
    )


def test_a_1_6_plugin_on_a_1_5_host_is_refused_before_import_with_the_upgrade_hint(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.5.0")
    assert registry.load("mcli_cloud").is_fallback
    assert "models_mod" not in sys.modules
    failure = registry.failed_loads["mcli_cloud"]
    assert failure.stage == "contract"
    assert "newer than this host's contract 1.5.0: upgrade linewise" in failure.hint


def test_on_the_1_6_host_a_format_lists_its_own_models_and_the_others_the_agents(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=CONTRACT_VERSION)
    models = {
        name: [dict(model) for model in registry.load(name).models]
        for name in ("mcli_local", "mcli_cloud", "mcli_remote")
    }
    assert models == {
        "mcli_local": [{"id": "local-1", "label": "Local 1"}],
        "mcli_cloud": [{"id": "cloud-1", "label": "Cloud 1"}],
        "mcli_remote": [],
    }


@pytest.mark.parametrize("host", ["1.5.0", CONTRACT_VERSION])
def test_a_1_5_plugin_loads_on_the_1_5_and_the_1_6_host_with_its_agents_models(
    fake_site: FakeSite, host: str
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    loaded = registry.load("fcli_local")
    assert not loaded.is_fallback and loaded.agent == "fcli"
    assert [dict(model) for model in loaded.models] == [{"id": "f-1", "label": "F 1"}]
