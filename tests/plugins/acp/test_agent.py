"""linewise-acp declares one Agent (contract 1.5): its entry points name its formats."""

from __future__ import annotations

import linewise_acp
from linewise.plugins.registry import Registry

ADAPTER_TYPES = ("acp",)


def test_every_adapter_type_is_served_by_a_format_of_the_acp_agent() -> None:
    registry = Registry()
    assert linewise_acp.agent.name == "acp"
    assert linewise_acp.agent.adapter_types == ADAPTER_TYPES
    for adapter_type in ADAPTER_TYPES:
        loaded = registry.load(adapter_type)
        assert not loaded.is_fallback, adapter_type
        assert loaded.agent == "acp", adapter_type
        assert registry.info(adapter_type).shape == "agent", adapter_type  # not 1.x exports
