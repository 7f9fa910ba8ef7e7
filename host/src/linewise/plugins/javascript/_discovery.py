"""Registered JavaScript parsers as registry candidates, beside the Python entry points."""

from __future__ import annotations

from importlib.metadata import EntryPoint

from linewise_contracts.protocols import ENTRY_POINT_GROUP

from linewise.plugins.candidate import Candidate
from linewise.plugins.javascript._contract import contract_requirement
from linewise.plugins.javascript._store import registrations

__all__ = ["TARGET_MODULE", "javascript_candidates"]

#: The module whose attributes are the registered parsers
#: (``linewise.plugins.javascript.registered:x``).
TARGET_MODULE = "linewise.plugins.javascript.registered"
# An explicit registration wins over an installed plugin claiming the same adapter type.
_RANK = -1


def javascript_candidates() -> tuple[list[Candidate], list[str]]:
    """A candidate per readable registration, and why unreadable ones were skipped."""
    found, skipped = registrations()
    candidates = []
    for registration in found:
        value = f"{TARGET_MODULE}:{registration.adapter_type}"
        candidates.append(
            Candidate(
                adapter_type=registration.adapter_type,
                value=value,
                distribution=registration.package,
                version=registration.version,
                summary=registration.description,
                requires=contract_requirement(registration.contract),
                path_rank=_RANK,
                entry_point=EntryPoint(registration.adapter_type, value, ENTRY_POINT_GROUP),
                kind="javascript",
                source=registration.source,
            )
        )
    return candidates, [f"JavaScript registration: {reason}" for reason in skipped]
