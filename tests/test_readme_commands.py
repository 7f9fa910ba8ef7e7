"""The README's two commands: what they install, and that they leave the system Python alone.

`.ci/run` runs both, unchanged, in fresh environments from a PEP 668 Python
and a plain pip; these tests check what the committed lock makes them install.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable

from support import REPO

#: What only the optional features (export, query, the Dask and JavaScript engines,
#: estimated costs, linewise serve) and the compliance kit's fuzzing need: never
#: installed to render.
OPTIONAL = {
    "pyarrow",
    "duckdb",
    "dask",
    "distributed",
    "quickjs-ng",
    "hypothesis",
    "genai-prices",
    "linewise-serve",
    "starlette",
    "uvicorn",
    "pygal",
}


def _readme_commands() -> dict[str, str]:
    lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    found = {}
    for heading, key in (("Set up and render", "render"), ("Set up and run the tests", "tests")):
        index = next(i for i, line in enumerate(lines) if line.startswith(heading))
        found[key] = lines[index + 1].strip("`")
    return found


def _installed(groups: Iterable[str]) -> set[str]:
    """Every package `uv run --locked` installs from uv.lock, with the given dependency groups."""
    lock = tomllib.loads((REPO / "uv.lock").read_text(encoding="utf-8"))
    packages = {package["name"]: package for package in lock["package"]}
    root = packages["linewise-workspace"]
    todo: list[tuple[str, tuple[str, ...]]] = [
        (dep["name"], tuple(dep.get("extra", ()))) for dep in root.get("dependencies", [])
    ]
    for group in groups:
        todo += [
            (dep["name"], tuple(dep.get("extra", ())))
            for dep in root.get("dev-dependencies", {}).get(group, [])
        ]
    seen: set[tuple[str, tuple[str, ...]]] = set()
    while todo:
        name, extras = todo.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        package = packages[name]
        deps = list(package.get("dependencies", []))
        for extra in extras:
            deps += package.get("optional-dependencies", {}).get(extra, [])
        todo += [(dep["name"], tuple(dep.get("extra", ()))) for dep in deps]
    return {name for name, _ in seen}


def test_rendering_installs_none_of_the_optional_features() -> None:
    assert "--no-dev" in _readme_commands()["render"]
    installed = _installed(groups=())
    assert not installed & OPTIONAL, installed & OPTIONAL
    assert {"linewise", "linewise-contracts", "linewise-claude", "orjson"} <= installed


def test_the_tests_get_every_optional_feature_and_the_fuzzing() -> None:
    assert "--no-dev" not in _readme_commands()["tests"]
    installed = _installed(groups=("dev",))
    assert installed >= OPTIONAL, OPTIONAL - installed


def test_the_commands_install_into_a_venv_of_their_own_never_the_system_python() -> None:
    for command in _readme_commands().values():
        assert "--break-system-packages" not in command
        assert "--user" not in command
        # Every pip install targets the venv the command made first (PEP 668 allows that).
        made = re.match(r"python3 -m venv --without-pip (\S+) && ", command)
        assert made is not None, command
        pips = re.findall(r"-m pip (.*?) install", command)
        assert pips == [f"--python {made.group(1)}/bin/python"], command


def test_ci_runs_the_readme_commands() -> None:
    script = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert 'readme_command "Set up and render the bundled sample log"' in script
    assert 'readme_command "Set up and run the tests"' in script
    assert 'bash -c "$test_command"' in script
