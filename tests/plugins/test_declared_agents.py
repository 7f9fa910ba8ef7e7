"""First-party plugins declare one Agent (contract 1.5), and a run of one format loads its own code.

Each plugin's entry points name the formats of the one ``agent`` of its
package (``kimi_local = "linewise_kimi:agent.kimi_local"``), and loading the
format a run writes (its first) imports none of the modules that define only
its other formats' code: rendering a Kimi stdout log reads no session store.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from linewise_contracts.agent import FORMAT_CALLABLES, Agent, Format

ROOT = Path(__file__).resolve().parents[2]

#: Every first-party plugin (the folders of plugins/): each declares one Agent.
DECLARED = tuple(sorted(path.parent.name for path in (ROOT / "plugins").glob("*/pyproject.toml")))


def _entry_points(plugin: str) -> dict[str, str]:
    project = tomllib.loads((ROOT / "plugins" / plugin / "pyproject.toml").read_text("utf-8"))
    found: dict[str, str] = project["project"]["entry-points"]["linewise.parsers"]
    return found


def _package(plugin: str) -> str:
    source = ROOT / "plugins" / plugin / "src"
    return next(path.name for path in source.iterdir() if (path / "__init__.py").is_file())


@pytest.mark.parametrize("plugin", DECLARED)
def test_every_entry_point_names_a_format_of_the_packages_one_agent(plugin: str) -> None:
    package = _package(plugin)
    entry_points = _entry_points(plugin)
    assert entry_points == {name: f"{package}:agent.{name}" for name in entry_points}
    module = __import__(package)
    agent = module.agent
    assert type(agent) is Agent
    assert set(agent.adapter_types) == set(entry_points)
    for name in entry_points:
        fmt = getattr(agent, name)
        assert type(fmt) is Format and fmt.agent is agent
        fmt.resolve()  # every reference imports, and names a callable
        assert fmt.create_stdout_parser is not None or fmt.parse_stdout_line is not None


#: Run in a fresh interpreter: load the first format as the host does (resolve its
#: references), then list each other format's own modules already imported: the
#: referenced modules and those defining its callables, less the first format's.
_PROBE = """
import json, sys
from {package} import agent
first, *others = agent.formats
named = {{o.adapter_type: {{r.partition(":")[0] for r in o.references().values()}} for o in others}}
first.resolve()
loaded = set(sys.modules)
def defining(fmt):
    fmt.resolve()
    return {{getattr(getattr(fmt, n), "__module__", None) for n in {fields!r}}} - {{None}}
own = defining(first)
imported = sorted(
    (o.adapter_type, m) for o in others for m in (defining(o) | named[o.adapter_type]) - own
    if m in loaded
)
print(json.dumps({{"first": first.adapter_type, "imported": imported}}))
"""


@pytest.mark.parametrize("plugin", [p for p in DECLARED if len(_entry_points(p)) > 1])
def test_loading_the_first_format_imports_no_module_of_the_others_own_code(plugin: str) -> None:
    probe = _PROBE.format(package=_package(plugin), fields=FORMAT_CALLABLES)
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["imported"] == [], f"loading {found['first']} imported {found['imported']}"
