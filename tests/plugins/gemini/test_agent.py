"""linewise-gemini declares one Agent (contract 1.5): its entry points name its formats."""

from __future__ import annotations

import subprocess
import sys

import linewise_gemini
from linewise.plugins.registry import Registry

ADAPTER_TYPES = ("gemini_local", "gemini_session")


def test_every_adapter_type_is_served_by_a_format_of_the_gemini_agent() -> None:
    registry = Registry()
    assert linewise_gemini.agent.name == "gemini"
    assert linewise_gemini.agent.adapter_types == ADAPTER_TYPES
    for adapter_type in ADAPTER_TYPES:
        loaded = registry.load(adapter_type)
        assert not loaded.is_fallback, adapter_type
        assert loaded.agent == "gemini", adapter_type
        assert registry.info(adapter_type).shape == "agent", adapter_type  # not 1.x exports


def test_loading_gemini_local_imports_none_of_the_other_formats_code() -> None:
    # A run of one format pays for its own modules only: the others' are named by reference.
    code = (
        "import sys\n"
        "from linewise.plugins.registry import Registry\n"
        "Registry().load('gemini_local')\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('linewise_gemini'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    imported = set(done.stdout.split())
    assert "linewise_gemini" in imported
    assert not imported & {
        "linewise_gemini.session",
        "linewise_gemini.session_sniff",
        "linewise_gemini.store",
        "linewise_gemini.session_summary",
        "linewise_gemini.session_parser",
    }
