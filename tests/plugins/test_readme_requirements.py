"""Each first-party plugin's README states the requirements its pyproject declares.

A README says which contract versions its plugin needs (``linewise-contracts>=1.5,<2``)
and which other linewise distributions it builds on; a reader choosing a host goes by
it. Every such requirement the README names must be the one the pyproject declares,
and the contract requirement must be named.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = tuple(sorted(path.parent.name for path in (ROOT / "plugins").glob("*/pyproject.toml")))

#: A linewise distribution's version range as READMEs write it: ``linewise-claude>=1.0,<2``.
_REQUIREMENT = re.compile(r"\b(linewise-[a-z][a-z-]*[a-z])((?:[<>=!~]=?\s*[0-9][0-9.]*,?\s*)+)")


def _declared(plugin: str) -> dict[str, str]:
    project = tomllib.loads((ROOT / "plugins" / plugin / "pyproject.toml").read_text("utf-8"))
    found: dict[str, str] = {}
    for dependency in project["project"]["dependencies"]:
        matched = _REQUIREMENT.fullmatch(dependency.replace(" ", ""))
        if matched:
            found[matched[1]] = matched[2]
    return found


def stated(readme: str) -> list[tuple[str, str]]:
    """The (distribution, range) pairs a README's text names, in order."""
    return [(m[1], m[2].rstrip(", ")) for m in _REQUIREMENT.finditer(readme)]


def test_requirements_are_read_as_written() -> None:
    text = "declares `linewise-contracts>=1.5,<2` (and `linewise-claude>=1.0,<2`), not linewise-x"
    assert stated(text) == [("linewise-contracts", ">=1.5,<2"), ("linewise-claude", ">=1.0,<2")]


@pytest.mark.parametrize("plugin", PLUGINS)
def test_the_readme_names_the_requirements_the_pyproject_declares(plugin: str) -> None:
    declared = _declared(plugin)
    readme = (ROOT / "plugins" / plugin / "README.md").read_text("utf-8")
    named = stated(readme)
    assert ("linewise-contracts", declared["linewise-contracts"]) in named
    wrong = [(name, spec) for name, spec in named if name in declared and declared[name] != spec]
    assert wrong == [], f"README says {wrong}, pyproject declares {declared}"


def test_a_new_plugins_readme_names_the_requirement_its_pyproject_declares(tmp_path: Path) -> None:
    from linewise.cli.commands.scaffold import scaffold

    root = scaffold("acme", tmp_path)[0].parent
    project = tomllib.loads((root / "pyproject.toml").read_text("utf-8"))
    (declared,) = project["project"]["dependencies"]
    assert ("linewise-contracts", declared.removeprefix("linewise-contracts")) in stated(
        (root / "README.md").read_text("utf-8")
    )
