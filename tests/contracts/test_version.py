"""The contract version is the linewise-contracts distribution version."""

from __future__ import annotations

from importlib.metadata import version

from linewise_contracts import CONTRACT_VERSION, __version__
from packaging.version import Version


def test_contract_version_is_the_distribution_version() -> None:
    assert version("linewise-contracts") == CONTRACT_VERSION == __version__


def test_contract_version_starts_at_1_0_0_and_is_semver() -> None:
    parsed = Version(CONTRACT_VERSION)
    assert parsed.release[0] >= 1
    assert len(parsed.release) == 3
