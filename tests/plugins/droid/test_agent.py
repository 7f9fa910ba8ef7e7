"""linewise-droid declares one Agent (contract 1.5): its entry points name its formats."""

from __future__ import annotations

import subprocess
import sys

import linewise_droid
from linewise.plugins.registry import Registry

ADAPTER_TYPES = ("droid_local", "droid_session")


def test_every_adapter_type_is_served_by_a_format_of_the_droid_agent() -> None:
    registry = Registry()
    assert linewise_droid.agent.name == "droid"
    assert linewise_droid.agent.adapter_types == ADAPTER_TYPES
    for adapter_type in ADAPTER_TYPES:
        loaded = registry.load(adapter_type)
        assert not loaded.is_fallback, adapter_type
        assert loaded.agent == "droid", adapter_type
        assert registry.info(adapter_type).shape == "agent", adapter_type  # not 1.x exports


def test_loading_droid_local_imports_none_of_the_other_formats_code() -> None:
    # A run of one format pays for its own modules only: the others' are named by reference.
    code = (
        "import sys\n"
        "from linewise.plugins.registry import Registry\n"
        "Registry().load('droid_local')\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('linewise_droid'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    imported = set(done.stdout.split())
    assert "linewise_droid" in imported
    assert not imported & {
        "linewise_droid.session",
        "linewise_droid.session_parser",
        "linewise_droid.store",
    }
