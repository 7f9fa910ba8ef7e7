"""The ui-parser contract version a package declares, as the host's contract gate reads it."""

from __future__ import annotations

from typing import Final

__all__ = ["contract_major", "contract_requirement"]

_CONTRACTS: Final = "linewise-contracts"


def contract_major(declared: str) -> int | None:
    """The major version of a declared ui-parser contract (``"1.0.0"`` gives 1), or None."""
    head = declared.strip().split(".", 1)[0]
    return int(head) if head.isdigit() and len(head) < 6 else None


def contract_requirement(declared: str | None) -> tuple[str, ...]:
    """The declared ui-parser contract as the Requires-Dist the host's gate reads.

    The table of the ui-parser contract goes by major version only (1.x loads,
    another major is refused, none loads in the grace period), so ``"1.0.0"``
    becomes ``linewise-contracts>=1,<2``: the entry contract is one and the same.
    """
    if declared is None:
        return ()
    major = contract_major(declared)
    if major is None:
        return (f"{_CONTRACTS} (adapterUiParser {declared!r})",)  # malformed: the gate says so
    return (f"{_CONTRACTS}>={major},<{major + 1}",)
