"""The contract gate the host applies, and what it tells a user when it refuses a plugin.

The rules themselves live in linewise_contracts.versioning (simple ranges are
decided by linewise.plugins.ranges, word for word alike, without importing
``packaging``); this module adds the hint: whether the fix is a newer
linewise (the plugin needs a later minor of the contract than this host has)
or another release of the plugin.
"""

from __future__ import annotations

from collections.abc import Iterable

from linewise_contracts import versioning
from linewise_contracts.versioning import CONTRACTS_DISTRIBUTION, GateDecision, Verdict

from linewise.plugins.ranges import decide_simple

__all__ = [
    "CONTRACTS_DISTRIBUTION",
    "GateDecision",
    "Verdict",
    "check_contract",
    "contract_hint",
    "needs_newer_contract",
]

_LOWER_BOUNDS = (">=", ">", "~=", "==", "===")


def check_contract(requires: Iterable[str] | None, host_contract: str) -> GateDecision:
    """The contract's :func:`~linewise_contracts.versioning.check_contract`.

    Simple ranges are decided without importing ``packaging``.
    """
    requires = None if requires is None else list(requires)
    decision = decide_simple(requires, host_contract)
    return decision if decision is not None else versioning.check_contract(requires, host_contract)


def needs_newer_contract(decision: GateDecision, host_contract: str) -> bool:
    """True when the plugin's range starts above this host's contract (it needs a newer host)."""
    if decision.verdict != "incompatible" or not decision.declared:
        return False
    from packaging.specifiers import InvalidSpecifier, SpecifierSet
    from packaging.version import InvalidVersion, Version

    try:
        host = Version(host_contract)
    except InvalidVersion:
        return False
    for part in decision.declared.split(";"):
        try:
            specifiers = SpecifierSet(part.strip())
        except InvalidSpecifier:
            continue
        for specifier in specifiers:
            if specifier.operator not in _LOWER_BOUNDS:
                continue
            try:
                bound = Version(specifier.version.removesuffix(".*"))
            except InvalidVersion:
                continue
            if bound > host:
                return True
    return False


def contract_hint(decision: GateDecision, distribution: str | None, host_contract: str) -> str:
    """What to do about a plugin the gate refused."""
    if decision.verdict == "malformed":
        return "fix the linewise-contracts requirement in the plugin's pyproject.toml"
    who = distribution or "the plugin"
    if needs_newer_contract(decision, host_contract):
        return (
            f"{who} needs linewise-contracts{decision.declared}, newer than this host's contract "
            f"{host_contract}: upgrade linewise "
            f"(pip install --upgrade linewise {CONTRACTS_DISTRIBUTION})"
        )
    return (
        f"install a release of {who} that supports contract {host_contract}, "
        "or a linewise whose contract it supports"
    )
