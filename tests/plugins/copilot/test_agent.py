"""linewise-copilot declares one Agent (contract 1.5): its entry points name its formats."""

from __future__ import annotations

import subprocess
import sys

import linewise_copilot
from linewise.plugins.registry import Registry

ADAPTER_TYPES = ("copilot_local", "copilot_session", "copilot_history")


def test_every_adapter_type_is_served_by_a_format_of_the_copilot_agent() -> None:
    registry = Registry()
    assert linewise_copilot.agent.name == "copilot"
    assert linewise_copilot.agent.adapter_types == ADAPTER_TYPES
    for adapter_type in ADAPTER_TYPES:
        loaded = registry.load(adapter_type)
        assert not loaded.is_fallback, adapter_type
        assert loaded.agent == "copilot", adapter_type
        assert registry.info(adapter_type).shape == "agent", adapter_type  # not 1.x exports


def test_loading_copilot_local_imports_none_of_the_other_formats_code() -> None:
    # A run of one format pays for its own modules only: the others' are named by reference.
    code = (
        "import sys\n"
        "from linewise.plugins.registry import Registry\n"
        "Registry().load('copilot_local')\n"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('linewise_copilot'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    imported = set(done.stdout.split())
    assert "linewise_copilot" in imported
    assert not imported & {
        "linewise_copilot.session.summary",
        "linewise_copilot.session.history",
        "linewise_copilot.session.store",
        "linewise_copilot.history",
        "linewise_copilot.stdout",
        "linewise_copilot.session",
    }


def test_the_1_x_names_of_the_package_are_still_copilot_sessions() -> None:
    # The package was copilot_session's entry point in contract 1.x: its names read the same.
    from linewise_copilot import session

    for name in ("create_stdout_parser", "sniff", "session_stores", "summarize_run", "label"):
        assert getattr(linewise_copilot, name) is getattr(session, name), name
    assert linewise_copilot.agent_configuration_doc == linewise_copilot.SESSION_DOC
    assert linewise_copilot.agent.copilot_session.summarize_run is session.summarize_run
