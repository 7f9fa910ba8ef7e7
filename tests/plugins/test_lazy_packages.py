"""First-party plugin packages are light: detection asks every format's sniff, and pays for no more.

Auto-detection (``linewise render FILE`` without ``-a``) imports every installed
plugin's package to read its declared agent and asks each format's ``sniff``.
A package's ``__init__`` therefore imports ``linewise_contracts.agent``, its
``sniff`` and nothing else: each format names its other callables by
``"module:attribute"`` reference (imported when the host loads that format),
and the package's public names come through ``linewise_contracts.lazy``. The
names are written three times (the ``TYPE_CHECKING`` imports, the lazy table,
``__all__``); these tests keep the three in step.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import types
from importlib import import_module
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Every first-party plugin (the folders of plugins/).
DECLARED = tuple(sorted(path.parent.name for path in (ROOT / "plugins").glob("*/pyproject.toml")))


def _package(plugin: str) -> str:
    source = ROOT / "plugins" / plugin / "src"
    return next(path.name for path in source.iterdir() if (path / "__init__.py").is_file())


def _init(plugin: str) -> Path:
    return ROOT / "plugins" / plugin / "src" / _package(plugin) / "__init__.py"


def _written(plugin: str) -> tuple[set[str], set[str], list[str]]:
    """The names the package's ``__init__`` imports under ``TYPE_CHECKING``, the keys of
    its ``lazy_names`` table (or of its own ``_LAZY`` table), and its ``__all__``, as written."""
    tree = ast.parse(_init(plugin).read_text("utf-8"))
    checked: set[str] = set()
    lazy: set[str] = set()
    listed: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom):
                    checked |= {alias.asname or alias.name for alias in inner.names}
        elif isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__":
            listed = list(ast.literal_eval(node.value))
        elif (
            isinstance(node, ast.AnnAssign)
            and ast.unparse(node.target) == "_LAZY"
            and isinstance(node.value, ast.Dict)
        ):
            # A library that must not import the contracts (linewise-segments' engine)
            # serves the table with its own __getattr__.
            lazy |= {ast.literal_eval(key) for key in node.value.keys if key is not None}
        for inner in ast.walk(node):
            if (
                isinstance(inner, ast.Call)
                and ast.unparse(inner.func) == "lazy_names"
                and isinstance(inner.args[1], ast.Dict)
            ):
                lazy |= {ast.literal_eval(key) for key in inner.args[1].keys if key is not None}
    return checked, lazy, listed


@pytest.mark.parametrize("plugin", DECLARED)
def test_the_public_names_are_written_in_step(plugin: str) -> None:
    checked, lazy, listed = _written(plugin)
    assert len(listed) == len(set(listed)), "__all__ lists each name once"
    assert checked == lazy, "the TYPE_CHECKING imports are the lazy table's names"
    assert lazy <= set(listed), "every lazy name is in __all__"
    package = import_module(_package(plugin))
    for name in listed:
        value = getattr(package, name)  # a lazy name imports here
        assert not isinstance(value, types.ModuleType), f"{name} is a submodule, not the export"
    assert set(listed) <= set(dir(package))


#: In a fresh interpreter (in this one another test may have resolved the references):
#: each format's callables other than sniff that are given as objects, not references.
_GIVEN = """
import json
from linewise_contracts.agent import FORMAT_CALLABLES
from {package} import agent
print(json.dumps(sorted(
    f"{{fmt.adapter_type}}.{{name}}"
    for fmt in agent.formats
    for name in FORMAT_CALLABLES
    if name != "sniff" and name not in fmt.references() and getattr(fmt, name) is not None
)))
"""


def _probe(source: str) -> object:
    done = subprocess.run(
        [sys.executable, "-c", source], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("plugin", DECLARED)
def test_every_callable_but_sniff_is_named_by_reference(plugin: str) -> None:
    assert _probe(_GIVEN.format(package=_package(plugin))) == [], "give these as 'module:attr'"


#: In a fresh interpreter: import the package, ask every format's sniff (as detection
#: does), then list the modules named by reference for anything else that are imported.
_PROBE = """
import json, sys
from {package} import agent
named = {{
    module
    for fmt in agent.formats
    for field, reference in fmt.references().items()
    if field != "sniff"
    for module in [reference.partition(":")[0]]
}}
sniffing = set()
for fmt in agent.formats:
    sniff = fmt.sniff
    if sniff is not None:
        sniffing.add(sniff.__module__)
print(json.dumps(sorted(m for m in named - sniffing if m in sys.modules)))
"""


@pytest.mark.parametrize("plugin", DECLARED)
def test_asking_every_formats_sniff_imports_none_of_their_other_code(plugin: str) -> None:
    assert _probe(_PROBE.format(package=_package(plugin))) == []
