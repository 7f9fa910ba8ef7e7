"""Each distribution is ready to publish: license, metadata, a README that works on its own."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MEMBERS = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["uv"][
    "workspace"
]["members"]


def _project(member: str) -> dict[str, object]:
    data = tomllib.loads((ROOT / member / "pyproject.toml").read_text(encoding="utf-8"))
    project: dict[str, object] = data["project"]
    return project


@pytest.mark.parametrize("member", MEMBERS)
def test_every_distribution_carries_its_license_and_metadata(member: str) -> None:
    project = _project(member)
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert "MIT License" in (ROOT / member / "LICENSE").read_text(encoding="utf-8")
    assert project.get("keywords"), member
    classifiers = project.get("classifiers")
    assert isinstance(classifiers, list) and "Typing :: Typed" in classifiers
    urls = project.get("urls")
    assert isinstance(urls, dict) and {"Homepage", "Repository", "Issues"} <= set(urls)


@pytest.mark.parametrize("member", MEMBERS)
def test_every_readme_works_outside_the_repository(member: str) -> None:
    readme = (ROOT / member / str(_project(member)["readme"])).read_text(encoding="utf-8")
    assert "](../" not in readme and "](./" not in readme, member


def test_the_contract_does_not_pull_in_the_fuzzing_for_users_who_only_parse() -> None:
    contracts = _project("contracts")
    dependencies = contracts["dependencies"]
    assert isinstance(dependencies, list)
    assert not any("hypothesis" in requirement for requirement in dependencies)
    extras = contracts["optional-dependencies"]
    assert isinstance(extras, dict) and any("hypothesis" in r for r in extras["testing"])
    # Nor does the host's everyday install: `linewise check` users add linewise[check].
    host = _project("host")
    assert isinstance(host["dependencies"], list)
    assert not any("[testing]" in r or "hypothesis" in r for r in host["dependencies"])
    host_extras = host["optional-dependencies"]
    assert isinstance(host_extras, dict)
    assert host_extras["check"] == ["linewise-contracts[testing]"]


def test_parsing_with_the_contract_never_imports_hypothesis() -> None:
    code = (
        "import sys, linewise_contracts, linewise_contracts.extract, linewise_contracts.acpx\n"
        "from linewise_contracts import entry_problem\n"
        "import linewise_contracts.compliance\n"
        "assert entry_problem({'kind': 'stdout', 'ts': 't', 'text': 'x'}) is None\n"
        "print('hypothesis' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == "False"


def test_the_all_extra_installs_every_first_party_plugin() -> None:
    # The plugin list is declared once, as workspace members; the extra must not fall behind.
    plugins = {str(_project(member)["name"]) for member in MEMBERS if member.startswith("plugins/")}
    plugins.discard(EXAMPLE)
    optional = _project("host")["optional-dependencies"]
    assert isinstance(optional, dict)
    assert set(optional["all"]) == plugins


def test_every_plugin_is_type_checked_and_named_for_the_missing_adapter_hint() -> None:
    from linewise.plugins.suggest import FIRST_PARTY

    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    for member in MEMBERS:
        source = ROOT / member / "src"
        package = next(path.name for path in source.iterdir() if (path / "__init__.py").is_file())
        assert f"{member}/src" in mypy["mypy_path"], member
        assert package in mypy["packages"], member
    assert set(FIRST_PARTY.values()) <= {str(_project(member)["name"]) for member in MEMBERS}


# -- the plugin list, declared once: the workspace members and their entry points ----------

#: The example third-party plugin: a workspace member, not a first-party parser.
EXAMPLE = "linewise-tally"


def _first_party_adapter_types(*, example: bool = False) -> dict[str, str]:
    """Every adapter type the first-party plugin members declare (and, with ``example``,
    the example plugin's), and its distribution."""
    found: dict[str, str] = {}
    for member in MEMBERS:
        project = _project(member)
        if not member.startswith("plugins/") or (project["name"] == EXAMPLE and not example):
            continue
        groups = project.get("entry-points")
        assert isinstance(groups, dict), member
        for adapter_type in groups["linewise.parsers"]:
            found[adapter_type] = str(project["name"])
    return found


def test_the_missing_adapter_hint_knows_exactly_the_first_party_adapter_types() -> None:
    from linewise.plugins.suggest import FIRST_PARTY

    # The example plugin too: `render -a tally_local` says to pip install linewise-tally.
    assert dict(FIRST_PARTY) == _first_party_adapter_types(example=True)


def test_the_host_fuzzer_covers_every_first_party_adapter_type() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        from fuzz_host import ADAPTERS
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    assert set(_first_party_adapter_types()) <= set(ADAPTERS)


def test_detection_accuracy_names_only_adapter_types_the_workspace_declares() -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import detect_accuracy
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    named = {
        value
        for name, table in vars(detect_accuracy).items()
        if name.isupper() and isinstance(table, dict)
        for value in table.values()
        if isinstance(value, str) and value.replace("_", "").isalnum() and value.islower()
    }
    declared = set(_first_party_adapter_types())
    assert named & declared, "detect_accuracy names no adapter type at all"
    assert named - declared - {"process"} == set()


def test_the_readme_table_lists_exactly_the_first_party_adapter_types() -> None:
    import re

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Parsers in this repository", 1)[1].split("\n## ", 1)[0]
    named: dict[str, str] = {}
    for row in table.splitlines():
        if row.startswith("| `"):
            cells = row.split("|")
            for adapter_type in re.findall(r"`([a-z0-9_]+)`", cells[1]):
                named[adapter_type] = cells[2].strip().strip("`")
    named.pop("tally_local", None)  # the example plugin is listed, marked as such
    assert named == _first_party_adapter_types()


def test_the_serve_extra_installs_the_web_app_member() -> None:
    # `linewise serve` is its own distribution (serve/), installed by the host's extra.
    optional = _project("host")["optional-dependencies"]
    assert isinstance(optional, dict)
    assert optional["serve"] == [str(_project("serve")["name"])]
    points = tomllib.loads((ROOT / "serve" / "pyproject.toml").read_text(encoding="utf-8"))
    assert "serve" in points["project"]["entry-points"]["linewise.commands"]


def _contracts_floor(requirements: object) -> str:
    from packaging.requirements import Requirement

    assert isinstance(requirements, list)
    for text in requirements:
        requirement = Requirement(text)
        if requirement.name == "linewise-contracts" and not requirement.marker:
            floors = [spec.version for spec in requirement.specifier if spec.operator == ">="]
            assert len(floors) == 1, text
            return floors[0]
    raise AssertionError("no linewise-contracts requirement")


def test_the_host_requires_the_contract_it_is_built_and_tested_with() -> None:
    """The host is tested only against the contracts of its own checkout, and imports what
    that minor has (it once required >=1.2 while importing 1.3's modules at start-up): its
    floor is the contracts' own minor, raised with each contracts minor release."""
    from linewise_contracts import CONTRACT_VERSION

    assert _contracts_floor(_project("host")["dependencies"]) == ".".join(
        CONTRACT_VERSION.split(".")[:2]
    )
