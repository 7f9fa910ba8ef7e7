"""Plugins: discovery, the contract gate, loading, the registry and the one guard."""
