"""The host's own version (the contract version is linewise_contracts.CONTRACT_VERSION)."""

__version__ = "0.1.0"
