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
    host = _project("host")["dependencies"]
    assert isinstance(host, list)
    assert any(r.startswith("linewise-contracts[testing]") for r in host)


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
