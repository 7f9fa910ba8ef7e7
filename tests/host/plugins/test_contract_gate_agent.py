"""Contract 1.5's declared plugin object (``Agent`` with its ``Format`` objects) through the gate.

A plugin that declares one needs 1.5: a 1.4 host refuses it with the hint to
upgrade linewise, before importing it; a 1.4 plugin of loose exports keeps
loading on the 1.5 host; on the 1.5 host each entry point names one format of
the object, the host checks it, imports its references, and serves it through
the guard, and ``linewise list`` / ``doctor`` tell the two shapes apart.
"""

from __future__ import annotations

import sys

import pytest
from linewise import Registry
from linewise_contracts import CONTRACT_VERSION
from support import FakeSite

AGENT_PLUGIN = """
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def sniff(lines):
    return 0.9 if lines and lines[0].startswith("dc>") else 0.0

agent = Agent(
    "dcli",
    label="Declared CLI",
    models=[{"id": "dc-1", "label": "DC 1"}],
    agent_configuration_doc="# dcli",
    formats=[
        Format("dcli_local", label="Declared CLI (local)", parse_stdout_line=parse_stdout_line,
               sniff=sniff),
        Format("dcli_session", create_stdout_parser="agent_mod_session:create_stdout_parser"),
        Format("dcli_broken", parse_stdout_line="agent_mod_missing:parse"),
    ],
)
"""

SESSION_MODULE = """
class _Parser:
    def parse_line(self, line, ts):
        return [{"kind": "user", "ts": ts, "text": line}]

    def reset(self):
        pass

def create_stdout_parser():
    return _Parser()
"""

LOOSE_PLUGIN = (
    "def parse_stdout_line(line, ts):\n    return [{'kind': 'assistant', 'ts': ts, 'text': line}]\n"
)


def _install(site: FakeSite) -> None:
    site.add(
        "declared-cli",
        entry_points={
            "dcli_local": "agent_mod:agent.dcli_local",
            "dcli_session": "agent_mod:agent.dcli_session",
            "dcli_broken": "agent_mod:agent.dcli_broken",
            "dcli_whole": "agent_mod:agent",
            "dcli_mismatch": "agent_mod:agent.dcli_local",
        },
        requires=["linewise-contracts>=1.5,<2"],
        modules={"agent_mod": AGENT_PLUGIN, "agent_mod_session": SESSION_MODULE},
    )
    site.add(
        "loose-fourteen",
        entry_points={"loose_fourteen": "loose_fourteen_mod"},
        requires=["linewise-contracts>=1.4,<2"],
        modules={"loose_fourteen_mod": LOOSE_PLUGIN},
    )


def test_a_1_5_agent_plugin_on_a_1_4_host_is_refused_before_import_with_the_upgrade_hint(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.4.0")
    assert registry.load("dcli_local").is_fallback
    assert "agent_mod" not in sys.modules
    failure = registry.failed_loads["dcli_local"]
    assert failure.stage == "contract"
    assert "newer than this host's contract 1.4.0: upgrade linewise" in failure.hint


@pytest.mark.parametrize("host", ["1.4.0", CONTRACT_VERSION])
def test_a_1_4_plugin_of_loose_exports_loads_on_the_1_4_and_the_1_5_host(
    fake_site: FakeSite, host: str
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    loaded = registry.load("loose_fourteen")
    assert not loaded.is_fallback and loaded.agent is None
    assert registry.info("loose_fourteen").shape == "exports"


def test_on_the_1_5_host_each_format_of_the_agent_serves_its_adapter_type(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    local = registry.load("dcli_local")
    assert not local.is_fallback
    assert (local.agent, local.label, local.agent_configuration_doc) == (
        "dcli",
        "Declared CLI (local)",
        "# dcli",
    )
    assert [dict(model) for model in local.models] == [{"id": "dc-1", "label": "DC 1"}]
    assert local.new_parser().parse_line("hi", "t") == [
        {"kind": "assistant", "ts": "t", "text": "hi"}
    ]
    assert local.sniff is not None and local.sniff(["dc> hello"]) == 0.9
    assert "agent_mod_session" not in sys.modules  # a reference is imported when its format loads
    session = registry.load("dcli_session")
    assert session.label == "Declared CLI"  # the agent's, the format has none
    assert session.new_parser().parse_line("x", "t") == [{"kind": "user", "ts": "t", "text": "x"}]
    info = registry.info("dcli_local")
    assert info.shape == "agent"


def test_a_format_reference_that_cannot_be_imported_fails_its_load_with_the_reference_named(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    assert registry.load("dcli_broken").is_fallback
    failure = registry.failed_loads["dcli_broken"]
    assert failure.stage == "import"
    assert "parse_stdout_line reference 'agent_mod_missing:parse' cannot be imported" in (
        failure.reason
    )
    assert not registry.load("dcli_local").is_fallback  # its sibling formats are not affected


@pytest.mark.parametrize(
    ("adapter_type", "reason", "hint"),
    [
        ("dcli_whole", "names Agent('dcli'), not one of its formats", "dcli_whole ="),
        ("dcli_mismatch", "'dcli_mismatch' names Format('dcli_local')", "dcli_mismatch ="),
    ],
)
def test_an_entry_point_must_name_the_format_of_its_own_adapter_type(
    fake_site: FakeSite, adapter_type: str, reason: str, hint: str
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    assert registry.load(adapter_type).is_fallback
    failure = registry.failed_loads[adapter_type]
    assert failure.stage == "exports"
    assert reason in failure.reason
    assert hint in failure.hint and "<module>:<agent>." in failure.hint


def test_listing_with_load_marks_the_1_x_plugins_as_deprecated_and_not_the_agent(
    fake_site: FakeSite, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import linewise.plugins.registry as registry_module
    from linewise.cli import main

    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points())
    monkeypatch.setattr(registry_module, "_default", registry)
    assert main(["list", "--load", "--color", "never"]) == 0
    out = capsys.readouterr().out
    rows = out.splitlines()
    loose = rows.index(next(row for row in rows if row.startswith("loose_fourteen")))
    assert rows[loose + 1].strip().startswith("deprecated: contract 1.x loose exports")
    local = rows.index(next(row for row in rows if row.startswith("dcli_local")))
    assert "deprecated" not in rows[local + 1]
