"""The contract gate meets a real minor release: 1.1 plugins on a 1.0 host, 1.0 plugins on 1.1.

Two ways of being a 1.0 host: the Registry's ``host_contract`` (how the
registry learns the contract version it was built with), and, end to end, a
fake ``linewise-contracts 1.0.0`` distribution installed ahead of the real one
in a temporary site, with the real ``linewise`` command run against it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.metadata import EntryPoint
from pathlib import Path

import linewise_contracts
import pytest
from linewise import Registry
from linewise.plugins.gate import contract_hint, needs_newer_contract
from linewise_contracts import CONTRACT_VERSION
from linewise_contracts.versioning import check_contract
from support import FakeSite

LINEWISE = str(Path(sys.executable).with_name("linewise"))

ECHO = """
def parse_stdout_line(line, ts):
    return [{"kind": "assistant", "ts": ts, "text": line.upper(), "parentToolUseId": "toolu_1"}]
"""


def _install_plugins(site: FakeSite) -> None:
    site.add(
        "needs-eleven",
        entry_points={"needs_eleven": "needs_eleven_mod"},
        requires=["linewise-contracts>=1.1,<2"],
        modules={"needs_eleven_mod": ECHO},
    )
    site.add(
        "plain-ten",
        entry_points={"plain_ten": "plain_ten_mod"},
        requires=["linewise-contracts>=1.0,<2"],
        modules={"plain_ten_mod": ECHO.replace(', "parentToolUseId": "toolu_1"', "")},
    )


def _points(site: FakeSite) -> list[EntryPoint]:
    return site.entry_points()


def test_the_host_is_at_contract_1_1_or_a_later_minor() -> None:
    major, minor, _ = (int(part) for part in CONTRACT_VERSION.split("."))
    assert (major, minor) >= (1, 1) and major == 1


def test_a_1_1_plugin_on_a_1_0_host_is_refused_with_a_hint_to_upgrade_linewise(
    fake_site: FakeSite,
) -> None:
    _install_plugins(fake_site)
    registry = Registry(entry_points=_points(fake_site), host_contract="1.0.0")
    loaded = registry.load("needs_eleven")
    assert loaded.is_fallback
    assert "needs_eleven_mod" not in sys.modules  # refused before any import
    failure = registry.failed_loads["needs_eleven"]
    assert failure.stage == "contract"
    assert "excludes this host's contract 1.0.0" in failure.reason
    assert "upgrade linewise" in failure.hint
    assert "pip install --upgrade linewise linewise-contracts" in failure.hint
    assert "needs linewise-contracts>=1.1,<2" in failure.hint


def test_a_1_0_plugin_loads_on_the_1_0_and_the_1_1_host(fake_site: FakeSite) -> None:
    _install_plugins(fake_site)
    for host in ("1.0.0", CONTRACT_VERSION):
        registry = Registry(entry_points=_points(fake_site), host_contract=host)
        assert not registry.load("plain_ten").is_fallback, host


def test_a_1_1_plugin_loads_on_the_1_1_host(fake_site: FakeSite) -> None:
    _install_plugins(fake_site)
    registry = Registry(entry_points=_points(fake_site))
    assert not registry.load("needs_eleven").is_fallback


@pytest.mark.parametrize(
    ("declared", "host", "newer"),
    [
        ("linewise-contracts>=1.1,<2", "1.0.0", True),
        ("linewise-contracts~=1.2", "1.1.0", True),
        ("linewise-contracts==1.3.*", "1.1.0", True),
        ("linewise-contracts>=1.0,<2", "2.0.0", False),  # the plugin is too old: not our upgrade
        ("linewise-contracts<1", "1.1.0", False),
    ],
)
def test_the_hint_names_the_side_that_must_move(declared: str, host: str, newer: bool) -> None:
    decision = check_contract([declared], host)
    assert decision.verdict == "incompatible"
    assert needs_newer_contract(decision, host) is newer
    hint = contract_hint(decision, "some-plugin", host)
    if newer:
        assert "upgrade linewise" in hint
    else:
        assert hint.startswith("install a release of some-plugin that supports contract")


def test_a_malformed_requirement_hint_says_to_fix_it() -> None:
    decision = check_contract(["linewise-contracts>=>1"], "1.1.0")
    assert contract_hint(decision, "x", "1.1.0").startswith("fix the linewise-contracts")


# -- end to end: a real 1.0.0 linewise-contracts distribution installed ---------------


@pytest.fixture
def old_host_site(tmp_path: Path) -> dict[str, str]:
    """A site with linewise-contracts 1.0.0 (its package and dist-info) and both plugins."""
    site = FakeSite(tmp_path / "site")
    site.root.mkdir()
    package = Path(linewise_contracts.__file__).parent
    copied = site.root / "linewise_contracts"
    shutil.copytree(package, copied, ignore=shutil.ignore_patterns("__pycache__"))
    version = copied / "_version.py"
    text = version.read_text(encoding="utf-8")
    assert f'__version__ = "{CONTRACT_VERSION}"' in text
    version.write_text(text.replace(f'"{CONTRACT_VERSION}"', '"1.0.0"'), encoding="utf-8")
    site.add("linewise-contracts", version="1.0.0", raw_entry_points="")
    _install_plugins(site)
    return {**os.environ, "PYTHONPATH": str(site.root)}


def _linewise(
    env: dict[str, str], *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [LINEWISE, *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def test_end_to_end_a_1_0_host_refuses_the_1_1_plugin_and_serves_the_1_0_one(
    old_host_site: dict[str, str],
) -> None:
    done = _linewise(old_host_site, "list", "--load", "--json")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert payload["contract"] == "1.0.0"  # the installed 1.0.0 distribution is the host's contract
    parsers = {item["adapterType"]: item for item in payload["parsers"]}
    refused = parsers["needs_eleven"]
    assert refused["status"] == "incompatible"
    assert "upgrade linewise" in (refused["hint"] or "")
    assert parsers["plain_ten"]["status"] == "loaded"

    rendered = _linewise(
        old_host_site,
        "render",
        "-",
        "-a",
        "needs_eleven",
        "-f",
        "jsonl",
        "--ts",
        "2026-01-01T00:00:00Z",
        stdin="hi\n",
    )
    assert rendered.returncode == 0, rendered.stderr
    assert "upgrade linewise" in rendered.stderr
    # served by the generic parser: the line raw, not upper-cased
    assert [json.loads(line)["text"] for line in rendered.stdout.splitlines()] == ["hi"]

    served = _linewise(
        old_host_site,
        "render",
        "-",
        "-a",
        "plain_ten",
        "-f",
        "jsonl",
        "--ts",
        "2026-01-01T00:00:00Z",
        stdin="hi\n",
    )
    assert served.returncode == 0, served.stderr
    assert [json.loads(line)["text"] for line in served.stdout.splitlines()] == ["HI"]


def test_end_to_end_the_1_1_host_loads_both(tmp_path: Path) -> None:
    site = FakeSite(tmp_path / "site")
    site.root.mkdir()
    _install_plugins(site)
    env = {**os.environ, "PYTHONPATH": str(site.root)}
    done = _linewise(env, "list", "--load", "--json")
    assert done.returncode == 0, done.stderr
    parsers = {item["adapterType"]: item for item in json.loads(done.stdout)["parsers"]}
    assert parsers["needs_eleven"]["status"] == "loaded"
    assert parsers["plain_ten"]["status"] == "loaded"
