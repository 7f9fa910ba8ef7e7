"""linewise-copilot's package names of contract 1.x, when it was copilot_session's entry point.

(That every entry point names a format of the one agent, and that loading copilot_local
imports no session code, is tests/plugins/test_declared_agents.py.)
"""

from __future__ import annotations

import linewise_copilot
from linewise_copilot import session


def test_the_1_x_names_of_the_package_are_still_copilot_sessions() -> None:
    for name in ("create_stdout_parser", "sniff", "session_stores", "summarize_run", "label"):
        assert getattr(linewise_copilot, name) is getattr(session, name), name
    assert linewise_copilot.agent_configuration_doc == linewise_copilot.SESSION_DOC
    assert linewise_copilot.agent.copilot_session.summarize_run is session.summarize_run


def test_the_1_x_stdout_and_history_modules_export_what_their_formats_serve() -> None:
    from linewise_copilot import history, stdout

    local, stored = linewise_copilot.agent.copilot_local, linewise_copilot.agent.copilot_history
    for module, fmt in ((stdout, local), (history, stored)):
        for name in ("create_stdout_parser", "sniff", "summarize_run"):
            assert getattr(module, name) is getattr(fmt, name), (module.__name__, name)
        assert (module.label, module.agent_configuration_doc) == (
            fmt.label,
            fmt.agent_configuration_doc,
        )
