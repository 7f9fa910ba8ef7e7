"""The contract gate the host applies: the rules live in linewise_contracts.versioning."""

from linewise_contracts.versioning import (
    CONTRACTS_DISTRIBUTION,
    GateDecision,
    Verdict,
    check_contract,
)

__all__ = ["CONTRACTS_DISTRIBUTION", "GateDecision", "Verdict", "check_contract"]
