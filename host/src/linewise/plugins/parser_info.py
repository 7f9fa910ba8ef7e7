"""What a host app can know about a discovered parser: its status and metadata, no import.

Kept apart from :mod:`linewise.plugins.registry`, which re-exports both names: only
``linewise list``, :meth:`~linewise.Registry.info` and hook events need them,
and building the dataclass is a noticeable part of a one-line ``render``.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from linewise.plugins.candidate import Candidate
    from linewise.plugins.gate import GateDecision

__all__ = ["DEPRECATED_SHAPE", "ParserInfo", "ParserStatus", "available_info"]

#: What ``list`` and ``doctor`` say of a loaded plugin still made of 1.x loose exports.
DEPRECATED_SHAPE = (
    "contract 1.x loose exports, read until contract 2.0; declare one Agent instead "
    "(CONTRIBUTING.md, 'Declaring your plugin')"
)


class ParserStatus(StrEnum):
    """Where an adapter type's plugin stands in this process."""

    AVAILABLE = "available"  # discovered, allowed, not imported yet
    LOADED = "loaded"  # imported and serving
    INCOMPATIBLE = "incompatible"  # refused by the contract gate; generic parser serves
    FAILED = "failed"  # failed to load; generic parser serves
    DISABLED = "disabled"  # switched off by LINEWISE_DISABLE / LINEWISE_ONLY or the API
    SHADOWED = "shadowed"  # another distribution won the same adapter type


@dataclass(frozen=True, slots=True)
class ParserInfo:
    """What a host app can know about one discovered parser, without importing it."""

    adapter_type: str
    status: ParserStatus
    label: str | None = None
    distribution: str | None = None
    version: str | None = None
    entry_point: str | None = None
    contract: str | None = None
    contract_verdict: str | None = None
    reason: str | None = None
    hint: str | None = None
    shadowed_by: str | None = None
    builtin: bool = False
    #: "python" (an installed plugin) or "javascript" (a `linewise js add` registration).
    kind: str = "python"
    #: Where a JavaScript parser was registered from (None for Python plugins).
    source: str | None = None
    #: What went wrong calling a loaded plugin in this process (a metadata lookup, a
    #: sniffer, a factory...), one line each, oldest first.
    problems: tuple[str, ...] = ()
    #: Known once loaded: "agent" when the plugin declares a contract 1.5 ``Agent``,
    #: "exports" for 1.x loose module exports (deprecated: read until contract 2.0);
    #: None when not known (not loaded, isolated, JavaScript, built in).
    shape: str | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-compatible dict (camelCase keys, like the entries)."""
        return {
            "adapterType": self.adapter_type,
            "status": self.status.value,
            "label": self.label,
            "distribution": self.distribution,
            "version": self.version,
            "entryPoint": self.entry_point,
            "contract": self.contract,
            "contractVerdict": self.contract_verdict,
            "reason": self.reason,
            "hint": self.hint,
            "shadowedBy": self.shadowed_by,
            "builtin": self.builtin,
            "kind": self.kind,
            "source": self.source,
            "problems": list(self.problems),
            "shape": self.shape,
        }


def available_info(candidate: Candidate, decision: GateDecision) -> ParserInfo:
    """What metadata and the contract gate tell of a claim: status available, no reason yet."""
    return ParserInfo(
        adapter_type=candidate.adapter_type,
        status=ParserStatus.AVAILABLE,
        label=candidate.summary,
        distribution=candidate.distribution,
        version=candidate.version,
        entry_point=candidate.value,
        contract=decision.declared,
        contract_verdict=decision.verdict,
        reason=decision.reason if decision.verdict == "undeclared" else None,
        kind=candidate.kind,
        source=candidate.source,
    )
