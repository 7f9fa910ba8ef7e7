"""linewise-antigravity declares one Agent (contract 1.5): its entry points name its formats."""

from __future__ import annotations

import linewise_antigravity
from linewise.plugins.registry import Registry

ADAPTER_TYPES = ("agy_local",)


def test_every_adapter_type_is_served_by_a_format_of_the_antigravity_agent() -> None:
    registry = Registry()
    assert linewise_antigravity.agent.name == "antigravity"
    assert linewise_antigravity.agent.adapter_types == ADAPTER_TYPES
    for adapter_type in ADAPTER_TYPES:
        loaded = registry.load(adapter_type)
        assert not loaded.is_fallback, adapter_type
        assert loaded.agent == "antigravity", adapter_type
        assert registry.info(adapter_type).shape == "agent", adapter_type  # not 1.x exports
