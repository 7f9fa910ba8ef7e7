"""Contract 1.8's light plugin packages through the gate, both ways, and detection's sniff-only load.

A plugin whose package serves its names through ``linewise_contracts.lazy``
declares 1.8: a 1.7 host (whose contracts have no such module) refuses it
before importing it, with the hint to upgrade linewise. On the 1.8 host,
asking a declared format for its ``sniff`` (what auto-detection asks of every
installed format) imports the package and the sniff's module, not the
parser's; loading the format imports the rest. A 1.7 plugin loads on both.
"""

from __future__ import annotations

import sys

import pytest
from linewise import Registry
from linewise_contracts import CONTRACT_VERSION
from linewise_contracts.lazy import lazy_names
from support import FakeSite

LIGHT_INIT = """
from linewise_contracts.agent import Agent, Format
from linewise_contracts.lazy import lazy_names

from light_pkg.sniff import sniff

__getattr__, __dir__ = lazy_names(__name__, {"parse_stdout_line": "light_pkg.parser"})
__all__ = ["agent", "parse_stdout_line", "sniff"]

agent = Agent(
    "light",
    label="Light CLI",
    formats=[
        Format(
            "light_local",
            parse_stdout_line="light_pkg.parser:parse_stdout_line",
            summarize_run="light_pkg.parser:summarize_run",
            sniff=sniff,
        )
    ],
)
"""

LIGHT_SNIFF = """
def sniff(lines):
    return 0.9 if lines and lines[0].startswith("light:") else 0.0
"""

LIGHT_PARSER = """
def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line.removeprefix("light:")}]

def summarize_run(lines):
    raise RuntimeError("not asked here")
"""

OLD_PLUGIN = """
from linewise_contracts.agent import Agent, Format

def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line}]

def sniff(lines):
    return 0.5

agent = Agent(
    "old", label="Old CLI",
    formats=[Format("old_local", parse_stdout_line=parse_stdout_line, sniff=sniff)],
)
"""

BROKEN_SNIFF_REFERENCE = """
from linewise_contracts.agent import Agent, Format

agent = Agent(
    "gone", label="Gone CLI",
    formats=[Format("gone_local", parse_stdout_line="gone_pkg.parser:parse_stdout_line",
                    sniff="gone_pkg.missing:sniff")],
)
"""


@pytest.fixture
def site(fake_site: FakeSite) -> FakeSite:
    fake_site.add(
        "light-cli",
        entry_points={"light_local": "light_pkg:agent.light_local"},
        requires=["linewise-contracts>=1.8,<2"],
        modules={
            "light_pkg.__init__": LIGHT_INIT,
            "light_pkg.sniff": LIGHT_SNIFF,
            "light_pkg.parser": LIGHT_PARSER,
        },
    )
    fake_site.add(
        "old-cli",
        entry_points={"old_local": "old_mod:agent.old_local"},
        requires=["linewise-contracts>=1.7,<2"],
        modules={"old_mod": OLD_PLUGIN},
    )
    return fake_site


def test_a_1_8_plugin_on_a_1_7_host_is_refused_before_import_with_the_upgrade_hint(
    site: FakeSite,
) -> None:
    registry = Registry(entry_points=site.entry_points(), host_contract="1.7.0")
    assert registry.sniffer("light_local") is None
    assert "light_pkg" not in sys.modules
    failure = registry.failed_loads["light_local"]
    assert failure.stage == "contract"
    assert "newer than this host's contract 1.7.0: upgrade linewise" in failure.hint
    assert registry.load("light_local").is_fallback


def test_on_the_1_8_host_a_sniff_is_asked_without_importing_the_parser(site: FakeSite) -> None:
    registry = Registry(entry_points=site.entry_points(), host_contract=CONTRACT_VERSION)
    sniff = registry.sniffer("light_local")
    assert sniff is not None
    assert sniff(["light: hello"]) == 0.9
    assert "light_pkg.sniff" in sys.modules and "light_pkg.parser" not in sys.modules
    assert "light_local" not in registry.failed_loads
    loaded = registry.load("light_local")  # the format the detection picked
    assert not loaded.is_fallback and "light_pkg.parser" in sys.modules
    assert loaded.new_parser().parse_line("light:hi", "t") == [
        {"kind": "assistant", "ts": "t", "text": "hi"}
    ]
    # One sniff per format: the loaded format's is the one detection was given.
    assert registry.sniffer("light_local") is loaded.sniff


@pytest.mark.parametrize("host", ["1.7.0", CONTRACT_VERSION])
def test_a_1_7_plugin_sniffs_and_loads_on_the_1_7_and_the_1_8_host(
    site: FakeSite, host: str
) -> None:
    registry = Registry(entry_points=site.entry_points(), host_contract=host)
    sniff = registry.sniffer("old_local")
    assert sniff is not None and sniff(["x"]) == 0.5
    assert not registry.load("old_local").is_fallback


def test_a_sniff_reference_that_cannot_be_imported_fails_the_format_as_a_load_would(
    fake_site: FakeSite,
) -> None:
    fake_site.add(
        "gone-cli",
        entry_points={"gone_local": "gone_pkg:agent.gone_local"},
        requires=["linewise-contracts>=1.8,<2"],
        modules={"gone_pkg.__init__": BROKEN_SNIFF_REFERENCE},
    )
    registry = Registry(entry_points=fake_site.entry_points())
    assert registry.sniffer("gone_local") is None
    failure = registry.failed_loads["gone_local"]
    assert failure.stage == "import"
    assert "gone_pkg.missing:sniff" in failure.reason
    assert registry.load("gone_local").is_fallback  # not retried: the same failure


def test_lazy_names_import_a_name_when_first_read_and_keep_it() -> None:
    module = type(sys)("lazy_probe")
    sys.modules["lazy_probe"] = module
    try:
        getter, lister = lazy_names("lazy_probe", {"dumps": "json", "join": "os.path:join"})
        assert "dumps" in lister() and "join" in lister()
        import json
        import os.path

        assert getter("dumps") is json.dumps and getter("join") is os.path.join
        assert vars(module)["dumps"] is json.dumps  # kept: read next time without the getter
        with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
            getter("nothing")
        with pytest.raises(ValueError, match="not 'module' or 'module:attribute'"):
            lazy_names("lazy_probe", {"x": "not a module"})
        with pytest.raises(TypeError, match="must name a module"):
            lazy_names("lazy_probe", {"x": None})  # type: ignore[dict-item]
    finally:
        del sys.modules["lazy_probe"]
