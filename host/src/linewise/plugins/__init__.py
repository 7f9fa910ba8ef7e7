"""Plugins: discovery, the contract gate, loading, the registry, the one guard, output relayed."""
