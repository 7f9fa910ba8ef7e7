"""Contract 1.7's ``Format(format_entries=...)`` through the gate, both ways, and isolated.

A plugin whose format gives ``format_entries`` declares 1.7: a 1.6 host (whose
``Format`` has no such field) refuses it before importing it, with the hint to
upgrade linewise; the 1.7 host hands the field out behind the guard, in-process
and from an isolated worker. A 1.6 plugin keeps loading on both hosts, its
``format_stdout_line`` the compact style's.
"""

from __future__ import annotations

import sys

import pytest
from linewise import Registry
from linewise.plugins.guard import GuardedEntryFormatter
from linewise_contracts import CONTRACT_VERSION
from support import TS, FakeSite

SEVENTEEN_PLUGIN = """
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def format_entries(entries):
    if entries[0]["text"] == "boom":
        raise RuntimeError("boom")
    return [("assistant", "> " + entry["text"]) for entry in entries]

agent = Agent(
    "ecli",
    label="Entries CLI",
    formats=[Format("ecli_local", parse_stdout_line=parse_stdout_line,
                    format_entries=format_entries)],
)
"""

SIXTEEN_PLUGIN = """
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def format_stdout_line(line):
    return [("assistant", "line " + line)]

agent = Agent(
    "scli",
    label="Sixteen CLI",
    formats=[Format("scli_local", parse_stdout_line=parse_stdout_line,
                    format_stdout_line=format_stdout_line)],
)
"""

HELLO = [{"kind": "assistant", "ts": TS, "text": "hello"}]


def _install(site: FakeSite) -> None:
    site.add(
        "entries-cli",
        entry_points={"ecli_local": "entries_mod:agent.ecli_local"},
        requires=["linewise-contracts>=1.7,<2"],
        modules={"entries_mod": SEVENTEEN_PLUGIN},
    )
    site.add(
        "sixteen-cli",
        entry_points={"scli_local": "sixteen_mod:agent.scli_local"},
        requires=["linewise-contracts>=1.6,<2"],
        modules={"sixteen_mod": SIXTEEN_PLUGIN},
    )


def test_a_1_7_plugin_on_a_1_6_host_is_refused_before_import_with_the_upgrade_hint(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract="1.6.0")
    assert registry.load("ecli_local").is_fallback
    assert "entries_mod" not in sys.modules
    failure = registry.failed_loads["ecli_local"]
    assert failure.stage == "contract"
    assert "newer than this host's contract 1.6.0: upgrade linewise" in failure.hint


def test_on_the_1_7_host_format_entries_is_handed_out_behind_the_guard(
    fake_site: FakeSite,
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=CONTRACT_VERSION)
    loaded = registry.load("ecli_local")
    assert not loaded.is_fallback
    assert isinstance(loaded.format_entries, GuardedEntryFormatter)
    assert loaded.target is not None and loaded.target.format_entries is loaded.format_entries
    assert loaded.format_entries(HELLO) == [("assistant", "> hello")]
    assert loaded.format_entries([{**HELLO[0], "text": "boom"}]) is None
    [failure] = registry.call_failures.of("ecli_local")
    assert (failure.call, failure.reason) == ("format_entries", "raised RuntimeError: boom")


@pytest.mark.parametrize("host", ["1.6.0", CONTRACT_VERSION])
def test_a_1_6_plugin_loads_on_the_1_6_and_the_1_7_host_with_its_line_formatter(
    fake_site: FakeSite, host: str
) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), host_contract=host)
    loaded = registry.load("scli_local")
    assert not loaded.is_fallback and loaded.agent == "scli"
    assert loaded.format_entries is None
    assert loaded.format_stdout_line is not None
    assert loaded.format_stdout_line("hi") == [("assistant", "line hi")]


@pytest.mark.skipif(sys.platform == "win32", reason="isolation mode is POSIX only")
def test_an_isolated_plugins_format_entries_runs_in_its_worker(fake_site: FakeSite) -> None:
    _install(fake_site)
    registry = Registry(entry_points=fake_site.entry_points(), isolate="entries-cli")
    loaded = registry.load("ecli_local")
    assert loaded.isolated and "entries_mod" not in sys.modules
    assert loaded.format_entries is not None
    assert loaded.format_entries(HELLO) == [("assistant", "> hello")]
    assert loaded.format_entries([{**HELLO[0], "text": "boom"}]) is None
    [failure] = registry.call_failures.of("ecli_local")
    assert failure.call == "format_entries (isolated)"
    assert "RuntimeError: boom" in failure.reason
    # A 1.x module's loose attribute of that name is no call its worker serves.
    fake_site.add(
        "loose-cli",
        entry_points={"loose": "loose_mod"},
        requires=["linewise-contracts>=1.1,<2"],
        modules={"loose_mod": LOOSE_PLUGIN},
    )
    loose = Registry(entry_points=fake_site.entry_points(), isolate="all").load("loose")
    assert loose.isolated and not loose.is_fallback
    assert loose.format_entries is None


LOOSE_PLUGIN = """
def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def format_entries(entries):
    return [("plain", "a loose attribute")]
"""
