"""Contract version rules: does a plugin's declared linewise-contracts range admit a host?"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final, Literal, TypeAlias

from linewise_contracts._frozen import FrozenValue, frozen_value, set_fields

__all__ = ["CONTRACTS_DISTRIBUTION", "GateDecision", "Verdict", "check_contract"]

CONTRACTS_DISTRIBUTION: Final = "linewise-contracts"

# compatible: load. undeclared: load (grace period). incompatible and
# malformed: refuse, and serve the adapter type with the generic parser.
Verdict: TypeAlias = Literal["compatible", "undeclared", "incompatible", "malformed"]

# The distribution name at the start of a Requires-Dist value, read without
# `packaging` so requirements on other distributions cost nothing. Compiled on
# first use (re keeps it): the host decides simple ranges without it.
_NAME: Final = r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)"


def _canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


# A frozen dataclass whose methods are written out (start-up: see linewise_contracts._frozen).
@frozen_value()
class GateDecision(FrozenValue):
    """The gate's verdict on one plugin, with the declared range and a reason to show."""

    __slots__ = ("declared", "reason", "verdict")

    verdict: Verdict
    declared: str | None
    reason: str

    def __init__(self, verdict: Verdict, declared: str | None, reason: str) -> None:
        set_fields(self, verdict=verdict, declared=declared, reason=reason)

    @property
    def loads(self) -> bool:
        """True when the plugin may be imported."""
        return self.verdict in ("compatible", "undeclared")


def check_contract(requires: Iterable[str] | None, host_contract: str) -> GateDecision:
    """Decide from a distribution's Requires-Dist values whether it may load.

    Only requirements on linewise-contracts that apply to a plain install
    count (one that applies only with an extra or on another platform does
    not). Several are intersected. Pre-release host contracts are matched as
    releases would be (``1.1.0rc1`` is inside ``>=1.0,<2``), while PEP 440
    keeps ``<2`` from admitting ``2.0.0rc1``.
    """
    ours = [text for text in requires or () if _is_ours(text)]
    if not ours:
        return GateDecision("undeclared", None, "no linewise-contracts requirement (grace period)")

    from packaging.requirements import InvalidRequirement, Requirement
    from packaging.specifiers import SpecifierSet
    from packaging.version import InvalidVersion, Version

    specifiers = SpecifierSet()
    applicable: list[str] = []
    for text in ours:
        try:
            requirement = Requirement(text)
        except InvalidRequirement as error:
            return GateDecision(
                "malformed", text.strip(), f"cannot read the contract requirement: {error}"
            )
        if requirement.marker is not None and not _applies(requirement.marker):
            continue
        specifiers &= requirement.specifier
        applicable.append(_range_text(text))
    if not applicable:
        return GateDecision(
            "undeclared", None, "linewise-contracts is required only conditionally (grace period)"
        )
    declared = " ; ".join(applicable) if len(applicable) > 1 else applicable[0]
    try:
        host = Version(host_contract)
    except InvalidVersion:  # pragma: no cover - our own version is always valid
        return GateDecision("malformed", declared, f"host contract {host_contract!r} is invalid")
    if not specifiers:
        return GateDecision("compatible", declared, "declared without a version range")
    if specifiers.contains(host, prereleases=True):
        return GateDecision("compatible", declared, f"contract {host} is inside {specifiers}")
    return GateDecision(
        "incompatible",
        declared,
        f"declares linewise-contracts{specifiers}, which excludes this host's contract {host}",
    )


_OPERATOR_ORDER: Final = {"~": 0, "=": 0, ">": 1, "<": 2, "!": 3}


def _range_text(requirement: str) -> str:
    """The version range, lower bounds first: ``>=1.0,<2`` from ``linewise-contracts<2,>=1.0``.

    Build backends reorder specifiers when they write METADATA; this puts them
    back in the order people write ranges in.
    """
    text = requirement.split(";", 1)[0]
    match = re.match(_NAME, text)
    rest = text[match.end() :].strip() if match else text.strip()
    if rest.startswith("(") and rest.endswith(")"):
        rest = rest[1:-1].strip()
    parts = sorted(
        (part.strip() for part in rest.split(",") if part.strip()),
        key=lambda part: _OPERATOR_ORDER.get(part[:1], 4),
    )
    return ",".join(parts) or "any version"


def _is_ours(requirement: str) -> bool:
    match = re.match(_NAME, requirement)
    return match is not None and _canonical(match.group(1)) == CONTRACTS_DISTRIBUTION


def _applies(marker: object) -> bool:
    from packaging.markers import Marker, UndefinedEnvironmentName

    assert isinstance(marker, Marker)
    try:
        return marker.evaluate({"extra": ""})
    except UndefinedEnvironmentName:
        return False
